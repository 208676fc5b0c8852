# eom excite. The tables' numbers (limits at every row, derivatives, rest at the ends, cycles,
# the same bytes for the same seed) are checked by reading them back (check_excite_tables.cpp);
# here the report and what it refuses.
eom_cli_test(NAME excite-ur5
             ARGS excite robots/ur5.urdf --period 4 --harmonics 3 --rate 50 --evaluations 200
                  -o ${EOM_CLI_OUT}/excite_ur5.csv
             STDERR_REGEX "^eom excite: 48 base parameters, 200 evaluations; condition number [0-9.e+]+ \\(starting guess [0-9.e+]+\\), log det [0-9.e+-]+ \\(starting guess [0-9.e+-]+\\)\n$")
eom_cli_test(NAME excite-header
             ARGS excite robots/planar_2r.urdf --harmonics 2 --evaluations 10 -q --rate 1 --period 2
             STDOUT_REGEX "^t,q.joint1,q.joint2,v.joint1,v.joint2,a.joint1,a.joint2\n0,[^\n]*\n1,[^\n]*\n2,[^\n]*\n$")
eom_cli_test(NAME excite-json
             ARGS excite robots/planar_2r.urdf --harmonics 2 --evaluations 10 -q --rate 1 --period 1 --format json
             STDOUT_REGEX "^\\[\n?\\{\"t\":0,\"q.joint1\"")

# bad input: exit 2, naming the joint or the option, nothing written
eom_cli_test(NAME excite-no-limits
             ARGS excite tests/data/urdf/planar_2r_continuous.urdf -o ${EOM_CLI_OUT}/excite_no_limits.csv
             RC 2 STDERR_REGEX "joint 'joint1' has no position limits in tests/data/urdf/planar_2r_continuous.urdf: give them with --limits joint1=LO:HI"
             ABSENT ${EOM_CLI_OUT}/excite_no_limits.csv)
eom_cli_test(NAME excite-limits-given
             ARGS excite tests/data/urdf/planar_2r_continuous.urdf --limits joint1=-2:2 --harmonics 2
                  --evaluations 10 -q -o ${EOM_CLI_OUT}/excite_limits_given.csv)
eom_cli_test(NAME excite-limits-unknown-joint
             ARGS excite robots/planar_2r.urdf --limits elbow=-1:1 -o ${EOM_CLI_OUT}/excite_unknown.csv
             RC 2 STDERR_REGEX "--limits elbow=-1: the model has no coordinate 'elbow'"
             ABSENT ${EOM_CLI_OUT}/excite_unknown.csv)
eom_cli_test(NAME excite-limits-malformed
             ARGS excite robots/planar_2r.urdf --limits joint1=1:-1 -o ${EOM_CLI_OUT}/excite_malformed.csv
             RC 2 STDERR_REGEX "--limits joint1=1:-1: expected JOINT=LO:HI with numbers LO < HI"
             ABSENT ${EOM_CLI_OUT}/excite_malformed.csv)
eom_cli_test(NAME excite-bad-period
             ARGS excite robots/planar_2r.urdf --period 0 -o ${EOM_CLI_OUT}/excite_period.csv
             RC 2 STDERR_REGEX "--period" ABSENT ${EOM_CLI_OUT}/excite_period.csv)
eom_cli_test(NAME excite-bad-harmonics
             ARGS excite robots/planar_2r.urdf --harmonics 0 -o ${EOM_CLI_OUT}/excite_harmonics.csv
             RC 2 STDERR_REGEX "--harmonics" ABSENT ${EOM_CLI_OUT}/excite_harmonics.csv)
eom_cli_test(NAME excite-bad-rate
             ARGS excite robots/planar_2r.urdf --rate -5 -o ${EOM_CLI_OUT}/excite_rate.csv
             RC 2 STDERR_REGEX "--rate" ABSENT ${EOM_CLI_OUT}/excite_rate.csv)
eom_cli_test(NAME excite-rest-one-harmonic
             ARGS excite robots/planar_2r.urdf --harmonics 1 -o ${EOM_CLI_OUT}/excite_one.csv
             RC 2 STDERR_REGEX "rest-to-rest ends need at least 2 harmonics"
             ABSENT ${EOM_CLI_OUT}/excite_one.csv)
eom_cli_test(NAME excite-floating-base
             ARGS excite robots/ur5.urdf --floating-base -o ${EOM_CLI_OUT}/excite_floating.csv
             RC 2 STDERR_REGEX "drop --floating-base" ABSENT ${EOM_CLI_OUT}/excite_floating.csv)
eom_cli_test(NAME excite-only-unknown
             ARGS excite robots/ur5.urdf --only tool0 -o ${EOM_CLI_OUT}/excite_only.csv
             RC 2 STDERR_REGEX "--only tool0: a link fixed to wrist_3_link, name that body"
             ABSENT ${EOM_CLI_OUT}/excite_only.csv)

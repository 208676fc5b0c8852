# eom identify. tests/data/identify/ur5_log.csv: the torques eom id --friction computes for
# ur5_true.urdf (scripts/make_identify_data.py: the UR5 with heavier links, moved centres of mass,
# damping and friction) along a five-harmonic Fourier trajectory.
set(IDENTIFY_LOG tests/data/identify/ur5_log.csv)

# from the shipped UR5: least squares finds the true robot's base parameters (residuals of
# round-off), but its standard set nearest the shipped file is not a physical robot: --urdf-out
# refuses it and writes nothing
eom_cli_test(NAME identify-ur5-from-shipped
             ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} -o ${EOM_CLI_OUT}/identify_ur5.csv
                  --base-parameters ${EOM_CLI_OUT}/identify_ur5_base.csv --method least-squares
             STDERR_REGEX "eom identify: 800 rows, 48 base parameters of 72; condition number [0-9.]+\n.*\n  shoulder_pan_joint: [0-9.]+, [0-9.]+ \([0-9.]+%\) -> [0-9.]+e-1[3-6] ")
eom_cli_test(NAME identify-ur5-not-physical
             ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} -o ${EOM_CLI_OUT}/identify_np.csv
                  --urdf-out ${EOM_CLI_OUT}/identify_np.urdf --method least-squares
             RC 2 STDERR_REGEX "not a physical robot.*not positive semi-definite"
             ABSENT ${EOM_CLI_OUT}/identify_np.urdf)
# from the true inertias without friction: damping and friction identified, the URDF written back
# gives the log's torques (eom check --against computes them as eom id --friction) to round-off
eom_cli_test(NAME identify-ur5-urdf-out
             ARGS identify tests/data/identify/ur5_no_friction.urdf ${IDENTIFY_LOG} -q --prior-weight 0
                  -o ${EOM_CLI_OUT}/identify_ur5_friction.csv
                  --urdf-out ${EOM_CLI_OUT}/identify_ur5.urdf)
eom_cli_test(NAME identify-ur5-round-trip
             ARGS check ${EOM_CLI_OUT}/identify_ur5.urdf --against ${IDENTIFY_LOG} --tolerance 1e-9 -q
             STDOUT_REGEX "^$")
set_tests_properties("cli: identify-ur5-urdf-out" PROPERTIES FIXTURES_SETUP identify_ur5)
set_tests_properties("cli: identify-ur5-round-trip" PROPERTIES FIXTURES_REQUIRED identify_ur5)

# the consistent fit (the default) from the same shipped UR5: every body physical, so the URDF is
# written; a pure fit (--prior-weight 0) gives the log's torques to 1e-8 of their RMS, on the
# log and on a held-out one (ur5_heldout.csv: the true robot's torques along another trajectory)
eom_cli_test(NAME identify-ur5-consistent
             ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} --prior-weight 0
                  -o ${EOM_CLI_OUT}/identify_consistent.csv
                  --urdf-out ${EOM_CLI_OUT}/identify_consistent.urdf
             STDERR_REGEX "consistent fit \\(prior weight 0, [0-9]+ steps\\)")
eom_cli_test(NAME identify-ur5-consistent-check
             ARGS check ${EOM_CLI_OUT}/identify_consistent.urdf --against ${IDENTIFY_LOG}
                  tests/data/identify/ur5_heldout.csv --tolerance 1e-8 -q
             STDOUT_REGEX "^$")
set_tests_properties("cli: identify-ur5-consistent" PROPERTIES FIXTURES_SETUP identify_consistent)
set_tests_properties("cli: identify-ur5-consistent-check" PROPERTIES FIXTURES_REQUIRED identify_consistent)
# with the default pull toward the file's values: physical, near the log's torques
eom_cli_test(NAME identify-ur5-consistent-default
             ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} -q -o /dev/null
                  --urdf-out ${EOM_CLI_OUT}/identify_consistent_default.urdf)
eom_cli_test(NAME identify-ur5-consistent-default-check
             ARGS check ${EOM_CLI_OUT}/identify_consistent_default.urdf --against ${IDENTIFY_LOG}
                  --tolerance 1e-4 -q
             STDOUT_REGEX "^$")
set_tests_properties("cli: identify-ur5-consistent-default" PROPERTIES FIXTURES_SETUP identify_consistent_default)
set_tests_properties("cli: identify-ur5-consistent-default-check" PROPERTIES FIXTURES_REQUIRED identify_consistent_default)
eom_cli_test(NAME identify-bad-method ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} --method sdp
             RC 2 STDERR_REGEX "--method")

# the shipped model is not the robot of the log: against it, the check fails
eom_cli_test(NAME identify-ur5-prior-fails
             ARGS check robots/ur5.urdf --against ${IDENTIFY_LOG} --tolerance 0.01 RC 1
             STDOUT_REGEX "over the tolerance")

# starting from the true robot, every identified parameter is its prior to round-off: the
# residuals of the file's model and of the identified one are both round-off
eom_cli_test(NAME identify-ur5-from-truth
             ARGS identify tests/data/identify/ur5_true.urdf ${IDENTIFY_LOG} -o /dev/null
             STDERR_REGEX "shoulder_pan_joint: [0-9.e+-]+, [0-9.]+e-1[0-9] \\([0-9.e+-]+%\\) -> [0-9.]+e-1[0-9] ")

# bad input: exit 2, nothing written
eom_cli_test(NAME identify-without-tau
             ARGS identify robots/ur5.urdf tests/data/identify/ur5_excite.csv
                  -o ${EOM_CLI_OUT}/identify_without_tau.csv
             RC 2 STDERR_REGEX "ur5_excite.csv:1: missing columns tau.shoulder_pan_joint"
             ABSENT ${EOM_CLI_OUT}/identify_without_tau.csv)
eom_cli_test(NAME identify-floating-base
             ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} --floating-base RC 2
             STDERR_REGEX "contact forces")
# three rows cannot determine 48 base parameters: exit 1, nothing written
eom_cli_test(NAME identify-not-exciting
             ARGS identify robots/ur5.urdf tests/data/identify/ur5_three_rows.csv
                  -o ${EOM_CLI_OUT}/identify_not_exciting.csv RC 1
             STDERR_REGEX "do not excite every base parameter"
             ABSENT ${EOM_CLI_OUT}/identify_not_exciting.csv)
eom_cli_test(NAME identify-unknown-friction ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} --friction dry
             RC 2 STDERR_REGEX "--friction")

# scale out (doc/identify.md, "Partial fits"): each log of examples/logs.tsv (ur5_log.csv in four
# parts) to a partial fit, then the partial fits merged in the logs' order: byte for byte the
# parameters, base parameters, URDF and report of one run over the four logs
set(IDENTIFY_PARTS examples/logs/ur5_1.csv examples/logs/ur5_2.csv examples/logs/ur5_3.csv
                   examples/logs/ur5_4.csv)
set(identify_partials)
foreach(k 1 2 3 4)
  eom_cli_test(NAME identify-partial-${k}
               ARGS identify robots/ur5.urdf examples/logs/ur5_${k}.csv -q
                    --partial ${EOM_CLI_OUT}/identify_part_${k}.json)
  set_tests_properties("cli: identify-partial-${k}" PROPERTIES FIXTURES_SETUP identify_partials)
  list(APPEND identify_partials ${EOM_CLI_OUT}/identify_part_${k}.json)
endforeach()
eom_cli_test(NAME identify-single-run
             ARGS identify robots/ur5.urdf ${IDENTIFY_PARTS} -o ${EOM_CLI_OUT}/identify_single.csv
                  --base-parameters ${EOM_CLI_OUT}/identify_single_base.csv
                  --urdf-out ${EOM_CLI_OUT}/identify_single.urdf
             STDERR_REGEX "eom identify: 800 rows, 48 base parameters of 72")
eom_cli_test(NAME identify-merge
             ARGS identify robots/ur5.urdf -o ${EOM_CLI_OUT}/identify_merged.csv
                  --base-parameters ${EOM_CLI_OUT}/identify_merged_base.csv
                  --urdf-out ${EOM_CLI_OUT}/identify_merged.urdf --merge ${identify_partials}
             STDERR_REGEX "eom identify: 800 rows, 48 base parameters of 72")
set_tests_properties("cli: identify-merge" PROPERTIES FIXTURES_REQUIRED identify_partials)
set_tests_properties("cli: identify-single-run" "cli: identify-merge" PROPERTIES
                     FIXTURES_SETUP identify_merged)
add_test(NAME "cli: identify-merge-equals-single-run"
         COMMAND sh -c "cd ${EOM_CLI_OUT} && cmp identify_single.csv identify_merged.csv && cmp identify_single_base.csv identify_merged_base.csv && cmp identify_single.urdf identify_merged.urdf && cmp identify_single_run.stderr identify_merge.stderr")
set_tests_properties("cli: identify-merge-equals-single-run" PROPERTIES LABELS cli
                     FIXTURES_REQUIRED identify_merged)
# the same rows in one log (ur5_log.csv): the same base parameters, to round-off
eom_cli_test(NAME identify-whole-log
             ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} -q -o /dev/null
                  --base-parameters ${EOM_CLI_OUT}/identify_whole_base.csv)
set_tests_properties("cli: identify-whole-log" PROPERTIES FIXTURES_SETUP identify_merged)
# (each base parameter within 1e-10 of the largest in magnitude: the rows are summed in another order)
add_test(NAME "cli: identify-merge-equals-whole-log"
         COMMAND python3 -c "import csv, sys
a, b = ([float(r['value']) for r in csv.DictReader(open(f))] for f in sys.argv[1:])
scale = max(abs(x) for x in a)
worst = max(abs(x - y) for x, y in zip(a, b)) / scale
print('largest difference relative to the largest base parameter:', worst)
sys.exit(0 if len(a) == len(b) and worst <= 1e-10 else 1)"
                 ${EOM_CLI_OUT}/identify_whole_base.csv ${EOM_CLI_OUT}/identify_merged_base.csv)
set_tests_properties("cli: identify-merge-equals-whole-log" PROPERTIES LABELS cli
                     FIXTURES_REQUIRED identify_merged)
# a partial fit of a merge: the merge of it with the rest is the single run too
eom_cli_test(NAME identify-partial-of-partials
             ARGS identify robots/ur5.urdf -q --partial ${EOM_CLI_OUT}/identify_part_12.json
                  --merge ${EOM_CLI_OUT}/identify_part_1.json ${EOM_CLI_OUT}/identify_part_2.json)
set_tests_properties("cli: identify-partial-of-partials" PROPERTIES FIXTURES_REQUIRED identify_partials
                     FIXTURES_SETUP identify_part_12)
eom_cli_test(NAME identify-merge-nested
             ARGS identify robots/ur5.urdf -q -o ${EOM_CLI_OUT}/identify_nested.csv --merge
                  ${EOM_CLI_OUT}/identify_part_12.json ${EOM_CLI_OUT}/identify_part_3.json
                  ${EOM_CLI_OUT}/identify_part_4.json)
set_tests_properties("cli: identify-merge-nested" PROPERTIES FIXTURES_REQUIRED "identify_part_12;identify_partials"
                     FIXTURES_SETUP identify_nested)
add_test(NAME "cli: identify-merge-nested-equals-single-run"
         COMMAND ${CMAKE_COMMAND} -E compare_files ${EOM_CLI_OUT}/identify_single.csv ${EOM_CLI_OUT}/identify_nested.csv)
set_tests_properties("cli: identify-merge-nested-equals-single-run" PROPERTIES LABELS cli
                     FIXTURES_REQUIRED "identify_nested;identify_merged")
# partial fits of another robot file or other settings: refused naming the file and what differs
eom_cli_test(NAME identify-merge-other-prior
             ARGS identify tests/data/identify/ur5_true.urdf -o ${EOM_CLI_OUT}/identify_other.csv
                  --merge ${identify_partials}
             RC 2 STDERR_REGEX "identify_part_1.json: a partial fit made with other inertial, friction or armature values in the robot file .*prior hash [0-9a-f]+, this run with [0-9a-f]+"
             ABSENT ${EOM_CLI_OUT}/identify_other.csv)
eom_cli_test(NAME identify-merge-other-friction
             ARGS identify robots/ur5.urdf --friction viscous,coulomb,offset -o ${EOM_CLI_OUT}/identify_other.csv
                  --merge ${identify_partials}
             RC 2 STDERR_REGEX "identify_part_1.json: a partial fit made with the friction columns viscous,coulomb, this run with viscous,coulomb,offset"
             ABSENT ${EOM_CLI_OUT}/identify_other.csv)
eom_cli_test(NAME identify-merge-other-robot
             ARGS identify robots/panda.urdf -o ${EOM_CLI_OUT}/identify_other.csv --merge ${identify_partials}
             RC 2 STDERR_REGEX "identify_part_1.json: a partial fit made with the robot 'ur5', this run with 'panda'"
             ABSENT ${EOM_CLI_OUT}/identify_other.csv)
set_tests_properties("cli: identify-merge-other-prior" "cli: identify-merge-other-friction"
                     "cli: identify-merge-other-robot" PROPERTIES FIXTURES_REQUIRED identify_partials)
eom_cli_test(NAME identify-merge-option-as-file
             ARGS identify robots/ur5.urdf --merge -o ${EOM_CLI_OUT}/identify_other.csv
             RC 2 STDERR_REGEX "-o is an option, not a partial fit"
             ABSENT ${EOM_CLI_OUT}/identify_other.csv)
eom_cli_test(NAME identify-no-logs ARGS identify robots/ur5.urdf RC 2 STDERR_REGEX "no logs")

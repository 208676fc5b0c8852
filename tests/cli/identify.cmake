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
# three rows cannot determine 48 base parameters: 3 rows of 6 joints are 18 equations, so 30
# are named as not determined; exit 1, nothing written
eom_cli_test(NAME identify-not-exciting
             ARGS identify robots/ur5.urdf tests/data/identify/ur5_three_rows.csv
                  -o ${EOM_CLI_OUT}/identify_not_exciting.csv RC 1
             STDERR_REGEX "not determined by the logs: 30 of 48 base parameters.*do not excite every base parameter.*the 30 above"
             ABSENT ${EOM_CLI_OUT}/identify_not_exciting.csv)
# wrist_3 turning at a constant speed (ur5_log.csv with q = 0.3 t, v = 0.3, a = 0 for it): its
# viscous, Coulomb and offset columns are the constants 0.3, 1 and 1, so the logs determine one
# combination of the three and two of them are named as not determined (exit 1, nothing written)
add_test(NAME "cli: identify-constant-speed-log"
         COMMAND python3 -c "import csv, sys
rows = csv.reader(open(sys.argv[1]))
out = csv.writer(open(sys.argv[2], 'w', newline=''), lineterminator='\\n')
header = next(rows)
out.writerow(header)
at = {x: header.index(x + '.wrist_3_joint') for x in 'qva'}
for row in rows:
    row[at['q']], row[at['v']], row[at['a']] = repr(0.3 * float(row[0])), '0.3', '0'
    out.writerow(row)"
                 ${PROJECT_SOURCE_DIR}/${IDENTIFY_LOG} ${EOM_CLI_OUT}/identify_constant_speed.csv)
set_tests_properties("cli: identify-constant-speed-log" PROPERTIES LABELS cli
                     FIXTURES_SETUP identify_constant_speed)
eom_cli_test(NAME identify-not-determined
             ARGS identify robots/ur5.urdf ${EOM_CLI_OUT}/identify_constant_speed.csv
                  --friction viscous,coulomb,offset -o ${EOM_CLI_OUT}/identify_not_determined.csv RC 1
             STDERR_REGEX "not determined by the logs: 2 of [0-9]+ base parameters \\(the logs tell them only in combination with the others\\)\n  b[0-9]+ = wrist_3_joint\\.f[vco]\n  b[0-9]+ = wrist_3_joint\\.f[vco]\neom identify: error: the logs do not excite every base parameter \\(condition number above 1e\\+08\\): the 2 above are not determined; nothing written"
             ABSENT ${EOM_CLI_OUT}/identify_not_determined.csv)
set_tests_properties("cli: identify-not-determined" PROPERTIES FIXTURES_REQUIRED identify_constant_speed)
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
         COMMAND sh -c "cd ${EOM_CLI_OUT} && cmp identify_single.csv identify_merged.csv && cmp identify_single_base.csv identify_merged_base.csv && cmp identify_single.urdf identify_merged.urdf && bash ${CMAKE_CURRENT_SOURCE_DIR}/same_report.sh identify_single_run.stderr identify_merge.stderr")
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

# --only: a payload welded to the UR5's last link (ur5_payload_log.csv: eom id's torques of
# ur5_payload_true.urdf, scripts/make_identify_data.py) identified as that link's body, every
# other body at the file's values, from the shipped UR5 (no payload) and from one with a wrong
# payload: the ten parameters of the body are then all base parameters, least squares finds them
# to round-off, and the URDF written gives the log's torques back to 1e-9 of their RMS (the
# parameters themselves against the URDF's numbers: tests/unit/trajectory/
# test_identification_only.cpp)
set(PAYLOAD_LOG tests/data/identify/ur5_payload_log.csv)
foreach(prior robots/ur5.urdf tests/data/identify/ur5_payload_wrong.urdf)
  get_filename_component(name ${prior} NAME_WE)
  eom_cli_test(NAME identify-only-${name}
               ARGS identify ${prior} ${PAYLOAD_LOG} --only wrist_3_link --friction none
                    --method least-squares -o ${EOM_CLI_OUT}/identify_only_${name}.csv
                    --urdf-out ${EOM_CLI_OUT}/identify_only_${name}.urdf
               STDERR_REGEX "eom identify: 800 rows, 10 base parameters of 10; condition number")
  eom_cli_test(NAME identify-only-${name}-check
               ARGS check ${EOM_CLI_OUT}/identify_only_${name}.urdf --against ${PAYLOAD_LOG}
                    --tolerance 1e-9 -q
               STDOUT_REGEX "^$")
  set_tests_properties("cli: identify-only-${name}" PROPERTIES FIXTURES_SETUP identify_only_${name})
  set_tests_properties("cli: identify-only-${name}-check" PROPERTIES FIXTURES_REQUIRED identify_only_${name})
endforeach()
# the consistent pure fit: its weighted residual is 3e-9 of the data's scale (the continuation's
# last pull, 1e-7, and the optimiser's stopping), which is 5e-8 of the smallest joint's torque
# RMS (wrist_3_joint's, 0.06 N m): checked to 1e-7
eom_cli_test(NAME identify-only-consistent
             ARGS identify tests/data/identify/ur5_payload_wrong.urdf ${PAYLOAD_LOG}
                  --only wrist_3_link --friction none --prior-weight 0 -q -o /dev/null
                  --urdf-out ${EOM_CLI_OUT}/identify_only_consistent.urdf)
eom_cli_test(NAME identify-only-consistent-check
             ARGS check ${EOM_CLI_OUT}/identify_only_consistent.urdf --against ${PAYLOAD_LOG}
                  --tolerance 1e-7 -q
             STDOUT_REGEX "^$")
set_tests_properties("cli: identify-only-consistent" PROPERTIES FIXTURES_SETUP identify_only_consistent)
set_tests_properties("cli: identify-only-consistent-check" PROPERTIES FIXTURES_REQUIRED identify_only_consistent)
# the prior alone misses the payload: the check fails
eom_cli_test(NAME identify-only-prior-fails
             ARGS check robots/ur5.urdf --against ${PAYLOAD_LOG} --tolerance 0.01 RC 1
             STDOUT_REGEX "over the tolerance")
# links --only cannot identify: exit 2, nothing written
eom_cli_test(NAME identify-only-unknown
             ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} --only wrist_3_lnk
                  -o ${EOM_CLI_OUT}/identify_only_unknown.csv
             RC 2 STDERR_REGEX "no link 'wrist_3_lnk' in the robot \\(did you mean 'wrist_3_link'"
             ABSENT ${EOM_CLI_OUT}/identify_only_unknown.csv)
eom_cli_test(NAME identify-only-welded
             ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} --only ee_link
                  -o ${EOM_CLI_OUT}/identify_only_welded.csv
             RC 2 STDERR_REGEX "link 'ee_link' is welded by fixed joints to 'wrist_3_link', whose body"
             ABSENT ${EOM_CLI_OUT}/identify_only_welded.csv)
eom_cli_test(NAME identify-only-base
             ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} --only base_link -o /dev/null
             RC 2 STDERR_REGEX "link 'base_link' is welded to the fixed base")
eom_cli_test(NAME identify-only-massless
             ARGS identify tests/data/urdf/massless_gripper.urdf ${IDENTIFY_LOG} --only finger_1
                  -o ${EOM_CLI_OUT}/identify_only_massless.csv
             RC 2 STDERR_REGEX "link 'finger_1' has no mass in the robot file"
             ABSENT ${EOM_CLI_OUT}/identify_only_massless.csv)

# --validate and the report: the residuals on a held-out log (the values against eom check's:
# tests/cli/summaries.sh identify-report)
eom_cli_test(NAME identify-validate
             ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} --prior-weight 0 -o /dev/null
                  --validate tests/data/identify/ur5_heldout.csv
             STDERR_REGEX "on the held-out logs \\(200 rows\\), joint: .*\n  shoulder_pan_joint: [0-9.]+, [0-9.]+ \\([0-9.]+%\\) -> [0-9.]+e-(09|1[0-9]) .*worst-determined base parameters")
eom_cli_test(NAME identify-validate-bad
             ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} -o ${EOM_CLI_OUT}/identify_validate_bad.csv
                  --validate tests/data/identify/ur5_excite.csv
             RC 2 STDERR_REGEX "ur5_excite.csv:1: missing columns tau.shoulder_pan_joint"
             ABSENT ${EOM_CLI_OUT}/identify_validate_bad.csv)

# --filter and --decimate: the rows that remain follow from the window (H = ceil(4 * 100 / 5) =
# 80 rows at each end of the 800-row log) and the decimation (every fourth of the 640 left: 160)
eom_cli_test(NAME identify-filter-rows
             ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} --filter 5 -o /dev/null
             STDERR_REGEX "eom identify: 640 rows \\(160 dropped: 160 at the ends of segments by the filter, 0 by the decimation\\)")
eom_cli_test(NAME identify-decimate-rows
             ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} --decimate 4 -o /dev/null
             STDERR_REGEX "eom identify: 200 rows \\(600 dropped: 0 at the ends of segments by the filter, 600 by the decimation\\)")
eom_cli_test(NAME identify-filter-decimate-rows
             ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} --filter 5 --decimate 4 -o /dev/null
             STDERR_REGEX "eom identify: 160 rows \\(640 dropped")
# the payload log's motion is under 1 Hz (five harmonics of 1/8 Hz) and has no friction: a 5 Hz
# low-pass passes q and tau alike to within its ripple, 2e-4 (-74 dB; tests/unit/trajectory/
# test_low_pass.cpp), and what the dynamics' products and sines put above the pass band is smaller
# still, so the identified robot gives the unfiltered log's torques to that order: checked to 1e-3
# (measured: 5e-5 of the smallest joint's RMS)
eom_cli_test(NAME identify-filter
             ARGS identify robots/ur5.urdf ${PAYLOAD_LOG} --filter 5 --friction none -q
                  --prior-weight 0 -o /dev/null --urdf-out ${EOM_CLI_OUT}/identify_filter.urdf)
eom_cli_test(NAME identify-filter-check
             ARGS check ${EOM_CLI_OUT}/identify_filter.urdf --against ${PAYLOAD_LOG}
                  --tolerance 1e-3 -q
             STDOUT_REGEX "^$")
set_tests_properties("cli: identify-filter" PROPERTIES FIXTURES_SETUP identify_filter)
set_tests_properties("cli: identify-filter-check" PROPERTIES FIXTURES_REQUIRED identify_filter)
# a cut-off at or above the Nyquist frequency (the log's rate is 100 Hz): exit 2, saying the rate
eom_cli_test(NAME identify-filter-nyquist
             ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} --filter 50
                  -o ${EOM_CLI_OUT}/identify_filter_nyquist.csv
             RC 2 STDERR_REGEX "ur5_log.csv:3: a low-pass cut-off of 50 Hz: it must be above 0 and below 50 Hz, the Nyquist frequency of the log's 100 samples per second"
             ABSENT ${EOM_CLI_OUT}/identify_filter_nyquist.csv)
eom_cli_test(NAME identify-filter-zero
             ARGS identify robots/ur5.urdf ${IDENTIFY_LOG} --filter 0 -o /dev/null
             RC 2 STDERR_REGEX "--filter")

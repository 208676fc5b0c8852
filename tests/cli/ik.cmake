# eom ik: bad input (exit codes per the CLI contract, no output file on failure), failed rows,
# per-row weights and warnings; the numerical checks (circle, round trips through eom fk, the three
# orientation forms, --relative-to, reproducibility) read the tables back in check_ik_tables.cpp.
set(IK ik robots/iiwa14.urdf)
set(IKD tests/data/ik)

# fk -> ik -> fk through pipes is checked numerically there; here the pipe itself and the
# columns eom ik writes
eom_cli_test(NAME ik-columns
             ARGS ${IK} ${IKD}/iiwa_quaternion.csv --frame iiwa_link_ee --timing --summary
             STDOUT_REGEX "^q.iiwa_joint_1,q.iiwa_joint_2,q.iiwa_joint_3,q.iiwa_joint_4,q.iiwa_joint_5,q.iiwa_joint_6,q.iiwa_joint_7,ik.status,ik.position_error,ik.orientation_error,ik.iterations,ik.restarts,ik.time_us\n[^\n]*,1,[^,]+,[^,]+,[0-9]+,[0-9]+,[^,\n]+\n"
             STDERR_REGEX "eom ik: ${IKD}/iiwa_quaternion.csv: 2 of 2 rows converged \\(100.0%\\); solve time median")
eom_cli_test(NAME ik-quiet ARGS ${IK} ${IKD}/iiwa_unreachable.csv --frame iiwa_link_ee -q --allow-failures
             STDERR_REGEX "^$")

# unknown frames name the close ones
eom_cli_test(NAME ik-unknown-frame
             ARGS ${IK} trajectories/iiwa_circle_targets.csv --frame iiwa_link_eee -o ${EOM_CLI_OUT}/ik_unknown.csv
             RC 2 ABSENT ${EOM_CLI_OUT}/ik_unknown.csv
             STDERR_REGEX "eom ik: error: --frame: unknown frame 'iiwa_link_eee' \\(did you mean 'iiwa_link_ee', ")
eom_cli_test(NAME ik-unknown-relative-to
             ARGS ${IK} trajectories/iiwa_circle_targets.csv --frame iiwa_link_ee --relative-to iiwa_link_33
             RC 2 STDERR_REGEX "--relative-to: unknown frame 'iiwa_link_33' \\(did you mean 'iiwa_link_3'")
# a frame no joint moves: the world-fixed base, or a frame rigidly attached to the reference
eom_cli_test(NAME ik-frame-without-moving-joint
             ARGS ${IK} trajectories/iiwa_circle_targets.csv --frame iiwa_link_0
             RC 2 STDERR_REGEX "eom ik: error: IK: frame 'iiwa_link_0' has no moving joint above it")
eom_cli_test(NAME ik-frame-rigid-to-reference
             ARGS ${IK} trajectories/iiwa_circle_targets.csv --frame iiwa_link_ee --relative-to iiwa_link_7
             RC 2 STDERR_REGEX "frame 'iiwa_link_ee' is rigidly attached to reference frame 'iiwa_link_7'")

# target columns
eom_cli_test(NAME ik-missing-orientation
             ARGS ${IK} ${IKD}/iiwa_position_only.csv --frame iiwa_link_ee
             RC 2 STDERR_REGEX "iiwa_position_only.csv:1: missing the target orientation of iiwa_link_ee: columns iiwa_link_ee.qx .qy .qz .qw, or iiwa_link_ee.R.x.x ... iiwa_link_ee.R.z.z, or iiwa_link_ee.roll .pitch .yaw \\(or --mask position\\)")
eom_cli_test(NAME ik-mask-position
             ARGS ${IK} ${IKD}/iiwa_position_only.csv --frame iiwa_link_ee --mask position
             STDOUT_REGEX "\n1,[^\n]*,1,[^,]+,0,[0-9]+,[0-9]+\n$")
eom_cli_test(NAME ik-missing-position
             ARGS ${IK} ${IKD}/iiwa_orientation_only.csv --frame iiwa_link_ee
             RC 2 STDERR_REGEX "iiwa_orientation_only.csv:1: missing columns iiwa_link_ee.x, iiwa_link_ee.y, iiwa_link_ee.z")
eom_cli_test(NAME ik-mask-orientation
             ARGS ${IK} ${IKD}/iiwa_orientation_only.csv --frame iiwa_link_ee --mask orientation
             STDOUT_REGEX "\n[^\n]*,1,0,[^,]+,[0-9]+,[0-9]+\n$")
eom_cli_test(NAME ik-two-orientations
             ARGS ${IK} ${IKD}/iiwa_two_orientations.csv --frame iiwa_link_ee
             RC 2 STDERR_REGEX "iiwa_two_orientations.csv:1: the orientation of iiwa_link_ee is given both as quaternion and as roll-pitch-yaw: give one")
eom_cli_test(NAME ik-misspelt-seed-column
             ARGS ${IK} tests/data/id/ur5_robot.csv --frame iiwa_link_ee
             RC 2 STDERR_REGEX "column q.shoulder_pan_joint: the model has no joint coordinate 'shoulder_pan_joint'")

# quaternions: normalised with a warning up to 1e-3 from unit norm, refused beyond
eom_cli_test(NAME ik-quaternion-normalised
             ARGS ${IK} ${IKD}/iiwa_quaternion_rounded.csv --frame iiwa_link_ee
             STDERR_REGEX "eom ik: warning: ${IKD}/iiwa_quaternion_rounded.csv: normalised the target rotation of 1 row \\(a quaternion not of unit norm, or a matrix not quite orthonormal; first at line 3, largest deviation 0.0001 at line 3; beyond 0.001 a target is refused\\)")
eom_cli_test(NAME ik-quaternion-not-unit
             ARGS ${IK} ${IKD}/iiwa_quaternion_not_unit.csv --frame iiwa_link_ee -o ${EOM_CLI_OUT}/ik_not_unit.csv
             RC 2 ABSENT ${EOM_CLI_OUT}/ik_not_unit.csv
             STDERR_REGEX "eom ik: error: ${IKD}/iiwa_quaternion_not_unit.csv:3: the target quaternion \\(0.000000, 1.010000, 0.000000, 0.000000\\) has norm 1.010000; a unit quaternion is expected \\(within 0.001000\\)")

# masks and weights
eom_cli_test(NAME ik-mask-selects-nothing
             ARGS ${IK} trajectories/iiwa_circle_targets.csv --frame iiwa_link_ee --mask position --position-weight 0
             RC 2 STDERR_REGEX "eom ik: error: --mask 'position': the IK mask selects nothing")
eom_cli_test(NAME ik-mask-unknown-component
             ARGS ${IK} trajectories/iiwa_circle_targets.csv --frame iiwa_link_ee --mask x,yaw
             RC 2 STDERR_REGEX "unknown IK mask component 'yaw' \\(expected x, y, z, rx, ry, rz, position, orientation or all\\)")
eom_cli_test(NAME ik-row-weights
             ARGS ${IK} ${IKD}/iiwa_row_weights.csv --frame iiwa_link_ee
             STDOUT_REGEX "\n[^\n]*,1,[^,]+,[^,]+,[0-9]+,[0-9]+\n[^\n]*,1,[^,]+,0,[0-9]+,[0-9]+\n$")
eom_cli_test(NAME ik-row-weights-select-nothing
             ARGS ${IK} ${IKD}/iiwa_row_weights_nothing.csv --frame iiwa_link_ee
             RC 2 STDERR_REGEX "iiwa_row_weights_nothing.csv:3: the ik.weight.\\* columns and --mask select nothing in this row")

# seeds and postures
eom_cli_test(NAME ik-q0-unknown-joint
             ARGS ${IK} trajectories/iiwa_circle_targets.csv --frame iiwa_link_ee --q0 iiwa_joint_8=1
             RC 2 STDERR_REGEX "--q0 iiwa_joint_8=1: the model has no joint coordinate 'iiwa_joint_8'")
eom_cli_test(NAME ik-q0-not-a-number
             ARGS ${IK} trajectories/iiwa_circle_targets.csv --frame iiwa_link_ee --q0 iiwa_joint_4=bent
             RC 2 STDERR_REGEX "--q0 iiwa_joint_4=bent: expected NAME=VALUE")
eom_cli_test(NAME ik-posture-unknown
             ARGS ${IK} trajectories/iiwa_circle_targets.csv --frame iiwa_link_ee --posture middle
             RC 2 STDERR_REGEX "--posture middle: expected seed, centre, none or NAME=VALUE,...")

# an unreachable target: the row fails with its best residual; exit 1 and no output file, or
# with --allow-failures exit 0 and ik.status 0
eom_cli_test(NAME ik-unreachable
             ARGS ${IK} ${IKD}/iiwa_unreachable.csv --frame iiwa_link_ee -o ${EOM_CLI_OUT}/ik_unreachable.csv
             RC 1 ABSENT ${EOM_CLI_OUT}/ik_unreachable.csv
             STDERR_REGEX "eom ik: error: ${IKD}/iiwa_unreachable.csv: 1 of 2 rows did not converge \\(first at line 3: best residual [0-9.]+ m, [0-9.e-]+ rad; largest position error [0-9.]+ m at line 3\\); their q is the best residual found, with ik.status 0 \\(--allow-failures writes them\\)\n.*ik_unreachable.csv not written")
eom_cli_test(NAME ik-unreachable-allowed
             ARGS ${IK} ${IKD}/iiwa_unreachable.csv --frame iiwa_link_ee --allow-failures
             STDOUT_REGEX "\n0,[^\n]*,1,[^,]+,[^,]+,[0-9]+,0\n1,[^\n]*,0,[0-9.]+,[^,]+,[0-9]+,[0-9]+\n$"
             STDERR_REGEX "eom ik: warning: ${IKD}/iiwa_unreachable.csv: 1 of 2 rows did not converge.*1 of 2 rows converged \\(50.0%\\)")

# a path whose joints must jump is reported (a table with t: each row from the previous one)
eom_cli_test(NAME ik-jump-reported
             ARGS ${IK} ${IKD}/iiwa_jump.csv --frame iiwa_link_ee
             STDERR_REGEX "eom ik: warning: ${IKD}/iiwa_jump.csv: the joint path jumps by more than 0.3 \\(--jump-threshold\\) in 1 row: first at line 3, largest [0-9.]+ at line 3")

# --independent: every row from --q0, so no path and no jump to report
eom_cli_test(NAME ik-independent-rows
             ARGS ${IK} ${IKD}/iiwa_jump.csv --frame iiwa_link_ee --independent
             STDOUT_REGEX "\n0,[^\n]*,1,[^\n]*\n1,[^\n]*,1,[^\n]*\n$")

# tables read back: the circle, round trips through eom fk, orientation forms, --relative-to,
# reproducibility
add_executable(eom_ik_checks check_ik_tables.cpp $<TARGET_OBJECTS:eom_catch_main>)
target_include_directories(eom_ik_checks PRIVATE ${PROJECT_SOURCE_DIR}/tests/support
                                                 ${PROJECT_BINARY_DIR}/tests/support)
target_compile_definitions(eom_ik_checks PRIVATE EOM_BINARY="$<TARGET_FILE:eom_cli>")
target_link_libraries(eom_ik_checks PRIVATE eom Catch2::Catch2)
add_dependencies(eom_ik_checks eom_cli)
catch_discover_tests(eom_ik_checks TEST_PREFIX "cli: " PROPERTIES LABELS cli)

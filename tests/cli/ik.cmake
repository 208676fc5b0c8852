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
             STDERR_REGEX "eom ik: error: ${IKD}/iiwa_quaternion_not_unit.csv:3: the target quaternion \\(0, 1.01, 0, 0\\) has norm 1.01; a unit quaternion is expected \\(within 0.001\\)")

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

# a path that starts at a singular pose (the UR5's wrist stretched) seeded on a member of its
# family that the second row jumps away from: the first row is solved again from the second's
# solution (wrist_1 at -0.797 next to the second row's -0.794, not the seed's -0.3), no jump
set(UR5_WRIST_SEED "shoulder_pan_joint=0.3,shoulder_lift_joint=-1.2,elbow_joint=1.5,wrist_1_joint=-0.3,wrist_2_joint=0,wrist_3_joint=-0.1")
eom_cli_test(NAME ik-singular-start
             ARGS ik robots/ur5.urdf ${IKD}/ur5_singular_start.csv --frame ee_link --q0 ${UR5_WRIST_SEED}
             STDOUT_REGEX "\n0,0\.29999[0-9]*,-1\.199[0-9]*,1\.499[0-9]*,-0\.79[0-9]*,"
             STDERR_REGEX "^$")
# one row of a path: held for a second that never comes, then written as solved
eom_cli_test(NAME ik-one-row-path
             ARGS ik robots/ur5.urdf ${IKD}/ur5_singular_one_row.csv --frame ee_link --q0 ${UR5_WRIST_SEED}
             STDOUT_REGEX "\n0,0\.29999[0-9]*,-1\.11[0-9]*,1\.34[0-9]*,-0\.29[0-9]*,[^\n]*\n$")

# --independent: every row from --q0, so no path and no jump to report
eom_cli_test(NAME ik-independent-rows
             ARGS ${IK} ${IKD}/iiwa_jump.csv --frame iiwa_link_ee --independent
             STDOUT_REGEX "\n0,[^\n]*,1,[^\n]*\n1,[^\n]*,1,[^\n]*\n$")

# tables read back (the circle, round trips through eom fk, orientation forms, --relative-to,
# reproducibility): check_ik_tables.cpp, in eom_cli_checks (tests/cli/CMakeLists.txt)

# --velocity: the lecture notes' multi-task example (Hutter et al., Robot Dynamics Lecture Notes,
# section 2.9.2): planar_3r has unit links and moves in the world x-z plane (joints about +y), so
# the notes' end-effector rows (2.224) are (-z, x) of ee and their velocity (1, 1) is ee.vx = 1,
# ee.vz = -1 (world axes); the second task keeps joints 1 and 2 still. The expected tables are the
# closed forms derived by hand from J_E = [0 -s3 -s3; -4 -3 -1]/2, w = (1, 1), s3 = sqrt(3):
#   single  J^T (J J^T)^-1 w, (J J^T)^-1 = [26 -4 s3; -4 s3 6]/27:
#           ((8 s3 - 12)/27, -(7 s3 + 3)/27, (3 - 11 s3)/27) = (0.069, -0.560, -0.595) in the notes
#   stacked (Jbar^T Jbar)^-1 J^T w, Jbar^T Jbar = [5 3 1; 3 4 1.5; 1 1.5 1] (det 19/4):
#           ((2 s3 - 6)/19, (s3 - 3)/19, (1 - 13 s3)/19) = (-0.133, -0.067, -1.132); residuals
#           |J_E v - w| = sqrt(16 - 8 s3)/19 (squared 0.0059, eq. 2.232), |v_1,2| = sqrt(5)(3 - s3)/19
#   strict  N1 = n n^T, n = (1, -2, 2)/3, v = v_single - (v1 - 2 v2)/5 (1, -2, 2):
#           ((2 s3 - 6)/15, (s3 - 3)/15, (3 - 11 s3)/15) = (-0.169, -0.085, -1.070); residuals 0
#           and sqrt(5)(3 - s3)/15
set(IKV ik robots/planar_3r.urdf ${IKD}/planar3_velocity.csv --velocity)
eom_cli_test(NAME ik-velocity-single ARGS ${IKV} --task frame:ee:vx,vz
             STDOUT ${IKD}/planar3_velocity.single.csv COMPARE numeric ATOL 1e-12)
eom_cli_test(NAME ik-velocity-stacked ARGS ${IKV} --task frame:ee:vx,vz --task joints:joint1,joint2
             STDOUT ${IKD}/planar3_velocity.stacked.csv COMPARE numeric ATOL 1e-12)
eom_cli_test(NAME ik-velocity-strict
             ARGS ${IKV} --task frame:ee:vx,vz --task joints:joint1,joint2 --priority strict
             STDOUT ${IKD}/planar3_velocity.strict.csv COMPARE numeric ATOL 1e-12)
# the notes' three decimals, as printed
eom_cli_test(NAME ik-velocity-strict-decimals
             ARGS ${IKV} --task frame:ee:vx,vz --task joints:joint1,joint2 --priority strict
             STDOUT_REGEX "\n-0\\.169[0-9]*,-0\\.084[5-9][0-9]*,-1\\.070[0-9]*,")
# a heavy weight on the joint task holds joints 1 and 2 (v ~ 1e-7), leaving joint 3 to the
# end-effector task alone: by hand, column 3 of J_E is (-s3/2, -1/2) (unit norm), so the damped
# least-squares v3 = -(s3 + 1)/2 / (1 + lambda^2) = -1.36589 with lambda = 0.01
eom_cli_test(NAME ik-velocity-weights-damping
             ARGS ${IKV} --task frame:ee:vx,vz --task joints:joint1,joint2 --weights 1,1e6 --damping 0.01
             STDOUT_REGEX "^v.joint1,v.joint2,v.joint3,ik.residual.1,ik.residual.2\n-?[0-9.]+e-0[67],-?[0-9.]+e-0[67],-1\.3658[89]")

# bad input
eom_cli_test(NAME ik-velocity-unknown-frame ARGS ${IKV} --task frame:eee:vx -o ${EOM_CLI_OUT}/ikv.csv
             RC 2 ABSENT ${EOM_CLI_OUT}/ikv.csv
             STDERR_REGEX "eom ik: error: --task frame:eee:vx: unknown frame 'eee' \\(did you mean 'ee'")
eom_cli_test(NAME ik-velocity-unknown-joint ARGS ${IKV} --task joints:joint1,joint7
             RC 2 STDERR_REGEX "eom ik: error: --task joints:joint1,joint7: the model has no joint velocity coordinate 'joint7'")
eom_cli_test(NAME ik-velocity-unknown-component ARGS ${IKV} --task frame:ee:vq
             RC 2 STDERR_REGEX "--task frame:ee:vq: unknown component 'vq' \\(expected vx, vy, vz, wx, wy, wz, linear, angular or all\\)")
eom_cli_test(NAME ik-velocity-empty-frame-selection ARGS ${IKV} --task frame:ee:
             RC 2 STDERR_REGEX "--task frame:ee:: the task selects no component")
eom_cli_test(NAME ik-velocity-empty-joint-selection ARGS ${IKV} --task joints:
             RC 2 STDERR_REGEX "--task joints:: the task selects no joint")
eom_cli_test(NAME ik-velocity-bad-kind ARGS ${IKV} --task link:ee
             RC 2 STDERR_REGEX "--task link:ee: expected frame:FRAME\\[:COMPONENTS\\] or joints:NAME,NAME,...")
eom_cli_test(NAME ik-velocity-no-task ARGS ${IKV}
             RC 2 STDERR_REGEX "--velocity needs at least one --task")
eom_cli_test(NAME ik-velocity-missing-columns ARGS ${IKV} --task frame:ee:linear -o ${EOM_CLI_OUT}/ikv.csv
             RC 2 ABSENT ${EOM_CLI_OUT}/ikv.csv
             STDERR_REGEX "planar3_velocity.csv:1: missing column ee.vy")
eom_cli_test(NAME ik-velocity-missing-joint-columns ARGS ${IKV} --task joints:joint3
             RC 2 STDERR_REGEX "planar3_velocity.csv:1: missing column vref.joint3")
eom_cli_test(NAME ik-velocity-weights-count ARGS ${IKV} --task frame:ee:vx,vz --weights 1,2
             RC 2 STDERR_REGEX "--weights: 2 given for 1 tasks; give one per --task")
eom_cli_test(NAME ik-velocity-with-frame ARGS ${IKV} --task frame:ee:vx --frame ee
             RC 2 STDERR_REGEX "--frame places a pose; with --velocity use --task")
eom_cli_test(NAME ik-no-frame ARGS ${IK} ${IKD}/iiwa_quaternion.csv
             RC 2 STDERR_REGEX "--frame is required \\(or --velocity with --task\\)")
# a weight below 0 is refused by the option that sets it (it read as the mask before)
foreach(weight IN ITEMS position orientation)
  eom_cli_test(NAME ik-negative-${weight}-weight
               ARGS ${IK} ${IKD}/iiwa_quaternion.csv --frame iiwa_link_ee --${weight}-weight -1
               RC 2 STDERR_REGEX "^eom ik: error: --${weight}-weight: -1 must not be negative\n")
endforeach()
# every numeric option of ik is refused by its own name (issue 38 item 15): a NaN is not a
# finite number, a value in NAME=VALUE is said for what it is, a seed is not negative
eom_cli_test(NAME ik-tolerance-nan
             ARGS ${IK} ${IKD}/iiwa_quaternion.csv --frame iiwa_link_ee --position-tolerance nan
             RC 2 STDERR_REGEX "^eom ik: error: --position-tolerance: not a finite number: nan\n")
eom_cli_test(NAME ik-seed-negative
             ARGS ${IK} ${IKD}/iiwa_quaternion.csv --frame iiwa_link_ee --seed -1
             RC 2 STDERR_REGEX "^eom ik: error: --seed: -1 must not be negative\n")
eom_cli_test(NAME ik-q0-not-finite
             ARGS ${IK} ${IKD}/iiwa_quaternion.csv --frame iiwa_link_ee --q0 iiwa_joint_1=nan
             RC 2 STDERR_REGEX "^eom ik: error: --q0 iiwa_joint_1=nan: expected NAME=VALUE with a finite number, not 'nan'\n$")
eom_cli_test(NAME ik-posture-out-of-range
             ARGS ${IK} ${IKD}/iiwa_quaternion.csv --frame iiwa_link_ee --posture iiwa_joint_1=1e400
             RC 2 STDERR_REGEX "^eom ik: error: --posture iiwa_joint_1=1e400: '1e400' is out of the range of a double \\(beyond 1\\.8e308\\)\n$")

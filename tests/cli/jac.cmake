# eom jac: Jacobians and their singular value reports against the reference (Pinocchio's
# jacobian_world, numpy's SVD, task-space dynamics from the reference M and g; written by
# scripts/make_reference_jacobians.py), known singular configurations with the lost direction
# named, the trajectory scan, workspace sampling and bad input.
set(J tests/data/jac)
set(R tests/data/robots)

# fixed and floating bases, serial arms and trees; every sample of each reference file
foreach(case IN ITEMS "ur5_robot|ur5_robot|tool0|" "kinova|kinova|j2s6s200_link_finger_tip_2|"
                      "panda|panda|panda_rightfinger|" "z1|z1|gripperMover|"
                      "anymal|anymal|RH_FOOT|--task,position"
                      "solo12_freeflyer|solo12|HR_FOOT|--floating-base"
                      "anymal_freeflyer|anymal|RH_FOOT|--floating-base")
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 name)
  list(GET fields 1 robot)
  list(GET fields 2 frame)
  list(GET fields 3 extra)
  string(REPLACE "," ";" extra "${extra}")
  eom_cli_test(NAME jac-reference-${name}
               ARGS jac ${R}/${robot}.urdf ${J}/${name}.csv --frame ${frame} --jacobian ${extra}
               STDOUT ${J}/${name}.expected.csv COMPARE numeric ATOL 1e-10 RTOL 1e-10)
endforeach()

eom_cli_test(NAME jac-analytical-euler-zyx
             ARGS jac ${R}/ur5_robot.urdf ${J}/ur5_robot.csv --frame tool0 --analytical euler-zyx
             STDOUT ${J}/ur5_robot.analytical.csv COMPARE numeric ATOL 1e-10 RTOL 1e-10)

# task-space dynamics at rest (mu = 0): Lambda, p and Jbar from the reference M, g and J
eom_cli_test(NAME jac-dynamics-double-pendulum
             ARGS jac ${R}/double_pendulum.urdf ${J}/double_pendulum.static.csv --frame link2
                  --task vy,wx --dynamics
             STDOUT ${J}/double_pendulum.dynamics.csv COMPARE numeric ATOL 1e-10 RTOL 1e-9)
eom_cli_test(NAME jac-dynamics-anymal-floating
             ARGS jac ${R}/anymal.urdf ${J}/anymal_freeflyer.static.csv --frame RH_FOOT
                  --floating-base --dynamics
             STDOUT ${J}/anymal_freeflyer.dynamics.csv COMPARE numeric ATOL 1e-10 RTOL 1e-9)
# the sliding block by hand: Lambda = m = 2 kg along the slide, no bias, Jbar = 1
eom_cli_test(NAME jac-dynamics-block
             ARGS jac robots/block.urdf ${J}/block.csv --frame block --task vx --dynamics
             STDOUT ${J}/block.dynamics.csv COMPARE numeric ATOL 1e-12 RTOL 1e-12)
# the full task: J M^-1 J^T has rank 1, Lambda is the truncated inverse, and the run says so
eom_cli_test(NAME jac-dynamics-block-singular
             ARGS jac robots/block.urdf ${J}/block.csv --frame block --dynamics --format ndjson
             STDOUT_REGEX "\"Lambda.vx.vx\":2(\\.0*[0-9])?,\"Lambda.vx.vy\":0,.*\"Lambda.vy.vy\":0,.*\"Lambda_rank\":1}"
             STDERR_REGEX "block.csv: J M\\^-1 J\\^T is singular in 2 rows \\(first at t=0\\): Lambda, mu, p and Jbar there use the truncated inverse")

# known singular configurations (tests/data/jac/ur5_singular.csv: regular rows between the elbow
# stretched, wrist 2 at 0 and the shoulder singularity, q3 solved from the UR5's DH parameters)
set(ur5_rank "\"rank\":6,[^\n]*\n[^\n]*\"rank\":5,[^\n]*\n[^\n]*\"rank\":6,[^\n]*\n[^\n]*\"rank\":5,[^\n]*\n[^\n]*\"rank\":6,[^\n]*\n[^\n]*\"rank\":5,[^\n]*\n[^\n]*\"rank\":6,")
eom_cli_test(NAME jac-ur5-singular
             ARGS jac robots/ur5.urdf ${J}/ur5_singular.csv --frame tool0 --format ndjson
             STDOUT_REGEX "${ur5_rank}"
             STDERR_REGEX "ur5_singular.csv: rank-deficient from t=1 to t=1 \\(lines 3-3, 1 row\\): worst smallest singular value [-0-9.e]+ at t=1 \\(line 3\\), rank 5 of 6; lost: linear motion along world \\([^\n]*\n.*ur5_singular.csv: rank-deficient from t=3 to t=3 [^\n]*lost: mixed: linear motion along the tool0 z axis[^\n]*\n.*ur5_singular.csv: rank-deficient from t=5 to t=5 [^\n]*lost: linear motion along world \\(-?0.296, -?0.955, -?0\\)\n$")
eom_cli_test(NAME jac-panda-zero-pose
             ARGS jac robots/panda.urdf ${J}/panda_zero.csv --frame panda_hand_tcp
             STDOUT_REGEX "rank,rank_margin,inverse_condition,manipulability,nullity\n0,[^\n]*,5,[^,]+,0,0,4\n$"
             STDERR_REGEX "panda_zero.csv: rank-deficient from t=0 to t=0 \\(lines 2-2, 1 row\\): [^\n]*rank 5 of 6; lost: rotation about world x\n$")
eom_cli_test(NAME jac-planar-3r-stretched
             ARGS jac robots/planar_3r.urdf ${J}/planar_3r_stretched.csv --frame ee --task vx,vz,wy
             STDERR_REGEX "^eom jac: warning: ${J}/planar_3r_stretched.csv: rank-deficient from t=0 to t=0 [^\n]*rank 2 of 3; lost: linear motion along world x\neom jac: warning: ${J}/planar_3r_stretched.csv: rank-deficient from t=2 to t=2 [^\n]*rank 2 of 3; lost: linear motion along world x\n$")

# the scan with a threshold: sigma_6 ~ 0.04 |elbow| here, so the rows with |elbow| <= 0.01 are
# below 0.002 and those with |elbow| >= 0.1 well above; the JSON summary
eom_cli_test(NAME jac-scan-threshold-summary
             ARGS jac robots/ur5.urdf ${J}/ur5_elbow_sweep.csv --frame tool0 --threshold 0.002
                  -o ${EOM_CLI_OUT}/jac_sweep.csv --summary /dev/stdout
             STDOUT_REGEX "\"end\": 0.4,\n        \"end_line\": 6,\n        \"lost\": \\[\n          {\n            \"description\": \"linear motion along world \\([^\n]*\n.*\"rank\": 5,\n        \"rows\": 3,\n        \"start\": 0.2,\n        \"start_line\": 4,\n        \"worst\": [-0-9.e]+,\n        \"worst_line\": 5,\n        \"worst_t\": 0.3\n      }\n    \\],\n    \"measure\": \"sigma\""
             STDERR_REGEX "ur5_elbow_sweep.csv: smallest singular value below 0.002 from t=0.2 to t=0.4 \\(lines 4-6, 3 rows\\): worst smallest singular value [-0-9.e]+ at t=0.3 \\(line 5\\), rank 5 of 6; lost: linear motion")
eom_cli_test(NAME jac-fail-on-singular
             ARGS jac robots/ur5.urdf ${J}/ur5_elbow_sweep.csv --frame tool0 --fail-on-singular
                  -o ${EOM_CLI_OUT}/jac_fail.csv
             RC 1 ABSENT ${EOM_CLI_OUT}/jac_fail.csv
             STDERR_REGEX "eom jac: error: ${J}/ur5_elbow_sweep.csv: rank-deficient from t=0.3 to t=0.3 .*jac_fail.csv not written")
# random configurations are regular: exit 0, nothing on stderr
eom_cli_test(NAME jac-regular-passes
             ARGS jac ${R}/ur5_robot.urdf ${J}/ur5_robot.csv --frame tool0 --fail-on-singular
                  -o ${EOM_CLI_OUT}/jac_regular.csv)

# workspace sampling: the worst configurations as a table, quantiles on stderr
eom_cli_test(NAME jac-sample
             ARGS jac robots/panda.urdf --frame panda_hand_tcp --sample 200 --seed 3 --worst 2
             STDOUT_REGEX "^q.panda_joint1,[^\n]*,manipulability,inverse_condition,rank\n[^\n]+\n[^\n]+\n$"
             STDERR_REGEX "panda_hand_tcp over 200 configurations \\(seed 3\\)\n  manipulability quantiles: 0%: [^\n]*, 50%: ")

# bad input: exit 2, the message, and no output file
function(jac_bad_input name message)
  eom_cli_test(NAME jac-${name} ARGS jac ${ARGN} -o ${EOM_CLI_OUT}/jac_${name}.csv
               RC 2 ABSENT ${EOM_CLI_OUT}/jac_${name}.csv STDERR_REGEX "eom jac: error: ${message}")
endfunction()
jac_bad_input(unknown-frame "--frame: unknown frame 'tool1' \\(did you mean 'tool0'\\?\\)"
              robots/ur5.urdf ${J}/ur5_singular.csv --frame tool1)
jac_bad_input(zero-tolerance "--tol 0: must be a positive number"
              robots/ur5.urdf ${J}/ur5_singular.csv --frame tool0 --tol 0)
jac_bad_input(negative-tolerance "--abs-tol -0.001: must be a positive number"
              robots/ur5.urdf ${J}/ur5_singular.csv --frame tool0 --abs-tol -1e-3)
jac_bad_input(zero-threshold "--threshold 0: must be a positive number"
              robots/ur5.urdf ${J}/ur5_singular.csv --frame tool0 --threshold 0)
jac_bad_input(no-joint-coordinates "--frame tool: the model has no joint coordinates \\(every joint is fixed\\), so its Jacobian has no columns to analyse"
              tests/data/urdf/welded.urdf ${J}/ur5_singular.csv --frame tool)
jac_bad_input(no-q-columns "${J}/no_q.csv:1: missing columns q.shoulder_pan_joint, q.shoulder_lift_joint"
              robots/ur5.urdf ${J}/no_q.csv --frame tool0)
jac_bad_input(unknown-reference "--reference global: unknown reference \\(choose world, local or local-world-aligned\\)"
              robots/ur5.urdf ${J}/ur5_singular.csv --frame tool0 --reference global)
jac_bad_input(unknown-parametrisation "--analytical euler-zxz: unknown parametrisation"
              robots/ur5.urdf ${J}/ur5_singular.csv --frame tool0 --analytical euler-zxz)
jac_bad_input(unknown-task-row "--task vx,vw: unknown task row 'vw'"
              robots/ur5.urdf ${J}/ur5_singular.csv --frame tool0 --task vx,vw)
jac_bad_input(dynamics-singular-mass-matrix
              "--dynamics: joint 'finger_slide' moves no mass or inertia along its motion: the mass matrix is singular"
              tests/data/urdf/massless_leaf.urdf tests/data/fd/massless_leaf.csv --frame finger --dynamics)
jac_bad_input(no-table "TABLE is required \\(or --sample N\\)" robots/ur5.urdf --frame tool0)
jac_bad_input(sample-and-table "--sample draws its configurations: give no TABLE"
              robots/ur5.urdf ${J}/ur5_singular.csv --frame tool0 --sample 10)
# Euler angles at pitch pi/2: the row is an error, not a table of infinities
jac_bad_input(analytical-gimbal-lock "${J}/gimbal_lock.csv:2: --analytical euler-zyx: "
              robots/planar_3r.urdf ${J}/gimbal_lock.csv --frame ee --analytical euler-zyx)

# J, dJ/dt and dJ/dt v of the planar 3R arm by hand (scripts/make_reference_jacobians.py)
eom_cli_test(NAME jac-jdot-planar-3r
             ARGS jac robots/planar_3r.urdf ${J}/planar_3r.motion.csv --frame ee --task vx,vz,wy
                  --jacobian --jdot
             STDOUT ${J}/planar_3r.jdot.csv COMPARE numeric ATOL 1e-12 RTOL 1e-12
             STDERR_REGEX "planar_3r.motion.csv: rank-deficient from t=2 to t=2 [^\n]*lost: linear motion along world x\n$")

# tables read back and checked independently (tests/cli/check_jac_tables.cpp, in eom_cli_checks:
# tests/cli/CMakeLists.txt): the three --reference frames against the reference Jacobians and
# poses, the --nullspace basis against the printed J and a fresh SVD, --dynamics (truncated and
# damped) against Lambda, Jbar and p computed from the reference M or eom deriv's M, at regular
# and singular configurations

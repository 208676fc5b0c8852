# eom deriv: tau, dtau/dt, d2tau/dt2 and dtau/dq, dtau/dv against the shared reference (Pinocchio
# 3.7; tables written by scripts/make_reference_tables.py), fixed base, continuous joints and
# floating base; bad input.
foreach(robot IN ITEMS ur5_robot kinova)
  eom_cli_test(NAME deriv-${robot}-reference
               ARGS deriv tests/data/robots/${robot}.urdf tests/data/deriv/${robot}.csv --order 2 --no-derive
               STDOUT tests/data/deriv/${robot}.dtau.csv COMPARE numeric ATOL 1e-8 RTOL 1e-8)
  eom_cli_test(NAME deriv-${robot}-partials
               ARGS deriv tests/data/robots/${robot}.urdf tests/data/deriv/${robot}.csv --order 0 --partials --no-derive
               STDOUT tests/data/deriv/${robot}.partials.csv COMPARE numeric)
endforeach()
eom_cli_test(NAME deriv-solo12-floating-reference
             ARGS deriv tests/data/robots/solo12.urdf tests/data/deriv/solo12_freeflyer.csv --floating-base --order 2 --no-derive
             STDOUT tests/data/deriv/solo12_freeflyer.dtau.csv COMPARE numeric ATOL 1e-8 RTOL 1e-8)
eom_cli_test(NAME deriv-solo12-floating-partials
             ARGS deriv tests/data/robots/solo12.urdf tests/data/deriv/solo12_freeflyer.csv --floating-base --order 0 --partials --no-derive
             STDOUT tests/data/deriv/solo12_freeflyer.partials.csv COMPARE numeric)

# bad input: the order, missing derivative columns, too few rows to derive them, wrenches
eom_cli_test(NAME deriv-negative-order
             ARGS deriv robots/ur5.urdf trajectories/ur5_wave.csv --order -1
             RC 2 STDERR_REGEX "--order takes a whole number from 0 to 10, not '-1'")
eom_cli_test(NAME deriv-absurd-order
             ARGS deriv robots/ur5.urdf trajectories/ur5_wave.csv --order 1000
             RC 2 STDERR_REGEX "--order takes a whole number from 0 to 10, not '1000'")
eom_cli_test(NAME deriv-missing-columns-no-derive
             ARGS deriv tests/data/robots/ur5_robot.urdf tests/data/id/ur5_robot.csv --order 1 --no-derive -o ${EOM_CLI_OUT}/deriv_missing.csv
             RC 2 ABSENT ${EOM_CLI_OUT}/deriv_missing.csv
             STDERR_REGEX "ur5_robot.csv:1: missing columns d3q.shoulder_pan_joint, d3q.shoulder_lift_joint")
eom_cli_test(NAME deriv-too-few-rows
             ARGS deriv robots/planar_2r.urdf tests/data/rows/planar_2r_measured.csv --order 2 -o ${EOM_CLI_OUT}/deriv_few.csv
             RC 2 ABSENT ${EOM_CLI_OUT}/deriv_few.csv
             STDERR_REGEX "deriving d3q needs at least 7 rows \\(a fit of degree 6\\), the table has 5")
eom_cli_test(NAME deriv-wrench-missing-derivatives
             ARGS deriv robots/block.urdf tests/data/id/block_push.csv -o ${EOM_CLI_OUT}/deriv_wrench.csv
             RC 2 ABSENT ${EOM_CLI_OUT}/deriv_wrench.csv
             STDERR_REGEX "block_push.csv:1: missing columns d1wrench.block.fx, d1wrench.block.fy")
eom_cli_test(NAME deriv-wrench-order-beyond-columns
             ARGS deriv robots/iiwa14.urdf trajectories/iiwa_gaz.csv --order 3 --no-derive -o ${EOM_CLI_OUT}/deriv_wrench3.csv
             RC 2 ABSENT ${EOM_CLI_OUT}/deriv_wrench3.csv
             STDERR_REGEX "iiwa_gaz.csv:1: missing columns d3wrench.iiwa_link_ee.fx")
eom_cli_test(NAME deriv-friction-refused
             ARGS deriv robots/iiwa14.urdf trajectories/iiwa14_wave.csv --friction
             RC 2 STDERR_REGEX "--friction: eom deriv does not differentiate joint friction")

# the planar 2R arm's closed form (Lagrangian by sympy: scripts/make_planar_2r_deriv_tables.py):
# tau and four derivatives along a sinusoidal path, and M, the Christoffel C, g and their time
# derivatives
eom_cli_test(NAME deriv-planar-2r-closed-form
             ARGS deriv robots/planar_2r.urdf tests/data/deriv/planar_2r.csv --order 4 --no-derive
             STDOUT tests/data/deriv/planar_2r.dtau.csv COMPARE numeric ATOL 1e-10 RTOL 1e-10)
# M, C, g and their first two time derivatives d1M, d1C, d1g, d2M, d2C, d2g, by both methods
# (for two joints the paper's C arrangement is the Christoffel one)
eom_cli_test(NAME deriv-planar-2r-matrices
             ARGS deriv robots/planar_2r.urdf tests/data/deriv/planar_2r.csv --order 2 --matrices --no-derive
             STDOUT tests/data/deriv/planar_2r.matrices.csv COMPARE numeric ATOL 1e-12 RTOL 1e-12)
eom_cli_test(NAME deriv-planar-2r-matrices-closed-form
             ARGS deriv robots/planar_2r.urdf tests/data/deriv/planar_2r.csv --order 2 --matrices --no-derive
                  --method closed-form
             STDOUT tests/data/deriv/planar_2r.matrices.csv COMPARE numeric ATOL 1e-12 RTOL 1e-12)

# --verify: a consistent trajectory (exact derivative columns at 1 kHz) passes and writes its
# output; independent random samples (q, v, a of unrelated rows) fail: exit 1, no output file
eom_cli_test(NAME deriv-verify-consistent
             ARGS deriv robots/iiwa14.urdf trajectories/iiwa14_wave.csv --order 2 --no-derive --verify -o ${EOM_CLI_OUT}/deriv_verified.csv
             STDERR_REGEX "verify: trajectories/iiwa14_wave.csv: M symmetric positive definite on all 3001 rows.*d2tau - finite differences of d1tau: worst [0-9.e-]+ relative")
# with --matrices, --verify takes M, C and g from the sweep that wrote them (and --christoffel,
# which reuses the sweep's workspace, comes after it): the same report as --verify alone
add_test(NAME "cli: deriv-verify-with-matrices"
         COMMAND bash -c "diff <(\"$0\" deriv robots/iiwa14.urdf trajectories/iiwa14_wave.csv --order 2 --no-derive --verify -o /dev/null 2>&1) \
                               <(\"$0\" deriv robots/iiwa14.urdf trajectories/iiwa14_wave.csv --order 2 --no-derive --verify --matrices --christoffel -o /dev/null 2>&1)"
                 $<TARGET_FILE:eom_cli>
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties("cli: deriv-verify-with-matrices" PROPERTIES LABELS cli)
eom_cli_test(NAME deriv-verify-inconsistent
             ARGS deriv tests/data/robots/ur5_robot.urdf tests/data/deriv/ur5_robot.csv --order 1 --no-derive --verify -o ${EOM_CLI_OUT}/deriv_unverified.csv
             RC 1 ABSENT ${EOM_CLI_OUT}/deriv_unverified.csv
             STDERR_REGEX "d1tau - finite differences of tau: worst [0-9.e+-]+ relative .*, over the tolerance")

# Mueller & Kumar's iiwa example: the Gaz et al. trajectory (scripts/make_gaz_trajectory.py), g =
# 9.80665, with the paper's end-effector wrench 10 sin(pi t) and its derivative columns: tau
# against M a + C v + g - J^T F, d1tau and d2tau against three-point differences of tau and
# d1tau along it at 0.5 ms
eom_cli_test(NAME deriv-iiwa-gaz-verify
             ARGS deriv robots/iiwa14.urdf trajectories/iiwa_gaz.csv --gravity 0,0,-9.80665 --order 2 --no-derive --verify --tolerance 1e-5 -o ${EOM_CLI_OUT}/deriv_gaz.csv
             STDERR_REGEX "tau - \\(M a \\+ C v \\+ g - J\\^T F\\): worst [0-9.e-]+ relative.*d1tau - finite differences of tau: worst [0-9.e-]+ relative.*d2tau - finite differences of d1tau: worst [0-9.e-]+ relative")
eom_cli_test(NAME deriv-planar-2r-christoffel
             ARGS deriv robots/planar_2r.urdf tests/data/deriv/planar_2r.csv --order 0 --christoffel --no-derive
             STDOUT tests/data/deriv/planar_2r.christoffel.csv COMPARE numeric ATOL 1e-12 RTOL 1e-12)

# external wrenches on two frames: the recursive method takes them, the closed form one frame only
eom_cli_test(NAME deriv-two-wrenches-recursive
             ARGS deriv robots/iiwa14.urdf tests/data/deriv/iiwa_two_wrenches.csv --order 0 --no-derive
             STDOUT_REGEX "^t,tau.iiwa_joint_1")
eom_cli_test(NAME deriv-two-wrenches-closed-form
             ARGS deriv robots/iiwa14.urdf tests/data/deriv/iiwa_two_wrenches.csv --order 0 --no-derive --method closed-form -o ${EOM_CLI_OUT}/deriv_two.csv
             RC 2 ABSENT ${EOM_CLI_OUT}/deriv_two.csv
             STDERR_REGEX "iiwa_two_wrenches.csv:1: --method closed-form takes the wrench of one frame, the table has 2")

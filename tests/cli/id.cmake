# eom id: against independent oracles (closed-form 2R torques, the sliding block by hand, the
# shared reference values), plus every bad-input class.

eom_cli_test(NAME id-planar-2r-closed-form
             ARGS id robots/planar_2r.urdf trajectories/planar_2r_small.csv
             STDOUT tests/data/planar_2r_small.tau.csv COMPARE numeric)
eom_cli_test(NAME id-ur5-reference
             ARGS id tests/data/robots/ur5_robot.urdf tests/data/id/ur5_robot.csv
             STDOUT tests/data/id/ur5_robot.tau.csv COMPARE numeric)
eom_cli_test(NAME id-kinova-continuous-reference
             ARGS id tests/data/robots/kinova.urdf tests/data/id/kinova.csv
             STDOUT tests/data/id/kinova.tau.csv COMPARE numeric)
eom_cli_test(NAME id-solo12-floating-reference
             ARGS id tests/data/robots/solo12.urdf tests/data/id/solo12_freeflyer.csv --floating-base
             STDOUT tests/data/id/solo12_freeflyer.tau.csv COMPARE numeric)
eom_cli_test(NAME id-solo12-floating-json
             ARGS id tests/data/robots/solo12.urdf tests/data/id/solo12_freeflyer.csv --floating-base --format json
             STDOUT_REGEX "^\\[\n{\"t\":0,\"tau.root.fx\":12.8783667963961")
eom_cli_test(NAME id-block-friction-push
             ARGS id robots/block.urdf tests/data/id/block_push.csv --friction
             STDOUT tests/data/id/block_push.tau.csv COMPARE numeric ATOL 1e-12)
eom_cli_test(NAME id-block-terms
             ARGS id robots/block.urdf tests/data/id/block_push.csv --friction --terms
             STDOUT tests/data/id/block_push.terms.csv COMPARE numeric ATOL 1e-12)
eom_cli_test(NAME id-block-local-wrench
             ARGS id robots/block.urdf tests/data/id/block_push.csv --friction --wrench-frame local
             STDOUT tests/data/id/block_push.tau.csv COMPARE numeric ATOL 1e-12)
eom_cli_test(NAME id-block-friction-file
             ARGS id robots/block.urdf tests/data/id/block_push.csv --friction-file tests/data/id/friction_override.json
             STDOUT tests/data/id/block_push.override.tau.csv COMPARE numeric ATOL 1e-12)
eom_cli_test(NAME id-stdin-stdout
             ARGS id robots/planar_2r.urdf - STDIN trajectories/planar_2r_small.csv
             STDOUT tests/data/planar_2r_small.tau.csv COMPARE numeric)
eom_cli_test(NAME id-derive-warning
             ARGS id robots/planar_2r.urdf tests/data/id/planar_2r_q_only.csv
             STDERR_REGEX "planar_2r_q_only.csv: derived v, a from q \\(on the configuration manifold\\) and t by least-squares fits of degree 4 over 17 rows \\(too few rows to choose from; --derive-window sets them\\)")
eom_cli_test(NAME id-no-derive
             ARGS id robots/planar_2r.urdf tests/data/id/planar_2r_q_only.csv --no-derive
             RC 2 STDERR_REGEX "eom id: error: .*planar_2r_q_only.csv:1: missing columns v.joint1, v.joint2")
eom_cli_test(NAME id-limit-summary
             ARGS id robots/planar_2r.urdf tests/data/id/planar_2r_over_limit.csv
             STDERR_REGEX "tau.joint1 exceeds its effort limit 100 in 2 rows: first at t=0.5 \\(line 3\\), worst [0-9.]+ at t=0.5")
eom_cli_test(NAME id-fail-on-limit
             ARGS id robots/planar_2r.urdf tests/data/id/planar_2r_over_limit.csv --fail-on-limit
             RC 1 STDERR_REGEX "exceeds its effort limit")

# --residual: measured torques made from the closed form plus constant offsets (+0.5, -0.25) by
# hand (the model's tau of the golden: the closed form of robots/planar_2r.urdf's comment), so the
# residuals are those offsets
eom_cli_test(NAME id-residual
             ARGS id robots/planar_2r.urdf tests/data/id/planar_2r_measured.csv --residual -q
             STDOUT tests/data/id/planar_2r_measured.residual.csv COMPARE numeric ATOL 1e-12)
eom_cli_test(NAME id-residual-report
             ARGS id robots/planar_2r.urdf tests/data/id/planar_2r_measured.csv --residual
             STDERR_REGEX "eom id: tests/data/id/planar_2r_measured.csv: measured - model tau over 5 rows:\n  joint1: RMS 0.5 \\(3.017[0-9]*% of the measured RMS 16.570[0-9]*\\), largest 0.5 at t=[0-9.]+ \\(line [2-6]\\)\n  joint2: RMS 0.25 ")
eom_cli_test(NAME id-residual-without-tau
             ARGS id robots/planar_2r.urdf trajectories/planar_2r_small.csv --residual
             RC 2 STDERR_REGEX "planar_2r_small.csv:1: missing columns tau.joint1, tau.joint2")

# bad input: exit 2, file:line and what was expected, no output left behind
eom_cli_test(NAME id-bad-number
             ARGS id robots/ur5.urdf tests/data/id/ur5_bad_number.csv -o ${CMAKE_CURRENT_BINARY_DIR}/id_bad_number.csv
             RC 2 STDERR_REGEX "eom id: error: tests/data/id/ur5_bad_number.csv:3:[0-9]+: column q.elbow_joint: 'abc' is not a number"
             ABSENT ${CMAKE_CURRENT_BINARY_DIR}/id_bad_number.csv)
eom_cli_test(NAME id-nan
             ARGS id robots/ur5.urdf tests/data/id/ur5_nan.csv
             RC 2 STDERR_REGEX "ur5_nan.csv:3:[0-9]+: column q.shoulder_lift_joint: 'nan' is not a finite number")
eom_cli_test(NAME id-missing-joint
             ARGS id robots/ur5.urdf tests/data/id/ur5_missing_joint.csv
             RC 2 STDERR_REGEX "ur5_missing_joint.csv:1: missing column q.wrist_3_joint")
eom_cli_test(NAME id-misspelt-joint
             ARGS id robots/ur5.urdf tests/data/id/ur5_misspelt_joint.csv
             RC 2 STDERR_REGEX "column q.elbow_jiont: the model has no joint coordinate 'elbow_jiont'")
eom_cli_test(NAME id-floating-table-fixed-model
             ARGS id tests/data/robots/solo12.urdf tests/data/id/solo12_freeflyer.csv
             RC 2 STDERR_REGEX "column q.root.x: the model has no joint coordinate 'root.x' \\(a floating-base table: add --floating-base\\)")
eom_cli_test(NAME id-fixed-table-floating-model
             ARGS id tests/data/robots/ur5_robot.urdf tests/data/id/ur5_robot.csv --floating-base
             RC 2 STDERR_REGEX "missing columns q.root.x, .*drop --floating-base")
eom_cli_test(NAME id-t-backwards
             ARGS id robots/ur5.urdf tests/data/id/ur5_t_backwards.csv -o ${CMAKE_CURRENT_BINARY_DIR}/id_t_backwards.csv
             RC 2 STDERR_REGEX "ur5_t_backwards.csv:4: t is not strictly increasing"
             ABSENT ${CMAKE_CURRENT_BINARY_DIR}/id_t_backwards.csv)
eom_cli_test(NAME id-several-without-output-dir
             ARGS id robots/ur5.urdf trajectories/ur5_wave.csv trajectories/ur5_wave.json
             RC 2 STDERR_REGEX "several tables need --output-dir")
eom_cli_test(NAME id-bad-robot
             ARGS id tests/data/urdf/negative_mass.urdf trajectories/ur5_wave.csv
             RC 2 STDERR_REGEX "negative_mass.urdf:[0-9]+: .*mass")

# batch (--output-dir, --jobs 2) is byte-identical to serial runs and to itself
add_test(NAME "cli: id-batch-equals-serial"
         COMMAND ${CMAKE_COMMAND} -DEOM=$<TARGET_FILE:eom_cli> -DROBOT=${PROJECT_SOURCE_DIR}/robots/ur5.urdf
                 "-DFILES=${PROJECT_SOURCE_DIR}/trajectories/ur5_wave.csv,${PROJECT_SOURCE_DIR}/tests/data/id/ur5_robot.csv"
                 -DOUTDIR=${CMAKE_CURRENT_BINARY_DIR}/batch
                 -P ${PROJECT_SOURCE_DIR}/cmake/check_batch.cmake)
set_tests_properties("cli: id-batch-equals-serial" PROPERTIES LABELS cli)
eom_cli_test(NAME id-batch-reports-bad-file
             ARGS id robots/ur5.urdf trajectories/ur5_wave.csv tests/data/id/ur5_bad_number.csv
                  --output-dir ${CMAKE_CURRENT_BINARY_DIR}/batch_bad --jobs 2
             RC 2 STDERR_REGEX "ur5_bad_number.csv:3:[0-9]+: column q.elbow_joint: 'abc' is not a number")

# massless moving bodies are fine for inverse dynamics (Izz a = 0.1 * 0.3 on the shoulder, 0 on the finger)
eom_cli_test(NAME id-massless-leaf
             ARGS id tests/data/urdf/massless_leaf.urdf tests/data/id/massless_leaf.csv
             STDOUT tests/data/id/massless_leaf.tau.csv COMPARE numeric ATOL 1e-15)

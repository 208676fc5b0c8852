# eom fd: against the sliding block by hand (u = m a + mu m g sgn(v) - F, solved for a), the
# singular-model refusal, and bad input. The round trip through eom id on every shipped
# trajectory is in check_id_tables.cpp.
eom_cli_test(NAME fd-block-friction-wrench
             ARGS fd robots/block.urdf tests/data/fd/block_pushed.csv --friction
             STDOUT tests/data/fd/block_pushed.a.csv COMPARE numeric ATOL 1e-12)
eom_cli_test(NAME fd-missing-tau
             ARGS fd robots/ur5.urdf trajectories/ur5_wave.csv
             RC 2 STDERR_REGEX "eom fd: error: trajectories/ur5_wave.csv:1: missing columns tau.shoulder_pan_joint, tau.shoulder_lift_joint")
eom_cli_test(NAME fd-singular-mass-matrix
             ARGS fd tests/data/urdf/massless_leaf.urdf tests/data/fd/massless_leaf.csv -o ${EOM_CLI_OUT}/fd_singular.csv
             RC 2 ABSENT ${EOM_CLI_OUT}/fd_singular.csv
             STDERR_REGEX "joint 'finger_slide' moves no mass or inertia along its motion: the mass matrix is singular")

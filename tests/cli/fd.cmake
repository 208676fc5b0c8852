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
# singular at one configuration only (tests/data/urdf/gimbal_bob.urdf: at pitch = 0 the bob sits on
# the yaw axis): both methods refuse the second row, by the same rule and in the same words
foreach(method IN ITEMS aba crba)
  eom_cli_test(NAME fd-singular-here-${method}
               ARGS fd tests/data/urdf/gimbal_bob.urdf tests/data/fd/gimbal_bob.csv --method ${method} -o ${EOM_CLI_OUT}/fd_gimbal_${method}.csv
               RC 2 ABSENT ${EOM_CLI_OUT}/fd_gimbal_${method}.csv
               STDERR_REGEX "eom fd: error: tests/data/fd/gimbal_bob.csv:3: the mass matrix is singular at this configuration \\(not at every one\\): joint 'yaw' moves no mass or inertia beyond what the joints after it move; the joint velocities v.yaw = 1 move no mass or inertia")
endforeach()

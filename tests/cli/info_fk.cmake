# eom info and eom fk

eom_cli_test(NAME info-ur5-text ARGS info robots/ur5.urdf
             STDOUT_REGEX "robot: ur5\nfile: robots/ur5.urdf\nroot link: world \\(fixed to the world frame\\)\nnq: 6  nv: 6")
eom_cli_test(NAME info-ur5-json ARGS info robots/ur5.urdf --format json
             STDOUT_REGEX "\"nq\": 6,\n  \"nv\": 6,.*\"joints\": \\[\n    {\n      \"name\": \"shoulder_pan_joint\"")
eom_cli_test(NAME info-solo12-floating ARGS info robots/solo12.urdf --floating-base --format json
             STDOUT_REGEX "\"floating_base\": true,\n  \"nq\": 19,\n  \"nv\": 18")
eom_cli_test(NAME info-panda-mimic ARGS info robots/panda.urdf
             STDOUT_REGEX "panda_finger_joint2 .*\\(mimics panda_finger_joint1\\)")
eom_cli_test(NAME info-malformed ARGS info tests/data/urdf/malformed_xml.urdf
             RC 2 STDERR_REGEX "eom info: error: tests/data/urdf/malformed_xml.urdf:[0-9]+: malformed XML")
eom_cli_test(NAME info-missing-file ARGS info robots/nope.urdf
             RC 2 STDERR_REGEX "robots/nope.urdf: cannot open the file")
eom_cli_test(NAME info-bad-gravity ARGS info robots/ur5.urdf --gravity 0,0
             RC 2 STDERR_REGEX "gravity")

eom_cli_test(NAME fk-ur5-reference
             ARGS fk tests/data/robots/ur5_robot.urdf tests/data/id/ur5_robot.csv --frames tool0,forearm_link
             STDOUT tests/data/fk/ur5_robot.poses.csv COMPARE numeric ATOL 1e-12 RTOL 1e-12)
eom_cli_test(NAME fk-kinova-continuous-reference
             ARGS fk tests/data/robots/kinova.urdf tests/data/id/kinova.csv
                  --frames j2s6s200_end_effector,j2s6s200_link_finger_tip_2
             STDOUT tests/data/fk/kinova.poses.csv COMPARE numeric ATOL 1e-12 RTOL 1e-12)
eom_cli_test(NAME fk-solo12-floating-reference
             ARGS fk tests/data/robots/solo12.urdf tests/data/id/solo12_freeflyer.csv --floating-base
                  --frames FL_FOOT,HR_FOOT
             STDOUT tests/data/fk/solo12_freeflyer.poses.csv COMPARE numeric ATOL 1e-12 RTOL 1e-12)
eom_cli_test(NAME fk-all-frames-ndjson
             ARGS fk robots/ur5.urdf tests/data/id/ur5_robot.csv --format ndjson
             STDOUT_REGEX "^{\"t\":0,\"world.x\":0,\"world.y\":0,\"world.z\":0,\"world.qx\":0,\"world.qy\":0,\"world.qz\":0,\"world.qw\":1,\"base_link.x\"")
eom_cli_test(NAME fk-unknown-frame
             ARGS fk robots/ur5.urdf trajectories/ur5_wave.csv --frames tool1 -o ${CMAKE_CURRENT_BINARY_DIR}/fk_unknown.csv
             RC 2 STDERR_REGEX "eom fk: error: --frames: unknown frame 'tool1' \\(did you mean 'tool0'\\?\\)"
             ABSENT ${CMAKE_CURRENT_BINARY_DIR}/fk_unknown.csv)
eom_cli_test(NAME fk-missing-column
             ARGS fk robots/ur5.urdf tests/data/id/ur5_missing_joint.csv
             RC 2 STDERR_REGEX "ur5_missing_joint.csv:1: missing column q.wrist_3_joint")

# --format dot: the tree written by hand from the URDF (links, joints with type and axis, masses)
eom_cli_test(NAME info-dot-gripper ARGS info tests/data/urdf/massless_gripper.urdf --format dot
             STDOUT tests/data/info/massless_gripper.dot)

# eom export: the URDF of the loaded model (its round trip: tests/property/test_urdf_export_properties.cpp)
eom_cli_test(NAME export-gripper-locked
             ARGS export tests/data/urdf/massless_gripper.urdf --lock finger_joint_1=0.03,finger_joint_3
             STDOUT_REGEX "<link name=\"fingertip_1\"/>.*<joint name=\"finger_1_fixed\" type=\"fixed\">\n    <parent link=\"forearm\"/>\n    <child link=\"finger_1\"/>\n    <origin xyz=\"0 0.04 0.3\" rpy=\"0 0 0\"/>"
             STDERR_REGEX "'finger_joint_2' at 0.03")
eom_cli_test(NAME export-floating-says-root
             ARGS export robots/solo12.urdf --floating-base
             STDOUT_REGEX "^<\\?xml version=\"1.0\"\\?>\n<robot name=\"solo\">"
             STDERR_REGEX "eom export: warning: not written: the free-flyer 'root' that a floating base adds")
eom_cli_test(NAME export-scaled-screw-refused
             ARGS export tests/data/models/textbook_3link.json -o textbook.urdf
             RC 2 STDERR_REGEX "eom export: error: joint 'joint1' moves 1.41421 per unit of q \\(a scaled screw axis\\)")

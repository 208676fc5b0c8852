# --lock: joints fixed before anything is computed (doc/conventions.md#locked-joints). The gripper
# of tests/data/urdf/massless_gripper.urdf has three massless finger joints (finger_joint_2 mimics
# finger_joint_1), so fd and sim refuse it unless they are locked. The expected accelerations and
# torques are by hand: at q = 0 the arm stands on the z axis, so M = diag(0.004 + 0.002,
# 0.01 + 1 * 0.15^2) = diag(0.006, 0.0325) and gravity exerts nothing; at elbow = 0.5 and v = 0
# the forearm's centre of mass (1 kg, 0.15 m from the elbow) falls with a.elbow =
# 9.81 * 0.15 * sin(0.5) / 0.0325 and M stays diagonal. The tables carry finger columns that
# disagree with the locked values: they are ignored.
set(gripper tests/data/urdf/massless_gripper.urdf)
eom_cli_test(NAME lock-fd-refused-without
             ARGS fd ${gripper} tests/data/fd/massless_gripper.csv
             RC 2 STDERR_REGEX "joints 'finger_joint_1', 'finger_joint_2', 'finger_joint_3' move no mass or inertia along their motion: .* or lock them: --lock 'finger_joint_\\*'\\)")
# two joints are named rather than globbed (the last only with the others locked)
eom_cli_test(NAME lock-fd-proposes-names
             ARGS fd ${gripper} tests/data/fd/massless_gripper.csv --lock finger_joint_3
             RC 2 STDERR_REGEX "or lock them: --lock 'finger_joint_1,finger_joint_2'\\)")
eom_cli_test(NAME lock-fd-proposes-one
             ARGS fd ${gripper} tests/data/fd/massless_gripper.csv --lock finger_joint_1,finger_joint_2
             RC 2 STDERR_REGEX "joint 'finger_joint_3' moves no mass or inertia along its motion: .* or lock them: --lock 'finger_joint_3'\\)")
eom_cli_test(NAME lock-fd-glob
             ARGS fd ${gripper} tests/data/fd/massless_gripper.csv --lock finger_joint_*
             STDOUT tests/data/fd/massless_gripper.a.csv COMPARE numeric ATOL 1e-12)
# the leader locks its follower; the follower's columns are ignored as its leader's are
eom_cli_test(NAME lock-fd-mimic-leader
             ARGS fd ${gripper} tests/data/fd/massless_gripper.csv --lock finger_joint_1=0.03,finger_joint_3=0.2 --method crba
             STDOUT tests/data/fd/massless_gripper.a.csv COMPARE numeric ATOL 1e-12
             STDERR_REGEX "^eom fd: warning: --lock: mimic joints are locked with the joints they follow: 'finger_joint_2' at 0.03 \\(mimics 'finger_joint_1'\\)\n$")
eom_cli_test(NAME lock-id-columns-ignored
             ARGS id ${gripper} tests/data/id/massless_gripper.csv --lock finger_joint_1,finger_joint_2,finger_joint_3
             STDOUT tests/data/id/massless_gripper.tau.csv COMPARE numeric ATOL 1e-12)
eom_cli_test(NAME lock-sim-refused-without
             ARGS sim ${gripper} --q0 elbow=0.5 --duration 0.01
             RC 2 STDERR_REGEX "or lock them: --lock 'finger_joint_\\*'")
eom_cli_test(NAME lock-sim
             ARGS sim ${gripper} --q0 elbow=0.5 --duration 0.01 --lock finger_joint_1 --lock finger_joint_2,finger_joint_3 -q
             STDOUT_REGEX "^t,q.shoulder,q.elbow,v.shoulder,v.elbow[,\n]")
# a locked joint's coordinate given to another option is said to be locked
eom_cli_test(NAME lock-sim-q0-of-locked
             ARGS sim ${gripper} --q0 finger_joint_1=0.1 --duration 0.01 --lock finger_joint_*
             RC 2 STDERR_REGEX "--q0 finger_joint_1=0.1: 'finger_joint_1' is a coordinate of a joint fixed by --lock: give its value there")
# the blanks of a list written with spaces are no part of the names and values
eom_cli_test(NAME lock-list-with-blanks
             ARGS info ${gripper} "--lock=finger_joint_1 = 0.02, finger_joint_3"
             STDOUT_REGEX "locked \\(--lock\\): finger_joint_1 = 0.02, finger_joint_2 = 0.02, finger_joint_3 = 0\n"
             STDERR_REGEX "'finger_joint_2' at 0.02 \\(mimics 'finger_joint_1'\\)")
# fingertip_1 hangs on finger_1: locked at 0.04 (not the table's 0.01, 0.02) it rides on the
# forearm at (0, 0.01 + 0.04, 0.3 + 0.05) from the elbow, turned by Rz(shoulder) Ry(elbow)
eom_cli_test(NAME lock-fk-frames-stay
             ARGS fk ${gripper} tests/data/fd/massless_gripper.csv --lock finger_joint_1=0.04 --frames fingertip_1
             STDOUT tests/data/fk/massless_gripper_tip.csv COMPARE numeric ATOL 1e-15
             STDERR_REGEX "'finger_joint_2' at 0.04 \\(mimics 'finger_joint_1'\\)")
eom_cli_test(NAME lock-info
             ARGS info ${gripper} --lock finger_joint_*
             STDOUT_REGEX "nq: 2  nv: 2  moving joints: 2.*locked \\(--lock\\): finger_joint_1 = 0, finger_joint_2 = 0, finger_joint_3 = 0\n.*fingertip_1 +on elbow")
eom_cli_test(NAME lock-info-json
             ARGS info ${gripper} --lock finger_joint_1=0.02 --format json
             STDERR_REGEX "'finger_joint_2' at 0.02 \\(mimics 'finger_joint_1'\\)"
             STDOUT_REGEX "\"locked\": .\n +{\n +\"name\": \"finger_joint_1\",\n +\"q\": .\n +0.02\n")
# JOINT alone: 0, or the limit nearest 0 (kinova's joint 2 moves in [0.820304748437, 5.46...]); a
# planar or floating joint at its neutral configuration
eom_cli_test(NAME lock-neutral-nearest-limit
             ARGS info tests/data/robots/kinova.urdf --lock j2s6s200_joint_1,j2s6s200_joint_2
             STDOUT_REGEX "locked \\(--lock\\): j2s6s200_joint_1 = 0, j2s6s200_joint_2 = 0.820305\n")
eom_cli_test(NAME lock-neutral-planar-floating
             ARGS info tests/data/robots/mixed_joints.urdf --lock glide,pod
             STDOUT_REGEX "locked \\(--lock\\): glide = 0 0 0, pod = 0 0 0 0 0 0 1\n")

# bad input
eom_cli_test(NAME lock-unknown-joint
             ARGS info ${gripper} --lock fingerjoint_1
             RC 2 STDERR_REGEX "^eom info: error: --lock fingerjoint_1: the model has no joint 'fingerjoint_1' \\(did you mean 'finger_joint_1'")
eom_cli_test(NAME lock-glob-matches-nothing
             ARGS info ${gripper} --lock thumb*
             RC 2 STDERR_REGEX "--lock thumb\\*: no joint matches 'thumb\\*'")
eom_cli_test(NAME lock-outside-limits
             ARGS info ${gripper} --lock elbow=3,finger_joint_1=0.05
             STDERR_REGEX "^eom info: warning: --lock: mimic joints .*\neom info: warning: --lock: joint 'elbow' is locked at 3, outside its limits \\[-2.5, 2.5\\]\neom info: warning: --lock: joint 'finger_joint_1' is locked at 0.05, outside its limits \\[0, 0.04\\]\neom info: warning: --lock: joint 'finger_joint_2' is locked at 0.05, outside its limits \\[0, 0.04\\]\n$")
eom_cli_test(NAME lock-root
             ARGS info robots/solo12.urdf --floating-base --lock root
             RC 2 STDERR_REGEX "--lock root: the free-flyer 'root' of --floating-base cannot be locked; for a base that does not move, use a fixed base \\(omit --floating-base\\)")
foreach(value IN ITEMS nan inf 1e400 abc)
  eom_cli_test(NAME lock-not-a-number-${value}
               ARGS info ${gripper} --lock elbow=${value}
               RC 2 STDERR_REGEX "--lock elbow=${value}: expected JOINT, JOINT=VALUE with a finite number")
endforeach()
eom_cli_test(NAME lock-no-value
             ARGS info ${gripper} --lock elbow=
             RC 2 STDERR_REGEX "--lock elbow=: expected JOINT, JOINT=VALUE with a finite number")
eom_cli_test(NAME lock-twice
             ARGS info ${gripper} --lock elbow=1,elbow=2
             RC 2 STDERR_REGEX "--lock elbow=2: joint 'elbow' is locked twice \\(also by elbow=1\\)")
eom_cli_test(NAME lock-twice-by-glob
             ARGS info ${gripper} --lock finger_joint_* --lock finger_joint_2=0.01
             RC 2 STDERR_REGEX "--lock finger_joint_2=0.01: joint 'finger_joint_2' is locked twice \\(also by finger_joint_\\*\\)")
eom_cli_test(NAME lock-value-for-free-joint
             ARGS info tests/data/robots/mixed_joints.urdf --lock *=0.1
             RC 2 STDERR_REGEX "coordinates: lock it by name alone, at its neutral configuration")

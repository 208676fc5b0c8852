# MJCF (MuJoCo's XML) wherever a ROBOT is read: detected by content, what is ignored said once,
# refusals naming the element, the file and the line (exit 2).
set(M tests/data/mjcf)

eom_cli_test(NAME mjcf-info ARGS info ${M}/floating.xml
             STDOUT_REGEX "root link: torso \\(moved by the free-flyer joint 'base'\\)\nnq: 11  nv: 10")
eom_cli_test(NAME mjcf-info-ignored ARGS info ${M}/arm.xml
             STDOUT_REGEX "nq: 6  nv: 6"
             STDERR_REGEX "^eom info: warning: ${M}/arm.xml: ignored \\(no part of eom's rigid-body model\\): <actuator> gains, control ranges and dynamics\n$")
eom_cli_test(NAME mjcf-check ARGS check ${M}/pendulum.xml
             STDOUT_REGEX "^${M}/pendulum.xml: ok \\(1 moving joint, 2 links, total mass 4.45059 kg\\)\n$")
eom_cli_test(NAME mjcf-stdin ARGS info - STDIN ${M}/pendulum.xml STDOUT_REGEX "nq: 1  nv: 1")
# the free joint's columns carry its name
eom_cli_test(NAME mjcf-fk-free ARGS fk ${M}/floating.xml ${M}/floating_q.csv --frames imu -q
             STDOUT_REGEX "^imu.x,imu.y,imu.z,imu.qx,imu.qy,imu.qz,imu.qw\n1.05,2,3.02,0,0,0,1\n$")

# armature: a column of eom info when a joint has one; the export's warning names the free joint
eom_cli_test(NAME mjcf-info-armature ARGS info ${M}/armature.xml
             STDOUT_REGEX "  damping  friction  armature  body kg +parent -> child\n.*\n  knee  .*  0  +0  +0.05  ")
eom_cli_test(NAME mjcf-export-free-joint-name ARGS export ${M}/armature.xml -o -
             STDERR_REGEX "the file's free joint 'base' \\(load the URDF with a floating base, which names it 'root'\\)")
# an unnamed <freejoint> is the file's too, not the free-flyer a floating base adds
eom_cli_test(NAME mjcf-export-free-joint-unnamed ARGS export ${M}/free_unnamed.xml -o -
             STDERR_REGEX "not written: the file's free joint \\(load the URDF with a floating base, which names it 'root'\\)")

set(B ${M}/bad)
foreach(case IN ITEMS
    "ball_axis|4: <joint type=\"ball\" axis>: a ball joint turns about every axis, it has none"
    "ball_range|5: <joint type=\"ball\" range>: a ball joint's limit \\(a cone on its rotation angle\\) is not supported; set limited=\"false\" or remove the range"
    "weld|9: <weld> equality constraints are not supported \\(eom models open trees\\)"
    "gravcomp|3: <body gravcomp> \\(gravity compensation\\) is not supported"
    "composite|4: <composite> is not supported"
    "mesh|3: <mesh file=\"shell.stl\">: 'tests/data/mjcf/bad/shell.stl': cannot open the file"
    "massless|4: joint 'j' moves no mass: its body and those below it have neither an <inertial> nor geoms with mass"
    "range_without_limited|4: <joint range> without limited=\"true\": set <compiler autolimits=\"true\"> or limited \\(as MuJoCo requires\\)"
    "unknown_joint|4: <joint type=\"screw\">: expected hinge, slide, ball or free"
    "two_orientations|3: <body> has both 'quat' and 'euler': give one orientation"
    "malformed|3: malformed XML: mismatched element"
    "bad_number|3: <body pos=\"0 zero 0\">: 'zero' is not a number"
    "missing_include|3: <include file=\"no_such_part.xml\">: 'tests/data/mjcf/bad/no_such_part.xml': cannot open the file")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 file)
  list(GET parts 1 message)
  eom_cli_test(NAME mjcf-bad-${file} ARGS info ${B}/${file}.xml RC 2
               STDERR_REGEX "^eom info: error: ${B}/${file}.xml:${message}")
endforeach()
eom_cli_test(NAME mjcf-bad-self-include ARGS info ${B}/self_include.xml RC 2
             STDERR_REGEX "^eom info: error: ${B}/self_include_part.xml:2: <include file=\"self_include_part.xml\">: '${B}/self_include_part.xml' includes itself: ${B}/self_include.xml -> ${B}/self_include_part.xml -> ${B}/self_include_part.xml\n$")
# a longer loop is named whole, file by file from the main file
eom_cli_test(NAME mjcf-bad-include-loop ARGS info ${B}/include_loop.xml RC 2
             STDERR_REGEX "^eom info: error: ${B}/include_loop_c.xml:2: <include file=\"include_loop_b.xml\">: '${B}/include_loop_b.xml' includes itself: ${B}/include_loop.xml -> ${B}/include_loop_b.xml -> ${B}/include_loop_c.xml -> ${B}/include_loop_b.xml\n$")
eom_cli_test(NAME mjcf-radian-range ARGS info ${B}/radian_range.xml
             STDERR_REGEX "^eom info: warning: ${B}/radian_range.xml: <joint range> of 'j' \\(line 5\\), 'k' \\(line 11\\) span more than two turns \\(4 pi\\) with <compiler angle=\"radian\">: degrees given as radians\\?\n$")
eom_cli_test(NAME mjcf-floating-base-option ARGS info ${M}/pendulum.xml --floating-base RC 2
             STDERR_REGEX "a floating base is added to URDF and JSON models only: an MJCF model floats by a <freejoint> in its top body")
eom_cli_test(NAME mjcf-check-refused ARGS check ${B}/ball_axis.xml RC 1
             STDOUT_REGEX "^${B}/ball_axis.xml:4: error: <joint type=\"ball\" axis>: a ball joint turns about every axis, it has none\n${B}/ball_axis.xml: 1 error\n$")
eom_cli_test(NAME mjcf-check-included ARGS check ${B}/self_include.xml RC 1
             STDOUT_REGEX "^${B}/self_include.xml: error: ${B}/self_include_part.xml:2: <include")
# an error in an included file names that file and its line
eom_cli_test(NAME mjcf-bad-included-massless ARGS info ${B}/massless_included.xml RC 2
             STDERR_REGEX "^eom info: error: ${B}/massless_part.xml:3: joint 'j' moves no mass")

# Ball joints: a spherical pendulum turning at a constant body-frame angular velocity, against
# the closed forms of scripts/make_ball_tables.py (Euler's equations about the pivot)
set(ball ${M}/ball_pendulum.xml)
eom_cli_test(NAME mjcf-ball-info ARGS info ${M}/ball_chain.xml
             STDOUT_REGEX "nq: 13  nv: 10.*\n +shoulder +ball +- +0 +0 [^\n]*\n +elbow +continuous +0 1 0 +4 +3 ")
eom_cli_test(NAME mjcf-ball-dot ARGS info ${M}/ball_chain.xml --format dot
             STDOUT_REGEX "\"world\" -> \"link1\" \\[label=\"shoulder.nball\"\\];")
# masses to 6 digits: the torso's 8 kg is 8.000000000000002 summed from its geoms
eom_cli_test(NAME mjcf-dot-mass-digits ARGS info ${M}/armature.xml --format dot
             STDOUT_REGEX "\"torso\" \\[label=\"torso.n8 kg\"\\];\n  \"upper\" \\[label=\"upper.n0.961327 kg\"\\];")
# v and a derived from q on SO(3): the differences log(R_i^T R_j) of this motion are exactly
# linear in time, so the fits recover v = w and a = 0 up to round-off (measured 2.3e-13 N m)
eom_cli_test(NAME mjcf-ball-id-derived ARGS id ${ball} ${M}/ball_spin.csv
             STDOUT ${M}/ball_spin.tau.csv COMPARE numeric ATOL 1e-10 RTOL 0
             STDERR_REGEX "derived v, a from q \\(on the configuration manifold\\)")
eom_cli_test(NAME mjcf-ball-id-given ARGS id ${ball} ${M}/ball_spin_qva.csv --no-derive
             STDOUT ${M}/ball_spin.tau.csv COMPARE numeric ATOL 1e-12 RTOL 1e-12)
eom_cli_test(NAME mjcf-ball-deriv ARGS deriv ${ball} ${M}/ball_spin_qva.csv --order 1 --no-derive
             STDOUT ${M}/ball_spin.deriv.csv COMPARE numeric ATOL 1e-12 RTOL 1e-12)
eom_cli_test(NAME mjcf-ball-fd ARGS fd ${ball} ${M}/ball_spin_state.csv
             STDOUT ${M}/ball_spin.fd.csv COMPARE numeric ATOL 1e-12 RTOL 1e-12)
# without gravity, the constant torque w x I_o w keeps the body turning at w: integrated on SO(3)
# (measured 5.5e-14 off the closed form)
eom_cli_test(NAME mjcf-ball-sim ARGS sim ${ball} --gravity 0,0,0 --initial ${M}/ball_spin_state.csv
             --torque ball.mx=0.252924,ball.my=0.18338,ball.mz=0.024724 --duration 2 --dt 1e-3
             --output-dt 0.01 STDOUT ${M}/ball_spin.sim.csv COMPARE numeric ATOL 1e-10 RTOL 0)
eom_cli_test(NAME mjcf-ball-export ARGS export ${M}/ball_chain.xml RC 2
             STDERR_REGEX "joint 'shoulder' is a ball joint: URDF has no ball \\(spherical\\) joint, so the model cannot be written as URDF")
# IK through ball joints: the tool's pose at q = (shoulder 0.1 0.2 0.3 0.9, elbow 0.5, wrist
# 0.3 -0.2 0.1 0.9, tip 0 0.4 0.1 0.9; renormalised) from eom fk, reached from the neutral seed
eom_cli_test(NAME mjcf-ball-ik ARGS ik ${M}/ball_chain.xml ${M}/ball_chain_tool.csv --frame tool
             STDOUT_REGEX "\n0,[^\n]*,1,[0-9.e-]+,[0-9.e-]+,[0-9]+,0\n$")

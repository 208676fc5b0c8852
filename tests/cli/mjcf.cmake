# MJCF (MuJoCo's XML) wherever a ROBOT is read: detected by content, what is ignored said once,
# refusals naming the element, the file and the line (exit 2).
set(M tests/data/mjcf)

eom_cli_test(NAME mjcf-info ARGS info ${M}/floating.xml
             STDOUT_REGEX "root link: torso \\(moved by the free-flyer joint 'base'\\)\nnq: 11  nv: 10")
eom_cli_test(NAME mjcf-info-ignored ARGS info ${M}/arm.xml
             STDOUT_REGEX "nq: 6  nv: 6"
             STDERR_REGEX "^eom info: warning: ${M}/arm.xml: ignored \\(no part of eom's rigid-body model\\): <actuator>\n$")
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
             STDERR_REGEX "the free joint 'base' \\(load the URDF with --floating-base, which names it 'root'\\)")

set(B ${M}/bad)
foreach(case IN ITEMS
    "ball|4: ball joints are not supported"
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
             STDERR_REGEX "^eom info: error: ${B}/self_include_part.xml:2: <include file=\"self_include_part.xml\">: '${B}/self_include_part.xml' includes itself\n$")
eom_cli_test(NAME mjcf-radian-range ARGS info ${B}/radian_range.xml
             STDERR_REGEX "^eom info: warning: ${B}/radian_range.xml: line 5: <joint range> spans more than 2 pi with <compiler angle=\"radian\">: degrees given as radians\\?\n$")
eom_cli_test(NAME mjcf-floating-base-option ARGS info ${M}/pendulum.xml --floating-base RC 2
             STDERR_REGEX "--floating-base: an MJCF model floats by a <freejoint> in its top body")
eom_cli_test(NAME mjcf-check-refused ARGS check ${B}/ball.xml RC 1
             STDOUT_REGEX "^${B}/ball.xml:4: error: ball joints are not supported\n${B}/ball.xml: 1 error\n$")
eom_cli_test(NAME mjcf-check-included ARGS check ${B}/self_include.xml RC 1
             STDOUT_REGEX "^${B}/self_include.xml: error: ${B}/self_include_part.xml:2: <include")
# an error in an included file names that file and its line
eom_cli_test(NAME mjcf-bad-included-massless ARGS info ${B}/massless_included.xml RC 2
             STDERR_REGEX "^eom info: error: ${B}/massless_part.xml:3: joint 'j' moves no mass")

# JSON robot models (product of exponentials, DH) wherever a ROBOT is read: detected by content,
# the textbook's worked example through `eom id`, refusals naming the file and the JSON path.
set(J tests/data/models)
set(scaled_s1 "S\\[0\\]: the angular part has norm 1.4142135623730951, not 1: taken as a scaled twist \\(joint 'joint1' moves 1.4142135623730951 per unit of q\\)")

eom_cli_test(NAME json-model-info ARGS info ${J}/textbook_3link.json
             STDOUT_REGEX "nq: 3  nv: 3"
             STDERR_REGEX "^eom info: warning: ${J}/textbook_3link.json: ${scaled_s1}\n$")
eom_cli_test(NAME json-model-check ARGS check ${J}/textbook_3link.json
             STDOUT_REGEX "^${J}/textbook_3link.json: warning: ${scaled_s1}\n${J}/textbook_3link.json: ok, 1 warning \\(3 moving joints, 5 links, total mass 14.368 kg\\)\n$")
eom_cli_test(NAME json-model-check-strict ARGS check --strict -q ${J}/textbook_3link.json RC 1
             STDOUT_REGEX "failed \\(--strict\\), 1 warning")
# Modern Robotics' InverseDynamics example: its Ftip = (1, 1, 1, 1, 1, 1) is the wrench the
# end-effector applies on the environment in frame {n+1}; eom's wrench columns are the wrench on
# the robot, so the table holds -Ftip in the end-effector's axes (--wrench-frame local)
eom_cli_test(NAME json-model-id-textbook
             ARGS id ${J}/textbook_3link.json ${J}/textbook_3link.csv --gravity 0,0,-9.8
                  --wrench-frame local -q
             STDOUT ${J}/textbook_3link.tau.csv COMPARE numeric ATOL 5e-9)
# a DH table and its URDF: the same frames
eom_cli_test(NAME json-model-dh-stdin ARGS info - STDIN ${J}/puma_like.mdh.json
             STDOUT_REGEX "nq: 6  nv: 6")

# bad input: exit 2 naming the file and the JSON path
set(B ${J}/bad)
foreach(case IN ITEMS
    "unknown_format|format: 'sdf' is not a model format eom reads \\(poe, dh or mdh\\)"
    "spherical|joints\\[0\\].type: 'spherical' is not revolute or prismatic"
    "short_M|M: expected 2 entries \\(n \\+ 1 placements M_{i-1,i}, the last one the end-effector's\\), not 1"
    "indefinite_G|G\\[0\\]: not positive definite \\(smallest eigenvalue -1.0\\)"
    "non_rigid_M|M\\[0\\]: not a rigid placement: the rotation block is not orthonormal"
    "dh_missing_d|joints\\[1\\]: missing field \"d\""
    "malformed|4:1: malformed JSON: ")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 file)
  list(GET parts 1 message)
  eom_cli_test(NAME json-model-bad-${file} ARGS info ${B}/${file}.json RC 2
               STDERR_REGEX "^eom info: error: ${B}/${file}.json:? ?${message}")
endforeach()
eom_cli_test(NAME json-model-bad-check ARGS check ${B}/spherical.json RC 1
             STDOUT_REGEX "^${B}/spherical.json: error: joints\\[0\\].type: 'spherical' is not revolute or prismatic\n${B}/spherical.json: 1 error\n$")
eom_cli_test(NAME json-model-bad-check-malformed ARGS check ${B}/malformed.json RC 2
             STDOUT_REGEX "^${B}/malformed.json:4: error: malformed JSON")
eom_cli_test(NAME json-model-bad-id ARGS id ${B}/indefinite_G.json ${J}/textbook_3link.csv RC 2
             STDERR_REGEX "^eom id: error: ${B}/indefinite_G.json: G\\[0\\]: not positive definite")

# The error contract as a matrix (tests/cli/errors.sh runs one cell and says what it asserts): each
# subcommand that reads a ROBOT or a TABLE against every class of bad input that applies to it, one
# ctest per (subcommand, class). One line per subcommand:
#   eom_error_matrix(NAME ARGS <command line> [ROBOT urdf] [TABLE table] [FRAME frame]
#                    [DROP column] [BAD_OPTION --opt=value...] [MODEL_RC rc] [REPORT_ON_STDOUT]
#                    [PARTIAL_OF "table options"])
# ARGS holds the placeholders @ROBOT@, @TABLE@, @OUT@, @FRAME@ and @PARTIAL@, which stand for the
# valid ROBOT, TABLE and FRAME, an output file, and a partial fit of eom identify (made from ROBOT
# by `eom identify ROBOT <PARTIAL_OF> --partial`); DROP is a column whose absence is an error;
# BAD_OPTION the option values the command refuses (one cell each; the first is the cell
# "bad-option", the others "bad-option OPTION=VALUE"). Which classes apply follows from them: with
# PARTIAL_OF, the partial fit classes where ARGS has @PARTIAL@ (the last word: `--merge @PARTIAL@`),
# and a partial fit given as the TABLE where it has @TABLE@.
set(eom_robot_error_classes robot-missing robot-unreadable robot-directory robot-device
                            robot-oversized malformed-xml deep-nesting non-physical-inertia
                            beyond-bounds unknown-joint-type cycle)
set(eom_table_error_classes table-missing table-unreadable table-directory text-in-number nan
                            nul-in-cell out-of-range json-out-of-range ragged-row
                            duplicate-column empty-input overlong-row)
set(eom_partial_error_classes partial-missing partial-truncated partial-not-a-number
                              partial-other-model partial-other-settings
                              partial-other-contacts partial-newer-version
                              log-as-partial no-partials)

function(eom_error_matrix name)
  cmake_parse_arguments(M "REPORT_ON_STDOUT;COPIES_FIELDS" "ROBOT;TABLE;FRAME;DROP;MODEL_RC;PARTIAL_OF" "ARGS;BAD_OPTION" ${ARGN})
  set(classes)
  set(options)
  if(DEFINED M_ROBOT)
    list(APPEND classes ${eom_robot_error_classes})
    list(APPEND options --robot ${M_ROBOT})
  endif()
  if(DEFINED M_TABLE)
    list(APPEND classes ${eom_table_error_classes})
    list(APPEND options --table ${M_TABLE})
  endif()
  if(M_COPIES_FIELDS)  # reads no number: text and NaN are fields like any other
    list(REMOVE_ITEM classes text-in-number nan nul-in-cell out-of-range json-out-of-range)
  endif()
  if(DEFINED M_DROP)
    list(APPEND classes missing-column)
    list(APPEND options --drop ${M_DROP})
  endif()
  if(DEFINED M_FRAME)
    list(APPEND classes unknown-frame)
    list(APPEND options --frame ${M_FRAME})
  endif()
  set(bad_options)
  if(DEFINED M_BAD_OPTION)
    list(POP_FRONT M_BAD_OPTION first_bad_option)
    list(APPEND classes bad-option)
    list(APPEND options --bad-option ${first_bad_option})
    set(bad_options ${M_BAD_OPTION})
  endif()
  if(DEFINED M_PARTIAL_OF)
    if("@PARTIAL@" IN_LIST M_ARGS)
      list(APPEND classes ${eom_partial_error_classes})
    endif()
    if("@TABLE@" IN_LIST M_ARGS)
      list(APPEND classes partial-as-log)
    endif()
    list(APPEND options --partial-of ${M_PARTIAL_OF})
  endif()
  if(DEFINED M_MODEL_RC)
    list(APPEND options --model-rc ${M_MODEL_RC})
  endif()
  if(M_REPORT_ON_STDOUT)
    list(APPEND options --report-on-stdout)
  endif()
  foreach(class IN LISTS classes)
    add_test(NAME "cli: errors ${name} ${class}"
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/errors.sh $<TARGET_FILE:eom_cli> ${PROJECT_SOURCE_DIR}
                     ${class} ${options} -- ${M_ARGS})
    set_tests_properties("cli: errors ${name} ${class}" PROPERTIES LABELS "cli;errors" SKIP_RETURN_CODE 77)
  endforeach()
  # the other refused option values: the class bad-option with each (the last --bad-option given
  # to errors.sh wins)
  foreach(bad IN LISTS bad_options)
    add_test(NAME "cli: errors ${name} bad-option ${bad}"
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/errors.sh $<TARGET_FILE:eom_cli> ${PROJECT_SOURCE_DIR}
                     bad-option ${options} --bad-option ${bad} -- ${M_ARGS})
    set_tests_properties("cli: errors ${name} bad-option ${bad}" PROPERTIES LABELS "cli;errors" SKIP_RETURN_CODE 77)
  endforeach()
endfunction()

# eom check reports what it finds in a model on stdout and exits 1 (its documented contract); a file
# it cannot read or parse is exit 2 there too
eom_error_matrix(check ARGS check @ROBOT@ ROBOT robots/planar_2r.urdf BAD_OPTION --format=xml
                 MODEL_RC 1 REPORT_ON_STDOUT)
eom_error_matrix(info ARGS info @ROBOT@ ROBOT robots/planar_2r.urdf BAD_OPTION --format=xml)
eom_error_matrix(fk ARGS fk @ROBOT@ @TABLE@ --frames @FRAME@ -o @OUT@ ROBOT robots/planar_2r.urdf
                 TABLE trajectories/planar_2r_small.csv FRAME tip DROP q.joint1 BAD_OPTION --jobs=-1)
eom_error_matrix(convert ARGS convert @TABLE@ @OUT@ TABLE trajectories/planar_2r_small.csv
                 BAD_OPTION --from=xml COPIES_FIELDS)
eom_error_matrix(id ARGS id @ROBOT@ @TABLE@ -o @OUT@ ROBOT robots/planar_2r.urdf
                 TABLE trajectories/planar_2r_small.csv DROP q.joint1 BAD_OPTION --time-scale=0)
eom_error_matrix(fd ARGS fd @ROBOT@ @TABLE@ -o @OUT@ ROBOT robots/planar_2r.urdf
                 TABLE tests/data/errors/planar_2r_fd.csv DROP tau.joint1 BAD_OPTION --method=lu)
eom_error_matrix(sim ARGS sim @ROBOT@ --torques @TABLE@ --duration 1 -o @OUT@ ROBOT robots/planar_2r.urdf
                 TABLE tests/data/errors/planar_2r_torques.csv DROP tau.joint1 BAD_OPTION --integrator=rk9)
eom_error_matrix(ik ARGS ik @ROBOT@ @TABLE@ --frame @FRAME@ -o @OUT@ ROBOT robots/iiwa14.urdf
                 TABLE trajectories/iiwa_circle_targets.csv FRAME iiwa_link_ee DROP iiwa_link_ee.x
                 BAD_OPTION --mask=xyz)
eom_error_matrix(deriv ARGS deriv @ROBOT@ @TABLE@ -o @OUT@ ROBOT robots/planar_2r.urdf
                 TABLE trajectories/planar_2r_small.csv DROP q.joint1 BAD_OPTION --order=-1)
eom_error_matrix(jac ARGS jac @ROBOT@ @TABLE@ --frame @FRAME@ -o @OUT@ ROBOT robots/planar_2r.urdf
                 TABLE trajectories/planar_2r_small.csv FRAME tip DROP q.joint1 BAD_OPTION --task=sideways)
eom_error_matrix(plot ARGS plot @TABLE@ --robot @ROBOT@ --y q.joint1,q.joint2 --format svg -o @OUT@
                 ROBOT robots/planar_2r.urdf TABLE trajectories/planar_2r_small.csv DROP q.joint1
                 BAD_OPTION --width=10)
eom_error_matrix(identify ARGS identify @ROBOT@ @TABLE@ --friction none -o @OUT@
                 ROBOT robots/planar_2r.urdf TABLE tests/data/id/planar_2r_measured.csv
                 DROP tau.joint1 BAD_OPTION --max-condition=0 --only=no_such_link --filter=0
                 --decimate=0
                 PARTIAL_OF "tests/data/id/planar_2r_measured.csv --friction none")
# the fit finished from a partial fit: a partial output with it is refused (it needs the fit)
eom_error_matrix(identify-merge ARGS identify @ROBOT@ --friction none -o @OUT@ --merge @PARTIAL@
                 ROBOT robots/planar_2r.urdf BAD_OPTION --partial=again.json
                 PARTIAL_OF "tests/data/id/planar_2r_measured.csv --friction none")
# the fit left unfinished: the partial fit is the output
eom_error_matrix(identify-partial ARGS identify @ROBOT@ @TABLE@ --friction none --partial @OUT@
                 ROBOT robots/planar_2r.urdf TABLE tests/data/id/planar_2r_measured.csv
                 DROP tau.joint1 BAD_OPTION --urdf-out=robot_out.urdf)
eom_error_matrix(excite ARGS excite @ROBOT@ --harmonics 2 --evaluations 10 -o @OUT@
                 ROBOT robots/planar_2r.urdf BAD_OPTION --rate=0)

# A bad cell is placed the same way by every subcommand (issue 38 item 15): line:column, the
# column a character position ('é' before it is one character of two bytes), not a field number
set(activity_half tests/data/errors/box_activity_half.csv)
set(box_contacts tests/data/urdf/box_corners_centred.urdf ${activity_half} --floating-base
                 --contacts front_left,front_right,rear_left,rear_right)
foreach(command IN ITEMS "id;--static" "fd" "jac" "impact")
  list(GET command 0 name)
  eom_cli_test(NAME errors-cell-position-${name} ARGS ${command} ${box_contacts}
               RC 2 STDERR_REGEX "^eom ${name}: error: ${activity_half}:3:34: column contact.front_left: '0.5' is neither 1 nor 0 \\(1: the contact holds, 0: it does not\\)\n$")
endforeach()
eom_cli_test(NAME errors-cell-position-plot
             ARGS plot ${activity_half} --y v.root.vx -o ${EOM_CLI_OUT}/activity_half.svg
             RC 2 STDERR_REGEX "^eom plot: error: ${activity_half}:3:34: column contact.front_left: '0.5' is neither 1 \\(closed\\) nor 0 \\(open\\)\n$")

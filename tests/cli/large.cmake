# Scale: a 200-joint chain and a 100-body tree through every subcommand (tests/cli/large.sh; the
# models and tables come from scripts/make_large_robots.py)
foreach(robot IN ITEMS chain200 tree100)
  foreach(case IN ITEMS info check fk convert id-fd sim ik deriv jac)
    if(case MATCHES "^(deriv|jac)$" AND NOT case IN_LIST EOM_COMMANDS)
      continue()  # registered once the subcommand lands
    endif()
    add_test(NAME "cli: large ${robot} ${case}"
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/large.sh $<TARGET_FILE:eom_cli> $<TARGET_FILE:tabdiff>
                     ${PROJECT_SOURCE_DIR} ${robot} ${case})
    set_tests_properties("cli: large ${robot} ${case}" PROPERTIES LABELS cli)
  endforeach()
endforeach()

# Robot logs as they come (tests/cli/logs.sh over tests/data/logs/, written by
# scripts/make_real_logs.py): epoch stamps, ROS 1 and ROS 2 exports, text columns, separators. Each
# log gives what the same data written cleanly gives.
foreach(case IN ITEMS epoch-ns epoch-ns-exact-t keep-digit-for-digit zero-ns epoch-seconds ros2-ndjson
                      ros2-csv ros2-convert text-convert semicolon separator-option tab did-you-mean
                      bad-nanosec sim-text-columns short-segment-error-alone sim-epoch-ns-tables
                      sim-ros2-stamp-tables duplicates nanoseconds-as-seconds unresolvable-steps)
  add_test(NAME "cli: logs ${case}"
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/logs.sh $<TARGET_FILE:eom_cli> $<TARGET_FILE:tabdiff>
                   ${PROJECT_SOURCE_DIR} ${case})
  set_tests_properties("cli: logs ${case}" PROPERTIES LABELS cli)
endforeach()

# eom plot: the images read back (check_plot_files.cpp: SVG with tinyxml2, PNG and PDF by
# structure, reruns byte for byte, a pipe, a million rows in bounded memory) and bad input.
set(P tests/data/plot)

add_executable(eom_plot_checks check_plot_files.cpp $<TARGET_OBJECTS:eom_catch_main>)
target_include_directories(eom_plot_checks PRIVATE ${PROJECT_SOURCE_DIR}/tests/support
                                                   ${PROJECT_BINARY_DIR}/tests/support)
target_compile_definitions(eom_plot_checks PRIVATE EOM_BINARY="$<TARGET_FILE:eom_cli>")
target_link_libraries(eom_plot_checks PRIVATE Catch2::Catch2 tinyxml2::tinyxml2)
add_dependencies(eom_plot_checks eom_cli)
catch_discover_tests(eom_plot_checks TEST_PREFIX "cli: " PROPERTIES LABELS cli)

# bad input: exit 2, the file and what was expected
eom_cli_test(NAME plot-y-matches-nothing ARGS plot ${P}/arm.csv --y "torque.*" -o ${EOM_CLI_OUT}/x.svg
             RC 2 STDERR_REGEX "arm.csv:1: --y 'torque.\\*' matches no column")
eom_cli_test(NAME plot-y-did-you-mean ARGS plot ${P}/arm.csv --y tau.joint3 -o ${EOM_CLI_OUT}/x.svg
             RC 2 STDERR_REGEX "matches no column \\(did you mean 'tau.joint1'")
eom_cli_test(NAME plot-text-named ARGS plot ${P}/words.csv --y tau.joint1 -o ${EOM_CLI_OUT}/x.svg
             RC 2 STDERR_REGEX "words.csv:3:5: column tau.joint1: 'x2' is not a number \\(named by --y\\)")
eom_cli_test(NAME plot-text-skipped ARGS plot ${P}/arm.csv --y "*" -o ${EOM_CLI_OUT}/skipped.svg
             STDERR_REGEX "column label holds no number: not plotted")
eom_cli_test(NAME plot-text-asked ARGS plot ${P}/arm.csv --y label -o ${EOM_CLI_OUT}/x.svg
             RC 2 STDERR_REGEX "arm.csv:2:15: column label: 'start' is not a number \\(named by --y\\)")
eom_cli_test(NAME plot-missing-x ARGS plot ${P}/arm.csv --x time -o ${EOM_CLI_OUT}/x.svg
             RC 2 STDERR_REGEX "arm.csv:1: --x: no column 'time'")
eom_cli_test(NAME plot-no-rows ARGS plot ${P}/empty.csv -o ${EOM_CLI_OUT}/x.svg
             RC 2 STDERR_REGEX "empty.csv: no rows to plot")
eom_cli_test(NAME plot-unknown-extension ARGS plot ${P}/arm.csv -o ${EOM_CLI_OUT}/x.gif
             RC 2 STDERR_REGEX "does not tell the image format")
eom_cli_test(NAME plot-over-input ARGS plot ${P}/arm.csv --format svg -o ${P}/arm.csv
             RC 2 STDERR_REGEX "refusing to replace an input")
eom_cli_test(NAME plot-stdin-twice ARGS plot - - -o ${EOM_CLI_OUT}/x.svg
             RC 2 STDERR_REGEX "stdin \\(-\\) can be read once only")
eom_cli_test(NAME plot-bad-format ARGS plot ${P}/arm.csv --format gif -o ${EOM_CLI_OUT}/x.svg
             RC 2 STDERR_REGEX "--format takes one of svg, png, pdf, not 'gif'")
eom_cli_test(NAME plot-to-stdout ARGS plot ${P}/arm.csv --format svg -q -o -
             STDOUT_REGEX "<svg")
eom_cli_test(NAME plot-y-is-x ARGS plot ${P}/arm.csv --y t -o ${EOM_CLI_OUT}/x.svg
             RC 2 STDERR_REGEX "arm.csv:1: --y 't' is the x axis")

# what plot cannot use is said (issue 38 item 12): a contact flag other than 0 or 1 is refused
# where it is (line:column, the character position), a q./v./tau. column the robot has no
# coordinate for is warned about, --threshold without an eom jac output is refused
eom_cli_test(NAME plot-contact-flag-not-binary ARGS plot ${P}/contact_half.csv -o ${EOM_CLI_OUT}/x.svg
             RC 2 STDERR_REGEX "^eom plot: error: ${P}/contact_half.csv:3:7: column contact.right: '0.5' is neither 1 \\(closed\\) nor 0 \\(open\\)\n$")
eom_cli_test(NAME plot-robot-unknown-coordinate
             ARGS plot ${P}/arm_unknown_joint.csv --robot robots/planar_2r.urdf --y q.* -o ${EOM_CLI_OUT}/x.svg
             STDERR_REGEX "^eom plot: warning: ${P}/arm_unknown_joint.csv: column q.elbow: the robot has no coordinate 'elbow': drawn without limits\n")
eom_cli_test(NAME plot-threshold-without-jac ARGS plot ${P}/arm.csv --threshold 0.1 -o ${EOM_CLI_OUT}/x.svg
             RC 2 STDERR_REGEX "eom plot: error: --threshold shades the rows of an eom jac output \\(its sigma.\\* and rank columns\\), and no table given is one\n$")

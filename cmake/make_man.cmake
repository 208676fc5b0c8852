# Writes the eom(1) man page from the help texts of the binary, so the two never disagree.
# Variables (-D): EOM (the binary), COMMANDS (comma-separated subcommands), OUT (the .1 file),
# VERSION.
string(REPLACE "," ";" COMMANDS "${COMMANDS}")
function(escape text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

execute_process(COMMAND ${EOM} --help OUTPUT_VARIABLE main_help RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "eom --help failed")
endif()
escape("${main_help}" main_help)
set(page ".TH EOM 1 \"\" \"eom ${VERSION}\" \"User Commands\"
.SH NAME
eom \\- equations of motion for robots described in URDF, MJCF or JSON models: inverse and forward dynamics,
kinematics and checks over tables of samples
.SH SYNOPSIS
.B eom
.I SUBCOMMAND
[\\fIOPTIONS\\fR] ...
.SH DESCRIPTION
.nf
${main_help}
.fi
")
foreach(command IN LISTS COMMANDS)
  execute_process(COMMAND ${EOM} ${command} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "eom ${command} --help failed")
  endif()
  escape("${help}" help)
  string(APPEND page ".SH \"EOM ${command}\"\n.nf\n${help}\n.fi\n")
endforeach()
string(APPEND page ".SH \"EXIT STATUS\"
0 success; 1 the work ran and found what was asked about (a check failed, a limit was exceeded);
2 usage or input error; 130 and 143 interrupted by SIGINT and SIGTERM.
.SH \"SEE ALSO\"
README.md and doc/ of the eom sources: one page per subcommand, tables, files, conventions;
bench/README.md: measured performance.
")
file(WRITE ${OUT} "${page}")

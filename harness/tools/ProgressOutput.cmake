# aot-compat shows progress on stderr when it is a terminal and stays quiet
# otherwise (ctest: aot_compat.progress_output). Under a pseudo-terminal
# (script(1)) generate, replay and report must show what they work on, n of
# N and the elapsed time; with stderr a pipe, nothing of that.
# Inputs: AOT_COMPAT, SOURCE_DIR, WORK_DIR.
cmake_minimum_required(VERSION 3.25)
find_program(SCRIPT script)
if(NOT SCRIPT)
  message(FATAL_ERROR "script(1) (util-linux / bsdutils) is needed to run under a terminal")
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/modules/elementwise")
file(GLOB modules "${SOURCE_DIR}/golden/modules/elementwise/*.hlo")
file(COPY ${modules} DESTINATION "${WORK_DIR}/modules/elementwise")
list(LENGTH modules count)

function(expect_progress output pattern)
  if(NOT output MATCHES "${pattern}")
    message(FATAL_ERROR "no progress matching '${pattern}' on the terminal:\n${output}")
  endif()
endfunction()

set(target host-x86-64-v2)
set(commands
  "generate --golden_dir=${WORK_DIR} --target=${target} --allow_dirty"
  "replay --golden_dir=${WORK_DIR} --target=${target} --jobs=1")
set(patterns
  "\\[ +[0-9]+\\.[0-9] s\\] generate ${target}: [a-z_]+ \\([0-9]+/${count}\\)"
  "\\[ +[0-9]+\\.[0-9] s\\] replay ${target} v1: [a-z_]+ \\([0-9]+/${count}\\)")
foreach(i RANGE 1)
  list(GET commands ${i} command)
  list(GET patterns ${i} pattern)
  # On a terminal (script's pty; its output is the terminal's).
  execute_process(COMMAND "${SCRIPT}" -qec "'${AOT_COMPAT}' ${command}" /dev/null
    RESULT_VARIABLE rc OUTPUT_VARIABLE tty ERROR_VARIABLE tty_err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${command} under a terminal failed (${rc}):\n${tty}\n${tty_err}")
  endif()
  expect_progress("${tty}" "${pattern}")
  # With stderr a pipe: results on stdout only, no progress.
  separate_arguments(args UNIX_COMMAND "${command}")
  execute_process(COMMAND "${AOT_COMPAT}" ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${command} failed (${rc}):\n${out}\n${err}")
  endif()
  if(NOT err STREQUAL "")
    message(FATAL_ERROR "${command} wrote to stderr although it is not a terminal:\n${err}")
  endif()
endforeach()
message(STATUS "progress on a terminal, quiet otherwise")

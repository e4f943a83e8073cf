# Runs a tool and checks its exit status, its one-line error and its output:
#   cmake -DEXPECT=2 [-DREGEX=re] [-DONE_LINE_ERROR=PROGRAM] -P expect_exit.cmake -- CMD ARGS...
# EXPECT: the exit status the command must return.
# REGEX: must match stdout + stderr.
# ONE_LINE_ERROR: stderr must hold exactly one line "PROGRAM: error: ..."
#   (notes "PROGRAM: note: ..." aside).
set(_cmd "")
set(_after_dashes FALSE)
math(EXPR _last "${CMAKE_ARGC} - 1")
foreach(i RANGE 0 ${_last})
  if(_after_dashes)
    list(APPEND _cmd "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(_after_dashes TRUE)
  endif()
endforeach()
if(NOT _cmd)
  message(FATAL_ERROR "expect_exit.cmake: no command after --")
endif()

execute_process(COMMAND ${_cmd} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
message("--- stdout\n${_out}--- stderr\n${_err}--- exit status ${_rc}")

if(NOT "${_rc}" STREQUAL "${EXPECT}")
  message(FATAL_ERROR "exit status ${_rc}, expected ${EXPECT}")
endif()
if(DEFINED REGEX AND NOT "${_out}${_err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match: ${REGEX}")
endif()
if(DEFINED ONE_LINE_ERROR)
  string(REGEX REPLACE "\n$" "" _trimmed "${_err}")
  # Only line prefixes matter below: neutralize list syntax.
  string(REPLACE ";" "," _trimmed "${_trimmed}")
  string(REPLACE "[" "(" _trimmed "${_trimmed}")
  string(REPLACE "]" ")" _trimmed "${_trimmed}")
  string(REPLACE "\n" ";" _lines "${_trimmed}")
  set(_errors 0)
  foreach(_line IN LISTS _lines)
    if(_line MATCHES "^${ONE_LINE_ERROR}: error: .")
      math(EXPR _errors "${_errors} + 1")
    elseif(NOT _line MATCHES "^${ONE_LINE_ERROR}: note: ")
      message(FATAL_ERROR "stderr line is neither an error nor a note: '${_line}'")
    endif()
  endforeach()
  if(NOT _errors EQUAL 1)
    message(FATAL_ERROR "expected one '${ONE_LINE_ERROR}: error:' line, got ${_errors}")
  endif()
endif()

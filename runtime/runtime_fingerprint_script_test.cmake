# cmake -DSCRIPT=cmake/RuntimeFingerprint.cmake -DWORK_DIR=... -DREAL_INPUTS=...
#       -P runtime_fingerprint_script_test.cmake
# The build half of the runtime fingerprint on a scratch tree: the same
# inputs give the same digest and leave the generated file untouched; a
# source edit, a configuration change or a missing source show. Then the
# real build's inputs list: the runtime's sources, not the compiler's, not
# tests.

# expect(MESSAGE CONDITION...): fails the test with MESSAGE unless the
# if() condition holds.
function(expect message)
  if(NOT (${ARGN}))
    message(FATAL_ERROR "FAILED: ${message}")
  endif()
endfunction()

# Runs the script on ${inputs}; sets `digest` in the caller (and `rc`, `err`).
function(generate inputs)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -DINPUTS=${inputs} -DOUTPUT=${WORK_DIR}/out.cc
            -DSOURCE_DIR=${WORK_DIR}/src -P ${SCRIPT}
    RESULT_VARIABLE result ERROR_VARIABLE error)
  set(rc "${result}" PARENT_SCOPE)
  set(err "${error}" PARENT_SCOPE)
  if(result EQUAL 0)
    file(READ "${WORK_DIR}/out.cc" text)
    string(REGEX MATCH "return \"([0-9a-f]+)\"" _ "${text}")
    set(digest "${CMAKE_MATCH_1}" PARENT_SCOPE)
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/src/runtime")
file(WRITE "${WORK_DIR}/src/runtime/a.cc" "int a() { return 1; }\n")
file(WRITE "${WORK_DIR}/src/runtime/a.h" "int a();\n")
set(sources "source ${WORK_DIR}/src/runtime/a.cc\nsource ${WORK_DIR}/src/runtime/a.h\n")
file(WRITE "${WORK_DIR}/inputs.txt" "config build_type Release\n${sources}")

generate("${WORK_DIR}/inputs.txt")
expect("the script fails on good inputs: ${err}" rc EQUAL 0)
set(first "${digest}")
string(LENGTH "${first}" length)
expect("no SHA-256 in the generated file (got '${first}')" length EQUAL 64)
file(READ "${WORK_DIR}/out.cc" text)
string(FIND "${text}" "RuntimeBuildFingerprintSourceCount() { return 2; }" count_at)
expect("the source count is not 2: ${text}" NOT count_at EQUAL -1)

# Unchanged inputs: the same digest, and the file is not rewritten (its
# timestamp kept, so nothing recompiles).
file(TIMESTAMP "${WORK_DIR}/out.cc" before "%s")
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
generate("${WORK_DIR}/inputs.txt")
file(TIMESTAMP "${WORK_DIR}/out.cc" after "%s")
expect("the same inputs gave another digest" digest STREQUAL first)
expect("an unchanged fingerprint rewrote the generated file" before STREQUAL after)

# A source edit changes it.
file(WRITE "${WORK_DIR}/src/runtime/a.cc" "int a() { return 2; }\n")
generate("${WORK_DIR}/inputs.txt")
expect("editing a source did not change the fingerprint" NOT digest STREQUAL first)
set(edited "${digest}")

# A configuration change changes it.
file(WRITE "${WORK_DIR}/inputs.txt" "config build_type Debug\n${sources}")
generate("${WORK_DIR}/inputs.txt")
expect("changing the build type did not change the fingerprint" NOT digest STREQUAL edited)

# A listed source that is gone is an error naming it (the glob is stale).
file(WRITE "${WORK_DIR}/inputs.txt"
     "config build_type Debug\n${sources}source ${WORK_DIR}/src/runtime/gone.cc\n")
generate("${WORK_DIR}/inputs.txt")
expect("a missing source was not an error" NOT rc EQUAL 0)
# (CMake wraps the message, so its words are matched apart.)
expect("the error does not name the file: ${err}"
       err MATCHES "gone\\.cc" AND err MATCHES "listed" AND err MATCHES "missing")

# The real build's inputs: the runtime's sources and configuration only.
file(STRINGS "${REAL_INPUTS}" real)
set(has_executable FALSE)
set(has_proto FALSE)
set(has_support FALSE)
set(has_compiler_flags FALSE)
foreach(line IN LISTS real)
  if(line MATCHES "^source .*/(compiler|harness|python|golden)/")
    message(FATAL_ERROR "FAILED: not runtime code in the fingerprint: ${line}")
  endif()
  if(line MATCHES "^source .*(_test\\.cc|_fuzzer\\.cc|/testing/|/testdata/)")
    message(FATAL_ERROR "FAILED: a test file in the fingerprint: ${line}")
  endif()
  if(line MATCHES "^source .*/runtime/executable/executable\\.cc$")
    set(has_executable TRUE)
  endif()
  if(line MATCHES "^source .*/proto/executable\\.proto$")
    set(has_proto TRUE)
  endif()
  if(line MATCHES "^source .*/support/sha256\\.cc$")
    set(has_support TRUE)
  endif()
  if(line MATCHES "^config cxx_flags ")
    set(has_compiler_flags TRUE)
  endif()
endforeach()
expect("runtime/executable/executable.cc is not in the fingerprint" has_executable)
expect("proto/executable.proto is not in the fingerprint" has_proto)
expect("support/sha256.cc is not in the fingerprint" has_support)
expect("the C++ flags are not in the fingerprint" has_compiler_flags)
message(STATUS "runtime fingerprint script: ok")

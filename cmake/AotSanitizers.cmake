# -DAOT_SANITIZE=address,undefined builds everything with those sanitizers.
if(AOT_SANITIZE)
  string(REPLACE "," ";" _aot_sans "${AOT_SANITIZE}")
  foreach(_s IN LISTS _aot_sans)
    if(NOT _s MATCHES "^(address|undefined|leak|thread)$")
      message(FATAL_ERROR "AOT_SANITIZE: unsupported sanitizer '${_s}' (use address, undefined, leak, thread)")
    endif()
  endforeach()
  add_compile_options(-fsanitize=${AOT_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${AOT_SANITIZE})
  add_compile_definitions(AOT_SANITIZED=1)
  message(STATUS "Sanitizers: ${AOT_SANITIZE}")
endif()

# -DAOT_FUZZ=ON (clang only, build-fuzz/ via scripts/fuzz.sh): every library
# gets libFuzzer's coverage instrumentation plus ASan + UBSan, and the
# aot_cc_fuzzer targets link the libFuzzer driver.
option(AOT_FUZZ "Build the libFuzzer targets (needs clang)" OFF)
if(AOT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "AOT_FUZZ needs clang (CC=clang-19 CXX=clang++-19), not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=all -gline-tables-only)
  add_link_options(-fsanitize=address,undefined)
  add_compile_definitions(AOT_SANITIZED=1 AOT_FUZZING=1)
  message(STATUS "Fuzzing build: libFuzzer + address,undefined")
endif()

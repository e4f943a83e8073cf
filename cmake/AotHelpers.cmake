# aot_cc_test(NAME name SRCS a.cc ... DEPS lib ... [LABELS l ...])
# One GoogleTest binary registered test-by-test with CTest.
function(aot_cc_test)
  cmake_parse_arguments(T "" "NAME" "SRCS;DEPS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SRCS})
  target_link_libraries(${T_NAME} PRIVATE ${T_DEPS} GTest::gtest GTest::gmock GTest::gtest_main)
  gtest_discover_tests(${T_NAME}
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
    PROPERTIES LABELS "${T_LABELS}"
    DISCOVERY_TIMEOUT 60)
endfunction()

# aot_cc_benchmark(NAME name SRCS ... DEPS ...): Google Benchmark binary,
# built with AOT_BUILD_BENCHMARKS; not a test.
function(aot_cc_benchmark)
  cmake_parse_arguments(B "" "NAME" "SRCS;DEPS" ${ARGN})
  if(NOT AOT_BUILD_BENCHMARKS)
    return()
  endif()
  add_executable(${B_NAME} EXCLUDE_FROM_ALL ${B_SRCS})
  target_link_libraries(${B_NAME} PRIVATE ${B_DEPS} benchmark::benchmark benchmark::benchmark_main)
endfunction()

# aot_cc_fuzzer(NAME name SRCS ... DEPS ...): a libFuzzer target (its source
# defines LLVMFuzzerTestOneInput), built only with -DAOT_FUZZ=ON; run by
# scripts/fuzz.sh, not by CTest.
function(aot_cc_fuzzer)
  cmake_parse_arguments(F "" "NAME" "SRCS;DEPS" ${ARGN})
  if(NOT AOT_FUZZ)
    return()
  endif()
  add_executable(${F_NAME} EXCLUDE_FROM_ALL ${F_SRCS})
  target_link_libraries(${F_NAME} PRIVATE ${F_DEPS})
  target_link_options(${F_NAME} PRIVATE -fsanitize=fuzzer)
endfunction()

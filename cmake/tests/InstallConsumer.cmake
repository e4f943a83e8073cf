# The out-of-tree consumer test (ctest: install.out_of_tree_consumer):
#   1. cmake --install the runtime component into a fresh prefix;
#   2. configure and build cmake/tests/consumer against it (find_package
#      for C++, pkg-config for C);
#   3. run both on a golden host artifact;
#   4. check that nothing of LLVM, the compiler or the harness reached the
#      consumer's compile commands or the installed headers.
# Inputs: BUILD_DIR, SOURCE_DIR, WORK_DIR, GENERATOR.
cmake_minimum_required(VERSION 3.25)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${command}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}" --component runtime)

file(GLOB_RECURSE installed_headers RELATIVE "${prefix}/include" "${prefix}/include/*")
foreach(h IN LISTS installed_headers)
  if(h MATCHES "^xla_aot/(compiler|harness)/" OR h MATCHES "(^|/)llvm/")
    message(FATAL_ERROR "the runtime component installed ${h}")
  endif()
endforeach()
if(NOT EXISTS "${prefix}/include/xla_aot/runtime/capi/xla_aot_c_api.h")
  message(FATAL_ERROR "the C API header was not installed")
endif()

file(GLOB pcdirs "${prefix}/lib*/pkgconfig" "${prefix}/lib/*/pkgconfig")
run(${CMAKE_COMMAND} -E env "PKG_CONFIG_PATH=${pcdirs}"
    ${CMAKE_COMMAND} -S "${SOURCE_DIR}/cmake/tests/consumer" -B "${WORK_DIR}/build"
    -G "${GENERATOR}" "-DCMAKE_PREFIX_PATH=${prefix}"
    "-DC_API_TEST_SOURCE=${SOURCE_DIR}/runtime/capi/c_api_test.c")
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")

# Every include directory the consumer got is the installed prefix's (or
# the system's): none of the build tree, the sources or LLVM.
file(READ "${WORK_DIR}/build/compile_commands.json" commands)
string(REGEX MATCHALL "-(I|isystem) ?[^ \"]+" includes "${commands}")
foreach(flag IN LISTS includes)
  string(REGEX REPLACE "^-(I|isystem) ?" "" dir "${flag}")
  file(REAL_PATH "${dir}" dir)
  file(REAL_PATH "${prefix}" real_prefix)
  string(FIND "${dir}" "${real_prefix}/" in_prefix)
  if(NOT in_prefix EQUAL 0 AND NOT dir MATCHES "^/usr/include")
    message(FATAL_ERROR "the consumer was given include directory ${dir}")
  endif()
  if(dir MATCHES "llvm")
    message(FATAL_ERROR "the consumer was given LLVM's headers: ${dir}")
  endif()
endforeach()

include("${SOURCE_DIR}/cmake/GoldenBlobs.cmake")
aot_golden_files("${SOURCE_DIR}/golden/executables/host-x86-64-v2/v1" add_mul artifact io)
run("${WORK_DIR}/build/consumer" "${artifact}" "${io}")
run("${WORK_DIR}/build/consumer_c" "${artifact}")

# The Python package, when the build has it: installed beside the
# libraries and importable from there.
file(GLOB built_python "${BUILD_DIR}/python/xla_aot/_xla_aot*.so")
if(built_python AND EXISTS /usr/bin/python3)
  run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}" --component python)
  file(GLOB python_dirs "${prefix}/lib*/python")
  run(${CMAKE_COMMAND} -E env "PYTHONPATH=${python_dirs}" /usr/bin/python3 -B -c
      "import xla_aot, sys; exe = xla_aot.load(sys.argv[1]); print('python:', exe.name, exe.parameter_shapes)"
      "${artifact}")
endif()
message(STATUS "out-of-tree consumer: C++ (find_package), C (pkg-config) and Python pass")

# Third-party dependencies, all from Debian 12 packages (scripts/setup.sh).
# Nothing is vendored.

# LLVM 19, linked as the shared libLLVM-19.so.
# (LLVM's version file accepts only an exact major.minor, so check by hand.)
find_package(LLVM REQUIRED CONFIG HINTS /usr/lib/llvm-19/lib/cmake/llvm NO_DEFAULT_PATH)
if(NOT LLVM_VERSION_MAJOR EQUAL 19)
  message(FATAL_ERROR "LLVM 19 is required, found ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR}")
endif()
if(NOT LLVM_LINK_LLVM_DYLIB AND NOT EXISTS "${LLVM_LIBRARY_DIR}/libLLVM-19.so")
  message(FATAL_ERROR "LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR} has no shared libLLVM-19.so")
endif()
add_library(aot_llvm INTERFACE)
target_include_directories(aot_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(aot_llvm INTERFACE ${LLVM_DEFINITIONS_LIST})
target_link_libraries(aot_llvm INTERFACE "${LLVM_LIBRARY_DIR}/libLLVM-19.so")
message(STATUS "LLVM ${LLVM_PACKAGE_VERSION}: ${LLVM_LIBRARY_DIR}/libLLVM-19.so")

find_package(Protobuf 3.21 REQUIRED)
find_package(absl REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(GTest REQUIRED)
find_package(benchmark REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(OPENBLAS REQUIRED IMPORTED_TARGET openblas)
# LAPACK (the Fortran symbols; the runtime's LAPACK custom calls): Debian's
# liblapack.so alternative, OpenBLAS's LAPACK or the reference one.
pkg_check_modules(LAPACK REQUIRED IMPORTED_TARGET lapack)
find_package(Threads REQUIRED)

# CUDA toolkit: optional. AUTO uses /usr/local/cuda when it is there.
set(AOT_HAVE_CUDA OFF)
if(AOT_ENABLE_CUDA STREQUAL "ON" OR
   (AOT_ENABLE_CUDA STREQUAL "AUTO" AND EXISTS "/usr/local/cuda/include/cuda.h"))
  if(NOT CUDAToolkit_ROOT AND EXISTS /usr/local/cuda)
    set(CUDAToolkit_ROOT /usr/local/cuda)
  endif()
  if(AOT_ENABLE_CUDA STREQUAL "ON")
    find_package(CUDAToolkit REQUIRED)
  else()
    find_package(CUDAToolkit QUIET)
  endif()
  if(CUDAToolkit_FOUND)
    set(AOT_HAVE_CUDA ON)
    find_program(AOT_PTXAS ptxas HINTS "${CUDAToolkit_BIN_DIR}" NO_DEFAULT_PATH)
    message(STATUS "CUDA ${CUDAToolkit_VERSION}: ${CUDAToolkit_BIN_DIR} (ptxas: ${AOT_PTXAS})")
  endif()
elseif(NOT AOT_ENABLE_CUDA MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "AOT_ENABLE_CUDA must be AUTO, ON or OFF, not '${AOT_ENABLE_CUDA}'")
endif()
if(NOT AOT_HAVE_CUDA)
  message(STATUS "CUDA: not built (AOT_ENABLE_CUDA=${AOT_ENABLE_CUDA})")
endif()

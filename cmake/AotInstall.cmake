# cmake --install: three components.
#   runtime  libxla_aot_runtime.so, the headers its API needs (under
#            include/xla_aot/, spelled as in the tree: "runtime/...",
#            "proto/*.pb.h", "support/..."), the CMake package XlaAot
#            (find_package(XlaAot CONFIG COMPONENTS runtime)) and the
#            pkg-config file xla_aot_runtime.pc.
#   tools    aotc, aot-run, aot-compat.
#   python   the xla_aot Python package (lib/python/xla_aot), when built.
include(CMakePackageConfigHelpers)

install(TARGETS xla_aot_runtime EXPORT XlaAotRuntimeTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT runtime)

# The headers of the runtime's API: every header of the runtime libraries
# and what they include from support/ and proto/ (tests and test helpers
# excluded).
set(_hdr_dest "${CMAKE_INSTALL_INCLUDEDIR}/xla_aot")
foreach(dir runtime support)
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/${dir}/" DESTINATION "${_hdr_dest}/${dir}"
    COMPONENT runtime FILES_MATCHING PATTERN "*.h"
    PATTERN "testing" EXCLUDE PATTERN "testdata" EXCLUDE PATTERN "bench" EXCLUDE)
endforeach()
install(FILES "${PROJECT_SOURCE_DIR}/proto/schema.h" DESTINATION "${_hdr_dest}/proto"
  COMPONENT runtime)
install(DIRECTORY "${PROJECT_BINARY_DIR}/proto/" DESTINATION "${_hdr_dest}/proto"
  COMPONENT runtime FILES_MATCHING PATTERN "*.pb.h" PATTERN "CMakeFiles" EXCLUDE)

set(_cmake_dest "${CMAKE_INSTALL_LIBDIR}/cmake/XlaAot")
install(EXPORT XlaAotRuntimeTargets NAMESPACE XlaAot:: DESTINATION "${_cmake_dest}"
  COMPONENT runtime)
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/package/XlaAotConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/package/XlaAotConfig.cmake" INSTALL_DESTINATION "${_cmake_dest}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/package/XlaAotConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/package/XlaAotConfig.cmake"
  "${PROJECT_BINARY_DIR}/package/XlaAotConfigVersion.cmake"
  DESTINATION "${_cmake_dest}" COMPONENT runtime)

# pkg-config, relocatable: the prefix is found from the .pc file's place.
file(RELATIVE_PATH AOT_PC_PREFIX_FROM_PCDIR "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
configure_file("${PROJECT_SOURCE_DIR}/cmake/package/xla_aot_runtime.pc.in"
  "${PROJECT_BINARY_DIR}/package/xla_aot_runtime.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/package/xla_aot_runtime.pc"
  DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig" COMPONENT runtime)

install(TARGETS aotc aot-run aot-compat RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  COMPONENT tools)

# Out of tree: install the runtime component, then configure, build and run
# a consumer project (cmake/tests/consumer) against it with find_package and
# with pkg-config, on a golden artifact.
add_test(NAME install.out_of_tree_consumer
  COMMAND ${CMAKE_COMMAND}
    -DBUILD_DIR=${PROJECT_BINARY_DIR}
    -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
    -DWORK_DIR=${PROJECT_BINARY_DIR}/install_test
    -DGENERATOR=${CMAKE_GENERATOR}
    -P ${PROJECT_SOURCE_DIR}/cmake/tests/InstallConsumer.cmake)
set_tests_properties(install.out_of_tree_consumer PROPERTIES TIMEOUT 600)

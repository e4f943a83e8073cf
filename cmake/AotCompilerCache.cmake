# Compiles through ccache when it is installed (scripts/setup.sh installs it),
# so a rebuild after a small change, a second clone on the same machine and
# CI's reruns recompile only what changed. The cache lives outside the clone
# (ccache's default, ~/.cache/ccache, or $CCACHE_DIR); CCACHE_BASEDIR makes the
# paths it hashes relative to the source tree, so two clones share entries.
# AOT_CCACHE=OFF (or a launcher already set) leaves the compiler as it is.
option(AOT_CCACHE "Compile through ccache when it is installed" ON)
if(AOT_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(AOT_CCACHE_PROGRAM ccache)
  if(AOT_CCACHE_PROGRAM)
    set(_aot_launcher "${CMAKE_COMMAND}" -E env "CCACHE_BASEDIR=${CMAKE_SOURCE_DIR}"
        CCACHE_NOHASHDIR=1 "${AOT_CCACHE_PROGRAM}")
    set(CMAKE_C_COMPILER_LAUNCHER ${_aot_launcher})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${_aot_launcher})
    message(STATUS "Compiling through ccache (${AOT_CCACHE_PROGRAM})")
  endif()
endif()

# aot_golden_files(VERSION_DIR TEST ARTIFACT_VAR IO_VAR)
# The files of one golden test (golden/README.md) of VERSION_DIR
# (<golden>/executables/<target>/v<N>), as absolute paths:
#  - a version in the store (MANIFEST.json "format": 2): the blobs its
#    manifest names for TEST, <golden>/store/artifacts/<aa>/<sha256>.pb
#    (binary ExecutableProto, the build stamp cleared) and
#    <golden>/store/io/<aa>/<sha256>.pb (binary GoldenIoProto);
#  - a per-file version (format 1): <test>.pbtxt and <test>.io.pb.
# Fails naming the file when the manifest, the test or a file is missing.
# In a project the manifest becomes a configure dependency (a repacked
# version reconfigures); in a script (cmake -P) include() this file.
function(aot_golden_files version_dir test artifact_var io_var)
  set(manifest "${version_dir}/MANIFEST.json")
  if(NOT EXISTS "${manifest}")
    message(FATAL_ERROR "${manifest} does not exist (not a golden version directory)")
  endif()
  if(NOT CMAKE_SCRIPT_MODE_FILE)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${manifest}")
  endif()
  file(READ "${manifest}" json)
  string(JSON format ERROR_VARIABLE no_format GET "${json}" format)
  if(no_format)
    set(format 1)  # format 1 manifests predate the key
  endif()
  if(format EQUAL 2)
    cmake_path(SET store NORMALIZE "${version_dir}/../../../store")
    set(kind_artifact artifacts)
    set(kind_io io)
    foreach(part IN ITEMS artifact io)
      string(JSON digest ERROR_VARIABLE error GET "${json}" tests "${test}" "${part}")
      if(error)
        message(FATAL_ERROR "${manifest}: no ${part} blob for test '${test}': ${error}")
      endif()
      string(LENGTH "${digest}" length)
      if(NOT length EQUAL 64 OR NOT digest MATCHES "^[0-9a-f]+$")
        message(FATAL_ERROR "${manifest}: test '${test}': '${digest}' is not a sha256 digest")
      endif()
      string(SUBSTRING "${digest}" 0 2 shard)
      set(${part} "${store}/${kind_${part}}/${shard}/${digest}.pb")
    endforeach()
  elseif(format EQUAL 1)
    set(artifact "${version_dir}/${test}.pbtxt")
    set(io "${version_dir}/${test}.io.pb")
  else()
    message(FATAL_ERROR "${manifest}: unknown format '${format}' (1: per-file, 2: in the store)")
  endif()
  foreach(file IN ITEMS "${artifact}" "${io}")
    if(NOT EXISTS "${file}")
      message(FATAL_ERROR "golden test '${test}' of ${manifest}: ${file} does not exist")
    endif()
  endforeach()
  set(${artifact_var} "${artifact}" PARENT_SCOPE)
  set(${io_var} "${io}" PARENT_SCOPE)
endfunction()

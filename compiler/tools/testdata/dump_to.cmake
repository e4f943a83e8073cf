# aotc --xla_aot_dump_to=DIR: every stage of a partitioned compile written to
# DIR (made if missing), the partitioned module among them, and the
# executable the same bytes as without dumping.
#   cmake -DAOTC=... -DMODULE=... -DOUT=... -P dump_to.cmake
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(flags --num_partitions=8 --xla_aot_emit_collectives=true)
execute_process(COMMAND ${AOTC} ${MODULE} ${flags} -o ${OUT}/plain.pb RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "aotc without dumps exited ${rc}")
endif()
execute_process(COMMAND ${AOTC} ${MODULE} ${flags} --xla_aot_dump_to=${OUT}/dumps/nested
                        -o ${OUT}/dumped.pb RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "aotc --xla_aot_dump_to exited ${rc}")
endif()
foreach(suffix .hlo .hlo-partitioned.hlo .hlo-optimized.hlo .hlo-fused.hlo
               .buffer-assignment.txt .thunks.txt .ll)
  set(path ${OUT}/dumps/nested/mlp_sequence_parallel${suffix})
  if(NOT EXISTS ${path})
    message(FATAL_ERROR "missing dump ${path}")
  endif()
  file(SIZE ${path} size)
  if(size EQUAL 0)
    message(FATAL_ERROR "empty dump ${path}")
  endif()
endforeach()
file(READ ${OUT}/dumps/nested/mlp_sequence_parallel.hlo-partitioned.hlo partitioned)
if(NOT partitioned MATCHES "f32\\[4,64\\]{1,0} reduce-scatter\\(")
  message(FATAL_ERROR "the partitioned dump has no reduce-scatter to [4,64]:\n${partitioned}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/plain.pb ${OUT}/dumped.pb
                RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "the executable differs when the stages are dumped")
endif()
message(STATUS "dump_to: 7 stages written, executable unchanged")

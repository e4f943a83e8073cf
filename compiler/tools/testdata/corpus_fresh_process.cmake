# cmake -DAOTC=... -DAOT_RUN=... -DCORPUS=... -DOUT=... -P corpus_fresh_process.cmake
# Every corpus module: compiled by aotc (one process) to a serialized
# executable, then loaded, executed and compared with the reference
# interpreter by aot-run (another process). The suites that need an
# emission flag (collectives, complex_types, narrow_types, packed_types,
# aliasing, inverse_math, rng_state, lapack) compile with it on, as their golden
# targets do; the collectives run on their module's replica count.
file(GLOB_RECURSE modules "${CORPUS}/*.hlo")
list(SORT modules)
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
list(LENGTH modules count)
foreach(m IN LISTS modules)
  get_filename_component(name "${m}" NAME_WE)
  execute_process(COMMAND "${AOTC}" --xla_aot_emit_collectives=true
                          --xla_aot_emit_extended_element_types=true
                          --xla_aot_emit_packed_sub_byte_layouts=true
                          --xla_aot_emit_input_output_alias=true
                          --xla_aot_emit_inverse_and_hyperbolic_math=true
                          --xla_aot_emit_rng_state=true
                          --xla_aot_emit_lapack_custom_calls=true --module_file=${m}
                          --output_file=${OUT}/${name}.pb
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "aotc failed on ${m}: ${err}")
  endif()
endforeach()
execute_process(COMMAND "${AOT_RUN}" --platform=host --reference_platform=interpreter "${OUT}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "aot-run failed (${rc}): ${err}")
endif()
string(REGEX MATCHALL "reference: match" matches "${out}")
list(LENGTH matches matched)
if(NOT matched EQUAL count)
  message(FATAL_ERROR "${matched} of ${count} artifacts matched the interpreter")
endif()
message("corpus: ${count} of ${count} artifacts loaded in a fresh process and matched the interpreter")

# Structural dependency rules (ARCHITECTURE.md, "Dependency rules").
#
# Every project library declares its layer:
#   aot_declare_layer(<target> support|proto|runtime|compiler|harness|tool)
# and aot_check_dependency_rules() (called at the end of the top-level
# CMakeLists.txt) walks each target's transitive link closure and fails the
# configure step when a layer links one it must not:
#   support  -> never proto, runtime, compiler, harness
#   proto    -> never runtime, compiler, harness
#   runtime  -> never compiler, harness
#   compiler -> never harness
# The rule set is tested by cmake/tests (a fixture project with a forbidden
# link must fail to configure).

set_property(GLOBAL PROPERTY AOT_LAYERED_TARGETS "")

function(aot_declare_layer target layer)
  if(NOT layer MATCHES "^(support|proto|runtime|compiler|harness|tool)$")
    message(FATAL_ERROR "aot_declare_layer(${target}): unknown layer '${layer}'")
  endif()
  set_property(TARGET ${target} PROPERTY AOT_LAYER ${layer})
  set_property(GLOBAL APPEND PROPERTY AOT_LAYERED_TARGETS ${target})
endfunction()

# Direct link dependencies of a target that are themselves targets.
function(_aot_direct_deps target out)
  set(deps "")
  get_target_property(type ${target} TYPE)
  set(props INTERFACE_LINK_LIBRARIES)
  if(NOT type STREQUAL "INTERFACE_LIBRARY")
    list(APPEND props LINK_LIBRARIES)
  endif()
  foreach(p IN LISTS props)
    get_target_property(libs ${target} ${p})
    if(NOT libs)
      continue()
    endif()
    foreach(lib IN LISTS libs)
      # $<LINK_ONLY:x> and similar wrappers; directory-scope markers "::@(...)".
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" lib "${lib}")
      if(lib MATCHES "^::@" OR lib MATCHES "^\\$<")
        continue()
      endif()
      if(TARGET ${lib})
        list(APPEND deps ${lib})
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES deps)
  set(${out} "${deps}" PARENT_SCOPE)
endfunction()

# Transitive link closure (targets only), breadth first.
function(aot_link_closure target out)
  set(seen "")
  set(queue ${target})
  while(queue)
    list(POP_FRONT queue t)
    _aot_direct_deps(${t} deps)
    foreach(d IN LISTS deps)
      if(NOT d IN_LIST seen)
        list(APPEND seen ${d})
        list(APPEND queue ${d})
      endif()
    endforeach()
  endwhile()
  set(${out} "${seen}" PARENT_SCOPE)
endfunction()

function(aot_check_dependency_rules)
  set(forbidden_support proto runtime compiler harness)
  set(forbidden_runtime compiler harness)
  set(forbidden_proto runtime compiler harness)
  set(forbidden_compiler harness)
  get_property(targets GLOBAL PROPERTY AOT_LAYERED_TARGETS)
  set(errors "")
  foreach(t IN LISTS targets)
    get_target_property(layer ${t} AOT_LAYER)
    if(NOT DEFINED forbidden_${layer})
      continue()
    endif()
    aot_link_closure(${t} closure)
    foreach(d IN LISTS closure)
      get_target_property(dlayer ${d} AOT_LAYER)
      if(dlayer AND dlayer IN_LIST forbidden_${layer})
        list(APPEND errors "${layer} target '${t}' links ${dlayer} target '${d}'")
      endif()
    endforeach()
  endforeach()
  if(errors)
    list(JOIN errors "\n  " msg)
    message(FATAL_ERROR "Dependency rule violated (the runtime must not depend on the compiler; ARCHITECTURE.md):\n  ${msg}")
  endif()
  list(LENGTH targets n)
  message(STATUS "Dependency rules: ${n} layered targets checked")
endfunction()

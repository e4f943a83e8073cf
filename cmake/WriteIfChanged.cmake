# aot_write_if_changed(PATH TEXT): writes TEXT to PATH unless PATH already
# holds exactly TEXT, so a generated source that did not change keeps its
# timestamp and triggers no rebuild. Included by the -P generator scripts.
function(aot_write_if_changed path text)
  if(EXISTS "${path}")
    file(READ "${path}" old)
    if(old STREQUAL text)
      return()
    endif()
  endif()
  file(WRITE "${path}" "${text}")
endfunction()

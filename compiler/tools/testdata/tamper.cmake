# Rewrites a text-format artifact: cmake -DIN=a -DOUT=b -DFROM=x -DTO=y -P tamper.cmake
# (used to build an executable whose embedded HLO disagrees with its code,
# so that aot-run's reference comparison has a real mismatch to find).
file(READ "${IN}" _text)
string(FIND "${_text}" "${FROM}" _at)
if(_at EQUAL -1)
  message(FATAL_ERROR "'${FROM}' not found in ${IN}")
endif()
string(REPLACE "${FROM}" "${TO}" _text "${_text}")
file(WRITE "${OUT}" "${_text}")

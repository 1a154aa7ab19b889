# The dynamic symbols libcoheriq_blas.so defines are exactly those of its version script (made
# from the table of routines by src/blas/exports.cpp): no symbol of the kernels linked inside or
# of the C++ runtime.
#   cmake -DNM=<nm> -DLIBRARY=<libcoheriq_blas.so> -DMAP=<exports.map> -P check_exports.cmake
execute_process(COMMAND ${NM} -D --defined-only ${LIBRARY} RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "coheriq: ${NM} failed on ${LIBRARY}; install binutils (scripts/deps.sh)")
endif()
string(REGEX MATCHALL "[^\n]+" lines "${out}")
set(defined)
foreach(line IN LISTS lines)
  string(REGEX REPLACE "^[0-9a-fA-F]* *[A-Za-z] +" "" name "${line}")
  string(REGEX REPLACE "@.*" "" name "${name}")
  list(APPEND defined ${name})
endforeach()
file(READ ${MAP} map)
string(REGEX REPLACE "/\\*.*\\*/" "" map "${map}")
string(REGEX MATCH "global:([^}]*)local:" global "${map}")
string(REGEX MATCHALL "[A-Za-z_][A-Za-z0-9_]*" expected "${CMAKE_MATCH_1}")
list(SORT defined)
list(SORT expected)
if(NOT defined STREQUAL expected)
  message(FATAL_ERROR "coheriq: ${LIBRARY} defines [${defined}], expected exactly the routines of "
                      "${MAP}: [${expected}]; keep the version script and the library in step")
endif()
list(LENGTH defined count)
message(STATUS "${count} symbols, exactly those of the version script")

# libcoheriq_blas.so is a complete BLAS and only a BLAS: its dynamic symbols are exactly the
# reference BLAS's (Debian's libblas.so.3: every Fortran routine, every CBLAS function,
# xerbla_, xerbla_array_, lsame_, cblas_xerbla and CBLAS's two globals) less netlib CBLAS's
# internal *sub_ helpers, plus the CBLAS extensions docs/blas.md documents (the strided batches
# of MKL and OpenBLAS), and it needs no other BLAS (nor LAPACK, nor the Fortran runtime).
#   cmake -DNM=<nm> -DOBJDUMP=<objdump> -DLIBRARY=<libcoheriq_blas.so> -DREFERENCE=<libblas.so.3>
#         -P check_reference_symbols.cmake
function(defined_symbols library out)
  execute_process(COMMAND ${NM} -D --defined-only ${library} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE text)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "coheriq: ${NM} failed on ${library}; install binutils (scripts/deps.sh)")
  endif()
  string(REGEX MATCHALL "[^\n]+" lines "${text}")
  set(names)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[0-9a-fA-F]* *[A-Za-z] +" "" name "${line}")
    string(REGEX REPLACE "@.*" "" name "${name}")
    list(APPEND names ${name})
  endforeach()
  list(SORT names)
  set(${out} ${names} PARENT_SCOPE)
endfunction()

defined_symbols(${REFERENCE} reference)
defined_symbols(${LIBRARY} ours)
list(FILTER reference EXCLUDE REGEX "sub_$")  # cdotcsub_, sasumsub_, ...: CBLAS's own helpers
list(APPEND reference cblas_sgemm_batch_strided cblas_dgemm_batch_strided)  # the extensions
set(missing ${reference})
list(REMOVE_ITEM missing ${ours})
set(extra ${ours})
list(REMOVE_ITEM extra ${reference})
if(missing OR extra)
  message(FATAL_ERROR "coheriq: ${LIBRARY} lacks [${missing}] and has beyond the reference BLAS "
                      "[${extra}]; every routine of the reference (src/blas/routines.hpp), "
                      "the documented extensions and nothing else")
endif()
set(cblas ${ours})
list(FILTER cblas INCLUDE REGEX "^cblas_")
list(FILTER cblas EXCLUDE REGEX "_batch_strided$")  # the extensions, beyond the reference's
set(fortran ${ours})
list(FILTER fortran INCLUDE REGEX "_$")
list(FILTER fortran EXCLUDE REGEX "^cblas_")
list(LENGTH cblas cblas_count)
list(LENGTH fortran fortran_count)
if(NOT fortran_count EQUAL 151 OR NOT cblas_count EQUAL 149)
  message(FATAL_ERROR "coheriq: ${fortran_count} Fortran and ${cblas_count} CBLAS names; the "
                      "reference BLAS 3.11 has 151 and 149")
endif()

execute_process(COMMAND ${OBJDUMP} -p ${LIBRARY} RESULT_VARIABLE rc OUTPUT_VARIABLE headers)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "coheriq: ${OBJDUMP} -p failed on ${LIBRARY}")
endif()
string(REGEX MATCHALL "NEEDED +[^\n]+" needed "${headers}")
foreach(entry IN LISTS needed)
  if(entry MATCHES "blas|lapack|blis|mkl|atlas|gfortran")
    message(FATAL_ERROR "coheriq: ${LIBRARY} depends on another BLAS or Fortran library: ${entry}")
  endif()
endforeach()
message(STATUS "${fortran_count} Fortran and ${cblas_count} CBLAS names, the reference's; "
               "needs: ${needed}")

# Every function <coheriq/coheriq.h> declares is called by the test that compares the C API with
# the C++ API, so a new C function cannot go untested.
#   cmake -DHEADER=include/coheriq/coheriq.h -DTEST=tests/kernels/capi_test.cpp
#         -P check_capi_covered.cmake
foreach(required HEADER TEST)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "coheriq: check_capi_covered.cmake needs -D${required}=...; see the top "
                        "of tests/kernels/check_capi_covered.cmake")
  endif()
endforeach()
file(READ "${HEADER}" header)
file(READ "${TEST}" test)
# A declaration: a return type, then the name and its parameter list, at the start of a line.
string(REGEX MATCHALL "\n[a-z][a-z *]*[ *](coheriq_[a-z0-9_]+)\\(" declarations "${header}")
set(functions)
foreach(declaration IN LISTS declarations)
  string(REGEX MATCH "coheriq_[a-z0-9_]+" name "${declaration}")
  list(APPEND functions ${name})
endforeach()
list(REMOVE_DUPLICATES functions)
list(LENGTH functions count)
if(count LESS 40)
  message(FATAL_ERROR "coheriq: found only ${count} functions in ${HEADER} (${functions}); the "
                      "declaration pattern of check_capi_covered.cmake no longer matches it")
endif()
set(missing)
foreach(name IN LISTS functions)
  if(NOT test MATCHES "[^a-z0-9_]${name}[^a-z0-9_]")
    list(APPEND missing ${name})
  endif()
endforeach()
if(missing)
  string(REPLACE ";" ", " missing "${missing}")
  message(FATAL_ERROR "coheriq: ${TEST} does not call ${missing}, declared in ${HEADER}; compare "
                      "each with its C++ counterpart there")
endif()
message(STATUS "coheriq: all ${count} functions of ${HEADER} are called by ${TEST}")

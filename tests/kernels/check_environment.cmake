# Audits the ctest entries of a build: every entry whose labels match LABELS must set or unset
# each variable of VARIABLES (through ENVIRONMENT or ENVIRONMENT_MODIFICATION), so that nothing
# the caller exported reaches it.
#   cmake -DCTEST=<ctest> -DBUILD_DIR=<dir> -DLABELS=<regex> -DVARIABLES=<a;b;...>
#         -P check_environment.cmake
foreach(required CTEST BUILD_DIR LABELS VARIABLES)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "coheriq: check_environment.cmake needs -D${required}=...; see the top "
                        "of tests/kernels/check_environment.cmake")
  endif()
endforeach()

execute_process(COMMAND ${CTEST} --test-dir ${BUILD_DIR} --show-only=json-v1 -L "${LABELS}"
                RESULT_VARIABLE code OUTPUT_VARIABLE json ERROR_VARIABLE error)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "coheriq: ctest --show-only failed (${code}): ${error}")
endif()

string(JSON count LENGTH "${json}" tests)
if(count EQUAL 0)
  message(FATAL_ERROR "coheriq: no ctest entry has a label matching '${LABELS}'; the audit "
                      "would check nothing")
endif()
set(problems)
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${json}" tests ${i} name)
  set(given)
  string(JSON properties ERROR_VARIABLE no_properties GET "${json}" tests ${i} properties)
  if(NOT no_properties)
    string(JSON property_count LENGTH "${properties}")
    if(property_count GREATER 0)
      math(EXPR last_property "${property_count} - 1")
      foreach(p RANGE ${last_property})
        string(JSON property_name GET "${properties}" ${p} name)
        if(property_name MATCHES "^ENVIRONMENT(_MODIFICATION)?$")
          string(JSON values GET "${properties}" ${p} value)
          string(APPEND given ";${values}")
        endif()
      endforeach()
    endif()
  endif()
  foreach(var IN LISTS VARIABLES)
    if(NOT given MATCHES "\"${var}=")
      list(APPEND problems "${name} inherits ${var}")
    endif()
  endforeach()
endforeach()

if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "coheriq: these ctest entries would see the caller's environment:\n  "
                      "${text}\nSet or unset the variable in the entry (coheriq_isolate_tests() "
                      "in tests/CMakeLists.txt does it for a directory)")
endif()
message(STATUS "coheriq: ${count} entries labelled '${LABELS}' set or unset each of: ${VARIABLES}")

# Runs COMMAND (its arguments separated by '|') and passes only if it exits with ctest's skip code
# (77) and says why it skipped: a skipped case must be counted as skipped, never as passed.
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 77)
  message(FATAL_ERROR "expected the skip exit code 77, got '${rc}':\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "skipped: [^\n]+")
  message(FATAL_ERROR "the case skipped without saying why:\n${out}${err}")
endif()
message(STATUS "skipped as expected: ${CMAKE_MATCH_0}")

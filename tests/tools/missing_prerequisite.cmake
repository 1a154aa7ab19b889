# Run by a ctest entry standing for tests that cannot run here (tests/tools/CMakeLists.txt):
# prints why and is skipped (SKIP_REGULAR_EXPRESSION), or fails when CI is "true" and the
# prerequisite was not left out by choice (CHOSEN).
if("$ENV{CI}" STREQUAL "true" AND NOT CHOSEN)
  message(FATAL_ERROR "coheriq: ${REASON}; CI=true, where a missing prerequisite is an error")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E echo "SKIP: ${REASON}")

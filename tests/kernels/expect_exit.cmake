# Runs a command and checks its exit code and output, for ctest entries whose point is how a
# program fails (ctest alone can check an exit code or a pattern, not both):
#   cmake -DEXPECT_EXIT=<code> [-DEXPECT_OUTPUT=<regex>] [-DREJECT_OUTPUT=<regex>]
#         -P expect_exit.cmake -- <command> [args...]
# EXPECT_OUTPUT must match stdout+stderr, REJECT_OUTPUT must not. -DEMULATOR=<words separated by
# '|'> runs the command through it (a cross build; cmake -P would take an emulator option such as
# -L after '--' as its own).
set(command)
set(seen_separator FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(seen_separator)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(seen_separator TRUE)
  endif()
endforeach()
if(NOT command OR NOT DEFINED EXPECT_EXIT)
  message(FATAL_ERROR "coheriq: expect_exit.cmake needs -DEXPECT_EXIT=<code> and a command after "
                      "'--'; see the top of tests/kernels/expect_exit.cmake")
endif()

if(DEFINED EMULATOR AND NOT EMULATOR STREQUAL "")
  string(REPLACE "|" ";" emulator "${EMULATOR}")
  list(PREPEND command ${emulator})
endif()
execute_process(COMMAND ${command} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT code STREQUAL EXPECT_EXIT)
  message(FATAL_ERROR "coheriq: expected exit code ${EXPECT_EXIT}, got '${code}' from: ${command}")
endif()
if(DEFINED EXPECT_OUTPUT AND NOT out MATCHES "${EXPECT_OUTPUT}")
  message(FATAL_ERROR "coheriq: the output of ${command} does not match '${EXPECT_OUTPUT}'")
endif()
if(DEFINED REJECT_OUTPUT AND NOT REJECT_OUTPUT STREQUAL "" AND out MATCHES "${REJECT_OUTPUT}")
  message(FATAL_ERROR "coheriq: the output of ${command} matches '${REJECT_OUTPUT}', which it "
                      "must not")
endif()

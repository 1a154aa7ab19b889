# The plugin directory follows the install prefix: installs this build to a fresh prefix, puts the
# test plugin into <prefix>/share/coheriq/engines, and checks that the installed programs find it
# without COHERIQ_ENGINE_PATH (and see it once when the directory is also named on the path).
#   cmake -DBUILD=<build dir> -DPREFIX=<scratch prefix> -DPLUGIN_DIR=<dir of the test plugin>
#         -DDATADIR=<CMAKE_INSTALL_DATADIR> -DBINDIR=<CMAKE_INSTALL_BINDIR> -DFULL=ON|OFF
#         [-DEMULATOR=<what runs the installed programs, words separated by '|'>] -P this
string(REPLACE "|" ";" emulator "${EMULATOR}")
file(REMOVE_RECURSE ${PREFIX})
if(FULL)  # the library and the coheriq command
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX}
                  RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install ${BUILD} --prefix ${PREFIX} failed (${rc})")
  endif()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX}
                        --component coheriq_plugin_test
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "installing the test program to ${PREFIX} failed (${rc})")
endif()

set(engines ${PREFIX}/${DATADIR}/coheriq/engines)
file(MAKE_DIRECTORY ${engines})
file(COPY ${PLUGIN_DIR}/test_plugin.coheriq-engine ${PLUGIN_DIR}/libtest_plugin.so
     DESTINATION ${engines})

function(run expect_ok out_var)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=COHERIQ_ENGINE_PATH
                          --unset=COHERIQ_ENGINE --unset=COHERIQ_DISABLE_CPU_FEATURES ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN} failed (${rc}):\n${out}\n${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

set(listed "engine test_plugin plugin:${engines}/test_plugin.coheriq-engine supported")
run(ON out ${emulator} ${PREFIX}/${BINDIR}/coheriq_plugin_list test_plugin)
string(FIND "${out}" "${listed}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the installed program does not list the plugin of ${engines}:\n${out}")
endif()
string(FIND "${out}" "sum 1006" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the installed plugin did not run:\n${out}")
endif()

# The installed directory named again on the path is the same directory: one engine.
run(ON out ${CMAKE_COMMAND} -E env COHERIQ_ENGINE_PATH=${engines}:${engines}/
    ${emulator} ${PREFIX}/${BINDIR}/coheriq_plugin_list test_plugin)
string(REGEX MATCHALL "engine test_plugin " all "${out}")
list(LENGTH all count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "test_plugin listed ${count} times with its directory on the path:\n${out}")
endif()

if(EXISTS ${PREFIX}/${BINDIR}/coheriq)
  run(ON out ${emulator} ${PREFIX}/${BINDIR}/coheriq info)
  string(FIND "${out}" "test_plugin" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${PREFIX}/${BINDIR}/coheriq info does not list the plugin:\n${out}")
  endif()
else()
  message(STATUS "no installed coheriq command (COHERIQ_BUILD_TOOLS=OFF): checked the test program only")
endif()
file(REMOVE_RECURSE ${PREFIX})

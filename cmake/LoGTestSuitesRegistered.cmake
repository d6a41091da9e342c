# cmake -DBIN=<gtest binary> -DSUITES=<a,b,c> -P LoGTestSuitesRegistered.cmake
# Fails unless the suites the binary lists (--gtest_list_tests) are exactly the suites that
# lo_gtest_suites registered as CTest tests (cmake/LoGTestSuites.cmake).
execute_process(COMMAND ${BIN} --gtest_list_tests RESULT_VARIABLE rc OUTPUT_VARIABLE listing
                ERROR_VARIABLE errors)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${BIN} --gtest_list_tests failed (${rc}): ${errors}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(listed "")
foreach(line ${lines})
  # A suite's line has no leading space and ends with a dot; a parameterized suite is
  # `Instance/Suite.` and is registered under `Suite`.
  if(line MATCHES "^([A-Za-z0-9_]+/)?([A-Za-z0-9_]+)\\.")
    list(APPEND listed ${CMAKE_MATCH_2})
  endif()
endforeach()
list(REMOVE_DUPLICATES listed)
list(SORT listed)
string(REPLACE "," ";" registered "${SUITES}")
list(SORT registered)
if(NOT listed STREQUAL registered)
  set(unregistered ${listed})
  list(REMOVE_ITEM unregistered ${registered})
  set(absent ${registered})
  list(REMOVE_ITEM absent ${listed})
  message(FATAL_ERROR "${BIN}: suites that no CTest test runs: [${unregistered}]; registered "
                      "suites the binary does not have: [${absent}] (cmake/LoGTestSuites.cmake)")
endif()
list(LENGTH listed count)
message(STATUS "${count} suites, each run by its own CTest test")

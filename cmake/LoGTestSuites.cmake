# lo_gtest_suites(TARGET <target> PREFIX <prefix> [LABELS <label>...] [TIMEOUT <seconds>]
#                 [SLOW <suite> <cost> ...] [CAMPAIGN <suite>... | CAMPAIGN ALL])
#
# One CTest test per GoogleTest suite of <target>: `<prefix>.<Suite>` runs
# `<target> --gtest_filter=<Suite>.*:*/<Suite>.*`. One sanitized process per suite instead of one
# per test case (gtest_discover_tests) is what keeps the suite's start-up cost small, and a suite
# is still a unit that `ctest -j2` can schedule beside another (docs/testing.md, "The test loop").
#
# The suites are read from the target's sources at configure time (TEST, TEST_F, TEST_P,
# RC_GTEST_PROP, RC_GTEST_FIXTURE_PROP). So that a suite spelled some other way cannot silently
# not run, `<prefix>.suites-registered` compares the target's own `--gtest_list_tests` with the
# suites registered here and fails on any difference.
#
# Every test gets the labels given (and `fast` from lo_fast_tier, tests/CMakeLists.txt). SLOW
# names the suites of the slow tier instead, each with its COST (lo_slow, tests/CMakeLists.txt).
# CAMPAIGN names the suites (ALL: every suite) whose instance size reads LO_CAMPAIGN
# (tests/campaign.hpp; lo_campaign, tests/CMakeLists.txt).
function(lo_gtest_suites)
  cmake_parse_arguments(ARG "" "TARGET;PREFIX;TIMEOUT" "LABELS;SLOW;CAMPAIGN" ${ARGN})
  get_target_property(sources ${ARG_TARGET} SOURCES)
  get_target_property(source_dir ${ARG_TARGET} SOURCE_DIR)
  set(suites "")
  foreach(source ${sources})
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY ${source_dir})
    if(NOT source MATCHES "\\.cpp$")
      continue()
    endif()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${source})
    file(STRINGS ${source} lines
         REGEX "^[ \t]*(TEST|TEST_F|TEST_P|RC_GTEST_PROP|RC_GTEST_FIXTURE_PROP)[ \t]*\\(")
    foreach(line ${lines})
      string(REGEX REPLACE "^[ \t]*[A-Z_]+[ \t]*\\([ \t]*([A-Za-z0-9_]+).*" "\\1" suite "${line}")
      list(APPEND suites ${suite})
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES suites)
  list(SORT suites)
  if(NOT suites)
    message(FATAL_ERROR "lo_gtest_suites: no test suite found in the sources of ${ARG_TARGET}")
  endif()
  foreach(suite ${suites})
    set(name ${ARG_PREFIX}.${suite})
    add_test(NAME ${name}
             COMMAND ${ARG_TARGET} --gtest_filter=${suite}.*:*/${suite}.* --gtest_brief=1)
    set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}")
    if(ARG_TIMEOUT)
      set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT})
    endif()
  endforeach()
  while(ARG_SLOW)
    list(POP_FRONT ARG_SLOW suite cost)
    if(NOT suite IN_LIST suites)
      message(FATAL_ERROR "lo_gtest_suites: SLOW ${suite}: no such suite in ${ARG_TARGET}")
    endif()
    lo_slow(${ARG_PREFIX}.${suite} ${cost})
  endwhile()
  if(ARG_CAMPAIGN STREQUAL "ALL")
    set(ARG_CAMPAIGN ${suites})
  endif()
  foreach(suite ${ARG_CAMPAIGN})
    if(NOT suite IN_LIST suites)
      message(FATAL_ERROR "lo_gtest_suites: CAMPAIGN ${suite}: no such suite in ${ARG_TARGET}")
    endif()
    lo_campaign(${ARG_PREFIX}.${suite})
  endforeach()
  string(REPLACE ";" "," suite_list "${suites}")
  add_test(NAME ${ARG_PREFIX}.suites-registered
           COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:${ARG_TARGET}> -DSUITES=${suite_list}
                   -P ${PROJECT_SOURCE_DIR}/cmake/LoGTestSuitesRegistered.cmake)
  set_tests_properties(${ARG_PREFIX}.suites-registered PROPERTIES LABELS "${ARG_LABELS}")
endfunction()

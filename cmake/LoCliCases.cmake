# lo_cli_cases(PREFIX <prefix> DIR <folder> [LABELS <label>...] [TIMEOUT <seconds>])
#
# One CTest test per case file <folder>/NAME.case: `<prefix>.NAME` runs tests/cli/run_case.py on
# it against the `lowering-oracle` binary, with %EX% standing for examples/. The format of a case
# (arguments, files, standard input, the expected exit status, standard output and error, exactly
# or as a pattern) and how to add one: docs/testing.md, "CLI tests". A case file added to the
# folder is picked up when CMake next configures (the folder is globbed with CONFIGURE_DEPENDS).
#
# Every test gets the labels given (and its folder's label and `fast` from lo_fast_tier,
# tests/CMakeLists.txt).
function(lo_cli_cases)
  cmake_parse_arguments(ARG "" "PREFIX;DIR;TIMEOUT" "LABELS" ${ARGN})
  file(GLOB cases CONFIGURE_DEPENDS ${ARG_DIR}/*.case)
  list(SORT cases)
  if(NOT cases)
    message(FATAL_ERROR "lo_cli_cases: no *.case file in ${ARG_DIR}")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  foreach(case ${cases})
    get_filename_component(stem ${case} NAME_WE)
    set(name ${ARG_PREFIX}.${stem})
    add_test(NAME ${name}
             COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/cli/run_case.py
                     --bin $<TARGET_FILE:lowering-oracle> --examples ${PROJECT_SOURCE_DIR}/examples
                     ${case})
    set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT})
    if(ARG_LABELS)
      set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}")
    endif()
  endforeach()
endfunction()

# Shared by the CTest scripts run with `cmake -DORACLE=<lowering-oracle> ... -P script.cmake`:
# include(${CMAKE_CURRENT_LIST_DIR}/../oracle.cmake).

# lo_oracle(EXPECTED WHAT ARGS...): runs the oracle with ARGS and fails (naming WHAT) unless it
# exits with EXPECTED; its standard output is left in `out`, its standard error in `err`.
function(lo_oracle expected what)
  execute_process(COMMAND ${ORACLE} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL expected)
    message(FATAL_ERROR "${what}: exit ${rc}, expected ${expected}\n${o}${e}")
  endif()
  set(out "${o}" PARENT_SCOPE)
  set(err "${e}" PARENT_SCOPE)
endfunction()

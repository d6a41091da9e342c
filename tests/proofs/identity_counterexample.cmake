# End to end: `prove --equality identity` refutes coalesced.audit and writes its counterexample;
# `lower --equality identity` accepts that plan; `check --equality contract` of that lowering
# reports the merged group's capsule finding and the trust-boundary finding for what it hides.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(CEX ${WORK}/counterexample.json)
set(LOWERED ${WORK}/lowered.json)

execute_process(COMMAND ${ORACLE} prove --equality identity --bound 3 --only coalesced.audit
                        --counterexample-out ${CEX}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "prove --equality identity: exit ${rc}, expected 1\n${out}${err}")
endif()
if(NOT out MATCHES "coalesced.audit +refuted +2")
  message(FATAL_ERROR "coalesced.audit not refuted with 2 nodes:\n${out}")
endif()
if(NOT EXISTS ${CEX})
  message(FATAL_ERROR "no counterexample written")
endif()

execute_process(COMMAND ${ORACLE} lower --equality identity ${CEX} -o ${LOWERED}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lower --equality identity rejected the counterexample: exit ${rc}\n${err}")
endif()
file(READ ${LOWERED} lowered)
if(NOT lowered MATCHES "sameCapsuleRun")
  message(FATAL_ERROR "the identity lowering of the counterexample merges nothing:\n${lowered}")
endif()

# `check --equality contract` on that lowering, when the binary has `check`.
execute_process(COMMAND ${ORACLE} check --help RESULT_VARIABLE has_check OUTPUT_QUIET ERROR_QUIET)
if(has_check EQUAL 0)
  execute_process(COMMAND ${ORACLE} check --equality contract ${CEX} ${LOWERED}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "check --equality contract: exit ${rc}, expected 1\n${out}${err}")
  endif()
  # The merged group is a capsule finding, and the trusted-external boundary it hides from the
  # audit is a trust-boundary finding.
  if(NOT out MATCHES "capsule: group 0")
    message(FATAL_ERROR "check does not report the capsule finding of group 0:\n${out}")
  endif()
  if(NOT out MATCHES "trust-boundary: [^\n]*hides a trusted-external boundary")
    message(FATAL_ERROR "check does not report the trust-boundary finding:\n${out}")
  endif()
else()
  message(STATUS "lowering-oracle has no check command yet: that part is skipped")
endif()

# End to end: `prove --equality identity` refutes coalesced.audit and writes its counterexample;
# `lower --equality identity` accepts that plan; `check --equality contract` of that lowering
# reports the merged group's capsule finding and the trust-boundary finding for what it hides.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(CEX ${WORK}/counterexample.json)
set(LOWERED ${WORK}/lowered.json)

include(${CMAKE_CURRENT_LIST_DIR}/../oracle.cmake)

lo_oracle(1 "prove --equality identity" prove --equality identity --bound 3 --only coalesced.audit
       --counterexample-out ${CEX})
if(NOT out MATCHES "coalesced.audit +refuted +2")
  message(FATAL_ERROR "coalesced.audit not refuted with 2 nodes:\n${out}")
endif()
if(NOT EXISTS ${CEX})
  message(FATAL_ERROR "no counterexample written")
endif()

lo_oracle(0 "lower --equality identity (of the counterexample)" lower --equality identity ${CEX}
       -o ${LOWERED})
file(READ ${LOWERED} lowered)
if(NOT lowered MATCHES "sameCapsuleRun")
  message(FATAL_ERROR "the identity lowering of the counterexample merges nothing:\n${lowered}")
endif()

# `check --equality contract` on that lowering: the merged group is a capsule finding, and the
# trusted-external boundary it hides from the audit is a trust-boundary finding.
lo_oracle(1 "check --equality contract" check --equality contract ${CEX} ${LOWERED})
if(NOT out MATCHES "capsule: group 0")
  message(FATAL_ERROR "check does not report the capsule finding of group 0:\n${out}")
endif()
if(NOT out MATCHES "trust-boundary: [^\n]*hides a trusted-external boundary")
  message(FATAL_ERROR "check does not report the trust-boundary finding:\n${out}")
endif()

# docs/spec.md §3.2: the standard is the user's choice, never the candidate's. The identity
# lowering of examples/identity-trap.json declares equality identity and hides a trusted-external
# node; `check` without options judges it by the coalesced lowering under equality contract, so it
# does not conform, in every report format, and the declaration is noted. With --equality identity
# (the user's choice) it conforms.
include(${CMAKE_CURRENT_LIST_DIR}/../oracle.cmake)
file(MAKE_DIRECTORY ${DIR})
set(plan ${EXAMPLES}/identity-trap.json)
set(candidate ${DIR}/identity.json)
lo_oracle(0 "lower --equality identity ${plan}" lower --equality identity ${plan} -o ${candidate})
file(READ ${candidate} lowered)
if(NOT lowered MATCHES "\"equality\": *\"identity\"")
  message(FATAL_ERROR "the identity lowering does not declare its equality:\n${lowered}")
endif()

set(note "the candidate declares equality identity, but it is checked with equality contract")
foreach(format text json junit sarif)
  lo_oracle(1 "${format}: does not conform" check ${plan} ${candidate} --format ${format})
  string(FIND "${out}" "${note}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${format}: the declaration is not noted:\n${out}")
  endif()
endforeach()

lo_oracle(1 "text" check ${plan} ${candidate})
if(NOT out MATCHES "does not conform to the coalesced lowering \\(equality contract\\)")
  message(FATAL_ERROR "text: not judged by coalesced and contract:\n${out}")
endif()
if(NOT out MATCHES "trust-boundary")
  message(FATAL_ERROR "text: the hidden trusted-external node is not found:\n${out}")
endif()
lo_oracle(1 "json" check ${plan} ${candidate} --format json)
if(NOT out MATCHES "\"mode\":\"coalesced\",\"equality\":\"contract\",[ \n]*\"conforms\":false")
  message(FATAL_ERROR "json: not judged by coalesced and contract:\n${out}")
endif()

lo_oracle(0 "--equality identity: conforms" check ${plan} ${candidate} --equality identity)
if(NOT out MATCHES "conforms to the coalesced lowering \\(equality identity\\)")
  message(FATAL_ERROR "--equality identity: not judged by coalesced and identity\n${out}\n${err}")
endif()

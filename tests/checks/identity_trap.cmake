# docs/spec.md §3.2: the standard is the user's choice, never the candidate's. The identity
# lowering of examples/identity-trap.json declares equality identity and hides a trusted-external
# node; `check` without options judges it by the coalesced lowering under equality contract, so it
# does not conform, in every report format, and the declaration is noted. With --equality identity
# (the user's choice) it conforms.
file(MAKE_DIRECTORY ${DIR})
set(plan ${EXAMPLES}/identity-trap.json)
set(candidate ${DIR}/identity.json)
execute_process(COMMAND ${BIN} lower --equality identity ${plan} -o ${candidate} RESULT_VARIABLE r)
if(NOT r EQUAL 0)
  message(FATAL_ERROR "could not lower ${plan} under equality identity (${r})")
endif()
file(READ ${candidate} lowered)
if(NOT lowered MATCHES "\"equality\": *\"identity\"")
  message(FATAL_ERROR "the identity lowering does not declare its equality:\n${lowered}")
endif()

set(note "the candidate declares equality identity, but it is checked with equality contract")
foreach(format text json junit sarif)
  execute_process(COMMAND ${BIN} check ${plan} ${candidate} --format ${format}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 1)
    message(FATAL_ERROR "${format}: exit status ${status}, expected 1 (does not conform)\n${out}\n${err}")
  endif()
  string(FIND "${out}" "${note}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${format}: the declaration is not noted:\n${out}")
  endif()
endforeach()

execute_process(COMMAND ${BIN} check ${plan} ${candidate}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT out MATCHES "does not conform to the coalesced lowering \\(equality contract\\)")
  message(FATAL_ERROR "text: not judged by coalesced and contract:\n${out}")
endif()
if(NOT out MATCHES "trust-boundary")
  message(FATAL_ERROR "text: the hidden trusted-external node is not found:\n${out}")
endif()
execute_process(COMMAND ${BIN} check ${plan} ${candidate} --format json
                OUTPUT_VARIABLE out)
if(NOT out MATCHES "\"mode\":\"coalesced\",\"equality\":\"contract\",[ \n]*\"conforms\":false")
  message(FATAL_ERROR "json: not judged by coalesced and contract:\n${out}")
endif()

execute_process(COMMAND ${BIN} check ${plan} ${candidate} --equality identity
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0 OR NOT out MATCHES "conforms to the coalesced lowering \\(equality identity\\)")
  message(FATAL_ERROR "--equality identity: exit ${status}, expected 0 (conforms)\n${out}\n${err}")
endif()

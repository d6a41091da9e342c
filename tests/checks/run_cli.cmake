# Runs `lowering-oracle ARGS` in DIR (prepared with a small plan and two lowerings of it, in the
# JSON form and in the stream form) and
# checks its exit status (EXPECTED) and that its standard output and error match REGEX.
file(MAKE_DIRECTORY ${DIR})
string(REPLACE "|" ";" ARGS "${ARGS}")
if(NOT EXISTS ${DIR}/plan.json)
  file(WRITE ${DIR}/plan.json [=[
{"format":"nn-backend/graph-execution-plan","version":1,
 "capsules":{"r":{"name":"reference.relu","op":"relu","provider":"reference","device":"cpu",
   "trustLevel":"verified",
   "shapeContract":{"claim":{"tag":"shapeSafety","op":"relu"},"summary":"","evidence":{"tag":"notProvided"}},
   "layoutContract":{"claim":{"tag":"shapeSafety","op":"relu"},"summary":"","evidence":{"tag":"notProvided"}},
   "valueContract":{"claim":{"tag":"shapeSafety","op":"relu"},"summary":"","evidence":{"tag":"notProvided"}},
   "vjpContract":{"claim":{"tag":"shapeSafety","op":"relu"},"summary":"","evidence":{"tag":"notProvided"}}}},
 "kernels":[{"nodeId":1,"kind":"relu","op":"relu","capsule":"r"},
            {"nodeId":2,"kind":"relu","op":"relu","capsule":"r"}]}
]=])
  execute_process(COMMAND ${BIN} lower ${DIR}/plan.json -o ${DIR}/reference.json
                  RESULT_VARIABLE r1)
  execute_process(COMMAND ${BIN} lower ${DIR}/plan.json --mode singleton -o ${DIR}/singleton.json
                  RESULT_VARIABLE r2)
  if(NOT r1 EQUAL 0 OR NOT r2 EQUAL 0)
    message(FATAL_ERROR "could not prepare the lowerings (${r1}, ${r2})")
  endif()
  # The same plan in the stream form, and its lowering streams.
  file(READ ${DIR}/plan.json json)
  string(JSON capsules GET "${json}" capsules)
  string(JSON k0 GET "${json}" kernels 0)
  string(JSON k1 GET "${json}" kernels 1)
  string(REGEX REPLACE "[\n ]" "" capsules "${capsules}")
  string(REGEX REPLACE "[\n ]" "" k0 "${k0}")
  string(REGEX REPLACE "[\n ]" "" k1 "${k1}")
  file(WRITE ${DIR}/plan.ndjson
       "{\"format\":\"nn-backend/graph-execution-plan-stream\",\"version\":1,\"capsules\":${capsules}}\n${k0}\n${k1}\n")
  execute_process(COMMAND ${BIN} lower --stream ${DIR}/plan.ndjson -o ${DIR}/reference.ndjson
                  RESULT_VARIABLE r3)
  execute_process(COMMAND ${BIN} lower --stream ${DIR}/plan.ndjson --mode singleton
                          -o ${DIR}/singleton.ndjson RESULT_VARIABLE r4)
  if(NOT r3 EQUAL 0 OR NOT r4 EQUAL 0)
    message(FATAL_ERROR "could not prepare the lowering streams (${r3}, ${r4})")
  endif()
endif()
file(REMOVE ${DIR}/report.txt)
execute_process(COMMAND ${BIN} ${ARGS} WORKING_DIRECTORY ${DIR}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL EXPECTED)
  message(FATAL_ERROR "exit status ${status}, expected ${EXPECTED}\n${out}\n${err}")
endif()
if(REGEX STREQUAL "^$")
  if(NOT "${out}" STREQUAL "")
    message(FATAL_ERROR "expected no standard output, got:\n${out}")
  endif()
  if(NOT EXISTS ${DIR}/report.txt)
    message(FATAL_ERROR "no report file written")
  endif()
  file(READ ${DIR}/report.txt report)
  if(NOT report MATCHES "does not conform")
    message(FATAL_ERROR "the report file lacks its summary line:\n${report}")
  endif()
else()
  string(REGEX MATCH "${REGEX}" found "${out}${err}")
  if(NOT found)
      message(FATAL_ERROR "output does not match ${REGEX}:\n${out}\n${err}")
  endif()
endif()

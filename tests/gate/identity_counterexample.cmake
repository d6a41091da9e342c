# `prove --equality identity --only coalesced.gate --counterexample-out` writes a plan of at most 3
# nodes that every other command accepts, and whose `checked` verdict the identity lowering flips:
# `gate` rejects it, `gate --equality identity` accepts it, and `check` names `gate` on its
# identity lowering.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
function(run expected)
  execute_process(COMMAND ${ORACLE} ${ARGN} WORKING_DIRECTORY ${WORK}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL expected)
    message(FATAL_ERROR "${ARGN}: exit ${status}, expected ${expected}\n${out}\n${err}")
  endif()
  set(out "${out}${err}" PARENT_SCOPE)
endfunction()
run(1 prove --equality identity --only coalesced.gate --counterexample-out cex.json)
if(NOT out MATCHES "coalesced.gate[^\n]*refuted")
  message(FATAL_ERROR "coalesced.gate is not refuted:\n${out}")
endif()
file(READ ${WORK}/cex.json plan)
string(JSON kernels LENGTH "${plan}" kernels)
if(kernels GREATER 3)
  message(FATAL_ERROR "the counterexample has ${kernels} nodes:\n${plan}")
endif()
run(1 gate cex.json)
if(NOT out MATCHES "^rejected by policy checked")
  message(FATAL_ERROR "gate does not reject the counterexample:\n${out}")
endif()
run(0 gate --equality identity cex.json)
run(0 lower --equality identity cex.json -o identity.json)
run(0 check --equality identity cex.json identity.json)
run(1 check --equality contract cex.json identity.json)
# The finding names the first preset whose verdict flips (verified when the lost evidence is
# missing, checked when it is a trusted boundary); `checked` is among the policies it names.
if(NOT out MATCHES "gate: under policy [a-z]+ the candidate is accepted, but the plan is rejected"
   OR NOT out MATCHES "gate: [^\n]*checked")
  message(FATAL_ERROR "check does not name gate:\n${out}")
endif()

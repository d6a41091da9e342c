# `prove --solver cvc5` trusts no `cvc5` blindly (docs/proofs.md, "Trust base"): a fake cvc5 first
# on PATH that answers unsat to everything fails the self-test and is refused (exit 2, nothing
# claimed); a cvc5 of another version is named by its resolved path and version and warned about;
# the real one is named with its version and no warning.
# Variables: ORACLE (the binary), WORK (a scratch directory), REAL_CVC5 (empty when not installed).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/liar ${WORK}/other)
file(REAL_PATH ${WORK} work)

# 1. Always unsat: it would "prove" every obligation, also the six Z3 refutes under identity.
file(WRITE ${work}/liar/cvc5 "#!/bin/sh\necho unsat\n")
file(CHMOD ${work}/liar/cvc5 PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
execute_process(COMMAND ${CMAKE_COMMAND} -E env "PATH=${work}/liar:$ENV{PATH}"
                        ${ORACLE} prove --solver cvc5 --equality identity --bound 2
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 2)
  message(FATAL_ERROR "a cvc5 that always says unsat: exit ${status}, expected 2\n${out}\n${err}")
endif()
if(NOT out STREQUAL "")
  message(FATAL_ERROR "a refused solver's answers were reported:\n${out}")
endif()
string(FIND "${err}" "${work}/liar/cvc5" at)
if(at EQUAL -1 OR NOT err MATCHES "failed its self-test and is refused")
  message(FATAL_ERROR "the refusal does not name the solver and its self-test:\n${err}")
endif()

if(NOT REAL_CVC5)
  return()
endif()

# 2. Another version (the real solver behind a --version that says 9.9.9): run, named, warned.
file(WRITE ${work}/other/cvc5
     "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'This is cvc5 version 9.9.9'; exit 0; fi\nexec ${REAL_CVC5} \"$@\"\n")
file(CHMOD ${work}/other/cvc5 PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
execute_process(COMMAND ${CMAKE_COMMAND} -E env "PATH=${work}/other:$ENV{PATH}"
                        ${ORACLE} prove --solver cvc5 --bound 1 --only coalesced.audit --format json
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cvc5 of another version: exit ${status}, expected 0\n${out}\n${err}")
endif()
string(JSON path GET "${out}" solver path)
string(JSON version GET "${out}" solver version)
string(JSON warning GET "${out}" solver warning)
if(NOT path STREQUAL "${work}/other/cvc5" OR NOT version STREQUAL "9.9.9"
   OR NOT warning MATCHES "not the documented 1\\.0\\.3")
  message(FATAL_ERROR "the json report does not name the solver, its version and the warning:\n${out}")
endif()
if(NOT err MATCHES "warning: cvc5 version 9\\.9\\.9 is not the documented 1\\.0\\.3")
  message(FATAL_ERROR "no warning on standard error:\n${err}")
endif()

# 3. The real one: named by its resolved path and version, no warning.
file(REAL_PATH ${REAL_CVC5} real)
execute_process(COMMAND ${CMAKE_COMMAND} -E env "PATH=${work}/none:/usr/bin:/bin"
                        ${ORACLE} prove --solver cvc5 --bound 1 --only coalesced.audit
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0 OR NOT out MATCHES "^solver: cvc5 ${real}, version 1\\.0\\.3, self-test passed\n"
   OR out MATCHES "warning")
  message(FATAL_ERROR "the real cvc5: exit ${status}\n${out}\n${err}")
endif()

# `prove --solver cvc5` trusts no `cvc5` blindly (docs/proofs.md, "Trust base"): a fake cvc5 first
# on PATH that answers unsat to everything fails the self-test and is refused (exit 2, nothing
# claimed); one that passes the self-test and then answers unsat to everything is caught by the
# cross-check with Z3 (exit 2, nothing claimed); a cvc5 of another version is named by its resolved path and version and warned about;
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

# 2. A liar that recognises the self-test (a tiny query: it counts the assertions, one is sat, two
# unsat) and answers unsat to everything else, claiming the documented version: it passes the
# self-test, so the cross-check with Z3 must catch it. Under identity Z3 refutes coalesced.audit
# at length 2: the liar's unsat there is a disagreement, exit 2, nothing claimed (without the
# cross-check it would "prove" the obligation).
file(MAKE_DIRECTORY ${work}/clever)
file(WRITE ${work}/clever/cvc5 [=[#!/bin/sh
if [ "$1" = --version ]; then echo 'This is cvc5 version 1.0.3'; exit 0; fi
for f; do :; done
if [ "$(wc -c <"$f")" -lt 300 ]; then
  if [ "$(grep -c '^(assert' "$f")" -eq 1 ]; then echo sat; else echo unsat; fi
else
  echo unsat
fi
]=])
file(CHMOD ${work}/clever/cvc5 PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
execute_process(COMMAND ${CMAKE_COMMAND} -E env "PATH=${work}/clever:$ENV{PATH}"
                        ${ORACLE} prove --solver cvc5 --equality identity --bound 2
                        --only coalesced.audit
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 2)
  message(FATAL_ERROR "a cvc5 that passes the self-test and then says unsat: exit ${status}, "
                      "expected 2\n${out}\n${err}")
endif()
if(NOT out STREQUAL "")
  message(FATAL_ERROR "a contradicted solver's answers were reported:\n${out}")
endif()
string(FIND "${err}" "${work}/clever/cvc5" at)
if(at EQUAL -1 OR NOT err MATCHES "disagrees with Z3 on coalesced\\.audit at length 2: cvc5 answered unsat \\(proved\\), Z3 sat \\(refuted\\)")
  message(FATAL_ERROR "the refusal does not name the solver, the query and both answers:\n${err}")
endif()
# Under contract every query is unsat: the liar agrees with Z3 on each, and the report says that
# every answer was cross-checked.
execute_process(COMMAND ${CMAKE_COMMAND} -E env "PATH=${work}/clever:$ENV{PATH}"
                        ${ORACLE} prove --solver cvc5 --bound 1 --only coalesced.audit --format json
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(JSON cross ERROR_VARIABLE none GET "${out}" solver crossCheck)
if(NOT status EQUAL 0 OR NOT cross STREQUAL "z3")
  message(FATAL_ERROR "contract, cross-checked: exit ${status}\n${out}\n${err}")
endif()

if(NOT REAL_CVC5)
  return()
endif()

# 3. Another version (the real solver behind a --version that says 9.9.9): run, named, warned.
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

# 4. The real one: named by its resolved path and version, no warning.
file(REAL_PATH ${REAL_CVC5} real)
execute_process(COMMAND ${CMAKE_COMMAND} -E env "PATH=${work}/none:/usr/bin:/bin"
                        ${ORACLE} prove --solver cvc5 --bound 1 --only coalesced.audit
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0 OR NOT out MATCHES "^solver: cvc5 ${real}, version 1\\.0\\.3, self-test passed, every answer cross-checked with Z3\n"
   OR out MATCHES "warning")
  message(FATAL_ERROR "the real cvc5: exit ${status}\n${out}\n${err}")
endif()

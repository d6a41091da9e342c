# cmake -DBIN=lowering-oracle -DCHROMIUM=chromium -DEXAMPLES=examples -DWORK=dir -P render.cmake
#
# Writes `check --format html` and `check --format json` of examples/plan.json against
# examples/candidate.json, has headless Chromium build the page's DOM (--dump-dom), and asserts
# that the DOM holds every finding of the JSON report: its list item with the check name and the
# message, and its pin in the strip.
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

if(NOT EXISTS ${CHROMIUM})
  find_program(found ${CHROMIUM})
  if(NOT found)
    message(FATAL_ERROR "FAIL: no Chromium (${CHROMIUM}): tools/setup installs the Debian package "
                        "chromium")
  endif()
  set(CHROMIUM ${found})
endif()

foreach(format html json)
  execute_process(COMMAND ${BIN} check ${EXAMPLES}/plan.json ${EXAMPLES}/candidate.json
                          --format ${format} -o ${WORK}/report.${format}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "FAIL: check --format ${format} exited ${rc}, expected 1 (a finding): ${err}")
  endif()
endforeach()

execute_process(COMMAND ${CMAKE_COMMAND} -E env HOME=${WORK} XDG_CONFIG_HOME=${WORK}/config
                        XDG_CACHE_HOME=${WORK}/cache
                        ${CHROMIUM} --headless --no-sandbox --disable-gpu --no-first-run
                        --user-data-dir=${WORK}/profile --dump-dom file://${WORK}/report.html
                RESULT_VARIABLE rc OUTPUT_FILE ${WORK}/dom.html ERROR_FILE ${WORK}/chromium.log
                TIMEOUT 120)
file(READ ${WORK}/dom.html dom)
if(NOT rc EQUAL 0 OR NOT dom MATCHES "<html")
  file(READ ${WORK}/chromium.log log)
  message(FATAL_ERROR "FAIL: Chromium did not render ${WORK}/report.html (exit ${rc}):\n${log}")
endif()

file(READ ${WORK}/report.json json)
string(JSON count LENGTH "${json}" violations)
if(count EQUAL 0)
  message(FATAL_ERROR "FAIL: examples/candidate.json has no finding to look for")
endif()
math(EXPR last "${count} - 1")
set(missing "")
foreach(i RANGE ${last})
  string(JSON check GET "${json}" violations ${i} check)
  string(JSON message GET "${json}" violations ${i} message)
  # The DOM serializes text with &, < and > escaped (quotes stay as they are).
  string(REPLACE "&" "&amp;" message "${message}")
  string(REPLACE "<" "&lt;" message "${message}")
  string(REPLACE ">" "&gt;" message "${message}")
  string(FIND "${dom}" "<li class=\"finding\" id=\"c0-f${i}\"><span class=\"check\">${check}</span>" item)
  string(FIND "${dom}" "<span class=\"msg\">${message}</span>" text)
  string(FIND "${dom}" "href=\"#c0-f${i}\"" pin)
  if(item EQUAL -1 OR text EQUAL -1 OR pin EQUAL -1)
    string(APPEND missing "\n  finding ${i} (${check}: ${message}): item ${item}, message ${text}, pin ${pin}")
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "FAIL: the DOM Chromium built (${WORK}/dom.html) lacks:${missing}")
endif()
# The picture is drawn: the strip, both lowerings, the gate verdicts and the overview.
foreach(part "<table class=\"strip\">" "<th>reference</th>" "<th>candidate</th>"
             "<table class=\"gate\">" "<svg class=\"overview\"")
  string(FIND "${dom}" "${part}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "FAIL: the DOM lacks ${part}")
  endif()
endforeach()
message(STATUS "Chromium rendered ${count} findings of examples/candidate.json")

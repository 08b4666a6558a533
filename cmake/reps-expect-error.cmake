# Runs a program that must reject its options: passes when it exits with a non-zero status and
# its output matches a regular expression. Inputs: PROGRAM, ARGS (a ;-list), EXPECT (regex).
execute_process(
  COMMAND ${PROGRAM} ${ARGS}
  RESULT_VARIABLE status
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
)
if(status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} ${ARGS}: exited with status 0; expected an error\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "${PROGRAM} ${ARGS}: the message does not match '${EXPECT}':\n${out}${err}")
endif()
message(STATUS "rejected as expected (status ${status}): ${err}")

# ctest helper: run an example with a bad argument; it must print a usage
# line on stderr and exit with code 2.  cmake -DEXE=<program> -P check_usage.cmake
execute_process(COMMAND "${EXE}" --no-such-option RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "2" OR NOT err MATCHES "^usage: ")
  message(FATAL_ERROR "${EXE} --no-such-option: exit code ${rc} (want 2), stderr:\n${err}")
endif()

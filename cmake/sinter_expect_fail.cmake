# cmake -DSRC=<file.cpp> -DCXX=<compiler> -DSTD=<-std=c++20> -DINC=<include dir>
#       -DOUT=<object file> [-DFLAGS="<more flags>"] -P sinter_expect_fail.cmake
#
# Passes only if compiling SRC FAILS and the compiler output contains the
# text of every `// expect: <text>` line in SRC (at least one is required).
# Optional `// flags: <flags>` lines in SRC add compiler flags (e.g. -D...).
foreach(var SRC CXX STD INC OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "sinter_expect_fail: -D${var}=... is required")
  endif()
endforeach()

file(STRINGS "${SRC}" expect_lines REGEX "^[ \t]*// expect:")
if(NOT expect_lines)
  message(FATAL_ERROR "sinter_expect_fail: ${SRC} has no `// expect: <error text>` line")
endif()

file(STRINGS "${SRC}" flag_lines REGEX "^[ \t]*// flags:")
set(file_flags "")
foreach(line IN LISTS flag_lines)
  string(REGEX REPLACE "^[ \t]*// flags:" "" line "${line}")
  string(APPEND file_flags " ${line}")
endforeach()
separate_arguments(extra_flags UNIX_COMMAND "${FLAGS} ${file_flags}")
# LC_ALL=C: plain ASCII quotes in GCC's messages, whatever the user's locale.
set(cmd "${CMAKE_COMMAND}" -E env LC_ALL=C LANG=C LANGUAGE=
        "${CXX}" ${STD} "-I${INC}" ${extra_flags} -c "${SRC}" -o "${OUT}")
execute_process(COMMAND ${cmd}
                RESULT_VARIABLE rc
                OUTPUT_VARIABLE output
                ERROR_VARIABLE output)
file(REMOVE "${OUT}")

string(REPLACE ";" " " cmd_text "${cmd}")
# Unformatted (message() without a mode), so compiler output stays readable.
function(show_compiler_output)
  message("command: ${cmd_text}\n${output}")
endfunction()

if(rc EQUAL 0)
  show_compiler_output()
  message(FATAL_ERROR "sinter_expect_fail: ${SRC} COMPILED, but it must fail to compile")
endif()

set(missing "")
foreach(line IN LISTS expect_lines)
  string(REGEX REPLACE "^[ \t]*// expect:[ \t]*" "" expected "${line}")
  string(STRIP "${expected}" expected)
  if(expected STREQUAL "")
    message(FATAL_ERROR "sinter_expect_fail: empty `// expect:` line in ${SRC}")
  endif()
  string(FIND "${output}" "${expected}" at)
  if(at EQUAL -1)
    string(APPEND missing "  \"${expected}\"\n")
  else()
    message(STATUS "failed to compile as expected, with: ${expected}")
  endif()
endforeach()

if(missing)
  show_compiler_output()
  message(FATAL_ERROR
    "sinter_expect_fail: ${SRC} failed to compile, but the output lacks:\n${missing}")
endif()

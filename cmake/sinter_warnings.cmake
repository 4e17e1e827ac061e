# Project-private build settings for sinter's own tests, examples and
# benchmarks. Nothing here is attached to the sinter::sinter INTERFACE target,
# so none of it reaches users.
include_guard(GLOBAL)

option(SINTER_WERROR "Turn warnings into errors on sinter's own targets" ON)
set(SINTER_SANITIZE "" CACHE STRING
    "Sanitizers for sinter's own targets, e.g. address,undefined (empty: none)")

# sinter_set_warnings(<target>): the project warning set, PRIVATE.
function(sinter_set_warnings tgt)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${tgt} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wconversion -Wshadow>
      $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${SINTER_WERROR}>>:-Werror>)
    # Run-time dispatch's lanes return AVX vectors inside always-inlined code; the
    # headers silence -Wpsabi by pragma, which GCC forgets in a precompiled header.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${tgt} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-psabi>)
    endif()
    # nvcc: its own warnings as errors, and the host compiler's set (no
    # -Wpedantic: nvcc's generated host code uses GNU line markers).
    target_compile_options(${tgt} PRIVATE
      "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Wshadow>"
      "$<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${SINTER_WERROR}>>:-Werror=all-warnings>")
  elseif(MSVC)
    target_compile_options(${tgt} PRIVATE /W4 /permissive- $<$<BOOL:${SINTER_WERROR}>:/WX>)
  endif()
endfunction()

# sinter_set_sanitizers(<target>): SINTER_SANITIZE, PRIVATE, compile and link.
function(sinter_set_sanitizers tgt)
  if(SINTER_SANITIZE)
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
      message(FATAL_ERROR "SINTER_SANITIZE is supported with GCC and Clang only")
    endif()
    set(_flags -fsanitize=${SINTER_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
    string(REPLACE "," "$<COMMA>" _in_genex "${SINTER_SANITIZE}")
    target_compile_options(${tgt} PRIVATE
      "$<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${_in_genex};-fno-omit-frame-pointer;-fno-sanitize-recover=all>")
    # nvcc hands them to its host compiler, one -Xcompiler each (it splits
    # an -Xcompiler argument at commas); device code is not instrumented.
    # CMake links CUDA executables with the host compiler: the link options
    # below serve both languages.
    string(REPLACE "," ";" _list "${SINTER_SANITIZE}")
    foreach(_s IN LISTS _list)
      target_compile_options(${tgt} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fsanitize=${_s}>)
    endforeach()
    target_compile_options(${tgt} PRIVATE
      "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fno-omit-frame-pointer;-Xcompiler=-fno-sanitize-recover=all>")
    target_link_options(${tgt} PRIVATE ${_flags})
  endif()
endfunction()

# sinter_set_native(<target> <bool>): -march=native when <bool> is true; never
# by default, so CI binaries and test results do not depend on the machine.
function(sinter_set_native tgt enable)
  if(enable AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${tgt} PRIVATE -march=native)
  endif()
endfunction()

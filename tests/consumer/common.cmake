# Shared by the consumer projects: the programs, and what every one checks.
add_executable(consumer "${CMAKE_CURRENT_LIST_DIR}/main.cpp")
target_link_libraries(consumer PRIVATE sinter::sinter)
# Headers of an IMPORTED target are included with -isystem, which would hide
# sinter's warnings from this -Werror build; look at them as a user's own code.
set_target_properties(consumer PROPERTIES NO_SYSTEM_FROM_IMPORTED ON)

enable_testing()
add_test(NAME consumer COMMAND consumer)

# -DSINTER_CONSUMER_CUDA=ON: also a .cu file that only links sinter::sinter,
# as a user's would (CUDA enabled after sinter is found: the order of the
# README). It compiles only if the target gives nvcc C++20. With
# -DSINTER_CONSUMER_CUDA_STANDARD=20 the project also sets
# CMAKE_CUDA_STANDARD, which must not conflict with what sinter passes.
if(SINTER_CONSUMER_CUDA)
  enable_language(CUDA)
  if(SINTER_CONSUMER_CUDA_STANDARD)
    set(CMAKE_CUDA_STANDARD ${SINTER_CONSUMER_CUDA_STANDARD})
  endif()
  add_executable(consumer_cuda "${CMAKE_CURRENT_LIST_DIR}/main.cu")
  target_link_libraries(consumer_cuda PRIVATE sinter::sinter)
  # Static CUDA runtime: it starts without a driver and, with no GPU
  # answering, sinter::dispatch runs it on the CPU.
  set_target_properties(consumer_cuda PROPERTIES NO_SYSTEM_FROM_IMPORTED ON CUDA_RUNTIME_LIBRARY Static)
  add_test(NAME consumer_cuda COMMAND consumer_cuda)
endif()

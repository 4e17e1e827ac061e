# Shared by the consumer projects: the program, and what every one checks.
add_executable(consumer "${CMAKE_CURRENT_LIST_DIR}/main.cpp")
target_link_libraries(consumer PRIVATE sinter::sinter)
# Headers of an IMPORTED target are included with -isystem, which would hide
# sinter's warnings from this -Werror build; look at them as a user's own code.
set_target_properties(consumer PROPERTIES NO_SYSTEM_FROM_IMPORTED ON)

enable_testing()
add_test(NAME consumer COMMAND consumer)

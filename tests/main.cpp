// The single doctest runner: every tests/{core,policy,top}/*.cpp links into
// sinter_tests next to this file, so none of them defines main().
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

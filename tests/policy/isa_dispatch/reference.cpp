// The reference of tests/policy/test_isa_dispatch.cpp's bit-identity check:
// isa_dispatch/cases.hpp's hashes from a build for the ISA itself
// (-march=x86-64-v3 or -v4, no dispatch), printed one case per line.
#include <cstdio>

#include "cases.hpp"

int main() {
  std::fputs(isa_cases::hash_lines().c_str(), stdout);
  return 0;
}

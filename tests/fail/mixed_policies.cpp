// expect: operands live on different devices: move one with sinter::to<P>(x)
// Mixing a host array and cuda memory in one expression does not compile
// (host with par does: one memory space, tests/top/test_policy_mix.cpp). A
// cuda view, not a cuda array, so that a file not compiled as CUDA gets this
// message rather than "compile this file as CUDA".
#include <sinter/sinter.hpp>

int main() {
  sinter::array<float, 1, sinter::host> a({4});
  const sinter::view<float, 1, sinter::cuda> d(nullptr, {4});
  auto e = a + d;
  (void)e;
}

// expect: operands live on different devices: move one with sinter::to<P>(x)
// Assigning an expression of cuda memory into a par array does not compile
// (a host expression into a par array does: tests/top/test_policy_mix.cpp).
#include <sinter/sinter.hpp>

int main() {
  sinter::array<float, 1, sinter::par> a({4});
  const sinter::view<float, 1, sinter::cuda> d(nullptr, {4});
  a = d * 2.f;
}

// expect: operands live on different devices: move one with sinter::to<P>(x)
// A reduction of par and cuda memory together does not compile.
#include <sinter/sinter.hpp>

int main() {
  sinter::array<double, 1, sinter::par> a({4});
  const sinter::view<double, 1, sinter::cuda> d(nullptr, {4});
  return static_cast<int>(sinter::dot(a, d));
}

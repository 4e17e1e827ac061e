// expect: operands live on different devices: move one with sinter::to<P>(x)
// A tie of par outputs from an expression of cuda memory does not compile.
#include <sinter/sinter.hpp>

#include <tuple>

int main() {
  sinter::array<float, 1, sinter::par> a({4}), b({4});
  const sinter::view<float, 1, sinter::cuda> d(nullptr, {4});
  sinter::tie(a, b) = std::tuple(d + 1.f, 2.f);
}

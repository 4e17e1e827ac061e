// expect: operands live on different devices: move one with sinter::to<P>(x)
// Mixing arrays of two policies in one expression does not compile.
#include <sinter/sinter.hpp>

int main() {
  sinter::array<float, 1, sinter::host> a({4});
  sinter::array<float, 1, sinter::par> b({4});
  auto e = a + b;
  (void)e;
}

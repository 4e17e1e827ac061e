// expect: operands live on different devices: move one with sinter::to<P>(x)
// Assigning an expression of one policy into an array of another does not compile.
#include <sinter/sinter.hpp>

int main() {
  sinter::array<float, 1, sinter::host> a({4});
  sinter::array<float, 1, sinter::par> b({4});
  b = a * 2.f;
}

// expect: sinter: bitwise operation on floating-point values; only integers and bool
#include <sinter/sinter.hpp>

int main() {
  sinter::array<float, 1> a({4});
  sinter::array<float, 1> b = a & a;
  (void)b;
}

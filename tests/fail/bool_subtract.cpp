// expect: sinter: this arithmetic is not defined on bool values
// bool - bool: NumPy raises TypeError ("use the bitwise_xor, the `^`
// operator..."); sinter refuses it at compile time. bool + bool (logical or)
// and bool * bool (logical and) compile, as in NumPy.
#include <sinter/sinter.hpp>

int main() {
  sinter::array<bool, 1> a({4}), b({4});
  a = true;
  b = false;
  sinter::array<bool, 1> c = a - b;
  return c.data()[0] ? 0 : 1;
}

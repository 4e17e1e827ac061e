// expect: sinter::array: element type must be bool, an integer, float, double, sinter::half or sinter::bfloat16
// char is a character, not a number: use std::int8_t.
#include <sinter/sinter.hpp>

int main() {
  sinter::array<char, 1> a({4});
  (void)a;
}

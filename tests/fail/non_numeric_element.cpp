// expect: sinter::array: element type must be bool, an integer, float, double, sinter::half or sinter::bfloat16
// An array of a non-numeric type does not compile.
#include <sinter/sinter.hpp>
#include <string>

int main() {
  sinter::array<std::string, 1> a({4});
  (void)a;
}

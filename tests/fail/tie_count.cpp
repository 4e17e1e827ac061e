// expect: sinter::tie: as many expressions as outputs
// A tie of two outputs given one expression does not compile.
#include <sinter/sinter.hpp>

#include <tuple>

int main() {
  sinter::array<float, 1> a({4}), b({4});
  sinter::tie(a, b) = std::tuple(a * 2.f);
}

// expect: sinter::tie: outputs live on different devices
// Tying outputs of two policies does not compile: one pass runs on one device.
#include <sinter/sinter.hpp>

#include <tuple>

int main() {
  sinter::array<float, 1, sinter::host> a({4});
  sinter::array<float, 1, sinter::par> b({4});
  sinter::tie(a, b) = std::tuple(2.f, 3.f);
}

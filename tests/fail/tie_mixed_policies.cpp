// expect: sinter::tie: outputs live on different devices
// Tying a host output and a cuda output does not compile: one pass runs on
// one device (host with par does, on par: tests/top/test_policy_mix.cpp).
#include <sinter/sinter.hpp>

#include <tuple>

int main() {
  sinter::array<float, 1, sinter::host> a({4});
  sinter::view<float, 1, sinter::cuda> d(nullptr, {4});
  sinter::tie(a, d) = std::tuple(2.f, 3.f);
}

// expect: sinter::as_view: a std::vector or std::span holds host memory; view it as host or par
// A std::vector's elements viewed as cuda memory do not compile (as_view(v,
// sinter::par{}) does: tests/top/test_policy_mix.cpp).
#include <sinter/sinter.hpp>

#include <vector>

int main() {
  std::vector<float> v(4);
  auto d = sinter::as_view(v, sinter::cuda{});
  (void)d;
}

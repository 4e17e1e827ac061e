// The program every consumer test builds (tests/consumer/*/CMakeLists.txt):
// it includes sinter the way a user does, runs a fused multi-threaded
// expression, and exits 0 iff the result is right.
#include <sinter/sinter.hpp>

#include <cmath>

int main() {
  if (sinter::version.major != SINTER_VERSION_MAJOR) return 1;
  namespace st = sinter;
  const st::index_t n = 1 << 17;  // above par's threshold: the thread pool runs
  st::array<float, 1, st::par> a = st::arange<float>(n);
  st::array<float, 1, st::par> c = st::exp2(a * 0.f) * a * 2.f + 1.f;
  for (st::index_t i = 0; i < n; ++i)
    if (c(i) != static_cast<float>(2 * i + 1)) return 2;
  return 0;
}

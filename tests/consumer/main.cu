// The CUDA program of the consumer tests (tests/consumer/common.cmake): a .cu
// file that only links sinter::sinter, so it compiles only if the target
// carries C++20 to nvcc. It runs on the GPU when one answers, else on the
// CPU (sinter::dispatch), and exits 0 iff the result matches a double loop.
#include <sinter/sinter.hpp>

#include <cmath>
#include <cstdio>
#include <type_traits>

namespace st = sinter;

template <class P>
int run(P policy) {
  const st::index_t n = 100003;  // prime: vector loop plus a scalar tail
  st::array<float, 1, P> a(st::linspace<float>(-1, 1, n), policy);
  st::array<float, 1, P> c(st::exp(a + 0.5f) * 2.f, policy);
  const st::array<float, 1, st::host> back = st::to<st::host>(c);
  int bad = 0;
  for (st::index_t i = 0; i < n; ++i) {
    const double x = -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(n - 1);
    const double want = std::exp(x + 0.5) * 2.0;
    if (std::fabs(static_cast<double>(back(i)) - want) > 1e-5 * want) ++bad;
  }
  std::printf("consumer.cu on %s: %d of %lld elements wrong\n", std::is_same_v<P, st::cuda> ? "cuda" : "par", bad, static_cast<long long>(n));
  return bad == 0 ? 0 : 2;
}

int main() {
  static_assert(__cplusplus >= 202002L, "the .cu file was not compiled as C++20");
  return st::dispatch([](auto policy) { return run(policy); });
}

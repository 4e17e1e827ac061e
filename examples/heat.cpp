// 2-D heat diffusion: an explicit 5-point stencil written with slices, on the
// GPU when one answers (else the CPU thread pool), saved as a PNG and checked
// against the same stencil as a plain double loop.
//   heat [out.png [n [steps]]]     defaults: heat.png 64 500
// The picture in docs/images/heat.png: heat docs/images/heat.png 256 2000
#include <sinter/sinter.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <string>
#include <type_traits>
#include <vector>

#include "png.hpp"

namespace st = sinter;

constexpr float alpha = 0.2f;  // dt * diffusivity / dx^2: the explicit scheme is stable up to 0.25

// The n x n field after `steps` steps. The top edge holds a sine profile and
// the other edges 0 (fixed boundary); a hot block starts inside.
template <class P>
st::array<float, 2> simulate(P policy, st::index_t n, long steps) {
  std::printf("heat: %lld x %lld, %ld steps on %s\n", static_cast<long long>(n), static_cast<long long>(n),
              steps, std::is_same_v<P, st::par> ? "the CPU thread pool" : "the GPU");
  st::array<float, 2, P> u = st::zeros<float>({n, n}, policy);
  u(0, st::all) = st::sin(st::linspace<float>(0, std::numbers::pi_v<float>, n));
  u(st::slice(n / 2, 3 * n / 4), st::slice(n / 4, n / 2)) = 1.f;

  // Interior, and the interior shifted up/left (lo) and down/right (hi).
  const auto in = st::slice(1, -1), lo = st::slice(0, -2), hi = st::slice(2, st::end);
  for (long s = 0; s < steps; ++s)
    // One fused pass per step. The right side reads u shifted, so sinter
    // evaluates it before writing u (a Jacobi step, as the reference below).
    u(in, in) = u(in, in) + alpha * (u(lo, in) + u(hi, in) + u(in, lo) + u(in, hi) - 4.f * u(in, in));
  return st::to<st::host>(u);  // to host memory (a copy from the GPU, or from par's memory)
}

// The same computation in double, one element at a time.
std::vector<double> reference(std::size_t n, long steps) {
  std::vector<double> u(n * n, 0.0);
  for (std::size_t j = 0; j < n; ++j) u[j] = std::sin(std::numbers::pi * static_cast<double>(j) / static_cast<double>(n - 1));
  for (std::size_t i = n / 2; i < 3 * n / 4; ++i)
    for (std::size_t j = n / 4; j < n / 2; ++j) u[i * n + j] = 1.0;
  std::vector<double> next = u;
  for (long s = 0; s < steps; ++s) {
    for (std::size_t i = 1; i + 1 < n; ++i)
      for (std::size_t j = 1; j + 1 < n; ++j) {
        const std::size_t k = i * n + j;
        next[k] = u[k] + 0.2 * (u[k - n] + u[k + n] + u[k - 1] + u[k + 1] - 4.0 * u[k]);
      }
    std::swap(u, next);
  }
  return u;
}

// The larger of two errors; a NaN wins, so that it fails the check.
double worse(double a, double b) { return std::isnan(a) || a > b ? a : b; }

bool parse(const char* s, long lo, long hi, long& v) {
  char* end = nullptr;
  errno = 0;
  v = std::strtol(s, &end, 10);
  return *s != '\0' && *end == '\0' && errno == 0 && v >= lo && v <= hi;
}

int main(int argc, char** argv) {
  std::string out = "heat.png";
  long n = 64, steps = 500;
  if (argc > 4 || (argc > 1 && (argv[1][0] == '\0' || argv[1][0] == '-')) ||
      (argc > 2 && !parse(argv[2], 3, 4096, n)) || (argc > 3 && !parse(argv[3], 0, 10000000, steps))) {
    std::fprintf(stderr, "usage: %s [out.png [n [steps]]]\n  n: grid side, 3 to 4096 (default 64)\n"
                         "  steps: 0 to 10000000 (default 500)\n", argv[0]);
    return 2;
  }
  if (argc > 1) out = argv[1];

  const st::array<float, 2> u = st::dispatch([&](auto policy) { return simulate(policy, n, steps); });

  // Check: float against double, the largest difference over the field.
  const auto un = static_cast<std::size_t>(n);
  const std::vector<double> ref = reference(un, steps);
  double err = 0;
  for (std::size_t k = 0; k < un * un; ++k) err = worse(err, std::fabs(u.data()[k] - ref[k]));

  // The PNG: values in [0, 1] through a 256-colour map.
  std::vector<std::uint8_t> pixels(un * un);
  for (std::size_t k = 0; k < un * un; ++k)
    pixels[k] = static_cast<std::uint8_t>(std::lround(std::fmin(std::fmax(u.data()[k], 0.f), 1.f) * 255.f));
  if (!png::write_indexed(out, static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(n), pixels, png::jet())) {
    std::fprintf(stderr, "heat: cannot write %s: %s\n", out.c_str(), std::strerror(errno));
    return 1;
  }
  std::printf("wrote %s; max |float - double reference| = %.3g\n", out.c_str(), err);
  // Float rounding (about 6e-8 per operation) stays well below this after
  // the default steps; a wrong stencil or boundary misses by far more.
  if (!(err < 1e-4)) {
    std::fprintf(stderr, "heat: FAILED: the field differs from the reference by %g\n", err);
    return 1;
  }
}

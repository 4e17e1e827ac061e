// N-body gravitational accelerations by broadcasting: every pair's separation
// as (N, 1, 3) - (1, N, 3), a softened inverse cube, a sum along an axis. On
// the GPU when one answers (else the CPU thread pool), checked against a
// plain double loop and against Newton's third law.
//   nbody [n [seed]]     defaults: 256 bodies, seed 1
#include <sinter/sinter.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

namespace st = sinter;
constexpr double soft2 = 1e-4;  // softening length squared: close pairs stay finite

// a_i = sum_j m_j (x_j - x_i) / (|x_j - x_i|^2 + soft2)^(3/2)  (G = 1), row-major (n, 3).
template <class P>
std::vector<double> accelerations(P policy, const std::vector<double>& pos, const std::vector<double>& mass) {
  const auto n = static_cast<st::index_t>(mass.size());
  std::printf("nbody: %lld bodies on %s\n", static_cast<long long>(n),
              std::is_same_v<P, st::par> ? "the CPU thread pool" : "the GPU");
  const auto x = st::to<P>(st::as_view(pos.data(), {n, 3}), policy);
  const auto m = st::to<P>(st::as_view(mass), policy);

  // d(i, j, :) = x_j - x_i: (1, n, 3) - (n, 1, 3) broadcasts to (n, n, 3).
  // Lazy: the n * n * 3 separations are never stored.
  const auto d = x(st::newaxis, st::all, st::all) - x(st::all, st::newaxis, st::all);
  // Squared distances, (n, n, 1): keepdims lets them broadcast against d.
  const st::array<double, 3, P> r2 = st::sum(d * d, st::axis(2), st::keepdims) + soft2;
  // Each pair's pull, summed over j (axis 1): one pass, result (n, 3).
  const auto mj = m(st::newaxis, st::all, st::newaxis);  // (1, n, 1)
  const st::array<double, 2, P> a = st::sum(d * (mj / (r2 * st::sqrt(r2))), st::axis(1));

  std::vector<double> out(pos.size());
  st::copy(st::as_view(out.data(), {n, 3}), a);  // back to host memory
  return out;
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
  long n = 256, seed = 1;
  if (argc > 3 || (argc > 1 && !parse(argv[1], 1, 20000, n)) || (argc > 2 && !parse(argv[2], 0, 1L << 31, seed))) {
    std::fprintf(stderr, "usage: %s [n [seed]]\n  n: bodies, 1 to 20000 (default 256)\n"
                         "  seed: of the random bodies, 0 to 2^31 (default 1)\n", argv[0]);
    return 2;
  }
  // Random bodies in the unit cube, masses 0.5 to 1.5.
  const auto un = static_cast<std::size_t>(n);
  std::mt19937_64 gen(static_cast<std::uint64_t>(seed));
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<double> pos(3 * un), mass(un);
  for (double& v : pos) v = unit(gen);
  for (double& v : mass) v = 0.5 + unit(gen);

  const std::vector<double> a = st::dispatch([&](auto policy) { return accelerations(policy, pos, mass); });

  // Check 1: the same sum as a double loop over pairs.
  double err = 0, scale = 0;
  for (std::size_t i = 0; i < un; ++i) {
    double ref[3] = {0, 0, 0};
    for (std::size_t j = 0; j < un; ++j) {
      const double dx = pos[3 * j] - pos[3 * i], dy = pos[3 * j + 1] - pos[3 * i + 1], dz = pos[3 * j + 2] - pos[3 * i + 2];
      const double r2 = dx * dx + dy * dy + dz * dz + soft2, w = mass[j] / (r2 * std::sqrt(r2));
      ref[0] += w * dx, ref[1] += w * dy, ref[2] += w * dz;
    }
    for (std::size_t k = 0; k < 3; ++k) {
      err = worse(err, std::fabs(a[3 * i + k] - ref[k]));
      scale = std::max(scale, std::fabs(ref[k]));
    }
  }
  // Check 2: Newton's third law, the total force sum_i m_i a_i is zero.
  double total[3] = {0, 0, 0}, size = 0;
  for (std::size_t i = 0; i < un; ++i)
    for (std::size_t k = 0; k < 3; ++k) total[k] += mass[i] * a[3 * i + k], size += std::fabs(mass[i] * a[3 * i + k]);
  const double net = worse(worse(std::fabs(total[0]), std::fabs(total[1])), std::fabs(total[2]));
  std::printf("largest error against the double loop: %.2g (largest |a|: %.3g); net force %.2g (sum |m a|: %.3g)\n",
              err, scale, net, size);
  // Double rounding: about 1e-16 relative per operation, n terms per sum.
  const bool ok = err <= 1e-10 * scale && net <= 1e-10 * size;
  if (!ok) std::fprintf(stderr, "nbody: FAILED\n");
  return ok ? 0 : 1;
}

// A boundary-padded grid: the 5-point Laplacian of f(x, y) = sin(pi x) cos(pi y)
// on an n x n grid, from an edge-padded copy and its rolled neighbours, a few
// probes gathered by index, and the grid split and joined again; on the GPU
// when one answers (else the CPU thread pool), checked against a double loop.
//   padded_grid [n [probes]]     defaults: 257 1000
#include <sinter/sinter.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

namespace st = sinter;

// The Laplacian (host row-major), the probes' values, and whether the
// split-and-joined grid and the twice-flipped one equal the grid.
template <class P>
void grid(P policy, st::index_t n, const std::vector<std::int64_t>& where, std::vector<float>& lap_out,
          std::vector<float>& probes_out, bool& same) {
  std::printf("padded_grid: %lld x %lld on %s\n", static_cast<long long>(n), static_cast<long long>(n),
              std::is_same_v<P, st::par> ? "the CPU thread pool" : "the GPU");
  st::array<float, 1, P> xs({n}, policy);
  xs = st::linspace<float>(0, 1, n);
  auto [gx, gy] = st::meshgrid<st::indexing::ij>(xs, xs);  // (n, n) views, no copy
  const float pi = 3.14159265f;
  const st::array<float, 2, P> f = st::sin(pi * gx) * st::cos(pi * gy);

  // One cell of edge padding, then the neighbours by rolling it: pad and roll
  // are lazy, so the whole stencil is one pass over the padded grid.
  const auto g = st::pad(f, 1, "edge");
  const st::array<float, 2, P> full = st::roll(g, 1, 0) + st::roll(g, -1, 0) + st::roll(g, 1, 1) +
                                      st::roll(g, -1, 1) - 4.f * g;
  const st::array<float, 2, P> lap = full(st::slice(1, -1), st::slice(1, -1));  // the interior

  // Probes: flat indices into the Laplacian (negative ones count from the end).
  const st::array<std::int64_t, 1, P> idx =
      st::to<P>(st::as_view(where.data(), {static_cast<st::index_t>(where.size())}), policy);
  const st::array<float, 1, P> probes = st::take(lap, idx);

  // Split into a top and a bottom half and join them again; flip both axes in
  // either order.
  const auto halves = st::split(f, {n / 2}, 0);
  const st::array<float, 2, P> joined = st::concatenate({halves[0], halves[1]}, 0);
  same = st::array_equal(joined, f) && st::array_equal(st::flip(st::flip(f, 0), 1), st::flip(st::flip(f, 1), 0));

  lap_out.resize(static_cast<std::size_t>(n * n));
  probes_out.resize(where.size());
  st::copy(st::as_view(lap_out.data(), {n, n}), lap);  // back to host memory
  st::copy(st::as_view(probes_out.data(), {static_cast<st::index_t>(where.size())}), probes);
}

bool parse(const char* s, long lo, long hi, long& v) {
  char* end = nullptr;
  errno = 0;
  v = std::strtol(s, &end, 10);
  return *s != '\0' && *end == '\0' && errno == 0 && v >= lo && v <= hi;
}

int main(int argc, char** argv) {
  long n = 257, k = 1000;
  if (argc > 3 || (argc > 1 && !parse(argv[1], 2, 8192, n)) || (argc > 2 && !parse(argv[2], 0, 1000000, k))) {
    std::fprintf(stderr, "usage: %s [n [probes]]\n  n: grid side, 2 to 8192 (default 257)\n"
                         "  probes: gathered values, 0 to 1000000 (default 1000)\n", argv[0]);
    return 2;
  }
  const long nn = n * n;
  std::vector<std::int64_t> where(static_cast<std::size_t>(k));
  for (long i = 0; i < k; ++i) where[static_cast<std::size_t>(i)] = (i * 7919 % nn) - (i % 2 ? nn : 0);

  std::vector<float> lap, probes;
  bool same = false;
  st::dispatch([&](auto policy) { grid(policy, n, where, lap, probes, same); });

  // Check: the same stencil in double, clamping indices at the edges.
  const double pi = 3.14159265358979323846;
  auto f = [&](long i, long j) {
    i = std::clamp(i, 0L, n - 1);
    j = std::clamp(j, 0L, n - 1);
    const double x = static_cast<double>(static_cast<float>(static_cast<double>(i) / static_cast<double>(n - 1)));
    const double y = static_cast<double>(static_cast<float>(static_cast<double>(j) / static_cast<double>(n - 1)));
    return std::sin(pi * x) * std::cos(pi * y);
  };
  double err = 0;
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) {
      const double ref = f(i - 1, j) + f(i + 1, j) + f(i, j - 1) + f(i, j + 1) - 4 * f(i, j);
      const double e = std::abs(ref - static_cast<double>(lap[static_cast<std::size_t>(i * n + j)]));
      err = std::isnan(e) || e > err ? e : err;
    }
  long bad_probes = 0;
  for (long i = 0; i < k; ++i) {
    const std::int64_t w = where[static_cast<std::size_t>(i)];
    const auto flat = static_cast<std::size_t>(w < 0 ? w + nn : w);
    bad_probes += probes[static_cast<std::size_t>(i)] != lap[flat];
  }
  std::printf("max |laplacian - double loop| = %.2e, probes wrong: %ld, split/join and flips equal: %s\n", err,
              bad_probes, same ? "yes" : "no");
  const bool ok = err <= 4e-6 && bad_probes == 0 && same;
  std::printf("%s\n", ok ? "OK" : "MISMATCH");
  return ok ? 0 : 1;
}

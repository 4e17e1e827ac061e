// Percentiles and a histogram of a simulated distribution: service times
// drawn from a mixture (70% a normal body around 2, 30% a shifted
// exponential tail), generated in one pass that stores only the sample.
// sort gives the percentiles (NumPy's linear interpolation), histogram
// counts 64 bins in one read, cumsum turns the counts into a CDF, and
// compress extracts the tail above the 99th percentile. Checked: the CDF of
// the histogram brackets half the sample at the sorted median's bin, and
// the tail holds about 1% of the sample. Writes the histogram as a PNG. On
// the GPU when one answers, else the CPU thread pool.
//   distribution [out.png [n [seed]]]     defaults: distribution.png 1000000 1
#include <sinter/sinter.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "png.hpp"

namespace st = sinter;

bool parse(const char* s, long lo, long hi, long& v) {
  char* end = nullptr;
  errno = 0;
  v = std::strtol(s, &end, 10);
  return *s != '\0' && *end == '\0' && errno == 0 && v >= lo && v <= hi;
}

// The q-th percentile of a sorted sample, as numpy.percentile's default.
double percentile(const st::array<float, 1, st::host>& s, double q) {
  const double pos = q / 100.0 * static_cast<double>(s.size() - 1);
  const auto lo = static_cast<st::index_t>(std::floor(pos));
  const st::index_t hi = std::min(lo + 1, s.size() - 1);
  return s(lo) + (pos - static_cast<double>(lo)) * (static_cast<double>(s(hi)) - s(lo));
}

// What the checks and the picture need, computed on policy P's device.
struct summary {
  double p5, p50, p95, p99, tail_max;
  st::index_t tail;
  st::array<std::int64_t, 1, st::host> counts, cdf;
};

template <class P>
summary simulate(P policy, st::index_t n, std::uint64_t seed, st::index_t bins, double lo, double hi) {
  const auto k = st::random::split(st::random::key{seed}, 3);
  st::array<float, 1, P> x({n}, policy);
  x = st::where(st::random::bernoulli(k[0], {n}, 0.7), st::random::normal<float>(k[1], {n}, 2.0, 0.5),
                1.f + st::random::exponential<float>(k[2], {n}, 1.5));

  const auto s = st::to<st::host>(st::sort(x));  // percentiles read single elements
  summary r{percentile(s, 5), percentile(s, 50), percentile(s, 95), percentile(s, 99), 0, 0, {}, {}};
  const auto [counts, edges] = st::histogram(x, bins, {lo, hi});
  const st::array<std::int64_t, 1, P> cdf = st::cumsum(counts);
  const auto tail = st::compress(x > static_cast<float>(r.p99), x);
  r.tail = tail.size();
  r.tail_max = st::max(tail);
  r.counts = st::to<st::host>(counts);
  r.cdf = st::to<st::host>(cdf);
  return r;
}

int main(int argc, char** argv) {
  std::string out = "distribution.png";
  long n = 1000000, seed = 1;
  if (argc > 4 || (argc > 1 && (argv[1][0] == '\0' || argv[1][0] == '-')) ||
      (argc > 2 && !parse(argv[2], 100, 1L << 28, n)) || (argc > 3 && !parse(argv[3], 0, 1L << 30, seed))) {
    std::fprintf(stderr, "usage: %s [out.png [n [seed]]]\n  n: sample size, 100 to 2^28 (default 1000000)\n", argv[0]);
    return 2;
  }
  if (argc > 1) out = argv[1];

  constexpr st::index_t bins = 64;
  const double lo = 0, hi = 10;
  summary r;
  st::dispatch([&](auto policy) {
    std::printf("distribution: %ld draws on %s\n", n, std::is_same_v<decltype(policy), st::par> ? "the CPU thread pool" : "the GPU");
    r = simulate(policy, n, static_cast<std::uint64_t>(seed), bins, lo, hi);
  });
  const auto& counts = r.counts;
  const auto& cdf = r.cdf;
  std::printf("percentiles 5: %.3f  50: %.3f  95: %.3f  99: %.3f\n", r.p5, r.p50, r.p95, r.p99);
  std::printf("histogram: %lld of %ld draws in [%g, %g); %lld above the 99th percentile (max %.3f)\n",
              static_cast<long long>(cdf(bins - 1)), n, lo, hi, static_cast<long long>(r.tail), r.tail_max);
  const double p50 = r.p50;
  const auto tail_size = r.tail;

  // The median's bin: the CDF before it holds at most half the draws, through it at least half.
  const auto b = static_cast<st::index_t>((p50 - lo) / (hi - lo) * bins);
  const bool median_ok = (b == 0 || 2 * cdf(b - 1) <= n) && 2 * cdf(b) >= n;
  const bool tail_ok = std::abs(static_cast<double>(tail_size) - 0.01 * static_cast<double>(n)) <= 0.001 * static_cast<double>(n) + 2;

  // A bar chart: 4 pixels per bin, bars scaled to the largest count.
  const std::uint32_t w = 4 * bins, h = 128;
  const double top = static_cast<double>(st::max(counts));
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(w) * h, 0);
  for (st::index_t i = 0; i < bins; ++i) {
    const auto bar = static_cast<std::uint32_t>(std::lround(static_cast<double>(counts(i)) / top * (h - 1)));
    for (std::uint32_t y = h - bar; y < h; ++y)
      for (std::uint32_t c = 0; c < 3; ++c)
        pixels[static_cast<std::size_t>(y) * w + static_cast<std::uint32_t>(4 * i) + c] =
            static_cast<std::uint8_t>(64 + 191 * i / (bins - 1));
  }
  if (!png::write_indexed(out, w, h, pixels, png::jet())) {
    std::fprintf(stderr, "distribution: cannot write %s\n", out.c_str());
    return 1;
  }
  std::printf("wrote %s; median bin check %s, tail check %s\n", out.c_str(), median_ok ? "ok" : "FAILED",
              tail_ok ? "ok" : "FAILED");
  return median_ok && tail_ok ? 0 : 1;
}

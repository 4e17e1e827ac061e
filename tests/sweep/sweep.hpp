// The exhaustive float sweeps behind docs/math.md's bounds (sweep_*.cpp):
// every one of the 2^32 float bit patterns through a function in a loop GCC
// vectorises (so its vector variants or SIMD clones run), against the
// double-precision reference, and every 64th result against the scalar
// kernel's bits. Prints the maximum error in ulp and where; returns false
// above a bound or on a mismatch. About 40 s a function on 2 cores.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

namespace sweep {

/// Error in units of the last place of the float nearest `ref` (subnormal
/// spacing below the normal range); 0 for matching inf/NaN, 1e9 otherwise.
inline double ulps(float got, double ref) {
  if (std::isnan(ref)) return std::isnan(got) ? 0.0 : 1e9;
  if (std::isinf(static_cast<float>(ref))) return got == static_cast<float>(ref) ? 0.0 : 1e9;
  int e = 0;
  std::frexp(ref == 0.0 ? 1e-45 : ref, &e);
  return std::fabs(static_cast<double>(got) - ref) / std::ldexp(1.0, e - 24 < -149 ? -149 : e - 24);
}

/// One function under test: its vectorised loop, scalar kernel, reference
/// and bound (max ulp).
struct function {
  const char* name;
  void (*loop)(const float*, float*, std::size_t);
  float (*kernel)(float);
  double (*ref)(double);
  double bound;
};

struct result {
  double worst = 0;
  float at = 0;
  long mismatches = 0;
};

// Thread t of `threads` takes every threads-th block of 2^20 bit patterns.
inline void run_part(const function& f, int t, int threads, result& r) {
  constexpr std::size_t block = std::size_t{1} << 20;
  std::vector<float> x(block), y(block);
  for (std::uint64_t base = static_cast<std::uint64_t>(t) * block; base < (std::uint64_t{1} << 32);
       base += static_cast<std::uint64_t>(threads) * block) {
    for (std::size_t i = 0; i < block; ++i) {
      const auto b = static_cast<std::uint32_t>(base + i);
      std::memcpy(&x[i], &b, sizeof b);
    }
    f.loop(x.data(), y.data(), block);
    for (std::size_t i = 0; i < block; ++i) {
      const double e = ulps(y[i], f.ref(static_cast<double>(x[i])));
      if (e > r.worst) r.worst = e, r.at = x[i];
      if (i % 64 == 0) {
        const float s = f.kernel(x[i]);
        r.mismatches += std::memcmp(&s, &y[i], sizeof s) != 0 && !(std::isnan(s) && std::isnan(y[i]));
      }
    }
  }
}

/// Sweeps f on two threads and prints its line; true if within its bound
/// and the vectorised loop matches the scalar kernel.
inline bool run(const function& f) {
  result r[2];
  std::thread other([&] { run_part(f, 1, 2, r[1]); });
  run_part(f, 0, 2, r[0]);
  other.join();
  const result& w = r[0].worst >= r[1].worst ? r[0] : r[1];
  const long mismatches = r[0].mismatches + r[1].mismatches;
  std::printf("%s(float): max %.4f ulp at %a (bound %.4f); vectorised loop vs scalar kernel, every 64th input: %ld "
              "mismatches\n",
              f.name, w.worst, static_cast<double>(w.at), f.bound, mismatches);
  return w.worst <= f.bound && mismatches == 0;
}

}  // namespace sweep

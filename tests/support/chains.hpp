#pragma once
// The fusion tests' chains: chain<N>(x, b, c) applies N steps cycling over
// five ops (add, scale, tanh, where, sqrt-abs) to x, reading b and c;
// ref_step is one step in double, the reference. chain_lengths lists the
// chain lengths (minus one) a sweep instantiates: every length 1..20 in
// Release, 1, 2, 5, 10 and 20 in Debug and sanitizer builds, whose compile
// time grows fastest with the number of distinct expression types.
#include <cmath>
#include <random>
#include <sinter/sinter.hpp>
#include <utility>
#include <vector>

#include "random.hpp"
#include "scale.hpp"

namespace sinter_test {

namespace st = sinter;

// Step K of a chain applies one of five ops (cycling) to x, reading b and c;
// ref_step is the same step in double, the reference.
template <int K, class X, class B, class C>
auto chain_step(X x, const B& b, const C& c) {
  if constexpr (K % 5 == 0) return x + b;
  else if constexpr (K % 5 == 1) return x * 0.5f;
  else if constexpr (K % 5 == 2) return st::tanh(x - c);
  else if constexpr (K % 5 == 3) return st::where(x > 0.f, x, x * b);
  else return st::sqrt(st::abs(x)) + 1.f;
}

inline double ref_step(int k, double x, double b, double c) {
  switch (k % 5) {
    case 0: return x + b;
    case 1: return x * 0.5;
    case 2: return std::tanh(x - c);
    case 3: return x > 0 ? x : x * b;
    default: return std::sqrt(std::abs(x)) + 1.0;
  }
}

template <int N, int K = 0, class X, class B, class C>
auto chain(X x, const B& b, const C& c) {
  if constexpr (K == N) return x;
  else return chain<N, K + 1>(chain_step<K>(x, b, c), b, c);
}

inline std::vector<float> random_floats(std::size_t n, unsigned seed) {
  return sinter_test::random_vector(n, seed, -2.f, 2.f);
}

#if SINTER_TEST_SCALE == 1
using chain_lengths = std::make_integer_sequence<int, 20>;
#else
using chain_lengths = std::integer_sequence<int, 0, 1, 4, 9, 19>;
#endif

}  // namespace sinter_test

#pragma once
// random_vector: n uniform values in [lo, hi) from std::mt19937(seed), the
// test data of the fusion, API, policy and kernel-body tests.
#include <cstddef>
#include <random>
#include <vector>

namespace sinter_test {

template <class T>
std::vector<T> random_vector(std::size_t n, unsigned seed, T lo, T hi) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<T> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = d(g);
  return v;
}

}  // namespace sinter_test

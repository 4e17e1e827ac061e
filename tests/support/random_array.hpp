#pragma once
// random_array: a host array of the given shape, uniform values in [lo, hi)
// drawn in double from std::mt19937(seed) and converted to T (so a half or
// bfloat16 array holds the rounded draws): the operands of the linalg tests.
#include <cstddef>
#include <random>
#include <sinter/array.hpp>

namespace sinter_test {

template <class T, std::size_t R>
sinter::array<T, R> random_array(const sinter::extents<R>& shape, unsigned seed, double lo = -1, double hi = 1) {
  sinter::array<T, R> a(shape);
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  for (sinter::index_t i = 0; i < a.size(); ++i) a.data()[i] = static_cast<T>(d(g));
  return a;
}

}  // namespace sinter_test

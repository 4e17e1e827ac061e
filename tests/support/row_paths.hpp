#pragma once
// Helpers of the row-path tests (policy/test_host_step1.cpp,
// test_host_step2.cpp, test_par_split.cpp): the one pass a trace recorded,
// random values in [-8, 8), and closeness to a double reference.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <sinter/sinter.hpp>
#include <string>
#include <vector>

#include "random.hpp"

namespace sinter_test {

/// The detail (the path taken) of the trace's only pass.
inline std::string only_pass(const sinter::trace_scope& t) {
  const auto p = t.passes();
  REQUIRE(p.size() == 1);
  return p[0].detail;
}

/// n random values in [-8, 8).
template <class T>
std::vector<T> random_values(std::size_t n, unsigned seed) {
  return random_vector<T>(n, seed, T(-8), T(8));
}

/// Within a few roundings of the double reference (values up to ~2^17).
template <class T>
bool close(double got, double want) {
  return std::abs(got - want) <= 8 * static_cast<double>(std::numeric_limits<T>::epsilon()) * (std::abs(want) + 8);
}

}  // namespace sinter_test

// Helpers shared by the distributed-array tests (test_mpi_array.cpp,
// test_mpi_reduce.cpp): deterministic data and bitwise comparison.
#pragma once
#include <cstring>

#include "sinter/mpi.hpp"

namespace test_mpi_array_support {
using namespace sinter;
using sinter::index_t;

// Deterministic data of a shape, the same on every rank.
inline array<float, 2> data2(index_t n0, index_t n1, std::uint64_t seed) {
  return array<float, 2>(random::uniform(random::key(seed), {n0, n1}, -1.0, 1.0));
}

// Whether two host arrays hold the same bits.
template <class T, std::size_t R>
bool same_bits(const array<T, R>& a, const array<T, R>& b) {
  if (a.shape() != b.shape()) return false;
  const auto n = static_cast<std::size_t>(a.size());
  return n == 0 || std::memcmp(a.data(), b.data(), n * sizeof(T)) == 0;
}
template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

}  // namespace test_mpi_array_support

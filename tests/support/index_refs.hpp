#pragma once
// Scalar reference helpers of the gather and join tests (test_join.cpp,
// test_take.cpp): element equality with NaN equal to NaN, a row-major
// multi-index, and an element of a strided host layout.
#include <cmath>
#include <cstddef>
#include <sinter/sinter.hpp>
#include <type_traits>

namespace index_refs {

/// a == b, and NaN == NaN.
template <class T>
bool same(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return (std::isnan(a) && std::isnan(b)) || a == b;
  else return a == b;
}

/// Row-major multi-index of flat position k in shape.
template <std::size_t R>
sinter::extents<R> unflat(sinter::index_t k, const sinter::extents<R>& shape) {
  sinter::extents<R> c{};
  for (std::size_t d = R; d-- > 0;) {
    c[d] = k % shape[d];
    k /= shape[d];
  }
  return c;
}

/// Element c of a host layout.
template <class T, std::size_t R>
T at(const T* p, const sinter::extents<R>& strides, const sinter::extents<R>& c) {
  sinter::index_t o = 0;
  for (std::size_t d = 0; d != R; ++d) o += c[d] * strides[d];
  return p[o];
}

}  // namespace index_refs

#pragma once
// filled<P>(v): a 1-D array on policy P holding v's values;
// same_bits(x, y): whether two floats are bitwise equal (signed zeros and
// NaN payloads included).
#include <cstring>
#include <sinter/sinter.hpp>
#include <vector>

namespace sinter_test {

template <class P, class T>
sinter::array<T, 1, P> filled(const std::vector<T>& v) {
  sinter::array<T, 1, P> a({static_cast<sinter::index_t>(v.size())});
  for (std::size_t i = 0; i < v.size(); ++i) a(static_cast<sinter::index_t>(i)) = v[i];
  return a;
}

inline bool same_bits(float x, float y) { return std::memcmp(&x, &y, sizeof x) == 0; }

}  // namespace sinter_test

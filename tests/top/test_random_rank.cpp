// sinter::random generators called with their rank given, gen<T, R>(k, {...})
// and gen<T, R>(k, extents<R>{...}) (they were ambiguous between the braced
// and the extents overloads), 1-D and 2-D, against the rank-deduced call;
// the 2-D arrays against the 1-D one of the same size (row-major flat index).
// The deduced calls' values are checked against the scalar reference in test_random.cpp.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <sinter/sinter.hpp>
#include <type_traits>

namespace test_random_rank {

namespace st = sinter;
namespace sr = sinter::random;
using st::index_t;
template <class T, std::size_t R>
using arr = std::type_identity_t<st::array<T, R>>;

/// Mismatches between the rank-deduced arrays (d1 of 3n elements, d2 of 3 x n),
/// the same with the rank given (braced: b, extents: e) and d2 against d1.
template <class T>
std::size_t rank_bad(index_t n, const arr<T, 1>& d1, const arr<T, 1>& b1, const arr<T, 1>& e1,
                     const arr<T, 2>& d2, const arr<T, 2>& b2, const arr<T, 2>& e2) {
  std::size_t bad = 0;
  bad += d1.shape() != st::extents<1>{3 * n} || b1.shape() != d1.shape() || e1.shape() != d1.shape();
  bad += d2.shape() != st::extents<2>{3, n} || b2.shape() != d2.shape() || e2.shape() != d2.shape();
  if (bad != 0) return bad;
  for (index_t i = 0; i < 3 * n; ++i) bad += b1(i) != d1(i) || e1(i) != d1(i);
  for (index_t r = 0; r < 3; ++r)
    for (index_t i = 0; i < n; ++i) bad += d2(r, i) != d1(r * n + i) || b2(r, i) != d2(r, i) || e2(r, i) != d2(r, i);
  return bad;
}

}  // namespace test_random_rank

TEST_CASE("random: every generator with its rank given, gen<T, R>(k, {...}), equals the rank-deduced call") {
  using namespace test_random_rank;
  using std::int16_t, std::uint64_t;
  const sr::key k{20261205};
  for (index_t n : {index_t{0}, index_t{1}, index_t{13}, index_t{1021}}) {
    CAPTURE(n);
    const index_t m = 3 * n;
    const st::extents<1> e1{m};
    const st::extents<2> e2{3, n};
    std::size_t bad = 0;
    bad += rank_bad<double>(n, sr::uniform(k, {m}), sr::uniform<double, 1>(k, {m}), sr::uniform<double, 1>(k, e1),
                            sr::uniform(k, {3, n}), sr::uniform<double, 2>(k, {3, n}), sr::uniform<double, 2>(k, e2));
    bad += rank_bad<float>(n, sr::uniform<float>(k, {m}, -1, 2), sr::uniform<float, 1>(k, {m}, -1, 2),
                           sr::uniform<float, 1>(k, e1, -1, 2), sr::uniform<float>(k, {3, n}, -1, 2),
                           sr::uniform<float, 2>(k, {3, n}, -1, 2), sr::uniform<float, 2>(k, e2, -1, 2));
    bad += rank_bad<st::half>(n, sr::uniform<st::half>(k, {m}), sr::uniform<st::half, 1>(k, {m}),
                              sr::uniform<st::half, 1>(k, e1), sr::uniform<st::half>(k, {3, n}),
                              sr::uniform<st::half, 2>(k, {3, n}), sr::uniform<st::half, 2>(k, e2));
    bad += rank_bad<float>(n, sr::normal<float>(k, {m}, 1, 2), sr::normal<float, 1>(k, {m}, 1, 2),
                           sr::normal<float, 1>(k, e1, 1, 2), sr::normal<float>(k, {3, n}, 1, 2),
                           sr::normal<float, 2>(k, {3, n}, 1, 2), sr::normal<float, 2>(k, e2, 1, 2));
    bad += rank_bad<double>(n, sr::normal(k, {m}), sr::normal<double, 1>(k, {m}), sr::normal<double, 1>(k, e1),
                            sr::normal(k, {3, n}), sr::normal<double, 2>(k, {3, n}), sr::normal<double, 2>(k, e2));
    bad += rank_bad<float>(n, sr::exponential<float>(k, {m}, 3), sr::exponential<float, 1>(k, {m}, 3),
                           sr::exponential<float, 1>(k, e1, 3), sr::exponential<float>(k, {3, n}, 3),
                           sr::exponential<float, 2>(k, {3, n}, 3), sr::exponential<float, 2>(k, e2, 3));
    bad += rank_bad<double>(n, sr::exponential(k, {m}), sr::exponential<double, 1>(k, {m}),
                            sr::exponential<double, 1>(k, e1), sr::exponential(k, {3, n}),
                            sr::exponential<double, 2>(k, {3, n}), sr::exponential<double, 2>(k, e2));
    bad += rank_bad<int16_t>(n, sr::integers<int16_t>(k, {m}, -300, 1234), sr::integers<int16_t, 1>(k, {m}, -300, 1234),
                             sr::integers<int16_t, 1>(k, e1, -300, 1234), sr::integers<int16_t>(k, {3, n}, -300, 1234),
                             sr::integers<int16_t, 2>(k, {3, n}, -300, 1234), sr::integers<int16_t, 2>(k, e2, -300, 1234));
    bad += rank_bad<uint64_t>(n, sr::integers<uint64_t>(k, {m}), sr::integers<uint64_t, 1>(k, {m}),
                              sr::integers<uint64_t, 1>(k, e1), sr::integers<uint64_t>(k, {3, n}),
                              sr::integers<uint64_t, 2>(k, {3, n}), sr::integers<uint64_t, 2>(k, e2));
    bad += rank_bad<bool>(n, sr::bernoulli(k, {m}, 0.3), sr::bernoulli<1>(k, {m}, 0.3), sr::bernoulli<1>(k, e1, 0.3),
                          sr::bernoulli(k, {3, n}, 0.3), sr::bernoulli<2>(k, {3, n}, 0.3), sr::bernoulli<2>(k, e2, 0.3));
    CHECK(bad == 0);
  }
}

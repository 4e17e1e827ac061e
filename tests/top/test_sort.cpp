// sinter::sort, sort_inplace, argsort, partition, argpartition and topk
// (sort.hpp, sort/radix.hpp) against std::stable_sort with a NaN-last
// comparator written here: random data with NaN of both signs, ±0, ±inf and
// many duplicates, every dtype, sizes around the radix threshold, empty and
// size-1 axes, every axis of a 3-D array, strided and reversed views, a lazy
// operand, 2^20 + 3 elements on host and par at 1, 2, 3 and 8 threads (the
// same bits), partition and topk by their properties and the sorted
// reference, and the errors.
#include <doctest/doctest.h>

#include "support/scale.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sinter/sinter.hpp>
#include <sinter/sort.hpp>
#include <vector>

namespace test_sort {

namespace st = sinter;
using st::index_t;

template <class T>
double as_double(T v) {
  if constexpr (st::is_half_like_v<T>) return static_cast<double>(static_cast<float>(v));
  else return static_cast<double>(v);
}

/// The reference order: NaN last, otherwise by value (so -0.0 == +0.0).
template <class T>
bool less_ref(T a, T b) {
  if constexpr (std::is_integral_v<T>) return a < b;
  const double x = as_double(a), y = as_double(b);
  if (std::isnan(x)) return false;
  if (std::isnan(y)) return true;
  return x < y;
}

/// A std::vector of T, of one-byte values for bool (std::vector<bool> has no data()).
template <class T>
using vec = std::vector<std::conditional_t<std::is_same_v<T, bool>, unsigned char, T>>;

/// Random values with many duplicates; floats with NaN (both signs), ±0, ±inf.
template <class T>
vec<T> random_values(index_t n, std::uint32_t seed, int distinct = 50) {
  std::mt19937_64 g(seed);
  vec<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    const auto r = g();
    if constexpr (std::is_same_v<T, bool>) {
      x = (r & 1) != 0 ? 1 : 0;
    } else if constexpr (std::is_integral_v<T>) {
      // Half the time a small set of values, else any bit pattern.
      x = (r & 1) ? static_cast<T>(static_cast<int>((r >> 8) % static_cast<unsigned>(distinct)) - distinct / 2)
                  : static_cast<T>(r >> 3);
    } else {
      const int c = static_cast<int>((r >> 56) % 16);
      const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
      float f = static_cast<float>(static_cast<int>((r >> 8) % static_cast<unsigned>(distinct)) - distinct / 2) / 4;
      if (c == 0) f = nan;
      if (c == 1) f = -nan;
      if (c == 2) f = 0.f;
      if (c == 3) f = -0.f;
      if (c == 4) f = inf;
      if (c == 5) f = -inf;
      if (c == 6) f = static_cast<float>(static_cast<std::int32_t>(r >> 32)) * 1e-3f;
      x = static_cast<T>(f);
    }
  }
  return v;
}

/// The elements of a and b, byte for byte (bool beside its one-byte stand-in).
template <class A, class B>
bool same_bits(const A* a, const B* b, index_t n) {
  static_assert(sizeof(A) == sizeof(B));
  return n == 0 || std::memcmp(a, b, static_cast<std::size_t>(n) * sizeof(A)) == 0;
}

template <class V>
std::vector<std::int64_t> ref_argsort(const V& v) {
  std::vector<std::int64_t> idx(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) idx[i] = static_cast<std::int64_t>(i);
  std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t a, std::int64_t b) {
    return less_ref(v[static_cast<std::size_t>(a)], v[static_cast<std::size_t>(b)]);
  });
  return idx;
}

template <class V>
V ref_sort(const V& v) {
  V r = v;
  using T = typename V::value_type;
  std::stable_sort(r.begin(), r.end(), [](T a, T b) { return less_ref(a, b); });
  return r;
}

/// sort and argsort of one 1-D array of n elements, on policy P.
template <class T, class P>
void check_1d(index_t n, std::uint32_t seed) {
  const auto v = random_values<T>(n, seed);
  st::array<T, 1, P> x({n});
  if (n) std::memcpy(static_cast<void*>(x.data()), v.data(), v.size() * sizeof(T));
  const auto want = ref_sort(v);
  const auto s = st::sort(x);
  CHECK(same_bits(s.data(), want.data(), n));
  const auto wi = ref_argsort(v);
  const auto a = st::argsort(x);
  CHECK(same_bits(a.data(), wi.data(), n));
  st::sort_inplace(x);
  CHECK(same_bits(x.data(), want.data(), n));
}

template <class T>
void check_dtype() {
  const index_t sizes[] = {0, 1, 2, 3, 17, 63, 64, 65, 1000, 4099};
  std::uint32_t seed = 1;
  for (const index_t n : sizes) {
    CAPTURE(n);
    check_1d<T, st::host>(n, seed++);
  }
}

TEST_CASE_TEMPLATE("sort, argsort: every dtype against std::stable_sort, NaN last", T, bool, std::int8_t,
                   std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t,
                   std::uint64_t, float, double, st::half, st::bfloat16) {
  check_dtype<T>();
}

TEST_CASE("sort: -0.0 and 0.0 keep their order, NaNs keep theirs, after +inf") {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> v = {0.f, -0.f, -nan, 1.f, nan, -0.f, inf, -inf, 0.f};
  // Above the radix threshold too: repeated.
  for (const index_t reps : {1, 40}) {
    std::vector<float> w;
    for (index_t r = 0; r < reps; ++r) w.insert(w.end(), v.begin(), v.end());
    st::array<float, 1> x({static_cast<index_t>(w.size())});
    std::memcpy(x.data(), w.data(), w.size() * sizeof(float));
    const auto s = st::sort(x);
    const auto want = ref_sort(w);
    CHECK(same_bits(s.data(), want.data(), x.size()));
    CHECK(!std::signbit(s.data()[reps]));  // the zeros in input order: 0.0, -0.0, -0.0, 0.0
    CHECK(std::signbit(s.data()[reps + 1]));
  }
}

TEST_CASE("sort, argsort: 2^20 + 3 elements, host and par on 1, 2, 3, 8 threads give the same bits") {
  const index_t n = ((index_t{1} << 20) + 3) / SINTER_TEST_SCALE;
  const auto v = random_values<float>(n, 7, 100000);
  const auto vi = random_values<std::int64_t>(n, 8, 1000);
  const auto want = ref_sort(v);
  const auto wanti = ref_argsort(vi);
  st::array<float, 1> x({n});
  st::array<std::int64_t, 1> xi({n});
  std::memcpy(x.data(), v.data(), v.size() * sizeof(float));
  std::memcpy(xi.data(), vi.data(), vi.size() * sizeof(std::int64_t));
  CHECK(same_bits(st::sort(x).data(), want.data(), n));
  CHECK(same_bits(st::argsort(xi).data(), wanti.data(), n));
  for (const int threads : {1, 2, 3, 8}) {
    CAPTURE(threads);
    st::set_num_threads(threads);
    const st::view<const float, 1, st::par> xp(x.data(), x.shape(), x.strides());
    const st::view<const std::int64_t, 1, st::par> xip(xi.data(), xi.shape(), xi.strides());
    CHECK(same_bits(st::sort(xp).data(), want.data(), n));
    CHECK(same_bits(st::argsort(xip).data(), wanti.data(), n));
  }
  st::set_num_threads(0);
}

/// Every row of a along axis ax against the reference (values and indices).
template <class T, class P, class V>
void check_axes_of(const V& a, const char* what) {
  CAPTURE(what);
  const auto shape = a.shape();
  for (int ax = -1; ax < 3; ++ax) {
    CAPTURE(ax);
    const std::size_t d = static_cast<std::size_t>(ax < 0 ? 2 : ax);
    const auto s = st::sort(a, ax);
    const auto i = st::argsort(a, ax);
    const auto [tv, ti] = st::topk(a, std::min<index_t>(2, shape[d]), ax);
    index_t idx[3];
    const index_t len = shape[d];
    for (idx[0] = 0; idx[0] < shape[0]; ++idx[0])
      for (idx[1] = 0; idx[1] < shape[1]; ++idx[1])
        for (idx[2] = 0; idx[2] < shape[2]; ++idx[2]) {
          if (idx[d] != 0) continue;
          std::vector<T> row;
          index_t j[3] = {idx[0], idx[1], idx[2]};
          for (j[d] = 0; j[d] < len; ++j[d]) row.push_back(a(j[0], j[1], j[2]));
          const auto ws = ref_sort(row);
          const auto wi = ref_argsort(row);
          for (j[d] = 0; j[d] < len; ++j[d]) {
            const T got = s(j[0], j[1], j[2]);
            CHECK(same_bits(&got, &ws[static_cast<std::size_t>(j[d])], 1));
            CHECK(i(j[0], j[1], j[2]) == wi[static_cast<std::size_t>(j[d])]);
          }
          // topk: the last two of the stable sort by descending value.
          std::vector<std::int64_t> desc = wi;
          std::stable_sort(desc.begin(), desc.end(), [&](std::int64_t u, std::int64_t w) {
            return less_ref(row[static_cast<std::size_t>(w)], row[static_cast<std::size_t>(u)]);
          });
          for (j[d] = 0; j[d] < tv.shape()[d]; ++j[d]) {
            const auto want = desc[static_cast<std::size_t>(j[d])];
            CHECK(ti(j[0], j[1], j[2]) == want);
            const T got = tv(j[0], j[1], j[2]);
            CHECK(same_bits(&got, &row[static_cast<std::size_t>(want)], 1));
          }
        }
  }
}

TEST_CASE_TEMPLATE("sort, argsort, topk: every axis of a 3-D array, strided and reversed views", T, float,
                   st::half) {
  const index_t n0 = 3, n1 = 300, n2 = 5;
  const auto v = random_values<T>(n0 * n1 * n2 * 2, 11);
  st::array<T, 3> a({n0, n1, n2 * 2});
  std::memcpy(static_cast<void*>(a.data()), v.data(), v.size() * sizeof(T));
  check_axes_of<T, st::host>(a, "contiguous");
  check_axes_of<T, st::host>(a(st::slice(), st::slice(st::none, st::none, -1), st::slice(0, st::end, 2)),
                             "reversed, step 2");
  if constexpr (std::is_same_v<T, float>) {
    st::set_num_threads(3);
    const st::view<const T, 3, st::par> ap(a.data(), a.shape(), a.strides());
    check_axes_of<T, st::par>(ap, "par");
    st::set_num_threads(0);
  }
  // Empty and size-1 axes.
  st::array<T, 3> e({2, 0, 3}), one({2, 1, 3});
  one = a(st::slice(0, 2), st::slice(0, 1), st::slice(0, 3));
  for (int ax = 0; ax < 3; ++ax) {
    CHECK(st::sort(e, ax).size() == 0);
    CHECK(st::argsort(e, ax).size() == 0);
    CHECK(st::sort(one, 1).data()[4] == one.data()[4]);
    CHECK(st::argsort(one, 1).data()[5] == 0);
  }
}

TEST_CASE("sort: a lazy operand is evaluated once; sort_inplace on a reversed view") {
  const auto v = random_values<float>(5000, 21);
  st::array<float, 1> x({5000});
  std::memcpy(x.data(), v.data(), v.size() * sizeof(float));
  std::vector<float> w(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) w[i] = v[i] * 2.f - 1.f;
  CHECK(same_bits(st::sort(x * 2.f - 1.f).data(), ref_sort(w).data(), 5000));
  CHECK(same_bits(st::argsort(x * 2.f - 1.f).data(), ref_argsort(w).data(), 5000));
  st::array<float, 1> y = x;
  st::sort_inplace(y(st::slice(st::none, st::none, -1)));
  std::vector<float> r(v.rbegin(), v.rend());
  const auto want = ref_sort(r);
  for (index_t i = 0; i < 5000; ++i) CHECK(same_bits(&y.data()[4999 - i], &want[static_cast<std::size_t>(i)], 1));
}

/// The elements' bit patterns, sorted: equal for the same multiset.
template <class V>
std::vector<std::uint64_t> bit_multiset(const V& v) {
  std::vector<std::uint64_t> b(v.size(), 0);
  for (std::size_t i = 0; i < v.size(); ++i) std::memcpy(&b[i], &v[i], sizeof(v[i]));
  std::sort(b.begin(), b.end());
  return b;
}

template <class T>
void check_partition(index_t n, index_t kth, std::uint32_t seed) {
  const auto v = random_values<T>(n, seed);
  st::array<T, 1> x({n});
  std::memcpy(static_cast<void*>(x.data()), v.data(), v.size() * sizeof(T));
  const auto sorted = ref_sort(v);
  const index_t k = kth < 0 ? kth + n : kth;
  const auto p = st::partition(x, kth);
  const auto ip = st::argpartition(x, kth);
  vec<T> got(p.data(), p.data() + n), byidx(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) byidx[static_cast<std::size_t>(i)] = v[static_cast<std::size_t>(ip.data()[i])];
  for (const auto* q : {&got, &byidx}) {
    const auto& r = *q;
    const T pivot = r[static_cast<std::size_t>(k)];
    CHECK(!less_ref(pivot, sorted[static_cast<std::size_t>(k)]));
    CHECK(!less_ref(sorted[static_cast<std::size_t>(k)], pivot));
    for (index_t i = 0; i < k; ++i) CHECK(!less_ref(pivot, r[static_cast<std::size_t>(i)]));
    for (index_t i = k + 1; i < n; ++i) CHECK(!less_ref(r[static_cast<std::size_t>(i)], pivot));
    CHECK(bit_multiset(r) == bit_multiset(v));
  }
}

TEST_CASE("partition, argpartition: kth in place, smaller before, larger after") {
  check_partition<float>(1, 0, 1);
  check_partition<float>(1000, 0, 2);
  check_partition<float>(1000, 999, 3);
  check_partition<float>(1000, -1, 4);
  check_partition<std::int16_t>(3001, 1500, 6);
  check_partition<st::bfloat16>(500, 250, 7);
}

TEST_CASE("topk: largest first, ties by index, NaN largest; k = 0 and k = len") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  st::array<float, 1> x({7});
  const float v[] = {1.f, 3.f, nan, 3.f, -0.f, 0.f, 2.f};
  std::memcpy(x.data(), v, sizeof v);
  const auto [val, idx] = st::topk(x, 4);
  CHECK(std::isnan(val.data()[0]));
  CHECK(val.data()[1] == 3.f);
  CHECK(val.data()[3] == 2.f);
  const std::int64_t want[] = {2, 1, 3, 6};
  CHECK(same_bits(idx.data(), want, 4));
  const auto all = st::topk(x, 7);
  const std::int64_t want_all[] = {2, 1, 3, 6, 0, 4, 5};  // -0.0 and 0.0 tie: index order
  CHECK(same_bits(all.indices.data(), want_all, 7));
  CHECK(st::topk(x, 0).values.size() == 0);
}

TEST_CASE("sort family: errors before any work") {
  st::array<float, 2> x({3, 4});
  x = 1.f;
  CHECK_THROWS_AS(st::sort(x, 2), st::value_error);
  CHECK_THROWS_AS(st::argsort(x, -3), st::value_error);
  CHECK_THROWS_AS(st::partition(x, 4), st::value_error);
  CHECK_THROWS_AS(st::argpartition(x, -5), st::value_error);
  CHECK_THROWS_AS(st::topk(x, 5), st::value_error);
  CHECK_THROWS_AS(st::topk(x, -1), st::value_error);
  CHECK_NOTHROW(st::partition(x, -4));
}

}  // namespace test_sort

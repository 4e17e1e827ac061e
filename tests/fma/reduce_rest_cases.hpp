// A float or double sum or product of plain arithmetic folds its lanes as
// vector values (reduce/host_engine.hpp, vec_pairwise); where the explicit
// vector loop evaluates the expression (SINTER_HOST_SIMD), a leaf's last,
// partial row of lanes is read with masked loads and merged with a select
// (vec_fold_rest). Included by test_reduce_rest_v3.cpp (AVX2 + FMA) and
// test_reduce_rest_v4.cpp (AVX-512), compiled with -ffp-contract=off as the
// other files of their binaries (which instantiate some of the same folds):
// each result must have the bits of the same fold through the lane arrays
// (a user map around the same expression is not plain, so it takes
// fold_leaf), at every length from 0 to 300 (every count of lanes left
// over, for 64 float and 32 double lanes) and across leaves and tiles.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <sinter/sinter.hpp>
#include <vector>

#ifndef SINTER_REST_CASE
#error "define SINTER_REST_CASE(name) before including reduce_rest_cases.hpp"
#endif
#if !SINTER_HOST_SIMD
#error "tests/fma/reduce_rest_cases.hpp: compile for AVX2 + FMA or AVX-512 (SINTER_HOST_SIMD)"
#endif

namespace {

namespace st = sinter;
namespace rh = sinter::detail::reduce_host;

// The contiguous cursor a full reduction of expression E folds.
template <class E>
using rest_cursor_t = decltype(std::declval<const E&>().node().bind(std::declval<const E&>().shape()).linear());
#define SINTER_TAKES_REST(T, expr) (rh::vec_rest_v<T, rest_cursor_t<decltype(expr)>>)

const st::view<const float, 1> rva(nullptr, {0}), rvb(nullptr, {0});
const st::view<const double, 1> rwa(nullptr, {0}), rwb(nullptr, {0});
static_assert(SINTER_TAKES_REST(float, rva * rvb));
static_assert(SINTER_TAKES_REST(float, rva * rvb + 0.5f));
static_assert(SINTER_TAKES_REST(double, (rwa - rwb) * rwa));
static_assert(SINTER_TAKES_REST(double, rwa * 1e-3 + 1.0));

template <class T>
struct rest_identity {
  T operator()(T x) const { return x; }
};

template <class T>
std::vector<T> rest_values(std::int64_t n, unsigned seed, double scale) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-scale, scale);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<T>(u(g));
  return v;
}

template <class T>
void check_rest_bits() {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n = 0; n <= 300; ++n) sizes.push_back(n);
  for (const std::int64_t n : {1000, 1087, 2047, 2049, 4095, 4097, 6143, 12289, 65537}) sizes.push_back(n);
  const auto id = [](const auto& e) { return st::map(rest_identity<T>{}, e); };
  int nonzero = 0;
  for (const std::int64_t n : sizes) {
    const auto da = rest_values<T>(n, 11u + static_cast<unsigned>(n), 1.0);
    const auto db = rest_values<T>(n, 13u + static_cast<unsigned>(n), 3.0);
    const st::view<const T, 1> a(da.data(), {n}), b(db.data(), {n});
    const T pairs[][2] = {
        {st::sum(a), st::sum(id(a))},
        {st::sum(a * b), st::sum(id(a) * id(b))},  // the product fuses with the lane's add
        {st::sum((a - b) * (a - b)), st::sum(id(a - b) * id(a - b))},
        {st::sum(a * b + T(0.5)), st::sum(id(a * b + T(0.5)))},  // 0.5 in the masked lanes
        {st::sum(st::abs(a) * b - a * a), st::sum(id(st::abs(a) * b - a * a))},
        {st::prod(a * T(1e-3) + T(1)), st::prod(id(a * T(1e-3) + T(1)))},
    };
    int k = 0;
    for (const auto& p : pairs) {
      CHECK_MESSAGE(std::memcmp(&p[0], &p[1], sizeof(T)) == 0, "n = " << n << ", expression " << k);
      nonzero += p[0] != T(0) && p[0] != T(1);
      ++k;
    }
  }
  CHECK(nonzero > 1500);  // real data, not empty or trivial folds
}

// Row sums (one fold per row, starting anywhere in the buffer): every row
// length from 1 to 140, then 1000 and 1087, three rows each.
template <class T>
void check_rest_rows() {
  const auto id = [](const auto& e) { return st::map(rest_identity<T>{}, e); };
  std::vector<std::int64_t> lengths;
  for (std::int64_t c = 1; c <= 140; ++c) lengths.push_back(c);
  lengths.push_back(1000);
  lengths.push_back(1087);
  for (const std::int64_t cols : lengths) {
    const auto d = rest_values<T>(3 * cols, 17u + static_cast<unsigned>(cols), 1.0);
    const st::view<const T, 2> m(d.data(), {3, cols});
    const auto plain = st::sum(m * m - m, st::axis(1));
    const auto mapped = st::sum(id(m * m - m), st::axis(1));
    for (std::int64_t r = 0; r < 3; ++r) {
      const T x = plain.data()[r], y = mapped.data()[r];
      CHECK_MESSAGE(std::memcmp(&x, &y, sizeof(T)) == 0, "cols = " << cols << ", row " << r);
    }
  }
}

SINTER_REST_CASE("float sums and products, every leftover count: the lane arrays' bits") { check_rest_bits<float>(); }
SINTER_REST_CASE("float and double row sums, every row length to 140: the lane arrays' bits") {
  check_rest_rows<float>();
  check_rest_rows<double>();
}
SINTER_REST_CASE("double sums and products, every leftover count: the lane arrays' bits") { check_rest_bits<double>(); }

}  // namespace

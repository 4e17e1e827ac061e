// Reductions of expressions holding sinter::random leaves (the host engine
// folds such a tree's tiles from buffers filled by whole Philox blocks:
// reduce/host_leaf.hpp's gen_tile_cursor and gen_row_cursor): bitwise the
// reduction of the same expression stored into an array first, full and
// along axes, float and double, odd sizes across the engine's tiles (4096),
// views whose first element is not a block's first (offsets, steps,
// reversed, transposed, column broadcasts), host and par at 1 to 3
// threads; a sum against a double loop. One expression type per case, its
// layouts as views (each reduction instantiated is compile time).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sinter/sinter.hpp>
#include <type_traits>

namespace test_random_reduce {
namespace st = sinter;
namespace sr = sinter::random;
using st::index_t;

/// Whether two values have the same bits.
template <class T>
bool same(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}
/// Whether two contiguous arrays have the same shape and bits.
template <class A, class B>
bool same_array(const A& a, const B& b) {
  return a.shape() == b.shape() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(*a.data())) == 0);
}

/// The n elements of a 1-D leaf of n + 8 (3n + 8 for step 3) elements
/// read by layout `how`: 0-4 from offset how (unit stride), 5 reversed, 6 at step 3.
template <class X>
auto view_of(const X& x, int how, index_t n) {
  if (how <= 4) return x(st::slice(how, how + n));
  if (how == 5) return x(st::slice(n + 7, 7, -1));
  return x(st::slice(1, 1 + 3 * n, 3));
}

/// The 2-D view `how` of g (m x c, or c x m when transposed: how 1):
/// 0 itself, 1 transposed, 2 rows at step 2 reversed.
template <class G>
auto view2_of(const G& g, int how) {
  if (how == 0) return g(st::slice(st::none, st::none), st::slice(st::none, st::none));
  if (how == 1) return st::transpose(g);
  return g(st::slice(0, st::none, 2), st::slice(st::none, st::none, -1));
}
}  // namespace test_random_reduce

TEST_CASE_TEMPLATE("random reduce: full reductions equal the stored expression's, odd sizes and views", T, float,
                   double) {
  using namespace test_random_reduce;
  const auto ks = sr::split(sr::key(64), 2);
  for (index_t n : {index_t(0), index_t(1), index_t(2), index_t(3), index_t(13), index_t(4097), index_t(4099),
                    index_t(3 * 4096 + 2049)}) {
    const auto x = sr::uniform<T>(ks[0], {3 * n + 8}), y = sr::uniform<T>(ks[1], {3 * n + 8}, -1, 2);
    for (int how = 0; how <= 6; ++how) {
      INFO("n ", n, ", view ", how);
      const auto a = view_of(x, how, n), b = view_of(y, 6 - how, n);
      const auto in = a * a + b * b < T(1);  // Monte Carlo's test
      const st::array<bool, 1> sin = in;
      CHECK(same(st::sum(in), st::sum(sin)));
      const auto d = a * T(0.5) - b;
      const st::array<T, 1> sd = d;
      CHECK(same(st::sum(d), st::sum(sd)));
    }
    const auto z = sr::normal<T>(ks[0], {n}) * T(3) - sr::exponential<T>(ks[1], {n});
    CHECK(same(st::sum(z), st::sum(st::array<T, 1>(z))));
  }
  // The stored values' sum against a double loop (the stored pass is
  // checked against the bit recipe in test_random.cpp).
  const index_t n = 4099;
  const auto x = sr::uniform<T>(ks[0], {3 * n + 8}), y = sr::uniform<T>(ks[1], {3 * n + 8}, -1, 2);
  const st::array<T, 1> v = view_of(x, 3, n) * T(0.5) - view_of(y, 3, n);
  double ref = 0;
  for (index_t i = 0; i < n; ++i) ref += double(v(i));
  CHECK(std::fabs(double(st::sum(view_of(x, 3, n) * T(0.5) - view_of(y, 3, n))) - ref) < 1e-5 * double(n));
}

TEST_CASE_TEMPLATE("random reduce: axis reductions of random leaves and their views equal the stored ones", T, float,
                   double) {
  using namespace test_random_reduce;
  const sr::key k{65};
  for (const auto& sh : {st::extents<2>{5, 4099}, st::extents<2>{37, 131}, st::extents<2>{3, 1},
                         st::extents<2>{0, 7}, st::extents<2>{1, 4096 + 13}}) {
    for (int how = 0; how <= 3; ++how) {
      // how 3: a column of m values broadcast along the rows (stride 0).
      const auto g = how == 3 ? sr::normal<T>(k, {sh[0], index_t(1)}) : sr::normal<T>(k, sh);
      const auto v = view2_of(g, how == 3 ? 0 : how);
      st::extents<2> vs = sh;
      if (how != 3) vs = {{index_t(v.shape()[0]), index_t(v.shape()[1])}};
      const st::array<T, 2> zero = st::zeros<T>(vs);
      const auto e = zero + v;
      const st::array<T, 2> s = e;
      INFO("shape ", vs[0], " x ", vs[1], ", view ", how);
      CHECK(same_array(st::sum(e, st::axis(0)), st::sum(s, st::axis(0))));
      CHECK(same_array(st::sum(e, st::axis(1)), st::sum(s, st::axis(1))));
      CHECK(same(st::sum(e), st::sum(s)));
      if (vs[1] > 0) CHECK(same_array(st::max(e, st::axis(1)), st::max(s, st::axis(1))));
    }
  }
}

TEST_CASE("random reduce: par at 1, 2 and 3 threads equals host and the stored expression (full; axes: host)") {
  using namespace test_random_reduce;
  const int old_threads = st::get_num_threads();
  const auto ks = sr::split(sr::key(66), 2);
  const index_t n = 2 * st::detail::par_grain + 4099;  // par splits its tiles
  const st::array<float, 1, st::par> zp = st::zeros<float>({n});
  const auto x = sr::uniform<float>(ks[0], {3 * n + 8}), y = sr::uniform<float>(ks[1], {3 * n + 8});
  const st::array<float, 1> host_x = view_of(x, 3, n) * 2.0f - view_of(y, 0, n);
  for (int threads : {1, 2, 3}) {
    CAPTURE(threads);
    st::set_num_threads(threads);
    const auto e = zp + view_of(x, 3, n) * 2.0f - view_of(y, 0, n);
    const st::array<float, 1, st::par> s = e;
    CHECK(same(st::sum(e), st::sum(s)));
    CHECK(same(st::sum(e), st::sum(host_x)));
  }
  st::set_num_threads(old_threads);
}

// Reductions on the cuda policy (reducer<cuda>, sinter/reduce/cuda.hpp),
// compiled by nvcc into sinter_cuda_tests.
//
//  - no device needed: the functors CUB runs (the element transform, the
//    combine, the segment offsets, the finish) evaluated on the host equal
//    the host engine's values, for contiguous, broadcast, strided and
//    axis-permuted expressions (sum, max, argmin, argmax, mean, std; prod,
//    any, all, count_nonzero, var and norm against double references
//    computed by plain loops); errors and empty cases are decided before
//    any device call.
//  - device: every reduction, full and along axes, against the host
//    reducers; each reports "skipped: no CUDA device" where none answers.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sinter/sinter.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace st = sinter;
using st::index_t;

namespace test_cuda_reduce {

namespace sd = st::detail;
namespace ops = st::detail::reduce_ops;

/// Values of the host engine's eval_range for flat positions [0, n) of a bound node.
template <class V, std::size_t R, class Node>
std::vector<V> host_values(const Node& node, const st::extents<R>& shape) {
  const index_t n = sd::shape_size(shape);
  std::vector<V> v(static_cast<std::size_t>(n));
  sd::reduce_host::eval_range<V>(node, shape, 0, n, v.data());
  return v;
}

/// Fold the transform functor's values for [b, b + len) with combine_fn, in order.
template <class Op, class Elem>
auto fold(const Elem& elem, index_t b, index_t len) {
  using V = typename Elem::V;
  auto acc = Op::template identity<V>();
  const sd::cuda_reduce::combine_fn<Op> op{};
  for (index_t i = b; i < b + len; ++i) acc = op(acc, elem(i));
  return acc;
}

bool close(double a, double b, double rel = 1e-5) {
  return std::abs(a - b) <= rel * std::max(std::abs(b), 1.0);
}

}  // namespace test_cuda_reduce

// ---- no device needed -------------------------------------------------------

TEST_CASE("cuda reduce: the element transform equals the host engine's values") {
  using namespace test_cuda_reduce;
  const st::array<float, 1> a = st::linspace<float>(-2.f, 2.f, 1000);
  const st::array<float, 1> b = st::arange<float>(1000) * 1e-3f;
  // Contiguous: the linear cursor.
  {
    const auto e = st::detail::as_expr(st::exp(a + b) * 2.f);
    const auto bound = e.node().bind(e.shape());
    const auto elem = sd::cuda_reduce::full_element<ops::sum>(bound, e.shape());
    CHECK(elem.unit);
    const auto ref = host_values<float>(bound, e.shape());
    for (index_t i : {index_t(0), index_t(1), index_t(499), index_t(999)})
      CHECK(elem(i) == ref[static_cast<std::size_t>(i)]);
    CHECK(close(fold<ops::sum>(elem, 0, 1000), st::sum(st::exp(a + b) * 2.f)));
  }
  // Broadcast and strided (rank 2, not unit): the multi-index path.
  {
    const st::array<float, 2> m = st::reshape(st::arange<float>(35), {5, 7});
    const st::array<float, 1> row = st::arange<float>(7) * 0.5f;
    const auto e = st::detail::as_expr(st::transpose(m)(st::slice(1, 6), st::all) * 2.f + 1.f);
    const auto bound = e.node().bind(e.shape());
    const auto elem = sd::cuda_reduce::full_element<ops::max>(bound, e.shape());
    CHECK(!elem.unit);
    const auto ref = host_values<float>(bound, e.shape());
    for (index_t i = 0; i < e.size(); ++i) CHECK(elem.value(i) == ref[static_cast<std::size_t>(i)]);
    CHECK(fold<ops::max>(elem, 0, e.size()) == st::max(st::transpose(m)(st::slice(1, 6), st::all) * 2.f + 1.f));

    const auto eb = st::detail::as_expr(m + row);
    const auto bb = eb.node().bind(eb.shape());
    const auto eb_elem = sd::cuda_reduce::full_element<ops::argmin>(bb, eb.shape());
    const auto refb = host_values<float>(bb, eb.shape());
    for (index_t i : {index_t(0), index_t(6), index_t(7), index_t(20), index_t(34)}) {
      const auto l = eb_elem(i);
      CHECK(l.value == refb[static_cast<std::size_t>(i)]);
      CHECK(l.index == i);
    }
  }
}

TEST_CASE("cuda reduce: segments, their indices and the finish match the host along axes") {
  using namespace test_cuda_reduce;
  const st::array<float, 3> x = st::cos(st::reshape(st::arange<float>(2 * 3 * 4), {2, 3, 4}) * 0.7f);
  // Reduce axes (0, 2): outputs over axis 1 (3), segments of 2 * 4.
  const auto e = st::detail::as_expr(x);
  const st::extents<3> perm{1, 0, 2};
  const auto bound = e.node().bind(e.shape()).permuted(perm);
  const st::extents<3> pshape{3, 2, 4};
  const index_t len = 8;
  const auto elem = sd::cuda_reduce::along_element<ops::argmax>(bound, pshape, len);
  const sd::cuda_reduce::segment_begin begin{len};
  const auto host_arg = st::argmax(x, st::axes(0, 2));
  const auto host_mean = st::mean(x, st::axes(0, 2));
  const auto host_std = st::std(x, st::axes(0, 2), 1);
  for (index_t o = 0; o < 3; ++o) {
    CHECK(begin(o) == o * len);
    // Indices within the segment, as numpy's argmax along axes.
    CHECK(elem(o * len + 3).index == 3);
    const auto acc = fold<ops::argmax>(elem, begin(o), len);
    const sd::cuda_reduce::finish_fn<index_t, sd::op_finish<ops::argmax, float>> fin{{}, len};
    CHECK(fin(acc) == host_arg(o));
    const auto melem = sd::cuda_reduce::along_element<ops::mean>(bound, pshape, len);
    const sd::cuda_reduce::finish_fn<float, sd::op_finish<ops::mean, float>> mfin{{}, len};
    CHECK(close(mfin(fold<ops::mean>(melem, begin(o), len)), host_mean(o)));
    const auto velem = sd::cuda_reduce::along_element<ops::variance<true>>(bound, pshape, len);
    const sd::cuda_reduce::finish_fn<float, sd::variance_finish<true, float>> vfin{{1}, len};
    CHECK(close(vfin(fold<ops::variance<true>>(velem, begin(o), len)), host_std(o), 1e-4));
  }
  // The functors CUB copies to the device are trivially copyable.
  static_assert(std::is_trivially_copyable_v<std::remove_cvref_t<decltype(elem)>>);
  static_assert(std::is_trivially_copyable_v<sd::cuda_reduce::finish_fn<float, sd::variance_finish<false, float>>>);
}

TEST_CASE("cuda reduce: prod, any, all, count_nonzero, var and norm through the device functors, on the host") {
  using namespace test_cuda_reduce;
  // Full prod: int32 (64-bit accumulator) contiguous, and float strided; the
  // data are -1, 1 and a few 2s, so the products are exact.
  {
    const index_t n = 40;
    st::array<std::int32_t, 1> a({n});
    double want = 1;
    for (index_t i = 0; i < n; ++i) {
      a(i) = i % 5 == 2 ? 2 : (i % 3 == 0 ? -1 : 1);
      want *= static_cast<double>(a(i));
    }
    const auto e = st::detail::as_expr(a);
    const auto bound = e.node().bind(e.shape());
    const auto elem = sd::cuda_reduce::full_element<ops::prod>(bound, e.shape());
    CHECK(elem.unit);
    const auto acc = fold<ops::prod>(elem, 0, n);
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(acc)>, std::int64_t>);
    CHECK(static_cast<double>(acc) == want);
    CHECK(acc == st::prod(a));

    st::array<float, 2> m({5, 7});
    for (index_t i = 0; i < 5; ++i)
      for (index_t j = 0; j < 7; ++j) m(i, j) = (i * 7 + j) % 6 == 1 ? 2.f : ((i + j) % 2 ? -1.f : 1.f);
    double want_s = 1;  // transpose(m)[1:6, :]: columns 1..5 of m, all rows
    for (index_t j = 1; j < 6; ++j)
      for (index_t i = 0; i < 5; ++i) want_s *= static_cast<double>(m(i, j));
    const auto es = st::detail::as_expr(st::transpose(m)(st::slice(1, 6), st::all));
    const auto bs = es.node().bind(es.shape());
    const auto selem = sd::cuda_reduce::full_element<ops::prod>(bs, es.shape());
    CHECK(!selem.unit);
    CHECK(static_cast<double>(fold<ops::prod>(selem, 0, es.size())) == want_s);
  }
  // any, all, count_nonzero of a bool array (2, 3, 4): along axis 1, index
  // 0 is all false, 1 mixed, 2 all true.
  st::array<bool, 3> mask({2, 3, 4});
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j)
      for (index_t k = 0; k < 4; ++k) mask(i, j, k) = j == 2 || (j == 1 && (i + k) % 3 == 0);
  {
    const auto e = st::detail::as_expr(mask);
    const auto bound = e.node().bind(e.shape());
    const auto any_e = sd::cuda_reduce::full_element<ops::any>(bound, e.shape());
    const auto all_e = sd::cuda_reduce::full_element<ops::all>(bound, e.shape());
    const auto cnt_e = sd::cuda_reduce::full_element<ops::count_nonzero>(bound, e.shape());
    std::int64_t want = 0;
    for (const bool v : mask) want += v ? 1 : 0;
    CHECK(want == 8 + 3);  // the data are as intended
    CHECK(fold<ops::any>(any_e, 0, 24));
    CHECK(!fold<ops::all>(all_e, 0, 24));
    CHECK(fold<ops::count_nonzero>(cnt_e, 0, 24) == want);
  }
  {
    // Along axes (0, 2): outputs over axis 1, segments of 2 * 4 (permuted, not unit).
    const auto e = st::detail::as_expr(mask);
    const st::extents<3> perm{1, 0, 2};
    const auto bound = e.node().bind(e.shape()).permuted(perm);
    const st::extents<3> pshape{3, 2, 4};
    const index_t len = 8;
    const sd::cuda_reduce::segment_begin begin{len};
    const auto any_e = sd::cuda_reduce::along_element<ops::any>(bound, pshape, len);
    const auto all_e = sd::cuda_reduce::along_element<ops::all>(bound, pshape, len);
    const auto cnt_e = sd::cuda_reduce::along_element<ops::count_nonzero>(bound, pshape, len);
    const sd::cuda_reduce::finish_fn<bool, sd::op_finish<ops::any, bool>> any_f{{}, len};
    const sd::cuda_reduce::finish_fn<bool, sd::op_finish<ops::all, bool>> all_f{{}, len};
    const sd::cuda_reduce::finish_fn<std::int64_t, sd::op_finish<ops::count_nonzero, bool>> cnt_f{{}, len};
    for (index_t j = 0; j < 3; ++j) {
      CAPTURE(j);
      std::int64_t c = 0;
      for (index_t i = 0; i < 2; ++i)
        for (index_t k = 0; k < 4; ++k) c += mask(i, j, k) ? 1 : 0;
      CHECK(any_f(fold<ops::any>(any_e, begin(j), len)) == (c > 0));
      CHECK(all_f(fold<ops::all>(all_e, begin(j), len)) == (c == len));
      CHECK(cnt_f(fold<ops::count_nonzero>(cnt_e, begin(j), len)) == c);
    }
    CHECK(any_f(fold<ops::any>(any_e, begin(0), len)) == false);
    CHECK(all_f(fold<ops::all>(all_e, begin(2), len)) == true);
  }
  // var (full and along axes (0, 2), ddof 0 and 1) and norm (ord 1, 2,
  // INFINITY along axes (0, 2)) of a float (2, 3, 4), against two-pass
  // double references.
  st::array<float, 3> x({2, 3, 4});
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j)
      for (index_t k = 0; k < 4; ++k) x(i, j, k) = static_cast<float>(((i * 12 + j * 4 + k) * 13) % 17 - 8) / 4.f;
  {
    const auto e = st::detail::as_expr(x);
    const auto bound = e.node().bind(e.shape());
    const auto velem = sd::cuda_reduce::full_element<ops::variance<false>>(bound, e.shape());
    const auto m = fold<ops::variance<false>>(velem, 0, 24);
    double mean = 0, d2 = 0;
    for (const float v : x) mean += static_cast<double>(v) / 24;
    for (const float v : x) d2 += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
    CHECK(close(sd::finish_variance<false>(m, 0), d2 / 24));
    CHECK(close(sd::finish_variance<false>(m, 1), d2 / 23));
  }
  {
    const auto e = st::detail::as_expr(x);
    const st::extents<3> perm{1, 0, 2};
    const auto bound = e.node().bind(e.shape()).permuted(perm);
    const st::extents<3> pshape{3, 2, 4};
    const index_t len = 8;
    const sd::cuda_reduce::segment_begin begin{len};
    const auto velem = sd::cuda_reduce::along_element<ops::variance<false>>(bound, pshape, len);
    const sd::cuda_reduce::finish_fn<float, sd::variance_finish<false, float>> v0{{0}, len};
    const sd::cuda_reduce::finish_fn<float, sd::variance_finish<false, float>> v1{{1}, len};
    // norm: what norm_along hands the reducer, the squares / |x| in float,
    // with its finish (square root for ord 2).
    const auto sq = st::detail::as_expr(st::square(st::cast<float>(x)));
    const auto sqb = sq.node().bind(sq.shape()).permuted(perm);
    const auto ab = st::detail::as_expr(st::abs(st::cast<float>(x)));
    const auto abb = ab.node().bind(ab.shape()).permuted(perm);
    const auto l2e = sd::cuda_reduce::along_element<ops::sum>(sqb, pshape, len);
    const auto l1e = sd::cuda_reduce::along_element<ops::sum>(abb, pshape, len);
    const auto lie = sd::cuda_reduce::along_element<ops::max>(abb, pshape, len);
    const sd::cuda_reduce::finish_fn<float, sd::norm_finish<float, true>> l2f{{}, len};
    const sd::cuda_reduce::finish_fn<float, sd::norm_finish<float, false>> l1f{{}, len};
    static_assert(std::is_trivially_copyable_v<sd::cuda_reduce::finish_fn<float, sd::norm_finish<float, true>>>);
    const auto host_l2 = st::norm(x, 2, st::axes(0, 2));
    for (index_t j = 0; j < 3; ++j) {
      CAPTURE(j);
      double mean = 0, d2 = 0, s1 = 0, s2 = 0, mx = 0;
      for (index_t i = 0; i < 2; ++i)
        for (index_t k = 0; k < 4; ++k) mean += static_cast<double>(x(i, j, k)) / 8;
      for (index_t i = 0; i < 2; ++i)
        for (index_t k = 0; k < 4; ++k) {
          const double v = static_cast<double>(x(i, j, k));
          d2 += (v - mean) * (v - mean);
          s1 += std::abs(v);
          s2 += v * v;
          mx = std::max(mx, std::abs(v));
        }
      const auto acc = fold<ops::variance<false>>(velem, begin(j), len);
      CHECK(close(v0(acc), d2 / 8));
      CHECK(close(v1(acc), d2 / 7));
      CHECK(close(l2f(fold<ops::sum>(l2e, begin(j), len)), std::sqrt(s2)));
      // Equal to the host's, bitwise: squares of multiples of 1/4 sum exactly in float.
      CHECK(l2f(fold<ops::sum>(l2e, begin(j), len)) == host_l2(j));
      CHECK(close(l1f(fold<ops::sum>(l1e, begin(j), len)), s1));
      CHECK(static_cast<double>(l1f(fold<ops::max>(lie, begin(j), len))) == mx);
    }
  }
}

TEST_CASE("cuda reduce: empty inputs are decided before any device call") {
  using namespace test_cuda_reduce;
  const st::array<float, 1, st::cuda> empty;  // allocates nothing
  CHECK_THROWS_AS((void)st::min(empty), st::value_error);
  CHECK_THROWS_AS((void)st::max(empty * 2.f), st::value_error);
  CHECK_THROWS_AS((void)st::argmin(empty), st::value_error);
  CHECK_THROWS_AS((void)st::argmax(empty + empty), st::value_error);
  CHECK(st::sum(empty) == 0.f);
  CHECK(st::prod(empty) == 1.f);
  CHECK(st::count_nonzero(empty) == 0);
  CHECK(!st::any(empty));
  CHECK(st::all(empty));
  CHECK(std::isnan(st::mean(empty)));
  CHECK(st::norm(empty) == 0.f);
  CHECK(st::norm(empty, 1) == 0.f);
  CHECK_THROWS_AS((void)st::norm(empty, INFINITY), st::value_error);  // as numpy: max of nothing
  // Along an empty axis: min has no identity, refused before the result is allocated.
  const st::array<float, 2, st::cuda> z({3, 0});
  try {
    (void)st::min(z, st::axis(1));
    FAIL("min along an empty axis succeeded");
  } catch (const st::value_error& err) {
    CHECK(std::string(err.what()).find("min") != std::string::npos);
    CHECK(std::string(err.what()).find("(3, 0)") != std::string::npos);
  }
  // No outputs at all: nothing is reduced, nothing is allocated.
  CHECK(st::max(z, st::axis(0)).size() == 0);
  if (!st::cuda_available()) {
    // A reduction that needs the device says why there is none.
    CHECK_THROWS_AS((void)st::sum(z, st::axis(1)), st::device_error);
  }
}

// ---- device -----------------------------------------------------------------

TEST_CASE("cuda reduce: full reductions match the host reducers") {
  using namespace test_cuda_reduce;
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  const index_t n = 1000003;
  const st::array<float, 1> ha = st::linspace<float>(-3.f, 3.f, n);
  const st::array<float, 1> hb = st::cos(st::arange<float>(n) * 1e-3f);
  const auto a = st::to<st::cuda>(ha);
  const auto b = st::to<st::cuda>(hb);
  CHECK(close(st::sum(st::exp(a + b) * 2.f), st::sum(st::exp(ha + hb) * 2.f), 1e-4));
  CHECK(close(st::mean(a * b), st::mean(ha * hb), 1e-4));
  CHECK(close(st::var(b), st::var(hb), 1e-4));
  CHECK(close(st::std(b, 1), st::std(hb, 1), 1e-4));
  CHECK(st::min(a - b) == st::min(ha - hb));
  CHECK(st::max(a * b) == st::max(ha * hb));
  CHECK(st::argmin(b) == st::argmin(hb));
  CHECK(st::argmax(a * b) == st::argmax(ha * hb));
  CHECK(st::count_nonzero(a > b) == st::count_nonzero(ha > hb));
  CHECK(st::any(a > 2.9f));
  CHECK(!st::all(a > 0.f));
  CHECK(close(st::dot(a, b), st::dot(ha, hb), 1e-4));
  CHECK(close(st::norm(a), st::norm(ha), 1e-5));
  CHECK(close(st::norm(a, 1), st::norm(ha, 1), 1e-5));
  CHECK(st::norm(a, INFINITY) == st::norm(ha, INFINITY));
  // Integers accumulate in 64 bits, exactly.
  const st::array<int, 1> hi = st::arange<int>(n);
  const auto di = st::to<st::cuda>(hi);
  CHECK(st::sum(di) == st::sum(hi));
  CHECK(st::sum(di * di) == st::sum(hi * hi));
  // NaN propagates, and argmax finds the first one.
  st::array<float, 1> hn = ha;
  hn(7) = NAN;
  hn(9) = NAN;
  const auto dn = st::to<st::cuda>(hn);
  CHECK(std::isnan(st::max(dn)));
  CHECK(st::argmax(dn) == 7);
  // Strided and broadcast operands (the multi-index path).
  const st::array<float, 2> hm = st::reshape(st::arange<float>(300 * 301), {300, 301}) * 1e-4f;
  const auto dm = st::to<st::cuda>(hm);
  CHECK(close(st::sum(st::transpose(dm) + b(st::slice(0, 300))), st::sum(st::transpose(hm) + hb(st::slice(0, 300))), 1e-4));
  CHECK(st::argmin(dm(st::slice(1, st::none, 2), st::all) - 1.f) == st::argmin(hm(st::slice(1, st::none, 2), st::all) - 1.f));
  // Run-to-run deterministic on one device.
  const float s1 = st::sum(st::exp(a + b) * 2.f);
  const float s2 = st::sum(st::exp(a + b) * 2.f);
  CHECK(s1 == s2);
  // On the array's own stream.
  cudaStream_t s{};
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  {
    const auto as = st::to<st::cuda>(ha, st::cuda{0, s});
    CHECK(close(st::sum(as), st::sum(ha), 1e-4));
    CHECK(st::argmax(as) == n - 1);
  }
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
}

TEST_CASE("cuda reduce: axis reductions match the host reducers") {
  using namespace test_cuda_reduce;
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  const st::array<float, 3> hx = st::sin(st::reshape(st::arange<float>(17 * 33 * 65), {17, 33, 65}) * 0.01f);
  const auto x = st::to<st::cuda>(hx);
  auto near = [](const auto& dev, const auto& host, double rel) {
    const auto h = st::to<st::host>(dev);
    REQUIRE(h.shape() == host.shape());
    auto r = host.begin();
    for (const auto& v : h) {
      const double want = static_cast<double>(*r++);
      if (!close(static_cast<double>(v), want, rel)) return false;
    }
    return true;
  };
  CHECK(near(st::sum(x, st::axis(2)), st::sum(hx, st::axis(2)), 1e-5));
  CHECK(near(st::sum(x * 2.f, st::axes(0, 2)), st::sum(hx * 2.f, st::axes(0, 2)), 1e-5));
  CHECK(near(st::mean(x, st::axis(0), st::keepdims), st::mean(hx, st::axis(0), st::keepdims), 1e-5));
  CHECK(near(st::var(x, st::axis(1)), st::var(hx, st::axis(1)), 1e-4));
  CHECK(near(st::std(x, st::axes(1, 2), 1), st::std(hx, st::axes(1, 2), 1), 1e-4));
  CHECK(near(st::min(x, st::axis(1)), st::min(hx, st::axis(1)), 0));
  CHECK(near(st::max(x + 1.f, st::axis(2)), st::max(hx + 1.f, st::axis(2)), 0));
  CHECK(near(st::argmin(x, st::axis(0)), st::argmin(hx, st::axis(0)), 0));
  CHECK(near(st::argmax(x, st::axis(2)), st::argmax(hx, st::axis(2)), 0));
  CHECK(near(st::count_nonzero(x > 0.5f, st::axis(1)), st::count_nonzero(hx > 0.5f, st::axis(1)), 0));
  CHECK(near(st::any(x > 0.99f, st::axis(2)), st::any(hx > 0.99f, st::axis(2)), 0));
  CHECK(near(st::all(x > -0.99f, st::axis(0)), st::all(hx > -0.99f, st::axis(0)), 0));
  // The result is a cuda array, usable in further expressions.
  const st::array<float, 3, st::cuda> centred = x - st::mean(x, st::axis(2), st::keepdims);
  CHECK(near(centred, st::eval(hx - st::mean(hx, st::axis(2), st::keepdims)), 1e-4));
  CHECK(near(st::norm(x, 2, st::axis(2)), st::norm(hx, 2, st::axis(2)), 1e-5));
  CHECK(near(st::norm(x, 1, st::axes(0, 2), st::keepdims), st::norm(hx, 1, st::axes(0, 2), st::keepdims), 1e-5));
  CHECK(near(st::norm(x, INFINITY, st::axis(0)), st::norm(hx, INFINITY, st::axis(0)), 0));
  // Empty segments give the identity.
  const st::array<float, 2, st::cuda> z({3, 0});
  CHECK(near(st::sum(z, st::axis(1)), st::array<float, 1>(st::zeros<float>({3})), 0));
  CHECK(near(st::norm(z, 2, st::axis(1)), st::array<float, 1>(st::zeros<float>({3})), 0));
  CHECK_THROWS_AS((void)st::norm(z, INFINITY, st::axis(1)), st::value_error);
}

TEST_CASE("cuda reduce: CUB's scratch is not counted as an array allocation") {
  using namespace test_cuda_reduce;
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  const st::array<float, 1> ha = st::linspace<float>(-1.f, 1.f, 100003);
  const auto a = st::to<st::cuda>(ha);
  const st::array<float, 2> hm = st::reshape(st::arange<float>(300 * 301), {300, 301});
  const auto m = st::to<st::cuda>(hm);
  {
    st::trace_scope t;
    (void)st::sum(st::exp(a) * 2.f);
    (void)st::argmax(a);
    (void)st::norm(a);
    CHECK(t.passes().size() == 3);
    CHECK(t.allocations() == 0);
  }
  {
    st::trace_scope t;
    const auto r = st::sum(m, st::axis(1));
    CHECK(t.passes().size() == 1);
    CHECK(t.allocations() == 1);  // the result array only
    CHECK(r.size() == 300);
  }
}

// Every host route of the planner (policy/host/plan.hpp, docs/design.md
// "Host routes"): an expression and layout that must take it, checked
// through the trace (the route's name first; par: "2 threads" and its
// chunks), and its values against a double-precision scalar loop on random
// data. Sizes are odd and above 2 * par_grain, so that par with two threads
// really splits; views start inside their buffers. The inline routes, which
// the trace turns off, are checked through plan_assign's answer (the
// predicates assign asks) and by values.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <sinter/sinter.hpp>
#include <string>
#include <vector>

#include "support/row_paths.hpp"
#include "support/streaming.hpp"

namespace st = sinter;
using st::detail::route;
using sinter_test::close;
using sinter_test::random_values;

namespace routes_test {

constexpr st::index_t n1 = 2 * st::detail::par_grain + 37;  // 1-D, odd
constexpr st::index_t rows = 257, cols = 263;                 // 2-D, above 2 * par_grain, rows of 1052 bytes

/// Two threads for par for one scope.
struct two_threads {
  int saved = st::get_num_threads();
  two_threads() { st::set_num_threads(2); }
  ~two_threads() { st::set_num_threads(saved); }
  two_threads(const two_threads&) = delete;
  two_threads& operator=(const two_threads&) = delete;
};

/// A 1-D array of n values from `v`.
template <class P>
st::array<float, 1, P> vec_of(const std::vector<float>& v) {
  st::array<float, 1, P> a({static_cast<st::index_t>(v.size())});
  for (std::size_t i = 0; i < v.size(); ++i) a(static_cast<st::index_t>(i)) = v[i];
  return a;
}

/// An r x c array of values from `v` (row-major).
template <class P>
st::array<float, 2, P> mat_of(const std::vector<float>& v, st::index_t r, st::index_t c) {
  st::array<float, 2, P> a({r, c});
  for (st::index_t i = 0; i < r; ++i)
    for (st::index_t j = 0; j < c; ++j) a(i, j) = v[static_cast<std::size_t>(i * c + j)];
  return a;
}

/// Checks the trace of `t`'s one pass: route r's name, then for par two
/// threads and its chunks, then `note`.
template <class P>
void check_route(const st::trace_scope& t, route r, const std::string& note = "") {
  const std::string detail = sinter_test::only_pass(t);
  const std::string name = st::detail::route_name(r);
  if constexpr (std::is_same_v<P, st::host>) {
    // A maths pass of a build with run-time ISA dispatch ends with its
    // level (policy/host/dispatch.hpp): ", maths avx512 (dispatched)".
    const bool maths = detail.size() > (name + note).size() && detail.compare((name + note).size(), 8, ", maths ") == 0;
    CHECK_MESSAGE((detail == name + note || (detail.rfind(name + note, 0) == 0 && maths)), detail);
  } else {
    CHECK_MESSAGE(detail.rfind(name + " 2 threads, ", 0) == 0, detail);
    CHECK_MESSAGE(detail.find(" chunks" + note) != std::string::npos, detail);
  }
}

std::size_t u(st::index_t i) { return static_cast<std::size_t>(i); }

}  // namespace routes_test


TEST_CASE_TEMPLATE("routes: contiguous, streaming or not, and empty", P, st::host, st::par) {
  using namespace routes_test;
  const two_threads threads;
  const auto va = random_values<float>(u(n1), 1), vb = random_values<float>(u(n1), 2);
  const auto a = vec_of<P>(va), b = vec_of<P>(vb);
  for (const bool stream : {false, true}) {
    const sinter_test::streaming_scope s(stream);
    st::array<float, 1, P> out({n1});
    {
      st::trace_scope t;
      out = a * 2.f + b;
      check_route<P>(t, stream ? route::contiguous_streaming : route::contiguous);
    }
    st::index_t bad = 0;
    for (st::index_t i = 0; i < n1; ++i)
      if (!close<float>(out(i), 2.0 * va[u(i)] + vb[u(i)])) ++bad;
    CHECK_MESSAGE(bad == 0, bad << " wrong, stream " << stream);
  }
  st::array<float, 2, P> none({0, 5}), in({0, 5});
  st::trace_scope t;
  none = in * 2.f;
  const std::string detail = sinter_test::only_pass(t);
  CHECK_MESSAGE(detail.rfind("empty", 0) == 0, detail);
}

TEST_CASE_TEMPLATE("routes: step 2, streaming or not", P, st::host, st::par) {
  using namespace routes_test;
  const two_threads threads;
  const auto va = random_values<float>(u(2 * n1 + 1), 3), vb = random_values<float>(u(2 * n1 + 1), 4);
  const auto a = vec_of<P>(va), b = vec_of<P>(vb);
  for (const bool stream : {false, true}) {
    const sinter_test::streaming_scope s(stream);
    st::array<float, 1, P> buf({n1 + 2});
    buf = -5.f;
    auto out = buf(st::slice(1, n1 + 1));
    {
      st::trace_scope t;
      out = a(st::slice(1, st::end, 2)) * 2.f + b(st::slice(0, 2 * n1, 2));
      check_route<P>(t, stream ? route::step2_streaming : route::step2);
    }
    st::index_t bad = buf(0) != -5.f || buf(n1 + 1) != -5.f;
    for (st::index_t i = 0; i < n1; ++i)
      if (!close<float>(buf(i + 1), 2.0 * va[u(2 * i + 1)] + vb[u(2 * i)])) ++bad;
    CHECK_MESSAGE(bad == 0, bad << " wrong, stream " << stream);
  }
}

TEST_CASE_TEMPLATE("routes: step 1, buffered, generator rows", P, st::host, st::par) {
  using namespace routes_test;
  const two_threads threads;
  const auto vm = random_values<float>(u(rows * (cols + 3)), 5), vt = random_values<float>(u(rows * cols), 6);
  const auto vr = random_values<float>(u(cols), 7);
  const auto m = mat_of<P>(vm, rows, cols + 3), mt = mat_of<P>(vt, cols, rows);
  const auto row = vec_of<P>(vr);
  const auto mv = [&](st::index_t i, st::index_t j) { return static_cast<double>(vm[u(i * (cols + 3) + j + 1)]); };
  const auto tv = [&](st::index_t i, st::index_t j) { return static_cast<double>(vt[u(j * rows + i)]); };
  struct case_t {
    const char* what;
    bool stream;
    route r;
    std::function<void(st::array<float, 2, P>&)> run;
    std::function<double(st::index_t, st::index_t)> want;
  };
  const auto block = m(st::all, st::slice(1, cols + 1));  // rows at stride 1, not adjacent
  const std::vector<case_t> cases = {
      {"row broadcast", false, route::step1, [&](auto& o) { o = block * 0.5f + row; },
       [&](st::index_t i, st::index_t j) { return 0.5 * mv(i, j) + vr[u(j)]; }},
      {"transpose", false, route::buffered, [&](auto& o) { o = st::transpose(mt) * 2.f + block; },
       [&](st::index_t i, st::index_t j) { return 2 * tv(i, j) + mv(i, j); }},
      {"transpose", true, route::buffered_streaming, [&](auto& o) { o = st::transpose(mt) * 2.f + block; },
       [&](st::index_t i, st::index_t j) { return 2 * tv(i, j) + mv(i, j); }},
      {"arange + transpose", false, route::generator_rows,
       [&](auto& o) { o = st::arange<float>(cols) * 0.25f + st::transpose(mt); },
       [&](st::index_t i, st::index_t j) { return 0.25 * static_cast<double>(j) + tv(i, j); }},
      {"arange + transpose", true, route::generator_rows_streaming,
       [&](auto& o) { o = st::arange<float>(cols) * 0.25f + st::transpose(mt); },
       [&](st::index_t i, st::index_t j) { return 0.25 * static_cast<double>(j) + tv(i, j); }},
  };
  for (const auto& c : cases) {
    CAPTURE(c.what);
    CAPTURE(c.stream);
    const sinter_test::streaming_scope s(c.stream);
    st::array<float, 2, P> out({rows, cols});
    {
      st::trace_scope t;
      c.run(out);
      check_route<P>(t, c.r);
    }
    st::index_t bad = 0;
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j)
        if (!close<float>(out(i, j), c.want(i, j))) ++bad;
    CHECK_MESSAGE(bad == 0, bad << " wrong");
  }
}

TEST_CASE_TEMPLATE("routes: a strided output takes the buffered or generator route", P, st::host, st::par) {
  using namespace routes_test;
  const two_threads threads;
  const auto vm = random_values<float>(u(rows * cols), 8);
  const auto m = mat_of<P>(vm, rows, cols);
  for (const bool gen : {false, true}) {
    st::array<float, 2, P> buf({rows, 2 * cols + 1});
    buf = -5.f;
    auto out = buf(st::all, st::slice(1, 2 * cols + 1, 2));
    {
      st::trace_scope t;
      if (gen) out = st::arange<float>(cols) - m;
      else out = m * 3.f;
      check_route<P>(t, gen ? route::generator_rows : route::buffered);
    }
    st::index_t bad = 0;
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j <= 2 * cols; ++j) {
        const double x = vm[u(i * cols + (j - 1) / 2)];
        const double want = j % 2 == 0 ? -5.0 : gen ? static_cast<double>((j - 1) / 2) - x : 3 * x;
        if (!close<float>(buf(i, j), want)) ++bad;
      }
    CHECK_MESSAGE(bad == 0, bad << " wrong, generator " << gen);
  }
}

TEST_CASE_TEMPLATE("routes: shared-subexpression tiles and twins merged", P, st::host, st::par) {
  using namespace routes_test;
  const two_threads threads;
  auto va = random_values<float>(u(n1), 9), vb = random_values<float>(u(n1), 10);
  for (auto& x : va) x = std::abs(x) + 0.5f;
  const auto a = vec_of<P>(va), b = vec_of<P>(vb);
  for (const bool stream : {false, true}) {
    const sinter_test::streaming_scope s(stream);
    st::array<float, 1, P> out({n1}), sq({n1});
    {
      st::trace_scope t;
      out = st::exp(st::log(a) * 0.5f) + st::exp(st::log(a) * 0.5f) * 2.f;
      check_route<P>(t, stream ? route::shared_tiles_streaming : route::shared_tiles, st::detail::shared_note);
    }
    {
      st::trace_scope t;
      sq = (a - b) * (a - b) + 1.f;
      check_route<P>(t, stream ? route::contiguous_streaming : route::contiguous, st::detail::twins_merged_note);
    }
    st::index_t bad = 0;
    for (st::index_t i = 0; i < n1; ++i) {
      const double x = va[u(i)], d = x - vb[u(i)];
      if (!close<float>(out(i), 3 * std::sqrt(x))) ++bad;
      if (!close<float>(sq(i), d * d + 1)) ++bad;
    }
    CHECK_MESSAGE(bad == 0, bad << " wrong, stream " << stream);
  }
}

TEST_CASE_TEMPLATE("routes: tie tiles and tie rows", P, st::host, st::par) {
  using namespace routes_test;
  const two_threads threads;
  const auto vm = random_values<float>(u(rows * cols), 11), vn = random_values<float>(u(rows * cols), 12);
  const auto m = mat_of<P>(vm, rows, cols), k = mat_of<P>(vn, rows, cols);
  for (const int layout : {0, 1, 2}) {  // contiguous, contiguous streamed, strided outputs
    const sinter_test::streaming_scope s(layout == 1);
    st::array<float, 2, P> b0({rows, cols + 2}), b1({rows, cols + 2});
    b0 = -5.f;
    b1 = -5.f;
    st::array<float, 2, P> c0({rows, cols}), c1({rows, cols});
    {
      st::trace_scope t;
      if (layout == 2) st::tie(b0(st::all, st::slice(1, cols + 1)), b1(st::all, st::slice(1, cols + 1))) =
                           std::tuple(m + k, m * k - 1.f);
      else st::tie(c0, c1) = std::tuple(m + k, m * k - 1.f);
      check_route<P>(t, layout == 0 ? route::tie_tiles : layout == 1 ? route::tie_tiles_streaming : route::tie_rows);
    }
    st::index_t bad = 0;
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j) {
        const double x = vm[u(i * cols + j)], y = vn[u(i * cols + j)];
        const float g0 = layout == 2 ? b0(i, j + 1) : c0(i, j), g1 = layout == 2 ? b1(i, j + 1) : c1(i, j);
        if (!close<float>(g0, x + y) || !close<float>(g1, x * y - 1)) ++bad;
      }
    if (layout == 2)
      for (st::index_t i = 0; i < rows; ++i)
        if (b0(i, 0) != -5.f || b1(i, cols + 1) != -5.f) ++bad;
    CHECK_MESSAGE(bad == 0, bad << " wrong, layout " << layout);
  }
}

TEST_CASE_TEMPLATE("routes: the inline routes, as plan_assign answers, and their values", P, st::host, st::par) {
  using namespace routes_test;
  const two_threads threads;
  constexpr st::index_t n = 1031, r = 37, c = 41;
  constexpr st::index_t limit = st::detail::host_threads<P>::inline_limit;
  const auto va = random_values<float>(u(2 * n + 1), 13), vb = random_values<float>(u(2 * n + 1), 14);
  const auto vm = random_values<float>(u(r * (c + 1)), 15);
  const auto a = vec_of<P>(va), b = vec_of<P>(vb);
  const auto m = mat_of<P>(vm, r, c + 1);
  const auto row = b(st::slice(0, c));
  st::array<float, 1, P> out({n});
  st::array<float, 2, P> om({r, c});
  const auto ev = a(st::slice(0, n)) * 2.f + b(st::slice(0, n));
  const auto es2 = a(st::slice(1, st::end, 2)) * 2.f + b(st::slice(0, 2 * n, 2));
  const auto er = m(st::all, st::slice(1, c + 1)) * 0.5f + row;
  const auto plan = [&](auto o, const auto& e) {
    return st::detail::plan_assign(o, e.node().bind(o.shape), 2, limit).way;
  };
  CHECK(plan(out.leaf(), ev) == route::inline_contiguous);
  CHECK(plan(out.leaf(), es2) == route::direct_step2);
  CHECK(plan(om.leaf(), er) == route::inline_rows);
  out = ev;
  st::index_t bad = 0;
  for (st::index_t i = 0; i < n; ++i)
    if (!close<float>(out(i), 2.0 * va[u(i)] + vb[u(i)])) ++bad;
  out = es2;
  for (st::index_t i = 0; i < n; ++i)
    if (!close<float>(out(i), 2.0 * va[u(2 * i + 1)] + vb[u(2 * i)])) ++bad;
  om = er;
  for (st::index_t i = 0; i < r; ++i)
    for (st::index_t j = 0; j < c; ++j)
      if (!close<float>(om(i, j), 0.5 * vm[u(i * (c + 1) + j + 1)] + vb[u(j)])) ++bad;
  CHECK_MESSAGE(bad == 0, bad << " wrong");
  // Streamed, or par above its limit: the general path's plan.
  {
    const sinter_test::streaming_scope s(true);
    CHECK(plan(out.leaf(), ev) == route::contiguous_streaming);
  }
  st::array<float, 1, P> big({n1}), x({n1});
  const auto pb = st::detail::plan_assign(big.leaf(), (x * 2.f).node().bind(big.leaf().shape), 2, limit);
  CHECK(pb.way == (std::is_same_v<P, st::host> ? route::inline_contiguous : route::contiguous));
  if constexpr (std::is_same_v<P, st::par>) CHECK(pb.threads == 2);
}

TEST_CASE_TEMPLATE("routes: lagged rows, and the temporary", P, st::host, st::par) {
  using namespace routes_test;
  const two_threads threads;
  const auto vm = random_values<float>(u(rows * cols), 16);
  {  // a stencil in place: inputs at a fixed offset along the rows
    auto m = mat_of<P>(vm, rows, cols);
    st::trace_scope t;
    m(st::slice(1, rows - 1), st::all) = (m(st::slice(0, rows - 2), st::all) + m(st::slice(2, rows), st::all)) * 0.5f;
    check_route<P>(t, route::lagged_rows);
    st::index_t bad = 0;
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j) {
        const auto at = [&](st::index_t r) { return static_cast<double>(vm[u(r * cols + j)]); };
        const double want = i == 0 || i == rows - 1 ? at(i) : 0.5 * (at(i - 1) + at(i + 1));
        if (!close<float>(m(i, j), want)) ++bad;
      }
    CHECK_MESSAGE(bad == 0, bad << " wrong");
  }
  {  // a square matrix into its own transpose: through a temporary, two passes
    constexpr st::index_t k = 257;  // k * k <= rows * cols: vm holds every value
    auto m = mat_of<P>(vm, k, k);
    st::trace_scope t;
    m = st::transpose(m) + 1.f;
    CHECK(t.passes().size() == 2);
    st::index_t bad = 0;
    for (st::index_t i = 0; i < k; ++i)
      for (st::index_t j = 0; j < k; ++j)
        if (!close<float>(m(i, j), vm[u(j * k + i)] + 1.0)) ++bad;
    CHECK_MESSAGE(bad == 0, bad << " wrong");
  }
}

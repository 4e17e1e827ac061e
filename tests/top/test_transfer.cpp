// Tests for sinter::to<P> and sinter::copy (transfer.hpp) between the host
// policies, which share host memory: one pass run by the destination's
// backend, reading the source in place.
#include <sinter/sinter.hpp>

#include <doctest/doctest.h>

#include <type_traits>

namespace st = sinter;
using st::index_t;

TEST_CASE("to<P>: host <-> par deep copies") {
  st::array<float, 2> h = st::reshape(st::arange<float>(12), {3, 4});
  {
    st::trace_scope t;
    auto p = st::to<st::par>(h);
    static_assert(std::is_same_v<decltype(p), st::array<float, 2, st::par>>);
    CHECK(t.passes().size() == 1);
    CHECK(t.allocations() == 1);
    CHECK(p.shape() == h.shape());
    CHECK(p.data() != h.data());
    for (index_t i = 0; i < 12; ++i) CHECK(p.data()[i] == static_cast<float>(i));
    // Back, from a strided par view: a contiguous host array of the view's values.
    auto back = st::to<st::host>(st::transpose(p)(st::slice(st::none, st::none, -1), st::all));
    static_assert(std::is_same_v<decltype(back), st::array<float, 2, st::host>>);
    CHECK(back.shape() == st::extents<2>{4, 3});
    for (index_t i = 0; i < 4; ++i)
      for (index_t j = 0; j < 3; ++j) CHECK(back(i, j) == h(j, 3 - i));
  }
  // Same policy: still a copy.
  auto h2 = st::to<st::host>(h);
  CHECK(h2.data() != h.data());
  h2(0, 0) = 100.f;
  CHECK(h(0, 0) == 0.f);
  // Expressions and generators are evaluated by the destination policy.
  auto e = st::to<st::par>(h * 2.f + 1.f);
  static_assert(std::is_same_v<decltype(e), st::array<float, 2, st::par>>);
  CHECK(e.data()[11] == 23.f);
  auto g = st::to<st::par>(st::arange<int>(5));
  static_assert(std::is_same_v<decltype(g), st::array<int, 1, st::par>>);
  CHECK(g.data()[4] == 4);
  // Empty arrays.
  st::array<double, 2> z(st::extents<2>{0, 3});
  CHECK(st::to<st::par>(z).shape() == st::extents<2>{0, 3});
}

TEST_CASE("copy: into arrays and views, across host policies, with shape checks") {
  st::array<float, 2, st::par> p = st::zeros<float>({3, 4}, st::par{});
  const st::array<float, 2> h = st::reshape(st::arange<float>(12), {3, 4});
  st::copy(p, h);
  for (index_t i = 0; i < 12; ++i) CHECK(p.data()[i] == static_cast<float>(i));
  // Into a view, broadcasting a row, converting int to float.
  const st::array<int, 1> row = st::arange<int>(10, 14);
  st::copy(p(st::slice(1, 3), st::all), row);
  CHECK(p(0, 3) == 3.f);
  CHECK(p(1, 0) == 10.f);
  CHECK(p(2, 3) == 13.f);
  // A scalar.
  st::copy(p(st::all, 0), 5.f);
  CHECK(p(2, 0) == 5.f);
  // The destination keeps its shape: no silent resize (unlike operator=).
  CHECK_THROWS_AS(st::copy(p, st::zeros<float>({4, 3})), st::shape_error);
  CHECK_THROWS_AS(st::copy(p(0, st::all), h(st::all, 0)), st::shape_error);
  // Copy to a host array from a par expression, and aliasing handled as in assignment.
  st::array<float, 2> out({3, 4});
  st::copy(out, p * 0.f + 1.f);
  CHECK(out(2, 3) == 1.f);
  st::array<float, 1> a = st::arange<float>(6);
  st::copy(a, a(st::slice(st::none, st::none, -1)));
  for (index_t i = 0; i < 6; ++i) CHECK(a(i) == static_cast<float>(5 - i));
}

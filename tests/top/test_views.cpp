// Tests for views (view.hpp, slice.hpp) and the view functions (view_ops.hpp):
// reshape, ravel, transpose, permute, broadcast_to, squeeze, expand_dims on
// arrays, views and arange generators; Python slicing against a plain
// reference; assignment through views; element access and index errors.
// Expected values are computed here from the source's row-major data with
// plain index arithmetic, never through the library's layout code.
#include <sinter/sinter.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace st = sinter;
using st::index_t;

namespace {

/// Calls f(idx) for every multi-index of `shape` in row-major order.
template <std::size_t R, class F>
void for_each_index(const st::extents<R>& shape, F f) {
  for (index_t e : shape)
    if (e == 0) return;
  st::extents<R> idx{};
  while (true) {
    f(idx);
    std::size_t d = R;
    while (d > 0) {
      --d;
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
      if (d == 0) return;
    }
    if constexpr (R == 0) return;
  }
}

/// Row-major linear position of idx in shape.
template <std::size_t R>
index_t linear(const st::extents<R>& idx, const st::extents<R>& shape) {
  index_t p = 0;
  for (std::size_t d = 0; d < R; ++d) p = p * shape[d] + idx[d];
  return p;
}

/// An array of the given shape filled with random floats.
template <std::size_t R, class P = st::host>
st::array<float, R, P> random_array(const st::extents<R>& shape, unsigned seed) {
  st::array<float, R, P> a(shape);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-10.f, 10.f);
  for (float& v : a) v = u(gen);
  return a;
}

/// Element idx of a view, through its pointer and strides.
template <class T, std::size_t R, class P>
T& at(const st::view<T, R, P>& v, const st::extents<R>& idx) {
  index_t off = 0;
  for (std::size_t d = 0; d < R; ++d) off += idx[d] * v.strides()[d];
  return v.data()[off];
}

/// Checks that x (view or expression) has `shape` and that element idx equals
/// expect(idx), reading x both through evaluation and through iteration.
template <class X, std::size_t R, class F>
void check_values(const X& x, const st::extents<R>& shape, F expect) {
  REQUIRE(x.shape() == shape);
  const auto e = st::eval(x);  // one pass over the layout
  REQUIRE(e.shape() == shape);
  const auto* p = e.data();
  for_each_index(shape, [&](const st::extents<R>& idx) {
    CHECK(p[linear(idx, shape)] == expect(idx));
  });
  if constexpr (requires { x.data(); x.strides(); }) {
    // A view: also element access through pointer/strides and iteration.
    for_each_index(shape, [&](const st::extents<R>& idx) { CHECK(at(x, idx) == expect(idx)); });
    index_t k = 0;
    for (auto v : x) {
      CHECK(v == p[k]);
      ++k;
    }
    CHECK(k == st::detail::shape_size(shape));
  }
}

template <std::size_t R>
std::string what_of(const st::extents<R>& s) {
  return st::detail::shape_string(s);
}

}  // namespace

// ---- reshape / ravel -------------------------------------------------------

TEST_CASE("reshape: an array, every target shape, values in row-major order") {
  const auto a = random_array<2>({3, 4}, 1);
  const float* src = a.data();
  auto flat = [&](index_t i) { return src[i]; };

  check_values(st::reshape(a, {2, 6}), st::extents<2>{2, 6},
               [&](const st::extents<2>& i) { return flat(i[0] * 6 + i[1]); });
  check_values(st::reshape(a, {-1, 3}), st::extents<2>{4, 3},
               [&](const st::extents<2>& i) { return flat(i[0] * 3 + i[1]); });
  check_values(st::reshape(a, {12}), st::extents<1>{12},
               [&](const st::extents<1>& i) { return flat(i[0]); });
  check_values(st::reshape(a, {2, -1, 3}), st::extents<3>{2, 2, 3},
               [&](const st::extents<3>& i) { return flat(i[0] * 6 + i[1] * 3 + i[2]); });
  check_values(st::reshape(a, {1, 12, 1}), st::extents<3>{1, 12, 1},
               [&](const st::extents<3>& i) { return flat(i[1]); });
  check_values(st::reshape(a, st::extents<2>{6, 2}), st::extents<2>{6, 2},
               [&](const st::extents<2>& i) { return flat(i[0] * 2 + i[1]); });
  check_values(st::ravel(a), st::extents<1>{12}, [&](const st::extents<1>& i) { return flat(i[0]); });

  // A view of a const array is a view of const elements; of a mutable one, mutable.
  static_assert(std::is_same_v<decltype(st::reshape(a, {12})), st::view<const float, 1>>);
  auto b = random_array<2>({3, 4}, 2);
  static_assert(std::is_same_v<decltype(st::reshape(b, {12})), st::view<float, 1>>);
  CHECK(st::reshape(b, {12}).data() == b.data());  // no copy
}

TEST_CASE("reshape: zero and one extents, rank 0") {
  const auto z = random_array<2>({0, 3}, 3);
  CHECK(st::reshape(z, {3, 0}).shape() == st::extents<2>{3, 0});
  CHECK(st::reshape(z, {-1}).shape() == st::extents<1>{0});
  // -1 next to a 0 extent is ambiguous; numpy: "cannot reshape array of size 0 into shape (0,newaxis)"
  CHECK_THROWS_AS(st::reshape(z, {0, -1}), st::shape_error);
  CHECK_THROWS_AS(st::reshape(z, {5, -1, 0}), st::shape_error);

  const auto one = random_array<1>({1}, 4);
  auto r0 = st::reshape(one, st::extents<0>{});
  static_assert(decltype(r0)::rank == 0);
  CHECK(r0() == one(0));
  check_values(st::reshape(one, {1, 1, -1}), st::extents<3>{1, 1, 1},
               [&](const st::extents<3>&) { return one(0); });
}

TEST_CASE("reshape: errors") {
  const auto a = random_array<2>({3, 4}, 5);
  try {
    (void)st::reshape(a, {5, 3});
    FAIL("no shape_error");
  } catch (const st::shape_error& e) {
    const std::string m = e.what();
    CHECK(m.find("(3, 4)") != std::string::npos);
    CHECK(m.find("(5, 3)") != std::string::npos);
  }
  CHECK_THROWS_AS(st::reshape(a, {-1, 5}), st::shape_error);
  CHECK_THROWS_AS(st::reshape(a, {-1, -1}), st::value_error);
  CHECK_THROWS_AS(st::reshape(a, {-2, -6}), st::value_error);

  // Not contiguous: a transpose, a stepped slice, a reversed view.
  try {
    (void)st::reshape(st::transpose(a), {12});
    FAIL("no value_error");
  } catch (const st::value_error& e) {
    const std::string m = e.what();
    CHECK(m.find("not contiguous") != std::string::npos);
    CHECK(m.find("sinter::eval") != std::string::npos);
  }
  CHECK_THROWS_AS(st::reshape(a(st::all, st::slice(0, 4, 2)), {6}), st::value_error);
  CHECK_THROWS_AS(st::reshape(a(st::slice(st::none, st::none, -1), st::all), {12}), st::value_error);
  CHECK_THROWS_AS(st::ravel(st::transpose(a)), st::value_error);
  // ... but the copy the message asks for works.
  check_values(st::reshape(st::eval(st::transpose(a)), {12}), st::extents<1>{12},
               [&](const st::extents<1>& i) { return a(i[0] % 3, i[0] / 3); });
}

TEST_CASE("reshape: contiguous views, including ones with extent-1 axes") {
  auto a = random_array<3>({4, 3, 5}, 6);
  // Rows 1..2 of a: contiguous, offset start.
  auto rows = a(st::slice(1, 3), st::all, st::all);
  check_values(st::reshape(rows, {5, 6}), st::extents<2>{5, 6}, [&](const st::extents<2>& i) {
    const index_t k = 15 + i[0] * 6 + i[1];
    return a(k / 15, (k / 5) % 3, k % 5);
  });
  // a[2:3, 1, :] has shape (1, 5) and a stride that does not matter: still contiguous.
  auto piece = a(st::slice(2, 3), 1, st::all);
  check_values(st::reshape(piece, {5}), st::extents<1>{5},
               [&](const st::extents<1>& i) { return a(2, 1, i[0]); });
  // A newaxis (stride 0, extent 1) does not break contiguity either.
  check_values(st::reshape(a(st::newaxis, 3, st::all, st::all), {15}), st::extents<1>{15},
               [&](const st::extents<1>& i) { return a(3, i[0] / 5, i[0] % 5); });
}

TEST_CASE("reshape: assigning through the view writes the array") {
  st::array<float, 1> a = st::zeros<float>({12});
  st::reshape(a, {3, 4}) = st::reshape(st::arange<float>(12), {3, 4}) * 2.f;
  for (index_t i = 0; i < 12; ++i) CHECK(a(i) == 2.f * static_cast<float>(i));
  auto m = st::reshape(a, {3, 4});
  m(1, 2) = -1.f;
  CHECK(a(6) == -1.f);
  m(st::all, 0) = 7.f;
  CHECK(a(0) == 7.f);
  CHECK(a(4) == 7.f);
  CHECK(a(8) == 7.f);
  CHECK(a(1) == 2.f);
}

TEST_CASE("reshape: arange generators (no memory)") {
  auto g = st::reshape(st::arange<float>(12), {3, 4});
  static_assert(st::detail::is_expr_v<decltype(g)>);
  check_values(g, st::extents<2>{3, 4},
               [](const st::extents<2>& i) { return static_cast<float>(i[0] * 4 + i[1]); });
  check_values(st::reshape(st::arange<int>(2, 26, 2), {2, 3, -1}), st::extents<3>{2, 3, 2},
               [](const st::extents<3>& i) { return static_cast<int>(2 + 2 * (i[0] * 6 + i[1] * 2 + i[2])); });
  check_values(st::ravel(st::reshape(st::arange<double>(6), {2, 3})), st::extents<1>{6},
               [](const st::extents<1>& i) { return static_cast<double>(i[0]); });
  CHECK(st::reshape(st::arange<float>(0), {0, 7}).shape() == st::extents<2>{0, 7});
  CHECK_THROWS_AS(st::reshape(st::arange<float>(12), {5, -1}), st::shape_error);
  // A transposed generator is not contiguous.
  CHECK_THROWS_AS(st::reshape(st::transpose(st::reshape(st::arange<float>(12), {3, 4})), {12}),
                  st::value_error);
  // An array moved in is kept alive by the expression.
  auto owned = st::reshape(st::eval(st::arange<float>(6)), {2, 3});
  static_assert(decltype(owned)::keep_count() == 1);
  check_values(owned, st::extents<2>{2, 3},
               [](const st::extents<2>& i) { return static_cast<float>(i[0] * 3 + i[1]); });
}

// ---- transpose / permute ---------------------------------------------------

TEST_CASE("transpose: arrays, odd shapes, generators, assignment") {
  const auto a = random_array<3>({2, 3, 5}, 7);
  check_values(st::transpose(a), st::extents<3>{5, 3, 2},
               [&](const st::extents<3>& i) { return a(i[2], i[1], i[0]); });
  const auto v = random_array<1>({7}, 8);
  check_values(st::transpose(v), st::extents<1>{7}, [&](const st::extents<1>& i) { return v(i[0]); });
  for (auto shape : {st::extents<2>{0, 3}, st::extents<2>{1, 5}, st::extents<2>{4, 1}, st::extents<2>{1, 1}}) {
    CAPTURE(what_of(shape));
    const auto m = random_array<2>(shape, 9);
    check_values(st::transpose(m), st::extents<2>{shape[1], shape[0]},
                 [&](const st::extents<2>& i) { return m(i[1], i[0]); });
  }
  // Of a strided view: transpose of every other column, reversed rows.
  const auto b = random_array<2>({4, 6}, 10);
  auto s = b(st::slice(st::none, st::none, -1), st::slice(0, 6, 2));
  check_values(st::transpose(s), st::extents<2>{3, 4},
               [&](const st::extents<2>& i) { return b(3 - i[1], 2 * i[0]); });
  // Of a generator.
  check_values(st::transpose(st::reshape(st::arange<float>(12), {3, 4})), st::extents<2>{4, 3},
               [](const st::extents<2>& i) { return static_cast<float>(i[1] * 4 + i[0]); });
  // Writing through it.
  auto c = st::zeros<float>({2, 3});
  st::transpose(c) = st::reshape(st::arange<float>(6), {3, 2});
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j) CHECK(c(i, j) == static_cast<float>(j * 2 + i));
}

TEST_CASE("permute: every permutation of a rank-3 array, negative axes, errors") {
  const auto a = random_array<3>({2, 3, 4}, 11);
  const index_t perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (const auto& p : perms) {
    CAPTURE(p[0]);
    CAPTURE(p[1]);
    CAPTURE(p[2]);
    const st::extents<3> shape{a.shape()[static_cast<std::size_t>(p[0])], a.shape()[static_cast<std::size_t>(p[1])],
                               a.shape()[static_cast<std::size_t>(p[2])]};
    auto expect = [&](const st::extents<3>& i) {
      st::extents<3> src{};
      for (std::size_t d = 0; d < 3; ++d) src[static_cast<std::size_t>(p[d])] = i[d];
      return a(src[0], src[1], src[2]);
    };
    check_values(st::permute(a, {p[0], p[1], p[2]}), shape, expect);
    // The same on a generator over 0..23.
    check_values(st::permute(st::reshape(st::arange<float>(24), {2, 3, 4}), {p[0], p[1], p[2]}), shape,
                 [&](const st::extents<3>& i) {
                   st::extents<3> src{};
                   for (std::size_t d = 0; d < 3; ++d) src[static_cast<std::size_t>(p[d])] = i[d];
                   return static_cast<float>(src[0] * 12 + src[1] * 4 + src[2]);
                 });
  }
  check_values(st::permute(a, {-1, 0, -2}), st::extents<3>{4, 2, 3},
               [&](const st::extents<3>& i) { return a(i[1], i[2], i[0]); });
  CHECK_THROWS_AS(st::permute(a, {0, 0, 1}), st::value_error);
  CHECK_THROWS_AS(st::permute(a, {0, 1, 3}), st::value_error);
  CHECK_THROWS_AS(st::permute(a, {0, 1, -4}), st::value_error);
  // Zero extents permute like any other.
  const auto z = random_array<3>({2, 0, 3}, 12);
  CHECK(st::permute(z, {2, 1, 0}).shape() == st::extents<3>{3, 0, 2});
}

// ---- broadcast_to ----------------------------------------------------------

TEST_CASE("broadcast_to: read-only stretched views") {
  auto row = random_array<1>({3}, 13);
  auto b = st::broadcast_to(row, {4, 3});
  static_assert(std::is_same_v<decltype(b), st::view<const float, 2>>);
  check_values(b, st::extents<2>{4, 3}, [&](const st::extents<2>& i) { return row(i[1]); });
  CHECK(b.strides()[0] == 0);

  auto col = random_array<2>({4, 1}, 14);
  check_values(st::broadcast_to(col, {2, 4, 5}), st::extents<3>{2, 4, 5},
               [&](const st::extents<3>& i) { return col(i[1], 0); });
  // Same shape: the identity.
  check_values(st::broadcast_to(col, {4, 1}), st::extents<2>{4, 1},
               [&](const st::extents<2>& i) { return col(i[0], 0); });
  // Extent 1 stretched to 0, and a (0,) source to (2, 0).
  auto one = random_array<1>({1}, 15);
  CHECK(st::broadcast_to(one, {0}).shape() == st::extents<1>{0});
  auto none = random_array<1>({0}, 16);
  CHECK(st::broadcast_to(none, {2, 0}).shape() == st::extents<2>{2, 0});
  // Of a strided view and of a generator.
  const auto m = random_array<2>({3, 5}, 17);
  check_values(st::broadcast_to(m(1, st::slice(st::none, st::none, -2)), {2, 3}), st::extents<2>{2, 3},
               [&](const st::extents<2>& i) { return m(1, 4 - 2 * i[1]); });
  check_values(st::broadcast_to(st::arange<int>(3), {2, 3}), st::extents<2>{2, 3},
               [](const st::extents<2>& i) { return static_cast<int>(i[1]); });

  try {
    (void)st::broadcast_to(row, {2, 4});
    FAIL("no shape_error");
  } catch (const st::shape_error& e) {
    const std::string msg = e.what();
    CHECK(msg.find("(3,)") != std::string::npos);
    CHECK(msg.find("(2, 4)") != std::string::npos);
  }
  CHECK_THROWS_AS(st::broadcast_to(col, {4, 2, 2}), st::shape_error);
  CHECK_THROWS_AS(st::broadcast_to(st::arange<int>(3), {4}), st::shape_error);
}

// ---- squeeze / expand_dims -------------------------------------------------

TEST_CASE("squeeze and expand_dims") {
  const auto a = random_array<3>({3, 1, 4}, 18);
  check_values(st::squeeze<1>(a), st::extents<2>{3, 4}, [&](const st::extents<2>& i) { return a(i[0], 0, i[1]); });
  check_values(st::squeeze<-2>(a), st::extents<2>{3, 4}, [&](const st::extents<2>& i) { return a(i[0], 0, i[1]); });
  try {
    (void)st::squeeze<0>(a);
    FAIL("no value_error");
  } catch (const st::value_error& e) {
    CHECK(std::string(e.what()).find("not 1") != std::string::npos);
  }
  CHECK_THROWS_AS(st::squeeze<2>(a), st::value_error);

  // Row 2 of a matrix as a (1, n) slice, squeezed back to (n).
  auto m = random_array<2>({4, 5}, 19);
  auto r = st::squeeze<0>(m(st::slice(2, 3), st::all));
  static_assert(std::is_same_v<decltype(r), st::view<float, 1>>);
  check_values(r, st::extents<1>{5}, [&](const st::extents<1>& i) { return m(2, i[0]); });
  r = 3.f;
  CHECK(m(2, 4) == 3.f);
  CHECK(m(1, 4) != 3.f);
  // Down to rank 0.
  auto one = random_array<1>({1}, 20);
  CHECK(st::squeeze<0>(one)() == one(0));
  // A (1, 0) shape squeezes to (0).
  auto z = random_array<2>({1, 0}, 21);
  CHECK(st::squeeze<0>(z).shape() == st::extents<1>{0});

  const auto v = random_array<2>({3, 4}, 22);
  check_values(st::expand_dims<0>(v), st::extents<3>{1, 3, 4},
               [&](const st::extents<3>& i) { return v(i[1], i[2]); });
  check_values(st::expand_dims<1>(v), st::extents<3>{3, 1, 4},
               [&](const st::extents<3>& i) { return v(i[0], i[2]); });
  check_values(st::expand_dims<2>(v), st::extents<3>{3, 4, 1},
               [&](const st::extents<3>& i) { return v(i[0], i[1]); });
  check_values(st::expand_dims<-1>(v), st::extents<3>{3, 4, 1},
               [&](const st::extents<3>& i) { return v(i[0], i[1]); });
  check_values(st::expand_dims<-3>(v), st::extents<3>{1, 3, 4},
               [&](const st::extents<3>& i) { return v(i[1], i[2]); });
  // expand_dims then squeeze is the identity; both on a generator too.
  check_values(st::squeeze<1>(st::expand_dims<1>(v)), st::extents<2>{3, 4},
               [&](const st::extents<2>& i) { return v(i[0], i[1]); });
  check_values(st::expand_dims<1>(st::arange<float>(5)), st::extents<2>{5, 1},
               [](const st::extents<2>& i) { return static_cast<float>(i[0]); });
  check_values(st::squeeze<0>(st::reshape(st::arange<float>(5), {1, 5})), st::extents<1>{5},
               [](const st::extents<1>& i) { return static_cast<float>(i[0]); });
  // A column via expand_dims broadcasts against a row.
  st::array<float, 2> outer = st::expand_dims<1>(st::arange<float>(3)) * st::arange<float>(4);
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 4; ++j) CHECK(outer(i, j) == static_cast<float>(i * j));
}

// ---- Python slicing ----------------------------------------------------------

namespace {

/// Python's `list(range(n))[start:stop:step]`, written from the language
/// reference: negative bounds count from the end, then bounds are clamped,
/// then the indices are walked one by one.
std::vector<index_t> py_slice(index_t n, std::optional<index_t> start, std::optional<index_t> stop, index_t step) {
  auto adjust = [&](index_t v, index_t lo, index_t hi) {
    if (v < 0) v += n;
    return v < lo ? lo : (v > hi ? hi : v);
  };
  std::vector<index_t> out;
  if (step > 0) {
    const index_t i0 = start ? adjust(*start, 0, n) : 0;
    const index_t j = stop ? adjust(*stop, 0, n) : n;
    for (index_t i = i0; i < j; i += step) out.push_back(i);
  } else {
    const index_t i0 = start ? adjust(*start, -1, n - 1) : n - 1;
    const index_t j = stop ? adjust(*stop, -1, n - 1) : -1;
    for (index_t i = i0; i > j; i += step) out.push_back(i);
  }
  return out;
}

st::slice make_slice(std::optional<index_t> start, std::optional<index_t> stop, index_t step) {
  if (start && stop) return st::slice(*start, *stop, step);
  if (start) return st::slice(*start, st::none, step);
  if (stop) return st::slice(st::none, *stop, step);
  return st::slice(st::none, st::none, step);
}

}  // namespace

TEST_CASE("slicing: the reference agrees with Python on a few cases") {
  // Printed by CPython 3: list(range(10))[a:b:c].
  CHECK(py_slice(10, -20, std::nullopt, 3) == std::vector<index_t>{0, 3, 6, 9});
  CHECK(py_slice(10, std::nullopt, std::nullopt, -3) == std::vector<index_t>{9, 6, 3, 0});
  CHECK(py_slice(10, 8, 2, -2) == std::vector<index_t>{8, 6, 4});
  CHECK(py_slice(10, 20, -20, -4) == std::vector<index_t>{9, 5, 1});
  CHECK(py_slice(10, -3, std::nullopt, 1) == std::vector<index_t>{7, 8, 9});
  CHECK(py_slice(10, 2, 8, -1).empty());
  CHECK(py_slice(0, std::nullopt, std::nullopt, -1).empty());
}

TEST_CASE("slicing: 1-D, every start/stop/step against the reference") {
  const std::optional<index_t> bounds[] = {std::nullopt, -12, -7, -3, -1, 0, 1, 2, 3, 5, 6, 7, 12};
  const index_t steps[] = {-5, -3, -2, -1, 1, 2, 3, 7};
  for (index_t n : {0, 1, 2, 3, 7}) {
    const auto a = random_array<1>({n}, static_cast<unsigned>(30 + n));
    for (auto start : bounds)
      for (auto stop : bounds)
        for (index_t step : steps) {
          const auto ref = py_slice(n, start, stop, step);
          const auto v = a(make_slice(start, stop, step));
          CAPTURE(n);
          CAPTURE(start.value_or(999));
          CAPTURE(stop.value_or(999));
          CAPTURE(step);
          REQUIRE(v.shape()[0] == static_cast<index_t>(ref.size()));
          for (std::size_t k = 0; k < ref.size(); ++k) CHECK(v(static_cast<index_t>(k)) == a(ref[k]));
          const auto e = st::eval(v);
          for (std::size_t k = 0; k < ref.size(); ++k) CHECK(e(static_cast<index_t>(k)) == a(ref[k]));
        }
  }
  const auto a = random_array<1>({5}, 40);
  CHECK_THROWS_AS(a(st::slice(0, 5, 0)), st::value_error);
}

TEST_CASE("slicing: 2-D and 3-D, slices of slices, integers and newaxis") {
  const auto m = random_array<2>({5, 7}, 41);
  const std::optional<index_t> bounds[] = {std::nullopt, -6, -1, 0, 2, 4, 9};
  const index_t steps[] = {-2, -1, 1, 3};
  for (auto s0 : bounds)
    for (auto e0 : bounds)
      for (index_t k0 : steps) {
        const auto r0 = py_slice(5, s0, e0, k0);
        const auto r1 = py_slice(7, e0, s0, -k0);  // a different slice on axis 1
        const auto v = m(make_slice(s0, e0, k0), make_slice(e0, s0, -k0));
        REQUIRE(v.shape() == st::extents<2>{static_cast<index_t>(r0.size()), static_cast<index_t>(r1.size())});
        check_values(v, v.shape(), [&](const st::extents<2>& i) {
          return m(r0[static_cast<std::size_t>(i[0])], r1[static_cast<std::size_t>(i[1])]);
        });
        // A slice of that view: reversed again with step 2 (Python: l[a:b:c][::-2]).
        const auto w = v(st::slice(st::none, st::none, -2), st::all);
        std::vector<index_t> r00;
        for (index_t k : py_slice(static_cast<index_t>(r0.size()), std::nullopt, std::nullopt, -2))
          r00.push_back(r0[static_cast<std::size_t>(k)]);
        REQUIRE(w.shape()[0] == static_cast<index_t>(r00.size()));
        check_values(w, w.shape(), [&](const st::extents<2>& i) {
          return m(r00[static_cast<std::size_t>(i[0])], r1[static_cast<std::size_t>(i[1])]);
        });
      }
  // Integers drop an axis, negative ones count from the end; newaxis adds one.
  check_values(m(-1, st::all), st::extents<1>{7}, [&](const st::extents<1>& i) { return m(4, i[0]); });
  check_values(m(st::all, -7), st::extents<1>{5}, [&](const st::extents<1>& i) { return m(i[0], 0); });
  check_values(m(st::slice(1, -1), st::newaxis, 3), st::extents<2>{3, 1},
               [&](const st::extents<2>& i) { return m(1 + i[0], 3); });
  check_values(m(st::newaxis, st::slice(st::none, st::none, -3)), st::extents<3>{1, 2, 7},
               [&](const st::extents<3>& i) { return m(4 - 3 * i[1], i[2]); });
  CHECK(m(-2, -3) == m(3, 4));
  const auto c = random_array<3>({3, 4, 5}, 42);
  check_values(c(st::slice(st::none, st::none, -1), 2, st::slice(1, st::end, 2)), st::extents<2>{3, 2},
               [&](const st::extents<2>& i) { return c(2 - i[0], 2, 1 + 2 * i[1]); });
  check_values(c(1), st::extents<2>{4, 5}, [&](const st::extents<2>& i) { return c(1, i[0], i[1]); });
}

// ---- assignment through views ---------------------------------------------

TEST_CASE_TEMPLATE("views are assignable: the 1-D stencil has numpy's semantics", P, st::host, st::par) {
  for (index_t n : {index_t{0}, index_t{1}, index_t{2}, index_t{3}, index_t{17}, index_t{100003}}) {
    CAPTURE(n);
    auto u = random_array<1, P>({n}, static_cast<unsigned>(n));
    // numpy evaluates the right side before assigning: use a copy of u.
    std::vector<float> ref(u.begin(), u.end());
    for (index_t i = 1; i + 1 < n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      ref[k] = 0.5f * (static_cast<float>(u(i - 1)) + static_cast<float>(u(i + 1)));
    }
    u(st::slice(1, -1)) = 0.5f * (u(st::slice(0, -2)) + u(st::slice(2, st::end)));
    for (index_t i = 0; i < n; ++i) REQUIRE(u(i) == ref[static_cast<std::size_t>(i)]);
  }
}

TEST_CASE_TEMPLATE("views are assignable: strided, reversed, broadcast, compound", P, st::host, st::par) {
  auto m = random_array<2, P>({6, 9}, 50);
  const st::array<float, 2, P> orig = m;
  // Every other column of the odd rows, from a reversed view.
  const st::array<float, 2, P> src = st::reshape(st::arange<float>(15), {3, 5});
  m(st::slice(1, st::none, 2), st::slice(st::none, st::none, 2)) = src(st::slice(st::none, st::none, -1), st::all);
  for (index_t i = 0; i < 6; ++i)
    for (index_t j = 0; j < 9; ++j) {
      const float want = (i % 2 == 1 && j % 2 == 0)
                             ? static_cast<float>((2 - (i - 1) / 2) * 5 + j / 2)
                             : orig(i, j);
      CHECK(m(i, j) == want);
    }
  // A scalar fills a view; a row broadcasts into a block.
  m(st::slice(0, 2), st::all) = 1.5f;
  m(st::slice(2, 4), st::slice(st::none, st::none, -1)) = orig(0, st::all);
  m(st::all, 0) += 1.f;
  for (index_t j = 0; j < 9; ++j) {
    CHECK(m(0, j) == (j == 0 ? 2.5f : 1.5f));
    CHECK(m(3, j) == orig(0, 8 - j) + (j == 0 ? 1.f : 0.f));
  }
  CHECK_THROWS_AS((m(st::slice(0, 2), st::all) = orig(st::slice(0, 3), 0)), st::shape_error);
  // Element access writes through views.
  auto v = m(st::slice(st::none, st::none, -1), st::slice(1, 8, 3));
  v(0, 1) = -4.f;
  CHECK(m(5, 4) == -4.f);
  v(-1, -1) = -5.f;
  CHECK(m(0, 7) == -5.f);
}

// ---- element access and index errors ----------------------------------------

TEST_CASE("element access and numpy's index_error messages") {
  auto a = st::asarray<float>({1.f, 2.f, 3.f});
  CHECK(a(-1) == 3.f);
  CHECK(a(-3) == 1.f);
  a(-2) = 9.f;
  CHECK(a(1) == 9.f);
  auto expect_message = [](auto f, const std::string& want) {
    try {
      f();
      FAIL("no index_error");
    } catch (const st::index_error& e) {
      CHECK(std::string(e.what()) == want);
    }
  };
  expect_message([&] { (void)a(5); }, "index 5 is out of bounds for axis 0 with size 3");
  expect_message([&] { (void)a(3); }, "index 3 is out of bounds for axis 0 with size 3");
  expect_message([&] { (void)a(-4); }, "index -4 is out of bounds for axis 0 with size 3");
  auto m = random_array<2>({3, 4}, 60);
  expect_message([&] { (void)m(0, 7); }, "index 7 is out of bounds for axis 1 with size 4");
  expect_message([&] { (void)m(st::all, -5); }, "index -5 is out of bounds for axis 1 with size 4");
  // The axis is the source's, after a newaxis too (numpy: m[None, 0, 7]).
  expect_message([&] { (void)m(st::newaxis, 0, 7); }, "index 7 is out of bounds for axis 1 with size 4");
  expect_message([&] { (void)m(st::slice(0, 2), st::newaxis, -6); }, "index -6 is out of bounds for axis 1 with size 4");
  CHECK_THROWS_WITH_AS((void)a(st::slice(0, 3, 0)), "slice step cannot be zero", st::value_error);
  // Through a view the axis and size are the view's.
  auto v = m(st::slice(1, 3), st::all);
  expect_message([&] { (void)v(2, 0); }, "index 2 is out of bounds for axis 0 with size 2");
  auto e = random_array<1>({0}, 61);
  expect_message([&] { (void)e(0); }, "index 0 is out of bounds for axis 0 with size 0");
  // index_error is a value_error, as numpy's IndexError is caught by `except Exception`.
  CHECK_THROWS_AS((void)a(7), st::value_error);
}

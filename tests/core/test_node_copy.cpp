// copy_node (core/pack.hpp): an operator copies its operands' node trees
// into the new node field by field (map_node and each leaf's copy_fields),
// not as whole structs. Checked two ways: the copy of a tree equals the
// tree, field for field, for memory leaves of rank 1 to 3 (sliced, strided,
// broadcast, offset), generators, scalars and nested maps, and for a tree
// over SINTER_FIELD_COPY_BYTES, copied whole; and chains built from those
// operands evaluate to a double-precision scalar loop.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <sinter/sinter.hpp>
#include <type_traits>
#include <vector>

namespace st = sinter;
namespace sd = sinter::detail;

namespace {

template <std::size_t R>
bool same_extents(const st::extents<R>& a, const st::extents<R>& b) {
  for (std::size_t d = 0; d < R; ++d)
    if (a[d] != b[d]) return false;
  return true;
}

// Field-for-field equality of two nodes of the same type.
template <class N>
bool fields_equal(const N& a, const N& b);

template <class... A, std::size_t... I>
bool args_equal(const sd::pack<A...>& a, const sd::pack<A...>& b, std::index_sequence<I...>) {
  return (true && ... && fields_equal(sd::get<I>(a), sd::get<I>(b)));
}

template <class N>
bool fields_equal(const N& a, const N& b) {
  if constexpr (requires { a.ptr; }) {
    return a.ptr == b.ptr && same_extents(a.shape, b.shape) && same_extents(a.strides, b.strides);
  } else if constexpr (requires { a.gen; }) {
    return a.base == b.base && same_extents(a.shape, b.shape) && same_extents(a.strides, b.strides) &&
           a.gen(3) == b.gen(3);
  } else if constexpr (requires { a.value; }) {
    return a.value == b.value;
  } else {
    return same_extents(a.shape, b.shape) &&
           args_equal(a.args, b.args, std::make_index_sequence<sd::pack_size_v<decltype(a.args)>>{});
  }
}

template <class E>
bool copy_is_same(const E& e) {
  const auto c = sd::copy_node(e.node());
  static_assert(std::is_same_v<std::remove_const_t<decltype(c)>, typename E::node_type>);
  return fields_equal(c, e.node());
}

template <class T, std::size_t R>
st::array<T, R> random_values(const st::extents<R>& shape, unsigned seed) {
  st::array<T, R> a(shape);
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-2, 2);
  T* p = a.data();
  for (st::index_t i = 0; i < a.size(); ++i) p[i] = static_cast<T>(u(g));
  return a;
}

}  // namespace

TEST_CASE("copy_node: the copy of a tree equals it, field for field") {
  auto a1 = random_values<float, 1>({37}, 1);
  auto a2 = random_values<double, 2>({5, 7}, 2);
  auto a3 = random_values<float, 3>({3, 4, 5}, 3);
  const auto row = random_values<double, 1>({7}, 4);

  CHECK(copy_is_same(a1 + 1.5f));
  CHECK(copy_is_same(a1(st::slice(3, 30, 3)) * 2.0f - a1(st::slice(1, 10))));
  CHECK(copy_is_same(a2 * row + 0.25));                                  // broadcast row
  CHECK(copy_is_same(a2(st::slice(1, 5), st::slice(0, 7, 2)) - 1.0));    // offset, strided
  CHECK(copy_is_same(st::transpose(a2) * 3.0));                          // permuted strides
  CHECK(copy_is_same(a3(1) + a3(0, 1)));                                 // rank 3 sliced to 2 and 1
  CHECK(copy_is_same(st::arange<float>(37) * a1));                       // generator leaf
  CHECK(copy_is_same(st::tanh(a1 * 0.5f + a1) * a1 - st::sqrt(st::abs(a1))));
  CHECK(copy_is_same(st::where(a2 > 0.0, a2, -a2) + st::exp(row) * 2.0)); // three operands, nested

  // A copy that lost a field fails: the checker itself can fail.
  auto e = a1(st::slice(2, 20, 2)) + 1.0f;
  auto other = e.node();
  other.args.head.strides[0] = 1;
  CHECK_FALSE(fields_equal(other, e.node()));
}

TEST_CASE("copy_node: chains over every kind of operand evaluate like a scalar loop") {
  for (const st::index_t n : {st::index_t{0}, st::index_t{1}, st::index_t{17}, st::index_t{1031}}) {
    CAPTURE(n);
    const auto a = random_values<float, 1>({n + 3}, 10);
    const auto b = random_values<float, 1>({2 * n + 1}, 11);
    const auto av = a(st::slice(3, n + 3));         // misaligned start
    const auto bv = b(st::slice(0, 2 * n + 1, 2));  // stride 2, n + 1 elements
    st::array<float, 1> out({n});
    out = st::tanh(av * 0.5f + bv(st::slice(1, n + 1))) * st::arange<float>(n) - st::sqrt(st::abs(av)) + 0.75f;
    for (st::index_t i = 0; i < n; ++i) {
      const double x = a(i + 3), y = b(2 * (i + 1));
      const double want = std::tanh(x * 0.5 + y) * static_cast<double>(i) - std::sqrt(std::abs(x)) + 0.75;
      CHECK(out(i) == doctest::Approx(want).epsilon(1e-5).scale(1.0 + static_cast<double>(i)));
    }
  }

  const auto m = random_values<double, 2>({9, 13}, 12);
  const auto r = random_values<double, 1>({13}, 13);
  st::array<double, 2> o({9, 13});
  o = st::where(m > r, m * r, m - r) + st::exp(r * 0.5) / (1.0 + m * m);
  for (st::index_t i = 0; i < 9; ++i)
    for (st::index_t j = 0; j < 13; ++j) {
      const double x = m(i, j), y = r(j);
      const double want = (x > y ? x * y : x - y) + std::exp(y * 0.5) / (1.0 + x * x);
      CHECK(o(i, j) == doctest::Approx(want).epsilon(1e-12));
    }
}

namespace {
// One step of node_copy_growth: the operand appears three times, so the
// tree triples in size.
template <class X, class B>
auto node_copy_step(const X& x, const B& b) {
  return st::where(x > 0.f, x, x * b) + 0.25f;
}
double node_copy_step_ref(double x, double b) { return (x > 0 ? x : x * b) + 0.25; }
}  // namespace

TEST_CASE("copy_node: a tree over SINTER_FIELD_COPY_BYTES is copied whole, the same") {
  const st::index_t n = 103;
  const auto a = random_values<float, 1>({n + 1}, 20);
  const auto b = random_values<float, 1>({n}, 21);
  const auto av = a(st::slice(1, n + 1));  // misaligned
  const auto x1 = node_copy_step(av * 0.5f, b);
  const auto x2 = node_copy_step(x1, b);
  const auto x3 = node_copy_step(x2, b);
  // x3's copy is whole, its operands' field by field (x2 was built by them).
  static_assert(sizeof(x2.node()) <= SINTER_FIELD_COPY_BYTES);
  static_assert(sizeof(x3.node()) > SINTER_FIELD_COPY_BYTES);
  CHECK(copy_is_same(x2));
  CHECK(copy_is_same(x3));
  CHECK(copy_is_same(x3 * 2.f));  // a whole copy inside a larger tree

  st::array<float, 1> out({n});
  out = x3 * 2.f;
  st::index_t bad = 0;
  for (st::index_t i = 0; i < n; ++i) {
    const double bi = b(i);
    double x = static_cast<double>(a(i + 1)) * 0.5;
    for (int k = 0; k < 3; ++k) x = node_copy_step_ref(x, bi);
    if (!(std::abs(out(i) - 2.0 * x) <= 1e-5 * (1.0 + std::abs(x)))) ++bad;
  }
  CHECK(bad == 0);
}

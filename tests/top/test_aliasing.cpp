// Aliasing: one test per kind of view, as Blaze has one per operation.
// Assigning to memory that the right side also reads must give numpy's
// result (the right side fully evaluated first). With the same index mapping
// that needs no temporary: one pass, no allocation. With a different mapping
// over the same bytes, evaluate.hpp goes through a temporary: two passes, one
// allocation. Each case runs on host and on par, at sizes where par really
// splits the pass over threads (>= 65536 elements).
#include <sinter/sinter.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

namespace st = sinter;
using st::index_t;

namespace {

template <class P, std::size_t R>
st::array<float, R, P> random_array(const st::extents<R>& shape, unsigned seed) {
  st::array<float, R, P> a(shape);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-10.f, 10.f);
  for (float& v : a) v = u(gen);
  return a;
}

template <class A>
std::vector<float> copy_of(const A& a) {
  return std::vector<float>(a.begin(), a.end());
}

/// One fused pass, no buffer allocated.
void check_one_pass(const st::trace_scope& t) {
  CHECK(t.passes().size() == 1);
  CHECK(t.allocations() == 0);
}
/// Through a temporary: evaluate into it, copy it out.
void check_through_temporary(const st::trace_scope& t) {
  CHECK(t.passes().size() == 2);
  CHECK(t.allocations() == 1);
}

constexpr index_t big = 200003;  // 1-D: above par's threading threshold, odd
constexpr index_t side = 301;    // square: 90601 elements, odd

}  // namespace

// ---- same mapping: one pass, no temporary ------------------------------------

TEST_CASE_TEMPLATE("aliasing: same mapping runs in place", P, st::host, st::par) {
  SUBCASE("a = a * 2") {
    auto a = random_array<P, 1>({big}, 1);
    const auto ref = copy_of(a);
    {
      st::trace_scope t;
      a = a * 2.f;
      check_one_pass(t);
    }
    for (index_t i = 0; i < big; ++i) REQUIRE(a(i) == ref[static_cast<std::size_t>(i)] * 2.f);
  }
  SUBCASE("v = v + 1, v a strided view") {
    auto a = random_array<P, 1>({big}, 2);
    const auto ref = copy_of(a);
    auto v = a(st::slice(1, st::none, 3));
    {
      st::trace_scope t;
      v = v + 1.f;
      check_one_pass(t);
    }
    for (index_t i = 0; i < big; ++i) {
      const float r = ref[static_cast<std::size_t>(i)];
      REQUIRE(a(i) == (i % 3 == 1 ? r + 1.f : r));
    }
  }
  SUBCASE("a reversed view into itself, a transposed view into itself") {
    auto a = random_array<P, 1>({big}, 3);
    const auto ref = copy_of(a);
    auto r = a(st::slice(st::none, st::none, -1));
    auto m = random_array<P, 2>({side, side + 2}, 4);
    const auto mref = copy_of(m);
    auto mt = st::transpose(m);
    {
      st::trace_scope t;
      r = r - 1.f;
      mt = 2.f * mt + mt;
      CHECK(t.passes().size() == 2);
      CHECK(t.allocations() == 0);
    }
    for (index_t i = 0; i < big; ++i) REQUIRE(a(i) == ref[static_cast<std::size_t>(i)] - 1.f);
    for (std::size_t i = 0; i < mref.size(); ++i) REQUIRE(m.data()[i] == 2.f * mref[i] + mref[i]);
  }
  SUBCASE("reshape of itself, same mapping") {
    auto a = random_array<P, 2>({side, side - 1}, 5);
    const auto ref = copy_of(a);
    {
      st::trace_scope t;
      st::reshape(a, {side - 1, side}) = st::reshape(a, {side - 1, -1}) * 3.f;
      check_one_pass(t);
    }
    for (std::size_t i = 0; i < ref.size(); ++i) REQUIRE(a.data()[i] == ref[i] * 3.f);
  }
  SUBCASE("compound assignment on a strided view") {
    auto m = random_array<P, 2>({side, side}, 6);
    const auto ref = copy_of(m);
    {
      st::trace_scope t;
      m(st::all, st::slice(st::none, st::none, -2)) *= 0.5f;
      check_one_pass(t);
    }
    for (index_t i = 0; i < side; ++i)
      for (index_t j = 0; j < side; ++j) {
        const float r = ref[static_cast<std::size_t>(i * side + j)];
        REQUIRE(m(i, j) == ((side - 1 - j) % 2 == 0 ? r * 0.5f : r));
      }
  }
}

// ---- different mapping over the same memory: through a temporary -----------

// Shifted slices read the output's array at a fixed offset: host and par
// take the lagged-rows route (policy/host/lagged.hpp, tests/policy/
// test_lagged.cpp), one pass with no array allocated.
TEST_CASE_TEMPLATE("aliasing: shifted slices (the stencil)", P, st::host, st::par) {
  auto u = random_array<P, 1>({big}, 10);
  const auto ref = copy_of(u);
  {
    st::trace_scope t;
    u(st::slice(1, -1)) = 0.5f * (u(st::slice(0, -2)) + u(st::slice(2, st::end)));
    check_one_pass(t);
  }
  CHECK(u(0) == ref[0]);
  CHECK(u(big - 1) == ref[static_cast<std::size_t>(big - 1)]);
  for (std::size_t i = 1; i + 1 < ref.size(); ++i) REQUIRE(u.data()[i] == 0.5f * (ref[i - 1] + ref[i + 1]));
  // Shifted the other way, and by more than one.
  auto w = random_array<P, 1>({big}, 11);
  const auto wref = copy_of(w);
  {
    st::trace_scope t;
    w(st::slice(3, st::end)) = w(st::slice(0, -3)) + 1.f;
    check_one_pass(t);
  }
  for (std::size_t i = 0; i < wref.size(); ++i) REQUIRE(w.data()[i] == (i < 3 ? wref[i] : wref[i - 3] + 1.f));
}

TEST_CASE_TEMPLATE("aliasing: a reversed view into its own array", P, st::host, st::par) {
  for (index_t n : {index_t{1}, index_t{2}, index_t{7}, big}) {
    CAPTURE(n);
    auto a = random_array<P, 1>({n}, 12);
    const auto ref = copy_of(a);
    {
      st::trace_scope t;
      a = a(st::slice(st::none, st::none, -1));
      if (n > 1) check_through_temporary(t);  // n == 1: the same element, either is fine
    }
    for (index_t i = 0; i < n; ++i) REQUIRE(a(i) == ref[static_cast<std::size_t>(n - 1 - i)]);
  }
}

TEST_CASE_TEMPLATE("aliasing: transpose of a square matrix into itself", P, st::host, st::par) {
  for (index_t n : {index_t{2}, index_t{5}, side}) {
    CAPTURE(n);
    auto m = random_array<P, 2>({n, n}, 13);
    const auto ref = copy_of(m);
    {
      st::trace_scope t;
      m = st::transpose(m);
      check_through_temporary(t);
    }
    for (index_t i = 0; i < n; ++i)
      for (index_t j = 0; j < n; ++j) REQUIRE(m(i, j) == ref[static_cast<std::size_t>(j * n + i)]);
  }
}

TEST_CASE_TEMPLATE("aliasing: permute of a cube into itself", P, st::host, st::par) {
  const index_t n = 45;  // 91125 elements
  auto c = random_array<P, 3>({n, n, n}, 14);
  const auto ref = copy_of(c);
  {
    st::trace_scope t;
    c = st::permute(c, {1, 2, 0});
    check_through_temporary(t);
  }
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j)
      for (index_t k = 0; k < n; ++k)
        // c[i, j, k] = old[k, i, j]
        REQUIRE(c(i, j, k) == ref[static_cast<std::size_t>((k * n + i) * n + j)]);
}

TEST_CASE_TEMPLATE("aliasing: a broadcast row of the array itself", P, st::host, st::par) {
  SUBCASE("m = m - m[0:1, :]") {
    auto m = random_array<P, 2>({side, side + 1}, 15);
    const auto ref = copy_of(m);
    {
      st::trace_scope t;
      m = m - m(st::slice(0, 1), st::all);
      check_through_temporary(t);
    }
    const auto cols = static_cast<std::size_t>(side + 1);
    for (std::size_t i = 0; i < ref.size(); ++i) REQUIRE(m.data()[i] == ref[i] - ref[i % cols]);
    // numpy: the first row is all zeros (not "row 0 minus the already-zeroed row 0" elsewhere).
    for (index_t j = 0; j <= side; ++j) CHECK(m(0, j) == 0.f);
  }
  SUBCASE("m = broadcast_to(m[2], shape)") {
    auto m = random_array<P, 2>({side, side}, 16);
    const auto ref = copy_of(m);
    {
      st::trace_scope t;
      m = st::broadcast_to(m(2, st::all), {side, side});
      check_through_temporary(t);
    }
    const auto cols = static_cast<std::size_t>(side);
    for (std::size_t i = 0; i < ref.size(); ++i) REQUIRE(m.data()[i] == ref[2 * cols + i % cols]);
  }
  SUBCASE("m = m / expand_dims<1>(m[:, 0]) (a column)") {
    auto m = random_array<P, 2>({side, side}, 17);
    const auto ref = copy_of(m);
    {
      st::trace_scope t;
      m = m / st::expand_dims<1>(m(st::all, 0));
      check_through_temporary(t);
    }
    const auto cols = static_cast<std::size_t>(side);
    for (std::size_t i = 0; i < ref.size(); ++i) REQUIRE(m.data()[i] == ref[i] / ref[i - i % cols]);
  }
}

TEST_CASE_TEMPLATE("aliasing: a reshape of the array into itself", P, st::host, st::par) {
  // a is (r, c); its memory seen as (c, r) receives a's transpose: numpy's
  // `a.reshape(c, r)[...] = a.T`.
  const index_t r = 251, c = 263;  // 66013 elements
  auto a = random_array<P, 2>({r, c}, 18);
  const auto ref = copy_of(a);
  {
    st::trace_scope t;
    st::reshape(a, {c, r}) = st::transpose(a);
    check_through_temporary(t);
  }
  for (index_t i = 0; i < c; ++i)
    for (index_t j = 0; j < r; ++j)
      REQUIRE(a.data()[i * r + j] == ref[static_cast<std::size_t>(j * c + i)]);
  // The flat memory as a (2, n/2) view, the second half added to the first:
  // shapes differ from the source's, so it is a different mapping.
  auto b = random_array<P, 1>({2 * big}, 19);
  const auto bref = copy_of(b);
  {
    st::trace_scope t;
    st::reshape(b, {2, big}) = st::reshape(b, {2, big})(st::slice(st::none, st::none, -1), st::all) * 2.f;
    check_through_temporary(t);
  }
  const auto h = static_cast<std::size_t>(big);
  for (std::size_t i = 0; i < 2 * h; ++i) REQUIRE(b.data()[i] == 2.f * bref[(i + h) % (2 * h)]);
}

// ---- views of the same array that do not overlap ------------------------------

TEST_CASE_TEMPLATE("aliasing: disjoint views of one array", P, st::host, st::par) {
  SUBCASE("a[0:5] = a[5:10]: disjoint byte ranges, one pass") {
    auto a = random_array<P, 1>({10}, 20);
    const auto ref = copy_of(a);
    {
      st::trace_scope t;
      a(st::slice(0, 5)) = a(st::slice(5, 10));
      check_one_pass(t);
    }
    for (std::size_t i = 0; i < 10; ++i) REQUIRE(a.data()[i] == ref[i < 5 ? i + 5 : i]);
  }
  SUBCASE("big halves, the second reversed into the first") {
    auto a = random_array<P, 1>({2 * big}, 21);
    const auto ref = copy_of(a);
    {
      st::trace_scope t;
      a(st::slice(0, big)) = a(st::slice(st::none, big - 1, -1));
      check_one_pass(t);
    }
    const auto h = static_cast<std::size_t>(big);
    for (std::size_t i = 0; i < 2 * h; ++i) REQUIRE(a.data()[i] == ref[i < h ? 2 * h - 1 - i : i]);
  }
  SUBCASE("interleaved: a[0::2] = a[1::2]") {
    // Disjoint elements but overlapping byte ranges: the check is range
    // based, so this conservatively takes the temporary. Correct either way.
    auto a = random_array<P, 1>({big + 1}, 22);
    const auto ref = copy_of(a);
    {
      st::trace_scope t;
      a(st::slice(0, st::none, 2)) = a(st::slice(1, st::none, 2));
      CHECK(t.passes().size() <= 2);
    }
    for (std::size_t i = 0; i < ref.size(); ++i) REQUIRE(a.data()[i] == ref[i % 2 == 0 ? i + 1 : i]);
  }
  SUBCASE("two matrix blocks: the left half takes the right half") {
    auto m = random_array<P, 2>({side, 2 * side}, 23);
    const auto ref = copy_of(m);
    {
      st::trace_scope t;
      m(st::all, st::slice(0, side)) = m(st::all, st::slice(side, st::end)) + 1.f;
      CHECK(t.passes().size() <= 2);  // byte ranges interleave by rows: conservative
    }
    const auto cols = static_cast<std::size_t>(2 * side), s = static_cast<std::size_t>(side);
    for (std::size_t i = 0; i < ref.size(); ++i)
      REQUIRE(m.data()[i] == (i % cols < s ? ref[i + s] + 1.f : ref[i]));
  }
}

// ---- untraced: assign's inline path ------------------------------------------

// The cases above are traced, and a trace sends every pass down the general
// path. Untraced, a small contiguous pass runs in assign's caller after
// rows_overlap (evaluate.hpp) has checked its inputs against the output: a
// shift either way, a matrix's rows shifted down, in place, and disjoint
// halves, at sizes around the vector width and the line, in float and
// double. A shift down the array read unchecked gives wrong values (the
// loop reads elements it has already written).
TEST_CASE_TEMPLATE("aliasing: untraced, through assign's inline path", PT, std::pair<st::host, float>,
                   std::pair<st::host, double>, std::pair<st::par, float>, std::pair<st::par, double>) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  for (const index_t n : {1, 2, 15, 16, 17, 31, 33, 1000, 1031, 4099}) {
    CAPTURE(n);
    const auto un = static_cast<std::size_t>(n);
    std::mt19937 gen(static_cast<unsigned>(n));
    std::uniform_real_distribution<T> u(T(-10), T(10));
    std::vector<T> ref(2 * un);
    for (T& v : ref) v = u(gen);
    st::array<T, 1, P> a({2 * n});
    auto reset = [&] { std::copy(ref.begin(), ref.end(), a.data()); };
    // a[1:] = a[:-1] * 2 + 1: each element reads its left neighbour's old value.
    reset();
    a(st::slice(1, st::end)) = a(st::slice(0, -1)) * T(2) + T(1);
    index_t bad = 0;
    for (std::size_t i = 1; i < 2 * un; ++i) bad += a.data()[i] != ref[i - 1] * T(2) + T(1);
    CHECK_MESSAGE(bad == 0, "a[1:] = a[:-1] * 2 + 1: " << bad << " elements wrong");
    CHECK(a(0) == ref[0]);
    // a[:-3] = a[3:] - a[:-3]: ahead by 3, and itself.
    reset();
    a(st::slice(0, -3)) = a(st::slice(3, st::end)) - a(st::slice(0, -3));
    bad = 0;
    for (std::size_t i = 0; i + 3 < 2 * un; ++i) bad += a.data()[i] != ref[i + 3] - ref[i];
    for (std::size_t i = 2 * un >= 3 ? 2 * un - 3 : 0; i < 2 * un; ++i) bad += a.data()[i] != ref[i];
    CHECK_MESSAGE(bad == 0, "a[:-3] = a[3:] - a[:-3]: " << bad << " elements wrong");
    // In place, one mapping: no temporary needed, values as written.
    reset();
    a = a * T(3) + a;
    bad = 0;
    for (std::size_t i = 0; i < 2 * un; ++i) bad += a.data()[i] != ref[i] * T(3) + ref[i];
    CHECK_MESSAGE(bad == 0, "a = a * 3 + a: " << bad << " elements wrong");
    // Disjoint halves of one array.
    reset();
    a(st::slice(0, n)) = a(st::slice(n, st::end)) * T(0.5);
    bad = 0;
    for (std::size_t i = 0; i < un; ++i) bad += a.data()[i] != ref[i + un] * T(0.5) || a.data()[i + un] != ref[i + un];
    CHECK_MESSAGE(bad == 0, "a[:n] = a[n:] * 0.5: " << bad << " elements wrong");
    // A matrix of 2 x n: its whole rows, one row down (one contiguous pass).
    st::array<T, 2, P> m({3, n});
    std::copy(ref.begin(), ref.end(), m.data());
    std::copy(ref.begin(), ref.begin() + n, m.data() + 2 * n);
    m(st::slice(1, st::end), st::all) = m(st::slice(0, 2), st::all) + T(1);
    bad = 0;
    for (std::size_t i = 0; i < 3 * un; ++i) {
      const T old = i < 2 * un ? ref[i] : ref[i - 2 * un];
      bad += m.data()[i] != (i < un ? old : ref[i - un] + T(1));
    }
    CHECK_MESSAGE(bad == 0, "m[1:] = m[:-1] + 1: " << bad << " elements wrong");
  }
}

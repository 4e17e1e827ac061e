// sinter::random (issue 59): Philox4x32-10 against Random123's known-answer
// vectors; every distribution against a scalar reference computed here from
// the public block function and docs/design.md's bit recipe ("Random
// numbers"); the same bits on host, par (1, 2, 3, 8 threads), through views
// and in the CUDA kernel body on the grid emulator; one pass and no
// allocation for a fused noise-add; the edges and the bad arguments.
// Statistics: test_random_stats.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sinter/sinter.hpp>
#include <string>
#include <vector>

namespace st = sinter;
namespace sr = sinter::random;
using st::index_t;

namespace {

__extension__ typedef unsigned __int128 rnd_u128;

/// The reference block b of a stream (docs/design.md's counter).
std::array<std::uint32_t, 4> rnd_block(const sr::key& k, std::uint64_t b, std::uint32_t tag) {
  return sr::philox4x32_10({static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32), tag, 0u}, k.words);
}
std::uint64_t rnd_join(std::uint32_t hi, std::uint32_t lo) { return (std::uint64_t{hi} << 32) | lo; }
/// Element i's word (four elements per block: word i mod 4 of block i / 4).
std::uint32_t rnd_word(const sr::key& k, std::uint64_t i, std::uint32_t tag) { return rnd_block(k, i / 4, tag)[i % 4]; }
/// Element i's pair (two elements per block: words 2 (i mod 2) and 2 (i mod 2) + 1 of block i / 2).
std::array<std::uint32_t, 2> rnd_pair(const sr::key& k, std::uint64_t i, std::uint32_t tag) {
  const auto b = rnd_block(k, i / 2, tag);
  return {b[2 * (i % 2)], b[2 * (i % 2) + 1]};
}

// The reference recipes, in double (tags: uniform 1, normal 2, integers 3,
// bernoulli 4, exponential 5).
double ref_unit_f(std::uint32_t w) { return std::ldexp(static_cast<double>(w >> 8), -24); }
double ref_unit_d(std::uint32_t hi, std::uint32_t lo) {
  return std::ldexp(static_cast<double>(rnd_join(hi, lo) >> 11), -53);
}
/// Box-Muller: float, the pair (i mod 4) / 2 of block i / 4 (words u1, u2);
/// double, block i / 2 (words 0-1 u1, 2-3 u2); the cosine to even i, the sine to odd i.
double ref_normal(const sr::key& k, std::uint64_t i, bool is_double) {
  const auto b = rnd_block(k, i / (is_double ? 2 : 4), 2);
  const std::size_t p = is_double ? 0 : 2 * ((i % 4) / 2);
  const double u1 = is_double ? std::ldexp(static_cast<double>((rnd_join(b[0], b[1]) >> 11) + 1), -53)
                              : std::ldexp(static_cast<double>((b[p] >> 8) + 1), -24);
  const double u2 = is_double ? ref_unit_d(b[2], b[3]) : ref_unit_f(b[p + 1]);
  const double angle = 2 * 3.14159265358979323846 * u2;
  return std::sqrt(-2 * std::log(u1)) * (i % 2 ? std::sin(angle) : std::cos(angle));
}
double ref_exponential(const sr::key& k, std::uint64_t i, bool is_double) {
  const auto w = rnd_pair(k, i, 5);
  const double u = is_double ? std::ldexp(static_cast<double>((rnd_join(w[0], w[1]) >> 11) + 1), -53)
                             : std::ldexp(static_cast<double>((rnd_word(k, i, 5) >> 8) + 1), -24);
  return -std::log(u);
}
/// integers: lo + floor(X * r / 2^B) in 128-bit arithmetic (r = 0: 2^64);
/// X: element i's pair (types of up to 32 bits), words 0-2 of block i (64-bit types).
template <class T>
T ref_integer(const sr::key& k, std::uint64_t i, T lo, std::uint64_t r) {
  std::uint64_t v;
  if constexpr (sizeof(T) <= 4) {
    const auto w = rnd_pair(k, i, 3);
    v = static_cast<std::uint64_t>((rnd_u128{rnd_join(w[0], w[1])} * r) >> 64);
  } else {
    const auto b = rnd_block(k, i, 3);
    const rnd_u128 x = (rnd_u128{rnd_join(b[0], b[1])} << 32) | b[2];  // 96 bits
    const rnd_u128 rr = r == 0 ? rnd_u128{1} << 64 : rnd_u128{r};
    // x * rr < 2^160: split x to keep the product within 128 bits.
    const rnd_u128 hi_part = (x >> 32) * rr, lo_part = (x & 0xFFFFFFFFu) * rr;
    v = static_cast<std::uint64_t>((hi_part + (lo_part >> 32)) >> 64);
  }
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(lo) + static_cast<U>(v)));
}

template <class T, std::size_t R>
std::vector<T> rnd_values(const st::array<T, R>& a) {
  return std::vector<T>(a.data(), a.data() + a.size());
}

/// Restores the thread count on exit.
struct rnd_threads {
  int old = st::get_num_threads();
  rnd_threads() = default;
  rnd_threads(const rnd_threads&) = delete;
  rnd_threads& operator=(const rnd_threads&) = delete;
  ~rnd_threads() { st::set_num_threads(old); }
};

template <class T>
bool rnd_same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

}  // namespace

TEST_CASE("random: Philox4x32-10 known-answer vectors (Random123 kat_vectors)") {
  using w4 = std::array<std::uint32_t, 4>;
  CHECK(sr::philox4x32_10({0, 0, 0, 0}, {0, 0}) == w4{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u});
  CHECK(sr::philox4x32_10({~0u, ~0u, ~0u, ~0u}, {~0u, ~0u}) ==
        w4{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu});
  CHECK(sr::philox4x32_10({0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, {0xa4093822u, 0x299f31d0u}) ==
        w4{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u});
  static_assert(sr::philox4x32_10({0, 0, 0, 0}, {0, 0})[3] == 0x9b00dbd8u, "usable in constant expressions");
}

TEST_CASE("random: keys, split and fold_in derive through Philox") {
  const sr::key k{0x0123456789abcdefULL};
  CHECK(k.words == std::array<std::uint32_t, 2>{0x89abcdefu, 0x01234567u});
  CHECK(sr::key{-1}.words == std::array<std::uint32_t, 2>{~0u, ~0u});
  CHECK(sr::key{} == sr::key{0});
  const auto ks = sr::split(k, 5);
  REQUIRE(ks.size() == 5);
  for (std::size_t j = 0; j < ks.size(); ++j) {
    const auto b = rnd_block(k, j, 0x73706c74u);
    CHECK(ks[j].words == std::array<std::uint32_t, 2>{b[0], b[1]});
    for (std::size_t m = 0; m < j; ++m) CHECK(ks[m] != ks[j]);
    CHECK(ks[j] != k);
  }
  CHECK(sr::split(k, 0).empty());
  const auto b7 = rnd_block(k, 7, 0x666f6c64u);
  CHECK(sr::fold_in(k, 7).words == std::array<std::uint32_t, 2>{b7[0], b7[1]});
  CHECK(sr::fold_in(k, std::uint8_t{7}) == sr::fold_in(k, 7LL));
  CHECK(sr::fold_in(k, 0) != k);
  CHECK(sr::fold_in(k, 0) != ks[0]);  // fold_in and split are different streams
  CHECK(sr::fold_in(k, -1).words == sr::fold_in(k, ~std::uint64_t{0}).words);
}

TEST_CASE("random: golden values (the stream of key 42 is frozen: docs/design.md)") {
  const st::array<double, 1> u = sr::uniform<double>(sr::key{42}, {3});
  const st::array<float, 1> uf = sr::uniform<float>(sr::key{42}, {6});
  const st::array<std::int32_t, 1> n = sr::integers<std::int32_t>(sr::key{42}, {3}, 0, 1000000);
  const st::array<std::int64_t, 1> n64 = sr::integers<std::int64_t>(sr::key{42}, {3}, -5, 1LL << 40);
  const st::array<bool, 1> bv = sr::bernoulli(sr::key{42}, {8}, 0.3);
  const st::array<float, 1> zf = sr::normal<float>(sr::key{42}, {4});
  const st::array<double, 1> zd = sr::normal<double>(sr::key{42}, {4});
  // Computed by a 40-line pure-Python Philox4x32-10 following docs/design.md's
  // recipe (run by hand, values pasted); a change of the recipe (tags, word
  // order, elements per block, bit selection) changes them.
  CHECK(u(0) == 0x1.499bb49028f4p-7);
  CHECK(u(1) == 0x1.db4581c5b162p-3);
  CHECK(u(2) == 0x1.07fc89cfee90cp-3);
  const float ufv[6] = {0x1.499b8p-7f, 0x1.028f48p-3f, 0x1.db458p-3f, 0x1.6c588p-1f, 0x1.07fc88p-3f, 0x1.fba43ap-1f};
  for (index_t i = 0; i < 6; ++i) CHECK(uf(i) == ufv[i]);
  CHECK(n(0) == 40308);
  CHECK(n(1) == 723034);
  CHECK(n(2) == 522108);
  CHECK(n64(0) == 44319552109LL);
  CHECK(n64(1) == 574063852571LL);
  CHECK(n64(2) == 352887870434LL);
  const bool bref[8] = {true, false, true, true, false, true, false, false};
  for (index_t i = 0; i < 8; ++i) CHECK(bv(i) == bref[i]);
  // normal: Python's double log, sqrt, cos and sin; sinter's float maths within 1e-6, double within 1e-14
  const double zfv[4] = {-1.3457069609987942, -0.1720506281821863, -0.46948265260814076, -1.2275585993759939};
  const double zdv[4] = {-1.1954312097507527, 0.6414615895556387, 0.09288774853001741, -1.0693493282508917};
  for (index_t i = 0; i < 4; ++i) {
    CHECK(std::abs(zf(i) - zfv[i]) <= 1e-6);
    CHECK(std::abs(zd(i) - zdv[i]) <= 1e-14);
  }
}

TEST_CASE("random: every distribution against the scalar reference, odd sizes and shapes") {
  const sr::key k{20261205};
  for (index_t n : {index_t{0}, index_t{1}, index_t{7}, index_t{1021}}) {
    CAPTURE(n);
    const st::array<float, 1> uf = sr::uniform<float>(k, {n});
    const st::array<double, 1> ud = sr::uniform<double>(k, {n});
    const st::array<float, 1> uab = sr::uniform<float>(k, {n}, -2.5, 4);
    const st::array<float, 1> nf = sr::normal<float>(k, {n}, 1, 2);
    const st::array<double, 1> nd = sr::normal<double>(k, {n});
    const st::array<float, 1> ef = sr::exponential<float>(k, {n}, 3);
    const st::array<double, 1> ed = sr::exponential<double>(k, {n});
    const st::array<bool, 1> bb = sr::bernoulli(k, {n}, 0.3);
    const st::array<std::int16_t, 1> i16 = sr::integers<std::int16_t>(k, {n}, -300, 1234);
    const st::array<std::uint32_t, 1> u32 = sr::integers<std::uint32_t>(k, {n}, 5u, 4000000000u);
    const st::array<std::int64_t, 1> i64 = sr::integers<std::int64_t>(k, {n}, -(index_t{1} << 62), index_t{1} << 62);
    const st::array<std::uint64_t, 1> u64 = sr::integers<std::uint64_t>(k, {n});
    std::size_t bad = 0;
    for (index_t i = 0; i < n; ++i) {
      const auto ui = static_cast<std::uint64_t>(i);
      const std::uint32_t w = rnd_word(k, ui, 1);
      const auto wd = rnd_pair(k, ui, 1);
      bad += uf(i) != static_cast<float>(ref_unit_f(w));  // exact: a multiple of 2^-24
      bad += ud(i) != ref_unit_d(wd[0], wd[1]);
      const double uref = -2.5 + 6.5 * ref_unit_f(w);
      bad += !(std::abs(uab(i) - uref) <= 8 * 0x1p-24 && uab(i) >= -2.5f && uab(i) < 4.f);
      bad += !(std::abs(nf(i) - (1 + 2 * ref_normal(k, ui, false))) <= 4e-5);
      bad += !(std::abs(nd(i) - ref_normal(k, ui, true)) <= 1e-13);
      bad += !(std::abs(ef(i) - 3 * ref_exponential(k, ui, false)) <= 3e-6 * (1 + ef(i)));
      bad += !(std::abs(ed(i) - ref_exponential(k, ui, true)) <= 1e-14 * (1 + ed(i)));
      bad += bb(i) != (rnd_word(k, ui, 4) < std::llround(0.3 * 0x1p32));
      bad += i16(i) != ref_integer<std::int16_t>(k, ui, -300, 1534);
      bad += u32(i) != ref_integer<std::uint32_t>(k, ui, 5u, 3999999995u);
      bad += i64(i) != ref_integer<std::int64_t>(k, ui, -(index_t{1} << 62), std::uint64_t{1} << 63);
      bad += u64(i) != ref_integer<std::uint64_t>(k, ui, 0, 0);
    }
    CHECK(bad == 0);
  }
  // Rank 3: element i is the row-major flat index. (Rank 0 is not tested:
  // nvcc warns in shape.hpp's broadcast_strides<0, 0>, pointless comparison.)
  const st::array<double, 3> cube = sr::uniform<double>(k, {3, 5, 7});
  std::size_t bad = 0;
  for (index_t i = 0; i < 105; ++i) {
    const auto w = rnd_pair(k, static_cast<std::uint64_t>(i), 1);
    bad += cube(i / 35, (i / 7) % 5, i % 7) != ref_unit_d(w[0], w[1]);
  }
  CHECK(bad == 0);
}

TEST_CASE("random: the same bits on host and on par with 1, 2, 3 and 8 threads") {
  rnd_threads restore;
  const sr::key k{7};
  const st::extents<2> shape{3, 2 * st::detail::par_grain / 3 + 4099};  // above 2 * par_grain: par splits
  const st::array<float, 2> uf = sr::uniform<float>(k, shape);
  const st::array<double, 2> nd = sr::normal<double>(k, shape, -1, 0.5);
  const st::array<std::int64_t, 2> iv = sr::integers<std::int64_t>(k, shape, -5, 1LL << 40);
  const st::array<bool, 2> bv = sr::bernoulli(k, shape, 0.75);
  const st::array<st::half, 2> hv = sr::exponential<st::half>(k, shape);
  for (int threads : {1, 2, 3, 8}) {
    CAPTURE(threads);
    st::set_num_threads(threads);
    st::trace_scope t;
    const st::array<float, 2, st::par> puf = sr::uniform<float>(k, shape);
    const st::array<double, 2, st::par> pnd = sr::normal<double>(k, shape, -1, 0.5);
    const st::array<std::int64_t, 2, st::par> piv = sr::integers<std::int64_t>(k, shape, -5, 1LL << 40);
    const st::array<bool, 2, st::par> pbv = sr::bernoulli(k, shape, 0.75);
    const st::array<st::half, 2, st::par> phv = sr::exponential<st::half>(k, shape);
    if (threads > 1)
      CHECK_MESSAGE(t.passes()[0].detail.find(" threads") != std::string::npos, t.passes()[0].detail);
    CHECK(std::equal(uf.begin(), uf.end(), puf.begin()));
    CHECK(std::memcmp(nd.data(), pnd.data(), static_cast<std::size_t>(nd.size()) * sizeof(double)) == 0);
    CHECK(std::equal(iv.begin(), iv.end(), piv.begin()));
    CHECK(std::equal(bv.begin(), bv.end(), pbv.begin()));
    CHECK(std::memcmp(hv.data(), phv.data(), static_cast<std::size_t>(hv.size()) * 2) == 0);
  }
}

TEST_CASE("random: views of a generator are views of the materialised array") {
  const sr::key k{99};
  const index_t m = 37, n = 1031;
  const auto g = sr::normal<float>(k, {m, n});
  const st::array<float, 2> mat = g;
  // strided and reversed slices
  const st::array<float, 2> s1 = g(st::slice(1, st::none, 3), st::slice(st::none, st::none, -1));
  const st::array<float, 2> r1 = mat(st::slice(1, st::none, 3), st::slice(st::none, st::none, -1));
  CHECK(rnd_same_bits(rnd_values(s1), rnd_values(r1)));
  const st::array<float, 1> s2 = g(5, st::slice(n - 1, 2, -7));
  const st::array<float, 1> r2 = mat(5, st::slice(n - 1, 2, -7));
  CHECK(rnd_same_bits(rnd_values(s2), rnd_values(r2)));
  // transpose, reshape
  const st::array<float, 2> t1 = st::transpose(g);
  const st::array<float, 2> t2 = st::transpose(mat);
  CHECK(rnd_same_bits(rnd_values(t1), rnd_values(t2)));
  const st::array<float, 3> h1 = st::reshape(sr::normal<float>(k, {m, n}), {m * n / 37, 1, -1});
  CHECK(rnd_same_bits(rnd_values(h1), rnd_values(mat)));
  // par through a reversed view, into a strided output
  {
    rnd_threads restore;
    st::set_num_threads(3);
    const index_t big = 3 * st::detail::par_grain + 5;
    const auto gb = sr::uniform<double>(k, {big});
    const st::array<double, 1> host_rev = gb(st::slice(st::none, st::none, -1));
    st::array<double, 1, st::par> out({2 * big});
    out(st::slice(st::none, st::none, 2)) = gb(st::slice(st::none, st::none, -1));
    std::size_t bad = 0;
    for (index_t i = 0; i < big; ++i) bad += out(2 * i) != host_rev(i);
    CHECK(bad == 0);
    const auto w = rnd_pair(k, static_cast<std::uint64_t>(big - 1), 1);
    CHECK(host_rev(0) == ref_unit_d(w[0], w[1]));
  }
  // broadcast against an array: the generator's row repeats
  const st::array<double, 2> zero = st::zeros<double>({4, 9});
  const st::array<double, 2> bc = zero + sr::uniform<double>(k, {9});
  const st::array<double, 1> row = sr::uniform<double>(k, {9});
  for (index_t i = 0; i < 4; ++i)
    for (index_t j = 0; j < 9; ++j) CHECK(bc(i, j) == row(j));
}

TEST_CASE("random: a + 0.1f * normal(k, a.shape()) is one pass with no allocation, host and par") {
  rnd_threads restore;
  st::set_num_threads(3);
  const sr::key k{123};
  for (index_t n : {index_t{1001}, 2 * st::detail::par_grain + 17}) {
    CAPTURE(n);
    st::array<float, 1> a = sr::uniform<float>(sr::fold_in(k, 1), {n}, -1, 1);
    st::array<float, 1, st::par> ap = a;
    st::array<float, 1> x({n});
    st::array<float, 1, st::par> xp({n});
    {
      st::trace_scope t;
      x = a + 0.1f * sr::normal<float>(k, a.shape());
      REQUIRE(t.passes().size() == 1);
      CHECK(t.allocations() == 0);
      CHECK(t.passes()[0].expression.find("normal") != std::string::npos);
    }
    {
      st::trace_scope t;
      xp = ap + 0.1f * sr::normal<float>(k, ap.shape());
      REQUIRE(t.passes().size() == 1);
      CHECK(t.allocations() == 0);
      CHECK(t.passes()[0].policy == "par");
    }
    std::size_t bad = 0;
    for (index_t i = 0; i < n; ++i) {
      bad += !(std::abs(x(i) - (a(i) + 0.1 * ref_normal(k, static_cast<std::uint64_t>(i), false))) <= 1e-5);
      bad += x(i) != xp(i);
    }
    CHECK(bad == 0);
  }
}

TEST_CASE("random: half and bfloat16 stay below hi after rounding") {
  const sr::key k{5};
  const index_t n = 200003;
  const st::array<st::half, 1> h = sr::uniform<st::half>(k, {n});
  const st::array<st::bfloat16, 1> bf = sr::uniform<st::bfloat16>(k, {n}, -1, 1);
  float hmax = -1, bmax = -2, bmin = 2;
  std::size_t bad = 0;
  for (index_t i = 0; i < n; ++i) {
    const float hv = static_cast<float>(h(i)), bv = static_cast<float>(bf(i));
    hmax = std::max(hmax, hv);
    bmax = std::max(bmax, bv);
    bmin = std::min(bmin, bv);
    const double u = ref_unit_f(rnd_word(k, static_cast<std::uint64_t>(i), 1));
    // the reference: float rounded to half, clamped to the largest half below 1
    const float href = std::min(static_cast<float>(st::half(static_cast<float>(u))), 1.f - 0x1p-11f);
    bad += hv != href;
  }
  CHECK(bad == 0);
  CHECK(hmax == 1.f - 0x1p-11f);  // reached: 2^-12 of the draws round up to 1 and are clamped
  CHECK(bmax == 1.f - 0x1p-8f);
  CHECK(bmin >= -1.f);
  // hi below zero and at zero: the value just below hi is found in T's bits
  const st::array<st::half, 1> neg = sr::uniform<st::half>(k, {4096}, -2, -1);
  const st::array<st::half, 1> zer = sr::uniform<st::half>(k, {4096}, -0.0009765625, 0);
  CHECK(static_cast<float>(*std::max_element(neg.begin(), neg.end())) < -1.f);
  CHECK(static_cast<float>(*std::max_element(zer.begin(), zer.end())) < 0.f);
  const st::array<st::bfloat16, 1> en = sr::normal<st::bfloat16>(k, {1000}, 10, 0);
  CHECK(std::all_of(en.begin(), en.end(), [](st::bfloat16 v) { return static_cast<float>(v) == 10.f; }));
  // float: a span whose rounding reaches hi is clamped to the float below it
  const st::array<float, 1> f = sr::uniform<float>(k, {n}, 1, 1.0000002);
  CHECK(std::all_of(f.begin(), f.end(), [](float v) { return v == 1.f || v == std::nextafter(1.f, 2.f); }));
}

TEST_CASE("random: integers at the edges of their types") {
  const sr::key k{11};
  const st::array<std::int32_t, 1> one = sr::integers<std::int32_t>(k, {100}, 41, 42);
  CHECK(std::all_of(one.begin(), one.end(), [](std::int32_t v) { return v == 41; }));
  const st::array<std::int8_t, 1> i8 = sr::integers<std::int8_t>(k, {100000}, -128, 128);
  std::vector<int> seen(256);
  for (auto v : i8) ++seen[static_cast<std::size_t>(v + 128)];
  CHECK(std::count(seen.begin(), seen.end(), 0) == 0);  // every value, ~390 times each
  const st::array<std::uint8_t, 1> u8 = sr::integers<std::uint8_t>(k, {100000});
  std::vector<int> seen_u(256);
  for (auto v : u8) ++seen_u[v];
  CHECK(std::count(seen_u.begin(), seen_u.end(), 0) == 0);
  const auto lo64 = std::numeric_limits<std::int64_t>::min();
  const st::array<std::int64_t, 1> full64 = sr::integers<std::int64_t>(k, {100000}, lo64, std::uint64_t{1} << 63);
  const auto negatives = std::count_if(full64.begin(), full64.end(), [](std::int64_t v) { return v < 0; });
  CHECK(std::abs(static_cast<double>(negatives) - 50000) < 5 * 158.2);
  const st::array<std::int64_t, 1> near_max =
      sr::integers<std::int64_t>(k, {1000}, std::numeric_limits<std::int64_t>::max() - 2, std::uint64_t{1} << 63);
  CHECK(std::all_of(near_max.begin(), near_max.end(),
                    [](std::int64_t v) { return v >= std::numeric_limits<std::int64_t>::max() - 2; }));
  const st::array<std::uint64_t, 1> big = sr::integers<std::uint64_t>(k, {1000}, 0u, ~std::uint64_t{0});
  std::size_t bad = 0;
  for (index_t i = 0; i < 1000; ++i)
    bad += big(i) != ref_integer<std::uint64_t>(k, static_cast<std::uint64_t>(i), 0, ~std::uint64_t{0});
  CHECK(bad == 0);
  CHECK(*std::max_element(big.begin(), big.end()) > (std::uint64_t{1} << 63));  // the top bits are used
}

TEST_CASE("random: bad arguments throw value_error naming the argument, before any work") {
  const sr::key k{1};
  auto says = [](auto&& f, const char* what) {
    try {
      f();
      FAIL("no exception for " << what);
    } catch (const st::value_error& e) {
      CHECK_MESSAGE(std::string(e.what()).find(what) != std::string::npos, e.what());
    }
  };
  says([&] { (void)sr::uniform<float>(k, {4}, 1, 1); }, "hi");
  says([&] { (void)sr::uniform<float>(k, {4}, 2, 1); }, "hi");
  says([&] { (void)sr::uniform<st::half>(k, {4}, 1, 1.0001); }, "hi");  // equal after rounding to half
  says([&] { (void)sr::uniform<float>(k, {4}, -3e38, 3e38); }, "hi");
  says([&] { (void)sr::uniform<double>(k, {4}, 0, std::nan("")); }, "hi");
  says([&] { (void)sr::uniform<double>(k, {4}, -std::numeric_limits<double>::infinity(), 0); }, "lo");
  says([&] { (void)sr::uniform<st::half>(k, {4}, -1e5, 0); }, "lo");  // beyond half: -inf
  says([&] { (void)sr::normal<float>(k, {4}, 0, -1); }, "stddev");
  says([&] { (void)sr::exponential<double>(k, {4}, 0); }, "scale");
  says([&] { (void)sr::exponential<double>(k, {4}, -2); }, "scale");
  says([&] { (void)sr::bernoulli(k, {4}, 1.5); }, "p");
  says([&] { (void)sr::bernoulli(k, {4}, -0.1); }, "p");
  says([&] { (void)sr::integers<int>(k, {4}, 3, 3); }, "hi");
  says([&] { (void)sr::integers<std::uint8_t>(k, {4}, -1, 3); }, "lo");
  says([&] { (void)sr::integers<std::int8_t>(k, {4}, 0, 129); }, "hi");
  says([&] { (void)sr::uniform<float>(k, st::extents<2>{3, -1}); }, "axis 1");
  says([&] { (void)sr::normal<float>(k, {2, -4}); }, "axis 1");
  CHECK_NOTHROW((void)sr::bernoulli(k, {4}, 0.0));
  CHECK_NOTHROW((void)sr::bernoulli(k, {4}, 1.0));
  const st::array<bool, 1> always = sr::bernoulli(k, {1000}, 1.0), never = sr::bernoulli(k, {1000}, 0.0);
  CHECK(std::all_of(always.begin(), always.end(), [](bool v) { return v; }));
  CHECK(std::none_of(never.begin(), never.end(), [](bool v) { return v; }));
}

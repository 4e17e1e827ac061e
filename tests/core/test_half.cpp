// Tests for sinter::half and sinter::bfloat16 (include/sinter/core/half.hpp).
// References are computed independently of the header: values are decoded
// with std::ldexp, and rounding is checked against a nearest-value search in
// double precision and, where g++ offers it, against the compiler's _Float16.
#include <sinter/core/half.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <type_traits>
#include <vector>

namespace {

using sinter::bfloat16;
// `half` alone is ambiguous under nvcc (cuda_fp16.h declares ::half).
using f16 = sinter::half;

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float float_of(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// ---- independent references ---------------------------------------------

// Value of binary16 bits, decoded from the IEEE formula (not the header's code).
double decode_half(std::uint16_t b) {
  const int s = b >> 15, e = (b >> 10) & 0x1f, m = b & 0x3ff;
  double v;
  if (e == 0x1f) {
    v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else if (e == 0) {
    v = std::ldexp(static_cast<double>(m), -24);
  } else {
    v = std::ldexp(static_cast<double>(m + 1024), e - 25);
  }
  return s ? -v : v;
}

// Value of bfloat16 bits, decoded from the formula (8 exponent bits, 7 mantissa bits).
double decode_bf16(std::uint16_t b) {
  const int s = b >> 15, e = (b >> 7) & 0xff, m = b & 0x7f;
  double v;
  if (e == 0xff) {
    v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else if (e == 0) {
    v = std::ldexp(static_cast<double>(m), -133);
  } else {
    v = std::ldexp(static_cast<double>(m + 128), e - 134);
  }
  return s ? -v : v;
}

// Round-to-nearest-even by searching the sorted table of non-negative finite
// values (index == bits) for the nearest one; ties go to the even pattern.
// `overflow` is the smallest magnitude that rounds to infinity.
struct nearest_rounder {
  std::vector<double> table;
  double overflow;
  std::uint16_t inf_bits;

  std::uint16_t operator()(float f) const {
    const double x = f;
    if (std::isnan(x)) return 0xffff;  // only NaN-ness is compared for NaN inputs
    const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    const double a = std::fabs(x);
    if (a >= overflow) return static_cast<std::uint16_t>(sign | inf_bits);
    const auto it = std::lower_bound(table.begin(), table.end(), a);
    std::size_t hi = static_cast<std::size_t>(it - table.begin());
    std::size_t best = hi;
    if (hi == table.size()) {
      best = hi - 1;
    } else if (hi > 0) {
      const double dlo = a - table[hi - 1], dhi = table[hi] - a;
      if (dlo < dhi || (dlo == dhi && (hi - 1) % 2 == 0)) best = hi - 1;
    }
    return static_cast<std::uint16_t>(sign | best);
  }
};

const nearest_rounder& half_reference() {
  static const nearest_rounder r = [] {
    nearest_rounder n;
    for (std::uint32_t b = 0; b <= 0x7bff; ++b) n.table.push_back(decode_half(static_cast<std::uint16_t>(b)));
    n.overflow = 65504.0 + 16.0;  // max + f16 an ulp: the tie goes to "even" inf
    n.inf_bits = 0x7c00;
    return n;
  }();
  return r;
}

const nearest_rounder& bf16_reference() {
  static const nearest_rounder r = [] {
    nearest_rounder n;
    for (std::uint32_t b = 0; b <= 0x7f7f; ++b) n.table.push_back(decode_bf16(static_cast<std::uint16_t>(b)));
    n.overflow = decode_bf16(0x7f7f) + std::ldexp(1.0, 127 - 8);
    n.inf_bits = 0x7f80;
    return n;
  }();
  return r;
}

bool is_half_nan(std::uint16_t b) { return (b & 0x7c00) == 0x7c00 && (b & 0x3ff) != 0; }
bool is_bf16_nan(std::uint16_t b) { return (b & 0x7f80) == 0x7f80 && (b & 0x7f) != 0; }

// Checks one float against the references; returns false (and reports) on mismatch.
bool check_half(float f) {
  const std::uint16_t got = f16(f).bits;
  if (std::isnan(f)) {
    if (!is_half_nan(got) || (got & 0x0200) == 0 || (got >> 15) != (bits_of(f) >> 31)) {
      FAIL_CHECK("half(NaN) bits " << got << " for float bits " << bits_of(f));
      return false;
    }
    return true;
  }
  const std::uint16_t want = half_reference()(f);
  if (got != want) {
    FAIL_CHECK("half(" << f << ") float bits " << std::hex << bits_of(f) << ": got " << got << " want " << want);
    return false;
  }
#ifdef __FLT16_MANT_DIG__
  const _Float16 g = static_cast<_Float16>(f);
  std::uint16_t gb;
  std::memcpy(&gb, &g, sizeof gb);
  if (got != gb) {
    FAIL_CHECK("half(" << f << ") float bits " << std::hex << bits_of(f) << ": got " << got << " _Float16 " << gb);
    return false;
  }
#endif
  return true;
}

bool check_bf16(float f) {
  const std::uint16_t got = bfloat16(f).bits;
  if (std::isnan(f)) {
    if (!is_bf16_nan(got) || (got & 0x0040) == 0 || (got >> 15) != (bits_of(f) >> 31)) {
      FAIL_CHECK("bfloat16(NaN) bits " << got << " for float bits " << bits_of(f));
      return false;
    }
    return true;
  }
  const std::uint16_t want = bf16_reference()(f);
  if (got != want) {
    FAIL_CHECK("bfloat16(" << f << ") float bits " << std::hex << bits_of(f) << ": got " << got << " want " << want);
    return false;
  }
  return true;
}

// Floats a rounding routine is most likely to get wrong, for a 16-bit format
// whose finite values are given by `decode`: every value, every midpoint
// between neighbours, and one float ulp either side of each, both signs.
template <class Decode>
std::vector<float> boundary_floats(Decode decode, std::uint16_t max_finite) {
  std::vector<float> v;
  for (std::uint32_t b = 0; b <= max_finite; ++b) {
    const double lo = decode(static_cast<std::uint16_t>(b));
    const double hi = b < max_finite ? decode(static_cast<std::uint16_t>(b + 1))
                                     : 2 * lo - decode(static_cast<std::uint16_t>(b - 1));  // the would-be next value
    const auto mid = static_cast<float>((lo + hi) / 2);  // exact: needs one more bit than the format
    for (float x : {static_cast<float>(lo), mid, std::nextafter(mid, 0.f), std::nextafter(mid, 1e38f)}) {
      v.push_back(x);
      v.push_back(-x);
    }
  }
  return v;
}

}  // namespace

TEST_CASE("half and bfloat16 are 16-bit trivially copyable storage types") {
  static_assert(sizeof(f16) == 2 && sizeof(bfloat16) == 2);
  static_assert(std::is_trivially_copyable_v<f16> && std::is_trivially_copyable_v<bfloat16>);
  static_assert(std::is_standard_layout_v<f16> && std::is_standard_layout_v<bfloat16>);
  static_assert(std::is_same_v<decltype(f16::bits), std::uint16_t>);
  static_assert(std::is_same_v<decltype(bfloat16::bits), std::uint16_t>);
  static_assert(sinter::is_half_like_v<f16> && sinter::is_half_like_v<const bfloat16>);
  static_assert(!sinter::is_half_like_v<float> && !sinter::is_half_like_v<std::uint16_t>);
  static_assert(sinter::is_half_like<volatile f16>::value);
  // Conversions are usable in constant expressions.
  static_assert(f16(1.0f).bits == 0x3c00 && bfloat16(1.0f).bits == 0x3f80);
  static_assert(static_cast<float>(f16::from_bits(0x3555)) == 0x1.554p-2f);
  static_assert(f16(-2).bits == 0xc000 && bfloat16(0.5).bits == 0x3f00);
  static_assert(std::is_convertible_v<float, f16> && std::is_convertible_v<f16, float>);
  static_assert(std::is_convertible_v<int, f16> && std::is_convertible_v<double, bfloat16>);
  static_assert(!std::is_convertible_v<f16, bfloat16> && std::is_constructible_v<bfloat16, f16>);
  CHECK(f16{}.bits == 0);
}

TEST_CASE("half: exhaustive round trip of all 65536 bit patterns") {
  int failures = 0;
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const auto h = static_cast<std::uint16_t>(b);
    const float f = f16::from_bits(h);
    const double want = decode_half(h);
    const std::uint16_t back = f16(f).bits;
    if (is_half_nan(h)) {
      // NaN stays NaN, same sign; the float keeps the payload; converting back sets the quiet bit.
      const bool ok = std::isnan(f) && std::signbit(f) == ((h >> 15) != 0) &&
                      ((bits_of(f) >> 13) & 0x3ff) == (h & 0x3ffu) && back == (h | 0x0200);
      if (!ok) ++failures;
    } else if (static_cast<double>(f) != want || std::signbit(f) != ((h >> 15) != 0) || back != h) {
      ++failures;
      if (failures < 10) FAIL_CHECK("half bits " << std::hex << b << " -> " << f << " -> " << back);
    }
  }
  CHECK(failures == 0);
}

TEST_CASE("bfloat16: exhaustive round trip of all 65536 bit patterns") {
  int failures = 0;
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const auto h = static_cast<std::uint16_t>(b);
    const float f = bfloat16::from_bits(h);
    const double want = decode_bf16(h);
    const std::uint16_t back = bfloat16(f).bits;
    if (is_bf16_nan(h)) {
      const bool ok = std::isnan(f) && std::signbit(f) == ((h >> 15) != 0) && bits_of(f) == (b << 16) &&
                      back == (h | 0x0040);
      if (!ok) ++failures;
    } else if (static_cast<double>(f) != want || std::signbit(f) != ((h >> 15) != 0) || back != h) {
      ++failures;
      if (failures < 10) FAIL_CHECK("bfloat16 bits " << std::hex << b << " -> " << f << " -> " << back);
    }
  }
  CHECK(failures == 0);
}

TEST_CASE("half: float -> half rounding at the boundaries") {
  // Named cases first, so a failure reads well.
  CHECK(f16(65504.f).bits == 0x7bff);
  CHECK(f16(65519.996f).bits == 0x7bff);
  CHECK(f16(65520.f).bits == 0x7c00);      // halfway to the next binade: ties to even = inf
  CHECK(f16(-65520.f).bits == 0xfc00);
  CHECK(f16(1e10f).bits == 0x7c00);
  CHECK(f16(std::numeric_limits<float>::infinity()).bits == 0x7c00);
  CHECK(f16(0x1p-24f).bits == 0x0001);     // smallest subnormal
  CHECK(f16(0x1p-25f).bits == 0x0000);     // halfway below it: ties to even = 0
  CHECK(f16(std::nextafter(0x1p-25f, 1.f)).bits == 0x0001);
  CHECK(f16(0x1.8p-24f).bits == 0x0002);   // 1.5 * 2^-24: ties to even = 2
  CHECK(f16(0x1.ff8p-15f).bits == 0x03ff);  // largest subnormal
  CHECK(f16(0x1.ffcp-15f).bits == 0x0400);  // halfway above it: ties to even = min normal
  CHECK(f16(0x1p-14f).bits == 0x0400);
  CHECK(f16(-0.f).bits == 0x8000);
  CHECK(f16(1.f + 0x1p-11f).bits == 0x3c00);             // tie, even stays
  CHECK(f16(1.f + 0x1p-10f + 0x1p-11f).bits == 0x3c02);  // tie, odd rounds up
  CHECK(f16(std::numeric_limits<float>::denorm_min()).bits == 0);
  CHECK(f16(std::numeric_limits<float>::quiet_NaN()).bits == 0x7e00);
  CHECK(f16(-std::numeric_limits<float>::quiet_NaN()).bits == 0xfe00);
  CHECK(is_half_nan(f16(float_of(0x7f800001)).bits));  // sNaN with only low payload bits
  CHECK(is_half_nan(f16(std::numeric_limits<float>::signaling_NaN()).bits));

  int failures = 0;
  for (float f : boundary_floats(decode_half, 0x7bff)) failures += !check_half(f);
  // Every sign/exponent/top-10-mantissa combination of the half range (and a
  // margin), with the low 13 bits at the rounding-critical patterns.
  for (std::uint32_t e = 100; e <= 144; ++e)
    for (std::uint32_t m = 0; m < 1024; ++m)
      for (std::uint32_t low : {0x0u, 0x1u, 0xfffu, 0x1000u, 0x1001u, 0x1fffu})
        for (std::uint32_t s : {0u, 1u}) {
          failures += !check_half(float_of((s << 31) | (e << 23) | (m << 13) | low));
          if (failures > 20) return;
        }
  CHECK(failures == 0);
}

TEST_CASE("half: float -> half rounding of random floats") {
  std::mt19937 rng(20240611);
  std::uniform_int_distribution<std::uint32_t> any_bits;
  std::uniform_int_distribution<std::uint32_t> near_exp(100, 145);  // subnormal..overflow
  int failures = 0;
  for (int i = 0; i < 2'000'000 && failures < 20; ++i) {
    const std::uint32_t r = any_bits(rng);
    // Half of the draws anywhere, half with an exponent where halves live.
    const std::uint32_t u = (i & 1) ? r : ((r & 0x807fffffu) | (near_exp(rng) << 23));
    failures += !check_half(float_of(u));
  }
  CHECK(failures == 0);
}

TEST_CASE("bfloat16: float -> bfloat16 rounding") {
  CHECK(bfloat16(1.f + 0x1p-8f).bits == 0x3f80);             // tie, even stays
  CHECK(bfloat16(1.f + 0x1p-7f + 0x1p-8f).bits == 0x3f82);   // tie, odd rounds up
  CHECK(bfloat16(std::numeric_limits<float>::max()).bits == 0x7f80);
  CHECK(bfloat16(0x1.fep127f).bits == 0x7f7f);
  CHECK(bfloat16(0x1.ffp127f).bits == 0x7f80);               // halfway past max: inf
  CHECK(bfloat16(std::nextafter(0x1.ffp127f, 0.f)).bits == 0x7f7f);
  CHECK(bfloat16(-std::numeric_limits<float>::infinity()).bits == 0xff80);
  CHECK(bfloat16(std::numeric_limits<float>::denorm_min()).bits == 0x0000);
  CHECK(bfloat16(0x1p-133f).bits == 0x0001);
  CHECK(bfloat16(std::numeric_limits<float>::quiet_NaN()).bits == 0x7fc0);
  CHECK(is_bf16_nan(bfloat16(float_of(0x7f800001)).bits));
  CHECK(is_bf16_nan(bfloat16(float_of(0xff800001)).bits));

  int failures = 0;
  for (float f : boundary_floats(decode_bf16, 0x7f7f)) failures += !check_bf16(f);
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::uint32_t> any_bits;
  for (int i = 0; i < 2'000'000 && failures < 20; ++i) {
    const std::uint32_t r = any_bits(rng);
    // Odd draws: low 16 bits forced to a rounding-critical pattern.
    const std::uint32_t lows[] = {0x8000u, 0x7fffu, 0x8001u, 0u};
    failures += !check_bf16(float_of((i & 1) ? r : ((r & 0xffff0000u) | lows[(r >> 3) & 3])));
  }
  CHECK(failures == 0);
}

TEST_CASE("construction from double and integers goes through float") {
  CHECK(f16(1.0).bits == 0x3c00);
  CHECK(f16(3).bits == f16(3.f).bits);
  CHECK(f16(70000).bits == 0x7c00);
  CHECK(f16(-7L).bits == f16(-7.f).bits);
  CHECK(f16(static_cast<unsigned char>(200)).bits == f16(200.f).bits);
  CHECK(f16(1e300).bits == 0x7c00);
  CHECK(bfloat16(1e300).bits == 0x7f80);
  CHECK(bfloat16(16777217LL).bits == bfloat16(16777216.f).bits);
  const double d = 0.1;
  CHECK(f16(d).bits == f16(static_cast<float>(d)).bits);
  CHECK(f16(bfloat16(0.5f)).bits == 0x3800);
  CHECK(bfloat16(f16(0.5f)).bits == 0x3f00);
  f16 h = 2;  // implicit, like a float
  bfloat16 b = 2.5;
  CHECK(static_cast<float>(h) == 2.f);
  CHECK(static_cast<float>(b) == 2.5f);
  CHECK(static_cast<int>(f16(7.75f)) == 7);
}

TEST_CASE("comparisons go through float") {
  const f16 one = 1.f, two = 2.f;
  const f16 nan = std::numeric_limits<f16>::quiet_NaN();
  CHECK(one < two);
  CHECK(two > one);
  CHECK(one <= one);
  CHECK(one >= one);
  CHECK(one == one);
  CHECK(one != two);
  CHECK(one == 1.f);
  CHECK(1.f == one);
  CHECK(one < 1.5);
  CHECK(2 > one);
  CHECK(f16(0.f) == f16(-0.f));
  CHECK_FALSE(nan == nan);
  CHECK(nan != nan);
  CHECK_FALSE(nan < one);
  CHECK_FALSE(nan >= one);
  CHECK(bfloat16(1.f) == one);
  CHECK(bfloat16(3.f) > two);
  CHECK(f16(0.1f) != 0.1f);   // 0.1 is not a f16
  CHECK(f16(0.1f) != 0.1);
  const bfloat16 bone = 1.f;
  CHECK(bone <= 1);
}

TEST_CASE("unary minus and printing") {
  CHECK((-f16(1.5f)).bits == 0xbe00);
  CHECK((-f16(0.f)).bits == 0x8000);
  CHECK((-bfloat16(1.f)).bits == 0xbf80);
  CHECK(is_half_nan((-std::numeric_limits<f16>::quiet_NaN()).bits));
  CHECK(-(-f16(3.f)) == 3.f);
  std::ostringstream os;
  os << f16(0.5f) << ' ' << bfloat16(-2.f) << ' ' << std::numeric_limits<f16>::max();
  CHECK(os.str() == "0.5 -2 65504");
}

TEST_CASE_TEMPLATE("numeric_limits are consistent", T, f16, bfloat16) {
  using L = std::numeric_limits<T>;
  static_assert(L::is_specialized && L::is_signed && !L::is_integer && L::has_infinity && L::has_quiet_NaN);
  static_assert(std::numeric_limits<const T>::digits == L::digits);
  const auto f = [](T x) { return static_cast<double>(static_cast<float>(x)); };
  CHECK(f(L::epsilon()) == std::ldexp(1.0, 1 - L::digits));
  CHECK(f(L::min()) == std::ldexp(1.0, L::min_exponent - 1));
  CHECK(f(L::denorm_min()) == std::ldexp(1.0, L::min_exponent - L::digits));
  CHECK(f(L::max()) == std::ldexp(2.0 - std::ldexp(1.0, 1 - L::digits), L::max_exponent - 1));
  CHECK(f(L::lowest()) == -f(L::max()));
  CHECK(f(L::round_error()) == 0.5);
  CHECK(std::isinf(f(L::infinity())));
  CHECK(f(L::infinity()) > 0);
  CHECK(std::isnan(f(L::quiet_NaN())));
  CHECK(std::isnan(f(L::signaling_NaN())));
  CHECK(L::quiet_NaN().bits != L::signaling_NaN().bits);
  // The next value above 1 is 1 + epsilon.
  CHECK(f(T::from_bits(static_cast<std::uint16_t>(T(1.f).bits + 1))) == 1.0 + f(L::epsilon()));
  // max_exponent10 / min_exponent10 bracket the range.
  CHECK(f(L::max()) >= std::pow(10.0, L::max_exponent10));
  CHECK(f(L::max()) < std::pow(10.0, L::max_exponent10 + 1));
  CHECK(f(L::min()) >= std::pow(10.0, L::min_exponent10 - 1));
  CHECK(f(L::min()) < std::pow(10.0, L::min_exponent10 + 1));
}

TEST_CASE("half: exact limit values") {
  CHECK(static_cast<float>(std::numeric_limits<f16>::max()) == 65504.f);
  CHECK(static_cast<float>(std::numeric_limits<f16>::min()) == 0x1p-14f);
  CHECK(static_cast<float>(std::numeric_limits<f16>::denorm_min()) == 0x1p-24f);
  CHECK(static_cast<float>(std::numeric_limits<bfloat16>::max()) == 0x1.fep127f);
  CHECK(static_cast<float>(std::numeric_limits<bfloat16>::denorm_min()) == 0x1p-133f);
  CHECK(std::numeric_limits<f16>::digits == 11);
  CHECK(std::numeric_limits<bfloat16>::digits == 8);
}

// The bulk conversions of core/half.hpp (detail::to_float_n, from_float_n),
// which vectorise (tests/math_vectorize_half), against a scalar reference
// written here in double (std::nearbyint: round to nearest even): all 65536
// half and bfloat16 bit patterns; float -> 16 bits on every float around
// every rounding boundary (midpoints between neighbours and their float
// neighbours, overflow, subnormals, zeros, infinities, NaN payloads) and a
// strided sweep of all floats; pieces of odd lengths at misaligned offsets.
#include <sinter/core/half.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <vector>

#include "support/scale.hpp"

namespace test_half_bulk {

using sinter::bfloat16;
using f16 = sinter::half;  // `half` alone is ambiguous under nvcc (cuda_fp16.h)

std::uint32_t bits_of(float f) { return std::bit_cast<std::uint32_t>(f); }
float float_of(std::uint32_t u) { return std::bit_cast<float>(u); }

/// The 16-bit format: explicit mantissa bits, minimum normal exponent, infinity's bits.
struct format {
  int mant;
  int emin;
  std::uint32_t inf;
  int bias() const { return static_cast<int>(inf >> mant) / 2; }
};
constexpr format half_format{10, -14, 0x7c00u};
constexpr format bf16_format{7, -126, 0x7f80u};

/// float -> 16 bits: |f| in units of its binade's quantum 2^(e - mant), rounded
/// to nearest even by nearbyint; the bits are (e - emin) 2^mant + that count,
/// which carries into the exponent (and to infinity) as the format does.
/// NaN: quiet, with the sign and the payload's top bits.
std::uint16_t ref_narrow(float f, format t) {
  const std::uint32_t u = bits_of(f);
  const std::uint32_t sign = (u >> 16) & 0x8000u;
  if (std::isnan(f)) return static_cast<std::uint16_t>(sign | t.inf | (1u << (t.mant - 1)) | ((u & 0x7fffffu) >> (23 - t.mant)));
  const double x = std::fabs(static_cast<double>(f));
  if (std::isinf(x)) return static_cast<std::uint16_t>(sign | t.inf);
  int e = x == 0 ? t.emin : std::ilogb(x);
  if (e < t.emin) e = t.emin;
  const double count = std::nearbyint(std::ldexp(x, t.mant - e));  // exact scaling, then the rounding
  const double bits = static_cast<double>(e - t.emin) * std::ldexp(1.0, t.mant) + count;
  return static_cast<std::uint16_t>(sign | (bits >= t.inf ? t.inf : static_cast<std::uint32_t>(bits)));
}

/// 16 bits -> float, decoded by the formula; NaN: the payload moved to the top, not quietened.
std::uint32_t ref_widen(std::uint16_t b, format t) {
  const std::uint32_t sign = (b & 0x8000u) << 16, e = (b & 0x7fffu) >> t.mant, m = b & ((1u << t.mant) - 1);
  if ((b & t.inf) == t.inf) return sign | 0x7f800000u | (m << (23 - t.mant));
  const int bias = t.bias();
  const double v = e == 0 ? std::ldexp(static_cast<double>(m), 1 - bias - t.mant)
                          : std::ldexp(static_cast<double>(m + (1u << t.mant)), static_cast<int>(e) - bias - t.mant);
  return sign | bits_of(static_cast<float>(v));
}

/// Piece lengths for the bulk calls: around the step (32) and vector widths, odd and prime.
constexpr std::ptrdiff_t piece_lengths[] = {0, 1, 7, 31, 32, 33, 63, 64, 65, 97, 127, 1000, 4099};

/// to_float_n over all 65536 patterns in pieces (misaligned after the first); mismatches.
template <class T>
std::size_t widen_bad(format t) {
  std::vector<T> src(65536);
  for (std::uint32_t b = 0; b < 65536; ++b) src[b] = T::from_bits(static_cast<std::uint16_t>(b));
  std::vector<float> dst(65536, -1.f);
  std::ptrdiff_t at = 0;
  for (std::size_t p = 0; at < 65536; ++p) {
    const std::ptrdiff_t len = std::min(piece_lengths[p % std::size(piece_lengths)], std::ptrdiff_t{65536} - at);
    sinter::detail::to_float_n(src.data() + at, len, dst.data() + at);
    at += len;
  }
  std::size_t bad = 0;
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const std::uint32_t want = ref_widen(static_cast<std::uint16_t>(b), t);
    bad += bits_of(dst[b]) != want || bits_of(static_cast<float>(src[b])) != want;
  }
  return bad;
}

/// from_float_n over the floats in pieces; mismatches against ref_narrow and the scalar constructor.
template <class T>
std::size_t narrow_bad(const std::vector<float>& src, format t) {
  std::vector<T> dst(src.size(), T::from_bits(0x5555));
  const auto n = static_cast<std::ptrdiff_t>(src.size());
  std::ptrdiff_t at = 0;
  for (std::size_t p = 0; at < n; ++p) {
    const std::ptrdiff_t len = std::min(piece_lengths[(p * 7) % std::size(piece_lengths)], n - at);
    sinter::detail::from_float_n(src.data() + at, len, dst.data() + at);
    at += len;
  }
  std::size_t bad = 0;
  for (std::size_t i = 0; i < src.size(); ++i) {
    const std::uint16_t want = ref_narrow(src[i], t);
    bad += dst[i].bits != want || T(src[i]).bits != want;
    if (dst[i].bits != want && bad < 5) FAIL_CHECK("float bits " << std::hex << bits_of(src[i]) << ": " << dst[i].bits << " want " << want);
  }
  return bad;
}

/// Every float at a rounding boundary of format t: for each non-negative finite
/// pattern b, its value, the midpoint to b + 1 (to 2^(emax + 1) for the largest:
/// the overflow threshold) and their float neighbours, both
/// signs; zeros, infinities, NaN payloads (each bit; quiet and signalling).
std::vector<float> boundary_floats(format t, std::uint32_t top) {
  std::vector<float> out;
  const auto push = [&](float f) {
    for (float g : {f, std::nextafter(f, 0.f), std::nextafter(f, std::numeric_limits<float>::infinity())}) {
      out.push_back(g);
      out.push_back(-g);
    }
  };
  for (std::uint32_t b = 0; b < top; ++b) {
    const double lo = static_cast<double>(float_of(ref_widen(static_cast<std::uint16_t>(b), t)));
    const double hi = b + 1 == top ? std::ldexp(1.0, t.bias() + 1)
                                   : static_cast<double>(float_of(ref_widen(static_cast<std::uint16_t>(b + 1), t)));
    push(static_cast<float>(lo));
    push(static_cast<float>((lo + hi) / 2));  // exact: fewer than 24 significant bits
  }
  for (std::uint32_t bit = 0; bit < 23; ++bit)
    for (std::uint32_t sign : {0u, 0x80000000u}) {
      out.push_back(float_of(sign | 0x7f800000u | (1u << bit)));
      out.push_back(float_of(sign | 0x7fc00000u | (1u << bit)));
    }
  return out;
}

/// Every stride-th float bit pattern (all of them in order: NaNs, subnormals, both signs).
std::vector<float> strided_floats(std::uint64_t stride) {
  std::vector<float> out;
  for (std::uint64_t u = 0; u < (std::uint64_t{1} << 32); u += stride) out.push_back(float_of(static_cast<std::uint32_t>(u)));
  return out;
}

}  // namespace test_half_bulk

TEST_CASE("half, bfloat16: to_float_n over all 65536 bit patterns, pieces of odd lengths") {
  using namespace test_half_bulk;
  CHECK(widen_bad<sinter::half>(half_format) == 0);
  CHECK(widen_bad<bfloat16>(bf16_format) == 0);
}

TEST_CASE("half: from_float_n at every rounding boundary and on a strided sweep of all floats") {
  using namespace test_half_bulk;
  const std::vector<float> edges = boundary_floats(half_format, 0x7c00u);  // through max -> inf's midpoint
  CHECK(edges.size() > 6 * 2 * 0x7c00u);
  CHECK(narrow_bad<sinter::half>(edges, half_format) == 0);
  CHECK(narrow_bad<sinter::half>(strided_floats(509u * sinter_test::scale), half_format) == 0);
}

TEST_CASE("bfloat16: from_float_n at every rounding boundary and on a strided sweep of all floats") {
  using namespace test_half_bulk;
  const std::vector<float> edges = boundary_floats(bf16_format, 0x7f80u);
  CHECK(narrow_bad<bfloat16>(edges, bf16_format) == 0);
  CHECK(narrow_bad<bfloat16>(strided_floats(509u * sinter_test::scale), bf16_format) == 0);
}

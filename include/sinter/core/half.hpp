#pragma once
/// \file half.hpp
/// 16-bit floating-point storage types: `sinter::half` (IEEE binary16) and
/// `sinter::bfloat16` (the upper half of a binary32). Both store 16 bits and
/// compute in float: they convert to float exactly and implicitly, and from
/// float with round-to-nearest-even. The host conversions are branch-free
/// (integer ops and selects), so a loop converting an array
/// vectorises; to_float_n / from_float_n are such loops, vectorised also at
/// GCC's -O2. nvcc's device pass uses the cuda_fp16 / cuda_bf16 intrinsics
/// instead. The layout (one std::uint16_t) is the same on both sides.
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <type_traits>

#include "../config.hpp"

#if SINTER_HAS_CUDA()
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

namespace sinter {

struct half;
struct bfloat16;

/// True for the 16-bit storage types `half` and `bfloat16` (cv-qualifiers ignored).
template <class T>
inline constexpr bool is_half_like_v =
    std::is_same_v<std::remove_cv_t<T>, half> || std::is_same_v<std::remove_cv_t<T>, bfloat16>;

/// Type-trait form of `is_half_like_v`: `sinter::is_half_like<T>::value`.
template <class T>
struct is_half_like : std::bool_constant<is_half_like_v<T>> {};

namespace detail {

// The host conversions below use integer arithmetic, bit-mask selects where a
// float operation is involved and `?:` elsewhere, so g++/clang vectorise an
// array loop over them (no branch, no table).

SINTER_HD constexpr std::uint32_t float_bits(float f) noexcept { return __builtin_bit_cast(std::uint32_t, f); }
SINTER_HD constexpr float bits_float(std::uint32_t u) noexcept { return __builtin_bit_cast(float, u); }
/// a where c, else b, through a bit mask. Not `c ? a : b`: g++ makes
/// that a branch, moves a float operation only one side uses into it, and
/// with -ftrapping-math (the default) no longer vectorises the loop.
SINTER_HD constexpr std::uint32_t select_bits(bool c, std::uint32_t a, std::uint32_t b) noexcept {
  const std::uint32_t m = 0u - static_cast<std::uint32_t>(c);
  return (a & m) | (b & ~m);
}

/// binary32 -> binary16 bits, round to nearest even; NaN -> quiet NaN keeping
/// sign and the top payload bits; overflow -> inf; subnormal results exact.
SINTER_HD constexpr std::uint16_t float_to_half_bits(float f) noexcept {
  const std::uint32_t u = float_bits(f);
  const std::uint32_t a = u & 0x7fffffffu;  // |f|
  // Each candidate is built in the top 16 bits and the result shifted down at
  // the end: truncating a select of 32-bit values, g++ narrowed every operand
  // of it on its own (more shuffles than the work on SSE2).
  // Normal half result: rebias the exponent (127 -> 15) and round the 13
  // dropped mantissa bits to nearest even by adding 0xfff + (lsb of result).
  // A carry out of the mantissa bumps the exponent, which is also correct for
  // rounding up to the next binade or to inf (0x7c00).
  const std::uint32_t normal = (a - ((127u - 15u) << 23) + 0xfffu + ((a >> 13) & 1u)) << 3;
  // Subnormal or zero result (|f| < 2^-14): adding 0.5 aligns the value so
  // that float addition itself (round to nearest even) rounds it at 2^-24,
  // and the result's low mantissa bits are the half's bits. The sum is a
  // normal float and float subnormals round to 0 anyway, so FTZ/DAZ do not
  // matter. (It follows the FP rounding mode, which is round-to-nearest
  // unless the program changes it with fesetround.)
  const std::uint32_t sub = (float_bits(bits_float(a) + 0.5f) - float_bits(0.5f)) << 16;
  const std::uint32_t nan = 0x7e000000u | ((a << 3) & 0x03ff0000u);  // quiet, the payload's top 10 bits
  std::uint32_t r = select_bits(a < (113u << 23), sub, normal);  // 113 = 127 - 14
  r = select_bits(a >= (143u << 23), 0x7c000000u, r);         // |f| >= 65536 -> inf
  r = select_bits(a > 0x7f800000u, nan, r);
  return static_cast<std::uint16_t>((r | (u & 0x80000000u)) >> 16);
}

/// binary16 bits -> binary32, exact (NaN payload kept, moved to the top).
SINTER_HD constexpr float half_bits_to_float(std::uint16_t h) noexcept {
  const std::uint32_t hu = h;
  const std::uint32_t sign = (hu & 0x8000u) << 16;
  const std::uint32_t em = hu & 0x7fffu;
  const std::uint32_t exp = em & 0x7c00u;
  const std::uint32_t normal = (em << 13) + ((127u - 15u) << 23);
  const std::uint32_t infnan = (em << 13) | 0x7f800000u;
  // Subnormal: value is m * 2^-24. Build 2^-14 * (1 + m/1024) and subtract
  // 2^-14 (exact; both operands and the result are normal floats).
  const std::uint32_t sub = float_bits(bits_float((em << 13) + (113u << 23)) - bits_float(113u << 23));
  std::uint32_t r = select_bits(exp == 0, sub, normal);
  r = select_bits(exp == 0x7c00u, infnan, r);
  return bits_float(r | sign);
}

/// binary32 -> bfloat16 bits, round to nearest even; NaN -> quiet NaN with
/// sign and top payload bits; overflow -> inf.
SINTER_HD constexpr std::uint16_t float_to_bfloat16_bits(float f) noexcept {
  const std::uint32_t u = float_bits(f);
  const std::uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  const std::uint32_t nan = (u >> 16) | 0x0040u;
  const std::uint32_t r = (u & 0x7fffffffu) > 0x7f800000u ? nan : rounded;  // integers only: `?:` vectorises
  return static_cast<std::uint16_t>(r);
}

/// bfloat16 bits -> binary32, exact.
SINTER_HD constexpr float bfloat16_bits_to_float(std::uint16_t b) noexcept {
  return bits_float(static_cast<std::uint32_t>(b) << 16);
}

}  // namespace detail

/// IEEE 754 binary16 storage type; computes in float: `sinter::half h = 1.5f; float f = h;`
struct half {
  /// The raw binary16 bits.
  std::uint16_t bits;

  /// Uninitialised, like a float: `sinter::half h;` (use `half{}` or `half(0.f)` for zero).
  half() = default;

  /// Rounds to nearest even; NaN stays (quiet) NaN, overflow gives inf: `sinter::half h = 0.1f;`
  SINTER_HD constexpr half(float f) noexcept : bits(convert(f)) {}

  /// From any other arithmetic type, through float: `sinter::half h = 3;`
  template <class T>
    requires(std::is_arithmetic_v<T> && !std::is_same_v<T, float>)
  SINTER_HD constexpr half(T v) noexcept : half(static_cast<float>(v)) {}

  /// From `bfloat16`, through float (explicit: it may round): `sinter::half h(b);`
  template <class T>
    requires std::is_same_v<T, bfloat16>
  SINTER_HD constexpr explicit half(T v) noexcept : half(static_cast<float>(v)) {}

  /// The half with the given bits: `sinter::half::from_bits(0x3c00)` is 1.
  SINTER_HD static constexpr half from_bits(std::uint16_t b) noexcept {
    half h{};
    h.bits = b;
    return h;
  }

  /// Exact conversion to float: `float f = h;`
  SINTER_HD constexpr operator float() const noexcept {
#if SINTER_DEVICE_CODE()
    if (!__builtin_is_constant_evaluated()) return __half2float(__ushort_as_half(bits));
#endif
    return detail::half_bits_to_float(bits);
  }

 private:
  SINTER_HD static constexpr std::uint16_t convert(float f) noexcept {
#if SINTER_DEVICE_CODE()
    if (!__builtin_is_constant_evaluated()) return __half_as_ushort(__float2half_rn(f));
#endif
    return detail::float_to_half_bits(f);
  }
};

/// bfloat16 storage type (top 16 bits of a float); computes in float: `sinter::bfloat16 b = 2.f;`
struct bfloat16 {
  /// The raw bfloat16 bits.
  std::uint16_t bits;

  /// Uninitialised, like a float: `sinter::bfloat16 b;`
  bfloat16() = default;

  /// Rounds to nearest even; NaN stays (quiet) NaN, overflow gives inf: `sinter::bfloat16 b = 0.1f;`
  SINTER_HD constexpr bfloat16(float f) noexcept : bits(convert(f)) {}

  /// From any other arithmetic type, through float: `sinter::bfloat16 b = 3;`
  template <class T>
    requires(std::is_arithmetic_v<T> && !std::is_same_v<T, float>)
  SINTER_HD constexpr bfloat16(T v) noexcept : bfloat16(static_cast<float>(v)) {}

  /// From `half`, through float (explicit: it may round): `sinter::bfloat16 b(h);`
  template <class T>
    requires std::is_same_v<T, half>
  SINTER_HD constexpr explicit bfloat16(T v) noexcept : bfloat16(static_cast<float>(v)) {}

  /// The bfloat16 with the given bits: `sinter::bfloat16::from_bits(0x3f80)` is 1.
  SINTER_HD static constexpr bfloat16 from_bits(std::uint16_t b) noexcept {
    bfloat16 h{};
    h.bits = b;
    return h;
  }

  /// Exact conversion to float: `float f = b;`
  SINTER_HD constexpr operator float() const noexcept { return detail::bfloat16_bits_to_float(bits); }

 private:
  SINTER_HD static constexpr std::uint16_t convert(float f) noexcept {
#if SINTER_DEVICE_CODE()
    if (!__builtin_is_constant_evaluated()) return __bfloat16_as_ushort(__float2bfloat16_rn(f));
#endif
    return detail::float_to_bfloat16_bits(f);
  }
};

static_assert(sizeof(half) == 2 && alignof(half) == 2 && std::is_trivially_copyable_v<half>);
static_assert(sizeof(bfloat16) == 2 && alignof(bfloat16) == 2 && std::is_trivially_copyable_v<bfloat16>);
static_assert(std::is_trivially_default_constructible_v<half> && std::is_standard_layout_v<half>);
static_assert(std::is_trivially_default_constructible_v<bfloat16> && std::is_standard_layout_v<bfloat16>);

// Out of line and ivdep: inlined into a large caller, g++ -O2 left the loops
// scalar (its "very cheap" model takes no run-time alias check or peeling).
#if defined(__clang__)
#define SINTER_DETAIL_HALF_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define SINTER_DETAIL_HALF_IVDEP _Pragma("GCC ivdep")
#else
#define SINTER_DETAIL_HALF_IVDEP
#endif
namespace detail {
/// Elements per step of the bulk conversions' first loop: a multiple of every vector width.
inline constexpr std::ptrdiff_t half_bulk_step = 32;
/// dst[i] = float(src[i]) for i in [0, n) (exact), T half or bfloat16, host.
/// Two loops, the first over a multiple of half_bulk_step: GCC's -O2 ("very
/// cheap" cost model) vectorises no loop that needs a scalar remainder.
template <class T>
__attribute__((noinline)) void to_float_n(const T* __restrict src, std::ptrdiff_t n, float* __restrict dst) noexcept {
  static_assert(is_half_like_v<T>, "to_float_n: half or bfloat16");
  const std::ptrdiff_t whole = n & ~(half_bulk_step - 1);
  SINTER_DETAIL_HALF_IVDEP
  for (std::ptrdiff_t i = 0; i < whole; ++i) dst[i] = static_cast<float>(src[i]);
  SINTER_DETAIL_HALF_IVDEP
  for (std::ptrdiff_t i = whole; i < n; ++i) dst[i] = static_cast<float>(src[i]);
}
/// dst[i] = T(src[i]) for i in [0, n), rounded to nearest even, T half or bfloat16, host (as to_float_n).
template <class T>
__attribute__((noinline)) void from_float_n(const float* __restrict src, std::ptrdiff_t n, T* __restrict dst) noexcept {
  static_assert(is_half_like_v<T>, "from_float_n: half or bfloat16");
  const std::ptrdiff_t whole = n & ~(half_bulk_step - 1);
  SINTER_DETAIL_HALF_IVDEP
  for (std::ptrdiff_t i = 0; i < whole; ++i) dst[i] = T(src[i]);
  SINTER_DETAIL_HALF_IVDEP
  for (std::ptrdiff_t i = whole; i < n; ++i) dst[i] = T(src[i]);
}
}  // namespace detail

namespace detail {
/// Operands of a mixed comparison: at least one half-like, the other arithmetic or half-like.
template <class A, class B>
concept half_comparable = (is_half_like_v<A> || is_half_like_v<B>) &&
                          (is_half_like_v<A> || std::is_arithmetic_v<A>) &&
                          (is_half_like_v<B> || std::is_arithmetic_v<B>);
/// The type a comparison is done in: float, or double against a double (as `float < T` would).
template <class A, class B>
using half_compare_t = std::common_type_t<std::conditional_t<is_half_like_v<A>, float, A>,
                                          std::conditional_t<is_half_like_v<B>, float, B>>;
/// `v` in the comparison type `C` (explicitly, so an int operand converts like `1.f < 2` without a warning).
template <class C, class T>
SINTER_HD constexpr C compare_as(T v) noexcept {
  if constexpr (is_half_like_v<T>) {
    return static_cast<C>(static_cast<float>(v));
  } else {
    return static_cast<C>(v);
  }
}
}  // namespace detail

// Comparisons go through float (a half compared with a double compares as
// double). Written as constrained templates so that `h < 1.0f` picks them
// instead of being ambiguous between a float and a half conversion.

/// `a == b` compared as float: `half(1.f) == 1.f`; NaN compares unequal.
template <class A, class B>
  requires detail::half_comparable<A, B>
SINTER_HD constexpr bool operator==(A a, B b) noexcept {
  using C = detail::half_compare_t<A, B>;
  return detail::compare_as<C>(a) == detail::compare_as<C>(b);
}
/// `a != b` compared as float.
template <class A, class B>
  requires detail::half_comparable<A, B>
SINTER_HD constexpr bool operator!=(A a, B b) noexcept {
  using C = detail::half_compare_t<A, B>;
  return detail::compare_as<C>(a) != detail::compare_as<C>(b);
}
/// `a < b` compared as float.
template <class A, class B>
  requires detail::half_comparable<A, B>
SINTER_HD constexpr bool operator<(A a, B b) noexcept {
  using C = detail::half_compare_t<A, B>;
  return detail::compare_as<C>(a) < detail::compare_as<C>(b);
}
/// `a <= b` compared as float.
template <class A, class B>
  requires detail::half_comparable<A, B>
SINTER_HD constexpr bool operator<=(A a, B b) noexcept {
  using C = detail::half_compare_t<A, B>;
  return detail::compare_as<C>(a) <= detail::compare_as<C>(b);
}
/// `a > b` compared as float.
template <class A, class B>
  requires detail::half_comparable<A, B>
SINTER_HD constexpr bool operator>(A a, B b) noexcept {
  using C = detail::half_compare_t<A, B>;
  return detail::compare_as<C>(a) > detail::compare_as<C>(b);
}
/// `a >= b` compared as float.
template <class A, class B>
  requires detail::half_comparable<A, B>
SINTER_HD constexpr bool operator>=(A a, B b) noexcept {
  using C = detail::half_compare_t<A, B>;
  return detail::compare_as<C>(a) >= detail::compare_as<C>(b);
}

// ---- unary minus and printing ------------------------------------------------

/// Negation flips the sign bit (exact, NaN included): `-sinter::half(1.f)`.
SINTER_HD constexpr half operator-(half h) noexcept { return half::from_bits(static_cast<std::uint16_t>(h.bits ^ 0x8000u)); }
/// Negation flips the sign bit (exact, NaN included): `-sinter::bfloat16(1.f)`.
SINTER_HD constexpr bfloat16 operator-(bfloat16 h) noexcept {
  return bfloat16::from_bits(static_cast<std::uint16_t>(h.bits ^ 0x8000u));
}

/// Prints the float value: `std::cout << sinter::half(0.5f)` prints `0.5`.
template <class CharT, class Traits>
std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& os, half h) {
  return os << static_cast<float>(h);
}
/// Prints the float value: `std::cout << sinter::bfloat16(0.5f)` prints `0.5`.
template <class CharT, class Traits>
std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& os, bfloat16 h) {
  return os << static_cast<float>(h);
}

}  // namespace sinter

// ---- std::numeric_limits -------------------------------------------------------

namespace sinter::detail {
/// The numeric_limits members common to both 16-bit types.
struct half_limits_common {
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr std::float_denorm_style has_denorm = std::denorm_present;
  static constexpr bool has_denorm_loss = false;
  static constexpr std::float_round_style round_style = std::round_to_nearest;
  static constexpr bool is_iec559 = true;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int radix = 2;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;
};
}  // namespace sinter::detail

namespace std {
/// numeric_limits of IEEE binary16: max() is 65504, epsilon() is 2^-10.
template <>
struct numeric_limits<sinter::half> : sinter::detail::half_limits_common {
 private:
  using T = sinter::half;

 public:
  static constexpr int digits = 11;
  static constexpr int digits10 = 3;
  static constexpr int max_digits10 = 5;
  static constexpr int min_exponent = -13;
  static constexpr int min_exponent10 = -4;
  static constexpr int max_exponent = 16;
  static constexpr int max_exponent10 = 4;
  SINTER_HD static constexpr T min() noexcept { return T::from_bits(0x0400); }
  SINTER_HD static constexpr T max() noexcept { return T::from_bits(0x7bff); }
  SINTER_HD static constexpr T lowest() noexcept { return T::from_bits(0xfbff); }
  SINTER_HD static constexpr T epsilon() noexcept { return T::from_bits(0x1400); }
  SINTER_HD static constexpr T round_error() noexcept { return T::from_bits(0x3800); }
  SINTER_HD static constexpr T infinity() noexcept { return T::from_bits(0x7c00); }
  SINTER_HD static constexpr T quiet_NaN() noexcept { return T::from_bits(0x7e00); }
  SINTER_HD static constexpr T signaling_NaN() noexcept { return T::from_bits(0x7d00); }
  SINTER_HD static constexpr T denorm_min() noexcept { return T::from_bits(0x0001); }
};

/// numeric_limits of bfloat16: float's exponent range with 8 significant bits.
template <>
struct numeric_limits<sinter::bfloat16> : sinter::detail::half_limits_common {
 private:
  using T = sinter::bfloat16;

 public:
  static constexpr int digits = 8;
  static constexpr int digits10 = 2;
  static constexpr int max_digits10 = 4;
  static constexpr int min_exponent = -125;
  static constexpr int min_exponent10 = -37;
  static constexpr int max_exponent = 128;
  static constexpr int max_exponent10 = 38;
  SINTER_HD static constexpr T min() noexcept { return T::from_bits(0x0080); }
  SINTER_HD static constexpr T max() noexcept { return T::from_bits(0x7f7f); }
  SINTER_HD static constexpr T lowest() noexcept { return T::from_bits(0xff7f); }
  SINTER_HD static constexpr T epsilon() noexcept { return T::from_bits(0x3c00); }
  SINTER_HD static constexpr T round_error() noexcept { return T::from_bits(0x3f00); }
  SINTER_HD static constexpr T infinity() noexcept { return T::from_bits(0x7f80); }
  SINTER_HD static constexpr T quiet_NaN() noexcept { return T::from_bits(0x7fc0); }
  SINTER_HD static constexpr T signaling_NaN() noexcept { return T::from_bits(0x7fa0); }
  SINTER_HD static constexpr T denorm_min() noexcept { return T::from_bits(0x0001); }
};
}  // namespace std

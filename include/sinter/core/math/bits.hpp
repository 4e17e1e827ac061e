#pragma once
/// \file bits.hpp
/// Bit-level helpers for the branch-free maths in core/math: every function
/// here compiles to a few instructions with no branch and no call, so a loop
/// that uses them stays vectorisable.
#include <cstdint>
#include <cstring>
#include <limits>

#include "../../config.hpp"

namespace sinter::detail::math {

/// The integer type of the same width as a float type.
template <class F> struct int_of;
template <> struct int_of<float> { using type = std::int32_t; using utype = std::uint32_t; };
template <> struct int_of<double> { using type = std::int64_t; using utype = std::uint64_t; };
template <class F> using int_of_t = typename int_of<F>::type;
template <class F> using uint_of_t = typename int_of<F>::utype;

/// The bits of a float as an unsigned integer (std::bit_cast, usable on the device).
template <class F>
SINTER_HD SINTER_FORCEINLINE uint_of_t<F> to_bits(F x) {
  uint_of_t<F> u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

/// The float whose bits are `u`.
template <class F>
SINTER_HD SINTER_FORCEINLINE F from_bits(uint_of_t<F> u) {
  F x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

/// std::numeric_limits values as constants that device code may read.
/// (Calling numeric_limits' functions inside a __host__ __device__ function
/// is a host call under nvcc; initialising these members at class scope is not.)
template <class T>
struct limits {
  static constexpr T lowest = std::numeric_limits<T>::lowest();
  static constexpr T min = std::numeric_limits<T>::min();
  static constexpr T max = std::numeric_limits<T>::max();
  static constexpr T infinity = std::numeric_limits<T>::infinity();
  static constexpr T quiet_nan = std::numeric_limits<T>::quiet_NaN();
};

/// Branch-free select: `c ? a : b`, written so compilers emit a blend.
template <class T>
SINTER_HD SINTER_FORCEINLINE T select(bool c, T a, T b) {
  return c ? a : b;
}

/// select() for float: a bitwise blend under a mask. GCC (12) will not
/// if-convert `c ? a : b` when c is a floating comparison and
/// -ftrapping-math is on (the default), which blocks vectorisation; the
/// mask form vectorises at SSE2.
SINTER_HD SINTER_FORCEINLINE float select(bool c, float a, float b) {
  const std::uint32_t m = 0u - static_cast<std::uint32_t>(c);
  return from_bits<float>((to_bits(a) & m) | (to_bits(b) & ~m));
}

/// select() for double, as for float; vectorises from SSE4.2 (at SSE2 a
/// double comparison cannot become a mask: use blend() with lt_mask()).
SINTER_HD SINTER_FORCEINLINE double select(bool c, double a, double b) {
  const std::uint64_t m = 0ull - static_cast<std::uint64_t>(c);
  return from_bits<double>((to_bits(a) & m) | (to_bits(b) & ~m));
}

// ---- added for exp_log.hpp / sqrt_round.hpp / pow_erf.hpp (branch-free helpers) ----

/// Layout constants of a binary floating-point type: `fp_traits<double>::mant_bits == 52`.
template <class F> struct fp_traits;
template <> struct fp_traits<float> {
  static constexpr int mant_bits = 23;
  static constexpr int bias = 127;
  static constexpr float two_mant = 0x1p23f;        // 2^mant_bits: above it every float is an integer
  static constexpr float round_magic = 0x1.8p23f;   // 1.5 * 2^mant_bits
  static constexpr std::uint32_t sign_mask = 0x80000000u;
  static constexpr std::uint32_t exp_mask = 0x7f800000u;
  static constexpr std::uint32_t mant_mask = 0x007fffffu;
};
template <> struct fp_traits<double> {
  static constexpr int mant_bits = 52;
  static constexpr int bias = 1023;
  static constexpr double two_mant = 0x1p52;
  static constexpr double round_magic = 0x1.8p52;
  static constexpr std::uint64_t sign_mask = 0x8000000000000000ull;
  static constexpr std::uint64_t exp_mask = 0x7ff0000000000000ull;
  static constexpr std::uint64_t mant_mask = 0x000fffffffffffffull;
};

/// |x| by clearing the sign bit (a plain AND, vectorises everywhere): `fabs_bits(-2.0) == 2.0`.
template <class F>
SINTER_HD SINTER_FORCEINLINE F fabs_bits(F x) {
  return from_bits<F>(to_bits(x) & ~fp_traits<F>::sign_mask);
}

/// |x| with the sign of `s`: `copysign_bits(2.0, -0.0) == -2.0`.
template <class F>
SINTER_HD SINTER_FORCEINLINE F copysign_bits(F x, F s) {
  return from_bits<F>((to_bits(x) & ~fp_traits<F>::sign_mask) |
                      (to_bits(s) & fp_traits<F>::sign_mask));
}

/// x with its sign flipped when `s` is negative (or -0): `mulsign_bits(3.0, -1.0) == -3.0`.
template <class F>
SINTER_HD SINTER_FORCEINLINE F mulsign_bits(F x, F s) {
  return from_bits<F>(to_bits(x) ^ (to_bits(s) & fp_traits<F>::sign_mask));
}

/// 2^n for an integer-valued `n` in [1-bias, bias], built from bits (no int
/// conversion instruction needed): `exp2i(3.0) == 8.0`.
template <class F>
SINTER_HD SINTER_FORCEINLINE F exp2i(F n) {
  using tr = fp_traits<F>;
  // n + (magic + bias) holds n + bias in its low bits; shifting drops the magic.
  const F t = n + (tr::round_magic + F(tr::bias));
  return from_bits<F>(static_cast<uint_of_t<F>>(to_bits(t) << tr::mant_bits));
}

/// x * 2^n for an integer-valued `n` in [-2*bias-mant_bits, 2*bias], rounded
/// once (gradual underflow, overflow to inf): `scale_exp2(1.5, -1075.0)`.
template <class F>
SINTER_HD SINTER_FORCEINLINE F scale_exp2(F x, F n) {
  // n/2 rounded by the magic constant; both halves stay in the normal range.
  const F h = (n * F(0.5) + fp_traits<F>::round_magic) - fp_traits<F>::round_magic;
  return (x * exp2i(h)) * exp2i(n - h);
}

/// The unbiased exponent of a positive normal x, as a float value, and x's
/// significand in [1, 2): `frexp_bits(12.0, m) == 3.0`, m == 1.5.
template <class F>
SINTER_HD SINTER_FORCEINLINE F frexp_bits(F x, F& m) {
  using tr = fp_traits<F>;
  const uint_of_t<F> b = to_bits(x);
  m = from_bits<F>((b & tr::mant_mask) | to_bits(F(1)));
  // The exponent field OR-ed under the bits of 2^mant_bits gives 2^mant_bits + field.
  const F e = from_bits<F>(static_cast<uint_of_t<F>>((b >> tr::mant_bits) | to_bits(tr::two_mant)));
  return e - (tr::two_mant + F(tr::bias));
}

/// x with the low 32 bits of its significand cleared (the high part of an
/// exact split): `clear_low_word(1.0 / 3.0)`.
SINTER_HD SINTER_FORCEINLINE double clear_low_word(double x) {
  return from_bits<double>(to_bits(x) & 0xffffffff00000000ull);
}

/// SINTER_DETAIL_HOST_FMA is 1 where host code has fused multiply-add: x86
/// FMA3 (`__FMA__`, e.g. -march=x86-64-v3), or AVX-512F, which brings its
/// own (GCC and Clang; device code uses CUDA's functions).
#if (defined(__FMA__) || defined(__AVX512F__)) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(__CUDA_ARCH__)
#define SINTER_DETAIL_HOST_FMA 1
#else
#define SINTER_DETAIL_HOST_FMA 0
#endif

/// a * b + c in float, fused (one rounding) where the host target has FMA
/// (SINTER_DETAIL_HOST_FMA), else two roundings: kernels that use it are
/// accurate either way and shorter with FMA: `madd(2.0f, 3.0f, 1.0f) == 7.0f`.
SINTER_HD SINTER_FORCEINLINE float madd(float a, float b, float c) {
#if SINTER_DETAIL_HOST_FMA
  return __builtin_fmaf(a, b, c);
#else
  return a * b + c;
#endif
}

/// Lane masks for branch-free selection: all ones where a condition holds.
/// GCC 12 cannot turn a double comparison into a 64-bit mask before SSE4.2,
/// so the double versions read sign bits of differences instead (integer
/// shifts and subtractions vectorise at SSE2).
template <class F> using mask_of_t = uint_of_t<F>;

/// Mask of a < b. double: the sign of a - b, exact for finite or infinite a, b
/// except (-0, +0) and (inf, inf), which give all ones; unspecified for NaN.
/// float: a plain comparison (false for NaN). `lt_mask(1.0, 2.0) == ~0ull`.
SINTER_HD SINTER_FORCEINLINE std::uint64_t lt_mask(double a, double b) {
  return 0ull - (to_bits(a - b) >> 63);
}
/// Mask of a < b for float (see the double overload).
SINTER_HD SINTER_FORCEINLINE std::uint32_t lt_mask(float a, float b) {
  return 0u - static_cast<std::uint32_t>(a < b);
}

/// Mask of "x is a NaN", from the bits.
template <class F>
SINTER_HD SINTER_FORCEINLINE mask_of_t<F> nan_mask(F x) {
  using U = uint_of_t<F>;
  const U inf = to_bits(limits<F>::infinity);
  return U(0) - ((inf - (to_bits(x) & ~fp_traits<F>::sign_mask)) >> (8 * sizeof(U) - 1));
}

/// Mask of "the sign bit of x is set" (negative, -0 or a negative NaN).
template <class F>
SINTER_HD SINTER_FORCEINLINE mask_of_t<F> sign_mask(F x) {
  using U = uint_of_t<F>;
  return U(0) - (to_bits(x) >> (8 * sizeof(U) - 1));
}

/// Horner evaluation c0 + z*(c1 + z*(c2 + ...)), unrolled at compile time
/// (the kernels' polynomials, lowest degree first): `horner(2.0, 1.0, 3.0) == 7.0`.
template <class T>
SINTER_HD SINTER_FORCEINLINE T horner(T, T c0) {
  return c0;
}
template <class T, class... C>
SINTER_HD SINTER_FORCEINLINE T horner(T z, T c0, C... cs) {
  return c0 + z * horner<T>(z, static_cast<T>(cs)...);
}

/// Bitwise blend: a where m is all ones, b where m is zero: `blend(lt_mask(x, 0.0), -x, x)`.
template <class F>
SINTER_HD SINTER_FORCEINLINE F blend(mask_of_t<F> m, F a, F b) {
  return from_bits<F>(static_cast<uint_of_t<F>>((to_bits(a) & m) | (to_bits(b) & ~m)));
}

}  // namespace sinter::detail::math

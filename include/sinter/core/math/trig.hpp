#pragma once
/// \file trig.hpp
/// Branch-free, auto-vectorisable trigonometry for `float` and `double`:
/// sin, cos, tan, asin, acos, atan, atan2 and hypot.
///
/// glibc's sinf/cos/... are calls, and a call in the fused host loop stops GCC
/// from vectorising it. Every function here is inlined straight-line code:
/// selects instead of branches, no calls, no errno, so
/// `for (i...) out[i] = sinter::detail::math::sin(a[i])` vectorises at plain
/// -O3 (SSE2) as well as with AVX2 / AVX-512, without -ffast-math.
/// Under nvcc's device pass each function calls CUDA's own (::sinf, ::sin...).
///
/// Accuracy (measured against long double libm, see docs/math_trig.md):
/// float: every function <= 1 ULP over the whole finite range (measured max
/// 0.5003). double: sin/cos/tan <= 2 ULP over the whole finite range (measured
/// max 0.98, tan), asin/acos/atan <= 2 ULP (measured max 1.01, acos),
/// atan2/hypot <= 2 ULP (measured max 1.54, atan2). The bounds are what the
/// tests check; measured maxima are over sampled inputs, not proofs.
/// Special values follow C99 Annex F (NaN in, NaN out; sin/cos/tan(+-inf) =
/// NaN; odd functions keep the sign of zero; asin/acos outside [-1, 1] = NaN;
/// atan2's signed zeros and infinities; hypot(+-inf, NaN) = +inf). Floating
/// point exception flags are not meant to be exact, and errno is never set.
///
/// How: float sin/cos/tan reduce with an integer Payne-Hanek reduction (three
/// table loads indexed by the exponent, which vectorise as gathers) and
/// evaluate in double; double sin/cos/tan use a Cody-Waite reduction below
/// 2^27 and an integer Payne-Hanek reduction (six table loads, 32x32->64
/// multiplies) above, both always computed and blended. asin/acos/atan/atan2/
/// hypot are computed in double (float inputs are widened), with polynomials
/// fitted by us (mpmath chebyfit). Selects are integer bit masks (see
/// trig_sel) so that GCC 12 if-converts and vectorises even at plain SSE2.
#include <cstdint>

#include "../../config.hpp"
#include "bits.hpp"

#if SINTER_DEVICE_CODE()
#include <math.h>
#endif

namespace sinter::detail::math {

// ---------------------------------------------------------------------------
// Private helpers (trig_ prefix). Other math headers must not rely on them.
// ---------------------------------------------------------------------------

/// Branch-free selection by bit masks (all ones = true). Comparisons are
/// done on the bit patterns in integer arithmetic, never as `bool`: a `?:`
/// chain becomes control flow that GCC 12's if-conversion gives up on
/// ("control flow in loop"), and SSE2 cannot turn a bool into a 64-bit lane.
using trig_mask = std::uint64_t;
using trig_mask_f = std::uint32_t;

/// a < b for a, b with the sign bit clear (+0..+inf, or a positive NaN,
/// which compares above +inf).
SINTER_HD SINTER_FORCEINLINE trig_mask trig_lt(double a, double b) {
  return 0u - ((to_bits(a) - to_bits(b)) >> 63);
}
/// a == b (bitwise) for a, b with the sign bit clear.
SINTER_HD SINTER_FORCEINLINE trig_mask trig_eq(double a, double b) {
  return 0u - (((to_bits(a) ^ to_bits(b)) - 1u) >> 63);
}
SINTER_HD SINTER_FORCEINLINE trig_mask_f trig_eq(float a, float b) {
  return 0u - (((to_bits(a) ^ to_bits(b)) - 1u) >> 31);
}
/// All ones if float x is finite.
SINTER_HD SINTER_FORCEINLINE trig_mask_f trig_finite_f(float x) {
  return 0u - (((to_bits(x) & 0x7fffffffu) - 0x7f800000u) >> 31);
}
/// All ones if the sign bit of x is set.
SINTER_HD SINTER_FORCEINLINE trig_mask trig_sign_mask(double x) {
  return 0u - (to_bits(x) >> 63);
}
/// All ones if bit `b` of k is set.
SINTER_HD SINTER_FORCEINLINE trig_mask trig_bit_mask(std::uint32_t k, std::uint32_t b) {
  return 0u - static_cast<std::uint64_t>((k >> b) & 1u);
}
SINTER_HD SINTER_FORCEINLINE double trig_sel(trig_mask m, double a, double b) {
  return from_bits<double>((to_bits(a) & m) | (to_bits(b) & ~m));
}
SINTER_HD SINTER_FORCEINLINE float trig_sel(trig_mask_f m, float a, float b) {
  return from_bits<float>((to_bits(a) & m) | (to_bits(b) & ~m));
}
SINTER_HD SINTER_FORCEINLINE std::uint32_t trig_sel_u(trig_mask m, std::uint32_t a, std::uint32_t b) {
  std::uint32_t m32 = static_cast<std::uint32_t>(m);
  return (a & m32) | (b & ~m32);
}

/// |x| by clearing the sign bit (vectorises; no call).
SINTER_HD SINTER_FORCEINLINE double trig_abs(double x) {
  return from_bits<double>(to_bits(x) & 0x7fffffffffffffffull);
}
SINTER_HD SINTER_FORCEINLINE float trig_abs(float x) {
  return from_bits<float>(to_bits(x) & 0x7fffffffu);
}

/// `mag` with the sign bit of `sgn` xor-ed in (mag's own sign is kept):
/// `trig_xorsign(r, x)` applies the sign of x to a non-negative r.
SINTER_HD SINTER_FORCEINLINE double trig_xorsign(double mag, double sgn) {
  return from_bits<double>(to_bits(mag) ^ (to_bits(sgn) & 0x8000000000000000ull));
}

/// Exact sum: s + e == a + b (Knuth's two-sum; additions only, so FMA
/// contraction cannot change it).
struct trig_dd {
  double hi, lo;
};
SINTER_HD SINTER_FORCEINLINE trig_dd trig_two_sum(double a, double b) {
  double s = a + b;
  double bb = s - a;
  double e = (a - (s - bb)) + (b - bb);
  return {s, e};
}

/// High half of a double with the low 27 mantissa bits cleared: products of two
/// such halves (or of a half and a 27-bit rest) are exact.
SINTER_HD SINTER_FORCEINLINE double trig_high_half(double x) {
  return from_bits<double>(to_bits(x) & 0xfffffffff8000000ull);
}

/// sqrt(z) as an unevaluated sum s + c (|c| <= ~2^-51 s, s + c good to ~2^-100),
/// for z == 0 or a normal, finite z >= 0. Branch-free Newton iteration from a
/// bit-trick estimate, then one exact-residual correction.
/// GCC does not vectorise __builtin_sqrt under the default -fmath-errno, hence
/// this. NOTE for the lead: dedupe with sinter::detail::math::sqrt once
/// exp_log.hpp provides one that vectorises.
SINTER_HD SINTER_FORCEINLINE trig_dd trig_sqrt_parts(double z) {
  double y = from_bits<double>(0x5fe6eb50c7b537a9ull - (to_bits(z) >> 1));
  double hz = 0.5 * z;
  y = y * (1.5 - hz * y * y);
  y = y * (1.5 - hz * y * y);
  y = y * (1.5 - hz * y * y);
  y = y * (1.5 - hz * y * y);  // y = 1/sqrt(z) to ~2^-52
  double s = z * y;
  double sh = trig_high_half(s);
  double sl = s - sh;
  // d = z - s*s exactly (up to ~2^-100 z): sh*sh and sh*sl are exact.
  double d = ((z - sh * sh) - 2.0 * sh * sl) - sl * sl;
  return {s, d * (0.5 * y)};
}

/// sqrt for z == 0 or normal finite z >= 0, within 0.5 ULP + 2^-60 relative.
SINTER_HD SINTER_FORCEINLINE double trig_sqrt(double z) {
  trig_dd p = trig_sqrt_parts(z);
  return p.hi + p.lo;
}

// --- constants ---------------------------------------------------------------

inline constexpr double trig_pio2_hi = 0x1.921fb54442d18p+0;
inline constexpr double trig_pio2_lo = 0x1.1a62633145c07p-54;
inline constexpr double trig_pi_hi = 0x1.921fb54442d18p+1;
inline constexpr double trig_pi_lo = 0x1.1a62633145c07p-53;
inline constexpr double trig_inf = __builtin_huge_val();
inline constexpr double trig_dmax = 0x1.fffffffffffffp+1023;
inline constexpr double trig_nan = __builtin_nan("");

/// Bits of 2/pi: word i holds bits [8i - 151, 8i - 120] of the binary
/// expansion 2/pi = sum b_k 2^-k (zero for k < 1). Consecutive words overlap
/// by 24 bits so that a 96-bit window at any multiple of 8 is three loads.
inline constexpr std::uint32_t trig_two_over_pi_f[40] = {
    0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x000000a2, 0x0000a2f9,
    0x00a2f983, 0xa2f9836e, 0xf9836e4e, 0x836e4e44, 0x6e4e4415, 0x4e441529,
    0x441529fc, 0x1529fc27, 0x29fc2757, 0xfc2757d1, 0x2757d1f5, 0x57d1f534,
    0xd1f534dd, 0xf534ddc0, 0x34ddc0db, 0xddc0db62, 0xc0db6295, 0xdb629599,
    0x6295993c, 0x95993c43, 0x993c4390, 0x3c439041};

// --- sin / cos kernels on |r| <= pi/4 (+ tiny slack) ---------------------------

/// sin(r + rl) for |r| <= pi/4, |rl| <= 2^-52 |r|; relative error < 2^-60 + rounding.
SINTER_HD SINTER_FORCEINLINE double trig_sin_kernel(double r, double rl) {
  double z = r * r;
  double s = horner(z, -0x1.5555555555555p-3, 0x1.1111111111110p-7,
                         -0x1.a01a01a019938p-13, 0x1.71de3a546095bp-19,
                         -0x1.ae645412c560cp-26, 0x1.61217f0b800d5p-33,
                         -0x1.ab17d404de5b3p-41);
  return r + (r * z * s + rl * (1.0 - 0.5 * z));
}

/// cos(r + rl) for |r| <= pi/4.
SINTER_HD SINTER_FORCEINLINE double trig_cos_kernel(double r, double rl) {
  double z = r * r;
  double c = horner(z, 0x1.5555555555555p-5, -0x1.6c16c16c16c16p-10,
                         0x1.a01a01a019d0ap-16, -0x1.27e4fb7712d65p-22,
                         0x1.1eed8deb97a97p-29, -0x1.9394ba0cd6ed5p-37,
                         0x1.ab785b00b4646p-45);
  double hz = 0.5 * z;
  double w = 1.0 - hz;
  // ((1 - w) - hz) recovers the rounding error of w (fdlibm's trick).
  return w + (((1.0 - w) - hz) + (z * z * c - r * rl));
}

/// sin and cos kernels as unevaluated sums hi + lo (for tan's quotient).
SINTER_HD SINTER_FORCEINLINE trig_dd trig_sin_kernel_dd(double r, double rl) {
  double z = r * r;
  double s = horner(z, -0x1.5555555555555p-3, 0x1.1111111111110p-7,
                         -0x1.a01a01a019938p-13, 0x1.71de3a546095bp-19,
                         -0x1.ae645412c560cp-26, 0x1.61217f0b800d5p-33,
                         -0x1.ab17d404de5b3p-41);
  double t = r * z * s + rl * (1.0 - 0.5 * z);
  double hi = r + t;
  return {hi, (r - hi) + t};  // |t| < |r|: exact tail
}
SINTER_HD SINTER_FORCEINLINE trig_dd trig_cos_kernel_dd(double r, double rl) {
  double z = r * r;
  double c = horner(z, 0x1.5555555555555p-5, -0x1.6c16c16c16c16p-10,
                         0x1.a01a01a019d0ap-16, -0x1.27e4fb7712d65p-22,
                         0x1.1eed8deb97a97p-29, -0x1.9394ba0cd6ed5p-37,
                         0x1.ab785b00b4646p-45);
  double hz = 0.5 * z;
  double w = 1.0 - hz;
  double t = ((1.0 - w) - hz) + (z * z * c - r * rl);
  double hi = w + t;
  return {hi, (w - hi) + t};
}

/// (nh + nl) / (dh + dl) to ~2^-100 relative + the final rounding: one
/// division and a correction with a split-product residual.
SINTER_HD SINTER_FORCEINLINE double trig_div_dd(double nh, double nl, double dh, double dl) {
  double q = nh / dh;
  double qh = trig_high_half(q), ql = q - qh;
  double dhh = trig_high_half(dh), dhl = dh - dhh;
  // nh - q*dh from exact partial products (safe under FMA contraction).
  double rem = ((((nh - qh * dhh) - qh * dhl) - ql * dhh) - ql * dhl) + (nl - q * dl);
  return q + rem / dh;
}

/// Shorter kernels for float results (relative error < 2^-32).
SINTER_HD SINTER_FORCEINLINE double trig_sin_kernel_f(double r) {
  double z = r * r;
  double s = horner(z, -0x1.555555545e0acp-3, 0x1.11110def2e1c9p-7,
                         -0x1.a013a793b98cep-13, 0x1.6dbe0838a06e9p-19);
  return r + r * z * s;
}
SINTER_HD SINTER_FORCEINLINE double trig_cos_kernel_f(double r) {
  double z = r * r;
  double c = horner(z, 0x1.5555555502cf4p-5, -0x1.6c16bf54e7232p-10,
                         0x1.a015c47d920acp-16, -0x1.25244e23e6e3ap-22);
  return (1.0 - 0.5 * z) + z * z * c;
}

// --- argument reduction ------------------------------------------------------

/// r (+ rl) = x - n*pi/2 with |r| <= ~pi/4, and n mod 4.
struct trig_reduced {
  double r, rl;
  std::uint32_t n;  // quadrant, only n & 3 is meaningful
};

/// Payne-Hanek reduction of |x| for float x, in 64-bit integer arithmetic.
/// Exact up to ~2^-61 (absolute, in units of pi/2) for every finite float;
/// for |x| < pi/4 it returns r = |x|, n = 0 (the fixed-point result would lose
/// relative accuracy there).
SINTER_HD SINTER_FORCEINLINE trig_reduced trig_reduce_f(float x) {
  std::uint32_t b = to_bits(x) & 0x7fffffffu;
  std::uint32_t e = b >> 23;   // biased exponent, 0..255
  std::uint32_t q = e >> 3;    // window index, 0..31
  std::uint32_t sh = e & 7u;   // shift inside the window
  // 2^sh as an integer without a variable shift (SSE2 has none per lane).
  std::uint32_t p2 = static_cast<std::uint32_t>(
      static_cast<std::int32_t>(from_bits<float>((sh + 127u) << 23)));
  // |x| = m * 2^(e-150), m < 2^24; mm = m << sh < 2^31.
  std::uint64_t mm = static_cast<std::uint64_t>(((b & 0x7fffffu) | 0x800000u) * p2);
  // Window of 2/pi bits starting at k0 = 8q - 151: F = x*(2/pi)*2^62 mod 2^64.
  std::uint64_t w0 = trig_two_over_pi_f[q];
  std::uint64_t w1 = trig_two_over_pi_f[q + 4];
  std::uint64_t w2 = trig_two_over_pi_f[q + 8];
  std::uint64_t f = ((mm * w0) << 32) + mm * w1 + ((mm * w2) >> 32);
  std::uint64_t u = f + (std::uint64_t{1} << 61);  // round to the nearest quadrant
  std::uint32_t n = static_cast<std::uint32_t>(u >> 62);
  std::uint64_t frac = u & ((std::uint64_t{1} << 62) - 1u);  // r*2^62 + 2^61
  // Signed fraction as hi*2^31 + lo, both exact in int32, one rounding in double.
  std::int32_t hi = static_cast<std::int32_t>(static_cast<std::uint32_t>(frac >> 31)) -
                    (std::int32_t{1} << 30);
  std::int32_t lo = static_cast<std::int32_t>(static_cast<std::uint32_t>(frac & 0x7fffffffu));
  double r = (static_cast<double>(hi) * 0x1p31 + static_cast<double>(lo)) *
             0x1.921fb54442d18p-62;  // pi/2 * 2^-62
  double ax = static_cast<double>(from_bits<float>(b));
  trig_mask small = trig_lt(ax, 0x1.921fb5p-1);  // pi/4
  return {trig_sel(small, ax, r), 0.0, trig_sel_u(small, 0u, n)};
}

/// Cody-Waite reduction of |x| for double |x| < 2^27 (|n| < 2^27): pi/2 in
/// 25-bit pieces so that n * piece is exact; result r + rl good to ~2^-120
/// absolute.
SINTER_HD SINTER_FORCEINLINE trig_reduced trig_reduce_cw(double ax) {
  double t = ax * 0x1.45f306dc9c883p-1 + 0x1.8p52;  // round(ax * 2/pi) + 1.5*2^52
  std::uint32_t n = static_cast<std::uint32_t>(to_bits(t));
  double fn = t - 0x1.8p52;
  double r1 = ax - fn * 0x1.921fb5p+0;            // exact
  double r2 = r1 - fn * 0x1.110b46p-26;           // exact
  double p3 = fn * 0x1.1a6263p-54;                // exact
  trig_dd r3 = trig_two_sum(r2, -p3);
  double rl = r3.lo - fn * 0x1.8a2e03707344ap-81;
  trig_dd rr = trig_two_sum(r3.hi, rl);
  return {rr.hi, rr.lo, n};
}

/// sin or cos from a reduced argument: quadrant k = n (sin) or n + 1 (cos).
SINTER_HD SINTER_FORCEINLINE double trig_sin_quadrant(double s, double c, std::uint32_t k) {
  double v = trig_sel(trig_bit_mask(k, 0), c, s);
  double mv = -v;
  return trig_sel(trig_bit_mask(k, 1), mv, v);
}


/// Bits of 2/pi for the double reduction: word i holds bits
/// [8(i + 128) - 1076, 8(i + 128) - 1045] of 2/pi (words for smaller exponents
/// are all zero and left out).
inline constexpr std::uint32_t trig_two_over_pi_d[148] = {
    0x00000000, 0x00000000, 0x00000000, 0x00000005, 0x00000517, 0x000517cc,
    0x0517cc1b, 0x17cc1b72, 0xcc1b7272, 0x1b727220, 0x727220a9, 0x7220a94f,
    0x20a94fe1, 0xa94fe13a, 0x4fe13abe, 0xe13abe8f, 0x3abe8fa9, 0xbe8fa9a6,
    0x8fa9a6ee, 0xa9a6ee06, 0xa6ee06db, 0xee06db14, 0x06db14ac, 0xdb14acc9,
    0x14acc9e2, 0xacc9e21c, 0xc9e21c82, 0xe21c820f, 0x1c820ff2, 0x820ff28b,
    0x0ff28b1d, 0xf28b1d5e, 0x8b1d5ef5, 0x1d5ef5de, 0x5ef5de2b, 0xf5de2b0d,
    0xde2b0db9, 0x2b0db923, 0x0db92371, 0xb92371d2, 0x2371d212, 0x71d2126e,
    0xd2126e97, 0x126e9700, 0x6e970032, 0x97003249, 0x00324977, 0x32497750,
    0x4977504e, 0x77504e8c, 0x504e8c90, 0x4e8c90e7, 0x8c90e7f0, 0x90e7f0ef,
    0xe7f0ef58, 0xf0ef58e5, 0xef58e589, 0x58e5894d, 0xe5894d39, 0x894d39f7,
    0x4d39f744, 0x39f74411, 0xf74411af, 0x4411afa9, 0x11afa975, 0xafa975da,
    0xa975da24, 0x75da2427, 0xda24274c, 0x24274ce3, 0x274ce381, 0x4ce38135,
    0xe38135a2, 0x8135a2fb, 0x35a2fbf2, 0xa2fbf209, 0xfbf209cc, 0xf209cc8e,
    0x09cc8eb1, 0xcc8eb1cc, 0x8eb1cc1a, 0xb1cc1a99, 0xcc1a99cf, 0x1a99cfa4,
    0x99cfa4e4, 0xcfa4e422, 0xa4e422fc, 0xe422fc5d, 0x22fc5def, 0xfc5defc9,
    0x5defc941, 0xefc941d8, 0xc941d8ff, 0x41d8ffc4, 0xd8ffc4bf, 0xffc4bffe,
    0xc4bffef0, 0xbffef02c, 0xfef02cc0, 0xf02cc07f, 0x2cc07f79, 0xc07f7978,
    0x7f79788c, 0x79788c5a, 0x788c5ad0, 0x8c5ad053, 0x5ad05368, 0xd05368fb,
    0x5368fb69, 0x68fb69b3, 0xfb69b3f6, 0x69b3f679, 0xb3f6793e, 0xf6793e58,
    0x793e584d, 0x3e584dba, 0x584dba7a, 0x4dba7a31, 0xba7a31fb, 0x7a31fb34,
    0x31fb34f2, 0xfb34f2ff, 0x34f2ff51, 0xf2ff516b, 0xff516ba9, 0x516ba93d,
    0x6ba93dd6, 0xa93dd63f, 0x3dd63f5f, 0xd63f5f2f, 0x3f5f2f8b, 0x5f2f8bd9,
    0x2f8bd9e8, 0x8bd9e839, 0xd9e839cf, 0xe839cfbc, 0x39cfbc52, 0xcfbc5294,
    0xbc529497, 0x52949753, 0x9497535f, 0x97535fda, 0x535fdafd, 0x5fdafd88,
    0xdafd88fc, 0xfd88fc6a, 0x88fc6ae8, 0xfc6ae842,
};

/// uint32 -> double without relying on an unsigned vector conversion.
SINTER_HD SINTER_FORCEINLINE double trig_u32_to_double(std::uint32_t v) {
  return static_cast<double>(static_cast<std::int32_t>(v ^ 0x80000000u)) + 0x1p31;
}

/// Payne-Hanek reduction of |x| for double |x| >= 2^27 (other inputs give
/// garbage that the caller discards): a 192-bit window of 2/pi times the
/// 60-bit shifted mantissa in 32-bit limbs (32x32->64 multiplies vectorise as
/// pmuludq), giving x*2/pi mod 4 to ~2^-124, then r = frac * pi/2 as a
/// double-double.
SINTER_HD SINTER_FORCEINLINE trig_reduced trig_reduce_ph(double ax) {
  std::uint64_t b = to_bits(ax);
  std::uint32_t e = static_cast<std::uint32_t>(b >> 52);  // biased exponent
  std::uint32_t q = e >> 3;
  std::uint32_t below = 0u - ((q - 128u) >> 31);  // q < 128 (q <= 255)
  q = (128u & below) | (q & ~below);
  std::uint32_t i = q - 128u;  // table index, 0..127
  std::uint64_t sh = e & 7u;
  // y = mantissa * 2^sh as an exact double in [2^52, 2^60): no variable shift.
  double y = from_bits<double>(((1075u + sh) << 52) | (b & 0x000fffffffffffffull));
  std::uint32_t m1 = static_cast<std::uint32_t>(static_cast<std::int32_t>(y * 0x1p-32));
  double rem = y - static_cast<double>(static_cast<std::int32_t>(m1)) * 0x1p32;
  std::uint32_t m0 = static_cast<std::uint32_t>(static_cast<std::int32_t>(rem - 0x1p31)) ^ 0x80000000u;
  const std::uint64_t a0 = m0, a1 = m1;
  // w5 is the most significant word of the window.
  std::uint64_t w5 = trig_two_over_pi_d[i], w4 = trig_two_over_pi_d[i + 4],
                w3 = trig_two_over_pi_d[i + 8], w2 = trig_two_over_pi_d[i + 12],
                w1 = trig_two_over_pi_d[i + 16], w0 = trig_two_over_pi_d[i + 20];
  constexpr std::uint64_t lo32 = 0xffffffffu;
  std::uint64_t p01 = a0 * w1, p02 = a0 * w2, p03 = a0 * w3, p04 = a0 * w4, p05 = a0 * w5;
  std::uint64_t p10 = a1 * w0, p11 = a1 * w1, p12 = a1 * w2, p13 = a1 * w3, p14 = a1 * w4;
  // Columns 2..5 of the product = limbs 0..3 of F = x*(2/pi)*2^126 mod 2^128
  // (lower columns only carry into F's last bit or two: ignored).
  std::uint64_t c0 = (p02 & lo32) + (p11 & lo32) + (p01 >> 32) + (p10 >> 32);
  std::uint64_t c1 = (p03 & lo32) + (p12 & lo32) + (p02 >> 32) + (p11 >> 32) + (c0 >> 32);
  std::uint64_t c2 = (p04 & lo32) + (p13 & lo32) + (p03 >> 32) + (p12 >> 32) + (c1 >> 32);
  std::uint64_t c3 = (p05 & lo32) + (p14 & lo32) + (p04 >> 32) + (p13 >> 32) + (c2 >> 32);
  std::uint32_t l0 = static_cast<std::uint32_t>(c0), l1 = static_cast<std::uint32_t>(c1),
                l2 = static_cast<std::uint32_t>(c2);
  std::uint32_t u3 = static_cast<std::uint32_t>(c3) + (1u << 29);  // round to nearest quadrant
  std::uint32_t n = u3 >> 30;
  std::int32_t t3 = static_cast<std::int32_t>(u3 & ((1u << 30) - 1u)) - (std::int32_t{1} << 29);
  // fraction * 2^62 = t3*2^32 + l2 + l1*2^-32 + l0*2^-64, made a double-double.
  trig_dd a = trig_two_sum(static_cast<double>(t3) * 0x1p32, trig_u32_to_double(l2));
  double tail = a.lo + (trig_u32_to_double(l1) * 0x1p-32 + trig_u32_to_double(l0) * 0x1p-64);
  trig_dd f = trig_two_sum(a.hi, tail);
  // r = f * (pi/2 * 2^-62) with an exact Dekker product (split by masking).
  constexpr double ph = 0x1.921fb54442d18p-62, pl = 0x1.1a62633145c07p-116;
  constexpr double ph_h = 0x1.921fb50000000p-62, ph_l = 0x1.110b460000000p-88;
  // Only exact products feed the two-sum, so FMA contraction cannot skew it.
  double fh = trig_high_half(f.hi), fl = f.hi - fh;
  double p = fh * ph_h;  // exact (26 x 25 bits)
  double rl = ((fh * ph_l + fl * ph_h) + fl * ph_l) + (f.hi * pl + f.lo * ph);
  trig_dd rr = trig_two_sum(p, rl);
  return {rr.hi, rr.lo, n};
}

/// Reduction of |x| for any finite double: Cody-Waite below 2^27, Payne-Hanek above.
SINTER_HD SINTER_FORCEINLINE trig_reduced trig_reduce_d(double ax) {
  trig_mask moderate = trig_lt(ax, 0x1p27);
  trig_reduced cw = trig_reduce_cw(trig_sel(moderate, ax, 0.0));
  trig_reduced ph = trig_reduce_ph(ax);
  return {trig_sel(moderate, cw.r, ph.r), trig_sel(moderate, cw.rl, ph.rl),
          trig_sel_u(moderate, cw.n, ph.n)};
}

/// atan(t) for t >= 0 (or NaN); error < 1 ULP.
SINTER_HD SINTER_FORCEINLINE double trig_atan_pos(double t) {
  // Reduce to |u| <= 7/16 around c in {0, 1/2, 1, 3/2, inf}: atan t = atan c + atan u.
  trig_mask i0 = trig_lt(t, 0x1.cp-2);   // 7/16
  trig_mask i1 = trig_lt(t, 0x1.6p-1);   // 11/16
  trig_mask i2 = trig_lt(t, 0x1.3p+0);   // 19/16
  trig_mask i3 = trig_lt(t, 0x1.38p+1);  // 39/16
  // num = t*na + nb, den = t*da + db with the constants selected (selects of
  // computed values only: GCC does not if-convert FP ops in a select's arms).
  double na = trig_sel(i1 & ~i0, 2.0, 1.0);
  double nb = trig_sel(i0, 0.0, trig_sel(i2, -1.0, -1.5));
  double da = trig_sel(i0, 0.0, trig_sel(i2 | ~i3, 1.0, 1.5));
  double db = trig_sel(i0, 1.0, trig_sel(i1, 2.0, trig_sel(i3, 1.0, 0.0)));
  double nm = t * na + nb;
  double num = trig_sel(i3, nm, -1.0);
  double den = t * da + db;
  double hi = trig_sel(i0, 0.0, trig_sel(i1, 0x1.dac670561bb4fp-2,
            trig_sel(i2, 0x1.921fb54442d18p-1,
            trig_sel(i3, 0x1.f730bd281f69bp-1, 0x1.921fb54442d18p+0))));
  double lo = trig_sel(i0, 0.0, trig_sel(i1, 0x1.a2b7f222f65e2p-56,
            trig_sel(i2, 0x1.1a62633145c07p-55,
            trig_sel(i3, 0x1.007887af0cbbdp-56, 0x1.1a62633145c07p-54))));
  double u = num / den;
  double z = u * u;
  // atan u = u - u^3 * A(z), A fitted on z in [0, (7/16)^2], error 2^-56.
  double a = horner(z, 0x1.5555555555555p-2, -0x1.99999999998c5p-3,
                         0x1.2492492485503p-3, -0x1.c71c71bd2b8bcp-4,
                         0x1.745d154c84f7ap-4, -0x1.3b1375ce5bdc6p-4,
                         0x1.110c9ce7b0572p-4, -0x1.e170800a46210p-5,
                         0x1.ab59b417b2d3fp-5, -0x1.7001816fd063fp-5,
                         0x1.0f62bba6a2558p-5, -0x1.e4167464d3de8p-7);
  return hi - ((u * z * a - lo) - u);
}

/// (asin(x) - x) / x^3 as a polynomial in z = x^2 on [0, 1/4], error 2^-57.
SINTER_HD SINTER_FORCEINLINE double trig_asin_poly(double z) {
  return horner(z, 0x1.5555555555555p-3, 0x1.3333333333388p-4, 0x1.6db6db6dac1e0p-5,
                     0x1.f1c71c7a52ba3p-6, 0x1.6e8ba123e494cp-6, 0x1.1c4efce23019fp-6,
                     0x1.c990ad3d8fdcap-7, 0x1.7b027ee1dd585p-7, 0x1.3b49de7121487p-7,
                     0x1.31622469ce5adp-7, 0x1.8f193743418ffp-9, 0x1.406192d124629p-6,
                     -0x1.3b416bb7d9257p-6, 0x1.e529c6fce9bb4p-6);
}

/// Shared part of asin/acos: for |x| < 1/2, z = x^2; else z = (1 - |x|)/2 and
/// s + c = sqrt(z). `pz` = P(z) so that asin(v) = v + v*z*P(z) (v = x or sqrt z).
struct trig_asin_parts {
  double z, s, c, pz;
  trig_mask small;
};
SINTER_HD SINTER_FORCEINLINE trig_asin_parts trig_asin_prep(double ax) {
  trig_mask small = trig_lt(ax, 0.5);
  double zs = ax * ax, zl = 0.5 - 0.5 * ax;  // zl exact for ax >= 1/2
  double z = trig_sel(small, zs, zl);
  trig_dd sq = trig_sqrt_parts(trig_sel(small, 0.25, z));
  double c = trig_sel(trig_lt(0.0, sq.hi), sq.lo, 0.0);  // sqrt(0): no 0 * inf
  return {z, sq.hi, c, trig_asin_poly(z), small};
}

// ---------------------------------------------------------------------------
// Public functions
// ---------------------------------------------------------------------------

/// Sine, branch-free: `sinter::detail::math::sin(1e30f)`. float: <= 1 ULP for
/// all finite x; double: <= 2 ULP for all finite x. `sin(-0.f) == -0.f`, `sin(inf)` is NaN.
SINTER_HD SINTER_MATH_FN float sin(float x) {
#if SINTER_DEVICE_CODE()
  return ::sinf(x);
#else
  trig_reduced rd = trig_reduce_f(x);
  double v = trig_sin_quadrant(trig_sin_kernel_f(rd.r), trig_cos_kernel_f(rd.r), rd.n);
  float res = static_cast<float>(trig_xorsign(v, static_cast<double>(x)));
  float bad = x - x;  // NaN for +-inf and NaN
  return trig_sel(trig_finite_f(x), res, bad);
#endif
}
/// Sine for double: see sin(float).
SINTER_HD SINTER_MATH_FN double sin(double x) {
#if SINTER_DEVICE_CODE()
  return ::sin(x);
#else
  double ax = trig_abs(x);
  trig_reduced rd = trig_reduce_d(ax);
  double v = trig_xorsign(
      trig_sin_quadrant(trig_sin_kernel(rd.r, rd.rl), trig_cos_kernel(rd.r, rd.rl), rd.n), x);
  double bad = x - x;
  return trig_sel(trig_lt(ax, trig_inf), v, bad);
#endif
}

/// Cosine, branch-free; accuracy and range as sin. `cos(inf)` is NaN.
SINTER_HD SINTER_MATH_FN float cos(float x) {
#if SINTER_DEVICE_CODE()
  return ::cosf(x);
#else
  trig_reduced rd = trig_reduce_f(x);
  float v = static_cast<float>(
      trig_sin_quadrant(trig_sin_kernel_f(rd.r), trig_cos_kernel_f(rd.r), rd.n + 1u));
  float bad = x - x;
  return trig_sel(trig_finite_f(x), v, bad);
#endif
}
/// Cosine for double: see cos(float).
SINTER_HD SINTER_MATH_FN double cos(double x) {
#if SINTER_DEVICE_CODE()
  return ::cos(x);
#else
  double ax = trig_abs(x);
  trig_reduced rd = trig_reduce_d(ax);
  double v = trig_sin_quadrant(trig_sin_kernel(rd.r, rd.rl), trig_cos_kernel(rd.r, rd.rl),
                               rd.n + 1u);
  double bad = x - x;
  return trig_sel(trig_lt(ax, trig_inf), v, bad);
#endif
}

/// Tangent, branch-free; accuracy and range as sin. `tan(-0.f) == -0.f`.
SINTER_HD SINTER_MATH_FN float tan(float x) {
#if SINTER_DEVICE_CODE()
  return ::tanf(x);
#else
  trig_reduced rd = trig_reduce_f(x);
  double s = trig_sin_kernel_f(rd.r), c = trig_cos_kernel_f(rd.r);
  trig_mask odd = trig_bit_mask(rd.n, 0);
  double mc = -c;
  double v = trig_sel(odd, mc, s) / trig_sel(odd, s, c);  // tan = s/c, or -c/s in odd quadrants
  float res = static_cast<float>(trig_xorsign(v, static_cast<double>(x)));
  float bad = x - x;
  return trig_sel(trig_finite_f(x), res, bad);
#endif
}
/// Tangent for double: see tan(float).
SINTER_HD SINTER_MATH_FN double tan(double x) {
#if SINTER_DEVICE_CODE()
  return ::tan(x);
#else
  double ax = trig_abs(x);
  trig_reduced rd = trig_reduce_d(ax);
  trig_dd s = trig_sin_kernel_dd(rd.r, rd.rl), c = trig_cos_kernel_dd(rd.r, rd.rl);
  trig_mask odd = trig_bit_mask(rd.n, 0);
  // tan = s/c, or -c/s in odd quadrants.
  double mch = -c.hi, mcl = -c.lo;
  double v = trig_div_dd(trig_sel(odd, mch, s.hi), trig_sel(odd, mcl, s.lo),
                         trig_sel(odd, s.hi, c.hi), trig_sel(odd, s.lo, c.lo));
  v = trig_xorsign(v, x);
  double bad = x - x;
  return trig_sel(trig_lt(ax, trig_inf), v, bad);
#endif
}

/// Arc sine; NaN outside [-1, 1]; `asin(-0.) == -0.`.
SINTER_HD SINTER_MATH_FN double asin(double x) {
#if SINTER_DEVICE_CODE()
  return ::asin(x);
#else
  double ax = trig_abs(x);
  trig_asin_parts p = trig_asin_prep(ax);
  double small = ax + ax * p.z * p.pz;
  // pi/2 - 2*(s + c + s*z*P): pi/2 - 2s is made exact with two-sum.
  trig_dd h = trig_two_sum(trig_pio2_hi, -2.0 * p.s);
  double large = h.hi + (h.lo + (trig_pio2_lo - 2.0 * (p.c + p.s * p.z * p.pz)));
  double v = trig_xorsign(trig_sel(p.small, small, large), x);
  return trig_sel(~trig_lt(1.0, ax), v, trig_nan);
#endif
}
/// Arc sine for float (computed in double).
SINTER_HD SINTER_MATH_FN float asin(float x) {
#if SINTER_DEVICE_CODE()
  return ::asinf(x);
#else
  return static_cast<float>(asin(static_cast<double>(x)));
#endif
}

/// Arc cosine; NaN outside [-1, 1]; `acos(1.) == +0.`.
SINTER_HD SINTER_MATH_FN double acos(double x) {
#if SINTER_DEVICE_CODE()
  return ::acos(x);
#else
  double ax = trig_abs(x);
  trig_asin_parts p = trig_asin_prep(ax);
  double small = trig_pio2_hi - (x - (trig_pio2_lo - x * p.z * p.pz));
  double as = 2.0 * (p.s + (p.c + p.s * p.z * p.pz));  // 2 asin(sqrt z)
  double neg = trig_pi_hi - (as - trig_pi_lo);
  double large = trig_sel(trig_sign_mask(x), neg, as);
  double v = trig_sel(p.small, small, large);
  return trig_sel(~trig_lt(1.0, ax), v, trig_nan);
#endif
}
/// Arc cosine for float (computed in double).
SINTER_HD SINTER_MATH_FN float acos(float x) {
#if SINTER_DEVICE_CODE()
  return ::acosf(x);
#else
  return static_cast<float>(acos(static_cast<double>(x)));
#endif
}

/// Arc tangent; `atan(+-inf) == +-pi/2`, `atan(-0.) == -0.`.
SINTER_HD SINTER_MATH_FN double atan(double x) {
#if SINTER_DEVICE_CODE()
  return ::atan(x);
#else
  return trig_xorsign(trig_atan_pos(trig_abs(x)), x);
#endif
}
/// Arc tangent for float (computed in double).
SINTER_HD SINTER_MATH_FN float atan(float x) {
#if SINTER_DEVICE_CODE()
  return ::atanf(x);
#else
  return static_cast<float>(atan(static_cast<double>(x)));
#endif
}

/// atan2(y, x), the angle of (x, y) in [-pi, pi], with C99 Annex F's table of
/// signed zeros and infinities: `atan2(0., -0.) == pi`, `atan2(inf, -inf) == 3pi/4`.
SINTER_HD SINTER_MATH_FN double atan2(double y, double x) {
#if SINTER_DEVICE_CODE()
  return ::atan2(y, x);
#else
  double ax = trig_abs(x), ay = trig_abs(y);
  trig_mask both_inf = trig_eq(ax, trig_inf) & trig_eq(ay, trig_inf);
  ax = trig_sel(both_inf, 1.0, ax);
  ay = trig_sel(both_inf, 1.0, ay);
  trig_mask swap = trig_lt(ax, ay);
  double num = trig_sel(swap, ax, ay), den = trig_sel(swap, ay, ax);
  double qd = num / den;
  double q = trig_sel(trig_eq(num, 0.0) & trig_eq(den, 0.0), 0.0, qd);  // in [0, 1] or NaN
  double a = trig_atan_pos(q);
  // angle = k + sgn * a with k in {0, pi/2, pi}: one rounding at the end.
  trig_mask neg = trig_sign_mask(x);
  double khi = trig_sel(swap, trig_pio2_hi, trig_sel(neg, trig_pi_hi, 0.0));
  double klo = trig_sel(swap, trig_pio2_lo, trig_sel(neg, trig_pi_lo, 0.0));
  double ma = -a;
  double sa = trig_sel(swap ^ neg, ma, a);
  return trig_xorsign(khi + (sa + klo), y);
#endif
}
/// atan2 for float (computed in double).
SINTER_HD SINTER_MATH_FN float atan2(float y, float x) {
#if SINTER_DEVICE_CODE()
  return ::atan2f(y, x);
#else
  return static_cast<float>(atan2(static_cast<double>(y), static_cast<double>(x)));
#endif
}

/// sqrt(x*x + y*y) without undue overflow or underflow; `hypot(inf, NaN) == inf`.
SINTER_HD SINTER_MATH_FN double hypot(double x, double y) {
#if SINTER_DEVICE_CODE()
  return ::hypot(x, y);
#else
  double ax = trig_abs(x), ay = trig_abs(y);
  trig_mask xbig = trig_lt(ay, ax);
  double hi = trig_sel(xbig, ax, ay), lo = trig_sel(xbig, ay, ax);
  // Scale by a power of two so that hi^2 neither overflows nor goes subnormal.
  trig_mask big = trig_lt(0x1p500, hi), tiny = trig_lt(hi, 0x1p-500);
  double sc = trig_sel(big, 0x1p-600, trig_sel(tiny, 0x1p600, 1.0));
  double un = trig_sel(big, 0x1p600, trig_sel(tiny, 0x1p-600, 1.0));
  double h = hi * sc, l = lo * sc;
  double v = trig_sqrt(h * h + l * l) * un;
  return trig_sel(trig_eq(ax, trig_inf) | trig_eq(ay, trig_inf), trig_inf, v);
#endif
}
/// hypot for float (computed in double, no scaling needed).
SINTER_HD SINTER_MATH_FN float hypot(float x, float y) {
#if SINTER_DEVICE_CODE()
  return ::hypotf(x, y);
#else
  double dx = static_cast<double>(x), dy = static_cast<double>(y);
  float v = static_cast<float>(trig_sqrt(dx * dx + dy * dy));
  float ax = trig_abs(x), ay = trig_abs(y);
  float inf = __builtin_huge_valf();
  return trig_sel(trig_eq(ax, inf) | trig_eq(ay, inf), inf, v);
#endif
}

}  // namespace sinter::detail::math

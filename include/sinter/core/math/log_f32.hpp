#pragma once
/// \file log_f32.hpp
/// log, log2 and log10 for float: impl::log_f, log2_f, log10_f. Computed in
/// double and rounded once, like the other float functions, but with a
/// kernel fitted for float's precision instead of fdlibm's double one, which
/// divides (s = f / (2 + f)) and splits its sums to keep double's last bits:
/// x = 2^k (1 + f), sqrt(2)/2 <= 1 + f < sqrt(2) (every float, subnormals
/// too, is a normal double), and log(1 + f) = f P(f), P a degree-11
/// weighted least-squares fit of log1p(f) / f made for sinter (relative
/// error 1.0e-10). So the float is correctly rounded except within about
/// 2^-9 ulp of a tie; log2 of a power of two is exact (f = 0). Measured
/// maxima in docs/math.md, from every float: tests/sweep/sweep_erf_log.cpp.
/// The fit: docs/math_fit.py (log_f).
/// Branch-free, no division: GCC vectorises callers at -O3 without
/// -ffast-math.
#include "bits.hpp"
#include "kernels_f64.hpp"  // log_specials

namespace sinter::detail::math::impl {

/// log(1 + f) and k for a float x = 2^k (1 + f) > 0, in double (garbage for
/// other x: callers blend the special values).
SINTER_HD SINTER_FORCEINLINE double log_f_reduced(double x, double& k) {
  double m;
  const double e = frexp_bits(x, m);  // x a float: a normal double
  const std::uint64_t big = lt_mask(0x1.6a09e667f3bcdp0, m);
  const double f = blend(big, 0.5 * m, m) - 1.0;
  k = e + blend(big, 1.0, 0.0);
  const double p = horner(f, 0x1.0000000026678p+0, -0x1.0000001c649c3p-1, 0x1.5555541ce62c3p-2,
                          -0x1.ffffa6b84742ep-3, 0x1.999a31c4f0ff3p-3, -0x1.5569522928316p-3,
                          0x1.24912e04c344ep-3, -0x1.fc5675138e593p-4, 0x1.c36d244ecf1bdp-4,
                          -0x1.bdb1850d458bcp-4, 0x1.b7a8d8c08beedp-4, -0x1.ea4a9e4559fccp-5);
  return f * p;  // log(1 + f)
}

/// log_specials, rounded to float.
SINTER_HD SINTER_FORCEINLINE float log_f_finish(double x, double r) {
  return static_cast<float>(log_specials(x, r));
}

/// Natural logarithm of a float (see the file comment).
SINTER_HD SINTER_FORCEINLINE float log_f(float x) {
  double k;
  const double l = log_f_reduced(x, k);
  return log_f_finish(x, k * 6.93147180559945286227e-01 + l);
}

/// Base-2 logarithm of a float, exact at powers of two.
SINTER_HD SINTER_FORCEINLINE float log2_f(float x) {
  double k;
  const double l = log_f_reduced(x, k);
  return log_f_finish(x, k + l * 1.44269504088896338700e+00);
}

/// Base-10 logarithm of a float.
SINTER_HD SINTER_FORCEINLINE float log10_f(float x) {
  double k;
  const double l = log_f_reduced(x, k);
  return log_f_finish(x, (k * 6.93147180559945286227e-01 + l) * 4.34294481903251816668e-01);
}

}  // namespace sinter::detail::math::impl

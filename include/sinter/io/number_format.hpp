#pragma once
/// \file number_format.hpp
/// Element formatting for printing, following NumPy's defaults
/// (numpy/_core/arrayprint.py, floatmode "maxprec"): one formatter is built
/// from all the elements shown, so that they share a width, a notation and
/// (in scientific notation) a number of digits. Floats use the shortest
/// decimal that round-trips through the element's own type (std::to_chars for
/// float and double; a search for half and bfloat16), capped at `precision`
/// fractional digits.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <vector>

#include "../core/dtype.hpp"

namespace sinter::detail {

/// A finite float as sign, significant digits and decimal exponent:
/// value = ±d0.d1d2... × 10^exp. Zero is digits "0", exp 0.
struct decimal_digits {
  bool negative = false;
  std::string digits;
  int exp = 0;
};

/// Parse std::to_chars scientific output ("-1.25e+03", "5e-07").
inline decimal_digits parse_scientific(std::string_view s) {
  decimal_digits d;
  if (!s.empty() && s.front() == '-') {
    d.negative = true;
    s.remove_prefix(1);
  }
  const std::size_t e = s.find('e');
  for (char c : s.substr(0, e))
    if (c != '.') d.digits += c;
  int x = 0;
  std::string_view ex = s.substr(e + 1);
  if (!ex.empty() && ex.front() == '+') ex.remove_prefix(1);
  std::from_chars(ex.data(), ex.data() + ex.size(), x);
  d.exp = x;
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
  return d;
}

/// std::to_chars into a string (scientific or fixed; precision < 0: shortest).
template <class F>
std::string chars_of(F v, std::chars_format fmt, int precision = -1) {
  char buf[512];
  const auto r = precision < 0 ? std::to_chars(buf, buf + sizeof buf, v, fmt)
                               : std::to_chars(buf, buf + sizeof buf, v, fmt, precision);
  return std::string(buf, r.ptr);
}

/// The shortest decimal digits that read back (to nearest) as the same T.
/// Finite values only.
template <class T>
decimal_digits shortest_digits(T v) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return parse_scientific(chars_of(v, std::chars_format::scientific));
  } else {
    // 16-bit types: try 1, 2, ... significant digits of the (exact) float
    // value; the first that converts back to the same bits is the shortest,
    // and, being correctly rounded, the closest of that length.
    const float f = static_cast<float>(v);
    for (int p = 0; p < 9; ++p) {
      const std::string s = chars_of(f, std::chars_format::scientific, p);
      float back = 0.f;
      std::from_chars(s.data(), s.data() + s.size(), back, std::chars_format::scientific);
      if (T(back).bits == v.bits) return parse_scientific(s);
    }
    return parse_scientific(chars_of(f, std::chars_format::scientific));
  }
}

/// A float split for alignment: "-12" "5" (positional) or "-1" "25" "+03" (scientific).
struct float_parts {
  std::string int_part;
  std::string frac_part;
  int exp = 0;
};

/// Positional parts of a finite v: shortest round-trip digits, or rounded to
/// `precision` fractional digits when those are more (trailing zeros trimmed).
template <class T>
float_parts positional_parts(T v, int precision) {
  const decimal_digits d = shortest_digits(v);
  const int n = static_cast<int>(d.digits.size());
  float_parts p;
  if (std::max(0, n - 1 - d.exp) > precision) {
    const std::string s = chars_of(static_cast<double>(v), std::chars_format::fixed, precision);
    const std::size_t dot = s.find('.');
    p.int_part = s.substr(0, dot);
    if (dot != std::string::npos) p.frac_part = s.substr(dot + 1);
    while (!p.frac_part.empty() && p.frac_part.back() == '0') p.frac_part.pop_back();
    return p;
  }
  if (d.exp >= 0) {
    const auto k = static_cast<std::size_t>(d.exp) + 1;
    p.int_part = d.digits.substr(0, std::min(k, d.digits.size()));
    if (k > d.digits.size()) p.int_part.append(k - d.digits.size(), '0');
    else p.frac_part = d.digits.substr(k);
  } else {
    p.int_part = "0";
    p.frac_part = std::string(static_cast<std::size_t>(-d.exp - 1), '0') + d.digits;
  }
  if (d.digits == "0") p.frac_part.clear();
  if (d.negative) p.int_part = "-" + p.int_part;
  return p;
}

/// Scientific parts of a finite v: shortest digits, or rounded to `precision`
/// fractional digits of the mantissa (trailing zeros trimmed).
template <class T>
float_parts scientific_parts(T v, int precision) {
  decimal_digits d = shortest_digits(v);
  if (static_cast<int>(d.digits.size()) - 1 > precision)
    d = parse_scientific(chars_of(static_cast<double>(v), std::chars_format::scientific, precision));
  float_parts p;
  // Built by appending: GCC 12 at -O3 flagged `"-" + std::string&&` (an
  // insert at 0) with a false -Wstringop-overflow in some translation units.
  if (d.negative) p.int_part = "-";
  p.int_part.append(d.digits, 0, 1);
  p.frac_part = d.digits.substr(1);
  p.exp = d.exp;
  return p;
}

/// Number of digits of |e|, at least 2 (NumPy prints "e+05").
inline std::size_t exponent_digits(int e) {
  const std::string s = std::to_string(e < 0 ? -static_cast<long long>(e) : e);
  return std::max<std::size_t>(2, s.size());
}

/// "e+05" with the exponent zero-padded to `digits`.
inline std::string exponent_string(int e, std::size_t digits) {
  std::string s = std::to_string(e < 0 ? -static_cast<long long>(e) : e);
  if (s.size() < digits) s.insert(0, digits - s.size(), '0');
  return std::string(e < 0 ? "e-" : "e+") + s;
}

inline std::string pad_left(std::string s, std::size_t width) {
  if (s.size() < width) s.insert(0, width - s.size(), ' ');
  return s;
}

/// Non-finite spelling, as NumPy: "nan" (sign ignored), "inf", "-inf".
inline std::string non_finite_string(double v) {
  if (std::isnan(v)) return "nan";
  return v < 0 ? "-inf" : "inf";
}

/// NumPy's finfo(T).precision, the decimal digits T holds: float16 3,
/// bfloat16 2 (as ml_dtypes), float32 6, float64 15.
template <class T>
inline constexpr int decimal_precision_v =
    std::is_same_v<T, half> ? 3 : (std::is_same_v<T, bfloat16> ? 2 : (std::is_same_v<T, float> ? 6 : 15));

/// NumPy's FloatingFormat (floatmode "maxprec", sign "-", suppress off).
template <class T>
std::vector<std::string> format_floats(std::span<const T> values, int precision) {
  std::vector<double> fin;  // |finite non-zero| values decide the notation
  bool any_finite = false, any_non_finite = false, neg_inf = false;
  for (const T& x : values) {
    const double v = static_cast<double>(x);
    if (std::isfinite(v)) {
      any_finite = true;
      if (v != 0) fin.push_back(std::fabs(v));
    } else {
      any_non_finite = true;
      if (std::isinf(v) && v < 0) neg_inf = true;
    }
  }
  bool sci = false;
  if (!fin.empty()) {
    const auto [lo, hi] = std::minmax_element(fin.begin(), fin.end());
    // NumPy 2.3+: the largest positional value depends on the type's digits.
    const double max_positional = std::pow(10.0, std::min(8, decimal_precision_v<T>));
    sci = *hi >= max_positional || *lo < 1e-4 || *hi / *lo > 1e3;
  }
  std::vector<float_parts> parts(values.size());
  std::size_t pad_l = 0, pad_r = 0, exp_size = 0;
  if (any_finite) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!std::isfinite(static_cast<double>(values[i]))) continue;
      parts[i] = sci ? scientific_parts(values[i], precision) : positional_parts(values[i], precision);
      pad_l = std::max(pad_l, parts[i].int_part.size());
      pad_r = std::max(pad_r, parts[i].frac_part.size());
      if (sci) exp_size = std::max(exp_size, exponent_digits(parts[i].exp));
    }
  }
  // Scientific: every mantissa gets the same number of digits; the width
  // after the point also counts "e+XX".
  const std::size_t frac_digits = pad_r;
  if (sci) pad_r = exp_size + 2 + frac_digits;
  // Room for "nan", "inf", "-inf" right-aligned in the common width.
  if (any_non_finite) {
    const std::size_t offset = pad_r + 1;
    const std::size_t need = 3 + (neg_inf ? 1 : 0);
    if (need > offset) pad_l = std::max(pad_l, need - offset);
  }
  const std::size_t width = pad_l + pad_r + 1;
  std::vector<std::string> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = static_cast<double>(values[i]);
    if (!std::isfinite(v)) {
      out[i] = pad_left(non_finite_string(v), width);
      continue;
    }
    if (sci) {
      // Every mantissa gets frac_digits digits; past an element's shortest
      // digits come more of its exact value (NumPy's min_digits), not zeros.
      const decimal_digits d = parse_scientific(
          chars_of(v, std::chars_format::scientific, static_cast<int>(frac_digits)));
      std::string m = d.digits.substr(1);
      m.append(frac_digits - m.size(), '0');
      std::string lead = d.negative ? "-" : "";  // appended: see scientific_parts
      lead.append(d.digits, 0, 1);
      out[i] = pad_left(lead, pad_l) + "." + m + exponent_string(d.exp, exp_size);
      continue;
    }
    const float_parts& p = parts[i];
    std::string s = pad_left(p.int_part, pad_l) + "." + p.frac_part;
    {
      s.append(pad_r - p.frac_part.size(), ' ');
    }
    out[i] = std::move(s);
  }
  return out;
}

/// Decimal string of an integer element (int8/uint8 as numbers, not chars).
template <class T>
std::string integer_string(T v) {
  char buf[24];
  const auto r = std::is_signed_v<T> ? std::to_chars(buf, buf + sizeof buf, static_cast<std::int64_t>(v))
                                     : std::to_chars(buf, buf + sizeof buf, static_cast<std::uint64_t>(v));
  return std::string(buf, r.ptr);
}

/// The formatted words of the shown elements of an array (rank ≥ 1), all of
/// one width: NumPy's BoolFormat, IntegerFormat or FloatingFormat.
template <class T>
std::vector<std::string> format_elements(std::span<const T> values, int precision) {
  std::vector<std::string> out;
  out.reserve(values.size());
  if constexpr (std::is_same_v<T, bool>) {
    for (bool b : values) out.emplace_back(b ? " True" : "False");
  } else if constexpr (std::is_integral_v<T>) {
    std::size_t w = 0;
    for (const T& v : values) w = std::max(w, out.emplace_back(integer_string(v)).size());
    for (auto& s : out) s = pad_left(std::move(s), w);
  } else {
    out = format_floats(values, precision);
  }
  return out;
}

/// Largest magnitude NumPy's scalar str() prints positionally: float16 1e3,
/// float32 1e6, float64 1e16 (bfloat16, which NumPy lacks: 1e2, from its 2 digits).
template <class T>
inline constexpr double positional_limit_v =
    std::is_same_v<T, double> ? 1e16 : (std::is_same_v<T, float> ? 1e6 : (std::is_same_v<T, half> ? 1e3 : 1e2));

/// A rank-0 value the way NumPy's str() prints a scalar: "1.0", "1e-05",
/// "1.5e+16", "nan", "True", "-3" (shortest round-trip, no precision cap).
template <class T>
std::string scalar_string(T x) {
  if constexpr (std::is_same_v<T, bool>) {
    return x ? "True" : "False";
  } else if constexpr (std::is_integral_v<T>) {
    return integer_string(x);
  } else {
    const double v = static_cast<double>(x);
    if (!std::isfinite(v)) return non_finite_string(v);
    const double a = std::fabs(v);
    if (a == 0 || (a >= 1e-4 && a < positional_limit_v<T>)) {
      const float_parts p = positional_parts(x, std::numeric_limits<int>::max());
      return p.int_part + "." + (p.frac_part.empty() ? "0" : p.frac_part);
    }
    const float_parts p = scientific_parts(x, std::numeric_limits<int>::max());
    return p.int_part + (p.frac_part.empty() ? "" : "." + p.frac_part) + exponent_string(p.exp, 2);
  }
}

}  // namespace sinter::detail

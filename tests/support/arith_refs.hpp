#pragma once
// Scalar references for the arithmetic op tests (test_ops_arith.cpp,
// test_ops_unary.cpp): integers wrap, x / 0 == 0, % truncates, round is
// half-to-even, min/max propagate NaN -- written out independently of
// core/ops.hpp. An anonymous namespace: each test file gets its own copy.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "support/op_check.hpp"

namespace {

using namespace op_test;

// ---- references: integers wrap, x / 0 == 0, % truncates (documented) --------

template <class R>
using sint = std::conditional_t<std::is_signed_v<R>, std::int64_t, std::uint64_t>;

template <class R>
sint<R> iv(ld x) {  // an exact integer value as the 64-bit type of R's signedness
  return static_cast<sint<R>>(x);
}

template <class R>
constexpr bool is_int_min(ld a) {
  return std::is_signed_v<R> && a == to_ld(std::numeric_limits<R>::min());
}

#define OP_R using R = typename decltype(r)::type; using C = compute_of<R>; (void)sizeof(C)

const auto add_ref = [](auto r, ld a, ld b) -> ld {
  OP_R;
  if constexpr (is_int_v<R>) return wrap<R>(bits_of<R>(a) + bits_of<R>(b));
  else return in<C>(a) + in<C>(b);
};
const auto sub_ref = [](auto r, ld a, ld b) -> ld {
  OP_R;
  if constexpr (is_int_v<R>) return wrap<R>(bits_of<R>(a) - bits_of<R>(b));
  else return in<C>(a) - in<C>(b);
};
const auto mul_ref = [](auto r, ld a, ld b) -> ld {
  OP_R;
  if constexpr (is_int_v<R>) return wrap<R>(bits_of<R>(a) * bits_of<R>(b));
  else return in<C>(a) * in<C>(b);
};
const auto div_ref = [](auto r, ld a, ld b) -> ld {
  OP_R;
  if constexpr (is_int_v<R>) {
    if (b == 0) return 0;
    if (is_int_min<R>(a) && b == -1) return a;  // -min wraps to min
    return wrap<R>(static_cast<std::uint64_t>(iv<R>(a) / iv<R>(b)));
  } else {
    return in<C>(a) / in<C>(b);
  }
};
const auto mod_ref = [](auto r, ld a, ld b) -> ld {
  OP_R;
  if constexpr (is_int_v<R>) {
    if (b == 0 || (is_int_min<R>(a) && b == -1)) return 0;
    return wrap<R>(static_cast<std::uint64_t>(iv<R>(a) % iv<R>(b)));
  } else {
    return std::fmod(in<C>(a), in<C>(b));
  }
};
const auto neg_ref = [](auto r, ld a) -> ld {
  OP_R;
  if constexpr (is_int_v<R>) return wrap<R>(std::uint64_t{0} - bits_of<R>(a));
  else return -in<C>(a);
};
const auto abs_ref = [](auto r, ld a) -> ld {
  OP_R;
  if constexpr (is_int_v<R>) return a < 0 ? wrap<R>(std::uint64_t{0} - bits_of<R>(a)) : a;
  else if constexpr (std::is_same_v<R, bool>) return a;
  else return std::fabs(in<C>(a));
};
const auto square_ref = [](auto r, ld a) -> ld {
  OP_R;
  if constexpr (is_int_v<R>) return wrap<R>(bits_of<R>(a) * bits_of<R>(a));
  else return in<C>(a) * in<C>(a);
};
const auto sign_ref = [](auto r, ld a) -> ld {
  OP_R;
  if (std::isnan(a)) return a;
  return a > 0 ? 1 : (a < 0 ? -1 : 0);
};
const auto min_ref = [](auto r, ld a, ld b) -> ld {
  OP_R;
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<ld>::quiet_NaN();
  return in<C>(a) < in<C>(b) ? in<C>(a) : in<C>(b);
};
const auto max_ref = [](auto r, ld a, ld b) -> ld {
  OP_R;
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<ld>::quiet_NaN();
  return in<C>(a) > in<C>(b) ? in<C>(a) : in<C>(b);
};
const auto clip_ref = [](auto r, ld x, ld lo, ld hi) -> ld {
  OP_R;
  if (std::isnan(x) || std::isnan(lo) || std::isnan(hi)) return std::numeric_limits<ld>::quiet_NaN();
  const ld a = in<C>(x) < in<C>(lo) ? in<C>(lo) : in<C>(x);  // numpy: min(max(x, lo), hi)
  return a > in<C>(hi) ? in<C>(hi) : a;
};
const auto fma_ref = [](auto r, ld a, ld b, ld c) -> ld {
  OP_R;
  if constexpr (is_int_v<R>) return wrap<R>(bits_of<R>(a) * bits_of<R>(b) + bits_of<R>(c));
  else return std::fma(in<C>(a), in<C>(b), in<C>(c));
};
const auto pow_ref = [](auto r, ld a, ld b) -> ld {
  OP_R;
  if constexpr (is_int_v<R>) {
    if (b < 0) return a == 1 ? 1 : (a == -1 ? (std::fmod(b, 2) == 0 ? 1 : -1) : 0);
    std::uint64_t acc = 1;
    for (ld e = 0; e < b; ++e) acc *= bits_of<R>(a);  // plain repeated product, wrapping
    return wrap<R>(acc);
  } else {
    return std::pow(in<C>(a), in<C>(b));
  }
};
const auto floor_ref = [](auto r, ld a) -> ld { OP_R; return is_int_v<R> ? a : std::floor(a); };
const auto ceil_ref = [](auto r, ld a) -> ld { OP_R; return is_int_v<R> ? a : std::ceil(a); };
const auto trunc_ref = [](auto r, ld a) -> ld { OP_R; return is_int_v<R> ? a : std::trunc(a); };
/// Half to even, written out (not nearbyint).
const auto round_ref = [](auto r, ld a) -> ld {
  OP_R;
  if (is_int_v<R> || !std::isfinite(a)) return a;
  ld f = std::floor(a);
  const ld d = a - f;
  if (d > 0.5L || (d == 0.5L && std::fmod(f, 2) != 0)) f += 1;
  return f == 0 ? std::copysign(ld{0}, a) : f;
};

// Domains.
[[maybe_unused]] domain full() { return domain{}; }
[[maybe_unused]] domain divisors() {
  domain d = dom(-20, 20);
  d.zero_rate = 0.15;
  return d;
}
[[maybe_unused]] domain halves() {
  domain d = dom(-40, 40);
  d.halves_rate = 0.4;
  return d;
}
[[maybe_unused]] domain exponents(double lo = -4, double hi = 70) {
  domain d = dom(lo, hi);
  d.special_rate = 0;  // int max as an exponent would make the plain reference loop endless
  d.integral_rate = 0.4;
  return d;
}

}  // namespace

#pragma once
/// \file scan/ops.hpp
/// Scan operators: what a cumulative operation accumulates (acc_t), its
/// identity, how an element enters it (lift), how two partial results
/// combine, and the element type of the result. Stateless SINTER_HD
/// functors, like the reduction operators, so the host engine and CUB share
/// them.
///
/// Accumulators: integers and bool in 64 bits (as `sum`); every float type
/// (half, bfloat16, float, double) in double, each output rounded once to
/// the result type; cummax/cummin in compute_t (exact).
#include <cstdint>
#include <type_traits>

#include "../core/dtype.hpp"
#include "../reduce/ops.hpp"

namespace sinter::detail::scan_ops {

/// 64-bit for integers and bool (unsigned stays unsigned), double for floats.
template <class V>
using arith_acc_t =
    std::conditional_t<std::is_integral_v<V>, reduce_ops::sum_acc_t<V>, double>;

/// cumsum (Prod = false) and cumprod (true); Nan: NaN enters as the identity
/// (nancumsum, nancumprod). Result: as sum and prod (64-bit for integers and
/// bool, the type itself for floats, half and bfloat16 included).
template <bool Prod, bool Nan>
struct arith {
  static constexpr const char* name =
      Prod ? (Nan ? "nancumprod" : "cumprod") : (Nan ? "nancumsum" : "cumsum");
  template <class V> using acc_t = arith_acc_t<V>;
  template <class V> using result_t = typename reduce_ops::sum::template result_t<V>;
  /// 1, or 0 (-0.0 for floats, so -0.0 + x is x for every x, -0.0 included, as NumPy's first element).
  template <class V> SINTER_HD static acc_t<V> identity() {
    if constexpr (Prod) return acc_t<V>(1);
    else if constexpr (std::is_floating_point_v<acc_t<V>>) return -acc_t<V>(0);
    else return acc_t<V>(0);
  }
  template <class V> SINTER_HD static acc_t<V> lift(V v) {
    const auto a = static_cast<acc_t<V>>(static_cast<compute_t<V>>(v));
    if constexpr (Nan && std::is_floating_point_v<acc_t<V>>)
      if (a != a) return Prod ? acc_t<V>(1) : acc_t<V>(0);  // NumPy: NaN as 0 (+0.0) or 1
    return a;
  }
  /// Signed integers wrap as NumPy's (in unsigned arithmetic: no overflow UB).
  template <class A> SINTER_HD static A combine(A a, A b) {
    if constexpr (std::is_integral_v<A> && std::is_signed_v<A>) {
      using U = std::make_unsigned_t<A>;
      return static_cast<A>(Prod ? static_cast<U>(static_cast<U>(a) * static_cast<U>(b))
                                 : static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    } else if constexpr (Prod) {
      return a * b;
    } else {
      return a + b;
    }
  }
};

/// cummax (Max = true) and cummin: NaN propagates (the first NaN), ties keep
/// the earlier element, as NumPy's maximum.accumulate; the result keeps the
/// input's type.
template <bool Max>
struct extremum {
  static constexpr const char* name = Max ? "cummax" : "cummin";
  using base = reduce_ops::extremum<Max>;
  template <class V> using acc_t = compute_t<V>;
  template <class V> using result_t = V;
  template <class V> SINTER_HD static acc_t<V> identity() { return base::template identity<V>(); }
  template <class V> SINTER_HD static acc_t<V> lift(V v) { return static_cast<acc_t<V>>(v); }
  template <class A> SINTER_HD static A combine(A a, A b) { return base::combine(a, b); }
};

using cumsum = arith<false, false>;
using cumprod = arith<true, false>;
using nancumsum = arith<false, true>;
using nancumprod = arith<true, true>;
using cummax = extremum<true>;
using cummin = extremum<false>;

/// The result element of an accumulator value: one rounding.
template <class R, class A>
SINTER_HD SINTER_FORCEINLINE R to_result(A a) {
  if constexpr (is_half_like_v<R>) return R(static_cast<float>(a));
  else return static_cast<R>(a);
}

}  // namespace sinter::detail::scan_ops

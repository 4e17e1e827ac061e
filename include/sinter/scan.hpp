#pragma once
/// \file scan.hpp
/// Scans fused with their producers: cumsum, cumprod, cummax, cummin,
/// nancumsum, nancumprod, over the flattened expression (NumPy's default: a
/// 1-D result) or along one axis (`sinter::axis(k)`, negative counts from
/// the end; the result has the expression's shape). The producer runs once
/// per element and is never materialised: `cumsum(exp(x) * w, axis(1))`
/// reads x and w once and allocates only its result.
///
/// Result types, as NumPy: cumsum and cumprod of integers and bool give
/// int64 (uint64 for unsigned), floats keep their type; cummax and cummin
/// keep the input's type. Accumulation: integers in 64 bits (wrapping, as
/// NumPy); every float type in double, each output rounded once (half and
/// bfloat16 through float), so a float cumsum of 10^7 values has its last
/// element within 1e-6 relative of an exact sum (double cumsum: within
/// about (512 + n / 512) ulp). cummax/cummin propagate the first NaN;
/// nancumsum/nancumprod take NaN as 0 / 1.
///
/// Determinism: host and par give bitwise the same result for any thread
/// count (fixed segments and carry order: scan/host.hpp). On cuda, CUB's
/// DeviceScan (scan/cuda.hpp), asynchronous on the policy's stream.
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>

#include "array.hpp"
#include "expression.hpp"
#include "policy/cuda.hpp"
#include "policy/par.hpp"
#include "reduce.hpp"
#include "scan/host.hpp"
#include "scan/ops.hpp"
#if SINTER_HAS_CUDA()
#include "scan/cuda.hpp"  // CUB's scanner<cuda>: only in files compiled as CUDA
#endif

namespace sinter {

namespace detail {

/// The CPU scanners (host and par); cuda specialises it (scan/cuda.hpp).
/// run: the bound node (row-major over shape) viewed as (outer, len, inner),
/// scanned along len into out at the same flat positions.
template <class P>
struct scanner {
  template <class Op, class R, class Node, std::size_t Rank>
  static void run(const P&, R* out, const Node& node, const extents<Rank>& shape, index_t outer, index_t len,
                  index_t inner) {
    scan_host::scan<Op, std::is_same_v<P, par>>(node, shape, outer, len, inner, out);
  }
};

#if !SINTER_HAS_CUDA()
/// scanner<cuda> in a file not compiled as CUDA: refused at compile time, as reducer<cuda>.
template <>
struct scanner<cuda> {
  template <class Op, class R, class Node, std::size_t Rank>
  static void run(const cuda&, R*, const Node&, const extents<Rank>&, index_t, index_t, index_t) {
    static_assert(compiled_as_cuda_v<Node>,
                  "sinter::cuda: compile this file as CUDA (nvcc, or LANGUAGE CUDA in CMake) to use cuda arrays");
  }
};
#endif

/// The axis a scan runs along, wrapped; value_error when out of range.
inline std::size_t scan_axis(const char* name, int a, std::size_t rank) {
  const int r = static_cast<int>(rank);
  if (a < -r || a >= r)
    throw value_error(std::string("sinter: ") + name + ": axis " + std::to_string(a) +
                      " is out of bounds for an expression of rank " + std::to_string(rank) +
                      "; pass an axis in [-rank, rank)");
  return static_cast<std::size_t>(a < 0 ? a + r : a);
}

/// A scan of x into a new array of shape `out_shape` (the flattened size, or
/// x's shape), along axis `a` of x (flat: x viewed as one row).
template <class Op, std::size_t RO, class X>
auto scan_into(X&& x, std::optional<std::size_t> a) {
  using P = concrete_policy_t<typename expr_of_t<X>::policy_type>;
  const std::optional<P> own = own_policy<P>(x);
  auto&& e = as_operand(std::forward<X>(x));
  using E = std::remove_cvref_t<decltype(e)>;
  using V = typename E::value_type;
  using R = typename Op::template result_t<V>;
  constexpr std::size_t Rank = E::rank;
  index_t outer = 1, len = e.size(), inner = 1;
  extents<RO> out_shape{};
  if constexpr (RO == 1 && Rank != 1) {
    out_shape[0] = e.size();
  } else {
    for (std::size_t d = 0; d != Rank; ++d) out_shape[d] = e.shape()[d];
    if (a) {
      outer = 1;
      inner = 1;
      for (std::size_t d = 0; d != Rank; ++d) {
        if (d < *a) outer *= e.shape()[d];
        if (d > *a) inner *= e.shape()[d];
      }
      len = e.shape()[*a];
    }
  }
  const P pol = reduction_policy<P>(own, e);
  const auto t0 = std::chrono::steady_clock::now();
  array<R, RO, P> out(out_shape, pol);
  if (e.size() > 0)
    scanner<P>::template run<Op>(pol, out.data(), e.node().bind(e.shape()), e.shape(), outer, len, inner);
  if (trace_active())
    trace_reduce(pol, Op::name, e, static_cast<std::size_t>(e.size()) * sizeof(R),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                 a ? "scan along an axis" : "scan, flattened");
  return out;
}

/// Flattened scan: a 1-D result of x's size.
template <class Op, class X>
auto scan_flat(X&& x) {
  return scan_into<Op, 1>(std::forward<X>(x), std::nullopt);
}

/// Scan along one axis: a result of x's shape.
template <class Op, class X>
auto scan_along(X&& x, const axes_t<1>& ax) {
  constexpr std::size_t Rank = expr_of_t<X>::rank;
  static_assert(Rank >= 1, "sinter: a scan along an axis needs an expression of rank >= 1");
  const std::size_t a = scan_axis(Op::name, ax.a[0], Rank);
  return scan_into<Op, Rank>(std::forward<X>(x), a);
}

}  // namespace detail

// Each scan: flattened (a 1-D array), or along one axis (an array of x's shape).
#define SINTER_SCAN(fn, OP)                                             \
  template <expression X>                                               \
  auto fn(X&& x) {                                                      \
    return detail::scan_flat<detail::scan_ops::OP>(std::forward<X>(x)); \
  }                                                                     \
  template <expression X>                                               \
  auto fn(X&& x, const axes_t<1>& ax) {                                 \
    return detail::scan_along<detail::scan_ops::OP>(std::forward<X>(x), ax); \
  }

/// Cumulative sum, NumPy's cumsum (integers and bool as int64/uint64; floats accumulated in double).
SINTER_SCAN(cumsum, cumsum)
/// Cumulative product, NumPy's cumprod (integers and bool as int64/uint64, wrapping; floats in double).
SINTER_SCAN(cumprod, cumprod)
/// Running maximum, NumPy's maximum.accumulate: the input's type; NaN propagates.
SINTER_SCAN(cummax, cummax)
/// Running minimum, NumPy's minimum.accumulate: the input's type; NaN propagates.
SINTER_SCAN(cummin, cummin)
/// Cumulative sum with NaN taken as 0, NumPy's nancumsum.
SINTER_SCAN(nancumsum, nancumsum)
/// Cumulative product with NaN taken as 1, NumPy's nancumprod.
SINTER_SCAN(nancumprod, nancumprod)
#undef SINTER_SCAN

}  // namespace sinter

#pragma once
/// \file histogram.hpp
/// Counting into bins, as NumPy's bincount and histogram, in one pass over
/// the input: a lazy operand (`histogram(exp(x), 64, {0, 10})`) is
/// evaluated block by block into a stack buffer, never whole.
///
/// Determinism: counts are integers, exact in any order; par gives each
/// group of blocks a private histogram and adds them in group order.
/// Float weights are summed in double over fixed blocks of `weight_block`
/// elements (NumPy's own block, whatever the thread count), each block's
/// sums rounded to the result type and added in block order: bitwise the
/// same for any thread count. host and par; cuda in files compiled by nvcc:
/// counts by histogram_bins.hpp's kernel, weights by atomics whose order is
/// unspecified (search_cuda.hpp: float sums may differ in the last bits).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "histogram_bins.hpp"
#include "search.hpp"

namespace sinter {

namespace detail::hist {

using search_host::block_elems;
using search_host::block_reader;

/// Elements per block whose float weights are summed in double before
/// being added to the result: NumPy's BLOCK in histogram.
inline constexpr index_t weight_block = 65536;
/// Blocks of weight_block computed at once by par (their sums kept apart).
inline constexpr index_t wave_blocks = 64;

/// The accumulator and result types of bins weighted by W: integers (and no
/// weights) add exactly in int64; floats add in double, rounded per block
/// to compute_t<W>.
template <class W>
inline constexpr bool exact_v = std::is_same_v<W, no_weights> || std::is_integral_v<typename W::value_type>;
template <class W>
using acc_t = std::conditional_t<exact_v<W>, index_t, double>;
template <class W>
using result_t = std::conditional_t<exact_v<W>, index_t, compute_t<typename W::value_type>>;

/// acc[bin(x)] += weight over flat positions [b0, b1); acc has one bin
/// more than the histogram, where bin puts the values it drops (no branch).
template <class A, class RX, class RW, class Bin>
SINTER_NOINLINE void add_range(const RX& rx, const RW* rw, index_t b0, index_t b1, const Bin& bin_in, A* acc) {
  using VX = typename RX::V;
  using VW = typename RW::V;
  const Bin bin = bin_in;  // a local copy: stores to acc cannot alias its fields
  VX bx[block_elems];
  index_t kb[block_elems];
  [[maybe_unused]] VW bw[std::is_same_v<RW, no_weights> ? 1 : block_elems];
  for (index_t b = b0; b < b1; b += block_elems) {
    const index_t m = std::min(block_elems, b1 - b);
    const VX* px = rx.read(b, m, bx);
    // The bins first, in a loop of their own (one the compiler vectorises),
    // then the adds.
    for (index_t i = 0; i < m; ++i) kb[i] = bin(px[i]);
    if constexpr (std::is_same_v<RW, no_weights>) {
      for (index_t i = 0; i < m; ++i) ++acc[kb[i]];
    } else {
      const VW* pw = rw->read(b, m, bw);
      for (index_t i = 0; i < m; ++i) acc[kb[i]] += static_cast<A>(pw[i]);
    }
  }
}

/// The binned sums of x (weighted by w unless EW is no_weights) into nbins
/// bins: bin(x) is a slot of Bin::slots(nbins), bins Bin::lead onwards (the
/// others hold dropped values).
template <bool Parallel, class EX, class EW, class Bin>
std::vector<result_t<EW>> accumulate(const EX& x, const EW* w, index_t nbins, const Bin& bin) {
  using A = acc_t<EW>;
  using R = result_t<EW>;
  const auto nb = static_cast<std::size_t>(Bin::slots(nbins));
  const auto lead = static_cast<std::ptrdiff_t>(Bin::lead);
  const auto bins_of = [&](const std::vector<R>& all) {
    return std::vector<R>(all.begin() + lead, all.begin() + lead + static_cast<std::ptrdiff_t>(nbins));
  };
  const index_t n = x.size();
  const block_reader<EX> rx(x);
  using RW = std::conditional_t<std::is_same_v<EW, no_weights>, no_weights, block_reader<EW>>;
  std::unique_ptr<RW> rw;
  if constexpr (!std::is_same_v<EW, no_weights>) rw = std::make_unique<RW>(*w);
  const bool threads = Parallel && n >= 2 * par_grain;
  std::vector<R> out(nb, R{});
  if constexpr (exact_v<EW>) {
    // Private histograms per group of blocks, added in group order.
    const index_t blocks = (n + block_elems - 1) / block_elems;
    const index_t groups = threads ? std::min<index_t>(blocks, 4 * get_num_threads()) : 1;
    if (groups <= 1) {
      add_range(rx, rw.get(), 0, n, bin, out.data());
      return bins_of(out);
    }
    const index_t per = (blocks + groups - 1) / groups;
    std::vector<A> part(nb * static_cast<std::size_t>(groups), A{});
    default_pool().parallel_for(groups, [&](std::int64_t g) {
      add_range(rx, rw.get(), std::min(n, g * per * block_elems), std::min(n, (g + 1) * per * block_elems), bin,
                part.data() + static_cast<std::size_t>(g) * nb);
    });
    for (index_t g = 0; g < groups; ++g)
      for (std::size_t k = 0; k < nb; ++k) out[k] += part[static_cast<std::size_t>(g) * nb + k];
  } else {
    // Fixed blocks summed in double, each rounded to R and added in block order.
    const index_t blocks = (n + weight_block - 1) / weight_block;
    const index_t wave = threads ? wave_blocks : 1;
    std::vector<A> part(nb * static_cast<std::size_t>(std::min(wave, std::max<index_t>(blocks, 1))));
    for (index_t w0 = 0; w0 < blocks; w0 += wave) {
      const index_t cnt = std::min(wave, blocks - w0);
      std::fill(part.begin(), part.end(), A{});
      auto one = [&](std::int64_t j) {
        const index_t b = (w0 + j) * weight_block;
        add_range(rx, rw.get(), b, std::min(n, b + weight_block), bin, part.data() + static_cast<std::size_t>(j) * nb);
      };
      if (cnt > 1) default_pool().parallel_for(cnt, one);
      else one(0);
      for (index_t j = 0; j < cnt; ++j)
        for (std::size_t k = 0; k < nb; ++k) out[k] += static_cast<R>(part[static_cast<std::size_t>(j) * nb + k]);
    }
  }
  return bins_of(out);
}

/// The bin of a non-negative integer: itself.
template <class V>
struct int_bin {
  static constexpr index_t lead = 0;
  static index_t slots(index_t nbins) { return nbins; }
  SINTER_FORCEINLINE index_t operator()(V x) const { return static_cast<index_t>(x); }
};

/// A histogram of uniform bins over [lo, hi] of an operand and weights.
template <class P, class EX, class EW>
auto uniform(const EX& x, const EW* w, index_t bins, double lo, double hi) {
  using V = typename EX::value_type;
  using E = compute_t<floating_t<V>>;
  check_bins_range(bins, lo, hi);
  if (w) check_weights(x, *w);
  const auto edges = linear_edges<E>(lo, hi, bins);
  const auto table = uniform_bin<V, E>::table(edges);
  const uniform_bin<V, E> bin{table.data(), static_cast<E>(lo), static_cast<E>(static_cast<double>(bins) / (hi - lo)),
                              static_cast<E>(bins + 1)};
  const auto counts = accumulate<std::is_same_v<P, par>>(x, w, bins, bin);
  using C = typename decltype(counts)::value_type;
  return histogram_result<C, E, P>{search_host::array_of<C, P>(counts), search_host::array_of<E, P>(edges)};
}

/// [min, max] of x as NumPy's range when none is given: value_error if not
/// finite (NaN or inf in x); lo == hi widened by 0.5 each way; empty: [0, 1].
template <class X>
std::pair<double, double> data_range(X&& x) {
  if (as_operand(x).size() == 0) return {0.0, 1.0};
  double lo = static_cast<double>(sinter::min(x)), hi = static_cast<double>(sinter::max(x));
  if (!std::isfinite(lo) || !std::isfinite(hi))
    throw value_error("sinter: histogram: autodetected range [" + std::to_string(lo) + ", " + std::to_string(hi) +
                      "] is not finite; pass a range");
  if (lo == hi) {
    lo -= 0.5;
    hi += 0.5;
  }
  return {lo, hi};
}

/// A histogram over explicit ascending edges.
template <class P, class EX, class EW, class B>
auto with_edges(const EX& x, const EW* w, B&& edges_in) {
  using V = typename EX::value_type;
  using E = value_of_t<B>;
  static_assert(expr_of_t<B>::rank == 1, "sinter::histogram: bin edges must be 1-D");
  const auto edges = search_host::flat_copy<E>(as_operand(std::forward<B>(edges_in)));
  check_edges(edges);
  if (w) check_weights(x, *w);
  const index_t nb = static_cast<index_t>(edges.size()) - 1;
  const auto counts = accumulate<std::is_same_v<P, par>>(x, w, nb, edge_bin<V, E>{edges.data(), nb});
  using C = typename decltype(counts)::value_type;
  return histogram_result<C, E, P>{search_host::array_of<C, P>(counts), search_host::array_of<E, P>(edges)};
}

/// The smallest and largest value of an integer operand and the first
/// flat position of the smallest (bincount's check, one pass).
template <class E>
auto int_extremes(const E& e) {
  using V = typename E::value_type;
  struct r {
    V lo, hi;
    index_t at;
  } res{V{}, V{}, -1};
  search_host::search_blocks<false>(e, [&](const V* p, index_t b, index_t m) {
    for (index_t i = 0; i < m; ++i) {
      if (res.at < 0 || p[i] < res.lo) res.lo = p[i], res.at = b + i;
      if (b + i == 0 || p[i] > res.hi) res.hi = p[i];
    }
  });
  return res;
}

template <class P>
using checked_policy = std::enable_if_t<search_host::host_side_v<P>, P>;

/// True for a cuda operand: the cuda form (refused outside nvcc).
template <class X>
constexpr bool on_cuda() {
  constexpr bool c = std::is_same_v<search_host::host_policy_t<X>, cuda>;
  static_assert(!c || compiled_as_cuda_v<X>, "sinter::cuda: compile this file as CUDA to use cuda arrays");
  return c;
}

#if SINTER_HAS_CUDA()
/// The policy a cuda operand's result lives on.
template <class X>
cuda cuda_policy(X&& x) {
  return reduction_policy<cuda>(own_policy<cuda>(x), as_operand(x));
}
#endif

}  // namespace detail::hist

/// Histogram of x over `bins` equal bins of `range` = {lo, hi}
/// (numpy.histogram): counts (int64) and bins + 1 edges (x's float type;
/// double for integers, float for half/bfloat16). Every bin is half-open
/// but the last, which holds hi; values outside the range are ignored, and
/// NaN is never counted. bins <= 0, or lo >= hi, throws value_error.
template <expression X>
auto histogram(X&& x, index_t bins, std::pair<double, double> range) {
  using P0 = detail::search_host::host_policy_t<X>;
  if constexpr (std::is_same_v<P0, cuda>) {  // one kernel on x's device and stream (histogram_bins.hpp)
#if SINTER_HAS_CUDA()
    auto&& e = detail::as_operand(x);
    return detail::hist_cuda::uniform(detail::reduction_policy<cuda>(detail::own_policy<cuda>(x), e), e, bins,
                                      range.first, range.second);
#else
    static_assert(detail::compiled_as_cuda_v<X>,
                  "sinter::cuda: compile this file as CUDA (nvcc, or LANGUAGE CUDA in CMake) to use cuda arrays");
#endif
  } else {
    using P = detail::hist::checked_policy<P0>;
    return detail::hist::uniform<P>(detail::as_operand(x), static_cast<const detail::hist::no_weights*>(nullptr), bins,
                                    range.first, range.second);
  }
}
/// histogram with each element counted by its weight (same shape as x, else
/// shape_error): sums in int64 for integer weights, else in double per block
/// of 65536 elements rounded to the weights' float type (float for 16-bit).
template <expression X, expression W>
auto histogram(X&& x, index_t bins, std::pair<double, double> range, W&& weights) {
  auto&& w = detail::as_operand(std::forward<W>(weights));
  if constexpr (detail::hist::on_cuda<X>()) {
#if SINTER_HAS_CUDA()
    return detail::search_cuda::hist_uniform(detail::hist::cuda_policy(x), detail::as_operand(x), w, bins, range.first,
                                      range.second);
#endif
  } else {
    using P = detail::hist::checked_policy<detail::search_host::host_policy_t<X>>;
    return detail::hist::uniform<P>(detail::as_operand(x), &w, bins, range.first, range.second);
  }
}
/// histogram over [min(x), max(x)] (an extra reduction pass; NaN or inf in x
/// throws value_error, as NumPy's autodetected range).
template <expression X>
auto histogram(X&& x, index_t bins = 10) {
  const auto r = detail::hist::data_range(x);
  return histogram(std::forward<X>(x), bins, r);
}
/// Histogram over explicit ascending bin edges (1-D; the last bin closed):
/// counts and the edges as given. Edges that decrease throw value_error.
template <expression X, expression B>
auto histogram(X&& x, B&& edges) {
  const auto* unweighted = static_cast<const detail::hist::no_weights*>(nullptr);
  static_assert(detail::expr_of_t<B>::rank == 1, "sinter::histogram: bin edges must be 1-D");
  if constexpr (detail::hist::on_cuda<X>()) {
#if SINTER_HAS_CUDA()
    return detail::search_cuda::hist_edges(detail::hist::cuda_policy(x), detail::as_operand(x), unweighted,
                                           detail::search_host::any_flat_copy<detail::value_of_t<B>>(edges));
#endif
  } else {
    using P = detail::hist::checked_policy<detail::search_host::host_policy_t<X>>;
    return detail::hist::with_edges<P>(detail::as_operand(x), unweighted, std::forward<B>(edges));
  }
}
/// Histogram over explicit edges, weighted (as the weighted uniform form).
template <expression X, expression B, expression W>
auto histogram(X&& x, B&& edges, W&& weights) {
  auto&& w = detail::as_operand(std::forward<W>(weights));
  static_assert(detail::expr_of_t<B>::rank == 1, "sinter::histogram: bin edges must be 1-D");
  if constexpr (detail::hist::on_cuda<X>()) {
#if SINTER_HAS_CUDA()
    return detail::search_cuda::hist_edges(detail::hist::cuda_policy(x), detail::as_operand(x), &w,
                                           detail::search_host::any_flat_copy<detail::value_of_t<B>>(edges));
#endif
  } else {
    using P = detail::hist::checked_policy<detail::search_host::host_policy_t<X>>;
    return detail::hist::with_edges<P>(detail::as_operand(x), &w, std::forward<B>(edges));
  }
}

/// bincount with weights (same shape as x): sums per value, in double
/// (any weight type, as NumPy), blocked as histogram's float weights.
template <expression X, class W>
  requires(expression<W> || std::is_same_v<W, detail::hist::no_weights>)
auto bincount(X&& x, W&& weights, index_t minlength = 0) {
  using V = detail::value_of_t<X>;
  static_assert(std::is_integral_v<V> && !std::is_same_v<V, bool>,
                "sinter::bincount: x must hold integers (cast with sinter::cast<int64_t>(x))");
  static_assert(detail::expr_of_t<X>::rank == 1, "sinter::bincount: x must be 1-D");
  if (minlength < 0)
    throw value_error("sinter: bincount: minlength = " + std::to_string(minlength) + " must be non-negative");
  auto&& e = detail::as_operand(x);
  if constexpr (detail::hist::on_cuda<X>()) {  // min, then max, then one counting kernel
#if SINTER_HAS_CUDA()
    const cuda pol = detail::hist::cuda_policy(x);
    index_t nb = minlength;
    if (e.size() != 0) {
      const auto lo = static_cast<V>(sinter::min(x));
      bool negative = false;
      if constexpr (std::is_signed_v<V>) negative = lo < V{0};
      if (negative)
        throw value_error("sinter: bincount: x holds a negative value " + std::to_string(lo) + " at position " +
                          std::to_string(static_cast<index_t>(sinter::argmin(x))) +
                          "; bincount counts non-negative integers");
      nb = std::max<index_t>(nb, static_cast<index_t>(static_cast<V>(sinter::max(x))) + 1);
    }
    const detail::search_cuda::int_bin_hd<V> bin{};
    if constexpr (std::is_same_v<std::remove_cvref_t<W>, detail::hist::no_weights>) {
      return detail::search_cuda::counts(pol, e, bin, nb, 0, nb);
    } else {
      auto&& w = sinter::cast<double>(std::forward<W>(weights));
      detail::hist::check_weights(e, w, "bincount");
      return detail::search_cuda::sums<double, double>(pol, e, detail::as_operand(w), bin, nb, 0, nb);
    }
#endif
  } else {
    using P = detail::hist::checked_policy<detail::search_host::host_policy_t<X>>;
    const auto ext = detail::hist::int_extremes(e);
    bool negative = false;
    if constexpr (std::is_signed_v<V>) negative = ext.at >= 0 && ext.lo < V{0};  // (nvcc: no unsigned < 0)
    if (negative)
      throw value_error("sinter: bincount: x holds a negative value " + std::to_string(ext.lo) + " at position " +
                        std::to_string(ext.at) + "; bincount counts non-negative integers");
    const index_t nb = std::max<index_t>(minlength, ext.at >= 0 ? static_cast<index_t>(ext.hi) + 1 : 0);
    constexpr bool par_ = std::is_same_v<P, par>;
    if constexpr (std::is_same_v<std::remove_cvref_t<W>, detail::hist::no_weights>) {
      return detail::search_host::array_of<index_t, P>(detail::hist::accumulate<par_>(
          e, static_cast<const detail::hist::no_weights*>(nullptr), nb, detail::hist::int_bin<V>{}));
    } else {
      auto&& w = sinter::cast<double>(std::forward<W>(weights));
      detail::hist::check_weights(e, w, "bincount");
      return detail::search_host::array_of<double, P>(
          detail::hist::accumulate<par_>(e, &w, nb, detail::hist::int_bin<V>{}));
    }
  }
}

/// Occurrences of each value of the 1-D non-negative integer operand x
/// (numpy.bincount): int64 counts of length max(max(x) + 1, minlength).
/// A negative value, or minlength < 0, throws value_error naming it and
/// its position, before any counting.
template <expression X>
auto bincount(X&& x, index_t minlength = 0) {
  return bincount(std::forward<X>(x), detail::hist::no_weights{}, minlength);
}
}  // namespace sinter

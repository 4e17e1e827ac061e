#pragma once
/// \file histogram_bins.hpp
/// histogram's bin rules (equal bins, explicit edges), shared by host and
/// device, and the histogram of a cuda operand over equal bins (in files
/// compiled by nvcc): one kernel reads the fused expression once,
/// each block counting into a private histogram in shared memory (32-bit
/// atomics), then adding it to the device-wide 64-bit counts. Counts are
/// integers: the result does not depend on the grid or the order of the
/// atomics. The bin rule is host's (uniform_bin: NumPy's estimate and
/// correction against the edges), so host and device agree exactly.
/// Also the host-side checks of weights and edges every policy runs; the
/// other cuda forms (weights, edges, bincount) are in search_cuda.hpp.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "array.hpp"
#include "policy/cuda.hpp"
#include "reduce.hpp"

namespace sinter {

/// histogram's result: counts per bin and the bins' edges (one more than counts).
template <class C, class E, class P>
struct histogram_result {
  array<C, 1, P> counts;  ///< per bin: int64 counts, or sums of weights
  array<E, 1, P> edges;   ///< bins + 1 ascending edges; the last bin is closed
};

namespace detail::hist {

/// NumPy's bin of x among nbins equal bins over [lo, hi], as slot j = bin
/// + 1: estimated from (x - lo) * nbins / (hi - lo) in E (as NumPy 2
/// computes it in x's float type), then moved by one where the edges say
/// so (numpy.histogram's correction), so the edges decide. The table t is
/// -inf, the edges with the last one's successor (the last bin holds hi),
/// +inf: values below lo, NaN and -inf land in slot 0, values above hi in
/// the last two, without a branch.
template <class V, class E>
struct uniform_bin {
  static constexpr index_t lead = 1;
  static index_t slots(index_t nbins) { return nbins + 3; }
  const E* t;
  E lo, norm, top;
  SINTER_HD SINTER_FORCEINLINE index_t operator()(V xv) const {
    const E x = static_cast<E>(xv);
    E f = (x - lo) * norm + E(1);
    f = f > E(0) ? f : E(0);  // NaN: 0
    f = f < top ? f : top;
    index_t j = static_cast<index_t>(f);
    j -= x < t[j];
    j += x >= t[j + 1];
    return j;
  }
  /// The table for edges e.
  static std::vector<E> table(const std::vector<E>& e) {
    std::vector<E> t(e.size() + 2);
    t.front() = -std::numeric_limits<E>::infinity();
    std::copy(e.begin(), e.end(), t.begin() + 1);
    t[e.size()] = std::nextafter(e.back(), std::numeric_limits<E>::infinity());
    t.back() = std::numeric_limits<E>::infinity();
    return t;
  }
};

/// The bin of x among explicit ascending edges: edges[i] <= x < edges[i+1],
/// the last bin closed; nbins outside and for NaN.
template <class V, class E>
struct edge_bin {
  static constexpr index_t lead = 0;
  static index_t slots(index_t nbins) { return nbins + 1; }
  const E* edges;
  index_t nbins;
  SINTER_FORCEINLINE index_t operator()(V xv) const {
    const auto x = static_cast<promote_t<E, double>>(xv);
    if (!(x >= edges[0] && x <= edges[nbins])) return nbins;
    const index_t i = static_cast<index_t>(std::upper_bound(edges, edges + nbins + 1, x) - edges) - 1;
    return i < nbins ? i : nbins - 1;
  }
};

/// NumPy's linspace(lo, hi, nbins + 1) in E: lo + i * step, the last hi.
/// Each step rounded as NumPy's (a volatile product: never an FMA).
template <class E>
std::vector<E> linear_edges(double lo, double hi, index_t nbins) {
  std::vector<E> e(static_cast<std::size_t>(nbins + 1));
  const double step = (hi - lo) / static_cast<double>(nbins);
  for (index_t i = 0; i < nbins; ++i) {
    volatile double t = static_cast<double>(i) * step;
    e[static_cast<std::size_t>(i)] = static_cast<E>(t + lo);
  }
  e[static_cast<std::size_t>(nbins)] = static_cast<E>(hi);
  return e;
}

/// value_error for histogram's bins and range.
inline void check_bins_range(index_t bins, double lo, double hi) {
  if (bins <= 0)
    throw value_error("sinter: histogram: bins = " + std::to_string(bins) + " must be positive; pass at least 1 bin");
  if (!(lo < hi) || !std::isfinite(lo) || !std::isfinite(hi))
    throw value_error("sinter: histogram: range [" + std::to_string(lo) + ", " + std::to_string(hi) +
                      "] needs finite lo < hi; pass a range with lo < hi");
}

/// Stands for "no weights".
struct no_weights {
  using value_type = bool;
  using V = bool;
};

/// Weights operand checked against x's shape (or no_weights).
template <class EX, class W>
void check_weights(const EX& x, const W& w, const char* who = "histogram") {
  if constexpr (!std::is_same_v<W, no_weights>)
    if (x.shape() != w.shape())
      throw shape_error(std::string("sinter: ") + who + ": weights of shape " + shape_string(w.shape()) +
                        " do not match x of shape " + shape_string(x.shape()) + "; pass one weight per element");
}

/// value_error unless the edges are there and increase.
template <class E>
void check_edges(const std::vector<E>& edges) {
  if (edges.empty()) throw value_error("sinter: histogram: bins holds no edges; pass at least one edge");
  for (std::size_t i = 1; i < edges.size(); ++i)
    if (!(edges[i - 1] <= edges[i]))
      throw value_error("sinter: histogram: bins must increase monotonically (edge " + std::to_string(i) +
                        "); sort the edges");
}

}  // namespace detail::hist

namespace detail::hist_cuda {

/// Counters of a block's private histogram (shared memory).
using block_count = unsigned int;
/// Slots a block keeps in shared memory at most (else it adds to global
/// memory directly): 48 KiB of counters.
inline constexpr index_t shared_slots = 12288;

/// The kernel's three phases for one thread, SINTER_HD so that the grid
/// emulator runs them on the host (tests/cuda/test_cuda_histogram.cu).
/// Phase 1: zero the block's slots.
SINTER_HD inline void zero_slots(block_count* sh, index_t slots, unsigned t, unsigned nt) {
  for (index_t s = t; s < slots; s += nt) sh[s] = 0;
}
/// Phase 2: count the block's share of [0, n) (a grid-stride loop).
template <class Elem, class Bin>
SINTER_HD void count_slots(const Elem& elem, const Bin& bin, index_t n, block_count* sh, unsigned block,
                           unsigned nblocks, unsigned t, unsigned nt) {
  const index_t stride = static_cast<index_t>(nblocks) * nt;
  for (index_t i = static_cast<index_t>(block) * nt + t; i < n; i += stride) {
    const index_t k = bin(elem.value(i));
#if defined(__CUDA_ARCH__)
    atomicAdd(sh + k, 1u);
#else
    ++sh[k];
#endif
  }
}
/// Phase 3: add the block's slots to the device-wide counts.
SINTER_HD inline void flush_slots(const block_count* sh, unsigned long long* counts, index_t slots, unsigned t,
                                  unsigned nt) {
  for (index_t s = t; s < slots; s += nt)
    if (sh[s] != 0) {
#if defined(__CUDA_ARCH__)
      atomicAdd(counts + s, static_cast<unsigned long long>(sh[s]));
#else
      counts[s] += sh[s];
#endif
    }
}

#if SINTER_HAS_CUDA()
/// The histogram kernel: shared-memory slots when they fit, else global.
template <class Elem, class Bin>
__global__ void hist_kernel(Elem elem, Bin bin, index_t n, index_t slots, unsigned long long* counts, bool shared) {
  extern __shared__ block_count sh[];
  const unsigned t = threadIdx.x, nt = blockDim.x, b = blockIdx.x, nb = gridDim.x;
  if (!shared) {
    const index_t stride = static_cast<index_t>(nb) * nt;
    for (index_t i = static_cast<index_t>(b) * nt + t; i < n; i += stride) atomicAdd(counts + bin(elem.value(i)), 1ull);
    return;
  }
  zero_slots(sh, slots, t, nt);
  __syncthreads();
  count_slots(elem, bin, n, sh, b, nb, t, nt);
  __syncthreads();
  flush_slots(sh, counts, slots, t, nt);
}

/// histogram(x, bins, {lo, hi}) of a cuda expression: counts and edges as
/// device arrays on x's policy, computed on its stream (synchronised: the
/// edge table is host memory).
template <class E>
auto uniform(const cuda& pol, const E& e, index_t bins, double lo, double hi) {
  using V = typename E::value_type;
  using Ed = compute_t<floating_t<V>>;
  hist::check_bins_range(bins, lo, hi);
  const auto edges = hist::linear_edges<Ed>(lo, hi, bins);
  const auto table = hist::uniform_bin<V, Ed>::table(edges);
  const index_t slots = hist::uniform_bin<V, Ed>::slots(bins), n = e.size();
  array<index_t, 1, cuda> counts(extents<1>{bins}, pol);
  array<Ed, 1, cuda> d_edges(extents<1>{bins + 1}, pol);
  cuda_reduce::enter(pol);
  const std::size_t tbytes = cuda_reduce::align_up(table.size() * sizeof(Ed));
  cuda_reduce::scratch mem(pol, tbytes + static_cast<std::size_t>(slots) * sizeof(unsigned long long));
  auto* d_table = static_cast<Ed*>(mem.ptr);
  auto* d_counts = reinterpret_cast<unsigned long long*>(static_cast<char*>(mem.ptr) + tbytes);
  const auto copy = [&](void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind) {
    cuda_detail::check(cudaMemcpyAsync(to, from, bytes, kind, pol.stream), "cudaMemcpyAsync (histogram)");
  };
  copy(d_table, table.data(), table.size() * sizeof(Ed), cudaMemcpyHostToDevice);
  copy(d_edges.data(), edges.data(), edges.size() * sizeof(Ed), cudaMemcpyHostToDevice);
  cuda_detail::check(cudaMemsetAsync(d_counts, 0, static_cast<std::size_t>(slots) * sizeof(unsigned long long), pol.stream),
                     "cudaMemsetAsync (histogram)");
  if (n > 0) {
    const hist::uniform_bin<V, Ed> bin{d_table, static_cast<Ed>(lo),
                                       static_cast<Ed>(static_cast<double>(bins) / (hi - lo)),
                                       static_cast<Ed>(bins + 1)};
    const auto bound = e.node().bind(e.shape());
    const auto elem = cuda_reduce::full_element<reduce_ops::sum>(bound, e.shape());
    const bool shared = slots <= shared_slots && n < (index_t(1) << 31);
    const unsigned threads = 256;
    const index_t want = (n + threads - 1) / threads;
    const auto grid = static_cast<unsigned>(want < 1024 ? want : 1024);
    const std::size_t shmem = shared ? static_cast<std::size_t>(slots) * sizeof(block_count) : 0;
    hist_kernel<<<grid, threads, shmem, pol.stream>>>(elem, bin, n, slots, d_counts, shared);
    cuda_detail::check(cudaGetLastError(), "histogram kernel launch");
  }
  // The counts are 64-bit: the bins' slots copied as they are.
  copy(counts.data(), d_counts + hist::uniform_bin<V, Ed>::lead, static_cast<std::size_t>(bins) * sizeof(index_t),
       cudaMemcpyDeviceToDevice);
  cuda_detail::check(cudaStreamSynchronize(pol.stream), "cudaStreamSynchronize (histogram)");
  return histogram_result<index_t, Ed, cuda>{std::move(counts), std::move(d_edges)};
}
#endif

}  // namespace detail::hist_cuda
}  // namespace sinter

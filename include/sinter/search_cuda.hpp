#pragma once
/// \file search_cuda.hpp
/// The cuda paths of searchsorted, digitize, the unique family, bincount
/// and histogram with weights or explicit edges (included by search.hpp in
/// files compiled by nvcc). Every element's work is a SINTER_HD body (the
/// tests run them on an emulated grid):
///  - searchsorted / digitize: a binary search per value, a sinter::map over
///    the fused values expression (one kernel), NaN last as on the host;
///  - unique: CUB's stable radix sort of the sort engine's keys with the
///    positions, run heads by key (one NaN, +-0 one value), run ids by
///    CUB's DeviceScan, then one kernel writing values, first positions,
///    run starts and the inverse, and one for the counts;
///  - bincount / histogram: counts through histogram_bins.hpp's kernel
///    (shared-memory atomics, then global); weights by global atomics, in
///    double for floats: the order of the additions is unspecified on cuda,
///    so float sums may differ in the last bits from run to run and from
///    the host's blocked sums (integer weights are exact).
#include <cstddef>
#include <cstdint>
#include <vector>

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "array.hpp"
#include "functions.hpp"
#include "histogram_bins.hpp"
#include "policy/cuda.hpp"
#include "reduce.hpp"
#include "sort/cuda.hpp"
#include "sort/radix.hpp"

namespace sinter::detail::search_cuda {

/// NumPy's order on the device: NaN after every number.
template <class T>
SINTER_HD SINTER_FORCEINLINE bool nan_less(const T& a, const T& b) {
  if constexpr (!std::is_integral_v<T>) return a < b || (b != b && a == a);
  else return a < b;
}

/// searchsorted's element work: where v goes in s[0, len) (right: after its
/// equals); from_end: len minus that (digitize of decreasing bins).
template <class C, class V>
struct search_fn {
  const C* s;
  index_t len;
  bool right, from_end;
  SINTER_HD index_t operator()(V v) const {
    const C x = static_cast<C>(v);
    index_t lo = 0, hi = len;
    while (lo < hi) {
      const index_t mid = lo + (hi - lo) / 2;
      const bool after = right ? !nan_less(x, s[mid]) : nan_less(s[mid], x);
      if (after) lo = mid + 1;
      else hi = mid;
    }
    return from_end ? len - lo : lo;
  }
};

/// Explicit-edge bin on the device: edge_bin's rule (histogram_bins.hpp).
template <class V, class E>
struct edge_bin_hd {
  static constexpr index_t lead = 0;
  const E* edges;
  index_t nbins;
  SINTER_HD index_t operator()(V xv) const {
    using D = promote_t<E, double>;
    const D x = static_cast<D>(xv);
    if (!(x >= static_cast<D>(edges[0]) && x <= static_cast<D>(edges[nbins]))) return nbins;
    index_t lo = 0, hi = nbins + 1;  // upper_bound over the nbins + 1 edges
    while (lo < hi) {
      const index_t mid = lo + (hi - lo) / 2;
      if (!(x < static_cast<D>(edges[mid]))) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1 < nbins ? lo - 1 : nbins - 1;
  }
};

/// bincount's bin: the value itself.
template <class V>
struct int_bin_hd {
  SINTER_HD index_t operator()(V x) const { return static_cast<index_t>(x); }
};

/// acc[bin(x_i)] += w_i for the thread's share of [0, n) (grid stride).
template <class A, class EX, class EW, class Bin>
SINTER_HD void add_weighted(const EX& x, const EW& w, const Bin& bin, index_t n, A* acc, index_t i0, index_t stride) {
  for (index_t i = i0; i < n; i += stride) {
    const A v = static_cast<A>(w.value(i));
#if defined(__CUDA_ARCH__)
    atomicAdd(acc + bin(x.value(i)), v);
#else
    acc[bin(x.value(i))] += v;
#endif
  }
}

/// unique's first pass, for sorted position k: run heads write the value,
/// its first position and the run's start; every k its inverse.
template <class T, class U>
struct run_writer {
  const U* keys;          ///< sorted keys
  const index_t* order;   ///< stable sorting positions
  const index_t* run;     ///< run id of each sorted position
  const T* x;             ///< the flattened input
  T* values;
  index_t *first, *starts, *inverse;
  SINTER_HD void operator()(index_t k) const {
    const index_t r = run[k], o = order[k];
    if (k == 0 || keys[k] != keys[k - 1]) {
      values[r] = x[o];
      if (first) first[r] = o;
      starts[r] = k;
    }
    if (inverse) inverse[o] = r;
  }
};
/// unique's second pass, for run r: its count.
struct run_counter {
  const index_t* starts;
  index_t runs, n;
  index_t* counts;
  SINTER_HD void operator()(index_t r) const { counts[r] = (r + 1 < runs ? starts[r + 1] : n) - starts[r]; }
};
/// Run head flag of sorted position k (1 at a new key): CUB's scan input.
template <class U>
struct head_flag {
  const U* keys;
  SINTER_HD index_t operator()(index_t k) const { return k == 0 ? 0 : (keys[k] != keys[k - 1] ? 1 : 0); }
};

#if SINTER_HAS_CUDA()
/// f(i) for i in [0, n), grid stride.
template <class F>
__global__ void each_kernel(F f, index_t n) {
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) f(i);
}
/// add_weighted as a kernel.
template <class A, class EX, class EW, class Bin>
__global__ void weighted_kernel(EX x, EW w, Bin bin, index_t n, A* acc) {
  add_weighted(x, w, bin, n, acc, static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x,
               static_cast<index_t>(gridDim.x) * blockDim.x);
}

/// Blocks for n elements (at most 1024).
inline unsigned grid_for(index_t n) {
  const index_t want = (n + cuda_detail::block_size - 1) / cuda_detail::block_size;
  return static_cast<unsigned>(want < 1 ? 1 : (want < 1024 ? want : 1024));
}
template <class F>
void each(const cuda& pol, F f, index_t n) {
  if (n == 0) return;
  each_kernel<<<grid_for(n), cuda_detail::block_size, 0, pol.stream>>>(f, n);
  cuda_detail::check(cudaGetLastError(), "search kernel launch");
}

/// Host bytes to device memory on pol's stream.
inline void upload(const cuda& pol, void* to, const void* from, std::size_t bytes) {
  if (bytes)
    cuda_detail::check(cudaMemcpyAsync(to, from, bytes, cudaMemcpyHostToDevice, pol.stream), "cudaMemcpyAsync");
}
/// A host vector as a 1-D cuda array (synchronised: v may die after).
template <class T>
array<T, 1, cuda> device_array(const cuda& pol, const std::vector<T>& v) {
  array<T, 1, cuda> a(extents<1>{{static_cast<index_t>(v.size())}}, pol);
  upload(pol, a.data(), v.data(), v.size() * sizeof(T));
  cuda_detail::check(cudaStreamSynchronize(pol.stream), "cudaStreamSynchronize (upload)");
  return a;
}

/// Positions of each value of e in the device array s: int64 in e's shape.
template <class C, class E>
auto search(const cuda& pol, const array<C, 1, cuda>& s, const E& e, bool right, bool from_end) {
  using V = typename E::value_type;
  array<index_t, E::rank, cuda> out(e.shape(), pol);
  if (out.size() != 0) out = sinter::map(search_fn<C, V>{s.data(), s.size(), right, from_end}, e);
  return out;
}

/// The element reader of a cuda expression (value(i), row-major).
template <class E>
auto element_of(const E& e) {
  return cuda_reduce::full_element<reduce_ops::sum>(e.node().bind(e.shape()), e.shape());
}

/// Counts of bin(x) over `slots` slots: the histogram kernel, 64-bit counts.
template <class E, class Bin>
array<index_t, 1, cuda> counts(const cuda& pol, const E& e, const Bin& bin, index_t slots, index_t lead,
                               index_t nbins) {
  cuda_reduce::enter(pol);
  cuda_reduce::scratch mem(pol, static_cast<std::size_t>(slots > 0 ? slots : 1) * sizeof(unsigned long long));
  auto* acc = static_cast<unsigned long long*>(mem.ptr);
  cuda_detail::check(cudaMemsetAsync(acc, 0, static_cast<std::size_t>(slots) * sizeof(unsigned long long), pol.stream),
                     "cudaMemsetAsync (counts)");
  const index_t n = e.size();
  if (n > 0 && slots > 0) {
    const bool shared = slots <= hist_cuda::shared_slots && n < (index_t(1) << 31);
    const std::size_t shmem = shared ? static_cast<std::size_t>(slots) * sizeof(hist_cuda::block_count) : 0;
    hist_cuda::hist_kernel<<<grid_for(n), 256, shmem, pol.stream>>>(element_of(e), bin, n, slots, acc, shared);
    cuda_detail::check(cudaGetLastError(), "histogram kernel launch");
  }
  array<index_t, 1, cuda> out(extents<1>{{nbins}}, pol);
  if (nbins)
    cuda_detail::check(cudaMemcpyAsync(out.data(), acc + lead, static_cast<std::size_t>(nbins) * sizeof(index_t),
                                       cudaMemcpyDeviceToDevice, pol.stream),
                       "cudaMemcpyAsync (counts)");
  cuda_detail::check(cudaStreamSynchronize(pol.stream), "cudaStreamSynchronize (counts)");
  return out;
}

/// Sums of w per bin(x): A the accumulator (double, or unsigned 64-bit for
/// integer weights: two's complement sums are exact), R the result type.
template <class A, class R, class E, class W, class Bin>
array<R, 1, cuda> sums(const cuda& pol, const E& e, const W& w, const Bin& bin, index_t slots, index_t lead,
                       index_t nbins) {
  cuda_reduce::enter(pol);
  array<A, 1, cuda> acc(extents<1>{{slots}}, pol);
  if (slots) cuda_detail::check(cudaMemsetAsync(acc.data(), 0, static_cast<std::size_t>(slots) * sizeof(A), pol.stream),
                                "cudaMemsetAsync (sums)");
  const index_t n = e.size();
  if (n > 0 && slots > 0) {
    weighted_kernel<<<grid_for(n), cuda_detail::block_size, 0, pol.stream>>>(element_of(e), element_of(w), bin, n,
                                                                             acc.data());
    cuda_detail::check(cudaGetLastError(), "weighted histogram kernel launch");
  }
  const view<const A, 1, cuda> part(acc.data() + lead, extents<1>{{nbins}}, extents<1>{{1}}, pol);
  array<R, 1, cuda> out(extents<1>{{nbins}}, pol);
  if (nbins) out = sinter::cast<R>(part);
  cuda_detail::check(cudaStreamSynchronize(pol.stream), "cudaStreamSynchronize (sums)");
  return out;
}

/// Sums of weights per bin on cuda: int64 for integer weights (exact),
/// else accumulated in double and rounded once to compute_t of the weights.
template <class EX, class EW, class Bin>
auto cuda_sums(const cuda& pol, const EX& x, const EW& w, const Bin& bin, index_t slots, index_t lead, index_t nb) {
  using VW = typename EW::value_type;
  if constexpr (std::is_integral_v<VW>)
    return sums<unsigned long long, index_t>(pol, x, w, bin, slots, lead, nb);
  else return sums<double, compute_t<VW>>(pol, x, w, bin, slots, lead, nb);
}

/// Weighted histogram of equal bins on cuda.
template <class EX, class EW>
auto hist_uniform(const cuda& pol, const EX& x, const EW& w, index_t bins, double lo, double hi) {
  using V = typename EX::value_type;
  using E = compute_t<floating_t<V>>;
  hist::check_bins_range(bins, lo, hi);
  hist::check_weights(x, w);
  const auto edges = hist::linear_edges<E>(lo, hi, bins);
  const auto table = device_array(pol, hist::uniform_bin<V, E>::table(edges));
  const hist::uniform_bin<V, E> bin{table.data(), static_cast<E>(lo),
                                    static_cast<E>(static_cast<double>(bins) / (hi - lo)), static_cast<E>(bins + 1)};
  auto c = cuda_sums(pol, x, w, bin, hist::uniform_bin<V, E>::slots(bins), hist::uniform_bin<V, E>::lead, bins);
  using C = typename decltype(c)::value_type;
  return histogram_result<C, E, cuda>{std::move(c), device_array(pol, edges)};
}

/// Histogram over explicit edges (host copies) on cuda; w: weights, or null as no_weights.
template <class EX, class EW, class E>
auto hist_edges(const cuda& pol, const EX& x, const EW* w, const std::vector<E>& edges) {
  using V = typename EX::value_type;
  hist::check_edges(edges);
  if (w) hist::check_weights(x, *w);
  const index_t nb = static_cast<index_t>(edges.size()) - 1;
  auto d_edges = device_array(pol, edges);
  const edge_bin_hd<V, E> bin{d_edges.data(), nb};
  if constexpr (std::is_same_v<EW, hist::no_weights>) {
    return histogram_result<index_t, E, cuda>{counts(pol, x, bin, nb + 1, 0, nb), std::move(d_edges)};
  } else {
    auto c = cuda_sums(pol, x, *w, bin, nb + 1, 0, nb);
    using C = typename decltype(c)::value_type;
    return histogram_result<C, E, cuda>{std::move(c), std::move(d_edges)};
  }
}

/// unique's parts: sorted unique values, first positions, counts, and the
/// inverse written to inv (n elements, row-major) when not null.
template <class T>
struct unique_parts {
  array<T, 1, cuda> values;
  array<index_t, 1, cuda> first, counts;
};
template <class T, std::size_t R>
unique_parts<T> unique(const cuda& pol, const array<T, R, cuda>& t, index_t* inv, bool want_first) {
  using U = typename sort_key<T>::U;
  const index_t n = t.size();
  cuda_reduce::enter(pol);
  const view<const T, 1, cuda> flat(t.data(), extents<1>{{n}}, extents<1>{{1}}, pol);
  array<U, 1, cuda> keys(extents<1>{{n}}, pol), kout(extents<1>{{n}}, pol);
  array<index_t, 1, cuda> idx(extents<1>{{n}}, pol), order(extents<1>{{n}}, pol), run(extents<1>{{n}}, pol),
      starts(extents<1>{{n}}, pol);
  index_t runs = 0;
  if (n > 0) {
    keys = sinter::map(sort_key_fn<T>{}, flat);
    idx = arange<index_t>(n);
    cuda_sort::sort_pairs(pol, keys.data(), kout.data(), idx.data(), order.data(), 1, n);
    thrust::counting_iterator<index_t> first(0);
    thrust::transform_iterator<head_flag<U>, thrust::counting_iterator<index_t>, index_t> in(first,
                                                                                            head_flag<U>{kout.data()});
    std::size_t bytes = 0;
    cuda_detail::check(cub::DeviceScan::InclusiveSum(nullptr, bytes, in, run.data(), n, pol.stream),
                       "cub::DeviceScan::InclusiveSum (size query)");
    {
      cuda_reduce::scratch mem(pol, bytes == 0 ? 1 : bytes);
      cuda_detail::check(cub::DeviceScan::InclusiveSum(mem.ptr, bytes, in, run.data(), n, pol.stream),
                         "cub::DeviceScan::InclusiveSum");
    }
    cuda_detail::check(
        cudaMemcpyAsync(&runs, run.data() + (n - 1), sizeof(index_t), cudaMemcpyDeviceToHost, pol.stream),
        "cudaMemcpyAsync (unique runs)");
    cuda_detail::check(cudaStreamSynchronize(pol.stream), "cudaStreamSynchronize (unique runs)");
    ++runs;
  }
  unique_parts<T> res{array<T, 1, cuda>(extents<1>{{runs}}, pol),
                      array<index_t, 1, cuda>(extents<1>{{want_first ? runs : 0}}, pol),
                      array<index_t, 1, cuda>(extents<1>{{runs}}, pol)};
  each(pol,
       run_writer<T, U>{kout.data(), order.data(), run.data(), t.data(), res.values.data(),
                        want_first ? res.first.data() : nullptr, starts.data(), inv},
       n);
  each(pol, run_counter{starts.data(), runs, n, res.counts.data()}, runs);
  cuda_detail::check(cudaStreamSynchronize(pol.stream), "cudaStreamSynchronize (unique)");
  return res;
}
#endif

}  // namespace sinter::detail::search_cuda

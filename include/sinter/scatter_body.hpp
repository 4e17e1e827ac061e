#pragma once
/// \file scatter_body.hpp
/// The element work of `put` and `scatter_add` (scatter.hpp), written once
/// for the host loop and the CUDA kernel (SINTER_HD): the
/// updates form take's result shape; update k (row-major) writes
/// x[outer, idx[j], inner] from the values at k, or at k % cycle for put.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "config.hpp"
#include "core/dtype.hpp"
#include "core/half.hpp"
#include "core/shape.hpp"

namespace sinter::detail {

/// a + b as numpy.add.at computes it: in x's element type (half and
/// bfloat16 through float, rounded once), integers wrapping, bool as `or`.
template <class T>
SINTER_HD SINTER_FORCEINLINE T scatter_sum(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else if constexpr (is_half_like_v<T>) {
    return convert<T>(static_cast<float>(a) + static_cast<float>(b));
  } else {
    return a + b;
  }
}

#if defined(__CUDA_ARCH__)
/// *p = scatter_sum(*p, v) by compare-and-swap on the aligned word holding
/// *p: the types (and architectures) without an atomicAdd of their own.
template <class T>
__device__ void scatter_cas_add(T* p, T v) {
  if constexpr (sizeof(T) == 8 || sizeof(T) == 4) {
    using W = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned int>;
    W* w = reinterpret_cast<W*>(p);
    W old = *w, assumed = 0;
    do {
      assumed = old;
      T cur;
      std::memcpy(&cur, &assumed, sizeof(T));
      const T sum = scatter_sum(cur, v);
      W bits;
      std::memcpy(&bits, &sum, sizeof(T));
      old = atomicCAS(w, assumed, bits);
    } while (old != assumed);
  } else {  // 1 or 2 bytes: the 32-bit word around it
    const auto addr = reinterpret_cast<std::uintptr_t>(p);
    unsigned int* w = reinterpret_cast<unsigned int*>(addr & ~std::uintptr_t{3});
    const unsigned shift = static_cast<unsigned>(addr & 3u) * 8u;
    const unsigned mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << shift;
    unsigned int old = *w, assumed = 0;
    do {
      assumed = old;
      const auto lane = static_cast<std::conditional_t<sizeof(T) == 1, std::uint8_t, std::uint16_t>>(assumed >> shift);
      T cur;
      std::memcpy(&cur, &lane, sizeof(T));
      const T sum = scatter_sum(cur, v);
      std::conditional_t<sizeof(T) == 1, std::uint8_t, std::uint16_t> bits;
      std::memcpy(&bits, &sum, sizeof(T));
      old = atomicCAS(w, assumed, (assumed & ~mask) | (static_cast<unsigned>(bits) << shift));
    } while (old != assumed);
  }
}

/// *p += v atomically: atomicAdd where the type has one (float, double,
/// 32- and 64-bit integers, half on sm_70+, bfloat16 on sm_80+), else
/// scatter_cas_add.
template <class T>
__device__ SINTER_FORCEINLINE void scatter_atomic_add(T* p, T v) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, std::int32_t> ||
                std::is_same_v<T, std::uint32_t>) {
    atomicAdd(p, v);
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) == 8) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
#if __CUDA_ARCH__ >= 700
  } else if constexpr (std::is_same_v<T, half>) {
    atomicAdd(reinterpret_cast<__half*>(p), __ushort_as_half(v.bits));
#endif
#if __CUDA_ARCH__ >= 800
  } else if constexpr (std::is_same_v<T, bfloat16>) {
    atomicAdd(reinterpret_cast<__nv_bfloat16*>(p), __ushort_as_bfloat16(v.bits));
#endif
  } else {
    scatter_cas_add(p, v);
  }
}
#endif

/// One put or scatter_add, as plain data (a kernel parameter): the updates'
/// shape (rank RV, take's result shape) and, per axis of it, the strides of
/// x (0 on idx's axes), of x's row-major offsets, of idx
/// (0 elsewhere) and of the values (0 where broadcast).
template <class T, class I, class V, std::size_t RV>
struct scatter_args {
  T* x;
  const I* idx;
  const V* val;
  extents<RV> shape, xstrides, xflat, istrides, vstrides;
  index_t axis_stride;  ///< x's stride along the indexed axis
  index_t axis_flat;    ///< x's row-major stride along it
  index_t extent;       ///< x's extent along it (negative indices add it)
  index_t cycle;        ///< put: the values' count (update k reads value k % cycle); 0 for scatter_add

  /// The destination index of the index at offset io (wrapped).
  SINTER_HD SINTER_FORCEINLINE index_t index_at(index_t io) const {
    index_t v = static_cast<index_t>(idx[io]);
    if constexpr (std::is_signed_v<I>) v += v < 0 ? extent : 0;
    return v;
  }

  /// Update k written or added on a device thread, or on the host (plain
  /// stores: the grid emulator); offsets by division, one axis at a time.
  template <bool Add>
  SINTER_HD void apply_at(index_t k) const {
    index_t xo = 0, io = 0, vo = 0, r = k;
    for (std::size_t d = RV; d-- > 0;) {
      const index_t c = d == 0 ? r : r % shape[d];
      r = d == 0 ? 0 : r / shape[d];
      xo += c * xstrides[d];
      io += c * istrides[d];
      vo += c * vstrides[d];
    }
    T* p = x + xo + index_at(io) * axis_stride;
    const T v = convert<T>(val[cycle > 0 ? k % cycle : vo]);
    if constexpr (!Add) {
      *p = v;
    } else {
#if defined(__CUDA_ARCH__)
      scatter_atomic_add(p, v);
#else
      *p = scatter_sum(*p, v);
#endif
    }
  }
};

/// The loop of one CUDA thread (a grid-stride loop over the n updates), as
/// the kernel runs it and the grid emulator replays it.
template <bool Add, class A>
SINTER_HD void scatter_thread(const A& a, index_t n, index_t tid, index_t nthreads) {
  for (index_t k = tid; k < n; k += nthreads) a.template apply_at<Add>(k);
}

/// f(x offset, x row-major offset, value offset) for updates [k0, k1) in
/// row-major order, the offsets carried from one to the next (no division).
template <class T, class I, class V, std::size_t RV, class F>
void for_updates(const scatter_args<T, I, V, RV>& a, index_t k0, index_t k1, F&& f) {
  if (k0 >= k1) return;
  extents<RV> c{};
  index_t xo = 0, fo = 0, io = 0, vo = 0, r = k0;
  for (std::size_t d = RV; d-- > 0;) {
    c[d] = d == 0 ? r : r % a.shape[d];
    r = d == 0 ? 0 : r / a.shape[d];
    xo += c[d] * a.xstrides[d];
    fo += c[d] * a.xflat[d];
    io += c[d] * a.istrides[d];
    vo += c[d] * a.vstrides[d];
  }
  index_t cyc = a.cycle > 0 ? k0 % a.cycle : 0;
  for (index_t k = k0; k != k1; ++k) {
    const index_t v = a.index_at(io);
    f(xo + v * a.axis_stride, fo + v * a.axis_flat, a.cycle > 0 ? cyc : vo);
    if (a.cycle > 0 && ++cyc == a.cycle) cyc = 0;
    for (std::size_t d = RV; d-- > 0;) {
      xo += a.xstrides[d];
      fo += a.xflat[d];
      io += a.istrides[d];
      vo += a.vstrides[d];
      if (++c[d] < a.shape[d] || d == 0) break;
      xo -= c[d] * a.xstrides[d];
      fo -= c[d] * a.xflat[d];
      io -= c[d] * a.istrides[d];
      vo -= c[d] * a.vstrides[d];
      c[d] = 0;
    }
  }
}

/// Updates [k0, k1) in order on the calling thread (host and par).
template <bool Add, class T, class I, class V, std::size_t RV>
void scatter_range(const scatter_args<T, I, V, RV>& a, index_t k0, index_t k1) {
  T* const x = a.x;
  const V* const val = a.val;
  for_updates(a, k0, k1, [x, val](index_t xo, index_t, index_t vo) {
    const T v = convert<T>(val[vo]);
    if constexpr (Add) x[xo] = scatter_sum(x[xo], v);
    else x[xo] = v;
  });
}

}  // namespace sinter::detail

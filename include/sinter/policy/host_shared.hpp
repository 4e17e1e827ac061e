#pragma once
/// \file host_shared.hpp
/// The contiguous CPU pass of a tree whose costly subexpression is written
/// more than once (core/shared_nodes.hpp): tile by tile, the subexpression
/// into a buffer, then the tree reading it from there. host and par
/// (par: per chunk) run it; with streaming stores when the output is large.
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "../core/shared_nodes.hpp"
#include "host_loop.hpp"
#include "host_simd.hpp"
#include "host_stream.hpp"

namespace sinter::detail {

#if SINTER_HOST_SIMD
namespace simd {
/// The tile buffer, read as T (the explicit vector loop's contiguous load).
template <class T>
struct eval<tile_cursor<T>, T> {
  static constexpr bool ok = true;
  static constexpr bool call = false;
  static SINTER_FORCEINLINE vec<T> load(const tile_cursor<T>& c, index_t i) {
    vec<T> v;
    std::memcpy(&v, c.p + (i - c.base), sizeof v);
    return v;
  }
  static SINTER_FORCEINLINE vec<T> load_part(const tile_cursor<T>& c, index_t i, index_t n) {
    return simd::load_part<T>(c.p + (i - c.base), n);
  }
};
/// A shifted cursor evaluates as its cursor, `off` positions further on.
template <class C, class T>
struct eval<shift_cursor<C>, T> {
  static constexpr bool ok = eval<C, T>::ok;
  static constexpr bool call = eval<C, T>::call;
  static SINTER_FORCEINLINE vec<T> load(const shift_cursor<C>& c, index_t i) { return eval<C, T>::load(c.c, i + c.off); }
  static SINTER_FORCEINLINE vec<T> load_part(const shift_cursor<C>& c, index_t i, index_t n) {
    return eval<C, T>::load_part(c.c, i + c.off, n);
  }
};
}  // namespace simd
#endif

/// Bytes of a shared subexpression's tile buffer: 4 KiB (1024 floats), in
/// L1 with the tile's inputs; a multiple of 64 elements, so that tiles
/// after an aligned first one stay aligned for streaming stores.
inline constexpr std::size_t shared_tile_bytes = 4096;

/// out[i] = bound(i) for i in [b, e) of a contiguous pass, with the shared
/// subexpression computed once per element; streaming stores if `stream`
/// (the caller fences).
template <class T, class Node>
void run_shared_range(T* out, const Node& bound, index_t b, index_t e, bool stream) {
  using S = shared_t<Node>;
  using V = typename S::value_type;
  constexpr index_t tile = static_cast<index_t>(shared_tile_bytes / sizeof(V));
  alignas(64) V buf[tile];
  const auto sc = first_shared<S>(bound).linear();
  for (index_t i0 = b; i0 < e; i0 += tile) {
    const index_t i1 = e - i0 < tile ? e : i0 + tile;
    store_range(buf, shift_cursor<std::remove_const_t<decltype(sc)>>{sc, i0}, 0, i1 - i0);
    const auto body = substitute_shared<S>(bound, tile_leaf<V, S::rank>{buf, i0}).linear();
    if (stream) stream_range(out, body, i0, i1);
    else store_range(out, body, i0, i1);
  }
}

/// host's pass of `out = bound` (contiguous, shared_equal(bound)) on [0, n);
/// returns the path taken, for the trace.
template <class T, std::size_t R, class Node>
const char* run_serial_shared(const memory_leaf<T, R>& out, const Node& bound) {
  const index_t n = shape_size(out.shape);
  const bool stream = use_streaming(static_cast<std::size_t>(n) * sizeof(T));
  run_shared_range(out.ptr, bound, 0, n, stream);
  if (stream) stream_fence();
  return stream ? "contiguous streaming" : "contiguous";
}

/// Whether host and par run `out = bound` with its shared subexpression:
/// there is one, the pass is contiguous, every occurrence is equal.
template <class T, std::size_t R, class Node>
bool shares(const memory_leaf<T, R>& out, const Node& bound) {
  if constexpr (R == 0 || !has_shared_v<Node>) return false;
  else return shape_size(out.shape) > 0 && out.unit() && shares_contiguous(bound);
}

}  // namespace sinter::detail

#pragma once
/// \file policy/host/shared.hpp
/// The tile buffer of a costly subexpression written more than once in a
/// contiguous CPU pass (core/shared_nodes.hpp), as the explicit vector loop
/// reads it, and its size. policy/host/tie.hpp runs such a pass, of one
/// output or several: tile by tile, the subexpression into the buffer,
/// then the trees reading it from there.
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "../../core/shared_nodes.hpp"
#include "loop.hpp"
#include "simd.hpp"

namespace sinter::detail {

#if SINTER_HOST_SIMD
namespace simd {
/// The tile buffer, read as T (the explicit vector loop's contiguous load).
template <class T>
struct eval<tile_cursor<T>, T> {
  static constexpr bool ok = true;
  static constexpr bool call = false;
  static constexpr bool pairs = true;
  static SINTER_FORCEINLINE vec<T> load(const tile_cursor<T>& c, index_t i) {
    vec<T> v;
    std::memcpy(&v, c.p + (i - c.base), sizeof v);
    return v;
  }
  static SINTER_FORCEINLINE vec<T> load_part(const tile_cursor<T>& c, index_t i, index_t n) {
    return simd::load_part<T>(c.p + (i - c.base), n);
  }
  static SINTER_FORCEINLINE pair<T> load2(const tile_cursor<T>& c, index_t i) { return {load(c, i), load(c, i + width<T>)}; }
};
/// A shifted cursor evaluates as its cursor, `off` positions further on.
template <class C, class T>
struct eval<shift_cursor<C>, T> {
  static constexpr bool ok = eval<C, T>::ok;
  static constexpr bool call = eval<C, T>::call;
  static constexpr bool pairs = eval<C, T>::pairs;
  static SINTER_FORCEINLINE vec<T> load(const shift_cursor<C>& c, index_t i) { return eval<C, T>::load(c.c, i + c.off); }
  static SINTER_FORCEINLINE vec<T> load_part(const shift_cursor<C>& c, index_t i, index_t n) {
    return eval<C, T>::load_part(c.c, i + c.off, n);
  }
  static SINTER_FORCEINLINE pair<T> load2(const shift_cursor<C>& c, index_t i) { return eval<C, T>::load2(c.c, i + c.off); }
};
}  // namespace simd
#endif

/// Bytes of a shared subexpression's tile buffer: 4 KiB (1024 floats), in
/// L1 with the tile's inputs; a multiple of 64 elements, so that tiles
/// after an aligned first one stay aligned for streaming stores.
inline constexpr std::size_t shared_tile_bytes = 4096;

}  // namespace sinter::detail

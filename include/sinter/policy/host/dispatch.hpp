#pragma once
/// \file policy/host/dispatch.hpp
/// Run-time ISA dispatch of the maths kernels (SINTER_CPU_DISPATCH: GCC on
/// x86-64, a build below AVX2 + FMA). A contiguous range whose cursor calls
/// a lane-kernel op (exp, tanh, log, erf, erfc, ... of float or double: the
/// rows of SINTER_DETAIL_LANE_KERNEL_OPS, core/ops.hpp) runs in tiles of
/// `tile` elements: bottom-up, each such node's operand is stored into a
/// tile buffer by the build's own loop, and the node's kernel runs over the
/// buffer in place, as a function compiled for AVX2 + FMA or AVX-512
/// (target attributes) once per op and type, not per expression, chosen
/// once from the CPU (cpu_isa.hpp). The rest of the tree reads the buffer.
/// At level sse2 (an older CPU, or SINTER_ISA=sse2) the range runs the
/// build's own fused loop, unchanged.
#include <cstring>
#include <type_traits>

#include "../../core/leaf.hpp"
#include "../../core/map_node.hpp"
#include "../../core/ops.hpp"
#include "isa_lanes.hpp"

namespace sinter::detail::dispatch {

#if SINTER_CPU_DISPATCH
/// Elements per tile: a double tile is 4 KiB (L1 with its operands).
inline constexpr index_t tile = 512;

/// A tile kernel: p[i] = f(p[i]) for i in [0, n), n <= tile.
using tile_fn = void (*)(void*, index_t);

/// The row of a lane-kernel op: its kernels by name, and whether float's
/// computes in double (the `f64` rows).
template <class F>
struct row;
#define SINTER_DETAIL_DISPATCH_VIA_f32 false
#define SINTER_DETAIL_DISPATCH_VIA_f64 true
#define SINTER_DETAIL_DISPATCH_ROW(op, fk, fl, dk, pairs)                               \
  template <>                                                                          \
  struct row<ops::op> {                                                                \
    static constexpr bool via_double = SINTER_DETAIL_DISPATCH_VIA_##fl;               \
    template <class K, class V>                                                        \
    static SINTER_DETAIL_LANE_OP V f(V v) { return K::fk(v); }                         \
    template <class K, class V>                                                        \
    static SINTER_DETAIL_LANE_OP V d(V v) { return K::dk(v); }                         \
  };
SINTER_DETAIL_LANE_KERNEL_OPS(SINTER_DETAIL_DISPATCH_ROW)
#undef SINTER_DETAIL_DISPATCH_ROW
#undef SINTER_DETAIL_DISPATCH_VIA_f32
#undef SINTER_DETAIL_DISPATCH_VIA_f64

/// Half a float vector (float's `f64` rows widen each half to doubles).
template <class V>
struct half_of;
template <>
struct half_of<__v8sf> {
  using type = __v4sf;
};
template <>
struct half_of<__v16sf> {
  using type = __v8sf;
};

/// One vector of T through op F's kernel: Kf the float lanes, Kd the
/// double lanes (float's `f64` rows: each half widened exactly, the double
/// kernel, rounded back as the scalar function's static_cast rounds it).
template <class F, class T, class Kf, class Kd, class V>
SINTER_DETAIL_LANE_OP V apply_vec(V v) {
  if constexpr (std::is_same_v<T, double>) {
    return row<F>::template d<Kd>(v);
  } else if constexpr (!row<F>::via_double) {
    return row<F>::template f<Kf>(v);
  } else {
    using D = typename Kd::V;
    using H = typename half_of<V>::type;
    H lo, hi;
    std::memcpy(&lo, &v, sizeof lo);
    std::memcpy(&hi, reinterpret_cast<const char*>(&v) + sizeof lo, sizeof hi);
    const H rl = __builtin_convertvector(row<F>::template f<Kd>(__builtin_convertvector(lo, D)), H);
    const H rh = __builtin_convertvector(row<F>::template f<Kd>(__builtin_convertvector(hi, D)), H);
    V r;
    std::memcpy(&r, &rl, sizeof rl);
    std::memcpy(reinterpret_cast<char*>(&r) + sizeof rl, &rh, sizeof rh);
    return r;
  }
}

/// p[i] = F(p[i]) for i in [0, n) on the lanes' vectors, the last partial
/// vector through a zeroed one.
template <class F, class T, class Kf, class Kd>
SINTER_DETAIL_LANE_OP void tile_body(void* vp, index_t n) {
  using V = std::conditional_t<std::is_same_v<T, double>, typename Kd::V, typename Kf::V>;
  constexpr index_t w = static_cast<index_t>(sizeof(V) / sizeof(T));
  T* p = static_cast<T*>(vp);
  index_t i = 0;
  for (; i + w <= n; i += w) {
    V v;
    std::memcpy(&v, p + i, sizeof v);
    v = apply_vec<F, T, Kf, Kd>(v);
    std::memcpy(p + i, &v, sizeof v);
  }
  if (i < n) {
    V v{};
    std::memcpy(&v, p + i, static_cast<std::size_t>(n - i) * sizeof(T));
    v = apply_vec<F, T, Kf, Kd>(v);
    std::memcpy(p + i, &v, static_cast<std::size_t>(n - i) * sizeof(T));
  }
}

/// The tile kernel of F on T for AVX2 + FMA (x86-64-v3).
template <class F, class T>
__attribute__((target("avx2,fma,bmi,bmi2,lzcnt,popcnt,f16c,movbe"), flatten, noinline)) void tile_avx2(void* p,
                                                                                                    index_t n) {
  tile_body<F, T, isa::avx2_f, isa::avx2_d>(p, n);
}

/// The tile kernel of F on T for AVX-512 (x86-64-v4).
template <class F, class T>
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,avx512cd,avx2,fma,bmi,bmi2,lzcnt,popcnt,f16c,movbe"),
               flatten, noinline)) void
tile_avx512(void* p, index_t n) {
  tile_body<F, T, isa::avx512_f, isa::avx512_d>(p, n);
}

/// The tile kernel of F on T at the host's level (null at sse2), chosen once.
template <class F, class T>
tile_fn kernel() noexcept {
  static const tile_fn k = [] {
    switch (host_isa()) {
      case isa_level::avx512: return &tile_avx512<F, T>;
      case isa_level::avx2: return &tile_avx2<F, T>;
      default: return static_cast<tile_fn>(nullptr);
    }
  }();
  return k;
}

/// Whether cursor C is a node dispatch runs in tiles: a lane-kernel op of
/// one operand whose value and result are both float or both double.
template <class C>
struct node : std::false_type {};
template <class F, class C>
  requires ops::lane_kernel_row_v<F>
struct node<map_cursor<F, C>>
    : std::bool_constant<(std::is_same_v<decltype(std::declval<const C&>().load(0)), float> ||
                          std::is_same_v<decltype(std::declval<const C&>().load(0)), double>) &&
                         std::is_same_v<decltype(std::declval<const C&>().load(0)),
                                        decltype(std::declval<const map_cursor<F, C>&>().load(0))>> {};

/// The number of dispatched nodes in cursor C (each needs a tile buffer).
template <class C>
inline constexpr int count_v = 0;
template <class F, class... C>
inline constexpr int count_v<map_cursor<F, C...>> = (node<map_cursor<F, C...>>::value ? 1 : 0) + (0 + ... + count_v<C>);

/// Whether store_range of T from cursor C runs in tiles: some node is
/// dispatched (at most 8: their buffers are on the stack).
template <class T, class C>
inline constexpr bool applies_v = (std::is_same_v<T, float> || std::is_same_v<T, double>) && count_v<C> > 0 &&
                                  count_v<C> <= 8;

/// A tile buffer read at the pass's positions: element i is p[i - base].
template <class V>
struct buffer_cursor {
  const V* p;
  index_t base;
  SINTER_FORCEINLINE V load(index_t i) const { return p[i - base]; }
};

/// A map node over rewritten operands (the functor, then the operands).
template <class F, class... C>
struct rewritten {
  F f;
  pack<C...> c;
  template <std::size_t... I>
  SINTER_FORCEINLINE auto load_impl(index_t i, std::index_sequence<I...>) const {
    return f(get<I>(c).load(i)...);
  }
  SINTER_FORCEINLINE auto load(index_t i) const { return load_impl(i, std::index_sequence_for<C...>{}); }
};

/// A pack of the values v.
template <class H, class... T>
SINTER_FORCEINLINE pack<H, T...> make_pack(const H& h, const T&... t) {
  if constexpr (sizeof...(T) == 0) return pack<H>{h};
  else return pack<H, T...>{h, make_pack(t...)};
}

/// buf[k] = c.load(from + k), k in [0, n): whole lines, then the rest
/// (split as loop.hpp's store_run_loops, for GCC's -O2).
template <class V, class C>
SINTER_FORCEINLINE void fill(V* buf, const C c, index_t from, index_t n) {
  constexpr index_t line = 64 / static_cast<index_t>(sizeof(V));
  const index_t whole = n & ~(line - 1);
#pragma GCC ivdep
  for (index_t k = 0; k < whole; ++k) buf[k] = static_cast<V>(c.load(from + k));
#pragma GCC ivdep
  for (index_t k = whole; k < n; ++k) buf[k] = static_cast<V>(c.load(from + k));
}

/// Bytes of one tile buffer.
inline constexpr std::size_t buffer_bytes = tile * sizeof(double);

template <int K, class F, class... C, std::size_t... I>
SINTER_FORCEINLINE auto rewrite_map(const map_cursor<F, C...>& c, index_t t, index_t n, unsigned char* bufs, std::index_sequence<I...>);

/// c for the tile [t, t + n) with its dispatched nodes computed: each
/// node's operand, itself rewritten, filled into buffer K + (nodes below),
/// the kernel run over it, and the node replaced by a cursor on it.
template <int K, class C>
SINTER_FORCEINLINE auto rewrite(const C& c, index_t t, index_t n, unsigned char* bufs) {
  if constexpr (count_v<C> == 0) {
    return c;
  } else if constexpr (node<C>::value) {
    using V = decltype(c.load(0));
    using F = std::remove_cvref_t<decltype(c.fn())>;
    const auto in = rewrite<K>(get<0>(c.c), t, n, bufs);
    V* buf = reinterpret_cast<V*>(bufs + static_cast<std::size_t>(K + count_v<C> - 1) * buffer_bytes);
    fill(buf, in, t, n);
    kernel<F, V>()(buf, n);
    return buffer_cursor<V>{buf, t};
  } else {
    return rewrite_map<K>(c, t, n, bufs, std::make_index_sequence<pack_size_v<decltype(c.c)>>{});
  }
}

/// Offset of operand I's buffers: the dispatched nodes of operands before it.
template <class... C, std::size_t... J>
constexpr int offset_of(std::index_sequence<J...>) {
  constexpr int counts[] = {count_v<C>..., 0};
  int s = 0;
  static_cast<void>(counts);
  ((s += counts[J]), ...);
  return s;
}

/// rewrite of a map node that is not dispatched: its operands rewritten.
template <int K, class F, class... C, std::size_t... I>
SINTER_FORCEINLINE auto rewrite_map(const map_cursor<F, C...>& c, index_t t, index_t n, unsigned char* bufs,
                                    std::index_sequence<I...>) {
  return rewritten<F, decltype(rewrite<K + offset_of<C...>(std::make_index_sequence<I>{})>(get<I>(c.c), t, n,
                                                                                           bufs))...>{
      c.fn(), make_pack(rewrite<K + offset_of<C...>(std::make_index_sequence<I>{})>(get<I>(c.c), t, n, bufs)...)};
}

/// Whether the host runs dispatched kernels (its level is above sse2).
inline bool active() noexcept { return host_isa() != isa_level::sse2; }

/// o[i] = c.load(i) for i in [lo, hi), tile by tile (active() must hold).
template <class T, class C>
SINTER_NOINLINE void store_range(T* o, const C& cursor, index_t lo, index_t hi) {
  const C c = cursor;
  alignas(64) unsigned char bufs[static_cast<std::size_t>(count_v<C>) * buffer_bytes];
  for (index_t t = lo; t < hi; t += tile) {
    const index_t n = hi - t < tile ? hi - t : tile;
    fill(o + t, rewrite<0>(c, t, n, bufs), t, n);
  }
}
#else
template <class T, class C>
inline constexpr bool applies_v = false;
inline bool active() noexcept { return false; }
template <class T, class C>
void store_range(T*, const C&, index_t, index_t) {}
#endif

}  // namespace sinter::detail::dispatch

#pragma once
/// \file policy/host/dispatch.hpp
/// Run-time ISA dispatch of the maths kernels (SINTER_CPU_DISPATCH: GCC on
/// x86-64, a build below AVX2 + FMA). A contiguous range whose cursor calls
/// a lane-kernel op (exp, tanh, log, erf, erfc, ... of float or double: the
/// rows of SINTER_DETAIL_LANE_KERNEL_OPS, core/ops.hpp) or a trigonometric
/// one (sin, cos, tan, asin, acos, atan: their scalar code) runs in tiles of
/// `tile` elements: bottom-up, each such node's operand is stored into a
/// tile buffer by the build's own loop, and the node's kernel runs over the
/// buffer in place, as a function compiled for AVX2 + FMA or AVX-512
/// (target attributes) once per op and type, not per expression, chosen
/// once from the CPU (cpu_isa.hpp). The rest of the tree reads the buffer.
/// At level sse2 (an older CPU, or SINTER_ISA=sse2) the range runs the
/// build's own fused loop, unchanged, unless it calls a function taken from
/// the C library there (libm_at_sse2_v).
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>

#include "../../core/leaf.hpp"
#include "../../core/map_node.hpp"
#include "../../core/ops.hpp"
#include "../../core/shared_nodes.hpp"
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
    template <class T>                                                                 \
    static T libm(T x) { return std::op(x); }                                          \
  };
SINTER_DETAIL_LANE_KERNEL_OPS(SINTER_DETAIL_DISPATCH_ROW)
#undef SINTER_DETAIL_DISPATCH_ROW
#undef SINTER_DETAIL_DISPATCH_VIA_f32
#undef SINTER_DETAIL_DISPATCH_VIA_f64

/// The trigonometric functions, dispatched by their scalar code (core/math/
/// trig.hpp, written for GCC to vectorise): each kernel is GCC's loop over
/// the op's own apply, compiled in the target function as the -march build
/// compiles its fused loop. X(op), one per op.
#define SINTER_DETAIL_DISPATCH_AUTO_OPS(X) X(sin) X(cos) X(tan) X(asin) X(acos) X(atan)

/// Whether op F is dispatched by its scalar code (SINTER_DETAIL_DISPATCH_AUTO_OPS).
#define SINTER_DETAIL_DISPATCH_AUTO(op) || std::is_same_v<F, ops::op>
template <class F>
inline constexpr bool auto_v = false SINTER_DETAIL_DISPATCH_AUTO_OPS(SINTER_DETAIL_DISPATCH_AUTO);
#undef SINTER_DETAIL_DISPATCH_AUTO

/// The C library's function of an op dispatched by its scalar code.
template <class F>
struct auto_row;
#define SINTER_DETAIL_DISPATCH_AUTO_ROW(op)   \
  template <>                                 \
  struct auto_row<ops::op> {                  \
    template <class T>                        \
    static T libm(T x) { return std::op(x); } \
  };
SINTER_DETAIL_DISPATCH_AUTO_OPS(SINTER_DETAIL_DISPATCH_AUTO_ROW)
#undef SINTER_DETAIL_DISPATCH_AUTO_ROW

/// The C library's function of a dispatched op F, on x.
template <class F, class T>
T libm_call(T x) {
  if constexpr (auto_v<F>) return auto_row<F>::libm(x);
  else return row<F>::libm(x);
}

#if SINTER_DETAIL_DISPATCH_LANES
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
/// (By reference: a vector argument of a width the build lacks draws a
/// note on the ABI from GCC, which no pragma silences.)
template <class F, class T, class Kf, class Kd, class V>
SINTER_DETAIL_LANE_OP void apply_vec(V& v) {
  if constexpr (std::is_same_v<T, double>) {
    v = row<F>::template d<Kd>(v);
  } else if constexpr (!row<F>::via_double) {
    v = row<F>::template f<Kf>(v);
  } else {
    using D = typename Kd::V;
    using H = typename half_of<V>::type;
    H lo, hi;
    std::memcpy(&lo, &v, sizeof lo);
    std::memcpy(&hi, reinterpret_cast<const char*>(&v) + sizeof lo, sizeof hi);
    const H rl = __builtin_convertvector(row<F>::template f<Kd>(__builtin_convertvector(lo, D)), H);
    const H rh = __builtin_convertvector(row<F>::template f<Kd>(__builtin_convertvector(hi, D)), H);
    std::memcpy(&v, &rl, sizeof rl);
    std::memcpy(reinterpret_cast<char*>(&v) + sizeof rl, &rh, sizeof rh);
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
    apply_vec<F, T, Kf, Kd>(v);
    std::memcpy(p + i, &v, sizeof v);
  }
  if (i < n) {
    V v{};
    std::memcpy(&v, p + i, static_cast<std::size_t>(n - i) * sizeof(T));
    apply_vec<F, T, Kf, Kd>(v);
    std::memcpy(p + i, &v, static_cast<std::size_t>(n - i) * sizeof(T));
  }
}

#endif

#if defined(__clang__)
#define SINTER_DETAIL_DISPATCH_IVDEP
#else
#define SINTER_DETAIL_DISPATCH_IVDEP _Pragma("GCC ivdep")
#endif

/// p[i] = F(p[i]) for i in [0, n) by F's scalar code, for the compiler to
/// vectorise at the target function's ISA: whole lines, then the rest (as
/// fill below, for GCC's -O2).
template <class F, class T>
SINTER_FORCEINLINE void auto_body(void* vp, index_t n) {
  T* p = static_cast<T*>(vp);
  constexpr index_t line = 64 / static_cast<index_t>(sizeof(T));
  const index_t whole = n & ~(line - 1);
  SINTER_DETAIL_DISPATCH_IVDEP
  for (index_t i = 0; i < whole; ++i) p[i] = F::apply(p[i]);
  SINTER_DETAIL_DISPATCH_IVDEP
  for (index_t i = whole; i < n; ++i) p[i] = F::apply(p[i]);
}

/// The tile kernel of F on T for AVX2 + FMA (x86-64-v3).
template <class F, class T>
__attribute__((target("avx2,fma,bmi,bmi2,lzcnt,popcnt,f16c,movbe"), flatten, noinline)) void tile_avx2(void* p,
                                                                                                    index_t n) {
  if constexpr (auto_v<F>) auto_body<F, T>(p, n);
#if SINTER_DETAIL_DISPATCH_LANES
  else tile_body<F, T, isa::avx2_f, isa::avx2_d>(p, n);
#endif
}

/// The tile kernel of F on T for AVX-512 (x86-64-v4).
template <class F, class T>
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,avx512cd,avx2,fma,bmi,bmi2,lzcnt,popcnt,f16c,movbe"),
               flatten, noinline)) void
tile_avx512(void* p, index_t n) {
  if constexpr (auto_v<F>) auto_body<F, T>(p, n);
#if SINTER_DETAIL_DISPATCH_LANES
  else tile_body<F, T, isa::avx512_f, isa::avx512_d>(p, n);
#endif
}

/// Whether F of T calls the C library's function at level sse2: where
/// sinter's kernel, at the build's SSE2 width, took more time per element
/// than the C library's scalar function: every double function, every
/// float trigonometric one but tan, and these float ones (docs/journal/
/// 2026-12-05-isa-dispatch.md and 2026-12-05-trig-dispatch.md).
template <class F, class T>
inline constexpr bool libm_at_sse2_v =
    std::is_same_v<T, double> || (auto_v<F> && !std::is_same_v<F, ops::tan>) || std::is_same_v<F, ops::exp2> ||
    std::is_same_v<F, ops::expm1> || std::is_same_v<F, ops::log> || std::is_same_v<F, ops::log2> ||
    std::is_same_v<F, ops::log1p> || std::is_same_v<F, ops::sinh> || std::is_same_v<F, ops::asinh> ||
    std::is_same_v<F, ops::acosh>;

/// The tile kernel of level sse2 for a function libm_at_sse2_v names: the
/// C library's function on each element.
template <class F, class T>
void tile_libm(void* vp, index_t n) {
  T* p = static_cast<T*>(vp);
  for (index_t i = 0; i < n; ++i) p[i] = libm_call<F>(p[i]);
}

/// The tile kernel of level sse2 for the other functions: sinter's own, as
/// the build's loop runs it (the same values as the fused pass).
template <class F, class T>
void tile_own(void* vp, index_t n) {
  T* p = static_cast<T*>(vp);
  for (index_t i = 0; i < n; ++i) p[i] = F::apply(p[i]);
}

/// The tile kernel of F on T at the host's level, chosen once.
template <class F, class T>
tile_fn kernel() noexcept {
  static const tile_fn k = [] {
    switch (host_isa()) {
      case isa_level::avx512: return &tile_avx512<F, T>;
      case isa_level::avx2: return &tile_avx2<F, T>;
      default: return libm_at_sse2_v<F, T> ? &tile_libm<F, T> : &tile_own<F, T>;
    }
  }();
  return k;
}

/// Whether cursor C is a node dispatch runs in tiles: a lane-kernel op of
/// one operand whose value and result are both float or both double.
template <class C>
struct node : std::false_type {};
template <class F, class C>
  requires((SINTER_DETAIL_DISPATCH_LANES != 0 && ops::lane_kernel_row_v<F>) || auto_v<F>)
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
template <class C>
inline constexpr int count_v<shift_cursor<C>> = count_v<C>;

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
  SINTER_DETAIL_DISPATCH_IVDEP
  for (index_t k = 0; k < whole; ++k) buf[k] = static_cast<V>(c.load(from + k));
  SINTER_DETAIL_DISPATCH_IVDEP
  for (index_t k = whole; k < n; ++k) buf[k] = static_cast<V>(c.load(from + k));
}

/// Bytes of one tile buffer.
inline constexpr std::size_t buffer_bytes = tile * sizeof(double);

/// Whether C is a shift_cursor (core/shared_nodes.hpp).
template <class C>
inline constexpr bool is_shift_v = false;
template <class C>
inline constexpr bool is_shift_v<shift_cursor<C>> = true;

template <int K, class F, class... C, std::size_t... I>
SINTER_FORCEINLINE auto rewrite_map(const map_cursor<F, C...>& c, index_t t, index_t n, unsigned char* bufs, std::index_sequence<I...>);

/// c for the tile [t, t + n) with its dispatched nodes computed: each
/// node's operand, itself rewritten, filled into buffer K + (nodes below),
/// the kernel run over it, and the node replaced by a cursor on it.
template <int K, class C>
SINTER_FORCEINLINE auto rewrite(const C& c, index_t t, index_t n, unsigned char* bufs) {
  if constexpr (count_v<C> == 0) {
    return c;
  } else if constexpr (is_shift_v<C>) {  // a shared subexpression's tile (policy/host/tie.hpp)
    const auto in = rewrite<K>(c.c, t + c.off, n, bufs);
    return shift_cursor<std::remove_const_t<decltype(in)>>{in, c.off};
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

/// Whether cursor C calls a function that level sse2 takes from the C
/// library (libm_at_sse2_v).
template <class C>
inline constexpr bool libm_v = false;
template <class F, class... C>
inline constexpr bool libm_v<map_cursor<F, C...>> = [] {
  if constexpr (node<map_cursor<F, C...>>::value) {
    if constexpr (libm_at_sse2_v<F, decltype(std::declval<const map_cursor<F, C...>&>().load(0))>) return true;
  }
  return (false || ... || libm_v<C>);
}();
template <class C>
inline constexpr bool libm_v<shift_cursor<C>> = libm_v<C>;

/// Whether a pass of cursor C runs in tiles: above level sse2, or at sse2
/// when C calls a C library function there; else the build's fused loop.
template <class C>
bool active() noexcept {
  if constexpr (libm_v<C>) return true;
  else return host_isa() != isa_level::sse2;
}

/// o[i] = c.load(i) for i in [lo, hi), tile by tile (active<C>() must hold).
template <class T, class C>
SINTER_NOINLINE void store_range(T* o, const C& cursor, index_t lo, index_t hi) {
  const C c = cursor;
  alignas(64) unsigned char bufs[static_cast<std::size_t>(count_v<C>) * buffer_bytes];
  for (index_t t = lo; t < hi; t += tile) {
    const index_t n = hi - t < tile ? hi - t : tile;
    fill(o + t, rewrite<0>(c, t, n, bufs), t, n);
  }
}

/// Whether a pass over node tree N calls a dispatched kernel (its
/// contiguous cursor has a dispatched node): the trace says so.
template <class N>
inline constexpr bool tree_v = [] {
  if constexpr (requires(const N& n) { n.linear(); }) return count_v<decltype(std::declval<const N&>().linear())> > 0;
  else return false;
}();

/// Whether a pass over node tree N calls a function that level sse2
/// takes from the C library.
template <class N>
inline constexpr bool libm_tree_v = [] {
  if constexpr (tree_v<N>) return libm_v<decltype(std::declval<const N&>().linear())>;
  else return false;
}();

/// The trace's note of a pass over a tree with dispatched nodes: ", maths
/// avx512 (dispatched)", or at sse2 ", maths sse2" and " (C library)" if
/// `libm` (libm_tree_v).
SINTER_NOINLINE void append_note(std::string& s, bool libm) {
  s += ", maths ";
  s += isa_name(host_isa());
  if (host_isa() != isa_level::sse2) s += " (dispatched)";
  else if (libm) s += " (C library)";
}
#else
template <class N>
inline constexpr bool tree_v = false;
template <class N>
inline constexpr bool libm_tree_v = false;
inline void append_note(std::string&, bool) {}
template <class T, class C>
inline constexpr bool applies_v = false;
template <class C>
bool active() noexcept {
  return false;
}
template <class T, class C>
void store_range(T*, const C&, index_t, index_t) {}
#endif

}  // namespace sinter::detail::dispatch

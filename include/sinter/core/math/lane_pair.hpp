#pragma once
/// \file lane_pair.hpp
/// What every pair lane shares: a lane type made of two vectors of another
/// lane (`one`), whose every operation runs on both vectors in turn, so
/// that the instruction stream holds two independent dependency chains
/// side by side. hw_exp.hpp's lane_avx512_f2_ops (float exp and tanh) and
/// kernels_f64.hpp's lane_avx512_d2 (the double kernels) are such lanes,
/// for the explicit vector loop of policy/host/simd.hpp.

/// Inside a lane struct that has `using one = <the vector lane>;`: the pair
/// types V (of `one`'s vector `vec_t`) and U (of its bits `bits_t`), with
/// their arithmetic and bitwise operators (hidden friends), each with a
/// pair or with a scalar on either side; and c (a constant of type
/// `scalar`), bits and from. The mask type and the functions that take
/// masks are each lane's own.
#define SINTER_DETAIL_LANE_PAIR(scalar, vec_t, bits_t)                                           \
  struct V {                                                                                     \
    vec_t a, b;                                                                                  \
    SINTER_DETAIL_LANE_PAIR_OP(V, +)                                                             \
    SINTER_DETAIL_LANE_PAIR_OP(V, -)                                                             \
    SINTER_DETAIL_LANE_PAIR_OP(V, *)                                                             \
    SINTER_DETAIL_LANE_PAIR_OP(V, /)                                                             \
    friend SINTER_DETAIL_LANE_OP V operator-(V x) { return {-x.a, -x.b}; }                       \
    friend SINTER_DETAIL_LANE_OP V& operator+=(V& x, V y) { return x = x + y; }                  \
    friend SINTER_DETAIL_LANE_OP V& operator-=(V& x, V y) { return x = x - y; }                  \
    friend SINTER_DETAIL_LANE_OP V& operator*=(V& x, V y) { return x = x * y; }                  \
  };                                                                                             \
  struct U {                                                                                     \
    bits_t a, b;                                                                                 \
    SINTER_DETAIL_LANE_PAIR_OP(U, +)                                                             \
    SINTER_DETAIL_LANE_PAIR_OP(U, &)                                                             \
    SINTER_DETAIL_LANE_PAIR_OP(U, |)                                                             \
    friend SINTER_DETAIL_LANE_OP U operator~(U x) { return {~x.a, ~x.b}; }                       \
    friend SINTER_DETAIL_LANE_OP U operator<<(U x, int k) { return {x.a << k, x.b << k}; }       \
    friend SINTER_DETAIL_LANE_OP U operator>>(U x, int k) { return {x.a >> k, x.b >> k}; }       \
  };                                                                                             \
  static SINTER_DETAIL_LANE_OP V c(scalar x) { return {one::c(x), one::c(x)}; }                  \
  static SINTER_DETAIL_LANE_OP U bits(V x) { return {one::bits(x.a), one::bits(x.b)}; }          \
  static SINTER_DETAIL_LANE_OP V from(U u) { return {one::from(u.a), one::from(u.b)}; }

/// `op` on two pairs, and on a pair and a scalar (either side).
#define SINTER_DETAIL_LANE_PAIR_OP(T, op)                                                   \
  friend SINTER_DETAIL_LANE_OP T operator op(T x, T y) { return {x.a op y.a, x.b op y.b}; } \
  template <class S>                                                                        \
  friend SINTER_DETAIL_LANE_OP T operator op(T x, S s) {                                    \
    return {x.a op s, x.b op s};                                                            \
  }                                                                                         \
  template <class S>                                                                        \
  friend SINTER_DETAIL_LANE_OP T operator op(S s, T y) {                                    \
    return {s op y.a, s op y.b};                                                            \
  }

#pragma once
/// \file sort_rows.hpp
/// The host side of sort.hpp: rows along an axis (their offsets, the loop
/// over them, par's split of rows across the pool), sorting and argsorting
/// a strided layout's rows with the radix sort (sort/radix.hpp), kth
/// checks, and the one evaluation of an operand into the result or a buffer.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "core/error.hpp"
#include "expression.hpp"
#include "factories.hpp"
#include "functions.hpp"
#include "policy/cuda.hpp"
#include "policy/par.hpp"
#include "rearrange.hpp"
#include "sort/radix.hpp"
#include "take.hpp"
#include "view.hpp"
#include "view_ops.hpp"

namespace sinter::detail {

/// Offset of row r (row-major over every axis but a) under `strides`.
template <std::size_t R>
index_t row_offset(index_t r, const extents<R>& shape, const extents<R>& strides, std::size_t a) {
  index_t off = 0;
  for (std::size_t d = R; d-- > 0;) {
    if (d == a) continue;
    const index_t q = r / shape[d];
    off += (r - q * shape[d]) * strides[d];
    r = q;
  }
  return off;
}

/// f(r, scratch, inner_parallel) for every row r: on par, rows across the
/// pool when there are several and enough elements, else one row at a time
/// (each row then sorted by the parallel radix sort).
template <class F>
void for_rows(index_t rows, index_t len, bool parallel, F f) {
  if (rows == 0 || len == 0) return;
  if (!(parallel && rows > 1 && rows * len >= radix_par_min)) {
    sort_scratch s;
    for (index_t r = 0; r < rows; ++r) f(r, s, parallel);
    return;
  }
  const index_t chunks = std::min<index_t>(rows, 4 * get_num_threads());
  const index_t per = (rows + chunks - 1) / chunks;
  default_pool().parallel_for(chunks, [&](std::int64_t k) {
    sort_scratch s;
    for (index_t r = k * per; r < std::min(rows, (k + 1) * per); ++r) f(r, s, false);
  });
}

template <std::size_t R>
index_t rows_of(const extents<R>& shape, std::size_t a) {
  return shape[a] == 0 ? 0 : shape_size(shape) / shape[a];
}

/// Sorts every row along axis a of the layout (p, shape, strides) in place.
template <class T, std::size_t R>
void sort_layout(T* p, const extents<R>& shape, const extents<R>& strides, std::size_t a, bool parallel) {
  const index_t len = shape[a], s = strides[a];
  for_rows(rows_of(shape, a), len, parallel, [&](index_t r, sort_scratch& sc, bool ip) {
    T* row = p + row_offset(r, shape, strides, a);
    T* buf = sc.get<T>(len);
    if (s == 1) return sort_values(row, len, buf, ip);
    for (index_t i = 0; i < len; ++i) buf[i] = row[i * s];
    sort_values(buf, len, buf + len, ip);
    for (index_t i = 0; i < len; ++i) row[i * s] = buf[i];
  });
}

/// The keys of row (p, stride s, len) into k.
template <class T>
void row_keys(const T* row, index_t s, index_t len, typename sort_key<T>::U* k) {
  for (index_t i = 0; i < len; ++i) k[i] = sort_key<T>::of(row[i * s]);
}

/// argsort of every row of (p, shape, strides) along a into out (row-major, shape).
template <class T, std::size_t R>
void argsort_layout(const T* p, const extents<R>& shape, const extents<R>& strides, std::size_t a,
                    std::int64_t* out, bool parallel) {
  using U = typename sort_key<T>::U;
  const auto os = row_major_strides(shape);
  const index_t len = shape[a];
  for_rows(rows_of(shape, a), len, parallel, [&](index_t r, sort_scratch& sc, bool ip) {
    std::int64_t* orow = out + row_offset(r, shape, os, a);
    U* k = sc.get<U>(len);
    row_keys(p + row_offset(r, shape, strides, a), strides[a], len, k);
    std::int64_t* ids = sc.ids(2 * len);
    std::int64_t* idx = os[a] == 1 ? orow : ids + len;
    argsort_keys(k, len, idx, k + len, ids, ip);
    if (os[a] != 1)
      for (index_t i = 0; i < len; ++i) orow[i * os[a]] = idx[i];
  });
}

/// kth of an axis of length len (negative counts from the end), or value_error.
inline index_t checked_kth(index_t kth, index_t len, const char* who) {
  const index_t k = kth < 0 ? kth + len : kth;
  if (k < 0 || k >= len)
    throw value_error(std::string(who) + ": kth " + std::to_string(kth) + " is out of bounds for an axis of length " +
                      std::to_string(len) + "; use -len .. len - 1");
  return k;
}

/// x evaluated once into a new array of policy value pol. An array or view
/// on host or par is copied row by row here, not by a pass: the sort
/// functions then compile no pass of their own for them.
template <class T, std::size_t R, class P, class X>
array<T, R, P> copy_of(X&& x, const P& pol) {
  using D = std::remove_cvref_t<X>;
  if constexpr (std::is_same_v<D, array<T, R, P>> && !std::is_lvalue_reference_v<X>) {
    return D(std::move(x));
  } else if constexpr (!std::is_same_v<P, cuda> && (is_array<D>::value || is_view<D>::value)) {
    const T* src = x.data();
    const extents<R> shape = x.shape(), st = x.strides();
    array<T, R, P> out(shape, pol);
    const index_t len = shape[R - 1], s = st[R - 1];
    const index_t rows = rows_of(shape, R - 1);
    for (index_t r = 0; r < rows; ++r) {
      const T* in = src + row_offset(r, shape, st, R - 1);
      T* o = out.data() + r * len;
      if (s == 1) std::copy(in, in + len, o);
      else
        for (index_t i = 0; i < len; ++i) o[i] = in[i * s];
    }
    return out;
  } else if constexpr (std::is_same_v<D, array<T, R, P>>) {
    return D(x);  // a cuda array: one device copy
  } else {
    return array<T, R, P>(std::forward<X>(x), pol);
  }
}

/// False for a cuda operand in a file not compiled as CUDA (refused at compile time).
template <class X>
inline constexpr bool sort_host_ok_v = !std::is_same_v<result_policy_t<X>, cuda> || compiled_as_cuda_v<X>;

/// f(p, shape, strides) on the memory layout of x: x's own when it is an
/// array or view, else the buffer it is evaluated into once (stored_source),
/// alive while f runs. Parameters, which lambdas capture (clang does not
/// capture structured bindings).
template <class X, class F>
auto on_stored_layout(X&& x, F&& f) {
  auto s = stored_source(std::forward<X>(x));
  return std::forward<F>(f)(s.node().ptr, s.node().shape, s.node().strides);
}

}  // namespace sinter::detail

#pragma once
/// \file scatter.hpp
/// Integer-array writes, as NumPy's: `put` (numpy.put, mode "raise") and
/// `scatter_add` (numpy.add.at, along an axis as `take` reads). Every index
/// is checked before anything is written (index_error naming the index,
/// its position and the extent: x unchanged); indices and values are read
/// as they were before the call (copied first when they overlap x).
///
/// Order. host: the updates in row-major order of take's result shape, so
/// put's last write wins and scatter_add sums each destination in that
/// order; par the same, on the calling thread (slices of x per thread, each
/// walking every update, ran slower than one thread). cuda: one thread per
/// update (atomicAdd, or a compare-and-swap loop for the types without
/// one); the order, and so float sums' rounding and which of put's duplicate
/// writes wins, is unspecified.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "policy/cuda.hpp"
#include "policy/par.hpp"
#include "scatter_body.hpp"
#include "take.hpp"

namespace sinter {
namespace detail {

#if SINTER_HAS_CUDA()
/// The grid-stride kernel of put (Add false) and scatter_add (Add true).
template <bool Add, class A>
__global__ void scatter_kernel(A a, index_t n) {
  const index_t tid = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  scatter_thread<Add>(a, n, tid, static_cast<index_t>(gridDim.x) * blockDim.x);
}
#endif

/// Runs the n updates of `a` on policy P (xsize: x's element count).
template <bool Add, class P, class T, class I, class V, std::size_t RV>
void run_scatter(const P& pol, const scatter_args<T, I, V, RV>& a, index_t n, index_t xsize) {
  if (n == 0) return;
  if constexpr (backend<P>::host_accessible) {
    (void)pol;
    (void)xsize;
    scatter_range<Add>(a, 0, n);
  } else {
    static_assert(compiled_as_cuda_v<T>,
                  "sinter::cuda: compile this file as CUDA (nvcc, or LANGUAGE CUDA in CMake) to use cuda arrays");
#if SINTER_HAS_CUDA()
    using namespace cuda_detail;
    const device_props& p = props(pol.device);
    check(cudaSetDevice(pol.device), "cudaSetDevice");
    index_t blocks = (n + block_size - 1) / block_size;
    blocks = std::min(blocks, static_cast<index_t>(p.multiprocessors) * blocks_per_sm);
    scatter_kernel<Add><<<static_cast<unsigned>(blocks), block_size, 0, pol.stream>>>(a, n);
    check(cudaGetLastError(), "scatter kernel launch");
#endif
    (void)xsize;
  }
}

/// Whether two layouts share a byte.
template <class T, std::size_t R, class U, std::size_t RU>
bool layouts_overlap(const T* p, const extents<R>& s, const extents<R>& st, const U* q, const extents<RU>& sq,
                     const extents<RU>& stq) {
  std::uintptr_t ph = 0, qh = 0;
  const std::uintptr_t pl = layout_bytes(p, s, st, ph), ql = layout_bytes(q, sq, stq, qh);
  return pl < qh && ql < ph;
}

/// m copied into a fresh row-major array of policy P.
template <class P, class T, std::size_t R>
join_mem<T, R> fresh_copy(const P& pol, const join_mem<T, R>& m) {
  auto a = std::make_shared<array<std::remove_const_t<T>, R, P>>(m.shape, pol);
  run_pass(pol, a->leaf(), memory_leaf<const T, R>{m.ptr, m.shape, m.strides});
  const T* p = a->data();
  return join_mem<T, R>{p, m.shape, a->strides(), std::shared_ptr<const void>(std::move(a))};
}

/// The target of a put or scatter_add: a writable array or view.
template <class X>
auto scatter_target(X& x) {
  static_assert(requires { x.leaf(); x.policy(); }, "sinter: put/scatter_add: x must be an array or a view");
  using L = decltype(x.leaf());
  static_assert(!std::is_const_v<std::remove_pointer_t<decltype(L::ptr)>>,
                "sinter: put/scatter_add: x is read-only (a view of const elements or a const array)");
  return x.leaf();
}

/// The values as memory of policy P: a scalar in a one-element array, an
/// expression evaluated, memory overlapping [x's bytes] or (for put,
/// `flat`) not row-major copied.
template <class P, class T, std::size_t RX, class Vs>
auto scatter_values(const P& pol, const memory_leaf<T, RX>& x, Vs&& values, bool flat) {
  if constexpr (element<std::remove_cvref_t<Vs>>) {
    auto one = std::make_shared<array<T, 1, P>>(extents<1>{1}, pol);
    *one = convert<T>(values);
    const T* p = one->data();
    return join_mem<T, 1>{p, {1}, {0}, std::shared_ptr<const void>(std::move(one))};
  } else {
    auto m = join_operand<P>(std::forward<Vs>(values));
    if (layouts_overlap(m.ptr, m.shape, m.strides, x.ptr, x.shape, x.strides) ||
        (flat && !is_row_major(m.shape, m.strides)))
      m = fresh_copy(pol, m);
    return m;
  }
}

/// The checked indices, copied when they overlap x.
template <class P, class T, std::size_t RX, class Ix>
auto scatter_indices(const char* who, const P& pol, const memory_leaf<T, RX>& x, Ix&& idx, index_t extent,
                     std::size_t axis, bool flat) {
  using I = typename expr_of_t<Ix>::value_type;
  static_assert(std::is_integral_v<I> && !std::is_same_v<I, bool>, "sinter: put/scatter_add: indices must be integers");
  auto m = checked_indices<P>(who, std::forward<Ix>(idx), extent, axis, flat);
  if (layouts_overlap(m.ptr, m.shape, m.strides, x.ptr, x.shape, x.strides)) m = fresh_copy(pol, m);
  return m;
}

/// x as one axis (the flat forms): itself at rank 1, a row-major x as a
/// line of stride 1; false for any other x (the caller goes through a copy).
template <class T, std::size_t R>
bool flat_line(const memory_leaf<T, R>& x, memory_leaf<T, 1>& line) {
  if constexpr (R == 1) {
    line = x;
  } else {
    if (!is_row_major(x.shape, x.strides)) return false;
    line = {x.ptr, {shape_size(x.shape)}, {1}};
  }
  return true;
}

/// f(line) on x as one axis: in place, or on a row-major copy written back.
template <class P, class T, std::size_t R, class F>
void on_flat(const P& pol, const memory_leaf<T, R>& x, F&& f) {
  memory_leaf<T, 1> line{};
  if (flat_line(x, line)) return f(line);
  if constexpr (R != 1) {  // rank 1 is always a line: no copy passes compiled for it
    array<T, R, P> tmp(x.shape, pol);
    run_pass(pol, tmp.leaf(), memory_leaf<const T, R>{x.ptr, x.shape, x.strides});
    f(memory_leaf<T, 1>{tmp.data(), {shape_size(x.shape)}, {1}});
    run_pass(pol, x, memory_leaf<const T, R>{tmp.data(), tmp.shape(), tmp.strides()});
  }
}

/// put's updates into a line of x with checked indices im and row-major values vm.
template <class P, class T, class I, std::size_t RI, class V, std::size_t RVv>
void put_line(const P& pol, const memory_leaf<T, 1>& line, const join_mem<I, RI>& im, const join_mem<V, RVv>& vm) {
  scatter_args<T, I, V, RI> a{};
  a.shape = im.shape;
  a.istrides = im.strides;
  a.x = line.ptr;
  a.idx = im.ptr;
  a.val = vm.ptr;
  a.axis_stride = line.strides[0];
  a.axis_flat = 1;
  a.extent = line.shape[0];
  a.cycle = shape_size(vm.shape);
  run_scatter<false>(pol, a, shape_size(im.shape), line.shape[0]);
}

/// scatter_add along axis `ax` of x with checked indices im and values vm
/// (broadcast to take's result shape; shape_error otherwise).
template <class P, class T, std::size_t R, class I, std::size_t RI, class V, std::size_t RVv>
void scatter_add_axis(const P& pol, const memory_leaf<T, R>& x, std::size_t ax, const join_mem<I, RI>& im,
                      const join_mem<V, RVv>& vm) {
  constexpr std::size_t RV = R - 1 + RI;
  scatter_args<T, I, V, RV> a{};
  extents<RV> shape{};
  const extents<R> xflat = row_major_strides(x.shape);
  for (std::size_t d = 0; d != ax; ++d) shape[d] = x.shape[d], a.xstrides[d] = x.strides[d], a.xflat[d] = xflat[d];
  for (std::size_t j = 0; j != RI; ++j) shape[ax + j] = im.shape[j], a.istrides[ax + j] = im.strides[j];
  for (std::size_t d = ax + 1; d < R; ++d) {
    shape[d + RI - 1] = x.shape[d];
    a.xstrides[d + RI - 1] = x.strides[d];
    a.xflat[d + RI - 1] = xflat[d];
  }
  if (RVv > RV || !broadcasts_to(vm.shape, shape))
    throw shape_error("sinter::scatter_add: values of shape " + shape_string(vm.shape) +
                      " do not broadcast to the updates' shape " + shape_string(shape) +
                      " (x's shape with the axis replaced by the indices' shape); give values of that shape");
  if constexpr (RVv <= RV) a.vstrides = broadcast_strides(vm.shape, vm.strides, shape);
  a.shape = shape;
  a.x = x.ptr;
  a.idx = im.ptr;
  a.val = vm.ptr;
  a.axis_stride = x.strides[ax];
  a.axis_flat = xflat[ax];
  a.extent = x.shape[ax];
  a.cycle = 0;
  run_scatter<true>(pol, a, shape_size(shape), shape_size(x.shape));
}

template <class X>
using target_policy_t = std::remove_cvref_t<decltype(std::declval<X&>().policy())>;

}  // namespace detail

/// numpy.put(x, idx, values): x.flat[idx[k]] = values.flat[k % values.size()]
/// for each k in idx's row-major order (values cycle when shorter, the rest
/// unused when longer; none: nothing written). x is an array or a writable
/// view (flat positions in row-major order); idx an integer array, view or
/// expression; values an array, view, expression or scalar, converted to
/// x's type. Duplicate indices: the last write wins (cuda: unspecified).
template <class X, class Ix, class Vs>
  requires(expression<Ix> && operand<Vs>)
void put(X&& x, Ix&& idx, Vs&& values) {
  using P = detail::target_policy_t<X>;
  const auto xl = detail::scatter_target(x);
  const P pol = x.policy();
  const index_t xsize = detail::shape_size(xl.shape);
  const auto im = detail::scatter_indices("sinter::put", pol, xl, std::forward<Ix>(idx), xsize, 0, true);
  const auto vm = detail::scatter_values(pol, xl, std::forward<Vs>(values), true);
  const index_t ni = detail::shape_size(im.shape), nv = detail::shape_size(vm.shape);
  using T = std::remove_pointer_t<decltype(xl.ptr)>;
  if (ni == 0 || nv == 0) return;
  detail::on_flat(pol, xl, [&](const detail::memory_leaf<T, 1>& line) { detail::put_line(pol, line, im, vm); });
}

/// numpy.add.at along an axis: x[..., idx[j], ...] += values[..., j, ...],
/// where j runs over idx's positions (of any rank) at `axis` and the other
/// axes are x's before and after it: values broadcast to take(x, idx,
/// axis)'s shape, converted to x's type, each added in x's type (half and
/// bfloat16 through float; integers wrap; bool: or). Duplicate indices
/// accumulate. `sinter::scatter_add(hist, bins, 1.f, 0);`
template <class X, class Ix, class Vs>
  requires(expression<Ix> && operand<Vs>)
void scatter_add(X&& x, Ix&& idx, Vs&& values, index_t axis) {
  using P = detail::target_policy_t<X>;
  const auto xl = detail::scatter_target(x);
  constexpr std::size_t R = decltype(xl)::rank;
  static_assert(R >= 1, "sinter::scatter_add: x must have at least one axis");
  const P pol = x.policy();
  const std::size_t ax = detail::join_axis("sinter::scatter_add", axis, R);
  const auto im = detail::scatter_indices("sinter::scatter_add", pol, xl, std::forward<Ix>(idx), xl.shape[ax], ax,
                                          false);
  const auto vm = detail::scatter_values(pol, xl, std::forward<Vs>(values), false);
  detail::scatter_add_axis(pol, xl, ax, im, vm);
}

/// numpy.add.at(x.reshape(-1), idx, values): x.flat[idx[j]] += values[j],
/// values broadcast to idx's shape; as the axis form otherwise.
template <class X, class Ix, class Vs>
  requires(expression<Ix> && operand<Vs>)
void scatter_add(X&& x, Ix&& idx, Vs&& values) {
  using P = detail::target_policy_t<X>;
  const auto xl = detail::scatter_target(x);
  using T = std::remove_pointer_t<decltype(xl.ptr)>;
  const P pol = x.policy();
  const auto im = detail::scatter_indices("sinter::scatter_add", pol, xl, std::forward<Ix>(idx),
                                          detail::shape_size(xl.shape), 0, decltype(xl)::rank != 1);
  const auto vm = detail::scatter_values(pol, xl, std::forward<Vs>(values), false);
  detail::on_flat(pol, xl, [&](const detail::memory_leaf<T, 1>& line) { detail::scatter_add_axis(pol, line, 0, im, vm); });
}

}  // namespace sinter

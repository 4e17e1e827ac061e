#pragma once
/// \file linalg.hpp
/// Matrix products on a BLAS: matmul (NumPy's semantics: 1-D, 2-D and
/// batched operands with broadcast batch axes), dot for 2-D operands,
/// tensordot, vdot, outer, and the fused forms matmul_into (GEMM's alpha and
/// beta) and matmul_epilogue (an elementwise epilogue run on each block of
/// rows right after its GEMM). Not included by sinter.hpp: include
/// <sinter/linalg.hpp> and link the CMake target sinter::blas. host and par
/// (par: the BLAS's threads, sinter::set_num_threads); float and double.
/// cuda (files compiled by nvcc): cuBLAS, linalg_cuda.hpp; link sinter::cublas.
#include <array>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "evaluate.hpp"
#include "expression.hpp"
#include "functions.hpp"
#include "linalg/blas.hpp"
#include "linalg_fused.hpp"
#include "linalg/plan.hpp"
#include "policy/par.hpp"
#include "reduce.hpp"
#include "slice.hpp"
#include "trace.hpp"
#include "view.hpp"
#if SINTER_HAS_CUDA()
#include "linalg_cuda_fused.hpp"  // includes linalg_cuda.hpp
#endif

namespace sinter {
namespace detail {

/// The element type of a product of A and B: float, double, half or bfloat16.
template <class A, class B>
using linalg_value_t = promote_t<value_of_t<A>, value_of_t<B>>;
template <class T>
inline constexpr bool linalg_type_v = std::is_same_v<T, float> || std::is_same_v<T, double> || is_half_like_v<T>;

/// The policy a product runs on: the first operand's, else the second's.
template <class A, class B>
using linalg_policy_t = concrete_policy_t<std::conditional_t<
    std::is_same_v<typename expr_of_t<A>::policy_type, any_policy>, typename expr_of_t<B>::policy_type,
    typename expr_of_t<A>::policy_type>>;

/// An operand as strided memory of T: read in place when it is an array or
/// a view of T, else evaluated once (fused, on policy P) into a pooled array.
template <class T, std::size_t R>
struct operand_memory {
  const T* p;
  extents<R> shape, strides;
  std::shared_ptr<const void> keep;
};
template <class T, class P, class X>
auto memory_of(X&& x) {
  using E = std::remove_cvref_t<expr_of_t<X>>;
  using N = typename E::node_type;
  constexpr std::size_t R = E::rank;
  if constexpr (requires(const N& n) { n.ptr; } && std::is_same_v<typename N::value_type, T>) {
    auto held = std::make_shared<E>(as_expr(std::forward<X>(x)));  // keeps an rvalue array alive
    const N& n = held->node();
    return operand_memory<T, R>{n.ptr, n.shape, n.strides, std::move(held)};
  } else {
    auto held = std::make_shared<array<T, R, P>>(cast<T>(std::forward<X>(x)));
    return operand_memory<T, R>{held->data(), held->shape(), held->strides(), std::move(held)};
  }
}

template <class T, std::size_t R>
linalg_operand<T> dynamic_operand(const operand_memory<T, R>& m) {
  return {m.p, R, m.shape.data(), m.strides.data()};
}

/// The rank of matmul's result (NumPy: a 1-D operand's axis is removed).
template <std::size_t RA, std::size_t RB>
inline constexpr std::size_t matmul_rank_v =
    RA == 1 && RB == 1 ? 0 : RA == 1 ? RB - 1 : RB == 1 ? RA - 1 : (RA > RB ? RA : RB);

template <class A, class B>
void check_linalg_operands() {
  using T = linalg_value_t<A, B>;
  static_assert(linalg_type_v<T>,
                "sinter::matmul: operands must be float, double, half or bfloat16 (integers and bool are "
                "not supported); cast them, e.g. sinter::cast<float>(x)");
  using P = linalg_policy_t<A, B>;
  static_assert(std::is_same_v<P, host> || std::is_same_v<P, par> || std::is_same_v<P, cuda>,
                "sinter::matmul: host, par and cuda only");
}

/// The policy a product's result is made on: a cuda operand's (device, stream).
template <class P, class T>
P linalg_policy_of([[maybe_unused]] const T* p) {
#if SINTER_HAS_CUDA()
  if constexpr (std::is_same_v<P, cuda>) return cublas_policy_of(p);
  else
#endif
    return P{};
}

/// The one element of a rank-0 result, read on the host.
template <class P, class T>
T linalg_scalar(const T* p) {
#if SINTER_HAS_CUDA()
  if constexpr (std::is_same_v<P, cuda>) return cublas_scalar(p);
  else
#endif
    return *p;
}

/// Runs one product into `out` (its memory, any strides) with trace.
template <class T, class P, std::size_t RA, std::size_t RB>
void matmul_run(const operand_memory<T, RA>& a, const operand_memory<T, RB>& b, const linalg_output<T>& out,
                T alpha, T beta, const char* name) {
  const bool traced = trace_active();
  const auto t0 = traced ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  index_t calls = 0;
  if constexpr (std::is_same_v<P, cuda>) {
#if SINTER_HAS_CUDA()
    calls = cublas_matmul<T, matmul_rank_v<RA, RB>>(a.p, a.shape, a.strides, b.p, b.shape, b.strides, out, alpha, beta);
#endif
  } else {
    blas_set_threads(std::is_same_v<P, par> ? get_num_threads() : 1);
    calls = run_batched_gemm<T>(dynamic_operand(a), dynamic_operand(b), out, alpha, beta);
  }
  if (traced)
    emit_pass(std::is_same_v<P, cuda> ? "cuda" : std::is_same_v<P, par> ? "par" : "host",
              std::string(dtype_name<T>()) + shape_text(out.rank, out.shape) + " = " + name + "(" +
                  dtype_name<T>() + shape_string(a.shape) + ", " + dtype_name<T>() + shape_string(b.shape) + ")",
              out.size(), sizeof(T) * static_cast<std::size_t>(shape_size(a.shape) + shape_size(b.shape)),
              sizeof(T) * static_cast<std::size_t>(out.size()),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
              "gemm x" + std::to_string(calls));
}

/// Whether two byte ranges of strided memory may overlap (bounding boxes).
template <class T, class U, std::size_t R, std::size_t S>
bool linalg_overlap(const T* p, const extents<R>& sh, const extents<R>& st, const U* q, const extents<S>& sq,
                    const extents<S>& tq) {
  const auto span = [](const auto* b, const auto& shape, const auto& strides) {
    const char* lo = reinterpret_cast<const char*>(b);
    const char* hi = lo;
    for (std::size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] == 0) return std::pair<const char*, const char*>{nullptr, nullptr};
      const index_t d = (shape[i] - 1) * strides[i] * static_cast<index_t>(sizeof(*b));
      (d < 0 ? lo : hi) += d;
    }
    return std::pair<const char*, const char*>{lo, hi + sizeof(*b)};
  };
  const auto x = span(p, sh, st), y = span(q, sq, tq);
  return x.first && y.first && x.first < y.second && y.first < x.second;
}

/// A pending product of held operands (linalg_fused.hpp's product_core).
template <class T, std::size_t RO, class P, std::size_t RA, std::size_t RB>
struct product_state final : product_core<T, RO, P> {
  operand_memory<T, RA> a;
  operand_memory<T, RB> b;
  product_state(operand_memory<T, RA> ma, operand_memory<T, RB> mb, const extents<RO>& sh)
      : a(std::move(ma)), b(std::move(mb)) {
    this->shape = sh;
    this->policy = linalg_policy_of<P>(a.p);
  }
  void gemm(const linalg_output<T>& out, T alpha, T beta, const char* name) const override {
    matmul_run<T, P>(a, b, out, alpha, beta, name);
  }
  void gemm_rows(index_t r0, index_t r1, T* buf) const override {
    if constexpr (RA == 2 && RB == 2) {
      const operand_memory<T, 2> blk{a.p + r0 * a.strides[0], extents<2>{r1 - r0, a.shape[1]}, a.strides, {}};
      const extents<2> sh{r1 - r0, b.shape[1]}, st{b.shape[1], 1};
      matmul_run<T, P>(blk, b, {buf, 2, sh.data(), st.data()}, T(1), T(0), "matmul_epilogue");
    }
  }
  bool matrices() const override { return RA == 2 && RB == 2; }
  bool reads(const T* p, const extents<RO>& sh, const extents<RO>& st) const override {
    return linalg_overlap(p, sh, st, a.p, a.shape, a.strides) || linalg_overlap(p, sh, st, b.p, b.shape, b.strides);
  }
};

}  // namespace detail

/// Matrix product with NumPy's semantics (numpy.matmul, `@`): 1-D operands
/// are promoted to a row (first) or a column (second) and that axis removed
/// from the result; rank >= 3 operands are stacks of matrices whose batch
/// axes broadcast. One GEMM per matrix of the batch; a lazy operand is
/// evaluated once first. Returns a pending `product`, fused into the
/// assignment that reads it (host, par: linalg_fused.hpp; cuda: its
/// alpha/beta forms, linalg_cuda_fused.hpp); a scalar for two 1-D operands. Inner extents that differ throw
/// shape_error naming both shapes.
template <expression A, expression B>
auto matmul(A&& a, B&& b) {
  detail::check_linalg_operands<A, B>();
  using T = detail::linalg_value_t<A, B>;
  using P = detail::linalg_policy_t<A, B>;
  constexpr std::size_t RA = detail::expr_of_t<A>::rank, RB = detail::expr_of_t<B>::rank;
  static_assert(RA >= 1 && RB >= 1, "sinter::matmul: operands must have rank 1 or more (NumPy: no scalars)");
  constexpr std::size_t RO = detail::matmul_rank_v<RA, RB>;
  auto ma = detail::memory_of<T, P>(std::forward<A>(a));
  auto mb = detail::memory_of<T, P>(std::forward<B>(b));
  const auto shape = detail::matmul_shape(detail::dynamic_operand(ma), detail::dynamic_operand(mb));
  extents<RO> ext{};
  for (std::size_t i = 0; i < RO; ++i) ext[i] = shape[i];
  if constexpr (RO >= 1) {
    return product<T, RO, P>(std::make_shared<detail::product_state<T, RO, P, RA, RB>>(std::move(ma), std::move(mb), ext));
  } else {
    array<T, RO, P> out(ext, detail::linalg_policy_of<P>(ma.p));
    const extents<RO> st = out.strides();
    detail::matmul_run<T, P>(ma, mb, {out.data(), RO, ext.data(), st.data()}, T(1), T(0), "matmul");
    if constexpr (RO == 0) return detail::linalg_scalar<P>(out.data());
    else return out;
  }
}

/// c = alpha * matmul(a, b) + beta * c in one GEMM (its alpha and beta), no
/// temporary and no second pass: `c += matmul(a, b)` is
/// `matmul_into(c, a, b, 1, 1)`, `c = matmul(a, b)` into an existing c or
/// view is `matmul_into(c, a, b)`. c: an array or view of matmul's result
/// shape and type (else shape_error); an operand overlapping c is read
/// through a temporary (NumPy's result).
template <class C, expression A, expression B>
  requires expression<C>
void matmul_into(C&& c, A&& a, B&& b, detail::linalg_value_t<A, B> alpha = 1, detail::linalg_value_t<A, B> beta = 0) {
  detail::check_linalg_operands<A, B>();
  using T = detail::linalg_value_t<A, B>;
  using P = detail::linalg_policy_t<A, B>;
  static_assert(std::is_same_v<detail::value_of_t<C>, T>,
                "sinter::matmul_into: the output's element type must be the operands' promoted type");
  constexpr std::size_t RO = detail::matmul_rank_v<detail::expr_of_t<A>::rank, detail::expr_of_t<B>::rank>;
  static_assert(RO >= 1 && detail::expr_of_t<C>::rank == RO, "sinter::matmul_into: the output's rank must be matmul's");
  const auto ma = detail::memory_of<T, P>(std::forward<A>(a));
  const auto mb = detail::memory_of<T, P>(std::forward<B>(b));
  const auto shape = detail::matmul_shape(detail::dynamic_operand(ma), detail::dynamic_operand(mb));
  const auto leaf = c.leaf();
  for (std::size_t i = 0; i < RO; ++i)
    if (leaf.shape[i] != shape[i])
      throw shape_error("matmul_into: output shape " + detail::shape_string(leaf.shape) + " differs from the product's " +
                        detail::shape_text(RO, shape.data()) + "; give an output of the product's shape");
  if (detail::linalg_overlap(leaf.ptr, leaf.shape, leaf.strides, ma.p, ma.shape, ma.strides) ||
      detail::linalg_overlap(leaf.ptr, leaf.shape, leaf.strides, mb.p, mb.shape, mb.strides)) {
    array<T, RO, P> tmp(leaf.shape, detail::linalg_policy_of<P>(ma.p));
    if (beta != T(0)) tmp = c;
    const extents<RO> st = tmp.strides();
    detail::matmul_run<T, P>(ma, mb, {tmp.data(), RO, tmp.shape().data(), st.data()}, alpha, beta, "matmul");
    c = tmp;
    return;
  }
  detail::matmul_run<T, P>(ma, mb, {leaf.ptr, RO, leaf.shape.data(), leaf.strides.data()}, alpha, beta, "matmul");
}

/// out = f(matmul(x, w)) for 2-D x and w, fused: the GEMM runs on blocks of
/// x's rows into a pooled buffer and each block's epilogue `f(p)` (p: a view
/// of the block's product) is assigned to out's rows right after, while the
/// block is in cache: `matmul_epilogue(y, x, w, [&](auto p) { return relu(p + bias); })`.
/// f may take a second argument, the block's rows as a slice of out
/// (`[&](auto p, sinter::slice r) { return p + resid(r, sinter::all); }`).
/// Each block is one GEMM and one fused pass; values equal those of the
/// unfused `y = f(matmul(x, w))`.
template <class O, expression A, expression B, class F>
  requires expression<O>
void matmul_epilogue(O&& out, A&& x, B&& w, F&& f) {
  detail::check_linalg_operands<A, B>();
  using T = detail::linalg_value_t<A, B>;
  using P = detail::linalg_policy_t<A, B>;
  static_assert(detail::expr_of_t<A>::rank == 2 && detail::expr_of_t<B>::rank == 2 && detail::expr_of_t<O>::rank == 2,
                "sinter::matmul_epilogue: x, w and the output must be 2-D");
  const auto ma = detail::memory_of<T, P>(std::forward<A>(x));
  const auto mb = detail::memory_of<T, P>(std::forward<B>(w));
  const auto shape = detail::matmul_shape(detail::dynamic_operand(ma), detail::dynamic_operand(mb));
  const auto leaf = out.leaf();
  if (leaf.shape[0] != shape[0] || leaf.shape[1] != shape[1])
    throw shape_error("matmul_epilogue: output shape " + detail::shape_string(leaf.shape) + " differs from the product's " +
                      detail::shape_text(2, shape.data()) + "; give an output of the product's shape");
  if (detail::linalg_overlap(leaf.ptr, leaf.shape, leaf.strides, ma.p, ma.shape, ma.strides) ||
      detail::linalg_overlap(leaf.ptr, leaf.shape, leaf.strides, mb.p, mb.shape, mb.strides)) {
    // A later block's GEMM would read rows an earlier epilogue wrote.
    array<T, 2, P> tmp(leaf.shape);
    matmul_epilogue(tmp, view<const T, 2, P>(ma.p, ma.shape, ma.strides), view<const T, 2, P>(mb.p, mb.shape, mb.strides),
                    std::forward<F>(f));
    out = tmp;
    return;
  }
  const index_t m = shape[0], n = shape[1];
  const index_t rows = detail::epilogue_block_rows(m, n, sizeof(T));
  array<T, 2, P> buf(extents<2>{rows, n});
  for (index_t r0 = 0; r0 < m; r0 += rows) {
    const index_t r1 = r0 + rows < m ? r0 + rows : m;
    detail::operand_memory<T, 2> blk{ma.p + r0 * ma.strides[0], extents<2>{r1 - r0, ma.shape[1]}, ma.strides, {}};
    const extents<2> bsh{r1 - r0, n}, bst{n, 1};
    detail::matmul_run<T, P>(blk, mb, {buf.data(), 2, bsh.data(), bst.data()}, T(1), T(0), "matmul_epilogue");
    view<T, 2, P> p(buf.data(), bsh, bst, buf.policy());
    if constexpr (std::is_invocable_v<F&, view<T, 2, P>&, slice>)
      out(slice(r0, r1), all) = f(p, slice(r0, r1));
    else
      out(slice(r0, r1), all) = f(p);
  }
}

/// numpy.vdot for real operands: the flattened operands' dot product (any
/// ranks, equal sizes: else shape_error). No BLAS: one fused reduction
/// over contiguous copies where an operand is not contiguous.
template <expression A, expression B>
auto vdot(A&& a, B&& b) {
  using TA = detail::value_of_t<A>;
  using TB = detail::value_of_t<B>;
  using PA = detail::concrete_policy_t<typename detail::expr_of_t<A>::policy_type>;
  using PB = detail::concrete_policy_t<typename detail::expr_of_t<B>::policy_type>;
  const auto ma = detail::memory_of<TA, PA>(std::forward<A>(a));
  const auto mb = detail::memory_of<TB, PB>(std::forward<B>(b));
  const auto flat = [](const auto& m, auto pol) {
    using U = std::remove_const_t<std::remove_pointer_t<decltype(m.p)>>;
    using Pol = decltype(pol);
    constexpr std::size_t R = std::tuple_size_v<std::remove_cvref_t<decltype(m.shape)>>;
    if (detail::is_row_major(m.shape, m.strides))
      return std::pair(view<const U, 1, Pol>(m.p, extents<1>{detail::shape_size(m.shape)}),
                       std::shared_ptr<const void>());
    auto held = std::make_shared<array<U, R, Pol>>(view<const U, R, Pol>(m.p, m.shape, m.strides));
    return std::pair(view<const U, 1, Pol>(held->data(), extents<1>{held->size()}),
                     std::shared_ptr<const void>(held));
  };
  const auto fa = flat(ma, PA{});
  const auto fb = flat(mb, PB{});
  return dot(fa.first, fb.first);
}

/// numpy.outer of two 1-D operands, lazy: the broadcast product
/// a(all, newaxis) * b (no BLAS; a computed first operand is evaluated once).
template <expression A, expression B>
auto outer(A&& a, B&& b) {
  static_assert(detail::expr_of_t<A>::rank == 1 && detail::expr_of_t<B>::rank == 1,
                "sinter::outer: operands must be 1-D (NumPy flattens; use sinter::ravel first)");
  using E = std::remove_cvref_t<detail::expr_of_t<A>>;
  if constexpr (requires(const typename E::node_type& n) { n.strides; }) {
    return detail::as_expr(std::forward<A>(a))(all, newaxis) * std::forward<B>(b);
  } else {
    using T = detail::value_of_t<A>;
    using P = detail::concrete_policy_t<typename E::policy_type>;
    return detail::as_expr(array<T, 1, P>(std::forward<A>(a)))(all, newaxis) * std::forward<B>(b);
  }
}

/// numpy.tensordot: the sum over a's axes `axes_a` and b's `axes_b` (same
/// extents, else shape_error); the result has a's other axes then b's. Each
/// operand is copied once with its contracted axes last (a) or first (b),
/// then one GEMM.
template <expression A, expression B, std::size_t N>
auto tensordot(A&& a, B&& b, const std::array<int, N>& axes_a, const std::array<int, N>& axes_b) {
  detail::check_linalg_operands<A, B>();
  using T = detail::linalg_value_t<A, B>;
  using P = detail::linalg_policy_t<A, B>;
  constexpr std::size_t RA = detail::expr_of_t<A>::rank, RB = detail::expr_of_t<B>::rank;
  static_assert(N <= RA && N <= RB, "sinter::tensordot: more axes than an operand has");
  constexpr std::size_t RO = RA + RB - 2 * N;
  const auto ma = detail::memory_of<T, P>(std::forward<A>(a));
  const auto mb = detail::memory_of<T, P>(std::forward<B>(b));
  const auto perm_a = detail::tensordot_order(RA, ma.shape.data(), axes_a.data(), N, true, "first");
  const auto perm_b = detail::tensordot_order(RB, mb.shape.data(), axes_b.data(), N, false, "second");
  index_t k = 1;
  for (std::size_t i = 0; i < N; ++i) {
    const index_t ea = ma.shape[perm_a[RA - N + i]], eb = mb.shape[perm_b[i]];
    if (ea != eb)
      throw shape_error("tensordot: shapes " + detail::shape_string(ma.shape) + " and " + detail::shape_string(mb.shape) +
                        " not aligned: contracted extents " + std::to_string(ea) + " != " + std::to_string(eb) +
                        "; the summed axes must have equal extents");
    k *= ea;
  }
  extents<RO> ext{};
  index_t m = 1, n = 1;
  for (std::size_t i = 0; i < RA - N; ++i) m *= (ext[i] = ma.shape[perm_a[i]]);
  for (std::size_t i = N; i < RB; ++i) n *= (ext[RA - N + i - N] = mb.shape[perm_b[i]]);
  array<T, RO, P> out(ext, detail::linalg_policy_of<P>(ma.p));
  if constexpr (std::is_same_v<P, cuda>) {
#if SINTER_HAS_CUDA()
    detail::cublas_tensordot<T>(ma, mb, perm_a, perm_b, m, n, k, out.data());
#endif
  } else {
    const auto ca = detail::permuted_copy(ma.p, RA, ma.shape.data(), ma.strides.data(), perm_a);
    const auto cb = detail::permuted_copy(mb.p, RB, mb.shape.data(), mb.strides.data(), perm_b);
    detail::blas_set_threads(std::is_same_v<P, par> ? get_num_threads() : 1);
    detail::gemm_strided<T>({ca.get(), m, k, k, 1}, {cb.get(), k, n, n, 1}, {out.data(), m, n, n, 1}, T(1), T(0));
  }
  if constexpr (RO == 0) return detail::linalg_scalar<P>(out.data());
  else return out;
}
/// numpy.tensordot with an integer: a's last n axes against b's first n.
template <std::size_t Count, expression A, expression B>
auto tensordot(A&& a, B&& b) {
  constexpr std::size_t RA = detail::expr_of_t<A>::rank;
  std::array<int, Count> xa{}, xb{};
  for (std::size_t i = 0; i < Count; ++i) xa[i] = int(RA - Count + i), xb[i] = int(i);
  return tensordot(std::forward<A>(a), std::forward<B>(b), xa, xb);
}

/// numpy.dot for operands of rank 2 or more: matmul for 2-D (and 1-D with
/// 2-D); for higher ranks the sum over a's last axis and b's
/// second-to-last (numpy.dot, not numpy.matmul: no broadcast), as tensordot.
/// Two 1-D operands take reduce.hpp's dot.
template <expression A, expression B>
  requires(detail::expr_of_t<A>::rank >= 2 || detail::expr_of_t<B>::rank >= 2)
auto dot(A&& a, B&& b) {
  constexpr std::size_t RA = detail::expr_of_t<A>::rank, RB = detail::expr_of_t<B>::rank;
  if constexpr (RA <= 2 && RB <= 2) {
    return matmul(std::forward<A>(a), std::forward<B>(b));
  } else {
    return tensordot(std::forward<A>(a), std::forward<B>(b), std::array<int, 1>{int(RA) - 1},
                     std::array<int, 1>{RB >= 2 ? int(RB) - 2 : 0});
  }
}

}  // namespace sinter

#pragma once
/// \file rows.hpp
/// Row softmax and row standardisation in one pass over the matrix
/// (route::row_blocks, docs/design.md "Host routes"): on host and par, per
/// block of rows that fits in L2, the rows' reductions, then the
/// elementwise consumer while the rows are in cache, so the input is read
/// from memory once. Each step is the two-pass form's own code on the
/// block (reducer<host>::along's fold, the host plan's loop), so the values
/// are those of `e = exp(x - max(x, axis(-1), keepdims))` evaluated, then
/// `e / sum(e, axis(-1), keepdims)`, and of `(x - mean(...)) / std(...)`.
/// Other ranks, cuda, and outputs these cannot take run those forms.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "array.hpp"
#include "evaluate.hpp"
#include "expression.hpp"
#include "functions.hpp"
#include "policy/host/lagged.hpp"
#include "policy/par.hpp"
#include "reduce.hpp"
#include "view.hpp"

namespace sinter {
namespace detail {

/// A column of `k` values at `p` as a host view of shape (k, 1), to
/// broadcast along a block's rows as the two-pass form's (n, 1) array does.
template <class T>
view<T, 2, host> row_column(T* p, index_t k) {
  return view<T, 2, host>(p, extents<2>{k, 1}, extents<2>{1, 1}, host{});
}

/// A bound block of rows as a host expression, for the two-pass form's operators.
template <class Node>
expr<Node, host, 0> row_block_expr(const Node& n) {
  return expr<Node, host, 0>(n);
}

/// The one-thread consumer pass of a block: the host plan's route for it,
/// untraced (the whole call is one traced pass).
template <class T, class E>
void row_block_store(const memory_leaf<T, 2>& out, const E& e) {
  backend<host>::evaluate(host{}, out, e.node().bind(out.shape), nullptr);
}

/// The `k` row reductions by Op (finish `fin`) of a bound block of rows into `res`.
template <class Op, class Res, class Node, class Finish>
void row_block_fold(Res* res, const Node& bound, Finish fin) {
  reducer<host>::template along<Op>(host{}, res, bound, bound.shape, bound.shape[0], bound.shape[1], fin);
}

/// Softmax of the block `xb` (bound, k rows) into `out`: max per row into
/// `m`, e = exp(x - max) written into out, its row sums into `s` (out read
/// back from cache), then out = e / sum in place: exp once per element, and
/// the sum's fold over stored values (over exp(x - max) it ran exp scalar).
struct softmax_block {
  template <class Node>
  using exp_t = typename decltype(sinter::exp(row_block_expr(std::declval<Node>()) -
                                              row_column(std::declval<typename Node::value_type*>(), 0)))::value_type;
  /// Whether the route takes an output of type T: e is stored in it, so T must be e's type.
  template <class T, class Node>
  static constexpr bool takes = std::is_same_v<T, exp_t<Node>>;
  template <class T, class Node, class M, class S>
  void operator()(const memory_leaf<T, 2>& out, const Node& xb, M* m, S* s) const {
    using V = typename Node::value_type;
    const index_t k = xb.shape[0];
    row_block_fold<reduce_ops::max>(m, xb, op_finish<reduce_ops::max, V>{});
    row_block_store(out, sinter::exp(row_block_expr(xb) - row_column(m, k)));
    const memory_leaf<const T, 2> e{out.ptr, out.shape, out.strides};
    row_block_fold<reduce_ops::sum>(s, e, op_finish<reduce_ops::sum, T>{});
    row_block_store(out, row_block_expr(e) / row_column(s, k));
  }
  template <class Node>
  using first_t = typename reduce_ops::max::template result_t<typename Node::value_type>;
  template <class Node>
  using second_t = typename reduce_ops::sum::template result_t<exp_t<Node>>;
};

/// Standardisation of the block `xb` into `out`: mean and std per row
/// (numpy's, `ddof`), then (x - mean) / std.
struct standardize_block {
  int ddof;
  template <class T, class Node, class M, class S>
  void operator()(const memory_leaf<T, 2>& out, const Node& xb, M* m, S* s) const {
    using V = typename Node::value_type;
    const index_t k = xb.shape[0];
    row_block_fold<reduce_ops::mean>(m, xb, op_finish<reduce_ops::mean, V>{});
    row_block_fold<reduce_ops::variance<true>>(s, xb, variance_finish<true, V>{ddof});
    row_block_store(out, (row_block_expr(xb) - row_column(m, k)) / row_column(s, k));
  }
  template <class T, class Node>
  static constexpr bool takes = true;
  template <class Node>
  using first_t = typename reduce_ops::mean::template result_t<typename Node::value_type>;
  template <class Node>
  using second_t = floating_t<typename Node::value_type>;
};

/// route::row_blocks's executor: `out = f(x)` for the bound input `xb` of
/// rank 2, block by block of row_block_rows rows; par cuts the rows into
/// chunks (whole rows: a row's values do not depend on the chunks). Returns
/// the plan (for the trace) and the number of chunks.
template <class P, class T, class Node, class Block>
std::pair<host_plan, index_t> run_row_blocks(const memory_leaf<T, 2>& out, const Node& xb, const Block& block) {
  using V = typename Node::value_type;
  using M = typename Block::template first_t<Node>;
  using S = typename Block::template second_t<Node>;
  const index_t rows = out.shape[0], cols = out.shape[1];
  const index_t k = row_block_rows(cols, sizeof(V));
  const host_plan plan{route::row_blocks, plan_threads<2>(rows * cols, host_threads<P>::requested()), false, false};
  auto chunk = [&](index_t b, index_t e) {
    std::vector<M> m(static_cast<std::size_t>(std::min(k, e - b)));
    std::vector<S> s(m.size());
    for (index_t lo = b; lo < e; lo += k) {
      const index_t c = std::min(k, e - lo);
      block(row_block(out, 0, lo, c), row_block(xb, 0, lo, c), m.data(), s.data());
    }
  };
  if (rows == 0 || cols == 0) return {plan, 0};
  return {plan, run_chunks<P>(plan, rows, chunk)};
}

/// The two-pass forms, for ranks other than 2 and for cuda.
template <class X>
auto softmax_two_pass(const X& x) {
  auto e = eval(sinter::exp(x - sinter::max(x, axis(-1), keepdims)));
  auto s = sinter::sum(e, axis(-1), keepdims);
  return std::move(e) / std::move(s);
}
template <class X>
auto standardize_two_pass(const X& x, int ddof) {
  return (x - sinter::mean(x, axis(-1), keepdims)) / sinter::std(x, axis(-1), keepdims, ddof);
}

/// Records a row_blocks pass for the trace (cold, out of line).
template <class P, class T, class Node>
SINTER_COLD SINTER_NOINLINE void trace_row_blocks(const P& pol, const char* name, const Node& node,
                                                  const memory_leaf<T, 2>& out, double seconds,
                                                  const host_plan& plan, index_t chunks) {
  std::string expression;
  append_text(expression, name);
  append_text(expression, "(");
  describe_into(expression, node);
  append_text(expression, ")");
  std::string what;
  plan_detail(what, plan, host_threads<P>::parallel, chunks);
  emit_pass(backend<P>::label(pol), std::move(expression), shape_size(out.shape), input_bytes(node),
            static_cast<std::size_t>(shape_size(out.shape)) * sizeof(T), seconds, std::move(what));
}

/// `out = f(x)` by route::row_blocks where it applies (host or par, rank 2,
/// no overlap of out and x under another mapping), else `two_pass`.
template <class P, class T, std::size_t R, class E, class Block, class TwoPass>
void assign_rows(const P& pol, const char* name, const memory_leaf<T, R>& out, const E& x, const Block& block,
                 TwoPass two_pass) {
  if (x.shape() != out.shape)
    throw shape_error(std::string("sinter::") + name + ": output shape " + shape_string(out.shape) +
                      " differs from the input's " + shape_string(x.shape()) + "; give an output of the input's shape");
  using Node = std::remove_cvref_t<decltype(x.node().bind(out.shape))>;
  if constexpr ((std::is_same_v<P, host> || std::is_same_v<P, par>) && R == 2 &&
                Block::template takes<T, Node>) {
    const auto xb = x.node().bind(out.shape);
    if (!needs_temporary(out, xb)) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto [plan, chunks] = run_row_blocks<P>(out, xb, block);
      if (trace_active())
        trace_row_blocks(pol, name, x.node(), out,
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), plan, chunks);
      return;
    }
  }
  assign(pol, out, as_operand(two_pass(x)), name);
}

/// The output leaf of an array or view.
template <class O>
auto out_leaf(O& o) {
  return memory_leaf<typename std::remove_cvref_t<O>::value_type, std::remove_cvref_t<O>::rank>{o.data(), o.shape(),
                                                                                             o.strides()};
}

}  // namespace detail

/// Softmax along the last axis, into `out` (an array or view of x's shape):
/// exp(x - max) / sum(exp(x - max)) per row, the values of that two-pass
/// form. On host and par a matrix is read from memory once (route::row_blocks).
template <expression X, class O>
  requires requires(O& o) { o.data(); o.strides(); }
void softmax(X&& x, O&& out) {
  const auto& e = detail::as_operand(std::forward<X>(x));
  using E = std::remove_cvref_t<decltype(e)>;
  if constexpr (E::rank > 0)  // as the two-pass form's max: rows of no element have no max
    if (e.shape()[E::rank - 1] == 0) {
      index_t others = 1;
      for (std::size_t d = 0; d + 1 < E::rank; ++d) others *= e.shape()[d];
      if (others > 0) detail::check_nonempty<detail::reduce_ops::max>(e, 0, "softmax");
    }
  detail::assign_rows(out.policy(), "softmax", detail::out_leaf(out), e, detail::softmax_block{},
                      [](const auto& y) { return detail::softmax_two_pass(y); });
}

/// Softmax along the last axis, as a new array of x's policy (softmax(x, out)).
template <expression X>
auto softmax(X&& x) {
  const auto& e = detail::as_operand(std::forward<X>(x));
  using E = std::remove_cvref_t<decltype(e)>;
  using P = detail::concrete_policy_t<typename E::policy_type>;
  using V = typename decltype(detail::softmax_two_pass(e))::value_type;
  array<V, E::rank, P> out(e.shape(), detail::reduction_policy<P>(std::nullopt, e));
  softmax(e, out);
  return out;
}

/// Each row standardised along the last axis, into `out` (an array or view
/// of x's shape): (x - mean) / std with numpy's std (`ddof`, default 0), the
/// values of that two-pass form. On host and par a matrix is read from
/// memory once (route::row_blocks).
template <expression X, class O>
  requires requires(O& o) { o.data(); o.strides(); }
void standardize(X&& x, O&& out, int ddof = 0) {
  const auto& e = detail::as_operand(std::forward<X>(x));
  detail::assign_rows(out.policy(), "standardize", detail::out_leaf(out), e, detail::standardize_block{ddof},
                      [ddof](const auto& y) { return detail::standardize_two_pass(y, ddof); });
}

/// Each row standardised along the last axis, as a new array (standardize(x, out, ddof)).
template <expression X>
auto standardize(X&& x, int ddof = 0) {
  const auto& e = detail::as_operand(std::forward<X>(x));
  using E = std::remove_cvref_t<decltype(e)>;
  using P = detail::concrete_policy_t<typename E::policy_type>;
  using V = typename decltype(detail::standardize_two_pass(e, ddof))::value_type;
  array<V, E::rank, P> out(e.shape(), detail::reduction_policy<P>(std::nullopt, e));
  standardize(e, out, ddof);
  return out;
}

}  // namespace sinter

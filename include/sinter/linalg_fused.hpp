#pragma once
/// \file linalg_fused.hpp
/// matmul's result as a leaf of a fused expression (host and par): the
/// pending product (`product`), its leaf, and assign's hook (found by
/// argument-dependent lookup, as join.hpp's assign_joined) that runs
/// `out = f(matmul(x, w))` as GEMM on blocks of rows, each block's
/// epilogue right after it, and `c = alpha * matmul(a, b) + beta * c` as
/// one GEMM. Any other use binds the leaf, which computes the product once
/// into an array and reads it as memory.
#include <cstddef>
#include <memory>
#include <mutex>
#include <ostream>
#include <type_traits>

#include "array.hpp"
#include "core/ops.hpp"
#include "core/tree_fold.hpp"
#include "evaluate.hpp"
#include "expression.hpp"
#include "linalg/plan.hpp"

namespace sinter::detail {

/// A pending matrix product: its operands (held by the derived class of
/// linalg.hpp) and, once some use needed it whole, its value.
template <class T, std::size_t R, class P>
struct product_core {
  extents<R> shape{};
  P policy{};  ///< the value's policy (cuda: the first operand's device and stream)
  virtual ~product_core() = default;
  /// out = alpha * a @ b + beta * out (out: the product's shape, any strides).
  virtual void gemm(const linalg_output<T>& out, T alpha, T beta, const char* name) const = 0;
  /// Rows [r0, r1) of the product into buf (row stride n); 2-D operands only.
  virtual void gemm_rows(index_t r0, index_t r1, T* buf) const = 0;
  /// Whether both operands are 2-D (the blocked epilogue applies).
  virtual bool matrices() const = 0;
  /// Whether strided memory (p, shape, strides) overlaps an operand.
  virtual bool reads(const T* p, const extents<R>& sh, const extents<R>& st) const = 0;
  /// Whether the value was computed (then uses read it as memory).
  bool computed() const { return value_ != nullptr; }
  /// The value, computed on first use (one GEMM into a new array).
  const array<T, R, P>& value() const {
    std::call_once(once_, [&] {
      auto v = std::make_unique<array<T, R, P>>(shape, policy);
      const extents<R> st = v->strides();
      gemm({v->data(), R, shape.data(), st.data()}, T(1), T(0), "matmul");
      value_ = std::move(v);
    });
    return *value_;
  }

 private:
  mutable std::once_flag once_;
  mutable std::unique_ptr<array<T, R, P>> value_;
};

/// The trace's label of a product leaf in a pass that reads it ("matmul<f32[3,4]>").
struct product_label {
  static constexpr const char* name = "matmul";
};

/// The leaf of a pending product: bound (by a use other than assign's hook),
/// it computes the product once and becomes a memory leaf of its value.
template <class T, std::size_t R, class P>
struct product_leaf {
  using value_type = T;
  static constexpr std::size_t rank = R;
  product_label gen;
  const product_core<T, R, P>* core;
  extents<R> shape;

  /// SINTER_HD as every leaf's bind (map_node's calls it); host code only:
  /// a host or par tree never reaches a kernel.
  template <std::size_t RO>
  SINTER_HD memory_leaf<const T, RO> bind(const extents<RO>& out) const {
#if defined(__CUDA_ARCH__)
    return {nullptr, out, extents<RO>{}};
#else
    const memory_leaf<const T, R> m{core->value().data(), shape, row_major_strides(shape)};
    return m.bind(out);
#endif
  }
};

template <class N> struct is_product_leaf : std::false_type {};
template <class T, std::size_t R, class P> struct is_product_leaf<product_leaf<T, R, P>> : std::true_type {};
template <class N>
using product_leaf_count = std::integral_constant<std::size_t, is_product_leaf<N>::value ? 1 : 0>;
/// How many product leaves the tree N holds.
template <class N>
inline constexpr std::size_t product_count_v = fold_tree_v<sum_leaves_fold<product_leaf_count>, N>;

/// Whether a bound leaf can be cut to a block of rows (memory, generator, scalar).
template <class L>
struct block_cuttable
    : std::bool_constant<is_product_leaf<L>::value || is_memory_leaf<L>::value ||
                         requires(const L& l) { l.gen, l.base; } ||
                         requires(const L& l) { l.value; }> {};

/// The leaf `l` bound to `full` and cut to rows [r0, r0 + rows).
template <class L>
auto cut_rows(const L& l, const extents<2>& full, index_t r0, index_t rows) {
  auto b = l.bind(full);
  if constexpr (is_memory_leaf<decltype(b)>::value) {
    b.ptr += r0 * b.strides[0];
    b.shape[0] = rows;
  } else if constexpr (requires { b.base; }) {
    b.base += r0 * b.strides[0];
    b.shape[0] = rows;
  }
  return b;
}

/// Node n bound to the 2-D shape `full` and cut to rows [r0, r0 + rows), its
/// product leaf read from buf with strides bst.
template <class N, class T>
auto bind_rows(const N& n, const extents<2>& full, index_t r0, index_t rows, const T* buf, const extents<2>& bst);
template <class F, class... A, std::size_t... I, class T>
auto bind_rows_map(const map_node<F, A...>& n, const extents<2>& full, index_t r0, index_t rows, const T* buf,
                   const extents<2>& bst, std::index_sequence<I...>) {
  using bound = map_node<F, decltype(bind_rows(get<I>(n.args), full, r0, rows, buf, bst))...>;
  return bound{n.fn(), make_pack(bind_rows(get<I>(n.args), full, r0, rows, buf, bst)...), extents<2>{rows, full[1]}};
}
template <class N, class T>
auto bind_rows(const N& n, const extents<2>& full, index_t r0, index_t rows, const T* buf, const extents<2>& bst) {
  if constexpr (is_product_leaf<N>::value)
    return memory_leaf<const T, 2>{buf, extents<2>{rows, full[1]}, bst};
  else if constexpr (requires { n.args; })
    return bind_rows_map(n, full, r0, rows, buf, bst, std::make_index_sequence<pack_size_v<decltype(n.args)>>{});
  else
    return cut_rows(n, full, r0, rows);
}

/// A term of `alpha * P + beta * C`: the product (1), a memory leaf (2) or
/// neither (0), scaled by scalar factors.
template <class T, class N>
constexpr int term_kind() {
  if constexpr (is_product_leaf<N>::value) {
    return std::is_same_v<typename N::value_type, T> ? 1 : 0;
  } else if constexpr (is_memory_leaf<N>::value) {
    return std::is_same_v<typename N::value_type, T> ? 2 : 0;
  } else if constexpr (requires { typename N::functor_type; }) {
    if constexpr (std::is_same_v<typename N::functor_type, ops::mul> && pack_size_v<decltype(N::args)> == 2) {
      using A = std::remove_cvref_t<decltype(get<0>(std::declval<const N&>().args))>;
      using B = std::remove_cvref_t<decltype(get<1>(std::declval<const N&>().args))>;
      if constexpr (std::is_same_v<A, scalar_leaf<T>>) return term_kind<T, B>();
      else if constexpr (std::is_same_v<B, scalar_leaf<T>>) return term_kind<T, A>();
      else return 0;
    } else {
      return 0;
    }
  } else {
    return 0;
  }
}
/// The scalar factor of a term (term_kind non-zero) and its leaf.
template <class T, class N>
T term_factor(const N& n, const void*& leaf) {
  if constexpr (is_product_leaf<N>::value || is_memory_leaf<N>::value) {
    leaf = &n;
    return T(1);
  } else if constexpr (std::is_same_v<std::remove_cvref_t<decltype(get<0>(n.args))>, scalar_leaf<T>>) {
    return get<0>(n.args).value * term_factor<T>(get<1>(n.args), leaf);
  } else {
    return get<1>(n.args).value * term_factor<T>(get<0>(n.args), leaf);
  }
}

/// The linear form `alpha * P + beta * C` of tree N (P its product, C a
/// memory leaf): whether N has it, then alpha, beta and C's leaf.
template <class T, class N>
constexpr bool linear_form_v = [] {
  if constexpr (term_kind<T, N>() == 1) {
    return true;
  } else if constexpr (requires { typename N::functor_type; }) {
    using F = typename N::functor_type;
    if constexpr ((std::is_same_v<F, ops::add> || std::is_same_v<F, ops::sub>) && pack_size_v<decltype(N::args)> == 2) {
      constexpr int a = term_kind<T, std::remove_cvref_t<decltype(get<0>(std::declval<const N&>().args))>>();
      constexpr int b = term_kind<T, std::remove_cvref_t<decltype(get<1>(std::declval<const N&>().args))>>();
      return (a == 1 && b == 2) || (a == 2 && b == 1);
    } else {
      return false;
    }
  } else {
    return false;
  }
}();
template <class T, class N>
void linear_parts(const N& n, T& alpha, T& beta, const void*& c) {
  const void* ignored = nullptr;
  if constexpr (term_kind<T, N>() == 1) {
    alpha = term_factor<T>(n, ignored);
    beta = T(0);
  } else {
    constexpr bool product_first = term_kind<T, std::remove_cvref_t<decltype(get<0>(n.args))>>() == 1;
    const T f0 = term_factor<T>(get<0>(n.args), product_first ? ignored : c);
    const T f1 = term_factor<T>(get<1>(n.args), product_first ? c : ignored);
    const T sign = std::is_same_v<typename N::functor_type, ops::sub> ? T(-1) : T(1);
    alpha = product_first ? f0 : T(sign * f1);  // T(): half * half is float
    beta = product_first ? T(sign * f1) : f0;
  }
}

/// Visitor: the type of a tree's product leaf (void for none).
struct product_type_fold {
  template <class L>
  using leaf = std::type_identity<std::conditional_t<is_product_leaf<L>::value, L, void>>;
  template <class N, class F, class... Rs>
  struct first {
    using type = void;
  };
  template <class N, class F, class H, class... Rs>
  struct first<N, F, H, Rs...> {
    using type = std::conditional_t<std::is_void_v<typename H::type>, typename first<N, F, Rs...>::type,
                                    typename H::type>;
  };
  template <class N, class F, class... Rs>
  using node = first<N, F, Rs...>;
};
/// The product leaf type of tree N.
template <class N>
using product_leaf_t = typename fold_tree_t<product_type_fold, N>::type;

/// The product leaf of a tree holding one.
template <class L, class N>
const L* find_product(const N& n) {
  const L* found = nullptr;
  for_each_leaf(n, [&](const auto& l) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(l)>, L>) found = &l;
  });
  return found;
}

/// assign_product for a tree whose product leaf L has out's type and rank.
template <class L, class P, class T, std::size_t R, class Node>
bool assign_product_leaf(const P& pol, const memory_leaf<T, R>& out, const Node& node, const extents<R>& e_shape) {
  const L* leaf = find_product<L>(node);
  const auto& core = *leaf->core;
  if (core.computed() || e_shape != out.shape || leaf->shape != out.shape ||
      core.reads(out.ptr, out.shape, out.strides))
    return false;
  if constexpr (linear_form_v<T, Node>) {
    T alpha{}, beta{};
    const void* c = nullptr;
    linear_parts(node, alpha, beta, c);
    bool fits = c == nullptr;
    if (!fits) {
      for_each_leaf(node, [&](const auto& l) {
        using M = std::remove_cvref_t<decltype(l)>;
        if constexpr (is_memory_leaf<M>::value && M::rank == R)  // a 1-D bias is no C
          if (static_cast<const void*>(&l) == c)
            fits = static_cast<const void*>(l.ptr) == static_cast<const void*>(out.ptr) && l.shape == out.shape &&
                   l.strides == out.strides;
      });
    }
    if (fits) {
      core.gemm({out.ptr, R, out.shape.data(), out.strides.data()}, alpha, beta, c ? "matmul_into" : "matmul");
      return true;
    }
  }
  if constexpr (R != 2 || !fold_tree_v<all_leaves_fold<block_cuttable>, Node>) {
    return false;
  } else {
    if (!core.matrices()) return false;
    const index_t m = out.shape[0], n = out.shape[1];
    const index_t rows = epilogue_block_rows(m, n, sizeof(T));
    array<T, 2, P> buf(extents<2>{rows, n}, pol);
    if (needs_temporary(out, bind_rows(node, out.shape, 0, m, buf.data(), extents<2>{0, 0}))) return false;
    for (index_t r0 = 0; r0 < m; r0 += rows) {
      const index_t r1 = r0 + rows < m ? r0 + rows : m;
      core.gemm_rows(r0, r1, buf.data());
      const auto bound = bind_rows(node, out.shape, r0, r1 - r0, buf.data(), extents<2>{n, 1});
      const memory_leaf<T, 2> o{out.ptr + r0 * out.strides[0], extents<2>{r1 - r0, n}, out.strides};
      run_bound_pass(pol, o, bound, bound);
    }
    return true;
  }
}

/// assign's hook for an expression holding one pending product: the
/// alpha/beta forms as one GEMM into out; any other elementwise tree over a
/// 2-D product as GEMM on blocks of rows into a pooled buffer, each block's
/// pass right after. False (nothing written; the leaf then computes the
/// product whole) for two products, a broadcast product, a computed one,
/// or an output that overlaps the operands or, with another mapping, a leaf.
template <class P, class T, std::size_t R, class Node, class EP, std::size_t K>
  requires(K >= 1 && product_count_v<Node> >= 1)
bool assign_product(const P& pol, const memory_leaf<T, R>& out, const expr<Node, EP, K>& e) {
  if constexpr (product_count_v<Node> != 1) {
    return false;
  } else {
    using L = product_leaf_t<Node>;
    if constexpr (!std::is_same_v<typename Node::value_type, T> || !std::is_same_v<typename L::value_type, T> ||
                  L::rank != R) {
      return false;
    } else {
      return assign_product_leaf<L>(pol, out, e.node(), e.shape());
    }
  }
}

}  // namespace sinter::detail

namespace sinter {

/// matmul's result on host and par: a pending product. Assigned alone, or
/// read by one elementwise expression that is assigned (`y = maximum(matmul(x,
/// w) + b, 0)`), it is fused (detail::assign_product); anything else reads
/// its value, computed once on first use (eval(), data(), a reduction).
template <class T, std::size_t R, class P>
class product {
 public:
  using value_type = T;
  using policy_type = P;
  static constexpr std::size_t rank = R;

  explicit product(std::shared_ptr<const detail::product_core<T, R, P>> core) : core_(std::move(core)) {}
  /// The product's shape.
  const extents<R>& shape() const { return core_->shape; }
  /// Number of elements.
  index_t size() const { return detail::shape_size(core_->shape); }
  /// The product as a leaf of an expression (kept alive by it).
  expr<detail::product_leaf<T, R, P>, P, 1> as_expr() const {
    return expr<detail::product_leaf<T, R, P>, P, 1>({{}, core_.get(), core_->shape}, {core_});
  }
  /// The value, computed once (one GEMM per matrix) and kept.
  const array<T, R, P>& eval() const { return core_->value(); }
  /// eval()'s elements, row-major.
  const T* data() const { return eval().data(); }
  /// eval()'s strides.
  extents<R> strides() const { return eval().strides(); }
  /// Indexes eval() as an array.
  template <class... I>
  decltype(auto) operator()(const I&... i) const {
    return eval()(i...);
  }

 private:
  std::shared_ptr<const detail::product_core<T, R, P>> core_;
};

/// Print a product as its value (io.hpp's array printing): `std::cout << sinter::matmul(a, b);`
template <class T, std::size_t R, class P>
std::ostream& operator<<(std::ostream& os, const product<T, R, P>& p) {
  return os << p.eval();
}

}  // namespace sinter

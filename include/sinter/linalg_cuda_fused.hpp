#pragma once
/// \file linalg_cuda_fused.hpp
/// assign's hook for a pending product on sinter::cuda (nvcc only, included
/// by linalg_cuda.hpp): `c = P`, `c += P`, `c -= P`, `c = alpha * P + beta * c`
/// and `c = P * alpha` become one cuBLAS GEMM with that alpha and beta
/// writing into c, recognised on the tree's type by linalg_fused.hpp's
/// linear_form_v. Every other tree returns false: the product leaf is bound
/// (one GEMM into an array) and the expression runs as one kernel reading it.
#include <cstddef>
#include <type_traits>

#include "expression.hpp"
#include "linalg_fused.hpp"
#include "policy/cuda.hpp"

namespace sinter::detail {

/// alpha and beta of `out = alpha * P + beta * out` for the tree N over the
/// pending product L: fits is false (nothing to run) when N is no such form,
/// or its C is not out itself, or out overlaps an operand, or the product
/// was already computed or has another shape than out.
template <class T>
struct cuda_gemm_form {
  bool fits;
  T alpha, beta;
  bool into;  ///< beta reads out (a C term was present)
};
template <class L, class T, std::size_t R, class Node>
cuda_gemm_form<T> cuda_gemm_form_of(const memory_leaf<T, R>& out, const Node& node, const extents<R>& e_shape) {
  cuda_gemm_form<T> f{false, T(0), T(0), false};
  if constexpr (linear_form_v<T, Node>) {
    const auto& core = *find_product<L>(node)->core;
    if (core.computed() || e_shape != out.shape || core.shape != out.shape ||
        core.reads(out.ptr, out.shape, out.strides))
      return f;
    const void* c = nullptr;
    linear_parts(node, f.alpha, f.beta, c);
    f.into = c != nullptr;
    f.fits = c == nullptr;
    for_each_leaf(node, [&](const auto& l) {
      using M = std::remove_cvref_t<decltype(l)>;
      if constexpr (is_memory_leaf<M>::value && M::rank == R)  // a 1-D bias is no C
        if (static_cast<const void*>(&l) == c)
          f.fits = static_cast<const void*>(l.ptr) == static_cast<const void*>(out.ptr) && l.shape == out.shape &&
                   l.strides == out.strides;
    });
  }
  return f;
}

/// assign's hook on cuda (more specialised than linalg_fused.hpp's, so
/// chosen for a cuda output): the alpha/beta forms as one GEMM into out;
/// false for anything else (then the product is computed and read).
template <class T, std::size_t R, class Node, class EP, std::size_t K>
  requires(K >= 1 && product_count_v<Node> >= 1)
bool assign_product(const cuda&, const memory_leaf<T, R>& out, const expr<Node, EP, K>& e) {
  if constexpr (product_count_v<Node> != 1) {
    return false;
  } else {
    using L = product_leaf_t<Node>;
    if constexpr (!std::is_same_v<typename Node::value_type, T> || !std::is_same_v<typename L::value_type, T> ||
                  L::rank != R || !linear_form_v<T, Node>) {
      return false;
    } else {
      const cuda_gemm_form<T> f = cuda_gemm_form_of<L>(out, e.node(), e.shape());
      if (!f.fits) return false;
      find_product<L>(e.node())
          ->core->gemm({out.ptr, R, out.shape.data(), out.strides.data()}, f.alpha, f.beta,
                       f.into ? "matmul_into" : "matmul");
      return true;
    }
  }
}

}  // namespace sinter::detail

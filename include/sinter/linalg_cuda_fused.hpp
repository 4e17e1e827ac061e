#pragma once
/// \file linalg_cuda_fused.hpp
/// assign's hook for a pending product on sinter::cuda (nvcc only, included
/// by linalg.hpp): `c = P`, `c += P`, `c -= P`, `c = alpha * P + beta * c`
/// and `c = P * alpha` become one cuBLAS GEMM with that alpha and beta
/// writing into c, recognised on the tree's type by linalg_fused.hpp's
/// linear_form_v; `y = P + bias` and `y = maximum(P + bias, 0)` (float, half,
/// bfloat16) one cublasLtMatmul with a BIAS / RELU_BIAS epilogue. Every
/// other tree returns false: the product leaf is bound (one GEMM into an
/// array) and the expression runs as one kernel reading it.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

#include "evaluate.hpp"
#include "expression.hpp"
#include "linalg_cuda.hpp"
#include "linalg_fused.hpp"
#include "policy/cuda.hpp"
#include "trace.hpp"

#if defined(SINTER_HAS_CUBLAS)
#include <cublasLt.h>
#endif

namespace sinter::detail {

template <class T, std::size_t RO, class P, std::size_t RA, std::size_t RB>
struct product_state;  // linalg.hpp: the product_core holding matmul's operands

/// Whether N is `P + b` or `b + P` (P a 2-D product of T, b a 1-D array or
/// view of T): 1; `maximum(P + b, s)` or `maximum(s, P + b)` (s a scalar of
/// T, zero at run time: ReLU): 2; else 0. cuBLASLt's BIAS / RELU_BIAS.
template <class T, class N>
constexpr int lt_epilogue_kind() {
  if constexpr (requires { typename N::functor_type; }) {
    if constexpr (pack_size_v<decltype(N::args)> == 2) {
      using A = std::remove_cvref_t<decltype(get<0>(std::declval<const N&>().args))>;
      using B = std::remove_cvref_t<decltype(get<1>(std::declval<const N&>().args))>;
      using F = typename N::functor_type;
      constexpr auto bias = [](auto* x) {
        using X = std::remove_pointer_t<decltype(x)>;
        if constexpr (is_memory_leaf<X>::value) return X::rank == 1 && std::is_same_v<typename X::value_type, T>;
        else return false;
      };
      constexpr auto prod = [](auto* x) {
        using X = std::remove_pointer_t<decltype(x)>;
        if constexpr (is_product_leaf<X>::value) return X::rank == 2 && std::is_same_v<typename X::value_type, T>;
        else return false;
      };
      if constexpr (std::is_same_v<F, ops::add>) {
        return (prod(static_cast<A*>(nullptr)) && bias(static_cast<B*>(nullptr))) ||
                       (bias(static_cast<A*>(nullptr)) && prod(static_cast<B*>(nullptr)))
                   ? 1
                   : 0;
      } else if constexpr (std::is_same_v<F, ops::maximum>) {
        if constexpr (std::is_same_v<B, scalar_leaf<T>>) return lt_epilogue_kind<T, A>() == 1 ? 2 : 0;
        else if constexpr (std::is_same_v<A, scalar_leaf<T>>) return lt_epilogue_kind<T, B>() == 1 ? 2 : 0;
        else return 0;
      } else {
        return 0;
      }
    } else {
      return 0;
    }
  } else {
    return 0;
  }
}

/// The bias leaf of a tree with lt_epilogue_kind != 0, and whether its
/// ReLU's scalar is zero (true for the bias form).
template <class T, class N>
auto lt_bias_of(const N& n, bool& zero) {
  if constexpr (std::is_same_v<typename N::functor_type, ops::maximum>) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(get<1>(n.args))>, scalar_leaf<T>>) {
      zero = zero && get<1>(n.args).value == T(0);
      return lt_bias_of<T>(get<0>(n.args), zero);
    } else {
      zero = zero && get<0>(n.args).value == T(0);
      return lt_bias_of<T>(get<1>(n.args), zero);
    }
  } else if constexpr (is_memory_leaf<std::remove_cvref_t<decltype(get<0>(n.args))>>::value) {
    return get<0>(n.args);
  } else {
    return get<1>(n.args);
  }
}

/// The arguments of one cublasLtMatmul with a bias epilogue (host code,
/// tested without a GPU): cuBLAS's D = epilogue(alpha op(first) op(second)
/// + bias), bias one value per row of D (per column of the row-major out).
struct cublas_lt_args {
  bool ok;  ///< out row-contiguous and operands in BLAS form (C^T = B^T A^T)
  bool trans_first, trans_second;
  int m, n, k, ld_first, ld_second, ldc;
  int epilogue;  ///< CUBLASLT_EPILOGUE_BIAS or CUBLASLT_EPILOGUE_RELU_BIAS
  const void* bias;
};
/// cublas_lt_args for out = act(a @ b + bias) (act: ReLU when relu).
template <class T>
cublas_lt_args cublas_lt_of(const strided_matrix<const T>& a, const strided_matrix<const T>& b,
                            const strided_matrix<T>& c, const T* bias, bool relu) {
  const cublas_call call = plan_cublas_gemm(a, b, c);
#if defined(SINTER_HAS_CUBLAS)
  const int e = relu ? static_cast<int>(CUBLASLT_EPILOGUE_RELU_BIAS) : static_cast<int>(CUBLASLT_EPILOGUE_BIAS);
#else
  const int e = relu ? 2 : 1;
#endif
  const bool ok = call.ok && call.swapped && c.s1 == 1 && blas_form_of(a).ok && blas_form_of(b).ok;
  return {ok, call.trans_first, call.trans_second, blas_int(call.m), blas_int(call.n), blas_int(call.k),
          blas_int(call.ld_first), blas_int(call.ld_second), blas_int(call.ldc), e, bias};
}

#if defined(SINTER_HAS_CUBLAS)
/// The cuBLASLt handle of a device: created once, kept for the process.
inline cublasLtHandle_t cublas_lt_handle(int device) {
  static std::mutex* mutex = new std::mutex;
  static auto* handles = new std::map<int, cublasLtHandle_t>;
  (void)cuda_detail::props(device);  // device_error with the reason if absent
  cuda_detail::check(cudaSetDevice(device), "cudaSetDevice");
  std::lock_guard<std::mutex> lock(*mutex);
  if (const auto it = handles->find(device); it != handles->end()) return it->second;
  cublasLtHandle_t h = nullptr;
  cublas_check(cublasLtCreate(&h), "cublasLtCreate");
  handles->emplace(device, h);
  return h;
}

/// Runs x (float, half or bfloat16; CUBLAS_COMPUTE_32F, float scalars) on
/// pol's stream, its workspace a pooled array. False, nothing queued, when
/// cuBLASLt offers no algorithm for it.
template <class T>
bool cublas_lt_run(const cuda& pol, const cublas_lt_args& x, const T* first, const T* second, T* out) {
  constexpr cudaDataType_t dt = std::is_same_v<T, float> ? CUDA_R_32F : cublas_data_type<T>;
  const cublasLtHandle_t h = cublas_lt_handle(pol.device);
  struct descriptors {  // destroyed on every exit
    cublasLtMatmulDesc_t d = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulPreference_t p = nullptr;
    ~descriptors() {
      if (p) (void)cublasLtMatmulPreferenceDestroy(p);
      if (c) (void)cublasLtMatrixLayoutDestroy(c);
      if (b) (void)cublasLtMatrixLayoutDestroy(b);
      if (a) (void)cublasLtMatrixLayoutDestroy(a);
      if (d) (void)cublasLtMatmulDescDestroy(d);
    }
  } g;
  cublas_check(cublasLtMatmulDescCreate(&g.d, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
  const cublasOperation_t ta = x.trans_first ? CUBLAS_OP_T : CUBLAS_OP_N, tb = x.trans_second ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasLtEpilogue_t epi = static_cast<cublasLtEpilogue_t>(x.epilogue);
  const auto set = [&](cublasLtMatmulDescAttributes_t a, const void* v, std::size_t bytes) {
    cublas_check(cublasLtMatmulDescSetAttribute(g.d, a, v, bytes), "cublasLtMatmulDescSetAttribute");
  };
  set(CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta);
  set(CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb);
  set(CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi);
  set(CUBLASLT_MATMUL_DESC_BIAS_POINTER, &x.bias, sizeof x.bias);
  const auto u = [](int v) { return static_cast<std::uint64_t>(v); };
  cublas_check(cublasLtMatrixLayoutCreate(&g.a, dt, u(x.trans_first ? x.k : x.m), u(x.trans_first ? x.m : x.k),
                                          x.ld_first),
               "cublasLtMatrixLayoutCreate");
  cublas_check(cublasLtMatrixLayoutCreate(&g.b, dt, u(x.trans_second ? x.n : x.k), u(x.trans_second ? x.k : x.n),
                                          x.ld_second),
               "cublasLtMatrixLayoutCreate");
  cublas_check(cublasLtMatrixLayoutCreate(&g.c, dt, u(x.m), u(x.n), x.ldc), "cublasLtMatrixLayoutCreate");
  cublas_check(cublasLtMatmulPreferenceCreate(&g.p), "cublasLtMatmulPreferenceCreate");
  const std::uint64_t ws_bytes = cublas_workspace_bytes;
  cublas_check(cublasLtMatmulPreferenceSetAttribute(g.p, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes,
                                                    sizeof ws_bytes),
               "cublasLtMatmulPreferenceSetAttribute");
  cublasLtMatmulHeuristicResult_t res{};
  int found = 0;
  cublas_check(cublasLtMatmulAlgoGetHeuristic(h, g.d, g.a, g.b, g.c, g.c, g.p, 1, &res, &found),
               "cublasLtMatmulAlgoGetHeuristic");
  if (found == 0) return false;
  array<std::uint8_t, 1, cuda> ws(extents<1>{static_cast<index_t>(ws_bytes)}, pol);
  const float alpha = 1, beta = 0;
  cublas_check(cublasLtMatmul(h, g.d, &alpha, first, g.a, second, g.b, &beta, out, g.c, out, g.c, &res.algo,
                              ws.data(), ws_bytes, pol.stream),
               "cublasLtMatmul");
  return true;
}
#endif

/// out = act(P + bias) by one cublasLtMatmul with a bias epilogue (float,
/// half, bfloat16; out row-contiguous, bias contiguous, operands in BLAS
/// form, k > 0, the product one matmul's product_state); false otherwise.
template <class L, int Kind, class T, class Node>
bool assign_lt_epilogue([[maybe_unused]] const cuda& pol, const memory_leaf<T, 2>& out, const Node& node,
                        const extents<2>& e_shape) {
  const auto& core = *find_product<L>(node)->core;
  bool zero = true;
  const auto b = lt_bias_of<T>(node, zero);
  const index_t m = out.shape[0], n = out.shape[1];
  const auto bytes = [](const auto* q, index_t count, index_t stride) {  // [lo, hi) of a non-empty line
    const char* lo = reinterpret_cast<const char*>(q);
    const index_t d = (count - 1) * stride * static_cast<index_t>(sizeof(*q));
    return d < 0 ? std::pair<const char*, const char*>{lo + d, lo + sizeof(*q)}
                 : std::pair<const char*, const char*>{lo, lo + d + sizeof(*q)};
  };
  const auto overlap = [&] {  // out's rows as one line from its first to its last element
    const auto o = bytes(out.ptr, 2, (m - 1) * out.strides[0] + (n - 1) * out.strides[1]);
    const auto q = bytes(b.ptr, b.shape[0], b.strides[0]);
    return o.first < q.second && q.first < o.second;
  };
  if (!zero || core.computed() || e_shape != out.shape || core.shape != out.shape || b.shape[0] != n ||
      (b.strides[0] != 1 && n > 1) || m == 0 || n == 0 || core.reads(out.ptr, out.shape, out.strides) ||
      overlap())
    return false;
  const auto* state = dynamic_cast<const product_state<T, 2, cuda, 2, 2>*>(&core);
  if (state == nullptr || state->a.shape[1] == 0) return false;
  const strided_matrix<const T> ma{state->a.p, m, state->a.shape[1], state->a.strides[0], state->a.strides[1]};
  const strided_matrix<const T> mb{state->b.p, state->b.shape[0], n, state->b.strides[0], state->b.strides[1]};
  const cublas_lt_args x = cublas_lt_of(ma, mb, strided_matrix<T>{out.ptr, m, n, out.strides[0], out.strides[1]},
                                        b.ptr, Kind == 2);
  if (!x.ok) return false;
#if defined(SINTER_HAS_CUBLAS)
  const bool traced = trace_active();
  const auto t0 = traced ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  if (!cublas_lt_run<T>(pol, x, mb.p, ma.p, out.ptr)) return false;
  if (traced)
    emit_pass("cuda",
              std::string(dtype_name<T>()) + shape_string(out.shape) + " = " +
                  (Kind == 2 ? "matmul_relu_bias(" : "matmul_bias(") + dtype_name<T>() +
                  shape_string(state->a.shape) + ", " + dtype_name<T>() + shape_string(state->b.shape) + ")",
              m * n, sizeof(T) * static_cast<std::size_t>(m * ma.cols + ma.cols * n + n),
              sizeof(T) * static_cast<std::size_t>(m * n),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), "cublasLtMatmul x1");
  return true;
#else
  return false;
#endif
}

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
bool assign_product(const cuda& pol, const memory_leaf<T, R>& out, const expr<Node, EP, K>& e) {
  (void)pol;
  if constexpr (product_count_v<Node> != 1) {
    return false;
  } else {
    using L = product_leaf_t<Node>;
    constexpr int kind = lt_epilogue_kind<T, Node>();
    if constexpr (kind != 0 && R == 2 && !std::is_same_v<T, double> && std::is_same_v<typename Node::value_type, T>) {
      return assign_lt_epilogue<L, kind>(pol, out, e.node(), e.shape());
    } else if constexpr (!std::is_same_v<typename Node::value_type, T> || !std::is_same_v<typename L::value_type, T> ||
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

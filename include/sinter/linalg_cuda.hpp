#pragma once
/// \file linalg_cuda.hpp
/// The cuda GEMM of linalg.hpp (files compiled by nvcc): cublasSgemm /
/// cublasDgemm for one product, cublas{S,D}gemmStridedBatched for the batch
/// axes that share one uniform stride (broadcast: stride 0), a loop over the
/// others; half and bfloat16 through cublasGemmEx / cublasGemmStridedBatchedEx
/// (16-bit inputs and output, CUBLAS_COMPUTE_32F, float alpha and beta). cuBLAS is column-major: a C whose rows are contiguous is computed
/// as C^T = B^T A^T; operands whose rows or columns are contiguous are read
/// in place (CUBLAS_OP_T and a leading dimension), others copied first by a
/// sinter pass into a pooled array on the policy's stream. One cuBLAS handle
/// per (device, stream), created once, its workspace from sinter's pool.
/// Needs SINTER_HAS_CUBLAS (the CMake target sinter::cublas); without it a
/// use fails to compile with one message naming that target.
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "array.hpp"
#include "core/error.hpp"
#include "core/half.hpp"
#include "core/shape.hpp"
#include "linalg/blas.hpp"
#include "linalg/plan.hpp"
#include "policy/cuda.hpp"
#include "view.hpp"

#if defined(SINTER_HAS_CUBLAS)
#include <cublas_v2.h>
#endif

namespace sinter::detail {

/// Whether sinter was given cuBLAS (the CMake target sinter::cublas).
#if defined(SINTER_HAS_CUBLAS)
inline constexpr bool cublas_linked = true;
#else
inline constexpr bool cublas_linked = false;
#endif
/// cublas_linked, dependent on T: the static_assert fires only where used.
template <class T>
inline constexpr bool cublas_linked_for = cublas_linked && sizeof(T) > 0;

/// One cuBLAS GEMM for C = A B of strided row-major matrices (host code,
/// tested without a GPU). cuBLAS's C is op(first) op(second), m x n.
struct cublas_call {
  bool ok;                         ///< false: C is neither row- nor column-contiguous
  bool swapped;                    ///< first is B, second A (C^T = B^T A^T, C's rows contiguous)
  bool trans_first, trans_second;  ///< CUBLAS_OP_T for the first / second operand
  index_t m, n, k;                 ///< cuBLAS's sizes
  index_t ld_first, ld_second, ldc;
};
/// The call for a and b in BLAS form (blas_form_of(x).ok) and output c.
template <class T>
cublas_call plan_cublas_gemm(const strided_matrix<const T>& a, const strided_matrix<const T>& b,
                             const strided_matrix<T>& c) {
  const blas_form fa = blas_form_of(a), fb = blas_form_of(b);
  const index_t m = c.rows, n = c.cols, k = a.cols;
  const blas_form fc = blas_form_of(c), fct = blas_form_of(strided_matrix<T>{c.p, n, m, c.s1, c.s0});
  // A row-contiguous X lies in memory as the column-major X^T (ld its row stride).
  if (fc.ok && !fc.trans) return {true, true, fb.trans, fa.trans, n, m, k, fb.ld, fa.ld, fc.ld};
  if (fct.ok && !fct.trans) return {true, false, !fa.trans, !fb.trans, m, n, k, fa.ld, fb.ld, fct.ld};
  return {false, false, false, false, m, n, k, 0, 0, 0};
}

/// The batch axes [first, nb) that one strided-batched call covers: the
/// innermost run of axes along which a, b and c (batch strides sa, sb, sc;
/// 0 where broadcast) each advance by one stride; count matrices. Negative
/// strides end the run (one GEMM per matrix there).
struct cublas_batch {
  std::size_t first;
  index_t count, sa, sb, sc;
};
inline cublas_batch cublas_batch_run(std::size_t nb, const index_t* shape, const index_t* sa, const index_t* sb,
                                     const index_t* sc) {
  cublas_batch r{nb, 1, 0, 0, 0};
  bool started = false;
  for (std::size_t i = nb; i-- > 0;) {
    if (shape[i] == 1) {
      r.first = i;
      continue;
    }
    if (!started) {
      if (sa[i] < 0 || sb[i] < 0 || sc[i] <= 0) break;
      r = {i, shape[i], sa[i], sb[i], sc[i]};
      started = true;
    } else if (sa[i] == r.sa * r.count && sb[i] == r.sb * r.count && sc[i] == r.sc * r.count) {
      r.first = i;
      r.count *= shape[i];
    } else {
      break;
    }
  }
  return r;
}

/// The policy of device memory p: its allocation's (device, stream), else
/// the device holding it, else cuda{0} (as an expression's).
inline cuda cublas_policy_of(const void* p) {
  if (const auto owner = cuda_allocations().find(p)) return cuda{owner->device, owner->stream};
  if (const int device = cuda_detail::device_of(p); device >= 0) return cuda{device};
  return cuda{0};
}

/// The element at device pointer p, copied to the host (its stream synchronised).
template <class T>
T cublas_scalar(const T* p) {
  const cuda pol = cublas_policy_of(p);
  T v{};
  cuda_detail::check(cudaMemcpyAsync(&v, p, sizeof(T), cudaMemcpyDeviceToHost, pol.stream), "cudaMemcpyAsync");
  cuda_detail::check(cudaStreamSynchronize(pol.stream), "cudaStreamSynchronize");
  return v;
}

#if defined(SINTER_HAS_CUBLAS)
/// Throw cuda_error "<what>: CUBLAS_STATUS_...: <text>" unless s is success
/// (cuda_error::code then holds the cublasStatus_t).
inline void cublas_check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw cuda_error(std::string(what) + ": " + cublasGetStatusName(s) + ": " + cublasGetStatusString(s),
                     static_cast<int>(s));
}

/// cuBLAS's workspace per handle, from sinter's pool (uncounted by traces).
inline constexpr std::size_t cublas_workspace_bytes = std::size_t{4} << 20;

/// The cuBLAS handle of (device, stream): created once, bound to the stream
/// with a pooled workspace, kept for the process (never destroyed, so it
/// outlives arrays freed during static destruction).
inline cublasHandle_t cublas_handle(const cuda& pol) {
  static std::mutex* mutex = new std::mutex;
  static auto* handles = new std::map<std::pair<int, CUstream_st*>, cublasHandle_t>;
  (void)cuda_detail::props(pol.device);  // device_error with the reason if absent
  cuda_detail::check(cudaSetDevice(pol.device), "cudaSetDevice");
  std::lock_guard<std::mutex> lock(*mutex);
  if (const auto it = handles->find({pol.device, pol.stream}); it != handles->end()) return it->second;
  cublasHandle_t h = nullptr;
  cublas_check(cublasCreate(&h), "cublasCreate");
  try {
    cublas_check(cublasSetStream(h, pol.stream), "cublasSetStream");
    void* ws = backend<cuda>::allocate_uncounted(pol, cublas_workspace_bytes);
    cublas_check(cublasSetWorkspace(h, ws, cublas_workspace_bytes), "cublasSetWorkspace");
  } catch (...) {
    (void)cublasDestroy(h);
    throw;
  }
  handles->emplace(std::pair<int, CUstream_st*>{pol.device, pol.stream}, h);
  return h;
}

/// cuBLAS's data type of a 16-bit element: CUDA_R_16F (half), CUDA_R_16BF (bfloat16).
template <class T>
inline constexpr cudaDataType_t cublas_data_type = std::is_same_v<T, half> ? CUDA_R_16F : CUDA_R_16BF;

/// The arguments of one cublasGemmEx (count 1) or cublasGemmStridedBatchedEx
/// call of 16-bit operands (host code, tested without a GPU).
struct cublas_ex_args {
  cublasOperation_t op_first, op_second;
  int m, n, k;
  float alpha, beta;  ///< CUBLAS_COMPUTE_32F takes float scalars
  const void* first;
  cudaDataType_t type_first;
  int ld_first;
  long long stride_first;
  const void* second;
  cudaDataType_t type_second;
  int ld_second;
  long long stride_second;
  void* out;
  cudaDataType_t type_out;
  int ldc;
  long long stride_out;
  int count;
  cublasComputeType_t compute;  ///< CUBLAS_COMPUTE_32F: products summed in float
};
/// cublas_ex_args for cublas_call c on half or bfloat16 memory.
template <class T>
cublas_ex_args cublas_ex_of(const cublas_call& c, const T* first, const T* second, T* out, T alpha, T beta,
                            index_t count, index_t s_first, index_t s_second, index_t s_out) {
  static_assert(is_half_like_v<T>, "cublas_ex_of: half or bfloat16 only");
  const auto op = [](bool t) { return t ? CUBLAS_OP_T : CUBLAS_OP_N; };
  constexpr cudaDataType_t dt = cublas_data_type<T>;
  return {op(c.trans_first), op(c.trans_second), blas_int(c.m), blas_int(c.n), blas_int(c.k),
          static_cast<float>(alpha), static_cast<float>(beta), first, dt, blas_int(c.ld_first), s_first, second, dt,
          blas_int(c.ld_second), s_second, out, dt, blas_int(c.ldc), s_out, blas_int(count), CUBLAS_COMPUTE_32F};
}
/// Runs x on handle h: cublasGemmEx, or cublasGemmStridedBatchedEx for count > 1.
inline void cublas_ex_run(cublasHandle_t h, const cublas_ex_args& x) {
  if (x.count == 1)
    cublas_check(cublasGemmEx(h, x.op_first, x.op_second, x.m, x.n, x.k, &x.alpha, x.first, x.type_first, x.ld_first,
                              x.second, x.type_second, x.ld_second, &x.beta, x.out, x.type_out, x.ldc, x.compute,
                              CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx");
  else
    cublas_check(cublasGemmStridedBatchedEx(h, x.op_first, x.op_second, x.m, x.n, x.k, &x.alpha, x.first,
                                            x.type_first, x.ld_first, x.stride_first, x.second, x.type_second,
                                            x.ld_second, x.stride_second, &x.beta, x.out, x.type_out, x.ldc,
                                            x.stride_out, x.count, x.compute, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmStridedBatchedEx");
}

/// One cublas{S,D}gemm (count 1) or its strided-batched form; half and
/// bfloat16: cublasGemmEx or cublasGemmStridedBatchedEx.
template <class T>
void cublas_gemm_call(cublasHandle_t h, const cublas_call& c, const T* first, const T* second, T* out, T alpha,
                      T beta, index_t count, index_t s_first, index_t s_second, index_t s_out) {
  if constexpr (is_half_like_v<T>) {
    cublas_ex_run(h, cublas_ex_of<T>(c, first, second, out, alpha, beta, count, s_first, s_second, s_out));
  } else {
    const auto op = [](bool t) { return t ? CUBLAS_OP_T : CUBLAS_OP_N; };
    const int m = blas_int(c.m), n = blas_int(c.n), k = blas_int(c.k);
    const int l1 = blas_int(c.ld_first), l2 = blas_int(c.ld_second), lc = blas_int(c.ldc);
    if (count == 1) {
      if constexpr (std::is_same_v<T, float>)
        cublas_check(cublasSgemm(h, op(c.trans_first), op(c.trans_second), m, n, k, &alpha, first, l1, second, l2,
                                 &beta, out, lc),
                     "cublasSgemm");
      else
        cublas_check(cublasDgemm(h, op(c.trans_first), op(c.trans_second), m, n, k, &alpha, first, l1, second, l2,
                                 &beta, out, lc),
                     "cublasDgemm");
      return;
    }
    const auto ll = [](index_t v) { return static_cast<long long>(v); };
    if constexpr (std::is_same_v<T, float>)
      cublas_check(cublasSgemmStridedBatched(h, op(c.trans_first), op(c.trans_second), m, n, k, &alpha, first, l1,
                                             ll(s_first), second, l2, ll(s_second), &beta, out, lc, ll(s_out),
                                             blas_int(count)),
                   "cublasSgemmStridedBatched");
    else
      cublas_check(cublasDgemmStridedBatched(h, op(c.trans_first), op(c.trans_second), m, n, k, &alpha, first, l1,
                                             ll(s_first), second, l2, ll(s_second), &beta, out, lc, ll(s_out),
                                             blas_int(count)),
                   "cublasDgemmStridedBatched");
  }
}

#endif

/// The cuBLAS calls of out = a @ b (a and b in BLAS form, out's matrices
/// row- or column-contiguous): gemm(call, first, second, out, count,
/// stride_first, stride_second, stride_out) once per run of the batch
/// (host code: the tests pass a column-major loop). Returns the calls.
template <class T, class Gemm>
index_t cublas_batched(const linalg_operand<T>& a, const linalg_operand<T>& b, const linalg_output<T>& out,
                       Gemm&& gemm) {
  const std::size_t ba = a.rank > 2 ? a.rank - 2 : 0, bb = b.rank > 2 ? b.rank - 2 : 0;
  const std::size_t nb = ba > bb ? ba : bb, ro = out.rank;
  const index_t m = a.rank >= 2 ? a.shape[a.rank - 2] : 1, n = b.rank >= 2 ? b.shape[b.rank - 1] : 1;
  const index_t cs0 = a.rank >= 2 ? out.strides[ro - (b.rank >= 2 ? 2 : 1)] : 0;
  const index_t cs1 = b.rank >= 2 ? out.strides[ro - 1] : 0;
  std::vector<index_t> sa(nb, 0), sb(nb, 0), sc(nb, 0);
  for (std::size_t i = 0; i < nb; ++i) {
    if (i + ba >= nb && a.shape[i + ba - nb] != 1) sa[i] = a.strides[i + ba - nb];
    if (i + bb >= nb && b.shape[i + bb - nb] != 1) sb[i] = b.strides[i + bb - nb];
    sc[i] = out.strides[i];
  }
  const cublas_call call = plan_cublas_gemm(matrix_at(a, true, 0), matrix_at(b, false, 0),
                                            strided_matrix<T>{out.p, m, n, cs0, cs1});
  const cublas_batch run = cublas_batch_run(nb, out.shape, sa.data(), sb.data(), sc.data());
  index_t outer = 1;
  for (std::size_t i = 0; i < run.first; ++i) outer *= out.shape[i];
  std::vector<index_t> idx(run.first, 0);
  for (index_t c = 0; c < outer; ++c) {
    index_t oa = 0, ob = 0, oc = 0;
    for (std::size_t i = 0; i < run.first; ++i) oa += idx[i] * sa[i], ob += idx[i] * sb[i], oc += idx[i] * sc[i];
    const T *pa = a.p + oa, *pb = b.p + ob;
    gemm(call, call.swapped ? pb : pa, call.swapped ? pa : pb, out.p + oc, run.count, call.swapped ? run.sb : run.sa,
         call.swapped ? run.sa : run.sb, run.sc);
    for (std::size_t i = run.first; i-- > 0;) {
      if (++idx[i] < out.shape[i]) break;
      idx[i] = 0;
    }
  }
  return outer;
}

#if defined(SINTER_HAS_CUBLAS)
/// cublas_batched on cuBLAS: out = alpha * a @ b + beta * out, k > 0.
template <class T>
index_t cublas_batched(cublasHandle_t h, const linalg_operand<T>& a, const linalg_operand<T>& b,
                       const linalg_output<T>& out, T alpha, T beta) {
  return cublas_batched<T>(a, b, out, [&](const cublas_call& c, const T* f, const T* s, T* o, index_t count,
                                          index_t sf, index_t ss, index_t so) {
    cublas_gemm_call<T>(h, c, f, s, o, alpha, beta, count, sf, ss, so);
  });
}
#endif

/// x as memory cuBLAS reads in place: itself, or a contiguous pooled copy
/// (a sinter pass on pol's stream) when its matrices have neither rows nor
/// columns contiguous. `keep` holds the copy.
template <class T, std::size_t R>
const T* cublas_ready(const T* p, extents<R>& shape, extents<R>& strides, bool first, const cuda& pol,
                      std::shared_ptr<const void>& keep) {
  if (blas_form_of(matrix_at(linalg_operand<T>{p, R, shape.data(), strides.data()}, first, 0)).ok) return p;
  auto copy = std::make_shared<array<T, R, cuda>>(shape, pol);
  *copy = view<const T, R, cuda>(p, shape, strides, pol);
  strides = copy->strides();
  keep = copy;
  return copy->data();
}

/// matmul_run's cuda path: out = alpha * a @ b + beta * out, RO the
/// result's rank; on a's policy (device, stream). Returns the cuBLAS calls.
template <class T, std::size_t RO, std::size_t RA, std::size_t RB>
index_t cublas_matmul(const T* pa, extents<RA> sha, extents<RA> sta, const T* pb, extents<RB> shb, extents<RB> stb,
                      const linalg_output<T>& out, T alpha, T beta) {
  static_assert(cublas_linked_for<T>,
                "sinter: matmul on sinter::cuda needs cuBLAS; link the CMake target sinter::cublas "
                "(it defines SINTER_HAS_CUBLAS and links CUDA::cublas)");
  extents<RO> osh{}, ost{};
  for (std::size_t i = 0; i < RO; ++i) osh[i] = out.shape[i], ost[i] = out.strides[i];
  if (out.size() == 0) return 0;
  const cuda pol = cublas_policy_of(pa);
  const index_t k = sha[RA - 1];
  if (k == 0) {  // no products: out = beta * out
    if constexpr (RO == 0) {
      cuda_detail::check(cudaMemsetAsync(out.p, 0, sizeof(T), pol.stream), "cudaMemsetAsync");
    } else {
      view<T, RO, cuda> v(out.p, osh, ost, pol);
      if (beta == T(0)) v = T(0);
      else v = v * beta;
    }
    return 0;
  }
  std::shared_ptr<const void> ka, kb;
  pa = cublas_ready(pa, sha, sta, true, pol, ka);
  pb = cublas_ready(pb, shb, stb, false, pol, kb);
  const linalg_operand<T> a{pa, RA, sha.data(), sta.data()}, b{pb, RB, shb.data(), stb.data()};
  const index_t m = RA >= 2 ? sha[RA - 2] : 1, n = RB >= 2 ? shb[RB - 1] : 1;
  const std::size_t ro = RO;
  const index_t cs0 = RA >= 2 ? ost[ro - (RB >= 2 ? 2 : 1)] : 0, cs1 = RB >= 2 ? ost[ro - 1] : 0;
  const strided_matrix<const T> ma = matrix_at(a, true, 0), mb = matrix_at(b, false, 0);
#if defined(SINTER_HAS_CUBLAS)
  const cublasHandle_t h = cublas_handle(pol);
  if constexpr (RO > 0) {
    if (!plan_cublas_gemm(ma, mb, strided_matrix<T>{out.p, m, n, cs0, cs1}).ok) {
      // Neither rows nor columns of C contiguous: through a contiguous copy.
      view<T, RO, cuda> c(out.p, osh, ost, pol);
      array<T, RO, cuda> tmp(osh, pol);
      if (beta != T(0)) tmp = c;
      const extents<RO> tst = tmp.strides();
      const index_t calls = cublas_batched<T>(h, a, b, {tmp.data(), RO, osh.data(), tst.data()}, alpha, beta);
      c = tmp;
      return calls;
    }
  }
  return cublas_batched<T>(h, a, b, out, alpha, beta);
#else
  (void)ma, (void)mb, (void)m, (void)n, (void)cs0, (void)cs1, (void)alpha, (void)beta;
  return 0;
#endif
}

/// tensordot's cuda path: each operand copied once (a sinter pass, skipped
/// when already contiguous in that order) with its contracted axes last (a)
/// or first (b), then one GEMM into the contiguous out (m x n, sum over k).
template <class T, class MA, class MB>
void cublas_tensordot(const MA& ma, const MB& mb, const std::vector<std::size_t>& perm_a,
                      const std::vector<std::size_t>& perm_b, index_t m, index_t n, index_t k, T* out) {
  static_assert(cublas_linked_for<T>,
                "sinter: tensordot on sinter::cuda needs cuBLAS; link the CMake target sinter::cublas "
                "(it defines SINTER_HAS_CUBLAS and links CUDA::cublas)");
  const cuda pol = cublas_policy_of(ma.p);
  const auto ordered = [&](const auto& x, const std::vector<std::size_t>& perm, std::shared_ptr<const void>& keep) {
    auto sh = x.shape, st = x.strides;
    for (std::size_t i = 0; i < sh.size(); ++i) sh[i] = x.shape[perm[i]], st[i] = x.strides[perm[i]];
    if (is_row_major(sh, st)) return x.p;
    using A = array<T, std::tuple_size_v<decltype(sh)>, cuda>;
    auto copy = std::make_shared<A>(sh, pol);
    *copy = view<const T, std::tuple_size_v<decltype(sh)>, cuda>(x.p, sh, st, pol);
    keep = copy;
    return static_cast<const T*>(copy->data());
  };
  if (m == 0 || n == 0) return;
  if (k == 0) {
    cuda_detail::check(cudaMemsetAsync(out, 0, static_cast<std::size_t>(m * n) * sizeof(T), pol.stream),
                       "cudaMemsetAsync");
    return;
  }
  std::shared_ptr<const void> ka, kb;
  const T* pa = ordered(ma, perm_a, ka);
  const T* pb = ordered(mb, perm_b, kb);
#if defined(SINTER_HAS_CUBLAS)
  const cublas_call c = plan_cublas_gemm(strided_matrix<const T>{pa, m, k, k, 1}, strided_matrix<const T>{pb, k, n, n, 1},
                                         strided_matrix<T>{out, m, n, n, 1});
  cublas_gemm_call<T>(cublas_handle(pol), c, c.swapped ? pb : pa, c.swapped ? pa : pb, out, T(1), T(0), 1, 0, 0, 0);
#else
  (void)pa, (void)pb;
#endif
}

}  // namespace sinter::detail

#pragma once
/// \file error.hpp
/// sinter::cuda_error and the check every CUDA runtime call goes through.
#include <string>

#include "../../config.hpp"
#include "../../core/error.hpp"

#if SINTER_HAS_CUDA()
#include <cuda_runtime.h>
#endif

namespace sinter {

/// A CUDA runtime call or kernel launch failed; what() has CUDA's error name and text:
/// "cudaMemcpyAsync: cudaErrorInvalidValue: invalid argument".
struct cuda_error : device_error {
  int code;  ///< the cudaError_t value
  cuda_error(const std::string& what, int c) : device_error(what), code(c) {}
};

#if SINTER_HAS_CUDA()
namespace detail::cuda_detail {
/// Throw cuda_error unless `e` is cudaSuccess; `what` names the call.
inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky error of a non-fatal failure
    throw cuda_error(std::string(what) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e),
                     static_cast<int>(e));
  }
}
}  // namespace detail::cuda_detail
#endif

}  // namespace sinter

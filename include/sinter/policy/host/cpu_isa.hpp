#pragma once
/// \file policy/host/cpu_isa.hpp
/// The instruction set the host's dispatched maths run at: the CPU's level
/// (CPUID, and xgetbv for the registers the OS saves), read once, lowered by
/// the environment variable SINTER_ISA=sse2|avx2|avx512 (for tests and
/// comparisons, never raised), and the macro SINTER_CPU_DISPATCH that turns
/// run-time dispatch on (policy/host/dispatch.hpp).
#include <cstdlib>
#include <cstring>

#include "../../config.hpp"

/// SINTER_CPU_DISPATCH is 1 where host passes that call the maths kernels
/// (exp, log, tanh, erf, sin, ...) run them at the width of the CPU they run
/// on, chosen at run time: GCC or Clang on x86-64 host code built below
/// AVX2 + FMA (with -march at or above x86-64-v3 the passes are full width
/// already), when optimising (at -O0 the double kernels stay out of line, at
/// the build's ISA). Define it to 0 before including sinter to keep the
/// build's width.
#ifndef SINTER_CPU_DISPATCH
#if defined(__GNUC__) && !defined(__INTEL_LLVM_COMPILER) && defined(__x86_64__) && !defined(__CUDA_ARCH__) && \
    !defined(__CUDACC__) && !(defined(__AVX2__) && defined(__FMA__)) && !defined(__AVX512F__) &&              \
    defined(__OPTIMIZE__)
#define SINTER_CPU_DISPATCH 1
#else
#define SINTER_CPU_DISPATCH 0
#endif
#endif

/// Whether dispatch covers the lane kernels (exp, log, erf, ...) besides the
/// trigonometric functions: GCC only. Clang checks a builtin's ISA in the
/// function that writes it, and the lanes are the build's functions.
#if SINTER_CPU_DISPATCH && !defined(__clang__)
#define SINTER_DETAIL_DISPATCH_LANES 1
#else
#define SINTER_DETAIL_DISPATCH_LANES 0
#endif

#if SINTER_CPU_DISPATCH
#include <cpuid.h>
#endif

namespace sinter::detail {

/// An x86-64 instruction-set level of the dispatched maths.
enum class isa_level : int {
  sse2 = 0,    ///< baseline x86-64 (the build's own loops)
  avx2 = 1,    ///< AVX2 + FMA (x86-64-v3)
  avx512 = 2,  ///< AVX-512 F, DQ, BW, VL (x86-64-v4)
};

/// The level's name, as SINTER_ISA spells it.
inline const char* isa_name(isa_level l) noexcept {
  return l == isa_level::avx512 ? "avx512" : l == isa_level::avx2 ? "avx2" : "sse2";
}

#if SINTER_CPU_DISPATCH
/// The highest level this CPU and its OS run (CPUID leaf 7 and 1, XCR0).
inline isa_level detect_isa() noexcept {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return isa_level::sse2;
  const bool fma = c & (1u << 12), osxsave = c & (1u << 27), avx = c & (1u << 28);
  if (!(osxsave && avx && fma)) return isa_level::sse2;
  unsigned lo = 0, hi = 0;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 0x6u) != 0x6u) return isa_level::sse2;  // XMM and YMM state saved
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return isa_level::sse2;
  if (!(b & (1u << 5))) return isa_level::sse2;  // AVX2
  const bool v4 = (b & (1u << 16)) && (b & (1u << 17)) && (b & (1u << 30)) && (b & (1u << 31));  // F DQ BW VL
  return v4 && (lo & 0xe0u) == 0xe0u ? isa_level::avx512 : isa_level::avx2;  // opmask, ZMM state
}
#else
/// Without dispatch: the level the build itself targets.
inline isa_level detect_isa() noexcept {
#if defined(__AVX512F__) && defined(__AVX512DQ__) && defined(__AVX512BW__) && defined(__AVX512VL__)
  return isa_level::avx512;
#elif defined(__AVX2__) && defined(__FMA__)
  return isa_level::avx2;
#else
  return isa_level::sse2;
#endif
}
#endif

/// The detected level lowered to SINTER_ISA's, if that names a lower one.
inline isa_level isa_from_env(isa_level detected, const char* env) noexcept {
  if (!env) return detected;
  isa_level want = detected;
  if (std::strcmp(env, "sse2") == 0) want = isa_level::sse2;
  else if (std::strcmp(env, "avx2") == 0) want = isa_level::avx2;
  else if (std::strcmp(env, "avx512") == 0) want = isa_level::avx512;
  return static_cast<int>(want) < static_cast<int>(detected) ? want : detected;
}

/// The level the host's maths run at, decided once (CPUID, SINTER_ISA).
inline isa_level host_isa() noexcept {
  static const isa_level l = isa_from_env(detect_isa(), std::getenv("SINTER_ISA"));
  return l;
}

}  // namespace sinter::detail

namespace sinter {
/// The instruction set host maths run at: "avx512", "avx2" or "sse2"
/// (dispatched at run time where SINTER_CPU_DISPATCH is 1, else the build's).
inline const char* host_isa_name() noexcept { return detail::isa_name(detail::host_isa()); }
/// Whether host maths are dispatched at run time (SINTER_CPU_DISPATCH).
inline constexpr bool cpu_dispatch = SINTER_CPU_DISPATCH != 0;
}  // namespace sinter

#pragma once
/// \file config.hpp
/// Version, the host/device function marker and feature tests. Every macro
/// starts with SINTER_; none of them changes a type.

#define SINTER_VERSION_MAJOR 0
#define SINTER_VERSION_MINOR 1
#define SINTER_VERSION_PATCH 0

/// SINTER_HD marks a function callable on the host and, under nvcc, on the device.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define SINTER_HD __host__ __device__
#define SINTER_HAS_CUDA() 1
#else
#define SINTER_HD
#define SINTER_HAS_CUDA() 0
#endif

/// SINTER_DEVICE_CODE() is 1 while nvcc compiles the device side of a translation unit.
#if defined(__CUDA_ARCH__)
#define SINTER_DEVICE_CODE() 1
#else
#define SINTER_DEVICE_CODE() 0
#endif

/// SINTER_FORCEINLINE forces inlining into the fused loop, so that the
/// compiler sees the whole expression and can vectorise it. Unoptimised host
/// builds (-O0: Debug, sanitizer builds) get plain `inline`: forcing every
/// op and maths body into every loop there buys no speed and made one test
/// file compile far slower under -fsanitize=address,undefined
/// (docs/journal/code-notes.md#forceinline-sanitizers).
/// Define it before including sinter to choose otherwise: `inline` in an
/// optimised build that needs short compiles more than speed (GCC's -Og
/// cannot be told from -O1 by a macro). sinter's -Og test binaries do so:
/// every loop path of an expression then calls one copy of each op instead
/// of holding its own (tests/CMakeLists.txt): about half the compile time
/// for a slightly slower run (docs/journal/code-notes.md#forceinline-og).
#if defined(SINTER_FORCEINLINE)
// the including code's choice
#elif defined(_MSC_VER) && !defined(__clang__)
#define SINTER_FORCEINLINE __forceinline
#elif defined(__CUDA_ARCH__) || defined(__OPTIMIZE__)
#define SINTER_FORCEINLINE inline __attribute__((always_inline))
#else
#define SINTER_FORCEINLINE inline
#endif

/// SINTER_NOINLINE keeps a host helper out of line where inlining it made
/// the compiler's code worse (reduce/host_engine.hpp, fold_leaf) or where it is a cold
/// path (core/shape.hpp, the error of broadcast_shapes).
#if defined(_MSC_VER) && !defined(__clang__)
#define SINTER_NOINLINE inline __declspec(noinline)
#else
#define SINTER_NOINLINE inline __attribute__((noinline))
#endif

/// SINTER_COLD marks a host path taken rarely (the trace's record of a
/// pass): GCC and Clang optimise it for size and move it out of the hot code,
/// which also makes its per-expression copies cheaper to compile.
#if defined(__GNUC__) || defined(__clang__)
#define SINTER_COLD __attribute__((cold))
#else
#define SINTER_COLD
#endif

/// SINTER_WIDE_VECTORS lets GCC's vectoriser use 512-bit vectors in one host
/// function when the build targets AVX-512 and is tuned for a CPU that GCC
/// gives 256-bit vectors by default: Intel's AVX-512 cores, Skylake-X to
/// Sapphire Rapids (-march=native on those, or -mtune=...; checked on GCC
/// 12 by compiling a loop for each tuning). A loop it vectorises then uses
/// half the registers' width, where Eigen's intrinsics use all of it
/// (reduce/host_engine.hpp, pairwise). Empty for every other tuning, which
/// vectorises at 512 bits already (-march=x86-64-v4, znver3 tuning): there
/// the separate out-of-line loops cost time and gain nothing
/// (docs/journal/code-notes.md#wide-vectors). Also empty for other compilers, nvcc and
/// builds without AVX-512F. It is a tuning choice, not an ISA one: the
/// function still inlines what it calls. SINTER_HAS_WIDE_VECTORS is 1 where
/// it is not empty.
#if defined(__tune_skylake_avx512__) || defined(__tune_cannonlake__) || defined(__tune_icelake_client__) || \
    defined(__tune_icelake_server__) || defined(__tune_cascadelake__) || defined(__tune_cooperlake__) ||     \
    defined(__tune_tigerlake__) || defined(__tune_rocketlake__) || defined(__tune_sapphirerapids__) ||       \
    defined(__tune_graniterapids__) || defined(__tune_graniterapids_d__)
#define SINTER_TUNED_FOR_256 1
#else
#define SINTER_TUNED_FOR_256 0
#endif
#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_LLVM_COMPILER) && !defined(__CUDACC__) && \
    defined(__AVX512F__) && defined(__OPTIMIZE__) && SINTER_TUNED_FOR_256
#define SINTER_WIDE_VECTORS __attribute__((target("prefer-vector-width=512")))
#define SINTER_HAS_WIDE_VECTORS 1
#else
#define SINTER_WIDE_VECTORS
#define SINTER_HAS_WIDE_VECTORS 0
#endif

/// SINTER_MATH_FN declares the public float/double transcendental functions
/// (core/math: exp, log, sin, tanh, pow, erf...). With GCC on the host they
/// are `inline` with SIMD clones (`__attribute__((simd("notinbranch")))`)
/// and `const` (no memory effects, which the vectoriser must see): a
/// vectorised loop calls the clone for its vector width, or inlines the body
/// where GCC finds it small. A long chain of them thus compiles each body
/// once per translation unit, not once per fused loop, and still vectorises
/// (forcing the bodies into every loop made tests/top/test_fusion.cpp, 40
/// chains, compile several times slower; docs/journal/code-notes.md#math-fn-clones).
/// Outside nvcc they are also `static`: GCC then clones them for the build's
/// ISA only, not for all four of the x86-64 vector ABI, and each file calls
/// its own copy (docs/journal/2026-12-05-compile-time.md).
/// Elsewhere (device code, Clang, MSVC)
/// they are forced inline; in unoptimised host builds, plain `inline`.
#if !defined(__CUDA_ARCH__) && !defined(__OPTIMIZE__) && !defined(_MSC_VER)
#define SINTER_MATH_FN inline
#elif !defined(__CUDA_ARCH__) && defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_LLVM_COMPILER) && \
    !defined(__CUDACC__)
#define SINTER_MATH_FN static inline __attribute__((simd("notinbranch"), const))
#elif !defined(__CUDA_ARCH__) && defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_LLVM_COMPILER)
#define SINTER_MATH_FN inline __attribute__((simd("notinbranch"), const))
#else
#define SINTER_MATH_FN SINTER_FORCEINLINE
#endif

namespace sinter {
/// The library version, as {major, minor, patch}.
struct version_info {
  int major, minor, patch;
};
/// The version of these headers: `sinter::version.major`.
inline constexpr version_info version{SINTER_VERSION_MAJOR, SINTER_VERSION_MINOR,
                                      SINTER_VERSION_PATCH};
}  // namespace sinter

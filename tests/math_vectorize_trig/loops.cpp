// One loop per function and type. check.sh compiles this file with
// -O3 -fopt-info-vec-optimized and requires GCC to report every loop
// vectorised; the trailing `// loop: <name>` marker names each loop's line.
#include <sinter/core/math/trig.hpp>

namespace sm = sinter::detail::math;

void sin_float(float* __restrict o, const float* __restrict a, int n) {
  for (int i = 0; i < n; ++i) o[i] = sm::sin(a[i]);  // loop: sin(float)
}

void cos_float(float* __restrict o, const float* __restrict a, int n) {
  for (int i = 0; i < n; ++i) o[i] = sm::cos(a[i]);  // loop: cos(float)
}

void tan_float(float* __restrict o, const float* __restrict a, int n) {
  for (int i = 0; i < n; ++i) o[i] = sm::tan(a[i]);  // loop: tan(float)
}

void asin_float(float* __restrict o, const float* __restrict a, int n) {
  for (int i = 0; i < n; ++i) o[i] = sm::asin(a[i]);  // loop: asin(float)
}

void acos_float(float* __restrict o, const float* __restrict a, int n) {
  for (int i = 0; i < n; ++i) o[i] = sm::acos(a[i]);  // loop: acos(float)
}

void atan_float(float* __restrict o, const float* __restrict a, int n) {
  for (int i = 0; i < n; ++i) o[i] = sm::atan(a[i]);  // loop: atan(float)
}

void atan2_float(float* __restrict o, const float* __restrict a, const float* __restrict b, int n) {
  for (int i = 0; i < n; ++i) o[i] = sm::atan2(a[i], b[i]);  // loop: atan2(float)
}

void hypot_float(float* __restrict o, const float* __restrict a, const float* __restrict b, int n) {
  for (int i = 0; i < n; ++i) o[i] = sm::hypot(a[i], b[i]);  // loop: hypot(float)
}

void sin_double(double* __restrict o, const double* __restrict a, int n) {
  for (int i = 0; i < n; ++i) o[i] = sm::sin(a[i]);  // loop: sin(double)
}

void cos_double(double* __restrict o, const double* __restrict a, int n) {
  for (int i = 0; i < n; ++i) o[i] = sm::cos(a[i]);  // loop: cos(double)
}

void tan_double(double* __restrict o, const double* __restrict a, int n) {
  for (int i = 0; i < n; ++i) o[i] = sm::tan(a[i]);  // loop: tan(double)
}

void asin_double(double* __restrict o, const double* __restrict a, int n) {
  for (int i = 0; i < n; ++i) o[i] = sm::asin(a[i]);  // loop: asin(double)
}

void acos_double(double* __restrict o, const double* __restrict a, int n) {
  for (int i = 0; i < n; ++i) o[i] = sm::acos(a[i]);  // loop: acos(double)
}

void atan_double(double* __restrict o, const double* __restrict a, int n) {
  for (int i = 0; i < n; ++i) o[i] = sm::atan(a[i]);  // loop: atan(double)
}

void atan2_double(double* __restrict o, const double* __restrict a, const double* __restrict b, int n) {
  for (int i = 0; i < n; ++i) o[i] = sm::atan2(a[i], b[i]);  // loop: atan2(double)
}

void hypot_double(double* __restrict o, const double* __restrict a, const double* __restrict b, int n) {
  for (int i = 0; i < n; ++i) o[i] = sm::hypot(a[i], b[i]);  // loop: hypot(double)
}

// Probes for check.sh: one conversion loop each, compiled alone (-DPROBE_<name>).
// bulk_*: core/half.hpp's to_float_n / from_float_n, which must vectorise at
// -O2 and -O3 without -march (SSE2) and with it; plain_*: a loop over the
// scalar conversion, as the expression engine writes one, at -O3.
#include <sinter/core/half.hpp>

#include <cstddef>

namespace sd = sinter::detail;
using sinter::bfloat16;
using f16 = sinter::half;

#if defined(PROBE_bulk_to_float_half)
void probe(const f16* s, std::ptrdiff_t n, float* d) { sd::to_float_n(s, n, d); }
#elif defined(PROBE_bulk_from_float_half)
void probe(const float* s, std::ptrdiff_t n, f16* d) { sd::from_float_n(s, n, d); }
#elif defined(PROBE_bulk_to_float_bfloat16)
void probe(const bfloat16* s, std::ptrdiff_t n, float* d) { sd::to_float_n(s, n, d); }
#elif defined(PROBE_bulk_from_float_bfloat16)
void probe(const float* s, std::ptrdiff_t n, bfloat16* d) { sd::from_float_n(s, n, d); }
#elif defined(PROBE_plain_to_float_half)
void probe(const f16* __restrict s, std::ptrdiff_t n, float* __restrict d) {
  for (std::ptrdiff_t i = 0; i < n; ++i) d[i] = static_cast<float>(s[i]);
}
#elif defined(PROBE_plain_from_float_half)
void probe(const float* __restrict s, std::ptrdiff_t n, f16* __restrict d) {
  for (std::ptrdiff_t i = 0; i < n; ++i) d[i] = f16(s[i]);
}
#elif defined(PROBE_plain_to_float_bfloat16)
void probe(const bfloat16* __restrict s, std::ptrdiff_t n, float* __restrict d) {
  for (std::ptrdiff_t i = 0; i < n; ++i) d[i] = static_cast<float>(s[i]);
}
#elif defined(PROBE_plain_from_float_bfloat16)
void probe(const float* __restrict s, std::ptrdiff_t n, bfloat16* __restrict d) {
  for (std::ptrdiff_t i = 0; i < n; ++i) d[i] = bfloat16(s[i]);
}
#else
#error "define one PROBE_<name>"
#endif

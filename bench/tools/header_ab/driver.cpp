// header_ab's driver (see run.sh): for each size and kernel, 400 rounds of
// 10 batches of version A then 10 of version B, interleaved so that the
// machine's slow phases hit both alike; prints the minimum ns per call of
// each and B / A. Environment: HAB_KERNELS, the kernels to run by number
// (comma-separated, default all), HAB_ROUNDS (default 400).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

double run_A(int k, long n, int reps);
double run_B(int k, long n, int reps);

int main(int argc, char** argv) {
  const char* names[] = {"add32", "add64", "triad32", "triad64", "chain32", "dot32", "dot64", "tanh32", "bs32",
                         "bs64",  "tanh64", "exp32", "exp64", "tr32w", "tr32n", "col32w", "col32n", "rev32",
                         "tr64w", "col64w", "trout32", "step2_32", "trboth32", "rowb32n", "rowb32w", "mat32", "rowb64w"};
  constexpr int K = 27;
  std::vector<long> sizes = {100, 1000, 1024, 1031, 4096};
  if (argc > 1) {
    sizes.clear();
    for (int i = 1; i < argc; ++i) sizes.push_back(std::atol(argv[i]));
  }
  std::vector<int> kernels;
  if (const char* ks = std::getenv("HAB_KERNELS")) {
    for (const char* p = ks; *p;) {
      kernels.push_back(std::atoi(p));
      while (*p && *p != ',') ++p;
      if (*p == ',') ++p;
    }
  } else {
    for (int k = 0; k < K; ++k) kernels.push_back(k);
  }
  const int rounds = std::getenv("HAB_ROUNDS") ? std::atoi(std::getenv("HAB_ROUNDS")) : 400;
  const std::size_t S = sizes.size();
  std::vector<double> A(S * K, 1e30), B(S * K, 1e30);
  for (int round = 0; round < rounds; ++round)
    for (std::size_t s = 0; s < S; ++s)
      for (int k : kernels) {
        const long n = sizes[s];
        const int reps = n < 10000 ? 50 : 5;
        for (int i = 0; i < 10; ++i) {
          A[s * K + k] = std::min(A[s * K + k], run_A(k, n, reps));
          B[s * K + k] = std::min(B[s * K + k], run_B(k, n, reps));
        }
      }
  for (std::size_t s = 0; s < S; ++s) {
    std::printf("%6ld", sizes[s]);
    for (int k : kernels)
      std::printf("  %s %7.1f %7.1f (%4.2f)", names[k], A[s * K + k], B[s * K + k], B[s * K + k] / A[s * K + k]);
    std::printf("\n");
  }
}

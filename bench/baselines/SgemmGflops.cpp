//===- SgemmGflops.cpp - Machine sgemm throughput -------------------------===//
//
// The attainable f32 GEMM rate on this machine, used to put attention
// timings in perspective.
//
//===----------------------------------------------------------------------===//

#include "attic/bench/Baselines.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <vector>

double attic::bench::sgemmGflops(int64_t n, int repeats) {
  if (n <= 0 || repeats <= 0)
    return 0.0;
  size_t elems = static_cast<size_t>(n * n);
  std::vector<float> a(elems), b(elems), c(elems);
  for (size_t i = 0; i < elems; ++i) {
    a[i] = static_cast<float>(i % 7) * 0.125f;
    b[i] = static_cast<float>(i % 5) * 0.25f;
  }
  auto runOnce = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                a.data(), n, b.data(), n, 0.0f, c.data(), n);
  };
  // The first call pays for thread start-up and page faults.
  runOnce();

  std::vector<double> seconds;
  for (int r = 0; r < repeats; ++r) {
    auto start = std::chrono::steady_clock::now();
    runOnce();
    auto stop = std::chrono::steady_clock::now();
    seconds.push_back(std::chrono::duration<double>(stop - start).count());
  }
  std::sort(seconds.begin(), seconds.end());
  double median = repeats % 2 ? seconds[repeats / 2]
                              : 0.5 * (seconds[repeats / 2 - 1] +
                                       seconds[repeats / 2]);
  double flops = 2.0 * static_cast<double>(n) * n * n;
  return flops / std::max(median, 1e-12) / 1e9;
}

//===- attic-cuda-info.cpp - Is there a CUDA device attic can use? --------===//
//
//   attic-cuda-info
//
// Prints the CUDA device that attic's runtime would use (device 0: name,
// compute capability, multiprocessors, memory, driver version) and exits 0,
// or prints why there is none ("no NVIDIA driver: ...", "no CUDA device:
// ...") and exits 1. Needs only the runtime, so it can be copied alone to a
// machine to check it; the lit configuration runs it to decide whether the
// tests that need a GPU run.
//
//===----------------------------------------------------------------------===//

#include "attic/runtime/Cuda.h"

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  if (argc == 2 && (std::strcmp(argv[1], "--help") == 0 ||
                    std::strcmp(argv[1], "-h") == 0)) {
    std::printf("usage: %s (no arguments; ATTIC_CUDA_DRIVER selects the "
                "driver library)\nPrints device 0 (name, compute capability, "
                "multiprocessors, memory, driver), or why\nthere is none "
                "(exit status 1).\n",
                argv[0]);
    return 0;
  }
  if (argc > 1) {
    std::fprintf(stderr, "usage: %s (no arguments; ATTIC_CUDA_DRIVER selects "
                         "the driver library)\n",
                 argv[0]);
    return 2;
  }
  attic_cuda_device_info info;
  char err[1024];
  if (attic_cuda_device_query(&info, err, sizeof(err)) != ATTIC_OK) {
    std::fprintf(stderr, "attic-cuda-info: error: %s\n", err);
    return 1;
  }
  std::printf("device 0 of %d: %s, compute capability %d.%d, %d "
              "multiprocessors, %.1f GiB, %zu KiB shared memory per block "
              "(opt-in), driver %d.%d (%s)\n",
              info.deviceCount, info.name, info.computeMajor,
              info.computeMinor, info.multiprocessors,
              info.totalMemoryBytes / (1024.0 * 1024.0 * 1024.0),
              info.maxSharedMemoryPerBlockOptin / 1024,
              info.driverVersion / 1000, info.driverVersion % 1000 / 10,
              attic_cuda_driver_path());
  attic_cuda_shutdown();
  return 0;
}

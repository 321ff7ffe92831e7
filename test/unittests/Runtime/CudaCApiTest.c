/*===- CudaCApiTest.c - Cuda.h and CudaMgpu.h used from C -----------------===*
 *
 * Compiled as C so that the headers stay plain C; CudaDriverTest.cpp calls
 * this with ATTIC_CUDA_DRIVER naming a library that does not exist.
 *
 *===----------------------------------------------------------------------===*/

#include "attic/runtime/Cuda.h"
#include "attic/runtime/CudaMgpu.h"

#include <string.h>

/* 0 when every call fails cleanly as it must without a driver; otherwise the
 * number of the check that did not hold. */
int attic_cuda_c_api_without_driver(void) {
  char err[512];
  attic_cuda_device_info info;
  void *ptr = &info;
  if (attic_cuda_init(err, sizeof(err)) != ATTIC_ERROR)
    return 1;
  if (strncmp(err, "no NVIDIA driver: ", 18) != 0)
    return 2;
  if (attic_cuda_device_query(&info, err, sizeof(err)) != ATTIC_ERROR)
    return 3;
  if (attic_cuda_mem_alloc(&ptr, 8, NULL, 0) != ATTIC_ERROR || ptr != NULL)
    return 4;
  if (mgpuMemAlloc(8, NULL, false) != NULL)
    return 5;
  if (attic_cuda_take_error(err, sizeof(err)) != ATTIC_ERROR ||
      strncmp(err, "mgpuMemAlloc: no NVIDIA driver", 30) != 0)
    return 6;
  return 0;
}

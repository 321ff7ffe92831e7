//===- CudaAbi.h - The CUDA driver ABI that attic uses ----------*- C++ -*-===//
//
// The driver's types, the enum values and the launch-configuration structs
// that attic's driver layer needs, declared here so that no CUDA header is
// needed to build (values as in CUDA's cuda.h; stable across drivers).
// CudaAbiTest.cpp checks them against cuda.h where the toolkit is installed.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_RUNTIME_LIB_CUDAABI_H
#define ATTIC_RUNTIME_LIB_CUDAABI_H

// The driver's opaque handle types, at global scope as in cuda.h, so that
// the function types attic calls through are the driver's own (the fake
// driver of the tests declares the same; -fsanitize=function compares them).
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;

namespace attic::runtime::cuda_abi {

// Driver types (cuda.h).
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = ::CUctx_st *;
using CUmodule = ::CUmod_st *;
using CUfunction = ::CUfunc_st *;
using CUstream = ::CUstream_st *;
using CUevent = ::CUevent_st *;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
// What the CUDA toolkit's lib64/stubs/libcuda.so (for linking, not a
// driver) returns from every call.
constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr int CU_JIT_OPTIMIZATION_LEVEL = 7;
constexpr unsigned CU_EVENT_DEFAULT = 0x0;
constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;
constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
constexpr unsigned CU_MEM_ATTACH_GLOBAL = 0x1;
constexpr int CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4;
constexpr int CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2;
constexpr unsigned CU_MEMORYTYPE_DEVICE = 2;

// cuLaunchKernelEx's configuration (cuda.h, CUDA 12+): an attribute is a
// 4-byte id, 4 bytes of padding and a 64-byte value union.
struct CUlaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
};
static_assert(sizeof(CUlaunchAttribute) == 72, "CUlaunchAttribute layout");
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};

} // namespace attic::runtime::cuda_abi

#endif // ATTIC_RUNTIME_LIB_CUDAABI_H

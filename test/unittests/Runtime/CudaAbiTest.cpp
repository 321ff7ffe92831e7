//===- CudaAbiTest.cpp - attic's CUDA declarations against cuda.h ---------===//
//
// attic's driver layer declares the few CUDA types, values and structs it
// needs itself (runtime/lib/CudaAbi.h) and resolves entry points by name.
// Where the CUDA toolkit is installed this test compares those declarations
// with cuda.h: enum values, struct layouts, and the prototypes of the
// versioned entry points attic's table (CudaDriver.cpp) assumes.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include "CudaAbi.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <type_traits>

namespace ours = attic::runtime::cuda_abi;

namespace {

TEST(CudaAbi, ValuesMatchCudaHeader) {
  EXPECT_EQ(ours::CUDA_SUCCESS, CUDA_SUCCESS);
  EXPECT_EQ(ours::CUDA_ERROR_NO_DEVICE, CUDA_ERROR_NO_DEVICE);
  EXPECT_EQ(ours::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
            CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  EXPECT_EQ(ours::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  EXPECT_EQ(ours::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  EXPECT_EQ(ours::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  EXPECT_EQ(ours::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
  EXPECT_EQ(ours::CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER);
  EXPECT_EQ(ours::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
  EXPECT_EQ(ours::CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_OPTIMIZATION_LEVEL);
  EXPECT_EQ(ours::CU_EVENT_DEFAULT, unsigned(CU_EVENT_DEFAULT));
  EXPECT_EQ(ours::CU_EVENT_DISABLE_TIMING, unsigned(CU_EVENT_DISABLE_TIMING));
  EXPECT_EQ(ours::CU_STREAM_NON_BLOCKING, unsigned(CU_STREAM_NON_BLOCKING));
  EXPECT_EQ(ours::CU_MEM_ATTACH_GLOBAL, unsigned(CU_MEM_ATTACH_GLOBAL));
  EXPECT_EQ(ours::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
            CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION);
  EXPECT_EQ(ours::CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
            CU_POINTER_ATTRIBUTE_MEMORY_TYPE);
  EXPECT_EQ(ours::CU_MEMORYTYPE_DEVICE, unsigned(CU_MEMORYTYPE_DEVICE));
}

TEST(CudaAbi, LayoutsMatchCudaHeader) {
  EXPECT_EQ(sizeof(ours::CUresult), sizeof(CUresult));
  EXPECT_EQ(sizeof(ours::CUdevice), sizeof(CUdevice));
  EXPECT_EQ(sizeof(ours::CUdeviceptr), sizeof(CUdeviceptr));
  EXPECT_EQ(sizeof(ours::CUlaunchAttribute), sizeof(CUlaunchAttribute));
  EXPECT_EQ(offsetof(ours::CUlaunchAttribute, value),
            offsetof(CUlaunchAttribute, value));
  EXPECT_EQ(offsetof(ours::CUlaunchAttribute, value.clusterDim.z),
            offsetof(CUlaunchAttribute, value.clusterDim.z));
  EXPECT_EQ(sizeof(ours::CUlaunchConfig), sizeof(CUlaunchConfig));
  EXPECT_EQ(offsetof(ours::CUlaunchConfig, sharedMemBytes),
            offsetof(CUlaunchConfig, sharedMemBytes));
  EXPECT_EQ(offsetof(ours::CUlaunchConfig, hStream),
            offsetof(CUlaunchConfig, hStream));
  EXPECT_EQ(offsetof(ours::CUlaunchConfig, attrs),
            offsetof(CUlaunchConfig, attrs));
  EXPECT_EQ(offsetof(ours::CUlaunchConfig, numAttrs),
            offsetof(CUlaunchConfig, numAttrs));
}

// The versioned names CudaDriver.cpp resolves, with the parameter lists its
// table assumes (in cuda.h's types).
template <typename Actual, typename Expected>
constexpr bool sameSignature = std::is_same_v<Actual, Expected>;

TEST(CudaAbi, VersionedEntryPointsHaveTheAssumedPrototypes) {
  EXPECT_TRUE((sameSignature<decltype(&::cuDeviceTotalMem_v2),
                             CUresult (*)(size_t *, CUdevice)>));
  EXPECT_TRUE((sameSignature<decltype(&::cuDevicePrimaryCtxRelease_v2),
                             CUresult (*)(CUdevice)>));
  EXPECT_TRUE((sameSignature<decltype(&::cuMemAlloc_v2),
                             CUresult (*)(CUdeviceptr *, size_t)>));
  EXPECT_TRUE((sameSignature<decltype(&::cuMemAllocManaged),
                             CUresult (*)(CUdeviceptr *, size_t, unsigned)>));
  EXPECT_TRUE((sameSignature<decltype(&::cuMemFree_v2),
                             CUresult (*)(CUdeviceptr)>));
  EXPECT_TRUE((sameSignature<decltype(&::cuMemAllocAsync),
                             CUresult (*)(CUdeviceptr *, size_t, CUstream)>));
  EXPECT_TRUE((sameSignature<decltype(&::cuMemFreeAsync),
                             CUresult (*)(CUdeviceptr, CUstream)>));
  EXPECT_TRUE(
      (sameSignature<decltype(&::cuMemcpyAsync),
                     CUresult (*)(CUdeviceptr, CUdeviceptr, size_t, CUstream)>));
  EXPECT_TRUE((sameSignature<
               decltype(&::cuMemsetD32Async),
               CUresult (*)(CUdeviceptr, unsigned, size_t, CUstream)>));
  EXPECT_TRUE((sameSignature<
               decltype(&::cuMemsetD16Async),
               CUresult (*)(CUdeviceptr, unsigned short, size_t, CUstream)>));
  EXPECT_TRUE((sameSignature<
               decltype(&::cuMemsetD8Async),
               CUresult (*)(CUdeviceptr, unsigned char, size_t, CUstream)>));
  EXPECT_TRUE((sameSignature<decltype(&::cuMemHostRegister_v2),
                             CUresult (*)(void *, size_t, unsigned)>));
  EXPECT_TRUE((sameSignature<decltype(&::cuPointerGetAttributes),
                             CUresult (*)(unsigned, CUpointer_attribute *,
                                          void **, CUdeviceptr)>));
  EXPECT_TRUE((sameSignature<decltype(&::cuModuleLoadDataEx),
                             CUresult (*)(CUmodule *, const void *, unsigned,
                                          CUjit_option *, void **)>));
  EXPECT_TRUE((sameSignature<decltype(&::cuFuncSetAttribute),
                             CUresult (*)(CUfunction, CUfunction_attribute,
                                          int)>));
  EXPECT_TRUE((sameSignature<
               decltype(&::cuLaunchKernel),
               CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                            unsigned, unsigned, unsigned, CUstream, void **,
                            void **)>));
  EXPECT_TRUE((sameSignature<decltype(&::cuLaunchKernelEx),
                             CUresult (*)(const CUlaunchConfig *, CUfunction,
                                          void **, void **)>));
  // Called with the map as void * and the enums as int (CudaDriver.cpp).
  EXPECT_TRUE(
      (sameSignature<decltype(&::cuTensorMapEncodeTiled),
                     CUresult (*)(CUtensorMap *, CUtensorMapDataType,
                                  cuuint32_t, void *, const cuuint64_t *,
                                  const cuuint64_t *, const cuuint32_t *,
                                  const cuuint32_t *, CUtensorMapInterleave,
                                  CUtensorMapSwizzle, CUtensorMapL2promotion,
                                  CUtensorMapFloatOOBfill)>));
  EXPECT_EQ(sizeof(CUtensorMap), 128u);
  EXPECT_EQ(sizeof(CUtensorMapDataType), sizeof(int));
  EXPECT_EQ(sizeof(cuuint32_t), sizeof(uint32_t));
  EXPECT_EQ(sizeof(cuuint64_t), sizeof(uint64_t));
  // The values mgpuTensorMapEncodeTiledMemref's table and the tests use.
  EXPECT_EQ(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 6);
  EXPECT_EQ(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 9);
  EXPECT_EQ(CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ, 12);
  EXPECT_EQ(CU_TENSOR_MAP_SWIZZLE_128B, 3);
  EXPECT_EQ(CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, 0);
  EXPECT_TRUE((sameSignature<decltype(&::cuStreamDestroy_v2),
                             CUresult (*)(CUstream)>));
  EXPECT_TRUE((sameSignature<decltype(&::cuEventDestroy_v2),
                             CUresult (*)(CUevent)>));
  EXPECT_TRUE((sameSignature<decltype(&::cuEventElapsedTime_v2),
                             CUresult (*)(float *, CUevent, CUevent)>));
  EXPECT_TRUE((sameSignature<decltype(&::cuDeviceGetAttribute),
                             CUresult (*)(int *, CUdevice_attribute,
                                          CUdevice)>));
}

} // namespace

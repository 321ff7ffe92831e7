/*===- attic/runtime/CudaMgpu.h - MLIR's GPU runtime ABI on CUDA ----------===*
 *
 * The host-side functions that MLIR 22's `gpu-to-llvm` conversion and the
 * GPU offloading translation (gpu.binary with #gpu.select_object) call, with
 * exactly the signatures they emit (checked with mlir-opt/mlir-translate 22:
 * `declare ptr @mgpuMemAlloc(i64, ptr, i8)` etc.; index arguments are
 * intptr_t, pointers void *). Upstream keeps them in
 * libmlir_cuda_runtime, which Debian does not ship; attic implements them on
 * its driver layer (Cuda.h) and binds them into the JIT by name.
 *
 * Errors: none of these can return one to the compiled caller. The first
 * failure is recorded (attic_cuda_take_error) and every later call does
 * nothing and returns NULL where it returns a handle, except the module
 * loads and unloads (each library's constructor loads its own kernels). Kernel
 *launches are timed with events when attic_cuda_set_kernel_timing(1) is in
 *effect.
 *
 *===----------------------------------------------------------------------===*/

#ifndef ATTIC_RUNTIME_CUDAMGPU_H
#define ATTIC_RUNTIME_CUDAMGPU_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Modules (called from the global constructor/destructor that the
 * offloading translation emits for each gpu.binary). */
void *mgpuModuleLoad(void *data, size_t size);  /* cubin/fatbin */
void *mgpuModuleLoadJIT(void *data, int optLevel); /* PTX */
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);

/* Launches. */
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemBytes, void *stream,
                      void **params, void **extra, size_t paramsCount);
void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY,
                             intptr_t blockZ, int32_t sharedMemBytes,
                             void *stream, void **params, void **extra);

/* Streams and events. */
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);

/* Memory. isHostShared != 0 allocates managed memory. */
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream);
void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  void *stream);

/* gpu.host_register / gpu.host_unregister: `descriptor` points to a ranked
 * memref descriptor {allocated, aligned, offset, sizes[rank],
 * strides[rank]}; the registered range is the dense extent of the memref. */
void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes);
void mgpuMemHostUnregister(void *ptr);
void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes);

/* nvgpu.tma.create.descriptor: a tensor map (cuTensorMapEncodeTiled) of the
 * ranked memref `descriptor` (rank 1 to 5, innermost stride 1, its offset
 * included) with box sizes `boxDims` (outermost first, as the op lists
 * them), returned as its device copy (attic_cuda_tensor_map_device: owned
 * by the runtime). The enums are the driver's (the data type is
 * CUtensorMapDataType: 6 f16, 9 bf16, ...). */
void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *descriptor,
                                     int64_t dataType, int64_t interleave,
                                     int64_t swizzle, int64_t l2Promotion,
                                     int64_t oobFill, int64_t *boxDims);

/* Device ordinal: attic uses device 0; another value is recorded as an
 * error. */
void mgpuSetDefaultDevice(int32_t device);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ATTIC_RUNTIME_CUDAMGPU_H */

/*===- attic/runtime/Cuda.h - attic's CUDA driver layer (C API) -----------===*
 *
 * A thin layer over the CUDA driver API that attic's runtime uses to run
 * compiled kernels: it finds the driver at run time with
 * dlopen("libcuda.so.1") and resolves the cu* entry points with dlsym, so
 * attic builds and runs on machines without CUDA (there is no link-time CUDA
 * dependency and no CUDA header is needed) and says clearly why CUDA is not
 * usable when it is not. The environment variable ATTIC_CUDA_DRIVER, when
 * set, names the library to load instead (tests use a fake driver).
 *
 * Every call works on device 0 through its primary context, made current on
 * the calling thread as needed. Functions that can fail return attic_status
 * and write a one-line message into `err` (see Runtime.h); messages of failed
 * driver calls read "cuXxx failed: CUDA_ERROR_NAME (driver's description)".
 *
 * The mgpu* functions that MLIR's gpu-to-llvm lowering calls are built on
 * this layer; see attic/runtime/CudaMgpu.h.
 *
 *===----------------------------------------------------------------------===*/

#ifndef ATTIC_RUNTIME_CUDA_H
#define ATTIC_RUNTIME_CUDA_H

#include "attic/runtime/Runtime.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Driver handles, passed through as they are (CUmodule, CUfunction, ...). */
typedef struct attic_cuda_module_st *attic_cuda_module;
typedef struct attic_cuda_function_st *attic_cuda_function;
typedef struct attic_cuda_stream_st *attic_cuda_stream; /* NULL: default */
typedef struct attic_cuda_event_st *attic_cuda_event;

/*===----------------------------------------------------------------------===*
 * Availability
 *===----------------------------------------------------------------------===*/

/* Loads the driver, calls cuInit, checks that there is a device and retains
 * device 0's primary context. Idempotent: after the first call it returns the
 * cached outcome (and message) until attic_cuda_shutdown. Messages:
 *   "no NVIDIA driver: dlopen(libcuda.so.1) failed: <dlerror>"
 *   "NVIDIA driver libcuda.so.1 lacks cuXxx"
 *   "no CUDA device: cuInit failed: CUDA_ERROR_NO_DEVICE (...)"
 *   "cuInit failed: CUDA_ERROR_... (...)"  (any other cuInit error)
 *   "no CUDA device: the driver reports 0 devices" */
attic_status attic_cuda_init(char *err, size_t errLen);

/* Releases the primary context and closes the driver library; the next
 * attic_cuda_init starts over (and reads ATTIC_CUDA_DRIVER again). Handles
 * obtained before are invalid afterwards. */
void attic_cuda_shutdown(void);

/* The library path that attic_cuda_init loads: $ATTIC_CUDA_DRIVER when set
 * and non-empty, else "libcuda.so.1". */
const char *attic_cuda_driver_path(void);

typedef struct attic_cuda_device_info {
  char name[256];
  int computeMajor;       /* compute capability, e.g. 9.0 for H100 */
  int computeMinor;
  int multiprocessors;
  size_t totalMemoryBytes;
  size_t maxSharedMemoryPerBlockOptin;
  int driverVersion;      /* e.g. 13000 for CUDA 13.0 */
  int deviceCount;
} attic_cuda_device_info;

/* Initializes (attic_cuda_init) and describes device 0. */
attic_status attic_cuda_device_query(attic_cuda_device_info *info, char *err,
                                     size_t errLen);

/*===----------------------------------------------------------------------===*
 * Device memory. Device pointers are the driver's CUdeviceptr values as
 * void *; with unified addressing (every 64-bit platform CUDA supports) host
 * and device pointers share one address space, so attic_cuda_memcpy takes
 * either in both positions.
 *===----------------------------------------------------------------------===*/

/* cuMemAlloc; bytes == 0 gives *ptr = NULL and succeeds. */
attic_status attic_cuda_mem_alloc(void **ptr, size_t bytes, char *err,
                                  size_t errLen);
/* cuMemAllocManaged (memory that host and device both access). */
attic_status attic_cuda_mem_alloc_managed(void **ptr, size_t bytes, char *err,
                                          size_t errLen);
/* cuMemFree; NULL is accepted and does nothing. */
attic_status attic_cuda_mem_free(void *ptr, char *err, size_t errLen);
/* Stream-ordered: cuMemAllocAsync on `stream` when the device has memory
 * pools (CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED), `stream` is not NULL
 * and the environment does not set ATTIC_CUDA_STREAM_ORDERED=0 (read when
 * the driver is loaded), else attic_cuda_mem_alloc. The memory may be used by
 * work on `stream` enqueued after this call (or elsewhere after synchronizing
 * it). */
attic_status attic_cuda_mem_alloc_async(void **ptr, size_t bytes,
                                        attic_cuda_stream stream, char *err,
                                        size_t errLen);
/* cuMemFreeAsync on `stream` for memory from a stream-ordered
 * attic_cuda_mem_alloc_async (the free waits for the work enqueued on
 * `stream` before it, without blocking the host); anything else, or a NULL
 * stream, is attic_cuda_mem_free (which waits for the device). */
attic_status attic_cuda_mem_free_async(void *ptr, attic_cuda_stream stream,
                                       char *err, size_t errLen);
/* cuMemcpyAsync on `stream` (synchronize before reading the destination). */
attic_status attic_cuda_memcpy(void *dst, const void *src, size_t bytes,
                               attic_cuda_stream stream, char *err,
                               size_t errLen);
/* cuMemsetD32Async / cuMemsetD16Async / cuMemsetD8Async: `count` elements. */
attic_status attic_cuda_memset32(void *dst, uint32_t value, size_t count,
                                 attic_cuda_stream stream, char *err,
                                 size_t errLen);
attic_status attic_cuda_memset16(void *dst, uint16_t value, size_t count,
                                 attic_cuda_stream stream, char *err,
                                 size_t errLen);
attic_status attic_cuda_memset8(void *dst, uint8_t value, size_t count,
                                attic_cuda_stream stream, char *err,
                                size_t errLen);
/* *isDevice = 1 when ptr points into device (not managed, not host) memory
 * the driver knows of (cuPointerGetAttributes MEMORY_TYPE), else 0. */
attic_status attic_cuda_pointer_is_device(const void *ptr, int *isDevice,
                                          char *err, size_t errLen);
/* cuMemHostRegister / cuMemHostUnregister (page-locks host memory). */
attic_status attic_cuda_host_register(void *ptr, size_t bytes, char *err,
                                      size_t errLen);
attic_status attic_cuda_host_unregister(void *ptr, char *err, size_t errLen);

/*===----------------------------------------------------------------------===*
 * Modules and launches
 *===----------------------------------------------------------------------===*/

/* cuModuleLoadData: a cubin or fatbin image, or NUL-terminated PTX. */
attic_status attic_cuda_module_load(attic_cuda_module *module,
                                    const void *image, char *err,
                                    size_t errLen);
/* cuModuleLoadDataEx on NUL-terminated PTX with JIT optimization level
 * optLevel (0-4); the message of a failure carries the JIT's error log. */
attic_status attic_cuda_module_load_ptx(attic_cuda_module *module,
                                        const char *ptx, int optLevel,
                                        char *err, size_t errLen);
attic_status attic_cuda_module_unload(attic_cuda_module module, char *err,
                                      size_t errLen);
attic_status attic_cuda_module_get_function(attic_cuda_function *function,
                                            attic_cuda_module module,
                                            const char *name, char *err,
                                            size_t errLen);

/* cuLaunchKernel. grid and block sizes must be in [1, 2^31-1]; a dynamic
 * shared memory size above 48 KiB first raises the function's limit
 * (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES). `params` holds one
 * pointer per kernel argument. */
attic_status attic_cuda_launch(attic_cuda_function function,
                               const int64_t grid[3], const int64_t block[3],
                               uint32_t sharedMemBytes,
                               attic_cuda_stream stream, void **params,
                               char *err, size_t errLen);
/* The same with thread block clusters (cuLaunchKernelEx, sm_90 and a driver
 * of CUDA 12 or later); `grid` counts blocks, not clusters. */
attic_status attic_cuda_launch_cluster(attic_cuda_function function,
                                       const int64_t cluster[3],
                                       const int64_t grid[3],
                                       const int64_t block[3],
                                       uint32_t sharedMemBytes,
                                       attic_cuda_stream stream,
                                       void **params, char *err,
                                       size_t errLen);

/*===----------------------------------------------------------------------===*
 * Streams, events, synchronization
 *===----------------------------------------------------------------------===*/

/* cuStreamCreate(CU_STREAM_NON_BLOCKING). */
attic_status attic_cuda_stream_create(attic_cuda_stream *stream, char *err,
                                      size_t errLen);
attic_status attic_cuda_stream_destroy(attic_cuda_stream stream, char *err,
                                       size_t errLen);
/* Also reports errors of earlier asynchronous work (e.g. a faulting kernel). */
attic_status attic_cuda_stream_synchronize(attic_cuda_stream stream,
                                           char *err, size_t errLen);
attic_status attic_cuda_stream_wait_event(attic_cuda_stream stream,
                                          attic_cuda_event event, char *err,
                                          size_t errLen);
/* cuEventCreate; `timing` != 0 makes it usable with
 * attic_cuda_event_elapsed_ms (CU_EVENT_DEFAULT), else
 * CU_EVENT_DISABLE_TIMING. */
attic_status attic_cuda_event_create(attic_cuda_event *event, int timing,
                                     char *err, size_t errLen);
attic_status attic_cuda_event_destroy(attic_cuda_event event, char *err,
                                      size_t errLen);
attic_status attic_cuda_event_record(attic_cuda_event event,
                                     attic_cuda_stream stream, char *err,
                                     size_t errLen);
attic_status attic_cuda_event_synchronize(attic_cuda_event event, char *err,
                                          size_t errLen);
/* Milliseconds between two recorded, completed timing events. */
attic_status attic_cuda_event_elapsed_ms(float *ms, attic_cuda_event start,
                                         attic_cuda_event end, char *err,
                                         size_t errLen);
/* cuCtxSynchronize: waits for all work on the device. */
attic_status attic_cuda_synchronize(char *err, size_t errLen);

/*===----------------------------------------------------------------------===*
 * Tensor maps (TMA descriptors; compute capability 9.0 and above)
 *===----------------------------------------------------------------------===*/

/* cuTensorMapEncodeTiled (an optional entry point: drivers before CUDA 12
 * lack it, and this then fails naming it) into `map`, 128 bytes aligned to
 * 64. Dimensions, strides and box sizes are innermost first, as the driver
 * takes them; the enums are the driver's values (CUtensorMapDataType, ...). */
attic_status attic_cuda_tensor_map_encode_tiled(
    void *map, int dataType, uint32_t rank, void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStrides,
    const uint32_t *boxDim, const uint32_t *elementStrides, int interleave,
    int swizzle, int l2Promotion, int oobFill, char *err, size_t errLen);
/* A copy of the 128-byte tensor map `map` in device memory, for a kernel
 * that takes its address (as MLIR's TMA lowering passes it). The runtime
 * owns the copies: one per distinct map, reused when the same map is asked
 * for again (a call's buffers, and so its maps, recur under the
 * stream-ordered allocator), all freed by attic_cuda_shutdown; when more
 * than 1024 are held, the device is synchronized and all of them are freed
 * before the new one is made. */
attic_status attic_cuda_tensor_map_device(const void *map, void **devicePtr,
                                          char *err, size_t errLen);

/*===----------------------------------------------------------------------===*
 * State of the mgpu* layer (CudaMgpu.h)
 *
 * The mgpu* functions cannot return errors to the compiled code that calls
 * them. The first failure is recorded instead, and every later mgpu* call
 * but the module loads and unloads does nothing (returning NULL where it
 * returns a handle) until the error is taken, so that a failed allocation
 * never reaches a kernel launch.
 *===----------------------------------------------------------------------===*/

/* If an mgpu* call failed since the last call, writes the first failure's
 * message ("mgpuLaunchKernel: cuLaunchKernel failed: ...") into err, clears
 * it and returns ATTIC_ERROR; otherwise returns ATTIC_OK. */
attic_status attic_cuda_take_error(char *err, size_t errLen);

/* Kernel timing: when enabled, mgpuLaunchKernel/mgpuLaunchClusterKernel
 * record a pair of CUDA events around each launch. attic_cuda_kernel_time
 * waits for the recorded launches, returns the sum of their event times in
 * milliseconds and the number of launches since the last reset, and resets
 * both. Timing is off by default. */
void attic_cuda_set_kernel_timing(int enabled);
attic_status attic_cuda_kernel_time(double *milliseconds, int64_t *launches,
                                    char *err, size_t errLen);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ATTIC_RUNTIME_CUDA_H */

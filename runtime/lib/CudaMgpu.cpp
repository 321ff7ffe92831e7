//===- CudaMgpu.cpp - MLIR's mgpu* GPU runtime ABI on attic's driver ------===//
//
// Implements attic/runtime/CudaMgpu.h and the error/timing state declared at
// the end of attic/runtime/Cuda.h. Each mgpu* function but the module loads
// and unloads does nothing once an error is pending (returning NULL for
// handles), so compiled host code that cannot check results never launches
// a kernel on a failed allocation.
//
//===----------------------------------------------------------------------===//

#include "attic/runtime/CudaMgpu.h"
#include "attic/runtime/Cuda.h"

#include "Error.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

using attic::runtime::fail;

namespace {

struct MgpuState {
  std::mutex mutex;
  std::string error; // the first failure since the last take; empty if none
  bool timing = false;
  // Launches recorded since the last attic_cuda_kernel_time: start/end
  // timing events, waited for and destroyed when the time is read.
  std::vector<std::pair<attic_cuda_event, attic_cuda_event>> pending;
};

MgpuState &mgpu() {
  static MgpuState s;
  return s;
}

bool failed() {
  MgpuState &s = mgpu();
  std::lock_guard<std::mutex> lock(s.mutex);
  return !s.error.empty();
}

/// Records the first failure of an mgpu* call: "<function>: <message>".
void record(const char *function, const char *message) {
  MgpuState &s = mgpu();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.error.empty())
    s.error = std::string(function) + ": " + message;
}

/// Runs one driver-layer call on behalf of `function`; false (and the error
/// recorded) when it failed.
template <typename Call>
bool run(const char *function, Call &&call) {
  char message[1024];
  message[0] = '\0';
  if (call(message, sizeof(message)) == ATTIC_OK)
    return true;
  record(function, message[0] ? message : "failed");
  return false;
}

attic_cuda_stream asStream(void *stream) {
  return static_cast<attic_cuda_stream>(stream);
}

attic_cuda_event createTimingEvent(char *err, size_t errLen) {
  attic_cuda_event event = nullptr;
  if (attic_cuda_event_create(&event, /*timing=*/1, err, errLen) != ATTIC_OK)
    return nullptr;
  return event;
}

/// Launch with timing events around it when timing is on.
template <typename Launch>
void timedLaunch(const char *function, void *stream, Launch &&launch) {
  bool timing;
  {
    MgpuState &s = mgpu();
    std::lock_guard<std::mutex> lock(s.mutex);
    timing = s.timing;
  }
  if (!timing) {
    run(function, launch);
    return;
  }
  attic_cuda_event start = nullptr, end = nullptr;
  if (!run(function, [&](char *err, size_t len) {
        start = createTimingEvent(err, len);
        end = start ? createTimingEvent(err, len) : nullptr;
        return start && end ? ATTIC_OK : ATTIC_ERROR;
      }) ||
      !run(function,
           [&](char *err, size_t len) {
             return attic_cuda_event_record(start, asStream(stream), err, len);
           }) ||
      !run(function, launch) || !run(function, [&](char *err, size_t len) {
        return attic_cuda_event_record(end, asStream(stream), err, len);
      })) {
    attic_cuda_event_destroy(start, nullptr, 0);
    attic_cuda_event_destroy(end, nullptr, 0);
    return;
  }
  MgpuState &s = mgpu();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.pending.emplace_back(start, end);
}

/// A ranked memref descriptor {allocated, aligned, offset, sizes[rank],
/// strides[rank]}: its first fields, then the sizes and strides.
struct MemRefPrefix {
  void *allocated;
  char *aligned;
  int64_t offset;
  const int64_t *sizes() const {
    return reinterpret_cast<const int64_t *>(this + 1);
  }
};

/// The first byte and the dense extent in bytes of a ranked memref given by
/// its descriptor.
std::pair<char *, uint64_t> memrefExtent(int64_t rank, void *descriptor,
                                         int64_t elementSizeBytes) {
  auto *prefix = static_cast<MemRefPrefix *>(descriptor);
  const int64_t *sizes = prefix->sizes();
  uint64_t elements = 1;
  for (int64_t d = 0; d < rank; ++d)
    elements *= static_cast<uint64_t>(sizes[d]);
  return {prefix->aligned + prefix->offset * elementSizeBytes,
          elements * static_cast<uint64_t>(elementSizeBytes)};
}

} // namespace

//===----------------------------------------------------------------------===//
// Error and timing state (Cuda.h)
//===----------------------------------------------------------------------===//

attic_status attic_cuda_take_error(char *err, size_t errLen) {
  MgpuState &s = mgpu();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.error.empty())
    return ATTIC_OK;
  std::string message = std::move(s.error);
  s.error.clear();
  return fail(err, errLen, "%s", message.c_str());
}

void attic_cuda_set_kernel_timing(int enabled) {
  MgpuState &s = mgpu();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.timing = enabled != 0;
}

attic_status attic_cuda_kernel_time(double *milliseconds, int64_t *launches,
                                    char *err, size_t errLen) {
  std::vector<std::pair<attic_cuda_event, attic_cuda_event>> pending;
  {
    MgpuState &s = mgpu();
    std::lock_guard<std::mutex> lock(s.mutex);
    pending.swap(s.pending);
  }
  double total = 0;
  attic_status status = ATTIC_OK;
  for (auto [start, end] : pending) {
    float ms = 0;
    if (status == ATTIC_OK &&
        (attic_cuda_event_synchronize(end, err, errLen) != ATTIC_OK ||
         attic_cuda_event_elapsed_ms(&ms, start, end, err, errLen) !=
             ATTIC_OK))
      status = ATTIC_ERROR;
    total += ms;
  }
  for (auto [start, end] : pending) {
    attic_cuda_event_destroy(start, nullptr, 0);
    attic_cuda_event_destroy(end, nullptr, 0);
  }
  if (milliseconds)
    *milliseconds = status == ATTIC_OK ? total : 0;
  if (launches)
    *launches = static_cast<int64_t>(pending.size());
  return status;
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

// Loads run also while an error is pending: a library's constructor loads
// its kernels when it is loaded, and another library's failed load, still
// pending, left this one without its kernels for good (a 2026-11-30
// audit). A failed load is recorded as any failure (the first one stays).
void *mgpuModuleLoad(void *data, size_t /*size*/) {
  attic_cuda_module module = nullptr;
  run("mgpuModuleLoad", [&](char *err, size_t len) {
    return attic_cuda_module_load(&module, data, err, len);
  });
  return module;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  attic_cuda_module module = nullptr;
  run("mgpuModuleLoadJIT", [&](char *err, size_t len) {
    return attic_cuda_module_load_ptx(&module, static_cast<const char *>(data),
                                      optLevel, err, len);
  });
  return module;
}

// Unloads also while an error is pending, as loads do (a module loaded
// then would leak).
void mgpuModuleUnload(void *module) {
  if (!module)
    return;
  run("mgpuModuleUnload", [&](char *err, size_t len) {
    return attic_cuda_module_unload(static_cast<attic_cuda_module>(module),
                                    err, len);
  });
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  attic_cuda_function function = nullptr;
  if (failed())
    return nullptr;
  if (!module) {
    // The module constructor's load failed and that error was taken (an
    // ahead-of-time library reports it on its first call).
    record("mgpuModuleGetFunction",
           (std::string("the module of kernel ") + (name ? name : "?") +
            " is not loaded (its load failed earlier)")
               .c_str());
    return nullptr;
  }
  run("mgpuModuleGetFunction", [&](char *err, size_t len) {
    return attic_cuda_module_get_function(
        &function, static_cast<attic_cuda_module>(module), name, err, len);
  });
  return function;
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemBytes, void *stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  if (failed())
    return;
  if (extra) {
    record("mgpuLaunchKernel", "kernel arguments given as 'extra' are not "
                               "supported");
    return;
  }
  if (sharedMemBytes < 0) {
    record("mgpuLaunchKernel", "negative dynamic shared memory size");
    return;
  }
  const int64_t grid[3] = {gridX, gridY, gridZ};
  const int64_t block[3] = {blockX, blockY, blockZ};
  timedLaunch("mgpuLaunchKernel", stream, [&](char *err, size_t len) {
    return attic_cuda_launch(static_cast<attic_cuda_function>(function), grid,
                             block, static_cast<uint32_t>(sharedMemBytes),
                             asStream(stream), params, err, len);
  });
}

void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY,
                             intptr_t blockZ, int32_t sharedMemBytes,
                             void *stream, void **params, void **extra) {
  if (failed())
    return;
  if (extra) {
    record("mgpuLaunchClusterKernel", "kernel arguments given as 'extra' are "
                                      "not supported");
    return;
  }
  if (sharedMemBytes < 0) {
    record("mgpuLaunchClusterKernel", "negative dynamic shared memory size");
    return;
  }
  const int64_t cluster[3] = {clusterX, clusterY, clusterZ};
  const int64_t grid[3] = {gridX, gridY, gridZ};
  const int64_t block[3] = {blockX, blockY, blockZ};
  timedLaunch("mgpuLaunchClusterKernel", stream, [&](char *err, size_t len) {
    return attic_cuda_launch_cluster(
        static_cast<attic_cuda_function>(function), cluster, grid, block,
        static_cast<uint32_t>(sharedMemBytes), asStream(stream), params, err,
        len);
  });
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

void *mgpuStreamCreate(void) {
  attic_cuda_stream stream = nullptr;
  if (failed())
    return nullptr;
  run("mgpuStreamCreate", [&](char *err, size_t len) {
    return attic_cuda_stream_create(&stream, err, len);
  });
  return stream;
}

void mgpuStreamDestroy(void *stream) {
  if (failed())
    return;
  run("mgpuStreamDestroy", [&](char *err, size_t len) {
    return attic_cuda_stream_destroy(asStream(stream), err, len);
  });
}

void mgpuStreamSynchronize(void *stream) {
  if (failed())
    return;
  run("mgpuStreamSynchronize", [&](char *err, size_t len) {
    return attic_cuda_stream_synchronize(asStream(stream), err, len);
  });
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  if (failed())
    return;
  run("mgpuStreamWaitEvent", [&](char *err, size_t len) {
    return attic_cuda_stream_wait_event(
        asStream(stream), static_cast<attic_cuda_event>(event), err, len);
  });
}

void *mgpuEventCreate(void) {
  attic_cuda_event event = nullptr;
  if (failed())
    return nullptr;
  run("mgpuEventCreate", [&](char *err, size_t len) {
    return attic_cuda_event_create(&event, /*timing=*/0, err, len);
  });
  return event;
}

void mgpuEventDestroy(void *event) {
  if (failed())
    return;
  run("mgpuEventDestroy", [&](char *err, size_t len) {
    return attic_cuda_event_destroy(static_cast<attic_cuda_event>(event), err,
                                    len);
  });
}

void mgpuEventSynchronize(void *event) {
  if (failed())
    return;
  run("mgpuEventSynchronize", [&](char *err, size_t len) {
    return attic_cuda_event_synchronize(static_cast<attic_cuda_event>(event),
                                        err, len);
  });
}

void mgpuEventRecord(void *event, void *stream) {
  if (failed())
    return;
  run("mgpuEventRecord", [&](char *err, size_t len) {
    return attic_cuda_event_record(static_cast<attic_cuda_event>(event),
                                   asStream(stream), err, len);
  });
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

// Device buffers are stream-ordered where the device allows it: a
// `gpu.dealloc` in the middle of a call then no longer waits for the device
// (cuMemFree does).
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  void *ptr = nullptr;
  if (failed())
    return nullptr;
  run("mgpuMemAlloc", [&](char *err, size_t len) {
    return isHostShared
               ? attic_cuda_mem_alloc_managed(&ptr, sizeBytes, err, len)
               : attic_cuda_mem_alloc_async(&ptr, sizeBytes, asStream(stream),
                                            err, len);
  });
  return ptr;
}

void mgpuMemFree(void *ptr, void *stream) {
  if (failed())
    return;
  run("mgpuMemFree", [&](char *err, size_t len) {
    return attic_cuda_mem_free_async(ptr, asStream(stream), err, len);
  });
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  if (failed())
    return;
  run("mgpuMemcpy", [&](char *err, size_t len) {
    return attic_cuda_memcpy(dst, src, sizeBytes, asStream(stream), err, len);
  });
}

void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream) {
  if (failed())
    return;
  run("mgpuMemset32", [&](char *err, size_t len) {
    return attic_cuda_memset32(dst, value, count, asStream(stream), err, len);
  });
}

void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  void *stream) {
  if (failed())
    return;
  run("mgpuMemset16", [&](char *err, size_t len) {
    return attic_cuda_memset16(dst, value, count, asStream(stream), err, len);
  });
}

void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  if (failed())
    return;
  run("mgpuMemHostRegister", [&](char *err, size_t len) {
    return attic_cuda_host_register(ptr, sizeBytes, err, len);
  });
}

void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes) {
  if (failed())
    return;
  auto [ptr, bytes] = memrefExtent(rank, descriptor, elementSizeBytes);
  mgpuMemHostRegister(ptr, bytes);
}

void mgpuMemHostUnregister(void *ptr) {
  if (failed())
    return;
  run("mgpuMemHostUnregister", [&](char *err, size_t len) {
    return attic_cuda_host_unregister(ptr, err, len);
  });
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes) {
  if (failed())
    return;
  mgpuMemHostUnregister(memrefExtent(rank, descriptor, elementSizeBytes).first);
}

void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *descriptor,
                                     int64_t dataType, int64_t interleave,
                                     int64_t swizzle, int64_t l2Promotion,
                                     int64_t oobFill, int64_t *boxDims) {
  const char *name = "mgpuTensorMapEncodeTiledMemref";
  if (failed())
    return nullptr;
  // Bytes per element of each CUtensorMapDataType, 0 (UINT8) to 12
  // (TFLOAT32_FTZ).
  static constexpr int64_t elementBytes[] = {1, 2, 4, 4, 8, 8, 2,
                                             4, 8, 2, 4, 4, 4};
  char message[256];
  if (rank < 1 || rank > 5 || !descriptor || !boxDims) {
    std::snprintf(message, sizeof(message),
                  "a tensor map needs a memref of rank 1 to 5, got rank %lld",
                  static_cast<long long>(rank));
    record(name, message);
    return nullptr;
  }
  if (dataType < 0 || dataType > 12) {
    std::snprintf(message, sizeof(message), "unknown tensor map data type %lld",
                  static_cast<long long>(dataType));
    record(name, message);
    return nullptr;
  }
  auto *prefix = static_cast<MemRefPrefix *>(descriptor);
  const int64_t *sizes = prefix->sizes();
  const int64_t *strides = sizes + rank;
  int64_t bytes = elementBytes[dataType];
  if (strides[rank - 1] != 1) {
    std::snprintf(message, sizeof(message),
                  "the memref's innermost stride is %lld; a tensor map needs "
                  "1 (contiguous rows)",
                  static_cast<long long>(strides[rank - 1]));
    record(name, message);
    return nullptr;
  }
  uint64_t dims[5], byteStrides[5] = {0};
  uint32_t box[5], elementStrides[5] = {1, 1, 1, 1, 1};
  for (int64_t i = 0; i < rank; ++i) {
    // Innermost first.
    dims[i] = static_cast<uint64_t>(sizes[rank - 1 - i]);
    int64_t b = boxDims[rank - 1 - i];
    if (b < 1 || b > 256) {
      std::snprintf(message, sizeof(message),
                    "box size %lld of dimension %lld is not in [1, 256]",
                    static_cast<long long>(b),
                    static_cast<long long>(rank - 1 - i));
      record(name, message);
      return nullptr;
    }
    box[i] = static_cast<uint32_t>(b);
    if (i + 1 < rank)
      byteStrides[i] = static_cast<uint64_t>(strides[rank - 2 - i] * bytes);
  }
  alignas(64) unsigned char map[128];
  void *device = nullptr;
  if (!run(name,
           [&](char *err, size_t len) {
             return attic_cuda_tensor_map_encode_tiled(
                 map, static_cast<int>(dataType), static_cast<uint32_t>(rank),
                 prefix->aligned + prefix->offset * bytes, dims, byteStrides,
                 box, elementStrides, static_cast<int>(interleave),
                 static_cast<int>(swizzle), static_cast<int>(l2Promotion),
                 static_cast<int>(oobFill), err, len);
           }) ||
      !run(name, [&](char *err, size_t len) {
        return attic_cuda_tensor_map_device(map, &device, err, len);
      }))
    return nullptr;
  return device;
}

void mgpuSetDefaultDevice(int32_t device) {
  if (device != 0) {
    char message[128];
    std::snprintf(message, sizeof(message),
                  "device %d requested; attic runs on device 0", device);
    record("mgpuSetDefaultDevice", message);
  }
}

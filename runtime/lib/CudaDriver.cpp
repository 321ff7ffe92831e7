//===- CudaDriver.cpp - The CUDA driver, loaded with dlopen ---------------===//
//
// Implements attic/runtime/Cuda.h. The driver's types and the few enum
// values used are declared here (values as in CUDA's cuda.h, stable across
// driver versions), so no CUDA header is needed to build. Entry points are
// resolved by their versioned ABI names (cuMemAlloc_v2, ...), which is what
// cuda.h maps the plain names to.
//
//===----------------------------------------------------------------------===//

#include "attic/runtime/Cuda.h"

#include "CudaAbi.h"
#include "Error.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <pthread.h>
#include <string>
#include <unordered_set>

using attic::runtime::fail;

namespace {

using namespace attic::runtime::cuda_abi;

/// The entry points, in one table so that loading is one loop.
struct Api {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDeviceTotalMem)(size_t *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
  CUresult (*cuMemHostRegister)(void *, size_t, unsigned);
  CUresult (*cuMemHostUnregister)(void *);
  CUresult (*cuPointerGetAttributes)(unsigned, int *, void **, CUdeviceptr);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  // Optional: drivers before CUDA 12 lack it (cluster launches then fail).
  // The config is a `const CUlaunchConfig *` (CudaAbi.h); declared as a
  // void pointer because CUlaunchConfig is attic's copy of the driver's
  // struct, whose own name (CUlaunchConfig_st) cuda.h defines.
  CUresult (*cuLaunchKernelEx)(const void *, CUfunction, void **, void **);
  // Optional (CUDA 11.2+): the stream-ordered allocator, used when the
  // device reports memory pools.
  CUresult (*cuMemAllocAsync)(CUdeviceptr *, size_t, CUstream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr, CUstream);
  // Optional (CUDA 12.0+): TMA descriptors. The map is a CUtensorMap (128
  // bytes); the enums are passed as int, as cuda.h's enums are.
  CUresult (*cuTensorMapEncodeTiled)(void *, int, uint32_t, void *,
                                     const uint64_t *, const uint64_t *,
                                     const uint32_t *, const uint32_t *, int,
                                     int, int, int);
};

/// One symbol to resolve: the field, and the names to try in order (the
/// versioned ABI name first).
struct Symbol {
  void **slot;
  const char *names[2];
  bool required;
};

struct DriverState {
  std::mutex mutex;
  bool attempted = false;
  attic_status status = ATTIC_ERROR;
  std::string message;
  std::string path;
  void *library = nullptr;
  Api api{};
  CUdevice device = 0;
  CUcontext context = nullptr;
  unsigned generation = 0; // bumped by shutdown; see makeCurrent
  // The device takes cuMemAllocAsync/cuMemFreeAsync; the pointers they
  // allocated (only those are freed stream-ordered).
  bool memoryPools = false;
  std::mutex poolMutex;
  std::unordered_set<CUdeviceptr> streamOrdered;
  // Device copies of tensor maps (attic_cuda_tensor_map_device), by their
  // 128 bytes.
  std::mutex tensorMapMutex;
  std::map<std::string, CUdeviceptr> tensorMaps;
};

DriverState &state() {
  static DriverState s;
  return s;
}

/// In a child: fresh mutexes (placement new; only the forking thread
/// exists there). A child forked while another thread held one, e.g. in
/// its first cuInit (0.1 to 1 s), waited forever in its first CUDA call
/// instead of failing (a 2026-11-30 review; CUDA does not work in a
/// forked child anyway, but its calls must fail, not hang).
__attribute__((constructor)) void resetDriverMutexesInChild() {
  (void)state();
  pthread_atfork(nullptr, nullptr, [] {
    DriverState &s = state();
    new (&s.mutex) std::mutex();
    new (&s.poolMutex) std::mutex();
    new (&s.tensorMapMutex) std::mutex();
  });
}

thread_local unsigned currentGeneration = 0;

std::string resultText(CUresult result) {
  const Api &api = state().api;
  const char *name = nullptr, *description = nullptr;
  if (api.cuGetErrorName)
    api.cuGetErrorName(result, &name);
  if (api.cuGetErrorString)
    api.cuGetErrorString(result, &description);
  std::string text = name ? name : "CUDA error " + std::to_string(result);
  if (description)
    text += std::string(" (") + description + ")";
  return text;
}

/// `return check(...)`: ATTIC_OK, or a failure naming the call.
attic_status check(CUresult result, const char *call, char *err,
                   size_t errLen) {
  if (result == CUDA_SUCCESS)
    return ATTIC_OK;
  return fail(err, errLen, "%s failed: %s", call, resultText(result).c_str());
}

attic_status loadLocked(DriverState &s) {
  const char *path = attic_cuda_driver_path();
  s.path = path;
  s.library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  char buffer[1024];
  if (!s.library) {
    const char *why = dlerror();
    fail(buffer, sizeof(buffer), "no NVIDIA driver: dlopen(%s) failed: %s",
         path, why ? why : "unknown error");
    s.message = buffer;
    return ATTIC_ERROR;
  }
  Api &a = s.api;
  auto slot = [](auto &field) { return reinterpret_cast<void **>(&field); };
  const Symbol symbols[] = {
      {slot(a.cuInit), {"cuInit"}, true},
      {slot(a.cuDriverGetVersion), {"cuDriverGetVersion"}, true},
      {slot(a.cuGetErrorName), {"cuGetErrorName"}, true},
      {slot(a.cuGetErrorString), {"cuGetErrorString"}, true},
      {slot(a.cuDeviceGetCount), {"cuDeviceGetCount"}, true},
      {slot(a.cuDeviceGet), {"cuDeviceGet"}, true},
      {slot(a.cuDeviceGetName), {"cuDeviceGetName"}, true},
      {slot(a.cuDeviceGetAttribute), {"cuDeviceGetAttribute"}, true},
      {slot(a.cuDeviceTotalMem), {"cuDeviceTotalMem_v2"}, true},
      {slot(a.cuDevicePrimaryCtxRetain), {"cuDevicePrimaryCtxRetain"}, true},
      {slot(a.cuDevicePrimaryCtxRelease),
       {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"},
       true},
      {slot(a.cuCtxSetCurrent), {"cuCtxSetCurrent"}, true},
      {slot(a.cuCtxSynchronize), {"cuCtxSynchronize"}, true},
      {slot(a.cuMemAlloc), {"cuMemAlloc_v2"}, true},
      {slot(a.cuMemAllocManaged), {"cuMemAllocManaged"}, true},
      {slot(a.cuMemFree), {"cuMemFree_v2"}, true},
      {slot(a.cuMemcpyAsync), {"cuMemcpyAsync"}, true},
      {slot(a.cuMemsetD32Async), {"cuMemsetD32Async"}, true},
      {slot(a.cuMemsetD16Async), {"cuMemsetD16Async"}, true},
      {slot(a.cuMemsetD8Async), {"cuMemsetD8Async"}, true},
      {slot(a.cuMemHostRegister), {"cuMemHostRegister_v2"}, true},
      {slot(a.cuMemHostUnregister), {"cuMemHostUnregister"}, true},
      {slot(a.cuPointerGetAttributes), {"cuPointerGetAttributes"}, true},
      {slot(a.cuModuleLoadData), {"cuModuleLoadData"}, true},
      {slot(a.cuModuleLoadDataEx), {"cuModuleLoadDataEx"}, true},
      {slot(a.cuModuleUnload), {"cuModuleUnload"}, true},
      {slot(a.cuModuleGetFunction), {"cuModuleGetFunction"}, true},
      {slot(a.cuFuncSetAttribute), {"cuFuncSetAttribute"}, true},
      {slot(a.cuLaunchKernel), {"cuLaunchKernel"}, true},
      {slot(a.cuStreamCreate), {"cuStreamCreate"}, true},
      {slot(a.cuStreamDestroy), {"cuStreamDestroy_v2"}, true},
      {slot(a.cuStreamSynchronize), {"cuStreamSynchronize"}, true},
      {slot(a.cuStreamWaitEvent), {"cuStreamWaitEvent"}, true},
      {slot(a.cuEventCreate), {"cuEventCreate"}, true},
      {slot(a.cuEventDestroy), {"cuEventDestroy_v2"}, true},
      {slot(a.cuEventRecord), {"cuEventRecord"}, true},
      {slot(a.cuEventSynchronize), {"cuEventSynchronize"}, true},
      // _v2 (CUDA 12.8+) where present; the original on older drivers.
      {slot(a.cuEventElapsedTime),
       {"cuEventElapsedTime_v2", "cuEventElapsedTime"},
       true},
      {slot(a.cuLaunchKernelEx), {"cuLaunchKernelEx"}, false},
      {slot(a.cuMemAllocAsync), {"cuMemAllocAsync"}, false},
      {slot(a.cuMemFreeAsync), {"cuMemFreeAsync"}, false},
      {slot(a.cuTensorMapEncodeTiled), {"cuTensorMapEncodeTiled"}, false},
  };
  for (const Symbol &symbol : symbols) {
    for (const char *name : symbol.names) {
      if (!name || *symbol.slot)
        continue;
      *symbol.slot = dlsym(s.library, name);
    }
    if (!*symbol.slot && symbol.required) {
      fail(buffer, sizeof(buffer), "NVIDIA driver %s lacks %s", path,
           symbol.names[0]);
      s.message = buffer;
      return ATTIC_ERROR;
    }
  }

  CUresult result = a.cuInit(0);
  if (result == CUDA_ERROR_STUB_LIBRARY) {
    fail(buffer, sizeof(buffer),
         "no NVIDIA driver: %s is the CUDA toolkit's stub library "
         "(cuInit returned CUDA_ERROR_STUB_LIBRARY), not a driver",
         path);
    s.message = buffer;
    return ATTIC_ERROR;
  }
  if (result != CUDA_SUCCESS) {
    fail(buffer, sizeof(buffer), "%scuInit failed: %s",
         result == CUDA_ERROR_NO_DEVICE ? "no CUDA device: " : "",
         resultText(result).c_str());
    s.message = buffer;
    return ATTIC_ERROR;
  }
  int count = 0;
  if (check(a.cuDeviceGetCount(&count), "cuDeviceGetCount", buffer,
            sizeof(buffer)) != ATTIC_OK) {
    s.message = buffer;
    return ATTIC_ERROR;
  }
  if (count <= 0) {
    s.message = "no CUDA device: the driver reports 0 devices";
    return ATTIC_ERROR;
  }
  if (check(a.cuDeviceGet(&s.device, 0), "cuDeviceGet", buffer,
            sizeof(buffer)) != ATTIC_OK ||
      check(a.cuDevicePrimaryCtxRetain(&s.context, s.device),
            "cuDevicePrimaryCtxRetain", buffer, sizeof(buffer)) != ATTIC_OK) {
    s.message = buffer;
    return ATTIC_ERROR;
  }
  // ATTIC_CUDA_STREAM_ORDERED=0 keeps cuMemAlloc/cuMemFree (A/B timing,
  // or a driver whose pools misbehave).
  const char *ordered = std::getenv("ATTIC_CUDA_STREAM_ORDERED");
  int pools = 0;
  s.memoryPools =
      !(ordered && std::strcmp(ordered, "0") == 0) && a.cuMemAllocAsync &&
      a.cuMemFreeAsync &&
      a.cuDeviceGetAttribute(&pools, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
                             s.device) == CUDA_SUCCESS &&
      pools != 0;
  return ATTIC_OK;
}

/// Initializes once and makes the primary context current on this thread.
/// Every entry point below starts with it.
attic_status ready(char *err, size_t errLen) {
  DriverState &s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.attempted) {
      s.attempted = true;
      s.status = loadLocked(s);
    }
    if (s.status != ATTIC_OK)
      return fail(err, errLen, "%s", s.message.c_str());
  }
  if (currentGeneration != s.generation + 1) {
    if (check(s.api.cuCtxSetCurrent(s.context), "cuCtxSetCurrent", err,
              errLen) != ATTIC_OK)
      return ATTIC_ERROR;
    currentGeneration = s.generation + 1;
  }
  return ATTIC_OK;
}

const Api &api() { return state().api; }

CUdeviceptr devicePtr(const void *ptr) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(ptr));
}

bool validDims(const int64_t dims[3]) {
  for (int i = 0; i < 3; ++i)
    if (dims[i] < 1 || dims[i] > 0x7fffffff)
      return false;
  return true;
}

/// Lets `function` use more than the default 48 KiB of dynamic shared
/// memory (an opt-in the driver requires above that size).
attic_status allowSharedMemory(CUfunction function, uint32_t bytes, char *err,
                               size_t errLen) {
  if (bytes <= 48 * 1024)
    return ATTIC_OK;
  return check(api().cuFuncSetAttribute(
                   function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                   static_cast<int>(bytes)),
               "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", err,
               errLen);
}

/// The end of every allocation entry point: *ptr = NULL for 0 bytes, else
/// the address that `allocate` (the driver call named `call`) returns, its
/// failure reported with the size.
template <typename Allocate>
attic_status allocateWith(const char *call, void **ptr, size_t bytes, char *err,
                          size_t errLen, Allocate &&allocate) {
  *ptr = nullptr;
  if (bytes == 0)
    return ATTIC_OK;
  CUdeviceptr address = 0;
  if (CUresult result = allocate(&address))
    return fail(err, errLen, "%s(%zu bytes) failed: %s", call, bytes,
                resultText(result).c_str());
  *ptr = reinterpret_cast<void *>(static_cast<uintptr_t>(address));
  return ATTIC_OK;
}

} // namespace

const char *attic_cuda_driver_path(void) {
  const char *path = std::getenv("ATTIC_CUDA_DRIVER");
  return path && *path ? path : "libcuda.so.1";
}

attic_status attic_cuda_init(char *err, size_t errLen) {
  return ready(err, errLen);
}

void attic_cuda_shutdown(void) {
  DriverState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  {
    // The tensor maps' device copies (attic_cuda_tensor_map_device).
    std::lock_guard<std::mutex> mapLock(s.tensorMapMutex);
    if (s.context && s.api.cuCtxSetCurrent && s.api.cuMemFree &&
        s.api.cuCtxSetCurrent(s.context) == CUDA_SUCCESS)
      for (auto &entry : s.tensorMaps)
        s.api.cuMemFree(entry.second);
    s.tensorMaps.clear();
  }
  if (s.context && s.api.cuDevicePrimaryCtxRelease)
    s.api.cuDevicePrimaryCtxRelease(s.device);
  if (s.library)
    dlclose(s.library);
  s.library = nullptr;
  s.context = nullptr;
  s.api = Api{};
  s.attempted = false;
  s.status = ATTIC_ERROR;
  s.message.clear();
  s.memoryPools = false;
  {
    std::lock_guard<std::mutex> poolLock(s.poolMutex);
    s.streamOrdered.clear();
  }
  ++s.generation;
}

attic_status attic_cuda_device_query(attic_cuda_device_info *info, char *err,
                                     size_t errLen) {
  if (!info)
    return fail(err, errLen, "attic_cuda_device_query: info is NULL");
  std::memset(info, 0, sizeof(*info));
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  const Api &a = api();
  CUdevice device = state().device;
  int sharedOptin = 0;
  if (check(a.cuDeviceGetName(info->name, sizeof(info->name), device),
            "cuDeviceGetName", err, errLen) != ATTIC_OK ||
      check(a.cuDeviceGetAttribute(&info->computeMajor,
                                   CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                   device),
            "cuDeviceGetAttribute", err, errLen) != ATTIC_OK ||
      check(a.cuDeviceGetAttribute(&info->computeMinor,
                                   CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                   device),
            "cuDeviceGetAttribute", err, errLen) != ATTIC_OK ||
      check(a.cuDeviceGetAttribute(&info->multiprocessors,
                                   CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                   device),
            "cuDeviceGetAttribute", err, errLen) != ATTIC_OK ||
      check(a.cuDeviceGetAttribute(
                &sharedOptin,
                CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device),
            "cuDeviceGetAttribute", err, errLen) != ATTIC_OK ||
      check(a.cuDeviceTotalMem(&info->totalMemoryBytes, device),
            "cuDeviceTotalMem", err, errLen) != ATTIC_OK ||
      check(a.cuDriverGetVersion(&info->driverVersion), "cuDriverGetVersion",
            err, errLen) != ATTIC_OK ||
      check(a.cuDeviceGetCount(&info->deviceCount), "cuDeviceGetCount", err,
            errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  info->name[sizeof(info->name) - 1] = '\0';
  info->maxSharedMemoryPerBlockOptin = static_cast<size_t>(sharedOptin);
  return ATTIC_OK;
}

attic_status attic_cuda_mem_alloc(void **ptr, size_t bytes, char *err,
                                  size_t errLen) {
  if (!ptr)
    return fail(err, errLen, "attic_cuda_mem_alloc: ptr is NULL");
  *ptr = nullptr;
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  return allocateWith(
      "cuMemAlloc", ptr, bytes, err, errLen,
      [&](CUdeviceptr *address) { return api().cuMemAlloc(address, bytes); });
}

attic_status attic_cuda_mem_alloc_managed(void **ptr, size_t bytes, char *err,
                                          size_t errLen) {
  if (!ptr)
    return fail(err, errLen, "attic_cuda_mem_alloc_managed: ptr is NULL");
  *ptr = nullptr;
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  return allocateWith(
      "cuMemAllocManaged", ptr, bytes, err, errLen, [&](CUdeviceptr *address) {
        return api().cuMemAllocManaged(address, bytes, CU_MEM_ATTACH_GLOBAL);
      });
}

attic_status attic_cuda_mem_free(void *ptr, char *err, size_t errLen) {
  if (!ptr)
    return ATTIC_OK;
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  {
    // cuMemFree also frees what cuMemAllocAsync allocated (synchronously).
    DriverState &s = state();
    std::lock_guard<std::mutex> lock(s.poolMutex);
    s.streamOrdered.erase(devicePtr(ptr));
  }
  return check(api().cuMemFree(devicePtr(ptr)), "cuMemFree", err, errLen);
}

attic_status attic_cuda_mem_alloc_async(void **ptr, size_t bytes,
                                        attic_cuda_stream stream, char *err,
                                        size_t errLen) {
  if (!ptr)
    return fail(err, errLen, "attic_cuda_mem_alloc_async: ptr is NULL");
  *ptr = nullptr;
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  DriverState &s = state();
  if (!stream || !s.memoryPools)
    return attic_cuda_mem_alloc(ptr, bytes, err, errLen);
  attic_status status = allocateWith(
      "cuMemAllocAsync", ptr, bytes, err, errLen, [&](CUdeviceptr *address) {
        return s.api.cuMemAllocAsync(address, bytes,
                                     reinterpret_cast<CUstream>(stream));
      });
  if (*ptr) {
    std::lock_guard<std::mutex> lock(s.poolMutex);
    s.streamOrdered.insert(devicePtr(*ptr));
  }
  return status;
}

attic_status attic_cuda_mem_free_async(void *ptr, attic_cuda_stream stream,
                                       char *err, size_t errLen) {
  if (!ptr)
    return ATTIC_OK;
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  DriverState &s = state();
  bool ordered = false;
  if (stream) {
    std::lock_guard<std::mutex> lock(s.poolMutex);
    ordered = s.streamOrdered.erase(devicePtr(ptr)) > 0;
  }
  if (!ordered)
    return attic_cuda_mem_free(ptr, err, errLen);
  return check(
      s.api.cuMemFreeAsync(devicePtr(ptr), reinterpret_cast<CUstream>(stream)),
      "cuMemFreeAsync", err, errLen);
}

attic_status attic_cuda_tensor_map_encode_tiled(
    void *map, int dataType, uint32_t rank, void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStrides,
    const uint32_t *boxDim, const uint32_t *elementStrides, int interleave,
    int swizzle, int l2Promotion, int oobFill, char *err, size_t errLen) {
  if (!map || !globalDim || !boxDim || !elementStrides ||
      (rank > 1 && !globalStrides))
    return fail(err, errLen,
                "attic_cuda_tensor_map_encode_tiled: NULL argument");
  if (reinterpret_cast<uintptr_t>(map) % 64 != 0)
    return fail(err, errLen,
                "attic_cuda_tensor_map_encode_tiled: the map is not "
                "64-byte aligned");
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  if (!api().cuTensorMapEncodeTiled)
    return fail(err, errLen,
                "TMA descriptors need cuTensorMapEncodeTiled, which the "
                "NVIDIA driver %s lacks (CUDA 12.0 or newer has it)",
                attic_cuda_driver_path());
  return check(api().cuTensorMapEncodeTiled(map, dataType, rank, globalAddress,
                                            globalDim, globalStrides, boxDim,
                                            elementStrides, interleave, swizzle,
                                            l2Promotion, oobFill),
               "cuTensorMapEncodeTiled", err, errLen);
}

attic_status attic_cuda_tensor_map_device(const void *map, void **ptr,
                                          char *err, size_t errLen) {
  constexpr size_t kMapBytes = 128, kMaxMaps = 1024;
  if (!map || !ptr)
    return fail(err, errLen, "attic_cuda_tensor_map_device: NULL argument");
  *ptr = nullptr;
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  DriverState &s = state();
  const Api &a = api();
  std::string key(static_cast<const char *>(map), kMapBytes);
  std::lock_guard<std::mutex> lock(s.tensorMapMutex);
  auto it = s.tensorMaps.find(key);
  if (it != s.tensorMaps.end()) {
    *ptr = reinterpret_cast<void *>(static_cast<uintptr_t>(it->second));
    return ATTIC_OK;
  }
  if (s.tensorMaps.size() >= kMaxMaps) {
    // Kernels in flight may read any of them.
    if (check(a.cuCtxSynchronize(), "cuCtxSynchronize", err, errLen) !=
        ATTIC_OK)
      return ATTIC_ERROR;
    for (auto &entry : s.tensorMaps)
      if (check(a.cuMemFree(entry.second), "cuMemFree", err, errLen) !=
          ATTIC_OK)
        return ATTIC_ERROR;
    s.tensorMaps.clear();
  }
  CUdeviceptr device = 0;
  if (check(a.cuMemAlloc(&device, kMapBytes), "cuMemAlloc", err, errLen) !=
      ATTIC_OK)
    return ATTIC_ERROR;
  // On the legacy stream, waited for: the launch that reads it may be on
  // any stream.
  if (check(a.cuMemcpyAsync(device, devicePtr(map), kMapBytes, nullptr),
            "cuMemcpyAsync", err, errLen) != ATTIC_OK ||
      check(a.cuStreamSynchronize(nullptr), "cuStreamSynchronize", err,
            errLen) != ATTIC_OK) {
    a.cuMemFree(device);
    return ATTIC_ERROR;
  }
  s.tensorMaps.emplace(std::move(key), device);
  *ptr = reinterpret_cast<void *>(static_cast<uintptr_t>(device));
  return ATTIC_OK;
}

attic_status attic_cuda_memcpy(void *dst, const void *src, size_t bytes,
                               attic_cuda_stream stream, char *err,
                               size_t errLen) {
  if (bytes == 0)
    return ATTIC_OK;
  if (!dst || !src)
    return fail(err, errLen, "attic_cuda_memcpy: NULL %s pointer",
                dst ? "source" : "destination");
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  return check(api().cuMemcpyAsync(devicePtr(dst), devicePtr(src), bytes,
                                   reinterpret_cast<CUstream>(stream)),
               "cuMemcpyAsync", err, errLen);
}

namespace {
/// The body of attic_cuda_memset{32,16,8}: `count` elements of `value`
/// through the driver's cuMemsetD{32,16,8}Async. The entry point is read
/// after ready(): before it (the first call, or after attic_cuda_shutdown)
/// the table is empty.
template <typename Value, typename Memset>
attic_status memsetAsync(Memset Api::*memset, const char *name, void *dst,
                         Value value, size_t count, attic_cuda_stream stream,
                         char *err, size_t errLen) {
  if (count == 0)
    return ATTIC_OK;
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  return check((api().*memset)(devicePtr(dst), value, count,
                               reinterpret_cast<CUstream>(stream)),
               name, err, errLen);
}
} // namespace

attic_status attic_cuda_memset32(void *dst, uint32_t value, size_t count,
                                 attic_cuda_stream stream, char *err,
                                 size_t errLen) {
  return memsetAsync(&Api::cuMemsetD32Async, "cuMemsetD32Async", dst, value,
                     count, stream, err, errLen);
}

attic_status attic_cuda_memset16(void *dst, uint16_t value, size_t count,
                                 attic_cuda_stream stream, char *err,
                                 size_t errLen) {
  return memsetAsync(&Api::cuMemsetD16Async, "cuMemsetD16Async", dst, value,
                     count, stream, err, errLen);
}

attic_status attic_cuda_memset8(void *dst, uint8_t value, size_t count,
                                attic_cuda_stream stream, char *err,
                                size_t errLen) {
  return memsetAsync(&Api::cuMemsetD8Async, "cuMemsetD8Async", dst, value,
                     count, stream, err, errLen);
}

attic_status attic_cuda_pointer_is_device(const void *ptr, int *isDevice,
                                          char *err, size_t errLen) {
  if (!isDevice)
    return fail(err, errLen, "attic_cuda_pointer_is_device: isDevice is NULL");
  *isDevice = 0;
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  unsigned type = 0;
  int attribute = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
  void *data = &type;
  // cuPointerGetAttributes, not cuPointerGetAttribute: for memory the driver
  // does not know (plain host memory) the singular form returns
  // CUDA_ERROR_INVALID_VALUE, which compute-sanitizer reports as an API
  // error on every run (seen on an H100); the plural form succeeds and
  // leaves the type 0.
  if (CUresult status =
          api().cuPointerGetAttributes(1, &attribute, &data, devicePtr(ptr)))
    return check(status, "cuPointerGetAttributes", err, errLen);
  *isDevice = type == CU_MEMORYTYPE_DEVICE;
  return ATTIC_OK;
}

attic_status attic_cuda_host_register(void *ptr, size_t bytes, char *err,
                                      size_t errLen) {
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  return check(api().cuMemHostRegister(ptr, bytes, 0), "cuMemHostRegister",
               err, errLen);
}

attic_status attic_cuda_host_unregister(void *ptr, char *err, size_t errLen) {
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  return check(api().cuMemHostUnregister(ptr), "cuMemHostUnregister", err,
               errLen);
}

attic_status attic_cuda_module_load(attic_cuda_module *module,
                                    const void *image, char *err,
                                    size_t errLen) {
  if (!module || !image)
    return fail(err, errLen, "attic_cuda_module_load: NULL %s",
                module ? "image" : "module");
  *module = nullptr;
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  CUmodule handle = nullptr;
  if (check(api().cuModuleLoadData(&handle, image), "cuModuleLoadData", err,
            errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  *module = reinterpret_cast<attic_cuda_module>(handle);
  return ATTIC_OK;
}

attic_status attic_cuda_module_load_ptx(attic_cuda_module *module,
                                        const char *ptx, int optLevel,
                                        char *err, size_t errLen) {
  if (!module || !ptx)
    return fail(err, errLen, "attic_cuda_module_load_ptx: NULL %s",
                module ? "PTX" : "module");
  *module = nullptr;
  if (optLevel < 0 || optLevel > 4)
    return fail(err, errLen,
                "attic_cuda_module_load_ptx: optimization level %d is not in "
                "[0, 4]",
                optLevel);
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  char log[4096] = {0};
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, reinterpret_cast<void *>(uintptr_t{sizeof(log)}),
                    reinterpret_cast<void *>(static_cast<uintptr_t>(optLevel))};
  CUmodule handle = nullptr;
  CUresult result = api().cuModuleLoadDataEx(&handle, ptx, 3, options, values);
  if (result != CUDA_SUCCESS) {
    log[sizeof(log) - 1] = '\0';
    return fail(err, errLen, "cuModuleLoadDataEx (PTX JIT) failed: %s%s%s",
                resultText(result).c_str(), log[0] ? ": " : "", log);
  }
  *module = reinterpret_cast<attic_cuda_module>(handle);
  return ATTIC_OK;
}

attic_status attic_cuda_module_unload(attic_cuda_module module, char *err,
                                      size_t errLen) {
  if (!module)
    return ATTIC_OK;
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  return check(api().cuModuleUnload(reinterpret_cast<CUmodule>(module)),
               "cuModuleUnload", err, errLen);
}

attic_status attic_cuda_module_get_function(attic_cuda_function *function,
                                            attic_cuda_module module,
                                            const char *name, char *err,
                                            size_t errLen) {
  if (!function || !module || !name)
    return fail(err, errLen,
                "attic_cuda_module_get_function: NULL function, module or "
                "name");
  *function = nullptr;
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  CUfunction handle = nullptr;
  if (CUresult result = api().cuModuleGetFunction(
          &handle, reinterpret_cast<CUmodule>(module), name))
    return fail(err, errLen, "cuModuleGetFunction(%s) failed: %s", name,
                resultText(result).c_str());
  *function = reinterpret_cast<attic_cuda_function>(handle);
  return ATTIC_OK;
}

attic_status attic_cuda_launch(attic_cuda_function function,
                               const int64_t grid[3], const int64_t block[3],
                               uint32_t sharedMemBytes,
                               attic_cuda_stream stream, void **params,
                               char *err, size_t errLen) {
  if (!function)
    return fail(err, errLen, "attic_cuda_launch: NULL function");
  if (!validDims(grid) || !validDims(block))
    return fail(err, errLen,
                "attic_cuda_launch: grid %lldx%lldx%lld or block "
                "%lldx%lldx%lld has a size outside [1, 2^31-1]",
                (long long)grid[0], (long long)grid[1], (long long)grid[2],
                (long long)block[0], (long long)block[1], (long long)block[2]);
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  CUfunction f = reinterpret_cast<CUfunction>(function);
  if (allowSharedMemory(f, sharedMemBytes, err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  return check(api().cuLaunchKernel(f, grid[0], grid[1], grid[2], block[0],
                                    block[1], block[2], sharedMemBytes,
                                    reinterpret_cast<CUstream>(stream), params,
                                    nullptr),
               "cuLaunchKernel", err, errLen);
}

attic_status attic_cuda_launch_cluster(attic_cuda_function function,
                                       const int64_t cluster[3],
                                       const int64_t grid[3],
                                       const int64_t block[3],
                                       uint32_t sharedMemBytes,
                                       attic_cuda_stream stream,
                                       void **params, char *err,
                                       size_t errLen) {
  if (!function)
    return fail(err, errLen, "attic_cuda_launch_cluster: NULL function");
  if (!validDims(cluster) || !validDims(grid) || !validDims(block))
    return fail(err, errLen,
                "attic_cuda_launch_cluster: a cluster, grid or block size is "
                "outside [1, 2^31-1]");
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  if (!api().cuLaunchKernelEx)
    return fail(err, errLen,
                "cluster launch needs cuLaunchKernelEx, which the NVIDIA "
                "driver %s lacks (CUDA 12 or later needed)",
                state().path.c_str());
  CUfunction f = reinterpret_cast<CUfunction>(function);
  if (allowSharedMemory(f, sharedMemBytes, err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  CUlaunchAttribute attribute{};
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = static_cast<unsigned>(cluster[0]);
  attribute.value.clusterDim.y = static_cast<unsigned>(cluster[1]);
  attribute.value.clusterDim.z = static_cast<unsigned>(cluster[2]);
  CUlaunchConfig config{};
  config.gridDimX = static_cast<unsigned>(grid[0]);
  config.gridDimY = static_cast<unsigned>(grid[1]);
  config.gridDimZ = static_cast<unsigned>(grid[2]);
  config.blockDimX = static_cast<unsigned>(block[0]);
  config.blockDimY = static_cast<unsigned>(block[1]);
  config.blockDimZ = static_cast<unsigned>(block[2]);
  config.sharedMemBytes = sharedMemBytes;
  config.hStream = reinterpret_cast<CUstream>(stream);
  config.attrs = &attribute;
  config.numAttrs = 1;
  return check(api().cuLaunchKernelEx(&config, f, params, nullptr),
               "cuLaunchKernelEx", err, errLen);
}

attic_status attic_cuda_stream_create(attic_cuda_stream *stream, char *err,
                                      size_t errLen) {
  if (!stream)
    return fail(err, errLen, "attic_cuda_stream_create: stream is NULL");
  *stream = nullptr;
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  CUstream handle = nullptr;
  if (check(api().cuStreamCreate(&handle, CU_STREAM_NON_BLOCKING),
            "cuStreamCreate", err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  *stream = reinterpret_cast<attic_cuda_stream>(handle);
  return ATTIC_OK;
}

attic_status attic_cuda_stream_destroy(attic_cuda_stream stream, char *err,
                                       size_t errLen) {
  if (!stream)
    return ATTIC_OK;
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  return check(api().cuStreamDestroy(reinterpret_cast<CUstream>(stream)),
               "cuStreamDestroy", err, errLen);
}

attic_status attic_cuda_stream_synchronize(attic_cuda_stream stream,
                                           char *err, size_t errLen) {
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  return check(api().cuStreamSynchronize(reinterpret_cast<CUstream>(stream)),
               "cuStreamSynchronize", err, errLen);
}

attic_status attic_cuda_stream_wait_event(attic_cuda_stream stream,
                                          attic_cuda_event event, char *err,
                                          size_t errLen) {
  if (!event)
    return fail(err, errLen, "attic_cuda_stream_wait_event: NULL event");
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  return check(api().cuStreamWaitEvent(reinterpret_cast<CUstream>(stream),
                                       reinterpret_cast<CUevent>(event), 0),
               "cuStreamWaitEvent", err, errLen);
}

attic_status attic_cuda_event_create(attic_cuda_event *event, int timing,
                                     char *err, size_t errLen) {
  if (!event)
    return fail(err, errLen, "attic_cuda_event_create: event is NULL");
  *event = nullptr;
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  CUevent handle = nullptr;
  if (check(api().cuEventCreate(&handle, timing ? CU_EVENT_DEFAULT
                                                : CU_EVENT_DISABLE_TIMING),
            "cuEventCreate", err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  *event = reinterpret_cast<attic_cuda_event>(handle);
  return ATTIC_OK;
}

attic_status attic_cuda_event_destroy(attic_cuda_event event, char *err,
                                      size_t errLen) {
  if (!event)
    return ATTIC_OK;
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  return check(api().cuEventDestroy(reinterpret_cast<CUevent>(event)),
               "cuEventDestroy", err, errLen);
}

attic_status attic_cuda_event_record(attic_cuda_event event,
                                     attic_cuda_stream stream, char *err,
                                     size_t errLen) {
  if (!event)
    return fail(err, errLen, "attic_cuda_event_record: NULL event");
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  return check(api().cuEventRecord(reinterpret_cast<CUevent>(event),
                                   reinterpret_cast<CUstream>(stream)),
               "cuEventRecord", err, errLen);
}

attic_status attic_cuda_event_synchronize(attic_cuda_event event, char *err,
                                          size_t errLen) {
  if (!event)
    return fail(err, errLen, "attic_cuda_event_synchronize: NULL event");
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  return check(api().cuEventSynchronize(reinterpret_cast<CUevent>(event)),
               "cuEventSynchronize", err, errLen);
}

attic_status attic_cuda_event_elapsed_ms(float *ms, attic_cuda_event start,
                                         attic_cuda_event end, char *err,
                                         size_t errLen) {
  if (!ms || !start || !end)
    return fail(err, errLen, "attic_cuda_event_elapsed_ms: NULL argument");
  *ms = 0;
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  return check(api().cuEventElapsedTime(ms, reinterpret_cast<CUevent>(start),
                                        reinterpret_cast<CUevent>(end)),
               "cuEventElapsedTime", err, errLen);
}

attic_status attic_cuda_synchronize(char *err, size_t errLen) {
  if (ready(err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  return check(api().cuCtxSynchronize(), "cuCtxSynchronize", err, errLen);
}

//===- CudaDriverTest.cpp - attic's CUDA driver layer without a GPU -------===//
//
// Runs the driver layer (attic/runtime/Cuda.h) and the mgpu* ABI
// (attic/runtime/CudaMgpu.h) against no driver at all, against a library
// that is not a CUDA driver, and against FakeCudaDriver.c in its modes. The
// path of the fake driver comes from CMake (ATTIC_FAKE_CUDA_DRIVER).
//
//===----------------------------------------------------------------------===//

#include "attic/runtime/Cuda.h"
#include "attic/runtime/CudaMgpu.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

/// Points the runtime at `driver` in fake mode `mode` and starts it over.
class CudaDriverTest : public ::testing::Test {
protected:
  void use(const char *driver, const char *mode = "no-device") {
    attic_cuda_shutdown();
    setenv("ATTIC_CUDA_DRIVER", driver, 1);
    setenv("ATTIC_FAKE_CUDA_MODE", mode, 1);
    attic_cuda_take_error(nullptr, 0);
  }
  void TearDown() override {
    attic_cuda_set_kernel_timing(0);
    attic_cuda_kernel_time(nullptr, nullptr, nullptr, 0);
    attic_cuda_take_error(nullptr, 0);
    attic_cuda_shutdown();
    unsetenv("ATTIC_CUDA_DRIVER");
    unsetenv("ATTIC_FAKE_CUDA_MODE");
    unsetenv("ATTIC_FAKE_CUDA_POOLS");
    unsetenv("ATTIC_CUDA_STREAM_ORDERED");
  }
  /// A counter exported by the fake driver (the same loaded instance).
  int fakeCounter(const char *name) {
    EXPECT_EQ(attic_cuda_init(nullptr, 0), ATTIC_OK); // loads the fake
    void *library = dlopen(ATTIC_FAKE_CUDA_DRIVER, RTLD_NOW | RTLD_NOLOAD);
    EXPECT_NE(library, nullptr);
    if (!library)
      return -1;
    int *counter = static_cast<int *>(dlsym(library, name));
    int value = counter ? *counter : -1;
    dlclose(library);
    return value;
  }

  char err[1024] = {0};
};

TEST_F(CudaDriverTest, DefaultPathIsLibcuda) {
  unsetenv("ATTIC_CUDA_DRIVER");
  EXPECT_STREQ(attic_cuda_driver_path(), "libcuda.so.1");
  setenv("ATTIC_CUDA_DRIVER", "", 1);
  EXPECT_STREQ(attic_cuda_driver_path(), "libcuda.so.1");
  setenv("ATTIC_CUDA_DRIVER", "/x/libfake.so", 1);
  EXPECT_STREQ(attic_cuda_driver_path(), "/x/libfake.so");
}

TEST_F(CudaDriverTest, NoDriver) {
  use("/nonexistent/attic/libcuda.so.1");
  ASSERT_EQ(attic_cuda_init(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err).rfind("no NVIDIA driver: dlopen(/nonexistent/"
                                   "attic/libcuda.so.1) failed: ",
                                   0),
            0u)
      << err;
  EXPECT_EQ(std::strchr(err, '\n'), nullptr);

  // Every entry point reports the same and leaves its outputs cleared.
  attic_cuda_device_info info;
  std::memset(&info, 0x5a, sizeof(info));
  EXPECT_EQ(attic_cuda_device_query(&info, err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(info.name[0], '\0');
  void *ptr = &info;
  EXPECT_EQ(attic_cuda_mem_alloc(&ptr, 16, err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(ptr, nullptr);
  EXPECT_NE(std::string(err).find("no NVIDIA driver"), std::string::npos);

  // The mgpu* layer records the failure instead of crashing.
  EXPECT_EQ(mgpuStreamCreate(), nullptr);
  EXPECT_EQ(mgpuMemAlloc(16, nullptr, false), nullptr);
  ASSERT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err).rfind("mgpuStreamCreate: no NVIDIA driver", 0),
            0u)
      << err;
  EXPECT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_OK);
}

extern "C" int attic_cuda_c_api_without_driver(void);

TEST_F(CudaDriverTest, CApiWithoutDriver) {
  use("/nonexistent/attic/libcuda.so.1");
  EXPECT_EQ(attic_cuda_c_api_without_driver(), 0);
}

TEST_F(CudaDriverTest, LibraryThatIsNotADriver) {
  use("libm.so.6");
  ASSERT_EQ(attic_cuda_init(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err).rfind("NVIDIA driver libm.so.6 lacks cuInit", 0),
            0u)
      << err;
}

TEST_F(CudaDriverTest, NoDevice) {
  use(ATTIC_FAKE_CUDA_DRIVER, "no-device");
  ASSERT_EQ(attic_cuda_init(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_STREQ(err, "no CUDA device: cuInit failed: CUDA_ERROR_NO_DEVICE (no "
                    "CUDA-capable device is detected)");
  // The outcome is cached until shutdown.
  std::memset(err, 0, sizeof(err));
  ASSERT_EQ(attic_cuda_init(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_NE(std::string(err).find("CUDA_ERROR_NO_DEVICE"), std::string::npos);
}

TEST_F(CudaDriverTest, ZeroDevices) {
  use(ATTIC_FAKE_CUDA_DRIVER, "zero-devices");
  ASSERT_EQ(attic_cuda_init(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_STREQ(err, "no CUDA device: the driver reports 0 devices");
}

TEST_F(CudaDriverTest, ShutdownRereadsTheDriverPath) {
  use("/nonexistent/libcuda.so.1");
  EXPECT_EQ(attic_cuda_init(err, sizeof(err)), ATTIC_ERROR);
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  EXPECT_EQ(attic_cuda_init(err, sizeof(err)), ATTIC_OK) << err;
}

TEST_F(CudaDriverTest, DeviceQuery) {
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  attic_cuda_device_info info;
  ASSERT_EQ(attic_cuda_device_query(&info, err, sizeof(err)), ATTIC_OK) << err;
  EXPECT_STREQ(info.name, "attic fake CUDA device");
  EXPECT_EQ(info.computeMajor, 8);
  EXPECT_EQ(info.computeMinor, 0);
  EXPECT_EQ(info.multiprocessors, 4);
  EXPECT_EQ(info.totalMemoryBytes, size_t{1} << 30);
  EXPECT_EQ(info.maxSharedMemoryPerBlockOptin, size_t{160 * 1024});
  EXPECT_EQ(info.driverVersion, 13000);
  EXPECT_EQ(info.deviceCount, 1);
}

TEST_F(CudaDriverTest, MemoryRoundTrip) {
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  void *device = nullptr;
  ASSERT_EQ(attic_cuda_mem_alloc(&device, 64, err, sizeof(err)), ATTIC_OK)
      << err;
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(fakeCounter("attic_fake_live_allocations"), 1);
  uint32_t host[16];
  for (uint32_t i = 0; i < 16; ++i)
    host[i] = i * 3;
  ASSERT_EQ(attic_cuda_memcpy(device, host, sizeof(host), nullptr, err,
                              sizeof(err)),
            ATTIC_OK);
  ASSERT_EQ(attic_cuda_memset32(static_cast<char *>(device) + 8, 0xdeadbeef,
                                2, nullptr, err, sizeof(err)),
            ATTIC_OK);
  uint32_t back[16] = {0};
  ASSERT_EQ(attic_cuda_memcpy(back, device, sizeof(back), nullptr, err,
                              sizeof(err)),
            ATTIC_OK);
  ASSERT_EQ(attic_cuda_stream_synchronize(nullptr, err, sizeof(err)),
            ATTIC_OK);
  for (uint32_t i = 0; i < 16; ++i)
    EXPECT_EQ(back[i], i == 2 || i == 3 ? 0xdeadbeefu : i * 3) << i;
  EXPECT_EQ(attic_cuda_mem_free(device, err, sizeof(err)), ATTIC_OK);
  EXPECT_EQ(fakeCounter("attic_fake_live_allocations"), 0);

  // Zero bytes is no allocation; freeing NULL is fine.
  void *none = &host;
  EXPECT_EQ(attic_cuda_mem_alloc(&none, 0, err, sizeof(err)), ATTIC_OK);
  EXPECT_EQ(none, nullptr);
  EXPECT_EQ(attic_cuda_mem_free(nullptr, err, sizeof(err)), ATTIC_OK);
}

// Each memset may be the first call into the runtime, or the first after a
// shutdown: it loads the driver before it looks up its entry point (it
// called a null pointer). The fake driver's memsets write any pointer.
TEST_F(CudaDriverTest, MemsetLoadsTheDriverFirst) {
  uint32_t words[4] = {0};
  uint16_t halves[4] = {0};
  uint8_t bytes[4] = {0};
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  ASSERT_EQ(attic_cuda_memset32(words, 7u, 4, nullptr, err, sizeof(err)),
            ATTIC_OK)
      << err;
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  ASSERT_EQ(attic_cuda_memset16(halves, 9u, 4, nullptr, err, sizeof(err)),
            ATTIC_OK)
      << err;
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  ASSERT_EQ(attic_cuda_memset8(bytes, 11u, 4, nullptr, err, sizeof(err)),
            ATTIC_OK)
      << err;
  ASSERT_EQ(attic_cuda_stream_synchronize(nullptr, err, sizeof(err)), ATTIC_OK);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(words[i], 7u) << i;
    EXPECT_EQ(halves[i], 9u) << i;
    EXPECT_EQ(bytes[i], 11u) << i;
  }
  // Without a device, the first memset reports it.
  use(ATTIC_FAKE_CUDA_DRIVER, "no-device");
  EXPECT_EQ(attic_cuda_memset32(words, 1u, 4, nullptr, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_EQ(words[0], 7u);
}

// Plain host memory is "not device memory", and asking is no failed driver
// call (cuPointerGetAttributes; the fake, like a real driver, knows no host
// pointer). A NULL result pointer is an error.
TEST_F(CudaDriverTest, PointerIsDeviceForHostMemory) {
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  float host[4] = {0};
  int isDevice = 7;
  ASSERT_EQ(attic_cuda_pointer_is_device(host, &isDevice, err, sizeof(err)),
            ATTIC_OK)
      << err;
  EXPECT_EQ(isDevice, 0);
  EXPECT_EQ(attic_cuda_pointer_is_device(host, nullptr, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_cuda_pointer_is_device: isDevice is NULL");
}

// Stream-ordered buffers (what mgpuMemAlloc/mgpuMemFree use): on a stream of
// a device with memory pools, cuMemAllocAsync/cuMemFreeAsync; only what
// cuMemAllocAsync allocated is freed stream-ordered; a NULL stream, or a
// device without pools, takes cuMemAlloc/cuMemFree.
TEST_F(CudaDriverTest, StreamOrderedMemory) {
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  attic_cuda_stream stream = nullptr;
  ASSERT_EQ(attic_cuda_stream_create(&stream, err, sizeof(err)), ATTIC_OK)
      << err;
  int allocs = fakeCounter("attic_fake_async_allocations");
  int frees = fakeCounter("attic_fake_async_frees");
  int live = fakeCounter("attic_fake_live_allocations");

  void *ordered = nullptr;
  ASSERT_EQ(attic_cuda_mem_alloc_async(&ordered, 64, stream, err, sizeof(err)),
            ATTIC_OK)
      << err;
  ASSERT_NE(ordered, nullptr);
  EXPECT_EQ(fakeCounter("attic_fake_async_allocations"), allocs + 1);
  EXPECT_EQ(fakeCounter("attic_fake_live_allocations"), live + 1);
  uint32_t host[4] = {1, 2, 3, 4}, back[4] = {0};
  ASSERT_EQ(
      attic_cuda_memcpy(ordered, host, sizeof(host), stream, err, sizeof(err)),
      ATTIC_OK);
  ASSERT_EQ(
      attic_cuda_memcpy(back, ordered, sizeof(back), stream, err, sizeof(err)),
      ATTIC_OK);
  EXPECT_EQ(back[3], 4u);
  EXPECT_EQ(attic_cuda_mem_free_async(ordered, stream, err, sizeof(err)),
            ATTIC_OK);
  EXPECT_EQ(fakeCounter("attic_fake_async_frees"), frees + 1);
  EXPECT_EQ(fakeCounter("attic_fake_live_allocations"), live);

  // Without a stream: the synchronous calls, and a synchronous buffer is
  // never freed stream-ordered.
  void *plain = nullptr;
  ASSERT_EQ(attic_cuda_mem_alloc_async(&plain, 64, nullptr, err, sizeof(err)),
            ATTIC_OK);
  EXPECT_EQ(fakeCounter("attic_fake_async_allocations"), allocs + 1);
  EXPECT_EQ(attic_cuda_mem_free_async(plain, stream, err, sizeof(err)),
            ATTIC_OK);
  EXPECT_EQ(fakeCounter("attic_fake_async_frees"), frees + 1);
  EXPECT_EQ(fakeCounter("attic_fake_live_allocations"), live);

  // A stream-ordered buffer freed synchronously is forgotten: a later
  // buffer at the same address is not mistaken for it.
  ASSERT_EQ(attic_cuda_mem_alloc_async(&ordered, 64, stream, err, sizeof(err)),
            ATTIC_OK);
  EXPECT_EQ(attic_cuda_mem_free(ordered, err, sizeof(err)), ATTIC_OK);
  ASSERT_EQ(attic_cuda_mem_alloc(&plain, 64, err, sizeof(err)), ATTIC_OK);
  EXPECT_EQ(attic_cuda_mem_free_async(plain, stream, err, sizeof(err)),
            ATTIC_OK);
  EXPECT_EQ(fakeCounter("attic_fake_async_frees"), frees + 1);
  EXPECT_EQ(fakeCounter("attic_fake_live_allocations"), live);

  // Zero bytes and NULL, as for the synchronous calls.
  void *none = &host;
  EXPECT_EQ(attic_cuda_mem_alloc_async(&none, 0, stream, err, sizeof(err)),
            ATTIC_OK);
  EXPECT_EQ(none, nullptr);
  EXPECT_EQ(attic_cuda_mem_free_async(nullptr, stream, err, sizeof(err)),
            ATTIC_OK);
  EXPECT_EQ(attic_cuda_stream_destroy(stream, err, sizeof(err)), ATTIC_OK);
}

// A device without memory pools, or ATTIC_CUDA_STREAM_ORDERED=0 on one with
// them: cuMemAlloc/cuMemFree.
class SynchronousMemory : public CudaDriverTest,
                          public ::testing::WithParamInterface<const char *> {};

TEST_P(SynchronousMemory, WithoutStreamOrderedCalls) {
  setenv(GetParam(), "0", 1);
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  attic_cuda_stream stream = nullptr;
  ASSERT_EQ(attic_cuda_stream_create(&stream, err, sizeof(err)), ATTIC_OK)
      << err;
  int allocs = fakeCounter("attic_fake_async_allocations");
  int frees = fakeCounter("attic_fake_async_frees");
  void *ptr = nullptr;
  ASSERT_EQ(attic_cuda_mem_alloc_async(&ptr, 64, stream, err, sizeof(err)),
            ATTIC_OK);
  EXPECT_NE(ptr, nullptr);
  EXPECT_EQ(attic_cuda_mem_free_async(ptr, stream, err, sizeof(err)), ATTIC_OK);
  EXPECT_EQ(fakeCounter("attic_fake_async_allocations"), allocs);
  EXPECT_EQ(fakeCounter("attic_fake_async_frees"), frees);
  EXPECT_EQ(attic_cuda_stream_destroy(stream, err, sizeof(err)), ATTIC_OK);
}

INSTANTIATE_TEST_SUITE_P(
    CudaDriverTest, SynchronousMemory,
    ::testing::Values("ATTIC_FAKE_CUDA_POOLS", "ATTIC_CUDA_STREAM_ORDERED"),
    [](const ::testing::TestParamInfo<const char *> &info) {
      return std::string(info.param);
    });

TEST_F(CudaDriverTest, ModuleLoadFailuresNameTheCallAndError) {
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  attic_cuda_module module;
  const char image[] = "not a cubin";
  ASSERT_EQ(attic_cuda_module_load(&module, image, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "cuModuleLoadData failed: CUDA_ERROR_INVALID_IMAGE "
                    "(device kernel image is invalid)");
  EXPECT_EQ(module, nullptr);
  ASSERT_EQ(attic_cuda_module_load_ptx(&module, ".version 8.0", 3, err,
                                       sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "cuModuleLoadDataEx (PTX JIT) failed: "
                    "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed): "
                    "ptxas fatal: the fake driver compiles no PTX");
  EXPECT_EQ(attic_cuda_module_load_ptx(&module, ".version 8.0", 9, err,
                                       sizeof(err)),
            ATTIC_ERROR);
  EXPECT_NE(std::string(err).find("optimization level 9"), std::string::npos);
}

TEST_F(CudaDriverTest, LaunchChecksDimsAndRaisesSharedMemoryLimit) {
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  int tag;
  auto function = reinterpret_cast<attic_cuda_function>(&tag);
  const int64_t grid[3] = {2, 1, 1}, block[3] = {128, 1, 1};
  const int64_t badGrid[3] = {0, 1, 1};
  int before = fakeCounter("attic_fake_launches");
  EXPECT_EQ(attic_cuda_launch(function, badGrid, block, 0, nullptr, nullptr,
                              err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_NE(std::string(err).find("outside [1, 2^31-1]"), std::string::npos);
  EXPECT_EQ(fakeCounter("attic_fake_launches"), before);
  ASSERT_EQ(attic_cuda_launch(function, grid, block, 96 * 1024, nullptr,
                              nullptr, err, sizeof(err)),
            ATTIC_OK)
      << err;
  EXPECT_EQ(fakeCounter("attic_fake_launches"), before + 1);
  EXPECT_EQ(fakeCounter("attic_fake_set_shared_memory"), 96 * 1024);
}

TEST_F(CudaDriverTest, MgpuRecordsTheFirstErrorAndThenDoesNothing) {
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  char image[] = "not a cubin";
  EXPECT_EQ(mgpuModuleLoad(image, sizeof(image)), nullptr);
  // Pending error: later calls are no-ops (no allocation reaches the driver).
  EXPECT_EQ(mgpuMemAlloc(64, nullptr, false), nullptr);
  EXPECT_EQ(fakeCounter("attic_fake_live_allocations"), 0);
  EXPECT_EQ(mgpuModuleGetFunction(nullptr, "k"), nullptr);
  ASSERT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_STREQ(err, "mgpuModuleLoad: cuModuleLoadData failed: "
                    "CUDA_ERROR_INVALID_IMAGE (device kernel image is "
                    "invalid)");
  EXPECT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_OK);

  // Once taken, calls work again.
  void *stream = mgpuStreamCreate();
  ASSERT_NE(stream, nullptr);
  float host[4] = {1, 2, 3, 4}, back[4] = {0};
  void *device = mgpuMemAlloc(sizeof(host), stream, false);
  ASSERT_NE(device, nullptr);
  mgpuMemcpy(device, host, sizeof(host), stream);
  mgpuMemset16(device, 0x3c00, 2, stream); // f16 1.0 in the first 4 bytes
  mgpuMemcpy(back, device, sizeof(back), stream);
  mgpuStreamSynchronize(stream);
  mgpuMemFree(device, stream);
  mgpuStreamDestroy(stream);
  EXPECT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_OK) << err;
  uint16_t halves[2];
  std::memcpy(halves, back, 4);
  EXPECT_EQ(halves[0], 0x3c00);
  EXPECT_EQ(halves[1], 0x3c00);
  EXPECT_EQ(back[1], 2.0f);
  EXPECT_EQ(back[3], 4.0f);
  EXPECT_EQ(fakeCounter("attic_fake_live_allocations"), 0);

  // A bad device ordinal is an error, not a silent switch.
  mgpuSetDefaultDevice(1);
  ASSERT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_NE(std::string(err).find("device 1 requested"), std::string::npos);
}

// Loads run while another load's error is pending: each AOT library's
// constructor loads its kernels when it is loaded, and one library's failed
// load left every library loaded after it without kernels for good (a
// 2026-11-30 audit). The first error stays the one reported.
TEST_F(CudaDriverTest, MgpuLoadsWhileAnotherLoadsErrorIsPending) {
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  char image[] = "not a cubin";
  EXPECT_EQ(mgpuModuleLoad(image, sizeof(image)), nullptr);
  setenv("ATTIC_FAKE_CUDA_MODE", "device-noop-kernels", 1);
  void *module = mgpuModuleLoad(image, sizeof(image));
  EXPECT_NE(module, nullptr);
  EXPECT_EQ(fakeCounter("attic_fake_live_modules"), 1);
  // Unloaded too while the error is pending (a library closed before any
  // call took it leaked its module).
  mgpuModuleUnload(module);
  EXPECT_EQ(fakeCounter("attic_fake_live_modules"), 0);
  ASSERT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_NE(std::string(err).find("CUDA_ERROR_INVALID_IMAGE"),
            std::string::npos)
      << err;
  module = mgpuModuleLoad(image, sizeof(image));
  EXPECT_NE(mgpuModuleGetFunction(module, "k"), nullptr);
  mgpuModuleUnload(module);
  EXPECT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_OK) << err;
}

TEST_F(CudaDriverTest, MgpuPtxLoadCarriesTheJitLog) {
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  char ptx[] = ".version 8.0\n.target sm_80\n";
  EXPECT_EQ(mgpuModuleLoadJIT(ptx, 2), nullptr);
  ASSERT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_NE(std::string(err).find("mgpuModuleLoadJIT: cuModuleLoadDataEx "
                                  "(PTX JIT) failed: CUDA_ERROR_INVALID_PTX"),
            std::string::npos)
      << err;
  EXPECT_NE(std::string(err).find("the fake driver compiles no PTX"),
            std::string::npos);
}

TEST_F(CudaDriverTest, MgpuKernelTimingSumsEventTimes) {
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  int tag;
  void *params[1] = {nullptr};
  // Timing off: launches are not counted.
  mgpuLaunchKernel(&tag, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr, 1);
  double ms = -1;
  int64_t launches = -1;
  ASSERT_EQ(attic_cuda_kernel_time(&ms, &launches, err, sizeof(err)),
            ATTIC_OK);
  EXPECT_EQ(launches, 0);
  EXPECT_EQ(ms, 0.0);

  attic_cuda_set_kernel_timing(1);
  int before = fakeCounter("attic_fake_launches");
  mgpuLaunchKernel(&tag, 4, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr, 1);
  mgpuLaunchClusterKernel(&tag, 2, 1, 1, 4, 1, 1, 128, 1, 1, 0, nullptr,
                          params, nullptr);
  EXPECT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_OK) << err;
  EXPECT_EQ(fakeCounter("attic_fake_launches"), before + 2);
  ASSERT_EQ(attic_cuda_kernel_time(&ms, &launches, err, sizeof(err)),
            ATTIC_OK)
      << err;
  EXPECT_EQ(launches, 2);
  EXPECT_DOUBLE_EQ(ms, 3.0); // the fake's events are 1.5 ms apart
  // Reading resets.
  ASSERT_EQ(attic_cuda_kernel_time(&ms, &launches, err, sizeof(err)),
            ATTIC_OK);
  EXPECT_EQ(launches, 0);

  // A launch the driver layer rejects is recorded and not timed.
  mgpuLaunchKernel(&tag, 0, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr, 1);
  ASSERT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err).rfind("mgpuLaunchKernel: attic_cuda_launch: "
                                   "grid 0x1x1",
                                   0),
            0u)
      << err;
  ASSERT_EQ(attic_cuda_kernel_time(&ms, &launches, err, sizeof(err)),
            ATTIC_OK);
  EXPECT_EQ(launches, 0);
}

TEST_F(CudaDriverTest, MgpuHostRegisterMemRef) {
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  float data[6];
  struct {
    void *allocated, *aligned;
    int64_t offset, sizes[2], strides[2];
  } descriptor = {data, data, 0, {2, 3}, {3, 1}};
  mgpuMemHostRegisterMemRef(2, &descriptor, sizeof(float));
  mgpuMemHostUnregisterMemRef(2, &descriptor, sizeof(float));
  EXPECT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_OK) << err;
}

TEST_F(CudaDriverTest, MgpuTensorMapOfAMemRef) {
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  // A [2, 3, 40, 64] f16 memref (K of attention), offset by one head.
  alignas(256) static uint16_t data[2 * 3 * 40 * 64 + 40 * 64];
  struct {
    void *allocated, *aligned;
    int64_t offset, sizes[4], strides[4];
  } descriptor = {
      data, data, 40 * 64, {2, 3, 40, 64}, {3 * 40 * 64, 40 * 64, 64, 1}};
  int64_t box[4] = {1, 1, 32, 64};
  int before = fakeCounter("attic_fake_live_allocations");
  void *device = mgpuTensorMapEncodeTiledMemref(4, &descriptor, /*f16=*/6, 0,
                                                /*128B=*/3, 0, 0, box);
  ASSERT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_OK) << err;
  ASSERT_NE(device, nullptr);
  // The fake's device memory is host memory: read the map back.
  uint64_t w[16];
  std::memcpy(w, device, sizeof(w));
  EXPECT_EQ(w[0], 6u | 4u << 8 | 3u << 24);
  EXPECT_EQ(w[1], reinterpret_cast<uintptr_t>(data + 40 * 64));
  EXPECT_EQ(w[2], 64u);
  EXPECT_EQ(w[3], 40u);
  EXPECT_EQ(w[4], 3u);
  EXPECT_EQ(w[5], 2u);
  EXPECT_EQ(w[7], 128u);
  EXPECT_EQ(w[8], 40u * 128);
  EXPECT_EQ(w[9], 3u * 40 * 128);
  EXPECT_EQ(w[11], 64u | uint64_t(1) << 32);
  EXPECT_EQ(w[12], 32u | uint64_t(1) << 32);
  EXPECT_EQ(w[13], 1u | uint64_t(1) << 32);
  EXPECT_EQ(fakeCounter("attic_fake_live_allocations"), before + 1);
  // The same map again: the same device copy, no new allocation.
  EXPECT_EQ(mgpuTensorMapEncodeTiledMemref(4, &descriptor, 6, 0, 3, 0, 0, box),
            device);
  EXPECT_EQ(fakeCounter("attic_fake_live_allocations"), before + 1);
  // Another box: another copy.
  box[2] = 64;
  void *other =
      mgpuTensorMapEncodeTiledMemref(4, &descriptor, 6, 0, 3, 0, 0, box);
  EXPECT_NE(other, nullptr);
  EXPECT_NE(other, device);
  EXPECT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_OK) << err;

  // What a tensor map cannot describe is an error naming the cause.
  box[2] = 300;
  EXPECT_EQ(mgpuTensorMapEncodeTiledMemref(4, &descriptor, 6, 0, 3, 0, 0, box),
            nullptr);
  ASSERT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_STREQ(err, "mgpuTensorMapEncodeTiledMemref: box size 300 of "
                    "dimension 2 is not in [1, 256]");
  box[2] = 32;
  descriptor.strides[3] = 2;
  EXPECT_EQ(mgpuTensorMapEncodeTiledMemref(4, &descriptor, 6, 0, 3, 0, 0, box),
            nullptr);
  ASSERT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_NE(std::string(err).find("innermost stride is 2"), std::string::npos)
      << err;
  descriptor.strides[3] = 1;
  EXPECT_EQ(mgpuTensorMapEncodeTiledMemref(6, &descriptor, 6, 0, 3, 0, 0, box),
            nullptr);
  ASSERT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_NE(std::string(err).find("rank 1 to 5, got rank 6"),
            std::string::npos);
  // The driver's refusal (an address not 16-byte aligned) with its name.
  descriptor.offset = 1;
  EXPECT_EQ(mgpuTensorMapEncodeTiledMemref(4, &descriptor, 6, 0, 3, 0, 0, box),
            nullptr);
  ASSERT_EQ(attic_cuda_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_NE(std::string(err).find("mgpuTensorMapEncodeTiledMemref: "
                                  "cuTensorMapEncodeTiled failed: "
                                  "CUDA_ERROR_INVALID_VALUE"),
            std::string::npos)
      << err;
  // Shutdown frees the two copies (a reference keeps the fake loaded
  // across the runtime's dlclose).
  void *library = dlopen(ATTIC_FAKE_CUDA_DRIVER, RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(library, nullptr);
  const int *live =
      static_cast<const int *>(dlsym(library, "attic_fake_live_allocations"));
  ASSERT_NE(live, nullptr);
  int before_shutdown = *live;
  attic_cuda_shutdown();
  EXPECT_EQ(*live, before_shutdown - 2);
  dlclose(library);
}

TEST_F(CudaDriverTest, TensorMapCopiesAreReusedAndBounded) {
  use(ATTIC_FAKE_CUDA_DRIVER, "device");
  int before = fakeCounter("attic_fake_live_allocations");
  alignas(64) unsigned char map[128] = {0};
  void *first = nullptr, *again = nullptr;
  ASSERT_EQ(attic_cuda_tensor_map_device(map, &first, err, sizeof(err)),
            ATTIC_OK)
      << err;
  // The device copy holds the map's bytes.
  EXPECT_EQ(std::memcmp(first, map, sizeof(map)), 0);
  ASSERT_EQ(attic_cuda_tensor_map_device(map, &again, err, sizeof(err)),
            ATTIC_OK);
  EXPECT_EQ(again, first);
  // 1024 distinct maps are kept; the 1025th frees them all first.
  for (int i = 1; i < 1024; ++i) {
    std::memcpy(map, &i, sizeof(i));
    void *copy = nullptr;
    ASSERT_EQ(attic_cuda_tensor_map_device(map, &copy, err, sizeof(err)),
              ATTIC_OK);
  }
  EXPECT_EQ(fakeCounter("attic_fake_live_allocations"), before + 1024);
  int last = 1024;
  std::memcpy(map, &last, sizeof(last));
  void *copy = nullptr;
  ASSERT_EQ(attic_cuda_tensor_map_device(map, &copy, err, sizeof(err)),
            ATTIC_OK);
  EXPECT_EQ(fakeCounter("attic_fake_live_allocations"), before + 1);
  EXPECT_EQ(attic_cuda_tensor_map_device(nullptr, &copy, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_STREQ(err, "attic_cuda_tensor_map_device: NULL argument");
}

} // namespace

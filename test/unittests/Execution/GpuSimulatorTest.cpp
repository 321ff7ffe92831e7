//===- GpuSimulatorTest.cpp - the GPU simulator catches kernel bugs -------===//
//
// attic-run --target=cuda-simulated is only worth its name if a kernel that
// would go wrong on a GPU fails in it. Each test runs one hand-written
// kernel (a function on memrefs with a gpu.launch, the form of the CUDA
// mapping's output) through SimulatedCudaExecutable::fromLowered:
//
//   - a correct neighbour exchange through shared memory gives the right
//     values; without its barrier it is a race; a barrier reached by half
//     the block, an access past the end of shared memory, a shuffle in half
//     a warp, a kernel dereferencing host memory, host code dereferencing
//     device memory and a use after gpu.dealloc are errors naming the op;
//   - device memory that nothing wrote reads as NaN, not as zeros;
//   - host code's streams (async tokens): the host reading a buffer that
//     a gpu.memcpy on a live stream writes, or writing one that it reads,
//     a stream live at the return, a token of a stream that a blocking
//     gpu.wait destroyed and an async step without a dependency are
//     errors; two chains one after the other run;
//   - one nvgpu.mma.sync m16n8k16 whose fragments the test loads by the
//     PTX ISA's layout tables equals the plain matrix product, and so does
//     one whose fragments come from nvgpu.ldmatrix (.x4, and .x2 .trans)
//     of shared memory; a row address that is not 16-byte aligned is an
//     error, and so is a vector load whose address misses the alignment
//     it claims (LLVM would emit a wide access for it);
//   - cp.async (nvgpu.device_async_copy, nvvm.cp.async.commit.group and
//     wait.group) copies, zero-fills past its source elements, and lands
//     at the wait: reading its bytes before the wait that covers its group
//     (a missing wait, a copy never committed, wait_group 1 on the only
//     group) is an error, so are reading them from another thread without
//     a barrier after the wait, a misaligned copy and a copy still in
//     flight at the end of the kernel;
//   - dynamic shared memory (gpu.dynamic_shared_memory and memref.view, as
//     the tensor-core kernel's rings use it): a view works next to static
//     shared memory; a view past its end or at a misaligned byte, a
//     launch without a size and more than 227 KiB per block are errors;
//   - wgmma (inline asm: wgmma.fence, wgmma.mma_async m64nNk16 with A in
//     registers and B K-major (no swizzle or 128-byte) or N-major (128-byte)
//     through a descriptor, commit_group, wait_group) equals the matrix
//     product; the swizzle follows the absolute shared address; a generic
//     write without fence.proxy.async, another thread's write without a
//     barrier, a write to an operand while the wgmma is in flight, a
//     missing wgmma.fence, a wait that does not complete the group, an
//     accumulator read around the wait, a partial warpgroup and an
//     unsimulated descriptor form are errors;
//   - TMA (nvgpu.tma.create.descriptor on the host, mbarrier.create, init,
//     arrive.expect_tx, try_wait.parity and tma.async.load in the kernel)
//     copies the box at the coordinates (innermost first), zero-filling
//     past the tensor; reading the box before waiting for the phase, a
//     wait for the wrong parity (a deadlock), fewer expected bytes than
//     the load brings, an mbarrier used by other threads without a
//     barrier after its init, a misaligned destination and a load no
//     thread waits for are errors;
//   - vector.to_elements (the canonicalizer's form of a run of
//     vector.extract) hands out the elements in row-major order;
//   - memref.reinterpret_cast's offset counts from the source's aligned
//     pointer (moved by memref.view), as its LLVM lowering has it;
//   - an outlined kernel (gpu.func, run by gpu.launch_func: the form after
//     gpu-kernel-outlining and attic-gpu-annotate-kernels) runs with its
//     arguments bound to the launch's operands, races as the gpu.launch
//     form does, and a launch whose sizes differ from the kernel's
//     known_grid_size or known_block_size is an error.
//
//===----------------------------------------------------------------------===//

#include "CompiledHarness.h"

#include <cmath>
#include <string>

using attic::testing::Tensor;

namespace {

/// Runs @k of `source` (already in the CUDA mapping's form) on `inputs` in
/// the simulator; `error` is its message (empty when it succeeded).
std::vector<Tensor> simulate(const std::string &source,
                             const std::vector<const Tensor *> &inputs,
                             std::string &error) {
  attic::testing::Simulated simulated(source, "k", 0, 0, /*lowered=*/true);
  std::vector<Tensor> results = simulated.run(inputs);
  error = simulated.error;
  return results;
}

void replace(std::string &s, const std::string &from, const std::string &to) {
  size_t at = s.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  s.replace(at, from.size(), to);
}

// 64 threads: out[i] = in[(i + 1) % 64] through shared memory. The markers
// HOST_PRE, KERNEL_LOAD, BARRIER, NEXT and HOST_POST are edited by the tests.
const char *kExchange = R"mlir(
func.func @k(%in: memref<64xf32>) -> memref<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<64xf32>
  %t2 = gpu.memcpy async [%t1] %d, %in : memref<64xf32>, memref<64xf32>
  %o, %t3 = gpu.alloc async [%t2] () : memref<64xf32>
  // HOST_PRE
  %t4 = gpu.launch async [%t3] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
      workgroup(%s : memref<64xf32, #gpu.address_space<workgroup>>) {
    %x = memref.load %d[%tx] : memref<64xf32> // KERNEL_LOAD
    memref.store %x, %s[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier // BARRIER
    %n1 = arith.addi %tx, %c1 : index
    %n = arith.remui %n1, %c64 : index // NEXT
    %y = memref.load %s[%n] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %y, %o[%tx] : memref<64xf32>
    gpu.terminator
  }
  %h = memref.alloc() : memref<64xf32>
  %t5 = gpu.memcpy async [%t4] %h, %o : memref<64xf32>, memref<64xf32>
  gpu.wait [%t5]
  // HOST_POST
  return %h : memref<64xf32>
}
)mlir";

/// A kernel of 64 floats in, 64 out: `source` (edited by the tests) run on
/// `in` in the simulator.
/// A simulation that failed (no outputs) with `fragment` in its error.
void expectFailure(const std::vector<Tensor> &out, const std::string &error,
                   const std::string &fragment) {
  EXPECT_TRUE(out.empty());
  EXPECT_NE(error.find(fragment), std::string::npos)
      << "expected '" << fragment << "' in: " << error;
}

struct OneKernel : ::testing::Test {
  Tensor in{ATTIC_F32, {64}};
  std::string source;
  std::string error;
  OneKernel(const char *kernel, double first, double step) : source(kernel) {
    for (int64_t i = 0; i < 64; ++i)
      in.set(i, first + step * double(i));
  }
  std::vector<Tensor> run() { return simulate(source, {&in}, error); }
  void expectError(const std::string &fragment) {
    expectFailure(run(), error, fragment);
  }
};

struct Exchange : OneKernel {
  Exchange() : OneKernel(kExchange, -3.0, 0.5) {}
};

TEST_F(Exchange, CorrectKernelRuns) {
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t i = 0; i < 64; ++i)
    EXPECT_EQ(out[0][i], in[(i + 1) % 64]) << i;
}

TEST_F(Exchange, MissingBarrierIsARace) {
  replace(source, "gpu.barrier // BARRIER", "");
  expectError("since the last barrier (a race)");
  EXPECT_NE(error.find("'memref.load'"), std::string::npos) << error;
  EXPECT_NE(error.find("thread "), std::string::npos) << error;
}

TEST_F(Exchange, DivergentBarrier) {
  replace(source, "gpu.barrier // BARRIER", R"mlir(
    %low = arith.cmpi ult, %tx, %c32 : index
    scf.if %low {
      gpu.barrier
    })mlir");
  expectError("reached by 32 of the 64 threads of the block");
}

TEST_F(Exchange, SharedMemoryOutOfBounds) {
  replace(source, "%n = arith.remui %n1, %c64 : index // NEXT",
          "%n = arith.addi %n1, %c0 : index");
  expectError("index 64 of dim 0 is out of bounds [0, 64) of shared memory");
}

TEST_F(Exchange, KernelReadsHostMemory) {
  replace(source, "%x = memref.load %d[%tx] : memref<64xf32> // KERNEL_LOAD",
          "%x = memref.load %in[%tx] : memref<64xf32>");
  expectError("a kernel accesses argument #0, which is host memory");
}

TEST_F(Exchange, HostReadsDeviceMemory) {
  replace(source, "// HOST_POST",
          "%z = memref.load %o[%c0] : memref<64xf32>\n"
          "  memref.store %z, %h[%c0] : memref<64xf32>");
  expectError("host code accesses a device buffer, which is device memory");
}

TEST_F(Exchange, UseAfterFree) {
  replace(source, "// HOST_PRE",
          "%tf = gpu.dealloc async [%t3] %d : memref<64xf32>");
  expectError("accesses a device buffer after it was freed");
}

TEST_F(Exchange, UnwrittenDeviceMemoryIsNaN) {
  // Only the first half of the threads store their result.
  replace(source, "memref.store %y, %o[%tx] : memref<64xf32>", R"mlir(
    %low = arith.cmpi ult, %tx, %c32 : index
    scf.if %low {
      memref.store %y, %o[%tx] : memref<64xf32>
    })mlir");
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t i = 0; i < 32; ++i)
    EXPECT_EQ(out[0][i], in[i + 1]) << i;
  for (int64_t i = 32; i < 64; ++i)
    EXPECT_TRUE(std::isnan(out[0][i])) << i;
}

// Streams: the exchange's host code is one chain (one stream, created by
// gpu.wait async and destroyed by the blocking gpu.wait before the return).
TEST_F(Exchange, HostReadsACopyBeforeItsWait) {
  replace(source, "  gpu.wait [%t5]\n  // HOST_POST",
          "  %z = memref.load %h[%c0] : memref<64xf32>\n"
          "  gpu.wait [%t5]");
  expectError("reads a host buffer while gpu.memcpy on stream 0 writes it");
}

TEST_F(Exchange, HostWritesACopySourceBeforeItsWait) {
  replace(source, "// HOST_PRE",
          "%f = arith.constant 1.0 : f32\n"
          "  memref.store %f, %in[%c0] : memref<64xf32>");
  expectError("writes argument #0 while gpu.memcpy on stream 0 reads it");
}

TEST_F(Exchange, ReturnWithALiveStream) {
  replace(source, "  gpu.wait [%t5]\n", "");
  expectError("returns while stream 0 is live");
}

TEST_F(Exchange, TokenOfADestroyedStream) {
  replace(source, "// HOST_POST",
          "%t6 = gpu.dealloc async [%t5] %d : memref<64xf32>");
  expectError("uses a token of stream 0, which a blocking gpu.wait already "
              "synchronized and destroyed");
}

TEST_F(Exchange, AsyncStepWithoutADependency) {
  replace(source, "%o, %t3 = gpu.alloc async [%t2] () : memref<64xf32>",
          "%o, %t3 = gpu.alloc async () : memref<64xf32>");
  expectError("an async step without a dependency");
}

TEST_F(Exchange, TwoChainsRun) {
  // The copy back as a second stream after the first one's wait: what
  // attic-gpu-merge-chains leaves where the host reads in between.
  replace(source,
          "  %t5 = gpu.memcpy async [%t4] %h, %o : memref<64xf32>, "
          "memref<64xf32>\n  gpu.wait [%t5]",
          "  gpu.wait [%t4]\n  %u0 = gpu.wait async\n"
          "  %t5 = gpu.memcpy async [%u0] %h, %o : memref<64xf32>, "
          "memref<64xf32>\n  gpu.wait [%t5]");
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t i = 0; i < 64; ++i)
    EXPECT_EQ(out[0][i], in[(i + 1) % 64]) << i;
}

// The exchange as attic-cuda-pipeline leaves it after outlining and
// attic-gpu-annotate-kernels: a gpu.func kernel (isolated from the host,
// its sizes from gpu.block_dim and its known sizes as attributes) that a
// gpu.launch_func runs. KNOWN_GRID is edited by the tests.
const char *kOutlinedExchange = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @exchange(%d: memref<64xf32>, %o: memref<64xf32>, %shift: index)
        workgroup(%s : memref<64xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>,
                           known_grid_size = array<i32: 1, 1, 1>} { // KNOWN_GRID
      %tx = gpu.thread_id x
      %bd = gpu.block_dim x
      %x = memref.load %d[%tx] : memref<64xf32>
      memref.store %x, %s[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier // BARRIER
      %n1 = arith.addi %tx, %shift : index
      %n = arith.remui %n1, %bd : index
      %y = memref.load %s[%n] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %y, %o[%tx] : memref<64xf32>
      gpu.return
    }
  }
  func.func @k(%in: memref<64xf32>) -> memref<64xf32> {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<64xf32>
    %t2 = gpu.memcpy async [%t1] %d, %in : memref<64xf32>, memref<64xf32>
    %o, %t3 = gpu.alloc async [%t2] () : memref<64xf32>
    %t4 = gpu.launch_func async [%t3] @kernels::@exchange blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1)
        args(%d : memref<64xf32>, %o : memref<64xf32>, %c1 : index)
    %h = memref.alloc() : memref<64xf32>
    %t5 = gpu.memcpy async [%t4] %h, %o : memref<64xf32>, memref<64xf32>
    gpu.wait [%t5]
    return %h : memref<64xf32>
  }
}
)mlir";

struct OutlinedExchange : OneKernel {
  OutlinedExchange() : OneKernel(kOutlinedExchange, 1.0, 0.25) {}
};

TEST_F(OutlinedExchange, LaunchFuncRunsTheKernel) {
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t i = 0; i < 64; ++i)
    EXPECT_EQ(out[0][i], in[(i + 1) % 64]) << i;
}

TEST_F(OutlinedExchange, MissingBarrierIsARace) {
  replace(source, "gpu.barrier // BARRIER", "");
  expectError("since the last barrier (a race)");
}

TEST_F(OutlinedExchange, LaunchOutsideTheKnownGridIsAnError) {
  replace(source, "known_grid_size = array<i32: 1, 1, 1>} { // KNOWN_GRID",
          "known_grid_size = array<i32: 2, 1, 1>} {");
  expectError("launches @exchange with grid sizes 1x1x1, but it was compiled "
              "for 2x1x1 (known_grid_size)");
}

TEST_F(OutlinedExchange, LaunchOutsideTheKnownBlockIsAnError) {
  replace(source, "known_block_size = array<i32: 64, 1, 1>",
          "known_block_size = array<i32: 32, 1, 1>");
  expectError("launches @exchange with block sizes 64x1x1, but it was "
              "compiled for 32x1x1 (known_block_size)");
}

TEST(GpuSimulator, ShuffleNeedsTheFullWarp) {
  const char *source = R"mlir(
func.func @k(%in: memref<32xf32>) -> memref<32xf32> {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %s0 = gpu.wait async
  %o, %t0 = gpu.alloc async [%s0] () : memref<32xf32>
  %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %f = arith.index_cast %tx : index to i32
    %x = arith.sitofp %f : i32 to f32
    %low = arith.cmpi ult, %tx, %c16 : index
    scf.if %low {
      %one = arith.constant 1 : i32
      %width = arith.constant 32 : i32
      %y, %valid = gpu.shuffle xor %x, %one, %width : f32
      memref.store %y, %o[%tx] : memref<32xf32>
    }
    gpu.terminator
  }
  %h = memref.alloc() : memref<32xf32>
  %t2 = gpu.memcpy async [%t1] %h, %o : memref<32xf32>, memref<32xf32>
  gpu.wait [%t2]
  return %h : memref<32xf32>
}
)mlir";
  Tensor in{ATTIC_F32, {32}};
  std::string error;
  EXPECT_TRUE(simulate(source, {&in}, error).empty());
  EXPECT_NE(error.find("reached by 16 of the 32 lanes of warp 0 (a shuffle "
                       "needs the whole warp)"),
            std::string::npos)
      << error;
}

// One warp: C (16x8, f32) = A (16x16, f16) x B (16x8, f16) with
// nvgpu.mma.sync. Lane l = 4g + t loads its fragments by the PTX ISA's
// tables for mma.m16n8k16 (.f16):
//   A: a[0] = A[g][2t..2t+1]   a[1] = A[g+8][2t..]  a[2] = A[g][2t+8..]
//      a[3] = A[g+8][2t+8..]
//   B: b[0] = B[2t..2t+1][g]   b[1] = B[2t+8..2t+9][g]
//   C: c[0] = C[g][2t..2t+1]   c[1] = C[g+8][2t..2t+1]
const char *kMma = R"mlir(
func.func @k(%a_h: memref<16x16xf16>, %b_h: memref<16x8xf16>) -> memref<16x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c32 = arith.constant 32 : index
  %s0 = gpu.wait async
  %a, %t0 = gpu.alloc async [%s0] () : memref<16x16xf16>
  %b, %t1 = gpu.alloc async [%t0] () : memref<16x8xf16>
  %c, %t2 = gpu.alloc async [%t1] () : memref<16x8xf32>
  %t3 = gpu.memcpy async [%t2] %a, %a_h : memref<16x16xf16>, memref<16x16xf16>
  %t4 = gpu.memcpy async [%t3] %b, %b_h : memref<16x8xf16>, memref<16x8xf16>
  %t5 = gpu.launch async [%t4] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%l, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %g = arith.divui %l, %c4 : index
    %t = arith.remui %l, %c4 : index
    %g8 = arith.addi %g, %c8 : index
    %t2x = arith.muli %t, %c2 : index
    %t2x1 = arith.addi %t2x, %c1 : index
    %t2x8 = arith.addi %t2x, %c8 : index
    %t2x9 = arith.addi %t2x, %c9 : index
    %a00 = memref.load %a[%g, %t2x] : memref<16x16xf16>
    %a01 = memref.load %a[%g, %t2x1] : memref<16x16xf16>
    %a10 = memref.load %a[%g8, %t2x] : memref<16x16xf16>
    %a11 = memref.load %a[%g8, %t2x1] : memref<16x16xf16>
    %a20 = memref.load %a[%g, %t2x8] : memref<16x16xf16>
    %a21 = memref.load %a[%g, %t2x9] : memref<16x16xf16>
    %a30 = memref.load %a[%g8, %t2x8] : memref<16x16xf16>
    %a31 = memref.load %a[%g8, %t2x9] : memref<16x16xf16>
    %afrag = vector.from_elements %a00, %a01, %a10, %a11, %a20, %a21, %a30, %a31 : vector<4x2xf16>
    %b00 = memref.load %b[%t2x, %g] : memref<16x8xf16>
    %b01 = memref.load %b[%t2x1, %g] : memref<16x8xf16>
    %b10 = memref.load %b[%t2x8, %g] : memref<16x8xf16>
    %b11 = memref.load %b[%t2x9, %g] : memref<16x8xf16>
    %bfrag = vector.from_elements %b00, %b01, %b10, %b11 : vector<2x2xf16>
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %d = nvgpu.mma.sync (%afrag, %bfrag, %zero) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %d00 = vector.extract %d[0, 0] : f32 from vector<2x2xf32>
    %d01 = vector.extract %d[0, 1] : f32 from vector<2x2xf32>
    %d10 = vector.extract %d[1, 0] : f32 from vector<2x2xf32>
    %d11 = vector.extract %d[1, 1] : f32 from vector<2x2xf32>
    memref.store %d00, %c[%g, %t2x] : memref<16x8xf32>
    memref.store %d01, %c[%g, %t2x1] : memref<16x8xf32>
    memref.store %d10, %c[%g8, %t2x] : memref<16x8xf32>
    memref.store %d11, %c[%g8, %t2x1] : memref<16x8xf32>
    gpu.terminator
  }
  %h = memref.alloc() : memref<16x8xf32>
  %t6 = gpu.memcpy async [%t5] %h, %c : memref<16x8xf32>, memref<16x8xf32>
  gpu.wait [%t6]
  return %h : memref<16x8xf32>
}
)mlir";

/// Runs `source` (@k: a 16x16 f16 A and a 16x8 f16 B to their f32
/// product) and compares the result with the product computed here.
void expectTheMatrixProduct(const std::string &source) {
  Tensor a{ATTIC_F16, {16, 16}}, b{ATTIC_F16, {16, 8}};
  // Small integers and halves: exact in f16 and in the f32 sums.
  for (int64_t i = 0; i < 16 * 16; ++i)
    a.set(i, double((i * 7) % 11) - 5.0);
  for (int64_t i = 0; i < 16 * 8; ++i)
    b.set(i, 0.5 * double((i * 5) % 9) - 2.0);
  std::string error;
  std::vector<Tensor> out = simulate(source, {&a, &b}, error);
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t r = 0; r < 16; ++r)
    for (int64_t c = 0; c < 8; ++c) {
      double expected = 0;
      for (int64_t k = 0; k < 16; ++k)
        expected += a[r * 16 + k] * b[k * 8 + c];
      EXPECT_EQ(out[0][r * 8 + c], expected) << r << ", " << c;
    }
}

TEST(GpuSimulator, MmaSyncIsTheMatrixProduct) { expectTheMatrixProduct(kMma); }

// The canonicalizer folds the four vector.extract ops of the accumulator
// into one vector.to_elements (row-major order), as it does between
// attic's passes in a pipeline with cleanups.
TEST(GpuSimulator, ToElementsGivesTheElementsInRowMajorOrder) {
  std::string source = kMma;
  replace(source,
          "    %d00 = vector.extract %d[0, 0] : f32 from vector<2x2xf32>\n"
          "    %d01 = vector.extract %d[0, 1] : f32 from vector<2x2xf32>\n"
          "    %d10 = vector.extract %d[1, 0] : f32 from vector<2x2xf32>\n"
          "    %d11 = vector.extract %d[1, 1] : f32 from vector<2x2xf32>\n",
          "    %d00, %d01, %d10, %d11 = vector.to_elements %d : "
          "vector<2x2xf32>\n");
  expectTheMatrixProduct(source);
}

// The same product with the fragments loaded by nvgpu.ldmatrix from
// shared memory (rows padded to 24 and 16 halves). A: .x4, lane l giving
// row l%8 + 8((l/8)%2), column 8(l/16): matrices 0..3 are A's quarters in
// the order of the A fragment (a0,a1 / a2,a3 / a4,a5 / a6,a7). B (16x8,
// row-major): .x2 .trans, lane l < 16 giving row l: b0,b1 = B[2t..][g].
// ACOL is edited by the alignment test.
const char *kLdMatrix = R"mlir(
func.func @k(%a_h: memref<16x16xf16>, %b_h: memref<16x8xf16>) -> memref<16x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %s0 = gpu.wait async
  %a, %t0 = gpu.alloc async [%s0] () : memref<16x16xf16>
  %b, %t1 = gpu.alloc async [%t0] () : memref<16x8xf16>
  %c, %t2 = gpu.alloc async [%t1] () : memref<16x8xf32>
  %t3 = gpu.memcpy async [%t2] %a, %a_h : memref<16x16xf16>, memref<16x16xf16>
  %t4 = gpu.memcpy async [%t3] %b, %b_h : memref<16x8xf16>, memref<16x8xf16>
  %t5 = gpu.launch async [%t4] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%l, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
      workgroup(%as : memref<16x24xf16, #gpu.address_space<workgroup>>,
                %bs : memref<16x16xf16, #gpu.address_space<workgroup>>) {
    %r = arith.divui %l, %c2 : index
    %h = arith.remui %l, %c2 : index
    %h8 = arith.muli %h, %c8 : index
    scf.for %j = %c0 to %c8 step %c1 {
      %col = arith.addi %h8, %j : index
      %x = memref.load %a[%r, %col] : memref<16x16xf16>
      memref.store %x, %as[%r, %col] : memref<16x24xf16, #gpu.address_space<workgroup>>
    }
    %even = arith.cmpi eq, %h, %c0 : index
    scf.if %even {
      scf.for %j = %c0 to %c8 step %c1 {
        %y = memref.load %b[%r, %j] : memref<16x8xf16>
        memref.store %y, %bs[%r, %j] : memref<16x16xf16, #gpu.address_space<workgroup>>
      }
    }
    gpu.barrier
    %l8 = arith.remui %l, %c8 : index
    %m = arith.divui %l, %c8 : index
    %mlo = arith.remui %m, %c2 : index
    %mhi = arith.divui %l, %c16 : index
    %arow0 = arith.muli %mlo, %c8 : index
    %arow = arith.addi %l8, %arow0 : index
    %acol = arith.muli %mhi, %c8 : index // ACOL
    %afrag = nvgpu.ldmatrix %as[%arow, %acol] {numTiles = 4 : i32, transpose = false} : memref<16x24xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %brow = arith.remui %l, %c16 : index
    %bfrag = nvgpu.ldmatrix %bs[%brow, %c0] {numTiles = 2 : i32, transpose = true} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
    %zero = arith.constant dense<0.0> : vector<2x2xf32>
    %d = nvgpu.mma.sync (%afrag, %bfrag, %zero) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %g = arith.divui %l, %c4 : index
    %t = arith.remui %l, %c4 : index
    %g8 = arith.addi %g, %c8 : index
    %t2x = arith.muli %t, %c2 : index
    %t2x1 = arith.addi %t2x, %c1 : index
    %d00 = vector.extract %d[0, 0] : f32 from vector<2x2xf32>
    %d01 = vector.extract %d[0, 1] : f32 from vector<2x2xf32>
    %d10 = vector.extract %d[1, 0] : f32 from vector<2x2xf32>
    %d11 = vector.extract %d[1, 1] : f32 from vector<2x2xf32>
    memref.store %d00, %c[%g, %t2x] : memref<16x8xf32>
    memref.store %d01, %c[%g, %t2x1] : memref<16x8xf32>
    memref.store %d10, %c[%g8, %t2x] : memref<16x8xf32>
    memref.store %d11, %c[%g8, %t2x1] : memref<16x8xf32>
    gpu.terminator
  }
  %hc = memref.alloc() : memref<16x8xf32>
  %t6 = gpu.memcpy async [%t5] %hc, %c : memref<16x8xf32>, memref<16x8xf32>
  gpu.wait [%t6]
  return %hc : memref<16x8xf32>
}
)mlir";

TEST(GpuSimulator, LdMatrixFragmentsGiveTheMatrixProduct) {
  expectTheMatrixProduct(kLdMatrix);
}

TEST(GpuSimulator, LdMatrixRowsMustBe16ByteAligned) {
  std::string source = kLdMatrix;
  replace(source, "%acol = arith.muli %mhi, %c8 : index // ACOL",
          "%acol = arith.addi %mhi, %c1 : index");
  Tensor a{ATTIC_F16, {16, 16}}, b{ATTIC_F16, {16, 8}};
  std::string error;
  EXPECT_TRUE(simulate(source, {&a, &b}, error).empty());
  EXPECT_NE(error.find("row 0 of matrix 0 starts at byte 2 of shared memory "
                       "(workgroup attribution #0), which is not 16-byte "
                       "aligned"),
            std::string::npos)
      << error;
}

// One thread: out[0..3] = in[OFFSET..OFFSET+3] with a vector load that
// claims 16-byte alignment.
const char *kAlignedLoad = R"mlir(
func.func @k(%in: memref<16xf32>) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s0 = gpu.wait async
  %d, %t0 = gpu.alloc async [%s0] () : memref<16xf32>
  %t1 = gpu.memcpy async [%t0] %d, %in : memref<16xf32>, memref<16xf32>
  %o, %t2 = gpu.alloc async [%t1] () : memref<4xf32>
  %t3 = gpu.launch async [%t2] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = vector.load %d[%c4] {alignment = 16 : i64} : memref<16xf32>, vector<4xf32> // OFFSET
    vector.store %v, %o[%c0] {alignment = 16 : i64} : memref<4xf32>, vector<4xf32>
    gpu.terminator
  }
  %h = memref.alloc() : memref<4xf32>
  %t4 = gpu.memcpy async [%t3] %h, %o : memref<4xf32>, memref<4xf32>
  gpu.wait [%t4]
  return %h : memref<4xf32>
}
)mlir";

TEST(GpuSimulator, VectorAccessesKeepTheirAlignment) {
  Tensor in{ATTIC_F32, {16}};
  for (int64_t i = 0; i < 16; ++i)
    in.set(i, double(i));
  std::string error;
  std::vector<Tensor> out = simulate(kAlignedLoad, {&in}, error);
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_EQ(out[0][i], double(4 + i)) << i;

  std::string source = kAlignedLoad;
  replace(source, "%d[%c4] {alignment = 16 : i64}",
          "%d[%c1] {alignment = 16 : i64}");
  EXPECT_TRUE(simulate(source, {&in}, error).empty());
  EXPECT_NE(error.find("accesses byte 4 of a device buffer, which is not a "
                       "multiple of its alignment 16"),
            std::string::npos)
      << error;
}

// 16 threads: out[i] = in[(i + 4) % 64], each thread moving 4 floats into
// shared memory with one 16-byte cp.async. The markers COPY, COMMIT, WAIT
// and BARRIER are edited by the tests.
const char *kAsyncCopy = R"mlir(
func.func @k(%in: memref<64xf32>) -> memref<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %s0 = gpu.wait async
  %d, %t0 = gpu.alloc async [%s0] () : memref<64xf32>
  %t1 = gpu.memcpy async [%t0] %d, %in : memref<64xf32>, memref<64xf32>
  %o, %t2 = gpu.alloc async [%t1] () : memref<64xf32>
  %t3 = gpu.launch async [%t2] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1)
      workgroup(%s : memref<64xf32, #gpu.address_space<workgroup>>) {
    %i = arith.muli %tx, %c4 : index
    %cp = nvgpu.device_async_copy %d[%i], %s[%i], 4 {bypassL1} : memref<64xf32> to memref<64xf32, #gpu.address_space<workgroup>> // COPY
    nvvm.cp.async.commit.group // COMMIT
    nvvm.cp.async.wait.group 0 // WAIT
    gpu.barrier // BARRIER
    %n1 = arith.addi %i, %c4 : index
    %n = arith.remui %n1, %c64 : index
    %y = vector.load %s[%n] : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    vector.store %y, %o[%i] : memref<64xf32>, vector<4xf32>
    gpu.terminator
  }
  %h = memref.alloc() : memref<64xf32>
  %t4 = gpu.memcpy async [%t3] %h, %o : memref<64xf32>, memref<64xf32>
  gpu.wait [%t4]
  return %h : memref<64xf32>
}
)mlir";

struct AsyncCopy : OneKernel {
  AsyncCopy() : OneKernel(kAsyncCopy, 1.0, 1.0) {}
};

TEST_F(AsyncCopy, CopiesAtTheWait) {
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t i = 0; i < 64; ++i)
    EXPECT_EQ(out[0][i], in[(i + 4) % 64]) << i;
}

TEST_F(AsyncCopy, ZeroFillsPastTheSourceElements) {
  replace(source, "%s[%i], 4 {bypassL1}", "%s[%i], 4, %c1 {bypassL1}");
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t i = 0; i < 64; ++i)
    EXPECT_EQ(out[0][i], i % 4 == 0 ? in[(i + 4) % 64] : 0.0) << i;
}

TEST_F(AsyncCopy, ReadBeforeTheWaitIsAnError) {
  replace(source, "nvvm.cp.async.wait.group 0 // WAIT", "");
  expectError("which a cp.async of thread 1 has not completed yet");
  EXPECT_NE(error.find("'vector.load'"), std::string::npos) << error;
}

TEST_F(AsyncCopy, UncommittedCopiesAreNotWaitedFor) {
  replace(source, "nvvm.cp.async.commit.group // COMMIT", "");
  expectError("has not completed yet");
}

TEST_F(AsyncCopy, WaitGroupLeavesTheNewestGroupsInFlight) {
  std::string kept = source;
  replace(source, "nvvm.cp.async.wait.group 0 // WAIT",
          "nvvm.cp.async.wait.group 1");
  expectError("has not completed yet");
  // With an empty group committed after it, wait_group 1 covers the copy.
  source = kept;
  replace(source, "nvvm.cp.async.wait.group 0 // WAIT",
          "nvvm.cp.async.commit.group\n    nvvm.cp.async.wait.group 1");
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  EXPECT_EQ(out[0][0], in[4]);
}

TEST_F(AsyncCopy, OtherThreadsNeedABarrierAfterTheWait) {
  replace(source, "gpu.barrier // BARRIER", "");
  expectError("that thread 1 wrote since the last barrier (a race)");
}

TEST_F(AsyncCopy, TwoCopiesInFlightIntoOneByteAreAnError) {
  replace(source, "%d[%i], %s[%i]", "%d[%i], %s[%c0]");
  expectError("writes byte 0 of shared memory (workgroup attribution #0), "
              "which a cp.async of thread 0 has not completed yet");
}

TEST_F(AsyncCopy, MisalignedCopyIsAnError) {
  replace(source, "%d[%i], %s[%i]", "%d[%c1], %s[%i]");
  expectError("reads byte 4 of a device buffer, which is not 16-byte aligned");
}

TEST_F(AsyncCopy, CopyInFlightAtTheEndIsAnError) {
  replace(source, "nvvm.cp.async.wait.group 0 // WAIT", "");
  replace(source,
          "%y = vector.load %s[%n] : memref<64xf32, "
          "#gpu.address_space<workgroup>>",
          "%y = vector.load %d[%n] : memref<64xf32>");
  expectError("is still in flight when the kernel ends");
  EXPECT_NE(error.find("'nvgpu.device_async_copy'"), std::string::npos)
      << error;
}

// 64 threads: out[i] = in[(i + 1) % 64] through a memref.view of the
// launch's dynamic shared memory (512 bytes; the view at byte 256), next to
// a static buffer that every thread also writes. The markers DYN_SIZE and
// SHIFT are edited by the tests.
const char *kDynamicShared = R"mlir(
func.func @k(%in: memref<64xf32>) -> memref<64xf32> {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %shift = arith.constant 256 : index // SHIFT
  %size = arith.constant 512 : i32 // DYN_SIZE
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<64xf32>
  %t2 = gpu.memcpy async [%t1] %d, %in : memref<64xf32>, memref<64xf32>
  %o, %t3 = gpu.alloc async [%t2] () : memref<64xf32>
  %t4 = gpu.launch async [%t3] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
      dynamic_shared_memory_size %size
      workgroup(%s : memref<64xf32, #gpu.address_space<workgroup>>) {
    %bytes = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %v = memref.view %bytes[%shift][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    %x = memref.load %d[%tx] : memref<64xf32>
    memref.store %x, %v[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    %minus = arith.negf %x : f32
    memref.store %minus, %s[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %n1 = arith.addi %tx, %c1 : index
    %n = arith.remui %n1, %c64 : index
    %y = memref.load %v[%n] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %y, %o[%tx] : memref<64xf32>
    gpu.terminator
  }
  %h = memref.alloc() : memref<64xf32>
  %t5 = gpu.memcpy async [%t4] %h, %o : memref<64xf32>, memref<64xf32>
  gpu.wait [%t5]
  return %h : memref<64xf32>
}
)mlir";

struct DynamicShared : OneKernel {
  DynamicShared() : OneKernel(kDynamicShared, 2.0, 0.25) {}
};

TEST_F(DynamicShared, AViewOfItRuns) {
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t i = 0; i < 64; ++i)
    EXPECT_EQ(out[0][i], in[(i + 1) % 64]) << i;
}

TEST_F(DynamicShared, AViewPastItsEndIsAnError) {
  replace(source, "256 : index // SHIFT", "300 : index // SHIFT");
  expectError("views bytes [300, 556) of a 512-byte buffer");
  EXPECT_NE(error.find("'memref.view'"), std::string::npos) << error;
}

TEST_F(DynamicShared, AMisalignedViewIsAnError) {
  replace(source, "256 : index // SHIFT", "2 : index // SHIFT");
  expectError("views at byte 2, not a multiple of its element size 4");
}

TEST_F(DynamicShared, ALaunchWithoutASizeHasNone) {
  replace(source, "dynamic_shared_memory_size %size", "");
  expectError("has no dynamic shared memory to return");
}

TEST_F(DynamicShared, MoreThan227KiBIsAnError) {
  // 232448 dynamic bytes (227 KiB) and the 256 static ones.
  replace(source, "512 : i32 // DYN_SIZE", "232448 : i32 // DYN_SIZE");
  expectError("uses 232704 bytes of shared memory (232448 dynamic) per "
              "block, at most 232448");
}

// One warpgroup (128 threads): C (64x8) = A (64x32) * B (32x8) as two
// wgmma.mma_async m64n8k16 with A from registers (each warp's 16 rows in
// mma.sync's A layout) and B from shared memory, K-major with the 128-byte
// swizzle: Bt (8x32, Bt[n][k] = B[k][n]) row n at byte 128n of a 1024-byte
// aligned tile, its 16-byte chunk c at chunk c ^ n. The tile is aligned at
// run time inside a 2048-byte buffer (the simulator places no buffer on a
// 1024-byte boundary). The second mma's descriptor starts 32 bytes further
// (k = 16..31) and accumulates (scale-d 1, tied operands); the results pass
// through wgmma.wait_group. Markers: PAD, PROXY, FENCE, WAIT, RESULT.
const char *kWgmma = R"mlir(
func.func @k(%a_h: memref<64x32xf16>, %bt_h: memref<8x32xf16>) -> memref<64x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c1024 = arith.constant 1024 : index
  %s0 = gpu.wait async
  %a, %t0 = gpu.alloc async [%s0] () : memref<64x32xf16>
  %bt, %t1 = gpu.alloc async [%t0] () : memref<8x32xf16>
  %c, %t2 = gpu.alloc async [%t1] () : memref<64x8xf32>
  %t3 = gpu.memcpy async [%t2] %a, %a_h : memref<64x32xf16>, memref<64x32xf16>
  %t4 = gpu.memcpy async [%t3] %bt, %bt_h : memref<8x32xf16>, memref<8x32xf16>
  %t5 = gpu.launch async [%t4] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%l, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
      workgroup(%raw : memref<2048xi8, #gpu.address_space<workgroup>>) {
    %addr = memref.extract_aligned_pointer_as_index %raw : memref<2048xi8, #gpu.address_space<workgroup>> -> index
    %rem = arith.remui %addr, %c1024 : index
    %up = arith.subi %c1024, %rem : index
    %pad = arith.remui %up, %c1024 : index // PAD
    %tile = memref.view %raw[%pad][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<512xf16, #gpu.address_space<workgroup>>
    %base = arith.addi %addr, %pad : index
    %is32 = arith.cmpi ult, %l, %c32 : index
    scf.if %is32 {
      %n = arith.divui %l, %c4 : index
      %ch = arith.remui %l, %c4 : index
      %k0 = arith.muli %ch, %c8 : index
      %x = vector.load %bt[%n, %k0] : memref<8x32xf16>, vector<8xf16>
      %sw = arith.xori %ch, %n : index
      %row = arith.muli %n, %c64 : index
      %col = arith.muli %sw, %c8 : index
      %at = arith.addi %row, %col : index
      vector.store %x, %tile[%at] : memref<512xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    }
    llvm.inline_asm has_side_effects asm_dialect = att "fence.proxy.async.shared::cta;", "" : () -> () // PROXY
    gpu.barrier
    %w = arith.divui %l, %c32 : index
    %lane = arith.remui %l, %c32 : index
    %g = arith.divui %lane, %c4 : index
    %q = arith.remui %lane, %c4 : index
    %w16 = arith.muli %w, %c16 : index
    %r0 = arith.addi %w16, %g : index
    %r1 = arith.addi %r0, %c8 : index
    %q2 = arith.muli %q, %c2 : index
    %q2h = arith.addi %q2, %c8 : index
    %q2b = arith.addi %q2, %c16 : index
    %c24 = arith.constant 24 : index
    %q2bh = arith.addi %q2, %c24 : index
    %p00 = vector.load %a[%r0, %q2] : memref<64x32xf16>, vector<2xf16>
    %p01 = vector.load %a[%r1, %q2] : memref<64x32xf16>, vector<2xf16>
    %p02 = vector.load %a[%r0, %q2h] : memref<64x32xf16>, vector<2xf16>
    %p03 = vector.load %a[%r1, %q2h] : memref<64x32xf16>, vector<2xf16>
    %p10 = vector.load %a[%r0, %q2b] : memref<64x32xf16>, vector<2xf16>
    %p11 = vector.load %a[%r1, %q2b] : memref<64x32xf16>, vector<2xf16>
    %p12 = vector.load %a[%r0, %q2bh] : memref<64x32xf16>, vector<2xf16>
    %p13 = vector.load %a[%r1, %q2bh] : memref<64x32xf16>, vector<2xf16>
    %v00 = vector.bitcast %p00 : vector<2xf16> to vector<1xi32>
    %v01 = vector.bitcast %p01 : vector<2xf16> to vector<1xi32>
    %v02 = vector.bitcast %p02 : vector<2xf16> to vector<1xi32>
    %v03 = vector.bitcast %p03 : vector<2xf16> to vector<1xi32>
    %v10 = vector.bitcast %p10 : vector<2xf16> to vector<1xi32>
    %v11 = vector.bitcast %p11 : vector<2xf16> to vector<1xi32>
    %v12 = vector.bitcast %p12 : vector<2xf16> to vector<1xi32>
    %v13 = vector.bitcast %p13 : vector<2xf16> to vector<1xi32>
    %a00 = vector.extract %v00[0] : i32 from vector<1xi32>
    %a01 = vector.extract %v01[0] : i32 from vector<1xi32>
    %a02 = vector.extract %v02[0] : i32 from vector<1xi32>
    %a03 = vector.extract %v03[0] : i32 from vector<1xi32>
    %a10 = vector.extract %v10[0] : i32 from vector<1xi32>
    %a11 = vector.extract %v11[0] : i32 from vector<1xi32>
    %a12 = vector.extract %v12[0] : i32 from vector<1xi32>
    %a13 = vector.extract %v13[0] : i32 from vector<1xi32>
    %base64 = arith.index_cast %base : index to i64
    %c4_i64 = arith.constant 4 : i64
    %start = arith.shrui %base64, %c4_i64 : i64
    %mask = arith.constant 16383 : i64
    %start14 = arith.andi %start, %mask : i64
    %fields = arith.constant 4611686293305360384 : i64
    %desc0 = arith.ori %start14, %fields : i64
    %c2_i64 = arith.constant 2 : i64
    %desc1 = arith.addi %desc0, %c2_i64 : i64
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    llvm.inline_asm has_side_effects asm_dialect = att "wgmma.fence.sync.aligned;", "" : () -> () // FENCE
    %d0 = llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $9, 0; wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0, $1, $2, $3}, {$4, $5, $6, $7}, $8, p, 1, 1, 0; }", "=f,=f,=f,=f,r,r,r,r,l,r" %a00, %a01, %a02, %a03, %desc0, %zero : (i32, i32, i32, i32, i64, i32) -> !llvm.struct<(f32, f32, f32, f32)>
    %e0 = llvm.extractvalue %d0[0] : !llvm.struct<(f32, f32, f32, f32)>
    %e1 = llvm.extractvalue %d0[1] : !llvm.struct<(f32, f32, f32, f32)>
    %e2 = llvm.extractvalue %d0[2] : !llvm.struct<(f32, f32, f32, f32)>
    %e3 = llvm.extractvalue %d0[3] : !llvm.struct<(f32, f32, f32, f32)>
    %d1 = llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $13, 0; wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0, $1, $2, $3}, {$8, $9, $10, $11}, $12, p, 1, 1, 0; }", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,l,r" %e0, %e1, %e2, %e3, %a10, %a11, %a12, %a13, %desc1, %one : (f32, f32, f32, f32, i32, i32, i32, i32, i64, i32) -> !llvm.struct<(f32, f32, f32, f32)>
    %f0 = llvm.extractvalue %d1[0] : !llvm.struct<(f32, f32, f32, f32)>
    %f1 = llvm.extractvalue %d1[1] : !llvm.struct<(f32, f32, f32, f32)>
    %f2 = llvm.extractvalue %d1[2] : !llvm.struct<(f32, f32, f32, f32)>
    %f3 = llvm.extractvalue %d1[3] : !llvm.struct<(f32, f32, f32, f32)>
    llvm.inline_asm has_side_effects asm_dialect = att "wgmma.commit_group.sync.aligned;", "" : () -> ()
    %done = llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,0,1,2,3" %f0, %f1, %f2, %f3 : (f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)> // WAIT
    %o0 = llvm.extractvalue %done[0] : !llvm.struct<(f32, f32, f32, f32)> // RESULT
    %o1 = llvm.extractvalue %done[1] : !llvm.struct<(f32, f32, f32, f32)>
    %o2 = llvm.extractvalue %done[2] : !llvm.struct<(f32, f32, f32, f32)>
    %o3 = llvm.extractvalue %done[3] : !llvm.struct<(f32, f32, f32, f32)>
    %q21 = arith.addi %q2, %c1 : index
    memref.store %o0, %c[%r0, %q2] : memref<64x8xf32>
    memref.store %o1, %c[%r0, %q21] : memref<64x8xf32>
    memref.store %o2, %c[%r1, %q2] : memref<64x8xf32>
    memref.store %o3, %c[%r1, %q21] : memref<64x8xf32>
    gpu.terminator
  }
  %hc = memref.alloc() : memref<64x8xf32>
  %t6 = gpu.memcpy async [%t5] %hc, %c : memref<64x8xf32>, memref<64x8xf32>
  gpu.wait [%t6]
  return %hc : memref<64x8xf32>
}
)mlir";

struct Wgmma : ::testing::Test {
  Tensor a{ATTIC_F16, {64, 32}}, bt{ATTIC_F16, {8, 32}};
  std::string source = kWgmma;
  std::string error;
  Wgmma() {
    // Small integers and halves: exact in f16 and in the f32 sums.
    for (int64_t i = 0; i < 64 * 32; ++i)
      a.set(i, double((i * 7) % 11) - 5.0);
    for (int64_t i = 0; i < 8 * 32; ++i)
      bt.set(i, 0.5 * double((i * 5) % 9) - 2.0);
  }
  std::vector<Tensor> run() { return simulate(source, {&a, &bt}, error); }
  double expected(int64_t r, int64_t n) {
    double sum = 0;
    for (int64_t k = 0; k < 32; ++k)
      sum += a[r * 32 + k] * bt[n * 32 + k];
    return sum;
  }
  void expectError(const std::string &fragment) {
    expectFailure(run(), error, fragment);
  }
};

TEST_F(Wgmma, IsTheMatrixProduct) {
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t n = 0; n < 8; ++n)
      EXPECT_EQ(out[0][r * 8 + n], expected(r, n)) << r << ", " << n;
}

void replaceAll(std::string &s, const std::string &from,
                const std::string &to) {
  size_t at = 0, n = 0;
  while ((at = s.find(from, at)) != std::string::npos) {
    s.replace(at, from.size(), to);
    at += to.size();
    ++n;
  }
  ASSERT_GT(n, 0u) << from;
}

TEST_F(Wgmma, NMajorBIsTheMatrixProduct) {
  // B (32x8) N-major (imm-trans-b = 1), 128-byte swizzle: row k of B (8
  // elements, 16 bytes) at byte 1024 (k / 8) + 128 (k % 8), its chunk 0
  // swizzled to chunk k % 8; the second mma starts 16 rows (2048 bytes)
  // further. The input holds B row-major in the 8x32 buffer (B[k][n] at
  // bt[k / 4][8 (k % 4) + n]).
  replaceAll(source, "memref<2048xi8", "memref<5120xi8");
  replaceAll(source, "memref<512xf16", "memref<2048xf16");
  replace(source, "%sw = arith.xori %ch, %n : index",
          "%sw = arith.remui %l, %c8 : index");
  replace(source, "%row = arith.muli %n, %c64 : index",
          "%kg = arith.divui %l, %c8 : index\n"
          "      %kg512 = arith.muli %kg, %c512 : index\n"
          "      %row0 = arith.muli %sw, %c64 : index\n"
          "      %row = arith.addi %kg512, %row0 : index");
  replace(source, "%c1024 = arith.constant 1024 : index",
          "%c1024 = arith.constant 1024 : index\n"
          "  %c512 = arith.constant 512 : index");
  replace(source, "%c2_i64 = arith.constant 2 : i64",
          "%c2_i64 = arith.constant 128 : i64");
  replaceAll(source, "p, 1, 1, 0; }", "p, 1, 1, 1; }");
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t n = 0; n < 8; ++n) {
      double sum = 0;
      for (int64_t k = 0; k < 32; ++k)
        sum += a[r * 32 + k] * bt[k * 8 + n];
      EXPECT_EQ(out[0][r * 8 + n], sum) << r << ", " << n;
    }
}

TEST_F(Wgmma, KMajorWithoutSwizzleIsTheMatrixProduct) {
  // No swizzle (mode 0): core matrices of 8 rows x 16 bytes; row n of Bt's
  // chunk c (k = 8c..8c+7) at byte 128 c + 16 n (leading byte offset 128:
  // the next 8 k); the second mma starts two chunks (256 bytes) further.
  replace(source, "%sw = arith.xori %ch, %n : index",
          "%sw = arith.addi %n, %c0 : index");
  replace(source, "%row = arith.muli %n, %c64 : index",
          "%row = arith.muli %ch, %c64 : index");
  replace(source, "%fields = arith.constant 4611686293305360384 : i64",
          "%fields = arith.constant 274878431232 : i64");
  replace(source, "%c2_i64 = arith.constant 2 : i64",
          "%c2_i64 = arith.constant 16 : i64");
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t n = 0; n < 8; ++n)
      EXPECT_EQ(out[0][r * 8 + n], expected(r, n)) << r << ", " << n;
}

TEST_F(Wgmma, NMajorWithoutSwizzleIsNotSimulated) {
  replaceAll(source, "p, 1, 1, 0; }", "p, 1, 1, 1; }");
  replace(source, "%fields = arith.constant 4611686293305360384 : i64",
          "%fields = arith.constant 274878431232 : i64");
  expectError("only base offset 0, and no or 128-byte swizzle (N-major: "
              "128-byte) are simulated");
}

TEST_F(Wgmma, TheSwizzleFollowsTheAbsoluteAddress) {
  // Without the run-time alignment the tile's rows are swizzled by their
  // index in the tile, and the wgmma by address bits 7-9: another matrix.
  replace(source, "%pad = arith.remui %up, %c1024 : index // PAD",
          "%pad = arith.constant 0 : index");
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  int64_t wrong = 0;
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t n = 0; n < 8; ++n)
      wrong += out[0][r * 8 + n] != expected(r, n);
  EXPECT_GT(wrong, 0);
}

TEST_F(Wgmma, ASwizzledMatrixOffItsPatternNeedsABaseOffset) {
  // The tile one 128-byte row past a 1024-byte boundary: with base offset
  // 0 a GPU swizzles the matrix's rows from its start, not by address bits
  // 7-9 (PTX ISA, "Matrix Descriptor Format"); the simulator asks for the
  // alignment instead of computing another matrix.
  replaceAll(source, "memref<2048xi8", "memref<3072xi8");
  replace(source, "%pad = arith.remui %up, %c1024 : index // PAD",
          "%pad0 = arith.remui %up, %c1024 : index\n"
          "    %pad = arith.addi %pad0, %c128 : index");
  expectError("a 128-byte-swizzled matrix starting at shared address");
  expectError("row 1 of its 1024-byte pattern, with base offset 0 (align "
              "the tile to 1024 bytes)");
}

TEST_F(Wgmma, GenericWritesNeedAProxyFence) {
  replace(source,
          "llvm.inline_asm has_side_effects asm_dialect = att "
          "\"fence.proxy.async.shared::cta;\", \"\" : () -> () // PROXY",
          "");
  expectError("wrote through the generic proxy with no fence.proxy.async "
              "after the write");
}

TEST_F(Wgmma, OtherThreadsWritesNeedABarrier) {
  replace(source, "    gpu.barrier\n    %w = ", "    %w = ");
  expectError("wrote since the last barrier (a race)");
}

TEST_F(Wgmma, NeedsAWgmmaFence) {
  replace(source,
          "llvm.inline_asm has_side_effects asm_dialect = att "
          "\"wgmma.fence.sync.aligned;\", \"\" : () -> () // FENCE",
          "");
  expectError("runs without a wgmma.fence");
}

TEST_F(Wgmma, WaitMustCompleteTheGroup) {
  replace(source, "wgmma.wait_group.sync.aligned 0;",
          "wgmma.wait_group.sync.aligned 1;");
  expectError("passes on an accumulator of a wgmma.mma_async that it does "
              "not complete");
}

/// The two wgmmas as two groups, the second not accumulating into the
/// first (scale-d 0), the first's accumulators passed on by wait_group 1
/// and the second's by wait_group 0 (what wgmma-overlap does with Q K^T
/// and the deferred P V); the sum of both is the product.
void splitIntoTwoGroups(std::string &source, int firstWait) {
  replace(source,
          "%e3 = llvm.extractvalue %d0[3] : !llvm.struct<(f32, f32, f32, "
          "f32)>\n",
          "%e3 = llvm.extractvalue %d0[3] : !llvm.struct<(f32, f32, f32, "
          "f32)>\n"
          "    llvm.inline_asm has_side_effects asm_dialect = att "
          "\"wgmma.commit_group.sync.aligned;\", \"\" : () -> ()\n");
  replace(source,
          "\"{ .reg .pred p; setp.ne.b32 p, $13, 0; "
          "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0, $1, $2, $3}, "
          "{$8, $9, $10, $11}, $12, p, 1, 1, 0; }\", "
          "\"=f,=f,=f,=f,0,1,2,3,r,r,r,r,l,r\" %e0, %e1, %e2, %e3, %a10, %a11, "
          "%a12, %a13, %desc1, %one : (f32, f32, f32, f32, i32, i32, i32, i32, "
          "i64, i32)",
          "\"{ .reg .pred p; setp.ne.b32 p, $9, 0; "
          "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0, $1, $2, $3}, "
          "{$4, $5, $6, $7}, $8, p, 1, 1, 0; }\", \"=f,=f,=f,=f,r,r,r,r,l,r\" "
          "%a10, %a11, %a12, %a13, %desc1, %zero : (i32, i32, i32, i32, i64, "
          "i32)");
  std::string waits =
      "%w1 = llvm.inline_asm has_side_effects asm_dialect = att "
      "\"wgmma.wait_group.sync.aligned " +
      std::to_string(firstWait) +
      ";\", \"=f,=f,=f,=f,0,1,2,3\" %e0, %e1, %e2, %e3 : (f32, f32, f32, f32) "
      "-> !llvm.struct<(f32, f32, f32, f32)>\n"
      "    %done = llvm.inline_asm has_side_effects asm_dialect = att "
      "\"wgmma.wait_group.sync.aligned 0;\", \"=f,=f,=f,=f,0,1,2,3\" %f0, "
      "%f1, %f2, %f3 : (f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, "
      "f32)>\n";
  for (int i = 0; i < 4; ++i) {
    std::string n = std::to_string(i);
    waits += "    %x" + n + " = llvm.extractvalue %w1[" + n +
             "] : !llvm.struct<(f32, f32, f32, f32)>\n"
             "    %y" +
             n + " = llvm.extractvalue %done[" + n +
             "] : !llvm.struct<(f32, f32, f32, f32)>\n"
             "    %o" +
             n + " = arith.addf %x" + n + ", %y" + n + " : f32\n";
  }
  size_t from = source.find("%done = llvm.inline_asm");
  size_t to = source.find("%q21 = arith.addi");
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  source.replace(from, to - from, waits + "    ");
}

TEST_F(Wgmma, WaitGroupOneCompletesTheOlderGroup) {
  splitIntoTwoGroups(source, /*firstWait=*/1);
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t n = 0; n < 8; ++n)
      EXPECT_EQ(out[0][r * 8 + n], expected(r, n)) << r << ", " << n;
}

TEST_F(Wgmma, WaitGroupOneDoesNotCompleteTheNewerGroup) {
  // wait_group 1 passing the second (newest) group's accumulators.
  splitIntoTwoGroups(source, /*firstWait=*/1);
  replace(source,
          "\"=f,=f,=f,=f,0,1,2,3\" %e0, %e1, %e2, %e3 : (f32, f32, f32, f32)",
          "\"=f,=f,=f,=f,0,1,2,3\" %f0, %f1, %f2, %f3 : (f32, f32, f32, f32)");
  expectError("passes on an accumulator of a wgmma.mma_async that it does "
              "not complete (wait_group 1 leaves the newest 1 groups");
}

TEST_F(Wgmma, AccumulatorsAreReadOnlyThroughTheWait) {
  replace(source, "%o0 = llvm.extractvalue %done[0]",
          "%o0 = llvm.extractvalue %d1[0]");
  expectError("its accumulators are read by an op other than wgmma");
}

TEST_F(Wgmma, OperandsMustNotChangeWhileInFlight) {
  // After a barrier (so no race with the wgmma's read) thread 0 writes B's
  // first element before the wait: the wgmma may still be reading it.
  replace(source,
          "llvm.inline_asm has_side_effects asm_dialect = att "
          "\"wgmma.commit_group.sync.aligned;\", \"\" : () -> ()",
          "llvm.inline_asm has_side_effects asm_dialect = att "
          "\"wgmma.commit_group.sync.aligned;\", \"\" : () -> ()\n"
          "    gpu.barrier\n"
          "    %is0 = arith.cmpi eq, %l, %c0 : index\n"
          "    scf.if %is0 {\n"
          "      %h = arith.constant 1.0 : f16\n"
          "      memref.store %h, %tile[%c0] : memref<512xf16, "
          "#gpu.address_space<workgroup>>\n"
          "    }");
  expectError("was written while it was in flight");
}

/// The kernel with 160 threads: the wgmma's warpgroup (threads 0-127)
/// arrives on an mbarrier at RELEASE (before or after its
/// wgmma.wait_group), and thread 128, outside it, waits for that phase
/// and then writes the first element of B's tile, which the wgmma reads.
void releaseToAnotherWarp(std::string &source, bool beforeTheWait) {
  source = "!bar = !nvgpu.mbarrier.group<memorySpace = "
           "#gpu.address_space<workgroup>, num_barriers = 1>\n" +
           source;
  replace(source, "%c1024 = arith.constant 1024 : index",
          "%c1024 = arith.constant 1024 : index\n"
          "  %c160 = arith.constant 160 : index");
  replace(source, "threads(%l, %ty, %tz) in (%sx = %c128,",
          "threads(%l, %ty, %tz) in (%sx = %c160,");
  replace(source, "%base = arith.addi %addr, %pad : index",
          "%base = arith.addi %addr, %pad : index\n"
          "    %bars = nvgpu.mbarrier.create -> !bar\n"
          "    %first = arith.cmpi eq, %l, %c0 : index\n"
          "    scf.if %first {\n"
          "      nvgpu.mbarrier.init %bars[%c0], %c128 : !bar\n"
          "      nvvm.fence.mbarrier.init\n"
          "    }");
  replace(source, "    gpu.barrier\n    %w = arith.divui %l, %c32 : index",
          "    gpu.barrier\n"
          "    %inwg = arith.cmpi ult, %l, %c128 : index\n"
          "    scf.if %inwg {\n"
          "    %w = arith.divui %l, %c32 : index");
  const std::string arrive =
      "    nvgpu.mbarrier.arrive.expect_tx %bars[%c0], %c0 : !bar // RELEASE\n";
  const std::string commit = "llvm.inline_asm has_side_effects asm_dialect = "
                             "att \"wgmma.commit_group.sync.aligned;\", \"\" : "
                             "() -> ()\n";
  if (beforeTheWait)
    replace(source, commit, commit + arrive);
  else
    replace(source, "!llvm.struct<(f32, f32, f32, f32)> // WAIT\n",
            "!llvm.struct<(f32, f32, f32, f32)> // WAIT\n" + arrive);
  replace(source, "memref.store %o3, %c[%r1, %q21] : memref<64x8xf32>\n",
          "memref.store %o3, %c[%r1, %q21] : memref<64x8xf32>\n"
          "    }\n"
          "    %is128 = arith.cmpi eq, %l, %c128 : index\n"
          "    scf.if %is128 {\n"
          "      %phase0 = arith.constant false\n"
          "      nvgpu.mbarrier.try_wait.parity %bars[%c0], %phase0, %c128 : "
          "!bar\n"
          "      %h = arith.constant 1.0 : f16\n"
          "      memref.store %h, %tile[%c0] : memref<512xf16, "
          "#gpu.address_space<workgroup>>\n"
          "    }\n");
}

TEST_F(Wgmma, AReleaseAfterTheWaitOrdersAnotherWarpsWrite) {
  releaseToAnotherWarp(source, /*beforeTheWait=*/false);
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t n = 0; n < 8; ++n)
      EXPECT_EQ(out[0][r * 8 + n], expected(r, n)) << r << ", " << n;
}

TEST_F(Wgmma, AReleaseBeforeTheWaitIsARace) {
  // The arrival comes before wgmma.wait_group: the wgmma may still read
  // the tile when thread 128 writes it. The simulator runs the write after
  // the wait (lockstep), so only the read's release clock taken at the
  // completing wait tells (it was taken at the issue before 2026-11-29).
  releaseToAnotherWarp(source, /*beforeTheWait=*/true);
  expectError("read since the last barrier (a race)");
}

TEST_F(Wgmma, SetMaxNRegIsAWarpgroupsBudget) {
  replace(source,
          "llvm.inline_asm has_side_effects asm_dialect = att "
          "\"wgmma.fence.sync.aligned;\", \"\" : () -> () // FENCE",
          "llvm.inline_asm has_side_effects asm_dialect = att "
          "\"setmaxnreg.inc.sync.aligned.u32 240;\", \"\" : () -> ()\n"
          "    llvm.inline_asm has_side_effects asm_dialect = att "
          "\"wgmma.fence.sync.aligned;\", \"\" : () -> () // FENCE");
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  EXPECT_EQ(out[0][0], expected(0, 0));
}

TEST_F(Wgmma, SetMaxNRegTakesMultiplesOf8From24To256) {
  replace(source,
          "llvm.inline_asm has_side_effects asm_dialect = att "
          "\"wgmma.fence.sync.aligned;\", \"\" : () -> () // FENCE",
          "llvm.inline_asm has_side_effects asm_dialect = att "
          "\"setmaxnreg.dec.sync.aligned.u32 20;\", \"\" : () -> ()\n"
          "    llvm.inline_asm has_side_effects asm_dialect = att "
          "\"wgmma.fence.sync.aligned;\", \"\" : () -> () // FENCE");
  expectError("setmaxnreg 20 (a multiple of 8 from 24 to 256 registers)");
}

// 384 threads, three warpgroups, setmaxnreg as the warp-specialized
// kernel uses it: the first two warpgroups (the consumers) at CONSUMERS,
// the third (the producer) at PRODUCER. The block's pool is at most 168
// registers a thread (65536 / 384, a multiple of 8).
const char *kMaxnreg = R"mlir(
func.func @k(%in: memref<4xf32>) -> memref<4xf32> {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c384 = arith.constant 384 : index
  %s0 = gpu.wait async
  %d, %t0 = gpu.alloc async [%s0] () : memref<4xf32>
  %t1 = gpu.memcpy async [%t0] %d, %in : memref<4xf32>, memref<4xf32>
  %t2 = gpu.launch async [%t1] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c384, %sy = %c1, %sz = %c1) {
    %consumer = arith.cmpi ult, %tx, %c256 : index
    scf.if %consumer {
      llvm.inline_asm has_side_effects asm_dialect = att "setmaxnreg.inc.sync.aligned.u32 240;", "" : () -> () // CONSUMERS
    } else {
      llvm.inline_asm has_side_effects asm_dialect = att "setmaxnreg.dec.sync.aligned.u32 24;", "" : () -> () // PRODUCER
    }
    gpu.terminator
  }
  %h = memref.alloc() : memref<4xf32>
  %t3 = gpu.memcpy async [%t2] %h, %d : memref<4xf32>, memref<4xf32>
  gpu.wait [%t3]
  return %h : memref<4xf32>
}
)mlir";

struct Maxnreg : ::testing::Test {
  Tensor in{ATTIC_F32, {4}};
  std::string source = kMaxnreg;
  std::string error;
  std::vector<Tensor> run() { return simulate(source, {&in}, error); }
};

TEST_F(Maxnreg, TheWarpSpecializedKernelsCountsFitThePool) {
  // 240 + 240 + 24 = 504 = 3 x 168: what attic emits at 384 threads.
  std::vector<Tensor> out = run();
  EXPECT_EQ(out.size(), 1u) << error;
}

TEST_F(Maxnreg, MoreThanThePoolWaitsForever) {
  // 248 + 248 + 24 = 520 > 504: one consumer's inc would never return.
  replace(source, "setmaxnreg.inc.sync.aligned.u32 240;",
          "setmaxnreg.inc.sync.aligned.u32 248;");
  expectFailure(run(), error,
                "leaves 3 warpgroups with 520 registers per thread in all, "
                "more than the block's pool allows (at most 168 each for "
                "384 threads): an inc waits forever on a GPU");
}

TEST_F(Maxnreg, AnIncMayNotLowerTheCount) {
  replace(source, "() -> () // CONSUMERS",
          "() -> ()\n"
          "      llvm.inline_asm has_side_effects asm_dialect = att "
          "\"setmaxnreg.inc.sync.aligned.u32 232;\", \"\" : () -> ()");
  expectFailure(run(), error,
                "setmaxnreg.inc 232 after the warpgroup's setmaxnreg 240 (an "
                "inc may not lower the count, nor a dec raise it)");
}

TEST_F(Maxnreg, ADecMayNotRaiseTheCount) {
  replace(source, "() -> () // PRODUCER",
          "() -> ()\n"
          "      llvm.inline_asm has_side_effects asm_dialect = att "
          "\"setmaxnreg.dec.sync.aligned.u32 32;\", \"\" : () -> ()");
  expectFailure(run(), error,
                "setmaxnreg.dec 32 after the warpgroup's setmaxnreg 24");
}

TEST_F(Wgmma, NeedsTheWholeWarpgroup) {
  replace(source, "threads(%l, %ty, %tz) in (%sx = %c128,",
          "threads(%l, %ty, %tz) in (%sx = %c64,");
  expectError("reached by 64 of the 128 threads of warpgroup 0");
}

// 64 threads; thread 0 loads a 4 x 8 box of the input seen as 8 x 8 at
// row 6 through TMA (rows 8 and 9 are past the tensor: zeros) into shared
// memory aligned to 128 bytes by the kernel, completing mbarrier 0;
// thread t then reads box element t % 32 into out[t]. Markers: INIT_BARRIER,
// TX, WAIT, READ.
const char *kTma = R"mlir(
!map = !nvgpu.tensormap.descriptor<tensor = memref<4x8xf32, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @k(%in: memref<64xf32>) -> memref<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %s0 = gpu.wait async
  %d, %t0 = gpu.alloc async [%s0] () : memref<64xf32>
  %t1 = gpu.memcpy async [%t0] %d, %in : memref<64xf32>, memref<64xf32>
  %o, %t2 = gpu.alloc async [%t1] () : memref<64xf32>
  %d2 = memref.expand_shape %d [[0, 1]] output_shape [8, 8] : memref<64xf32> into memref<8x8xf32>
  %u = memref.cast %d2 : memref<8x8xf32> to memref<*xf32>
  %map = nvgpu.tma.create.descriptor %u box[%c4, %c8] : memref<*xf32> -> !map
  %t3 = gpu.launch async [%t2] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
      workgroup(%s : memref<96xf32, #gpu.address_space<workgroup>>) {
    %base = memref.extract_aligned_pointer_as_index %s : memref<96xf32, #gpu.address_space<workgroup>> -> index
    %r = arith.remui %base, %c128 : index
    %p1 = arith.subi %c128, %r : index
    %pad = arith.remui %p1, %c128 : index
    %off = arith.divui %pad, %c4 : index // ALIGN
    %sv = memref.subview %s[%off] [32] [1] : memref<96xf32, #gpu.address_space<workgroup>> to memref<32xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %box = memref.expand_shape %sv [[0, 1]] output_shape [4, 8] : memref<32xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>> into memref<4x8xf32, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>
    %bars = nvgpu.mbarrier.create -> !bar
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      nvgpu.mbarrier.init %bars[%c0], %c1 : !bar
      nvvm.fence.mbarrier.init
    }
    gpu.barrier // INIT_BARRIER
    scf.if %first {
      nvgpu.mbarrier.arrive.expect_tx %bars[%c0], %c128 : !bar // TX
      nvgpu.tma.async.load %map[%c0, %c6], %bars[%c0] to %box : !map, !bar -> memref<4x8xf32, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>
    }
    %false = arith.constant false
    nvgpu.mbarrier.try_wait.parity %bars[%c0], %false, %c1 : !bar // WAIT
    %i = arith.remui %tx, %c32 : index
    %row = arith.divui %i, %c8 : index
    %col = arith.remui %i, %c8 : index
    %y = memref.load %box[%row, %col] : memref<4x8xf32, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>> // READ
    memref.store %y, %o[%tx] : memref<64xf32>
    gpu.terminator
  }
  %h = memref.alloc() : memref<64xf32>
  %t4 = gpu.memcpy async [%t3] %h, %o : memref<64xf32>, memref<64xf32>
  gpu.wait [%t4]
  return %h : memref<64xf32>
}
)mlir";

struct Tma : OneKernel {
  Tma() : OneKernel(kTma, 1.0, 1.0) {}
};

TEST_F(Tma, LoadsTheBoxAndZeroFillsPastTheTensor) {
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t t = 0; t < 64; ++t) {
    int64_t row = 6 + (t % 32) / 8, col = t % 8;
    EXPECT_EQ(out[0][t], row < 8 ? in[row * 8 + col] : 0.0) << t;
  }
}

TEST_F(Tma, ReadingBeforeTheWaitIsAnError) {
  replace(source,
          "nvgpu.mbarrier.try_wait.parity %bars[%c0], %false, %c1 : "
          "!bar // WAIT",
          "");
  expectError("which a TMA load completing phase 0 of mbarrier 0 writes, "
              "before this thread waited for that phase");
  EXPECT_NE(error.find("'memref.load'"), std::string::npos) << error;
}

TEST_F(Tma, WaitingForTheWrongParityIsADeadlock) {
  replace(source, "%false = arith.constant false",
          "%false = arith.constant true");
  expectError("waits for phase 1 (parity 1) of mbarrier 0, which never "
              "completes");
}

TEST_F(Tma, MoreBytesThanExpectedIsAnError) {
  replace(source, "%bars[%c0], %c128 : !bar // TX", "%bars[%c0], %c64 : !bar");
  expectError("completes 128 bytes on mbarrier 0, more than its phase 0 "
              "expects");
}

TEST_F(Tma, OtherThreadsNeedABarrierAfterTheInit) {
  replace(source, "gpu.barrier // INIT_BARRIER", "");
  expectError("which thread 0 initialized, with no barrier after the init");
}

TEST_F(Tma, TheDestinationMustBeAligned) {
  replace(source, "%off = arith.divui %pad, %c4 : index // ALIGN",
          "%off0 = arith.divui %pad, %c4 : index\n"
          "    %off = arith.addi %off0, %c4 : index");
  expectError("not 128-byte aligned");
}

TEST_F(Tma, MbarriersCountAsSharedMemory) {
  replace(source,
          "!bar = !nvgpu.mbarrier.group<memorySpace = "
          "#gpu.address_space<workgroup>>",
          "!bar = !nvgpu.mbarrier.group<memorySpace = "
          "#gpu.address_space<workgroup>, num_barriers = 29100>");
  expectError("brings the block's shared memory to 233184 bytes, at most "
              "232448");
}

TEST_F(Tma, ALoadNoThreadWaitsForIsAnError) {
  replace(source,
          "nvgpu.mbarrier.try_wait.parity %bars[%c0], %false, %c1 : "
          "!bar // WAIT",
          "");
  replace(source,
          "%y = memref.load %box[%row, %col] : memref<4x8xf32, strided<[8, "
          "1], offset: ?>, #gpu.address_space<workgroup>> // READ",
          "%y = arith.constant 0.0 : f32");
  expectError("may still write the block's shared memory when the kernel "
              "ends: no thread waited for phase 0 of mbarrier 0");
}

TEST_F(Tma, AGenericWriteBeforeTheLoadNeedsAProxyFence) {
  // Thread 0 writes a box byte through the generic proxy, then loads the
  // box through TMA (the async proxy): without a fence.proxy.async between
  // them the two writes are not ordered (PTX ISA, proxies).
  replace(source, "      nvgpu.mbarrier.init %bars[%c0], %c1 : !bar\n",
          "      %z = arith.constant 0.0 : f32\n"
          "      memref.store %z, %box[%c0, %c0] : memref<4x8xf32, "
          "strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>\n"
          "      // PROXY\n"
          "      nvgpu.mbarrier.init %bars[%c0], %c1 : !bar\n");
  std::string fenced = source;
  expectError("'nvgpu.tma.async.load'");
  expectError("that thread 0 wrote through the generic proxy with no "
              "fence.proxy.async after the write");
  source = fenced;
  replace(source, "// PROXY",
          "llvm.inline_asm has_side_effects asm_dialect = att "
          "\"fence.proxy.async.shared::cta;\", \"\" : () -> ()");
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  EXPECT_EQ(out[0][0], in[6 * 8]);
}

// The 128-byte swizzle on a TMA load: one row of 32 f32 (128 bytes) of the
// input seen as 2 x 32, its row 1; the kernel aligns the destination to
// 128 bytes (ALIGN), which the swizzle's 1024-byte pattern does not allow.
struct TmaSwizzle : OneKernel {
  TmaSwizzle() : OneKernel(kTma, 1.0, 1.0) {}
  void SetUp() override {
    replace(source,
            "memref<4x8xf32, #gpu.address_space<workgroup>>, "
            "swizzle = none",
            "memref<1x32xf32, #gpu.address_space<workgroup>>, "
            "swizzle = swizzle_128b");
    replaceAll(source,
               "output_shape [8, 8] : memref<64xf32> into "
               "memref<8x8xf32>",
               "output_shape [2, 32] : memref<64xf32> into memref<2x32xf32>");
    replace(source, "memref.cast %d2 : memref<8x8xf32>",
            "memref.cast %d2 : memref<2x32xf32>");
    replace(source, "box[%c4, %c8]", "box[%c1, %c32]");
    replace(source, "%map[%c0, %c6]", "%map[%c0, %c1]");
    replaceAll(source, "memref<4x8xf32, strided<[8, 1], offset: ?>",
               "memref<1x32xf32, strided<[32, 1], offset: ?>");
    replace(source, "output_shape [4, 8]", "output_shape [1, 32]");
    replace(source, "%row = arith.divui %i, %c8",
            "%row = arith.divui %i, %c32");
    replace(source, "%col = arith.remui %i, %c8",
            "%col = arith.remui %i, %c32");
  }
};

TEST_F(TmaSwizzle, TheDestinationMustBe1024ByteAligned) {
  expectError("with the 128-byte swizzle, not 1024-byte aligned");
}

TEST_F(TmaSwizzle, AnAlignedDestinationRuns) {
  // Aligned to 1024 bytes inside a 1280-byte buffer. Row 0 of the pattern
  // is not permuted, so thread t reads input element 32 + t % 32.
  replaceAll(source, "memref<96xf32, #gpu.address_space<workgroup>>",
             "memref<320xf32, #gpu.address_space<workgroup>>");
  replace(source,
          "    %r = arith.remui %base, %c128 : index\n"
          "    %p1 = arith.subi %c128, %r : index\n"
          "    %pad = arith.remui %p1, %c128 : index\n",
          "    %c1024 = arith.constant 1024 : index\n"
          "    %r = arith.remui %base, %c1024 : index\n"
          "    %p1 = arith.subi %c1024, %r : index\n"
          "    %pad = arith.remui %p1, %c1024 : index\n");
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t t = 0; t < 64; ++t)
    EXPECT_EQ(out[0][t], in[32 + t % 32]) << t;
}

// The Wgmma kernel with B loaded through TMA: four 8 x 8 boxes of Bt (one
// per 8 k) into the K-major layout without swizzle (box c at byte 128 c,
// row n at 16 n), completing mbarrier 0, which every thread waits for
// (TMA_WAIT) before the warpgroup's wgmma reads the tile.
struct TmaWgmma : Wgmma {
  void SetUp() override {
    source = "!map = !nvgpu.tensormap.descriptor<tensor = memref<8x8xf16, "
             "#gpu.address_space<workgroup>>, swizzle = none, l2promo = "
             "none, oob = zero, interleave = none>\n"
             "!bar = !nvgpu.mbarrier.group<memorySpace = "
             "#gpu.address_space<workgroup>>\n" +
             source;
    replace(source, "%bt_h : memref<8x32xf16>, memref<8x32xf16>\n",
            "%bt_h : memref<8x32xf16>, memref<8x32xf16>\n"
            "  %u = memref.cast %bt : memref<8x32xf16> to memref<*xf16>\n"
            "  %map = nvgpu.tma.create.descriptor %u box[%c8, %c8] : "
            "memref<*xf16> -> !map\n");
    size_t from = source.find("    %is32 = ");
    size_t to = source.find("    gpu.barrier\n", from);
    ASSERT_NE(from, std::string::npos);
    ASSERT_NE(to, std::string::npos);
    source.replace(
        from, to + std::string("    gpu.barrier\n").size() - from,
        "    %bars = nvgpu.mbarrier.create -> !bar\n"
        "    %first = arith.cmpi eq, %l, %c0 : index\n"
        "    scf.if %first {\n"
        "      nvgpu.mbarrier.init %bars[%c0], %c1 : !bar\n"
        "      nvvm.fence.mbarrier.init\n"
        "    }\n"
        "    gpu.barrier\n"
        "    scf.if %first {\n"
        "      %c512 = arith.constant 512 : index\n"
        "      nvgpu.mbarrier.arrive.expect_tx %bars[%c0], %c512 : !bar\n"
        "      scf.for %ch = %c0 to %c4 step %c1 {\n"
        "        %k0 = arith.muli %ch, %c8 : index\n"
        "        %o = arith.muli %ch, %c64 : index\n"
        "        %sv = memref.subview %tile[%o] [64] [1] : "
        "memref<512xf16, #gpu.address_space<workgroup>> to memref<64xf16, "
        "strided<[1], offset: ?>, #gpu.address_space<workgroup>>\n"
        "        %box = memref.expand_shape %sv [[0, 1]] output_shape [8, 8] "
        ": memref<64xf16, strided<[1], offset: ?>, "
        "#gpu.address_space<workgroup>> into memref<8x8xf16, strided<[8, "
        "1], offset: ?>, #gpu.address_space<workgroup>>\n"
        "        nvgpu.tma.async.load %map[%k0, %c0], %bars[%c0] to %box : "
        "!map, !bar -> memref<8x8xf16, strided<[8, 1], offset: ?>, "
        "#gpu.address_space<workgroup>>\n"
        "      }\n"
        "    }\n"
        "    %false = arith.constant false\n"
        "    nvgpu.mbarrier.try_wait.parity %bars[%c0], %false, %c1 : !bar "
        "// TMA_WAIT\n");
    // The K-major layout without swizzle (KMajorWithoutSwizzle...).
    replace(source, "%fields = arith.constant 4611686293305360384 : i64",
            "%fields = arith.constant 274878431232 : i64");
    replace(source, "%c2_i64 = arith.constant 2 : i64",
            "%c2_i64 = arith.constant 16 : i64");
  }
};

TEST_F(TmaWgmma, IsTheMatrixProduct) {
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t n = 0; n < 8; ++n)
      EXPECT_EQ(out[0][r * 8 + n], expected(r, n)) << r << ", " << n;
}

TEST_F(TmaWgmma, EveryThreadOfTheWarpgroupWaits) {
  // Only the first warp waits: the other warps may issue their parts of
  // the wgmma before the load lands.
  replace(source,
          "    nvgpu.mbarrier.try_wait.parity %bars[%c0], %false, %c1 : !bar "
          "// TMA_WAIT\n",
          "    %w0 = arith.cmpi ult, %l, %c32 : index\n"
          "    scf.if %w0 {\n"
          "      nvgpu.mbarrier.try_wait.parity %bars[%c0], %false, %c1 : "
          "!bar\n"
          "    }\n");
  expectError("which a TMA load completing phase 0 of mbarrier 0 writes, "
              "before this thread waited for that phase");
  EXPECT_NE(error.find("thread 32"), std::string::npos) << error;
}

// memref.reinterpret_cast counts its offset from the source's aligned
// pointer, which memref.view moves: thread t writes element t + 2 of a
// view 16 bytes into a device buffer and reads it back as element t of the
// view reinterpreted with offset 2 (a simulator that replaced the view's
// offset would read 16 bytes too early).
const char *kReinterpret = R"mlir(
func.func @k(%in: memref<64xf32>) -> memref<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c56 = arith.constant 56 : index
  %c64 = arith.constant 64 : index
  %s0 = gpu.wait async
  %bytes, %t0 = gpu.alloc async [%s0] () : memref<256xi8>
  %o, %t1 = gpu.alloc async [%t0] () : memref<64xf32>
  %f = memref.view %bytes[%c16][] : memref<256xi8> to memref<60xf32>
  %r = memref.reinterpret_cast %f to offset: [2], sizes: [56], strides: [1] : memref<60xf32> to memref<56xf32, strided<[1], offset: 2>>
  %t2 = gpu.launch async [%t1] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %low = arith.cmpi ult, %tx, %c56 : index
    %y = scf.if %low -> f32 {
      %i = arith.addi %tx, %c2 : index
      %ii = arith.index_cast %i : index to i32
      %x = arith.sitofp %ii : i32 to f32
      memref.store %x, %f[%i] : memref<60xf32>
      %back = memref.load %r[%tx] : memref<56xf32, strided<[1], offset: 2>>
      scf.yield %back : f32
    } else {
      %zero = arith.constant 0.0 : f32
      scf.yield %zero : f32
    }
    memref.store %y, %o[%tx] : memref<64xf32>
    gpu.terminator
  }
  %h = memref.alloc() : memref<64xf32>
  %t3 = gpu.memcpy async [%t2] %h, %o : memref<64xf32>, memref<64xf32>
  gpu.wait [%t3]
  return %h : memref<64xf32>
}
)mlir";

struct Reinterpret : OneKernel {
  Reinterpret() : OneKernel(kReinterpret, 0.0, 1.0) {}
};

TEST_F(Reinterpret, OffsetCountsFromTheViewsAlignedPointer) {
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t t = 0; t < 64; ++t)
    EXPECT_EQ(out[0][t], t < 56 ? double(t + 2) : 0.0) << t;
}

} // namespace

//===----------------------------------------------------------------------===//
// Warp roles: a producer and a consumer through an mbarrier ring
//===----------------------------------------------------------------------===//

// 128 threads: a producer role (threads 0-63) copies 8 rounds of 64 values
// into a ring of two slots in shared memory, a consumer role (64-127) sums
// them, and the consumers pass their sums on through shared memory after a
// named barrier of their 64 threads (nvvm.barrier id 1):
// out[c] = sum over rounds i of in[64 i + (c + 1) % 64]. mbarriers 0-1 say a
// slot is full (64 producer arrivals), 2-3 that it is empty again (64
// consumer arrivals); the producer waits for "empty" before it refills a
// slot. In lockstep the producer would run all its rounds first and wait
// forever for the consumers' first release; as roles they take turns.
// The markers ROLES, EMPTY_WAIT, FULL_WAIT, PARITY, READ, RELEASE and
// NAMED are edited by the tests.
const char *kRoles = R"mlir(
!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
func.func @k(%in: memref<512xf32>) -> memref<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %s0 = gpu.wait async
  %d, %t0 = gpu.alloc async [%s0] () : memref<512xf32>
  %t1 = gpu.memcpy async [%t0] %d, %in : memref<512xf32>, memref<512xf32>
  %o, %t2 = gpu.alloc async [%t1] () : memref<64xf32>
  %t3 = gpu.launch async [%t2] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
      workgroup(%ring : memref<128xf32, #gpu.address_space<workgroup>>,
                %scratch : memref<64xf32, #gpu.address_space<workgroup>>) {
    %bars = nvgpu.mbarrier.create -> !bar
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      nvgpu.mbarrier.init %bars[%c0], %c64 : !bar
      nvgpu.mbarrier.init %bars[%c1], %c64 : !bar
      nvgpu.mbarrier.init %bars[%c2], %c64 : !bar
      nvgpu.mbarrier.init %bars[%c3], %c64 : !bar
      nvvm.fence.mbarrier.init
    }
    gpu.barrier
    %producer = arith.cmpi ult, %tx, %c64 : index
    scf.if %producer {
      scf.for %i = %c0 to %c8 step %c1 {
        %slot = arith.remui %i, %c2 : index
        %round = arith.divui %i, %c2 : index
        %refill = arith.cmpi uge, %i, %c2 : index
        scf.if %refill {
          %prev = arith.subi %round, %c1 : index
          %pbit = arith.remui %prev, %c2 : index
          %parity = arith.cmpi ne, %pbit, %c0 : index
          %empty = arith.addi %slot, %c2 : index
          nvgpu.mbarrier.try_wait.parity %bars[%empty], %parity, %c64 : !bar // EMPTY_WAIT
        }
        %base = arith.muli %i, %c64 : index
        %src = arith.addi %base, %tx : index
        %v = memref.load %d[%src] : memref<512xf32>
        %sbase = arith.muli %slot, %c64 : index
        %dst = arith.addi %sbase, %tx : index
        memref.store %v, %ring[%dst] : memref<128xf32, #gpu.address_space<workgroup>>
        nvgpu.mbarrier.arrive.expect_tx %bars[%slot], %c0 : !bar
      }
    } else {
      %c = arith.subi %tx, %c64 : index
      %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
        %slot = arith.remui %i, %c2 : index
        %round = arith.divui %i, %c2 : index
        %pbit = arith.remui %round, %c2 : index // PARITY
        %parity = arith.cmpi ne, %pbit, %c0 : index
        nvgpu.mbarrier.try_wait.parity %bars[%slot], %parity, %c64 : !bar // FULL_WAIT
        %sbase = arith.muli %slot, %c64 : index
        %at = arith.addi %sbase, %c : index
        %x = memref.load %ring[%at] : memref<128xf32, #gpu.address_space<workgroup>> // READ
        %empty = arith.addi %slot, %c2 : index
        nvgpu.mbarrier.arrive.expect_tx %bars[%empty], %c0 : !bar // RELEASE
        %next = arith.addf %acc, %x : f32
        scf.yield %next : f32
      }
      memref.store %sum, %scratch[%c] : memref<64xf32, #gpu.address_space<workgroup>>
      %id = arith.constant 1 : i32
      %n = arith.constant 64 : i32 // COUNT
      nvvm.barrier id = %id number_of_threads = %n // NAMED
      %c1p = arith.addi %c, %c1 : index
      %nb = arith.remui %c1p, %c64 : index
      %y = memref.load %scratch[%nb] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %y, %o[%c] : memref<64xf32>
    } {attic.warp_roles} // ROLES
    gpu.terminator
  }
  %h = memref.alloc() : memref<64xf32>
  %t4 = gpu.memcpy async [%t3] %h, %o : memref<64xf32>, memref<64xf32>
  gpu.wait [%t4]
  return %h : memref<64xf32>
}
)mlir";

struct WarpRoles : ::testing::Test {
  Tensor in{ATTIC_F32, {512}};
  std::string source = kRoles;
  std::string error;
  WarpRoles() {
    for (int64_t i = 0; i < 512; ++i)
      in.set(i, 0.25 * double(i % 37) - 2.0);
  }
  std::vector<Tensor> run() { return simulate(source, {&in}, error); }
  void expectError(const std::string &fragment) {
    expectFailure(run(), error, fragment);
  }
};

TEST_F(WarpRoles, AProducerAndAConsumerTakeTurns) {
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t c = 0; c < 64; ++c) {
    float sum = 0;
    for (int64_t i = 0; i < 8; ++i)
      sum += static_cast<float>(in[64 * i + (c + 1) % 64]);
    EXPECT_EQ(out[0][c], sum) << c;
  }
}

TEST_F(WarpRoles, WithoutTheNamedBarrierTheExchangeIsARace) {
  replace(source, "nvvm.barrier id = %id number_of_threads = %n // NAMED", "");
  expectError("wrote since the last barrier (a race)");
}

TEST_F(WarpRoles, ANamedBarrierCountsAllItsThreads) {
  // 128 threads counted, 64 (the consumers) reach it: the other 64 never
  // arrive.
  replace(source, "%n = arith.constant 64 : i32 // COUNT",
          "%n = arith.constant 128 : i32");
  expectError("waits at named barrier 1 (64 of 128 threads arrived), which "
              "never completes: a deadlock");
}

TEST_F(WarpRoles, InLockstepTheProducerWaitsForever) {
  replace(source, "{attic.warp_roles} // ROLES", "");
  expectError("waits for phase 0 (parity 0) of mbarrier 2, which never "
              "completes (64 arrivals and 0 transaction bytes outstanding): "
              "a deadlock");
}

TEST_F(WarpRoles, AWaitNoRoleCanEndIsADeadlock) {
  // The consumer waits for the other parity: the first phase of slot 0's
  // "full" never counts, and the producer waits for a release that never
  // comes.
  replace(source, "%pbit = arith.remui %round, %c2 : index // PARITY",
          "%r1 = arith.addi %round, %c1 : index\n"
          "        %pbit = arith.remui %r1, %c2 : index");
  expectError("a deadlock (every other warp role waits too, or is done)");
}

TEST_F(WarpRoles, ReadingBeforeTheFullWaitIsARace) {
  replace(source,
          "nvgpu.mbarrier.try_wait.parity %bars[%slot], %parity, %c64 : !bar "
          "// FULL_WAIT",
          "");
  expectError("wrote since the last barrier (a race)");
  EXPECT_NE(error.find("'memref.load'"), std::string::npos) << error;
}

TEST_F(WarpRoles, ReleasingBeforeTheReadIsARace) {
  // The consumer arrives on "empty" before it reads: the producer's refill
  // is then not ordered after the read.
  replace(source,
          "nvgpu.mbarrier.arrive.expect_tx %bars[%empty], %c0 : !bar // "
          "RELEASE",
          "");
  replace(source,
          "%x = memref.load %ring[%at] : memref<128xf32, "
          "#gpu.address_space<workgroup>> // READ",
          "%early = arith.addi %slot, %c2 : index\n"
          "        nvgpu.mbarrier.arrive.expect_tx %bars[%early], %c0 : !bar\n"
          "        %x = memref.load %ring[%at] : memref<128xf32, "
          "#gpu.address_space<workgroup>>");
  expectError("read since the last barrier (a race)");
}

TEST_F(WarpRoles, ReadersOfOneByteAllReleaseIt) {
  // Every consumer reads the slot's first value: several readers of one
  // byte, each releasing it on "empty" after its read, so that the refill
  // is ordered after all of them.
  replace(source,
          "%x = memref.load %ring[%at] : memref<128xf32, "
          "#gpu.address_space<workgroup>> // READ",
          "%x = memref.load %ring[%sbase] : memref<128xf32, "
          "#gpu.address_space<workgroup>>");
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t c = 0; c < 64; ++c) {
    float sum = 0;
    for (int64_t i = 0; i < 8; ++i)
      sum += static_cast<float>(in[64 * i]);
    EXPECT_EQ(out[0][c], sum) << c;
  }
}

TEST_F(WarpRoles, AReaderThatDoesNotReleaseIsARace) {
  // As above, but only the first consumer warp releases ("empty" counts 32
  // arrivals): the refill is not ordered after the second warp's reads.
  replace(source,
          "%x = memref.load %ring[%at] : memref<128xf32, "
          "#gpu.address_space<workgroup>> // READ",
          "%x = memref.load %ring[%sbase] : memref<128xf32, "
          "#gpu.address_space<workgroup>>");
  replace(source, "nvgpu.mbarrier.init %bars[%c2], %c64 : !bar",
          "nvgpu.mbarrier.init %bars[%c2], %c32 : !bar");
  replace(source, "nvgpu.mbarrier.init %bars[%c3], %c64 : !bar",
          "nvgpu.mbarrier.init %bars[%c3], %c32 : !bar");
  replace(source, "%c64 = arith.constant 64 : index",
          "%c64 = arith.constant 64 : index\n  %c32 = arith.constant 32 : "
          "index\n  %c96 = arith.constant 96 : index");
  replace(
      source,
      "nvgpu.mbarrier.arrive.expect_tx %bars[%empty], %c0 : !bar // "
      "RELEASE",
      "%releases = arith.cmpi ult, %tx, %c96 : index\n"
      "        scf.if %releases {\n"
      "          nvgpu.mbarrier.arrive.expect_tx %bars[%empty], %c0 : !bar\n"
      "        }");
  expectError("that other threads read since the last barrier (a race)");
}

TEST_F(WarpRoles, RoleSplitsDoNotNest) {
  replace(source, "scf.for %i = %c0 to %c8 step %c1 {",
          "%low = arith.cmpi ult, %tx, %c2 : index\n"
          "      scf.if %low {\n"
          "      } else {\n"
          "      } {attic.warp_roles}\n"
          "      scf.for %i = %c0 to %c8 step %c1 {");
  expectError("a warp role split inside another one is not simulated");
}

// Ping-pong between two warpgroups (FlashAttention-3's schedule of its
// consumer warpgroups): 256 threads, the split's then-branch runs one role
// per warpgroup (attic.warpgroup_roles). Warpgroup w may take its turn
// after bar.sync on named barrier 2 + w (256 threads: its own 128 and the
// other's bar.arrive); a turn's first thread appends w to a log through a
// shared counter, then the warpgroup arrives on the other's barrier.
// Warpgroup 1 lets warpgroup 0 go first (START), and warpgroup 0 syncs
// once more at the end (LAST) so that no phase is left open. The log is
// 0 1 0 1 0 1 0 1. Markers: START, SYNC, ARRIVE, LAST, ROLES.
const char *kPingPong = R"mlir(
func.func @k() -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %s0 = gpu.wait async
  %o, %t1 = gpu.alloc async [%s0] () : memref<8xf32>
  %t2 = gpu.launch async [%t1] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1)
      workgroup(%ctr : memref<1xi32, #gpu.address_space<workgroup>>,
                %log : memref<8xf32, #gpu.address_space<workgroup>>) {
    %zero = arith.constant 0 : i32
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %zero, %ctr[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %all = arith.cmpi ult, %tx, %c256 : index
    scf.if %all {
      %wg = arith.divui %tx, %c128 : index
      %wgi = arith.index_cast %wg : index to i32
      %wgf = arith.sitofp %wgi : i32 to f32
      %two = arith.constant 2 : i32
      %three = arith.constant 3 : i32
      %n = arith.constant 256 : i32
      %mine = arith.addi %two, %wgi : i32
      %theirs = arith.subi %three, %wgi : i32
      %isOne = arith.cmpi eq, %wg, %c1 : index
      scf.if %isOne {
        nvvm.barrier.arrive id = %two number_of_threads = %n // START
      }
      %lead = arith.remui %tx, %c128 : index
      %isLead = arith.cmpi eq, %lead, %c0 : index
      scf.for %r = %c0 to %c4 step %c1 {
        nvvm.barrier id = %mine number_of_threads = %n // SYNC
        scf.if %isLead {
          %v = memref.load %ctr[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
          %vi = arith.index_cast %v : i32 to index
          memref.store %wgf, %log[%vi] : memref<8xf32, #gpu.address_space<workgroup>>
          %one = arith.constant 1 : i32
          %next = arith.addi %v, %one : i32
          memref.store %next, %ctr[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
        }
        nvvm.barrier.arrive id = %theirs number_of_threads = %n // ARRIVE
      }
      %isZero = arith.cmpi eq, %wg, %c0 : index
      scf.if %isZero {
        nvvm.barrier id = %two number_of_threads = %n // LAST
      }
    } else {
    } {attic.warp_roles, attic.warpgroup_roles} // ROLES
    gpu.barrier
    %copy = arith.cmpi ult, %tx, %c8 : index
    scf.if %copy {
      %x = memref.load %log[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
      memref.store %x, %o[%tx] : memref<8xf32>
    }
    gpu.terminator
  }
  %h = memref.alloc() : memref<8xf32>
  %t3 = gpu.memcpy async [%t2] %h, %o : memref<8xf32>, memref<8xf32>
  gpu.wait [%t3]
  return %h : memref<8xf32>
}
)mlir";

struct PingPong : ::testing::Test {
  std::string source = kPingPong;
  std::string error;
  std::vector<Tensor> run() { return simulate(source, {}, error); }
  void expectError(const std::string &fragment) {
    expectFailure(run(), error, fragment);
  }
};

TEST_F(PingPong, TheWarpgroupsTakeTurns) {
  std::vector<Tensor> out = run();
  ASSERT_EQ(out.size(), 1u) << error;
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(out[0][i], double(i % 2)) << i;
}

TEST_F(PingPong, WithoutTheFirstArrivalNoneGoesFirst) {
  replace(source,
          "nvvm.barrier.arrive id = %two number_of_threads = %n // START", "");
  expectError("waits at named barrier 2 (128 of 256 threads arrived), which "
              "never completes: a deadlock");
}

TEST_F(PingPong, WithoutTheSyncTheCounterIsARace) {
  replace(source, "nvvm.barrier id = %mine number_of_threads = %n // SYNC", "");
  expectError("since the last barrier (a race)");
}

TEST_F(PingPong, APhaseWithMoreArrivalsThanItsCountIsAnError) {
  // A count of 192: warpgroup 0's 128 wait, warpgroup 1's 128 overshoot.
  replace(source, "%n = arith.constant 256 : i32",
          "%n = arith.constant 192 : i32");
  expectError("named barrier 2 of 192 threads reached by 256 in one phase");
}

TEST_F(PingPong, InLockstepAPartialNamedBarrierIsAnError) {
  // Without the roles, warpgroup 1's first arrival is all that reaches
  // barrier 2 at that point of the lockstep run.
  replace(source, "{attic.warp_roles, attic.warpgroup_roles} // ROLES", "");
  expectError("named barrier 2 of 256 threads reached by 128 together "
              "(outside warp roles the threads of a named barrier reach it "
              "together, with bar.sync)");
}

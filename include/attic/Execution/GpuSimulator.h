//===- GpuSimulator.h - run attic's CUDA mapping without a GPU ----*- C++
//-*-===//
//
// attic-run --target=cuda-simulated. The CUDA pipeline's kernels cannot run
// on a machine without a GPU, and attic-gpu-emulate runs only kernels whose
// threads do not communicate (the SIMT mapping). The simulator runs the
// output of the CUDA mapping and outlining (buildCudaMappingPipeline and
// buildCudaOutliningPipeline: host code that moves data and launches
// kernels, the tensor-core kernel included, outlined into gpu.func and
// annotated as attic-cuda-pipeline compiles them; gpu.launch ops run too)
// in an interpreter that executes the threads of a thread block in
// lockstep:
//
//   - every SSA value has one copy per thread; scf.if and scf.for run their
//     regions for the threads whose condition holds (divergence is masked);
//   - nvgpu.mma.sync / nvvm.mma.sync (m16n8k16) gather the fragments of the
//     32 lanes of a warp through the PTX ISA's fragment layouts, multiply in
//     double and round the f32 accumulators once; nvgpu.ldmatrix (.x1,
//     .x2, .x4, .trans) reads the 8 rows of each matrix from the addresses
//     of its 8 lanes (16-byte aligned rows of shared memory, or an error)
//     and hands out the pairs by the PTX ISA's ldmatrix layout;
//   - gpu.shuffle reads the source lane's value, and fails unless all 32
//     lanes of the warp take part; gpu.barrier fails unless every thread of
//     the block reaches it (a barrier in divergent code is undefined on the
//     GPU);
//   - shared memory is checked for races: a read or write of a byte that
//     another thread wrote, or a write of a byte that another thread read,
//     since the last barrier is an error (lockstep execution would hide a
//     missing barrier otherwise);
//   - every memory access is bounds-checked (and a vector access must be at
//     a multiple of the alignment it claims), device and shared buffers start
//     as NaN bytes (0xff), and use after gpu.dealloc is an error;
//   - host code may touch only host memory and kernels only device, shared
//     and private memory (gpu.memcpy and gpu.memset cross between them);
//   - nvgpu.device_async_copy (cp.async, 4/8/16 bytes, zero fill past its
//     source size) reads its source when issued and writes its destination
//     at the nvvm.cp.async.wait.group that covers its group
//     (nvvm.cp.async.commit.group closes a thread's open copies into one);
//     until then the destination bytes may not be touched, after it other
//     threads need a barrier, and a copy in flight at the end of the kernel
//     is an error;
//   - host code's async tokens are streams as gpu-to-llvm lowers them
//     (`gpu.wait async` creates one, a step runs on its one dependency's
//     stream, a blocking `gpu.wait` synchronizes and destroys it); steps
//     run when issued, and host memory that an async gpu.memcpy/memset on
//     a stream reads or writes may not be touched by the host (or written
//     by a step on another stream) until that stream's wait; a token of a
//     destroyed stream and a stream live at the function's return are
//     errors. Device buffers are not checked across streams (attic's host
//     code has one stream at a time);
//   - mbarriers (nvgpu.mbarrier.*: init, arrive.expect_tx, try_wait.parity)
//     and TMA loads follow the PTX ISA; an arrival releases and a completed
//     wait acquires, so accesses ordered through an mbarrier are not races
//     (bytes read by several threads, or by a wgmma's warpgroup, once the
//     writer has acquired a release of each reader after its read);
//   - warp roles: the two branches of an scf.if marked `attic.warp_roles`
//     (kWarpRolesAttr; a producer warpgroup and a consumer, say) make
//     progress independently, as warps do on a GPU: each runs until it
//     waits for an mbarrier phase that has not completed, then the other
//     goes on; a wait that no role can end is a deadlock; nvvm.barrier
//     with a thread count (a named barrier) orders the accesses of its
//     threads, which must reach it together (one role's whole warps);
//     setmaxnreg (whole warpgroups, 24..256 registers) computes nothing;
//   - ex2.approx.ftz.f32 (the kernel's inline asm) is exp2 with subnormals
//     flushed; other inline asm is an error, as is any op the interpreter
//     does not know.
//
// It checks what the GPU kernels compute, not how fast: an interpreter, tens of
// nanoseconds per op and thread (about 1 s for 25M thread-ops), meant for
// small shapes in tests.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_EXECUTION_GPUSIMULATOR_H
#define ATTIC_EXECUTION_GPUSIMULATOR_H

#include "attic/Execution/CpuExecutable.h"
#include "attic/Pipelines/Pipelines.h"
#include "attic/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <string>

namespace attic {

/// The unit attribute of an scf.if whose branches the simulator runs as
/// independent warp roles (above). Only on a kernel's top level of roles:
/// a split inside a branch of another, or one with results, is an error.
inline constexpr llvm::StringLiteral kWarpRolesAttr = kWarpRolesAttrName;

/// Counts of the last simulated run.
struct SimulationStats {
  int64_t launches = 0;     // gpu.launch ops executed
  int64_t blocks = 0;       // thread blocks run
  int64_t threadOps = 0;    // ops executed, summed over threads
  int64_t mmas = 0;         // warp-level mma.sync ops
  int64_t wgmmas = 0;       // warpgroup-level wgmma.mma_async ops
  int64_t barriers = 0;     // block-level gpu.barrier ops
  int64_t roleSplits = 0;   // blocks run as warp roles (kWarpRolesAttr)
};

class SimulatedCudaExecutable {
public:
  ~SimulatedCudaExecutable();

  /// Lowers a clone of `module` with buildCudaMappingPipeline (tile sizes
  /// as attic-cuda-pipeline takes them; checkCudaBlockSizes; the mapping's
  /// `options`, the tensor-core kernel's included) and
  /// buildCudaOutliningPipeline (the kernels outlined and annotated, their
  /// constant arguments inlined, deduplicated and merged into one module,
  /// as attic-cuda-pipeline does by default) and keeps the result for
  /// `run` (`inlineKernelConstants`: attic-cuda-pipeline's option of that
  /// name). Fails with a one-line message.
  static std::unique_ptr<SimulatedCudaExecutable>
  compile(mlir::ModuleOp module, llvm::StringRef entry, int64_t blockQ,
          int64_t blockK, std::string &error,
          const GpuMappingOptions &options = {},
          bool inlineKernelConstants = true);

  /// Lowers a clone of `module` with the textual pass pipeline `pipeline`
  /// (as attic-run's --cuda-pipeline takes it: `builtin.module(a,b)` or
  /// `a,b`; named pipelines such as attic-cuda-pipeline{...} are expanded
  /// into their passes) up to its conversion to NVVM: the first
  /// `nvvm-attach-target`, `convert-nvgpu-to-nvvm`, `convert-scf-to-cf`,
  /// `convert-gpu-to-nvvm`, `gpu-module-to-binary`, `gpu-to-llvm`,
  /// `convert-func-to-llvm`, `convert-arith-to-llvm`, `convert-to-llvm`,
  /// `finalize-memref-to-llvm` or pipeline nested on `gpu.module`. The
  /// simulator interprets gpu.launch ops and outlined kernels (gpu.func
  /// run by gpu.launch_func) in the host functions, not NVVM. A pipeline
  /// without such a pass runs whole. Fails with a one-line message; so
  /// does a run whose lowered IR the simulator cannot interpret.
  static std::unique_ptr<SimulatedCudaExecutable>
  compile(mlir::ModuleOp module, llvm::StringRef entry,
          llvm::StringRef pipeline, std::string &error);

  /// Takes `lowered` as it is (already in the form of the CUDA mapping: a
  /// function on memrefs whose kernels are gpu.launch ops), for tests of
  /// the simulator itself. Its signature is read from the memref types.
  static std::unique_ptr<SimulatedCudaExecutable>
  fromLowered(mlir::OwningOpRef<mlir::ModuleOp> lowered, llvm::StringRef entry,
              std::string &error);

  const EntrySignature &signature() const { return signature_; }

  /// Runs the entry function on copies of `inputs`; outputs are fresh
  /// tensors owned by the caller. Fails with a one-line message naming the
  /// op, its location and (in a kernel) the block and thread, or with the
  /// first error the simulated code reported to the runtime.
  mlir::LogicalResult run(llvm::ArrayRef<const attic_tensor *> inputs,
                          llvm::SmallVectorImpl<attic_tensor> &outputs,
                          std::string &error);

  SimulationStats lastRunStats() const { return stats_; }

  /// The lowered module (for dumps in tests).
  mlir::ModuleOp module() { return *lowered_; }

private:
  SimulatedCudaExecutable() = default;

  static std::unique_ptr<SimulatedCudaExecutable>
  compileWith(mlir::ModuleOp module, llvm::StringRef entry,
              llvm::function_ref<mlir::LogicalResult(mlir::OpPassManager &,
                                                     std::string &)>
                  buildPipeline,
              std::string &error);

  mlir::OwningOpRef<mlir::ModuleOp> lowered_;
  std::string entry_;
  EntrySignature signature_;
  SimulationStats stats_;
};

} // namespace attic

#endif // ATTIC_EXECUTION_GPUSIMULATOR_H

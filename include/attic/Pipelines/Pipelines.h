//===- Pipelines.h - attic's registered pass pipelines -----------*- C++ -*-===//

#ifndef ATTIC_PIPELINES_PIPELINES_H
#define ATTIC_PIPELINES_PIPELINES_H

#include "attic/Conversion/AtticToGPU/TensorCoreOptions.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace attic {

struct CpuPipelineOptions
    : public mlir::PassPipelineOptions<CpuPipelineOptions> {
  Option<int64_t> blockQ{*this, "block-q",
                         llvm::cl::desc("Query rows per block"),
                         llvm::cl::init(128)};
  Option<int64_t> blockK{*this, "block-k",
                         llvm::cl::desc("Key rows per block"),
                         llvm::cl::init(128)};
  Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("f32 lanes per vector; 0: the host CPU's widest unit"),
      llvm::cl::init(0)};
  Option<int64_t> registerRows{
      *this, "register-rows",
      llvm::cl::desc("Query rows per register tile; 0: derived"),
      llvm::cl::init(0)};
  Option<int64_t> registerChunks{
      *this, "register-chunks",
      llvm::cl::desc("Vectors per register tile row; 0: derived"),
      llvm::cl::init(0)};
  Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Run the parallel loops on OpenMP threads (libomp); "
                     "false: sequential loops"),
      llvm::cl::init(true)};
  Option<bool> blas{
      *this, "blas",
      llvm::cl::desc("f32 linalg.matmul on memrefs calls the runtime's sgemm "
                     "(OpenBLAS; attic-linalg-to-blas); false: loops"),
      llvm::cl::init(true)};
  Option<bool> emulateCuda{
      *this, "emulate-cuda",
      llvm::cl::desc("Compile as attic-cuda-pipeline maps the function onto "
                     "the GPU (device buffers, a kernel per loop nest, "
                     "attention as the SIMT kernel) and run those kernels as "
                     "CPU loops (attic-gpu-emulate): tests the GPU mapping "
                     "without a GPU"),
      llvm::cl::init(false)};
};

/// The first half of both pipelines: attic-decompose (block_q/block_k),
/// attic-expand-vcc, canonicalize, elementwise ops to linalg,
/// attic-readonly-arguments, one-shot bufferization (function boundaries,
/// identity layouts), attic-order-constant-globals (its constant globals
/// named and placed the same way on every run), scf-forall-to-parallel, the
/// buffer deallocation pipeline and convert-bufferization-to-memref. For the
/// GPU mapping (`forGpu`), attic-unroll-layer-loops first: kernels are launched
/// from straight-line host code.
void buildBufferizationPipeline(mlir::OpPassManager &pm, int64_t blockQ,
                                int64_t blockK, bool forGpu = false);

/// The options of the GPU mapping (attic-cuda-pipeline's, and the
/// emulation's and the simulator's), besides the tile sizes.
struct GpuMappingOptions {
  /// The tensor-core kernel's (attic-gpu-map-tiles').
  TensorCoreOptions kernel;
  /// Consecutive device steps on one stream (attic-gpu-merge-chains).
  bool mergeChains = true;
  /// Independent kernels joined into one launch (attic-gpu-fuse-launches).
  bool fuseLaunches = true;
  /// With fuseLaunches, kernels moved to the levels of their dependence
  /// graph first (attic-gpu-fuse-launches' `levels`).
  bool fuseLevels = true;
};

/// The GPU mapping shared by attic-cuda-pipeline and the emulation: linalg
/// to parallel loops, attic-hoist-allocs and scf-parallel-loop-fusion
/// (adjacent loops over one iteration space: one kernel),
/// attic-lower-block-mask,
/// attic-tile-block-attention,
/// attic-gpu-offload (a kernel per loop nest, buffers on the device),
/// attic-gpu-fuse-launches (unless `options.fuseLaunches` is false),
/// attic-gpu-map-tiles (the tensor-core kernel with `options.kernel` where
/// it applies when `tensorCores`, else a thread per query row).
/// `options.mergeChains` is not used here (the merge runs after the host
/// check of buildCudaMappingPipeline).
void buildGpuOffloadPipeline(mlir::OpPassManager &pm, bool tensorCores,
                             const GpuMappingOptions &options = {});

/// attic ops on tensors -> LLVM dialect, for the CPU (JIT or AOT):
/// attic-decompose, attic-expand-vcc, one-shot bufferization, buffer
/// deallocation, attic-linalg-to-blas (unless blas=false; the code then
/// calls `attic_rt_sgemm`, which CpuExecutable binds), the remaining linalg
/// ops to parallel loops, attic-hoist-allocs and scf-parallel-loop-fusion
/// (adjacent loops over one iteration space: one OpenMP region),
/// attic-lower-block-mask, attic-tile-block-attention,
/// attic-cpu-map-tiles, attic-approximate-math, scf.parallel to OpenMP
/// (unless parallel=false; then attic-inline-alloca-scopes), then upstream's
/// conversions to LLVM. The
/// OpenMP form calls libomp's `__kmpc_*` entry points, so the code that runs
/// it must be linked with (or load) libomp. First attic-check-scope: attic
/// ops outside the module's top-level functions are errors.
void buildCpuPipeline(mlir::OpPassManager &pm,
                      const CpuPipelineOptions &options);

/// Whether `pm` runs on a builtin.module (or on any op), as attic's
/// pipelines must; if not (nested on func.func or gpu.module), adds an
/// attic-fail that names `pipeline` and says how to nest it, and returns
/// false: the builder then adds nothing else.
bool checkPipelineAnchor(mlir::OpPassManager &pm, llvm::StringRef pipeline);

struct CudaPipelineOptions
    : public mlir::PassPipelineOptions<CudaPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("GPU architecture: sm_80, sm_90 or "
                                          "sm_90a (sm_90 with wgmma)"),
                           llvm::cl::init("sm_80")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Kernel format in the gpu.binary: isa (PTX text), bin "
                     "(cubin, needs ptxas) or fatbin; empty: bin when ptxas "
                     "is found (see `toolkit`), else isa"),
      llvm::cl::init("")};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit root (bin/ptxas); empty: /usr/local/cuda"),
      llvm::cl::init("")};
  Option<int64_t> blockQ{
      *this, "block-q",
      llvm::cl::desc("Query rows per thread block (16 per warp): 16, 32, 64 "
                     "or 128"),
      llvm::cl::init(128)};
  Option<int64_t> blockK{
      *this, "block-k",
      llvm::cl::desc("Keys per shared-memory tile: a multiple of 16 up to "
                     "128, halved by the kernel where the tiles would not "
                     "fit in 48 KiB of shared memory (D = Dv = 128: 64)"),
      llvm::cl::init(128)};
  Option<bool> asyncCopies{
      *this, "async-copies",
      llvm::cl::desc("The tensor-core kernel copies K and V with cp.async, "
                     "overlapping the copies with the products (false: "
                     "loads and stores through registers, the kernel before "
                     "cp.async, for A/B timing)"),
      llvm::cl::init(true)};
  Option<bool> mergeChains{
      *this, "merge-chains",
      llvm::cl::desc("Run consecutive device steps on one stream, "
                     "synchronizing only where the host reads their results "
                     "(attic-gpu-merge-chains; false: a stream created, "
                     "synchronized and destroyed per step, for A/B timing)"),
      llvm::cl::init(true)};
  Option<bool> fuseLaunches{
      *this, "fuse-launches",
      llvm::cl::desc("Join consecutive independent kernels into one launch "
                     "(attic-gpu-fuse-launches; false: a launch per loop "
                     "nest, for A/B timing)"),
      llvm::cl::init(true)};
  Option<bool> mergeKernels{
      *this, "merge-kernels",
      llvm::cl::desc("Compile the kernels as one gpu.module, each set of "
                     "identical kernels once (attic-gpu-dedup-kernels, "
                     "attic-gpu-merge-kernel-modules; false: a gpu.binary "
                     "per kernel, as gpu-kernel-outlining leaves them, for "
                     "reading one kernel's PTX)"),
      llvm::cl::init(true)};
  Option<bool> inlineKernelConstants{
      *this, "inline-kernel-constants",
      llvm::cl::desc("Kernel arguments that every launch passes the same "
                     "constant (static tensor sizes; the kernels' own "
                     "constants after a canonicalization before outlining) "
                     "become constants in the kernels, and grid and block "
                     "sizes shared by all launches known sizes "
                     "(attic-gpu-annotate-kernels; false: arguments, for "
                     "A/B timing)"),
      llvm::cl::init(true)};
  Option<bool> fuseLevels{
      *this, "fuse-levels",
      llvm::cl::desc("With fuse-launches: kernels move to the levels of "
                     "their dependence graph before joining (false: only "
                     "neighbours in program order join, for A/B timing)"),
      llvm::cl::init(true)};
  Option<int64_t> kvStages{
      *this, "kv-stages",
      llvm::cl::desc("Slots of the tensor-core kernel's K and V rings: 1 "
                     "(V's copy overlaps Q K^T, the next K's P V), or 2 (two "
                     "K and two V blocks in dynamic shared memory where they "
                     "fit in 99 KiB, the next block's copies overlapping the "
                     "whole block; else 1), or 3 (three of each, where they "
                     "fit in 99 KiB, 227 KiB with wgmma: one barrier per key "
                     "block instead of two; else 2); needs async-copies)"),
      llvm::cl::init(1)};
  Option<bool> wgmma{
      *this, "wgmma",
      llvm::cl::desc("The tensor-core kernel computes S = Q K^T (and P V "
                     "where Dv is 64 or 128) with wgmma.mma_async (Q and P "
                     "from registers, K and V from 128-byte swizzled "
                     "tiles, in one slot or kv-stages=2 rings); needs "
                     "chip=sm_90a and async-copies; kernels whose tiles do "
                     "not allow it (D not 64 or 128, block-q under 64, K "
                     "and V over the shared memory limit) keep mma.sync"),
      llvm::cl::init(false)};
  Option<bool> wgmmaOverlap{
      *this, "wgmma-overlap",
      llvm::cl::desc("With wgmma and kv-stages=2 or 3: each key block's P V "
                     "runs during the next block's softmax (FlashAttention-3's "
                     "intra-warpgroup overlap; V's ring gets one more slot, "
                     "where it fits)"),
      llvm::cl::init(false)};
  Option<bool> tma{
      *this, "tma",
      llvm::cl::desc("With wgmma and kv-stages=2 or 3: the rings' K and V "
                     "blocks are TMA loads (tensor maps made on the host, an "
                     "mbarrier per slot) instead of cp.async, where both "
                     "products are wgmmas"),
      llvm::cl::init(false)};
  Option<bool> warpSpecialize{
      *this, "warp-specialize",
      llvm::cl::desc("With tma: a producer warpgroup issues the rings' TMA "
                     "loads and the consumer warpgroups release each slot "
                     "through an mbarrier (setmaxnreg gives the consumers "
                     "the producer's registers)"),
      llvm::cl::init(false)};
  Option<bool> pingPong{
      *this, "ping-pong",
      llvm::cl::desc("With warp-specialize and wgmma-overlap: the two "
                     "consumer warpgroups (block-q=128) take turns issuing "
                     "their wgmmas, so that one's softmax runs during the "
                     "other's products"),
      llvm::cl::init(false)};

  /// The options as the mapping takes them.
  TensorCoreOptions kernelOptions() const;
  GpuMappingOptions mappingOptions() const;
};

/// attic-cuda-pipeline's rule for tile sizes (the tensor-core kernel's warp
/// and fragment shapes): "" when block-q is 16, 32, 64 or 128 and block-k a
/// multiple of 16 in [16, 128], else the message that says why not.
std::string checkCudaBlockSizes(int64_t blockQ, int64_t blockK);

/// The GPU mapping of attic-cuda-pipeline, before kernel outlining:
/// attic-check-scope (attic-cuda-pipeline's input checks, gpu.launch
/// allowed), buildBufferizationPipeline, buildGpuOffloadPipeline with tensor
/// cores, attic-gpu-check-host, attic-gpu-merge-chains (unless
/// `options.mergeChains` is false), attic-gpu-check-streams. Its output (host
/// code that moves data and launches gpu.launch kernels on device buffers) is
/// what buildCudaOutliningPipeline outlines and the rest of attic-cuda-pipeline
/// compiles to NVVM and PTX.
void buildCudaMappingPipeline(mlir::OpPassManager &pm, int64_t blockQ,
                              int64_t blockK,
                              const GpuMappingOptions &options = {});

/// The kernels of buildCudaMappingPipeline's output outlined into
/// gpu.module/gpu.func (gpu-kernel-outlining) and annotated
/// (attic-gpu-annotate-kernels, with its constant inlining and known sizes
/// unless `inlineKernelConstants` is false), then, with `mergeKernels`,
/// deduplicated and merged into one module (attic-gpu-dedup-kernels,
/// attic-gpu-merge-kernel-modules). What attic-cuda-pipeline converts to
/// NVVM next, and the form the GPU simulator runs.
void buildCudaOutliningPipeline(mlir::OpPassManager &pm,
                                bool inlineKernelConstants = true,
                                bool mergeKernels = true);

/// attic ops on tensors -> host code in the LLVM dialect that calls the
/// mgpu* functions of MLIR 22's gpu-to-llvm (stream, alloc, memcpy, launch,
/// free) plus a gpu.binary holding the kernels: attic-decompose, one-shot
/// bufferization, buffer deallocation (buildBufferizationPipeline), the GPU
/// mapping (buildGpuOffloadPipeline: device buffers, a kernel per loop nest,
/// the tile loops as the tensor-core kernel or a thread per row), a check
/// that nothing but data movement is left on the host, gpu-kernel-outlining,
/// nvvm-attach-target, nvgpu/gpu to NVVM, host to LLVM, gpu-module-to-binary
/// and attic-gpu-strip-compile-times (the same output for the same input).
/// Bad options, attic ops outside the top-level functions
/// (attic-check-scope) and compute left on the host are errors.
void buildCudaPipeline(mlir::OpPassManager &pm,
                       const CudaPipelineOptions &options);

/// The CUDA toolkit root the options name: `toolkit`, or /usr/local/cuda.
std::string cudaToolkitPath(const CudaPipelineOptions &options);

/// The CUDA toolkit root that holds an executable bin/ptxas
/// (cudaToolkitPath), or "" when there is none.
std::string resolveCudaToolkit(const CudaPipelineOptions &options);

/// Registers `attic-cpu-pipeline` and `attic-cuda-pipeline` for textual
/// pipelines and attic-opt.
void registerAtticPipelines();

} // namespace attic

#endif // ATTIC_PIPELINES_PIPELINES_H

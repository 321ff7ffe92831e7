//===- CpuPipeline.cpp - attic-cpu-pipeline ---------------------*- C++ -*-===//

#include "attic/Pipelines/Pipelines.h"
#include "attic/Support/KernelOptions.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void attic::buildBufferizationPipeline(OpPassManager &pm, int64_t blockQ,
                                       int64_t blockK, bool forGpu) {
  // The function's own affine ops (affine.for, affine.if, affine.min, ...)
  // -> scf and arith: the guards below then see their divisions and steps,
  // and the loops reach the scf lowerings (lower-affine at the end, for
  // expand-strided-metadata's affine.apply, comes after scf-to-cf: an
  // affine.for left until then stayed an scf.for that LLVM's translation
  // refused).
  pm.addPass(createLowerAffinePass());
  // The function's own tensor.extract / tensor.insert checked against the
  // tensor's bounds (an index from the data is reported, never used).
  AtticGuardTensorIndicesOptions guard;
  guard.branchFree = forGpu;
  pm.addPass(createAtticGuardTensorIndices(guard));
  // Integer divisions by a divisor from the data: 0 (or MIN / -1) is
  // reported, never divided by (it would trap).
  pm.addPass(createAtticGuardIntegerDivision());
  // Loop steps from the data below 1: reported, no iteration (a loop
  // that would never end).
  pm.addPass(createAtticGuardLoopSteps());
  // Loops over layers -> one copy per layer (straight-line host code).
  if (forGpu)
    pm.addPass(createAtticUnrollLayerLoops());
  // Calls of private functions (a layer written once, called per layer)
  // inlined: kernels cannot call host functions (attic-gpu-offload), and
  // the CPU code loses the calls' buffer ownership handling.
  pm.addPass(createInlinerPass());
  // Composite slice attention -> projections and attic.attention ops.
  pm.addPass(createAtticExpandCst());
  // L1 -> L2 on tensors.
  AtticDecomposeOptions decompose;
  decompose.blockQ = blockQ;
  decompose.blockK = blockK;
  decompose.parallelScans = forGpu;
  // The key block of wide f16/bf16 heads whose lists are built here (the
  // tensor-core kernel's registers; attic-tile-block-attention narrows it
  // where there are no lists).
  if (forGpu)
    decompose.wideHeadBlockK = 64;
  // LSH attention's rounds and Nystrom's pseudo-inverse iterations
  // unrolled for the GPU (straight-line host code; attic-unroll-layer-loops
  // above has run already), a loop on the CPU.
  decompose.iterationLoops = !forGpu;
  pm.addPass(createAtticDecompose(decompose));
  // Kernelized-attention primitives -> linalg on tensors (on the GPU
  // without scans in one thread).
  AtticLowerStateOptions state;
  state.parallelScans = forGpu;
  // K-means's iterations: a loop on the CPU, unrolled for the GPU (as
  // LSH attention's rounds above).
  state.iterationLoops = !forGpu;
  pm.addPass(createAtticLowerState(state));
  // VCC ops and !attic.tree values -> upstream ops on tensors (on the GPU
  // without scans in one thread where an element-wise form exists).
  AtticExpandVccOptions vcc;
  vcc.parallelScans = forGpu;
  pm.addPass(createAtticExpandVcc(vcc));
  // linalg.softmax (linalg's aggregate ops) -> linalg.generic.
  pm.addPass(createAtticDecomposeAggregates());
  pm.addPass(createCanonicalizerPass());
  // Elementwise arith/math on whole tensors (e.g. a residual `arith.addf`
  // of two tensors) -> linalg.generic, which bufferizes.
  pm.addPass(createConvertElementwiseToLinalgPass());

  // Bufferize once, with upstream's pass; results of the entry function are
  // returned as fresh identity-layout buffers, and the caller's tensors are
  // never written (attic-readonly-arguments).
  pm.addNestedPass<func::FuncOp>(createAtticReadonlyArguments());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A loop may carry fresh tensors from one iteration to the next (a VCC
  // tree through a loop over layers: each tree_update writes new
  // components); the deallocation pipeline below frees the old ones.
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Its constant globals named and placed the same way on every run.
  pm.addPass(createAtticOrderConstantGlobals());
  // scf.forall on buffers (attic-expand-vcc's per-column tree_update on the
  // GPU) -> scf.parallel, before the deallocation pipeline, which does not
  // take scf.forall.
  pm.addPass(createForallToParallelLoopPass());
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  // bufferization.clone (a returned buffer that aliases another) -> alloc
  // and copy.
  pm.addPass(createConvertBufferizationToMemRefPass());
}

/// linalg (and tensor.generate's linalg.map) -> parallel loops, and adjacent
/// loops over one iteration space whose second reads what the first writes
/// only at its own index fused (the allocations between them moved above
/// them first): one kernel on the GPU, one OpenMP region on the CPU
/// (bench/results/cpu/loop-fusion.md). For the GPU, every reduction loop
/// goes innermost first, so that each parallel dim is a thread dim; the CPU
/// keeps its inner loops over contiguous elements.
static void addParallelLoops(OpPassManager &pm, bool forGpu) {
  if (forGpu)
    pm.addPass(attic::createAtticInterchangeReductions());
  pm.addPass(createConvertLinalgToParallelLoopsPass());
  pm.addPass(attic::createAtticHoistAllocs());
  pm.addPass(createParallelLoopFusionPass());
}

void attic::buildGpuOffloadPipeline(OpPassManager &pm, bool tensorCores,
                                    const GpuMappingOptions &options) {
  // Parallel loops: kernels.
  addParallelLoops(pm, /*forGpu=*/true);
  // Block lists -> loops (kernels); block_attention -> the tile loop, whose
  // list check is a loop nest (a kernel) and whose grid is left for
  // attic-gpu-map-tiles.
  pm.addPass(createAtticLowerBlockMask());
  AtticTileBlockAttentionOptions tile;
  if (tensorCores)
    tile.wideHeadBlockK = 64;
  pm.addPass(createAtticTileBlockAttention(tile));
  // Buffers on the device, each loop nest a gpu.launch; independent
  // launches joined into one.
  pm.addPass(createAtticGpuOffload());
  if (options.fuseLaunches) {
    AtticGpuFuseLaunchesOptions fuse;
    fuse.levels = options.fuseLevels;
    pm.addPass(createAtticGpuFuseLaunches(fuse));
  }
  // Each tile grid a kernel: tensor cores where they apply, else a thread
  // per query row.
  AtticGpuMapTilesOptions map;
  map.tensorCores = tensorCores;
  map.asyncCopies = options.kernel.asyncCopies;
  map.kvStages = options.kernel.kvStages;
  map.wgmma = options.kernel.wgmma;
  map.wgmmaOverlap = options.kernel.wgmmaOverlap;
  map.tma = options.kernel.tma;
  map.warpSpecialize = options.kernel.warpSpecialize;
  map.pingPong = options.kernel.pingPong;
  pm.addPass(createAtticGpuMapTiles(map));
}

bool attic::checkPipelineAnchor(OpPassManager &pm, StringRef pipeline) {
  std::optional<StringRef> anchor = pm.getOpName();
  if (!anchor || *anchor == ModuleOp::getOperationName())
    return true;
  // attic-fail runs on any op: a module pass here would abort the pass
  // manager ("Can't add pass restricted to 'builtin.module'").
  AtticFailOptions fail;
  fail.message =
      (pipeline + " runs on a builtin.module, not on '" + *anchor +
       "': nest it as --pass-pipeline='builtin.module(" + pipeline + ")'")
          .str();
  pm.addPass(createAtticFail(fail));
  return false;
}

void attic::buildCpuPipeline(OpPassManager &pm,
                             const CpuPipelineOptions &options) {
  if (!checkPipelineAnchor(pm, "attic-cpu-pipeline"))
    return;
  // A bad option: attic-cpu-pipeline's error, at the module (the inner
  // passes' own checks named them, at <unknown>:0; a 2026-11-30 audit).
  std::string bad = blockSizesError(options.blockQ, options.blockK);
  if (bad.empty())
    bad = vectorWidthError(options.vectorWidth);
  if (bad.empty())
    bad = registerTileError(options.registerRows, options.registerChunks);
  if (!bad.empty()) {
    AtticFailOptions fail;
    fail.message = "attic-cpu-pipeline: " + bad;
    pm.addPass(createAtticFail(fail));
    return;
  }
  AtticCheckScopeOptions scope;
  scope.pipeline = "attic-cpu-pipeline";
  // The emulated CUDA mapping takes gpu.launch as attic-cuda-pipeline
  // does (attic-gpu-emulate runs it as loops).
  scope.allowLaunches = options.emulateCuda;
  pm.addPass(createAtticCheckScope(scope));
  buildBufferizationPipeline(pm, options.blockQ, options.blockK,
                             /*forGpu=*/options.emulateCuda);
  if (options.emulateCuda) {
    // The GPU mapping of attic-cuda-pipeline, with its kernels run as CPU
    // loops (attention through the SIMT kernel).
    buildGpuOffloadPipeline(pm, /*tensorCores=*/false);
    pm.addPass(createAtticGpuCheckStreams());
    pm.addPass(createAtticGpuEmulate());
  } else {
    // Dense f32 GEMMs (projections, FFN) -> the runtime's sgemm (OpenBLAS).
    if (options.blas)
      pm.addPass(createAtticLinalgToBlas());
    // tensor.generate bufferizes to linalg.map: parallel loops (OpenMP
    // below).
    addParallelLoops(pm, /*forGpu=*/false);
  }

  if (!options.emulateCuda) {
    // L2 -> the tile loop (target-independent) -> vector micro-kernels.
    pm.addPass(createAtticLowerBlockMask());
    AtticTileBlockAttentionOptions tile;
    tile.fitBlockK = true;
    pm.addPass(createAtticTileBlockAttention(tile));
    AtticCpuMapTilesOptions map;
    map.vectorWidth = options.vectorWidth;
    map.registerRows = options.registerRows;
    map.registerChunks = options.registerChunks;
    pm.addPass(createAtticCpuMapTiles(map));
  }
  pm.addPass(createAtticApproximateMath());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // scf.parallel -> omp.parallel + omp.wsloop (static schedule, libomp's
  // default thread count: OMP_NUM_THREADS or all cores).
  // The conversion wraps each loop body in memref.alloca_scope; attic's
  // kernels allocate scratch on the heap, so canonicalization inlines those
  // scopes again (scf-to-cf would leave them with several blocks, which
  // alloca_scope does not accept).
  if (options.parallel) {
    pm.addPass(createConvertSCFToOpenMPPass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createAtticInlineAllocaScopes());
  }

  // Loops -> LLVM dialect. bf16 conversions from f64 and wide integers
  // first, rounded once (arith-expand and LLVM go through f32 to nearest).
  pm.addPass(createAtticExactBf16Conversions());
  // maximumf/minimumf with signed zeros (arith-expand's compare-and-select
  // gives maximumf(+0, -0) = -0).
  pm.addPass(createAtticExactMinMax());
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true; // bf16 <-> f32 as integer ops, no libgcc calls
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createAtticExpandStridedMetadata());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  // What MathToLLVM has no intrinsic for (cbrt, atan, atan2, tan, erfc,
  // sinh, ...; erf and exp were approximated above): libm calls, scalar
  // (vectors are unrolled).
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  // ub.poison (a function's own, or from upstream folds) -> llvm.mlir.poison.
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  if (options.parallel)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void attic::registerAtticPipelines() {
  PassPipelineRegistration<CpuPipelineOptions>(
      "attic-cpu-pipeline",
      "Lower attic ops on tensors to the LLVM dialect for the CPU",
      buildCpuPipeline);
  PassPipelineRegistration<CudaPipelineOptions>(
      "attic-cuda-pipeline",
      "Lower attic ops on tensors to host LLVM code calling the mgpu* "
      "functions plus a gpu.binary of CUDA kernels (docs/cuda.md)",
      buildCudaPipeline);
}

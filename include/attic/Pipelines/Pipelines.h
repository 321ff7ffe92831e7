//===- Pipelines.h - attic's registered pass pipelines -----------*- C++ -*-===//

#ifndef ATTIC_PIPELINES_PIPELINES_H
#define ATTIC_PIPELINES_PIPELINES_H

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
};

/// attic ops on tensors -> LLVM dialect, for the CPU (JIT or AOT):
/// attic-decompose, attic-expand-vcc, one-shot bufferization, buffer
/// deallocation, linalg (from tensor.generate) to parallel loops,
/// attic-lower-block-attention, attic-approximate-math, scf.parallel to
/// OpenMP (unless parallel=false), then upstream's conversions to LLVM. The
/// OpenMP form calls libomp's `__kmpc_*` entry points, so the code that runs
/// it must be linked with (or load) libomp.
void buildCpuPipeline(mlir::OpPassManager &pm,
                      const CpuPipelineOptions &options);

/// Registers `attic-cpu-pipeline` for textual pipelines and attic-opt.
void registerAtticPipelines();

} // namespace attic

#endif // ATTIC_PIPELINES_PIPELINES_H

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
                         llvm::cl::init(64)};
  Option<int64_t> blockK{*this, "block-k",
                         llvm::cl::desc("Key rows per block"),
                         llvm::cl::init(64)};
};

/// attic ops on tensors -> LLVM dialect, for the CPU (JIT or AOT):
/// attic-decompose, one-shot bufferization, buffer deallocation,
/// attic-lower-block-attention, attic-approximate-math, then upstream's
/// conversions to LLVM.
void buildCpuPipeline(mlir::OpPassManager &pm,
                      const CpuPipelineOptions &options);

/// Registers `attic-cpu-pipeline` for textual pipelines and attic-opt.
void registerAtticPipelines();

} // namespace attic

#endif // ATTIC_PIPELINES_PIPELINES_H

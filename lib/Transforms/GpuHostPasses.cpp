//===- GpuHostPasses.cpp - attic-fail and the CUDA build's host checks -*- C++ -*-===//
//
// Small module passes of attic-cuda-pipeline: attic-fail (a bad pipeline
// option, reported when the pipeline runs), attic-gpu-check-host (host code
// may only move data) and attic-gpu-annotate-kernels (nvvm.minctasm = 1).
// See AtticPasses.td for their contracts.
//
//===----------------------------------------------------------------------===//

#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace attic {
#define GEN_PASS_DEF_ATTICFAIL
#define GEN_PASS_DEF_ATTICGPUCHECKHOST
#define GEN_PASS_DEF_ATTICGPUANNOTATEKERNELS
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {

struct AtticFailPass : public attic::impl::AtticFailBase<AtticFailPass> {
  using AtticFailBase::AtticFailBase;
  void runOnOperation() override {
    emitError(getOperation().getLoc()) << message;
    signalPassFailure();
  }
};

/// Loads and stores of host stack buffers (the offload's error record).
static bool onHostStack(Value memref) {
  return isa_and_nonnull<memref::AllocaOp>(memref.getDefiningOp());
}

static bool allowedOnHost(Operation *op) {
  if (isa<func::FuncOp, func::ReturnOp, func::CallOp, ModuleOp>(op))
    return true;
  if (isa<gpu::GPUDialect>(op->getDialect()))
    return true;
  if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp, memref::DimOp,
          memref::CastOp, memref::GetGlobalOp, memref::GlobalOp,
          memref::ExtractAlignedPointerAsIndexOp,
          memref::ExtractStridedMetadataOp, memref::ReinterpretCastOp,
          memref::ExpandShapeOp, memref::CollapseShapeOp, memref::SubViewOp>(
          op))
    return true;
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return onHostStack(load.getMemref());
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return onHostStack(store.getMemref());
  if (isa<scf::IfOp, scf::ForOp, scf::YieldOp>(op))
    return true;
  // Constants of kernels (gpu-kernel-outlining sinks them).
  if (isa<arith::ConstantOp>(op))
    return true;
  // Index and integer arithmetic (sizes, conditions, error codes), not math
  // on data.
  if (isa_and_nonnull<arith::ArithDialect>(op->getDialect())) {
    auto scalarInt = [](Type t) { return t.isIndex() || t.isInteger(); };
    return llvm::all_of(op->getOperandTypes(), scalarInt) &&
           llvm::all_of(op->getResultTypes(), scalarInt);
  }
  return false;
}

struct AtticGpuCheckHostPass
    : public attic::impl::AtticGpuCheckHostBase<AtticGpuCheckHostPass> {
  void runOnOperation() override {
    bool failed = false;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
      // Kernels are checked by their own lowering.
      if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (!allowedOnHost(op)) {
        op->emitOpError()
            << "cannot be compiled by attic-cuda-pipeline: it would run on "
               "the CPU, and host code may only move data";
        failed = true;
        // One error per rejected region, not one per op inside it.
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    if (failed)
      signalPassFailure();
  }
};

struct AtticGpuAnnotateKernelsPass
    : public attic::impl::AtticGpuAnnotateKernelsBase<
          AtticGpuAnnotateKernelsPass> {
  void runOnOperation() override {
    auto i32 = IntegerType::get(&getContext(), 32);
    auto i64 = IntegerType::get(&getContext(), 64);
    StringRef align = LLVM::LLVMDialect::getAlignAttrName();
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return;
      if (!func->hasAttr("nvvm.minctasm"))
        func->setAttr("nvvm.minctasm", IntegerAttr::get(i32, 1));
      // Shared memory 16-byte aligned: ldmatrix reads 16-byte rows (the
      // lowering otherwise aligns a buffer to its element type only).
      for (unsigned i = 0, e = func.getNumWorkgroupAttributions(); i < e; ++i)
        if (!func.getWorkgroupAttributionAttr(i, align))
          func.setWorkgroupAttributionAttr(i, align, IntegerAttr::get(i64, 16));
    });
  }
};

} // namespace

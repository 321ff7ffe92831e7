//===- InitAttic.cpp - register everything attic provides -------*- C++ -*-===//

#include "attic/InitAttic.h"

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Pipelines/Pipelines.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

void attic::registerAtticDialect(mlir::DialectRegistry &registry) {
  registry.insert<attic::AtticDialect>();
  attic::registerBufferizableOpInterfaceExternalModels(registry);
  // attic-cuda-pipeline: the kernel dialects, the #nvvm.target attribute's
  // serialization (gpu-module-to-binary) and the translations it uses.
  registry.insert<mlir::gpu::GPUDialect, mlir::nvgpu::NVGPUDialect,
                  mlir::NVVM::NVVMDialect, mlir::LLVM::LLVMDialect>();
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
  mlir::registerGPUDialectTranslation(registry);
}

void attic::registerAtticPassesAndPipelines() {
  attic::registerAtticPasses();
  attic::registerAtticPipelines();
}

//===- Evaluator.h - the reference semantics applied to IR ------*- C++ -*-===//
//
// Evaluates an entry function op by op with attic's reference semantics
// (lib/Reference, plain C++ in double), independently of the lowering: what
// attic-run --check compares with, callable by tests and users
// (library AtticReferenceEvaluator). Only
// the ops that have reference semantics are accepted; anything else is a
// clear error rather than an unchecked run.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_REFERENCE_EVALUATOR_H
#define ATTIC_REFERENCE_EVALUATOR_H

#include "attic/Reference/Layout.h"
#include "attic/runtime/Runtime.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace attic {

/// A tensor held in double for the reference.
struct RefTensor {
  llvm::SmallVector<int64_t> shape;
  std::vector<double> data;
};

struct ReferenceResult {
  std::vector<RefTensor> results;
  double flops = 0; // multiply-adds x 2 of the attention ops evaluated
};

/// Operations and loop iterations (each point of a linalg op's iteration
/// space counts) that evaluateReference runs by default over the whole
/// function before it gives up with an error: a loop of 10^12 empty
/// iterations, which compiled code deletes, would otherwise run for hours.
constexpr uint64_t kDefaultReferenceSteps = 20'000'000;

/// The results of @entry on `inputs` by the reference semantics, or an
/// error; `maxSteps` bounds the operations and loop iterations evaluated.
mlir::FailureOr<ReferenceResult>
evaluateReference(mlir::ModuleOp module, llvm::StringRef entry,
                  llvm::ArrayRef<const attic_tensor *> inputs,
                  std::string &error,
                  uint64_t maxSteps = kDefaultReferenceSteps);

/// The reference form (lib/Reference) of a layout attribute; `operand(i)`
/// gives the data of layout operand i (document ids). Fails with `error`
/// for an attribute that is not a layout or operands that do not fit.
mlir::FailureOr<ref::Layout>
toReferenceLayout(mlir::Attribute layout,
                  llvm::function_ref<const RefTensor *(int64_t)> operand,
                  std::string &error);

/// FLOPs of the attention ops of `entry` for the given input shapes, without
/// evaluating anything (4*Nq*Nk*D per head for dense, about half for causal);
/// 0 (unknown) when an op's visible pairs depend on the data (a key mask, a
/// mask region, a layout with operands, block lists).
double countAttentionFlops(mlir::ModuleOp module, llvm::StringRef entry,
                           llvm::ArrayRef<const attic_tensor *> inputs);

} // namespace attic

#endif

//===- Modifiers.h - mask and score regions ---------------------*- C++ -*-===//
//
// The `mask` and `score` regions of attic.attention, attic.block_attention
// and attic.block_mask (FlexAttention's mask_mod and score_mod), and what
// the compiler does with them: verify them, clone them into the tile loop,
// classify a mask region per block by interval arithmetic, classify it
// element by element (the run-time classification of attic.block_mask),
// and check that their reads of the captures stay inside the captures.
//
// Region signatures (captures are the op's `captures`, in order):
//
//   mask:  (b, h, q, k : index, captures...) -> i1
//   score: (score : f32, b, h, q, k : index, captures...) -> f32
//
// See docs/patterns.md.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_DIALECT_ATTIC_MODIFIERS_H
#define ATTIC_DIALECT_ATTIC_MODIFIERS_H

#include "attic/Dialect/Attic/Layout.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Region.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace attic {

class LayoutAttrInterface;

enum class ModifierKind { Mask, Score };

/// Verifies a modifier region of `op` (an empty region is absent and
/// valid): its block arguments against the signature above, its terminator
/// (attic.yield of one i1 / f32) and its ops (arith and math on scalars,
/// tensor.extract / tensor.dim, or memref.load / memref.dim in the memref
/// form, of a capture argument). Errors name the region and the argument
/// or op. `checkOps` false: the signature and terminator only.
mlir::LogicalResult verifyModifierRegion(mlir::Operation *op,
                                         mlir::Region &region,
                                         ModifierKind kind,
                                         mlir::ValueRange captures,
                                         bool checkOps = true);

/// Verifies the function `name` (when set) of a memref-form op: it exists
/// and its body is a valid modifier region for `captures` (memrefs).
/// `onTensors`: the op is on tensors, where functions are not allowed.
mlir::LogicalResult verifyModifierFunction(mlir::Operation *op,
                                           mlir::SymbolTableCollection &symbols,
                                           mlir::FlatSymbolRefAttr name,
                                           ModifierKind kind,
                                           mlir::ValueRange captures,
                                           bool onTensors);

/// The modifier of an op: `region` when it is not empty, else the body of
/// the function `name` (memref form), else nullptr.
mlir::Region *lookupModifier(mlir::Operation *op, mlir::Region &region,
                             mlir::FlatSymbolRefAttr name);

/// The number of leading (non-capture) block arguments of a region.
inline unsigned leadingArguments(ModifierKind kind) {
  return kind == ModifierKind::Mask ? 4 : 5;
}

/// True when interval arithmetic can decide the mask region's value from
/// the ranges of b, h, q and k: the yielded i1 depends only on them and
/// constants, through integer arith ops that the interval domain models
/// (add, sub, mul, div and rem by constants, min, max, select, casts,
/// cmpi, and/or/xor of i1). Such predicates are classified per block in
/// the tile loop; others need run-time classification (attic.block_mask).
bool isIntervalClassifiable(mlir::Region &mask);

/// Whether the region reads its batch (`head`) argument: the visible pairs
/// may then differ between batches (heads).
bool modifierUsesBatch(mlir::Region &region, ModifierKind kind);
bool modifierUsesHead(mlir::Region &region, ModifierKind kind);

/// Clones the mask region at element (q, k) of `env`'s batch and head:
/// an i1. Capture reads are clamped into the capture (they cannot read out
/// of bounds; the check of buildCaptureCheck reports them).
mlir::Value buildMaskPredicate(LayoutEnv &env, mlir::Region &mask,
                               mlir::Value q, mlir::Value k);

/// Clones the score region on `score` (f32) at element (q, k): an f32.
mlir::Value buildScore(LayoutEnv &env, mlir::Region &score, mlir::Value s,
                       mlir::Value q, mlir::Value k);

/// The mask region's visibility of the non-empty block [q0, q1) x [k0, k1)
/// of `env`'s batch and head, by interval arithmetic: exact for predicates
/// that are monotone comparisons of affine terms, sound for every region
/// (a value the domain does not model makes the block partial).
BlockVisibility buildMaskBlockVisibility(LayoutEnv &env, mlir::Region &mask,
                                         mlir::Value q0, mlir::Value q1,
                                         mlir::Value k0, mlir::Value k1);

/// `layout` (a layout's block visibility) intersected with the mask
/// region's, when there is one (`mask` may be null): what the tile loop,
/// attic.block_mask and attic-report-block-classes classify with.
BlockVisibility intersectMaskVisibility(LayoutEnv &env, BlockVisibility layout,
                                        mlir::Region *mask, mlir::Value q0,
                                        mlir::Value q1, mlir::Value k0,
                                        mlir::Value k1);

/// Element-by-element visibility of [q0, q1) x [k0, k1): a loop over the
/// rows and one over the keys that evaluate `predicate` (the exact
/// classification); the rows stop once an element is visible and one is
/// not (the block is partial, whatever the rest holds).
BlockVisibility buildExhaustiveVisibility(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value q0, mlir::Value q1,
    mlir::Value k0, mlir::Value k1,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::Value q, mlir::Value k)>
        predicate);

/// Emits, at the builder's point, the checks that every capture read of
/// `regions` is inside its capture for every (b, h, q, k) in
/// [0, batches) x [0, heads) x [0, Nq) x [0, Nk): first an interval proof
/// (it folds to true for reads whose indices are affine in b, h, q and k
/// and in range, the usual case, and then nothing else is emitted), else a
/// loop nest over the domain that reports each read outside to the runtime
/// (`report`, attic_rt_report_error with ATTIC_RT_CAPTURE_INDEX). Returns
/// an i1 that is true when some capture read by the regions has an empty
/// dimension (the caller then runs nothing that would read it).
mlir::Value buildCaptureCheck(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Operation *report,
                              llvm::ArrayRef<std::pair<mlir::Region *,
                                                       ModifierKind>>
                                  regions,
                              mlir::ValueRange captures, mlir::Value batches,
                              mlir::Value heads, mlir::Value queryLen,
                              mlir::Value keyLen);

/// Whether any of the regions reads a capture.
bool readsCaptures(mlir::Region &region);

} // namespace attic

#endif // ATTIC_DIALECT_ATTIC_MODIFIERS_H

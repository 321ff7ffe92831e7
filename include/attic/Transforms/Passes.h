//===- Passes.h - attic passes ------------------------------------*- C++ -*-===//

#ifndef ATTIC_TRANSFORMS_PASSES_H
#define ATTIC_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

#include <memory>
#include <string>

namespace mlir {
class RewritePatternSet;
class RewriterBase;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace attic {
class BlockAttentionOp;
class KernelizedAttentionOp;
class LshAttentionOp;
class ClusteredAttentionOp;
class SkeinformerAttentionOp;
class InformerAttentionOp;
class LinformerAttentionOp;
class NystromAttentionOp;
class SynthesizerAttentionOp;
class LayoutAttrInterface;

#define GEN_PASS_DECL
#include "AtticPasses.h.inc"

/// The discardable attribute that marks the scf.parallel over (batch, head,
/// query block) of a tile loop: what an attic.tile.grid (the output of
/// attic-tile-block-attention) stands for, and the form the mapping
/// passes work on.
constexpr llvm::StringLiteral kTileGridAttrName = "attic.tile_grid";

/// The unit attribute of an scf.for that attic's lowering made of repeated
/// steps (LSH attention's rounds, K-means's and Nystrom attention's
/// iterations; the `iteration-loops` options of attic-decompose and
/// attic-lower-state): attic-unroll-layer-loops unrolls it for the GPU
/// pipelines as it does a loop over attic ops, although its body may hold
/// none left (a user's pipeline that ran attic-lower-state or
/// attic-decompose before attic-cuda-pipeline).
constexpr llvm::StringLiteral kRepeatedStepsAttrName = "attic.repeated_steps";

/// The unit attribute on the deallocation of attic-lower-block-mask's
/// classification buffer: the pipelines' check of their input names the
/// pass that made it, not the user, when a user's pipeline ran the pass
/// before attic-cpu-pipeline or attic-cuda-pipeline.
constexpr llvm::StringLiteral kBlockClassesAttrName = "attic.block_classes";

/// Rewrites every attic.tile.grid under `root` into the scf.parallel it
/// stands for, from 0 to its bounds in steps of 1, marked kTileGridAttrName
/// (the grid's discardable attributes go along). attic-cpu-map-tiles and
/// attic-gpu-map-tiles do this first; a pipeline that applies
/// populateGpuMapTilesPatterns itself calls it before.
void expandTileGrids(mlir::Operation *root);

/// The unit attribute of a kernel's scf.if whose branches are warp roles:
/// the warp-specialized tensor-core kernel's consumer warpgroups (then)
/// and producer warpgroup (else), which make progress independently on a
/// GPU. The GPU simulator runs them so (see GpuSimulator.h).
constexpr llvm::StringLiteral kWarpRolesAttrName = "attic.warp_roles";

/// With kWarpRolesAttrName: the then-branch runs as one role per
/// warpgroup of its threads (the consumer warpgroups of a ping-pong
/// schedule, which wait for each other at named barriers).
constexpr llvm::StringLiteral kWarpgroupRolesAttrName = "attic.warpgroup_roles";

/// attic-tile-block-attention's rewrite of one memref-form block_attention
/// into the target-independent tile loop (see TileBlockAttention.cpp).
mlir::LogicalResult tileBlockAttention(BlockAttentionOp op);

class BlockMaskOp;
/// attic-lower-block-mask's rewrite of one memref-form block_mask into the
/// loop nest that classifies its block pairs.
mlir::LogicalResult lowerBlockMask(BlockMaskOp op);

/// The block classification that the compiler decides without running
/// anything, for batch `batch` and head `head`: one string per query block
/// of `blockQ`, one character per key block of `blockK`: 'F' full, 'P'
/// partial, '.' skipped, '?' decided at run time (attic.block_mask). The
/// layout's visibility intersected with the mask region's (may be null).
/// See attic-report-block-classes.
mlir::FailureOr<std::vector<std::string>>
classifyBlocksStatically(LayoutAttrInterface layout, mlir::Region *mask,
                         int64_t queryLen, int64_t keyLen, int64_t blockQ,
                         int64_t blockK, int64_t batch, int64_t head);

/// Tile sizes that attic-decompose gives the block_attention ops it creates.
struct DecomposeOptions {
  int64_t blockQ = 128;
  int64_t blockK = 128;
  /// Top-k selections as independent elements (for GPUs).
  bool parallelScans = false;
  /// The key block of the lists built for f16/bf16 attentions wider than
  /// 64 without block sizes of their own (0: blockK).
  int64_t wideHeadBlockK = 0;
  /// Repeated steps as an scf.for: LSH attention's hash rounds, Nystrom
  /// attention's pseudo-inverse iterations (false: one copy each, for the
  /// GPU pipelines).
  bool iterationLoops = true;
};

/// attic.attention -> attic.block_attention (on tensors).
void populateDecomposePatterns(mlir::RewritePatternSet &patterns,
                               const DecomposeOptions &options = {});

/// attic-expand-vcc: rewrites the VCC ops (attic.vip_order,
/// attic.gather_rows, attic.tree_build, attic.tree_select,
/// attic.vcc_compress, attic.tree_update, attic.tree_materialize) of every
/// func.func in `root` into upstream ops on tensors, replacing each
/// !attic.tree value by its component tensors. Emits an error and fails on
/// trees it cannot replace (function arguments and results, block
/// arguments, nested regions). `parallelScans`: attic.vip_order without a
/// sequential loop per sequence (see attic-expand-vcc's parallel-scans).
mlir::LogicalResult expandVcc(mlir::Operation *root,
                              bool parallelScans = false);

/// Expands every attic.slice_attention under `root` (attic-expand-cst).
mlir::LogicalResult expandCst(mlir::Operation *root, bool poolEpilogue = true);

/// attic.kernelized_attention -> attic.feature_map, attic.state_reduce or
/// attic.state_scan and the normalization on tensors (part of
/// attic-decompose). Random features without a `projection` are drawn here
/// into a constant.
mlir::LogicalResult decomposeKernelized(mlir::RewriterBase &rewriter,
                                        KernelizedAttentionOp op);

/// attic.lsh_attention -> per round attic.lsh_hash (rotations drawn here
/// into a constant), attic.bucket_sort, attic.gather_rows and one
/// attic.block_attention with an lse destination, merged by the rounds'
/// log-sum-exps on tensors (part of attic-decompose; lib/Transforms/Lsh.cpp).
/// With `iterationLoop` the rounds are an scf.for (the IR of one round),
/// else one copy each (the GPU pipelines).
mlir::LogicalResult decomposeLsh(mlir::RewriterBase &rewriter,
                                 LshAttentionOp op, bool iterationLoop = true);

/// attic.clustered_attention -> attic.kmeans, attic.attention of the
/// centroids and attic.gather_rows (part of attic-decompose).
mlir::LogicalResult decomposeClustered(mlir::RewriterBase &rewriter,
                                       ClusteredAttentionOp op,
                                       bool parallelScans = false);

/// The sketched and low-rank ops (docs/sketches.md) -> the shared core plus
/// gathers, selections and small matrix products on tensors (part of
/// attic-decompose; lib/Transforms/Sketch.cpp).
/// With `parallelScans` (the GPU pipelines), the top-k selections of
/// Skeinformer, Informer and the improved clustered attention are ranks of
/// independent keys instead of k passes over a row in one loop.
mlir::LogicalResult decomposeSkeinformer(mlir::RewriterBase &rewriter,
                                         SkeinformerAttentionOp op,
                                         bool parallelScans = false);
mlir::LogicalResult decomposeInformer(mlir::RewriterBase &rewriter,
                                      InformerAttentionOp op,
                                      bool parallelScans = false);
mlir::LogicalResult decomposeLinformer(mlir::RewriterBase &rewriter,
                                       LinformerAttentionOp op);
/// With `iterationLoop` the pseudo-inverse's iterations are an scf.for,
/// else one copy each (the GPU pipelines).
mlir::LogicalResult decomposeNystrom(mlir::RewriterBase &rewriter,
                                     NystromAttentionOp op,
                                     bool iterationLoop = true);
mlir::LogicalResult decomposeSynthesizer(mlir::RewriterBase &rewriter,
                                         SynthesizerAttentionOp op);

/// attic-lower-state: attic.feature_map, attic.state_reduce,
/// attic.state_scan, attic.lsh_hash, attic.bucket_sort and attic.kmeans
/// under `root` -> linalg, tensor and scf on tensors. With
/// `parallelScans` (the GPU pipelines), the scans and scatters that would
/// run in one GPU thread are written as independent elements instead.
/// With `iterationLoops` attic.kmeans's iterations are an scf.for, else
/// one copy each (the GPU pipelines).
mlir::LogicalResult lowerStateOps(mlir::Operation *root,
                                  bool parallelScans = false,
                                  bool iterationLoops = true);

/// The grouping half of attic-lower-state: attic.lsh_hash,
/// attic.bucket_sort and attic.kmeans under `root` -> linalg, tensor and
/// scf on tensors.
mlir::LogicalResult lowerHashOps(mlir::Operation *root,
                                 bool parallelScans = false,
                                 bool iterationLoops = true);

/// Makes every static output size of a tensor.expand_shape or
/// memref.expand_shape under `root`, in a dimension its type leaves dynamic,
/// an operand (an arith.constant). Upstream MLIR 22's canonicalization of
/// tensor.expand_shape expects one size operand per dynamic dimension and
/// crashes on such (valid) ops; attic calls this before its first
/// canonicalization (lib/Transforms/ExpandShapes.cpp).
/// Also, a tensor.expand_shape's size operand in a dimension its type makes
/// static (`output_shape [%x, %y] ... into tensor<?x4xf32>`), which that
/// canonicalization replaces by the type's size unchecked, becomes a
/// dynamic dimension of the op and a tensor.cast to the type, marked
/// kExpandShapeSizeCast: attic-guard-tensor-indices checks the size there
/// and reports it as the expand_shape's.
void normalizeExpandShapes(mlir::Operation *root);

/// Writes each arith.index_cast / index_castui under `root` from index to
/// a narrower integer as a cast to i64 and an arith.trunci: upstream MLIR
/// 22's canonicalization folds a cast back to index after it to the
/// original value, dropping the truncation (`index -> i8 -> index` became
/// the identity). attic calls this where it calls normalizeExpandShapes
/// (lib/Transforms/NarrowingCasts.cpp).
void normalizeNarrowingIndexCasts(mlir::Operation *root);

/// The unit attribute of the tensor.cast that normalizeExpandShapes puts
/// behind a tensor.expand_shape.
inline constexpr llvm::StringLiteral kExpandShapeSizeCast =
    "attic.expand_shape_size";

/// f32 linalg.matmul on row- or column-major memrefs -> func.call of
/// `sgemm`, the declaration of the runtime's `attic_rt_sgemm` (see the
/// attic-linalg-to-blas pass for its signature).
void populateLinalgToBlasPatterns(mlir::RewritePatternSet &patterns,
                                  mlir::func::FuncOp sgemm);

#define GEN_PASS_REGISTRATION
#include "AtticPasses.h.inc"

} // namespace attic

#endif // ATTIC_TRANSFORMS_PASSES_H

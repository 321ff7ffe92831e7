//===- AtticToGPU.h - tile loops onto NVIDIA GPUs ---------------*- C++ -*-===//
//
// attic-gpu-map-tiles: each tile grid of attic-tile-block-attention becomes
// one gpu.launch, through the pattern with the highest benefit that applies
// (lib/Conversion/AtticToGPU): the tensor-core kernel (mma.sync) or a thread
// per query row (SIMT).
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_CONVERSION_ATTICTOGPU_ATTICTOGPU_H
#define ATTIC_CONVERSION_ATTICTOGPU_ATTICTOGPU_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace attic {

/// The scratch tiles of a tile grid (memref.alloc in its body) and how they
/// are indexed.
struct TileGridInfo {
  enum class TileKind {
    Matrix, ///< R x C: rows are queries, columns keys or value columns
    Rows,   ///< R: one value per query row
    Cols,   ///< C: one value per key of the block
  };
  struct Tile {
    mlir::memref::AllocOp alloc;
    TileKind kind;
  };
  mlir::scf::ParallelOp grid;
  llvm::SmallVector<Tile> tiles;
  /// R, the query rows of the grid's tiles.
  int64_t rows = 0;
};

/// Finds the scratch tiles of `grid` (an scf.parallel marked
/// attic.tile_grid); emits an error for a grid that is not the tile loop's.
mlir::FailureOr<TileGridInfo> analyzeTileGrid(mlir::scf::ParallelOp grid);

/// The launch grid of a tile grid: (B * Hq, nQB), each at least 1 (a
/// launch of an empty grid is an error). Returns an i1 that is true when
/// both are positive: the kernel's body runs under it (guardLaunchBody), so
/// the launch needs no branch on the host and joins the steps around it
/// on one stream (attic-gpu-merge-chains).
mlir::Value launchDims(mlir::ImplicitLocOpBuilder &b, mlir::scf::ParallelOp grid,
                       mlir::Value &gridX, mlir::Value &gridY);

/// Moves the ops of `launch`'s body (all but its terminator) into an
/// `scf.if cond` (uniform: every thread of every block takes the same
/// branch, so barriers inside stay legal).
void guardLaunchBody(mlir::gpu::LaunchOp launch, mlir::Value cond);

/// The patterns of attic-gpu-map-tiles: the SIMT mapping (benefit 1) and,
/// when `tensorCores`, the tensor-core kernel (benefit 2), which copies K
/// and V with cp.async when `asyncCopies`, into rings of `kvStages` (1 or
/// 2) slots, and computes Q K^T and P V with wgmma (sm_90a) when `wgmma`,
/// each block's P V during the next block's softmax when `wgmmaOverlap`,
/// and loads the rings' K and V by TMA when `tma`.
void populateGpuMapTilesPatterns(mlir::RewritePatternSet &patterns,
                                 bool tensorCores = true,
                                 bool asyncCopies = true, int64_t kvStages = 1,
                                 bool wgmma = false, bool wgmmaOverlap = false,
                                 bool tma = false);

/// The tensor-core kernel's pattern (benefit 2): K and V copied with
/// cp.async (`asyncCopies`) or loaded and stored through registers; with
/// `kvStages` = 2 (and cp.async), two K and two V blocks in dynamic shared
/// memory where they fit in 99 KiB, the next block's copies overlapping
/// the whole computation of the current one; with `wgmma` (cp.async, one
/// slot), S = Q K^T and P V as wgmma.mma_async (sm_90a) where the tiles
/// allow it; with `wgmmaOverlap` (wgmma, `kvStages` = 2) a block's P V is
/// issued at the next block's Q K^T and runs during its softmax, with a
/// third V slot; with `tma` (wgmma for both products, `kvStages` >= 2)
/// the rings' K and V blocks are TMA loads (tensor maps made on the host
/// before the launch) completing an mbarrier per K slot.
void populateTensorCoreTilesPatterns(mlir::RewritePatternSet &patterns,
                                     bool asyncCopies = true,
                                     int64_t kvStages = 1, bool wgmma = false,
                                     bool wgmmaOverlap = false,
                                     bool tma = false);

/// The rules that relate the tensor-core kernel's options (those of
/// attic-gpu-map-tiles, attic-cuda-pipeline and attic-run): "" when they
/// hold, else the message for the first one broken, each option name
/// written after `dashes` ("--" for attic-run's flags).
std::string checkTensorCoreOptions(bool asyncCopies, int64_t kvStages,
                                   bool wgmma, bool wgmmaOverlap, bool tma,
                                   llvm::StringRef dashes = "");

/// Whether the tensor-core kernel maps `grid`; if not, `why` says what it
/// does not support.
bool supportsTensorCoreTiles(mlir::scf::ParallelOp grid,
                             std::string *why = nullptr);

} // namespace attic

#endif // ATTIC_CONVERSION_ATTICTOGPU_ATTICTOGPU_H

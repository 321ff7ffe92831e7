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

#include "attic/Conversion/AtticToGPU/TensorCoreOptions.h"

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
/// attic.tile_grid) and checks that every tile operand of its tile ops is
/// one of them; fails for a grid that is not the tile loop's, with an error
/// when `report` (the tensor-core pattern, which the SIMT one follows on the
/// same grid, asks quietly: each error once).
mlir::FailureOr<TileGridInfo> analyzeTileGrid(mlir::scf::ParallelOp grid,
                                              bool report = true);

/// Erases, last first, the ops in front of `grid` that come after `before`
/// (from the start of the block when null): what a tile-grid pattern built
/// there before it failed, so that a failed pattern leaves the IR as it
/// was and the next pattern (or the pass's error) sees the grid intact.
void eraseBuiltInFront(mlir::RewriterBase &rewriter, mlir::Operation *grid,
                       mlir::Operation *before);

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
/// when `tensorCores`, the tensor-core kernel (benefit 2) with `options`.
/// They match the expanded form of a grid (attic::expandTileGrids).
void populateGpuMapTilesPatterns(mlir::RewritePatternSet &patterns,
                                 bool tensorCores = true,
                                 const TensorCoreOptions &options = {});

/// The tensor-core kernel's pattern (benefit 2). Where an option does not
/// apply to a grid (wgmma on tiles that are not multiples of 64, a ring
/// that does not fit in shared memory, TMA where a product is not a
/// wgmma), the kernel does without it.
void populateTensorCoreTilesPatterns(mlir::RewritePatternSet &patterns,
                                     const TensorCoreOptions &options = {});

/// The rules that relate the tensor-core kernel's options: "" when they
/// hold, else the message for the first one broken, each option name
/// written after `dashes` ("--" for attic-run's flags).
std::string checkTensorCoreOptions(const TensorCoreOptions &options,
                                   llvm::StringRef dashes = "");

/// Whether the tensor-core kernel maps `grid`; if not, `why` says what it
/// does not support.
bool supportsTensorCoreTiles(mlir::scf::ParallelOp grid,
                             std::string *why = nullptr);

} // namespace attic

#endif // ATTIC_CONVERSION_ATTICTOGPU_ATTICTOGPU_H

//===- AtticToCPU.h - tile loops onto the CPU -------------------*- C++ -*-===//
//
// attic-cpu-map-tiles: the tile loop of attic-tile-block-attention as
// vector micro-kernels (lib/Conversion/AtticToCPU).
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_CONVERSION_ATTICTOCPU_ATTICTOCPU_H
#define ATTIC_CONVERSION_ATTICTOCPU_ATTICTOCPU_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace attic {

/// Code generation choices of attic-cpu-map-tiles; 0 means "derive it"
/// (see resolveCpuMapTilesOptions).
struct CpuMapTilesOptions {
  /// f32 lanes per vector: 16 for AVX-512, 8 for AVX2, 4 for 128-bit units.
  int64_t vectorWidth = 0;
  /// Query rows and vectors per register tile of the micro-kernels.
  int64_t registerRows = 0;
  int64_t registerChunks = 0;
};

/// The f32 lanes of the widest vector unit of the host CPU (16, 8 or 4).
int64_t hostVectorWidth();

/// Fills the zero fields: the host's vector width, and register tiles of
/// 4x4 vectors with 32 vector registers (AVX-512), 2x4 otherwise.
CpuMapTilesOptions resolveCpuMapTilesOptions(CpuMapTilesOptions options);

/// Maps every tile grid under `root` (attic.tile.grid, or the scf.parallel
/// marked attic.tile_grid that one expands to) onto vector micro-kernels;
/// the grids become scf.parallel loops. Emits an
/// error and fails on tile ops it cannot map.
mlir::LogicalResult mapTilesToCpu(mlir::Operation *root,
                                  const CpuMapTilesOptions &options);

} // namespace attic

#endif // ATTIC_CONVERSION_ATTICTOCPU_ATTICTOCPU_H

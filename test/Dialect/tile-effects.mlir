// RUN: attic-opt %s --split-input-file --ownership-based-buffer-deallocation --buffer-deallocation-simplification --bufferization-lower-deallocations --canonicalize | FileCheck %s

// The tile ops declare their memory effects (reads of their sources and
// `ins`, writes of their `out`/`outs`, the reads of a map region's
// captures), so upstream passes that need them, such as ownership-based
// deallocation, take the tile loop: each scratch tile is freed after its
// last use. Before, that pass refused every tile op ("ops with unknown
// memory side effects are not supported").

// CHECK-LABEL: func.func @effects
// CHECK: %[[S:.*]] = memref.alloc() : memref<64x64xf32>
// CHECK: %[[M:.*]] = memref.alloc() : memref<64xf32>
// CHECK: attic.tile.qk {{.*}} into %[[S]]
// CHECK: attic.tile.reduce max %[[S]] into %[[M]]
// CHECK: attic.tile.map_rows
// CHECK: memref.load %[[M]]
// CHECK-DAG: memref.dealloc %[[S]]
// CHECK-DAG: memref.dealloc %[[M]]
// CHECK: return
func.func @effects(%q: memref<1x1x64x32xf32>, %k: memref<1x1x64x32xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %s = memref.alloc() : memref<64x64xf32>
  %m = memref.alloc() : memref<64xf32>
  attic.tile.qk %q[%c0, %c0, %c0], %k[%c0, %c0, %c0] into %s : memref<1x1x64x32xf32>, memref<1x1x64x32xf32> into memref<64x64xf32>
  attic.tile.reduce max %s into %m : memref<64x64xf32> into memref<64xf32>
  attic.tile.map_rows at(%c0) outs(%m : memref<64xf32>) {
  ^bb0(%i: index, %old: f32):
    %x = memref.load %k[%c0, %c0, %i, %c0] : memref<1x1x64x32xf32>
    %y = arith.addf %old, %x : f32
    attic.tile.yield %y : f32
  }
  %r = memref.load %m[%c0] : memref<64xf32>
  return %r : f32
}

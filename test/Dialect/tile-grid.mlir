// RUN: attic-opt %s --split-input-file | FileCheck %s
// RUN: attic-opt %s --split-input-file --mlir-print-op-generic | attic-opt --split-input-file | FileCheck %s
// RUN: attic-opt %s --split-input-file --canonicalize --cse | FileCheck %s --check-prefix=CANON

// attic.tile.grid: the parallel (batch, head, query block) loop of the tile
// ops. It prints without its terminator and parses back, also from the
// generic form.
// CHECK-LABEL: func.func @grid
// CHECK: attic.tile.grid (%[[B:.*]], %[[H:.*]], %[[QB:.*]]) in (%{{.*}}, %{{.*}}, %{{.*}}) {
// CHECK: attic.tile.qk %{{.*}}[%[[B]], %[[H]], %[[QB]]], %{{.*}}[%[[B]], %[[H]], %{{.*}}] into
// CHECK: attic.tile.store
// CHECK-NOT: attic.tile.yield
// CHECK: return
//
// The point of a grid being an op of its own: canonicalization keeps it
// whole where all its bounds are 1 (an scf.parallel would be dissolved
// into the function, and the mapping passes would no longer find it).
// CANON-LABEL: func.func @grid
// CANON: attic.tile.grid (%[[B:.*]], %[[H:.*]], %[[QB:.*]]) in (%[[ONE:.*]], %[[ONE]], %[[ONE]]) {
// CANON: attic.tile.qk %{{.*}}[%[[B]], %[[H]], %[[QB]]]
// CANON: attic.tile.store
// CANON: return
func.func @grid(%q: memref<1x1x8x4xf32>, %o: memref<1x1x8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : index
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %one) {
    %s = memref.alloc() : memref<8x8xf32>
    %acc = memref.alloc() : memref<8x4xf32>
    %r = memref.alloc() : memref<8xf32>
    attic.tile.qk %q[%b, %h, %qb], %q[%b, %h, %c0] into %s : memref<1x1x8x4xf32>, memref<1x1x8x4xf32> into memref<8x8xf32>
    attic.tile.pv %s, %q[%b, %h, %c0] rescale(%r) into %acc : memref<8x8xf32>, memref<1x1x8x4xf32>, memref<8xf32> into memref<8x4xf32>
    attic.tile.store %acc into %o[%b, %h, %qb] : memref<8x4xf32> into memref<1x1x8x4xf32>
    memref.dealloc %s : memref<8x8xf32>
    memref.dealloc %acc : memref<8x4xf32>
    memref.dealloc %r : memref<8xf32>
  }
  return
}

// -----

// Discardable attributes print after `in (...)` with `attributes`.
// CHECK-LABEL: func.func @attributes
// CHECK: attic.tile.grid (%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}}, %{{.*}}, %{{.*}}) attributes {mine.note = "kept"} {
func.func @attributes(%n: index, %o: memref<1x1x8x4xf32>) {
  %t = memref.alloc() : memref<8x4xf32>
  attic.tile.grid (%b, %h, %qb) in (%n, %n, %n) attributes {mine.note = "kept"} {
    attic.tile.store %t into %o[%b, %h, %qb] : memref<8x4xf32> into memref<1x1x8x4xf32>
  }
  return
}

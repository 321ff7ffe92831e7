// RUN: attic-opt %s --split-input-file --attic-lower-block-mask | FileCheck %s

// Document ids: per (batch, head row, query block, key block) in parallel,
// the class of the pair (0 skip, 1 partial, 2 full) from the layout's block
// visibility (id ranges of the two blocks; a pair they call partial is
// checked element by element, row by row until it is known partial, as
// the ranges are sound only) in a scratch
// buffer, for every pair (the key range is phase 2's); then per
// (batch, head row, query block) a scan of the key blocks of the layout's
// key range puts each block in the partial list, the full list or neither,
// in ascending order; counts over the capacity are reported to the runtime
// and clamped.
// CHECK-LABEL: func.func private @attic_rt_report_error(i32, i64, i64, i64)
// CHECK-LABEL: func.func @documents
// CHECK-SAME: (%[[IDS:.*]]: memref<2x100xi32>, %[[N:.*]]: memref<2x1x4xi32>, %[[I:.*]]: memref<2x1x4x4xi32>, %[[FN:.*]]: memref<2x1x4xi32>, %[[FI:.*]]: memref<2x1x4x4xi32>)
// CHECK: %[[CLASS:.*]] = memref.alloc({{.*}}) : memref<?x?x?x?xi8>
// CHECK: scf.parallel (%[[PB:.*]], %[[PH:.*]], %[[PQ:.*]], %[[PK:.*]]) =
// CHECK: memref.load %[[IDS]]
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: %[[EXACT:.*]]:2 = scf.if %{{.*}} -> (i1, i1) {
// CHECK: %[[ROWS:.*]]:3 = scf.while (%[[Q:.*]] = %{{.*}}, %[[ANY:.*]] = %false{{.*}}, %[[ALL:.*]] = %true{{.*}}) : (index, i1, i1) -> (index, i1, i1) {
// CHECK: scf.condition
// CHECK: scf.for
// CHECK: memref.load %[[IDS]]
// CHECK: memref.load %[[IDS]]
// CHECK: arith.cmpi eq
// CHECK: } else {
// CHECK: %[[C:.*]] = arith.select %[[EXACT]]#1, %c2_i8, %{{.*}} : i8
// CHECK: memref.store %[[C]], %[[CLASS]][%[[PB]], %[[PH]], %[[PQ]], %[[PK]]]
// CHECK: scf.parallel (%[[B:.*]], %[[H:.*]], %[[QB:.*]]) =
// CHECK: %[[COUNTS:.*]]:2 = scf.for %[[KB:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[NP:.*]] = %{{.*}}, %[[NF:.*]] = %{{.*}}) -> (index, index) {
// CHECK: memref.load %[[CLASS]][%[[B]], %[[H]], %[[QB]], %[[KB]]]
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[I]][%[[B]], %[[H]], %[[QB]], %[[NP]]]
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[FI]][%[[B]], %[[H]], %[[QB]], %[[NF]]]
// CHECK: scf.yield
// CHECK: scf.if
// CHECK: func.call @attic_rt_report_error
// CHECK: memref.store %{{.*}}, %[[N]][%[[B]], %[[H]], %[[QB]]]
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: memref.store %c0_i32, %[[I]][%[[B]], %[[H]], %[[QB]], %[[T]]]
// CHECK: memref.store %{{.*}}, %[[FN]][%[[B]], %[[H]], %[[QB]]]
// CHECK: scf.for %[[T2:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: memref.store %{{.*}}, %[[FI]][%[[B]], %[[H]], %[[QB]], %[[T2]]]
// CHECK: memref.dealloc %[[CLASS]] {attic.block_classes}
// CHECK-NOT: attic.block_mask
func.func @documents(%ids: memref<2x100xi32>, %n: memref<2x1x4xi32>, %i: memref<2x1x4x4xi32>, %fn: memref<2x1x4xi32>, %fi: memref<2x1x4x4xi32>) {
  %c100 = arith.constant 100 : index
  attic.block_mask layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : memref<2x100xi32>) sizes(%c100, %c100) outs(%n, %i, %fn, %fi : memref<2x1x4xi32>, memref<2x1x4x4xi32>, memref<2x1x4xi32>, memref<2x1x4x4xi32>) {block_q = 32 : i64, block_k = 32 : i64}
  return
}

// -----

// A static layout: the scan covers its key range only (causal: key blocks
// up to the query block's last row). Its block visibility is exact: no
// element-by-element check.
// CHECK-LABEL: func.func @causal
// CHECK-NOT: -> (i1, i1)
// CHECK: arith.ceildivsi
// CHECK-NOT: -> (i1, i1)
// CHECK: scf.for
func.func @causal(%n: memref<1x1x4xi32>, %i: memref<1x1x4x4xi32>, %fn: memref<1x1x4xi32>, %fi: memref<1x1x4x4xi32>) {
  %c100 = arith.constant 100 : index
  attic.block_mask layout(#attic.causal) sizes(%c100, %c100) outs(%n, %i, %fn, %fi : memref<1x1x4xi32>, memref<1x1x4x4xi32>, memref<1x1x4xi32>, memref<1x1x4x4xi32>) {block_q = 32 : i64, block_k = 32 : i64}
  return
}


// RUN: attic-opt %s --split-input-file --attic-lower-block-attention="vector-width=8" | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-lower-block-attention="vector-width=16 register-rows=2 register-chunks=2" | FileCheck %s --check-prefix=TILE
// RUN: not attic-opt %s --split-input-file --attic-lower-block-attention="vector-width=12" 2>&1 | FileCheck %s --check-prefix=BADWIDTH
// RUN: not attic-opt %s --split-input-file --attic-lower-block-attention="register-rows=17" 2>&1 | FileCheck %s --check-prefix=BADTILE

// BADWIDTH: vector-width must be 0 (the host's) or a power of two up to 64, got 12
// BADTILE: register-rows and register-chunks must be in [0, 16] (0: derived from the vector width), got 17 and 0

// Dense. Phase 1: one parallel loop over (batch, head, key block) packs K
// transposed ([D][block_k]), V ([block_k][Dv], padded to whole vectors) and
// the per-key logit term (-inf for the padding keys) into f32 panels.
// Phase 2: a parallel loop over (batch, head, query block) with register
// tiles (2 rows x 4 vectors of 8 lanes by default for 8 lanes), a vector
// online softmax, and the guarded normalization (rows without an admissible
// key give 0).
// CHECK-LABEL: func.func @dense
// CHECK-SAME: (%[[Q:.*]]: memref<1x2x100x16xf16>, %[[K:.*]]: memref<1x2x70x16xf16>, %[[V:.*]]: memref<1x2x70x8xf16>, %[[O:.*]]: memref<1x2x100x8xf16>)
// CHECK-DAG: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[KP:.*]] = memref.alloc(%[[PANELS:.*]]) {alignment = 64 : i64} : memref<?x16x64xf32>
// CHECK: %[[VP:.*]] = memref.alloc(%[[PANELS]]) {alignment = 64 : i64} : memref<?x64x8xf32>
// CHECK: %[[TP:.*]] = memref.alloc(%[[PANELS]]) {alignment = 64 : i64} : memref<?x64xf32>
// CHECK: scf.parallel (%[[B:.*]], %[[H:.*]], %[[KB:.*]]) = (%c0, %c0, %c0) to (%c1, %c2, %c2)
// CHECK: %[[VALID:.*]] = arith.cmpi slt
// CHECK: memref.load %[[K]]
// CHECK-NEXT: arith.extf {{.*}} : f16 to f32
// CHECK-NEXT: arith.select %[[VALID]], %{{.*}}, %[[ZERO]] : f32
// CHECK-NEXT: memref.store %{{.*}}, %[[KP]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<?x16x64xf32>
// CHECK: memref.load %[[V]]
// CHECK: memref.store %{{.*}}, %[[VP]]
// CHECK: arith.select %[[VALID]], %[[ZERO]], %[[NEGINF]] : f32
// CHECK: memref.store %{{.*}}, %[[TP]]
// CHECK: scf.reduce
// CHECK: scf.parallel
// CHECK: %[[QS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x16xf32>
// CHECK: %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x64xf32>
// CHECK: %[[ACC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x8xf32>
// Query block: converted to f32 and pre-scaled.
// CHECK: memref.load %[[Q]]
// CHECK-NEXT: arith.extf {{.*}} : f16 to f32
// CHECK-NEXT: arith.mulf
// Key blocks: all of them (dense). Logits: a register tile carried through
// the loop over D.
// CHECK: scf.for %[[KBI:.*]] = %c0 to %c2 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c2
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: vector.load %[[KP]][%{{.*}}, %{{.*}}, %c0] : memref<?x16x64xf32>, vector<8xf32>
// CHECK: vector.broadcast %{{.*}} : f32 to vector<8xf32>
// CHECK: vector.fma
// CHECK: vector.load %[[TP]]
// CHECK: vector.store %{{.*}}, %[[S]]
// Online softmax over the row.
// CHECK: arith.maxnumf {{.*}} fastmath<nnan> : vector<8xf32>
// CHECK: vector.reduction <maxnumf>, %{{.*}} fastmath<nnan> : vector<8xf32> into f32
// CHECK: arith.cmpf oeq, %{{.*}}, %[[NEGINF]] : f32
// CHECK: math.exp %{{.*}} : f32
// CHECK: math.exp %{{.*}} : vector<8xf32>
// CHECK: vector.reduction <add>, %{{.*}} fastmath<reassoc> : vector<8xf32> into f32
// acc = alpha * acc + P V over the keys of the block.
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args
// CHECK: vector.load %[[VP]]
// CHECK: vector.fma
// CHECK: vector.store %{{.*}}, %[[ACC]]
// Normalization: 1/l where l > 0, else 0; stored as f16.
// CHECK: arith.cmpf ogt
// CHECK: arith.divf
// CHECK: arith.select
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: memref.store %{{.*}}, %[[O]]
// CHECK: memref.dealloc %[[QS]]
// CHECK: memref.dealloc %[[KP]]
// CHECK-NOT: attic.block_attention

// TILE-LABEL: func.func @dense
// TILE: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
func.func @dense(%q: memref<1x2x100x16xf16>, %k: memref<1x2x70x16xf16>, %v: memref<1x2x70x8xf16>, %o: memref<1x2x100x8xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x100x16xf16>, memref<1x2x70x16xf16>, memref<1x2x70x8xf16>) outs(%o : memref<1x2x100x8xf16>) {layout = #attic.layout<dense>, scale = 0.25 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// Causal: query blocks in zig-zag order, key blocks stop at the query
// block's last row, and lanes past a row's diagonal get -inf.
// CHECK-LABEL: func.func @causal
// CHECK: scf.parallel
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %[[T:.*]]) =
// CHECK: %[[HALF:.*]] = arith.divui %[[T]], %c2 : index
// CHECK: %[[REM:.*]] = arith.remui %[[T]], %c2 : index
// CHECK: %[[ODD:.*]] = arith.cmpi ne, %[[REM]], %c0 : index
// CHECK: %[[MIRROR:.*]] = arith.subi %{{.*}}, %[[HALF]] : index
// CHECK: %[[QB:.*]] = arith.select %[[ODD]], %[[MIRROR]], %[[HALF]] : index
// CHECK: %[[Q0:.*]] = arith.muli %[[QB]], %c32 : index
// CHECK: %[[ROWS:.*]] = arith.minsi %{{.*}}, %c32 : index
// CHECK: %[[END:.*]] = arith.addi %[[Q0]], %[[ROWS]] : index
// CHECK: %[[KEND:.*]] = arith.minsi %[[END]], %c128 : index
// CHECK: %[[NKB:.*]] = arith.ceildivsi %[[KEND]], %c16 : index
// CHECK: scf.for %{{.*}} = %c0 to %[[NKB]] step %c1
// CHECK: arith.index_cast %{{.*}} : index to i32
// CHECK: arith.cmpi sge, %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
func.func @causal(%q: memref<1x1x128x8xf32>, %k: memref<1x1x128x8xf32>, %v: memref<1x1x128x8xf32>, %o: memref<1x1x128x8xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x128x8xf32>, memref<1x1x128x8xf32>, memref<1x1x128x8xf32>) outs(%o : memref<1x1x128x8xf32>) {layout = #attic.layout<causal>, scale = 0.25 : f32, block_q = 32 : i64, block_k = 16 : i64}
  return
}

// -----

// Bias and mask: folded into the per-key logit term while packing, -inf
// where the mask is false.
// CHECK-LABEL: func.func @bias_mask
// CHECK-SAME: %[[BIAS:[^:]*]]: memref<2x4x64xbf16>, %[[MASK:[^:]*]]: memref<2x64xi1>
// CHECK: %[[TP:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x64xf32>
// CHECK: %[[BV:.*]] = memref.load %[[BIAS]]
// CHECK: %[[BF:.*]] = arith.extf %[[BV]] : bf16 to f32
// CHECK: %[[KEEP:.*]] = memref.load %[[MASK]]
// CHECK: %[[TERM:.*]] = arith.select %[[KEEP]], %[[BF]], %{{.*}} : f32
// CHECK: %[[PADDED:.*]] = arith.select %{{.*}}, %[[TERM]], %{{.*}} : f32
// CHECK: memref.store %[[PADDED]], %[[TP]]
func.func @bias_mask(%q: memref<2x4x64x8xf32>, %k: memref<2x4x64x8xf32>, %v: memref<2x4x64x8xf32>, %b: memref<2x4x64xbf16>, %m: memref<2x64xi1>, %o: memref<2x4x64x8xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<2x4x64x8xf32>, memref<2x4x64x8xf32>, memref<2x4x64x8xf32>) bias(%b : memref<2x4x64xbf16>) mask(%m : memref<2x64xi1>) outs(%o : memref<2x4x64x8xf32>) {layout = #attic.layout<dense>, scale = 0.25 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// Dynamic Dv: V's columns are padded to whole register tiles (4 vectors of
// 8) and walked by a loop over column groups.
// CHECK-LABEL: func.func @dynamic_value_dim
// CHECK: %[[DV:.*]] = memref.dim %{{.*}}, %c3 : memref<1x1x?x?xf32>
// CHECK: %[[GROUPS:.*]] = arith.ceildivsi %[[DV]], %c32 : index
// CHECK: %[[DVPAD:.*]] = arith.muli %[[GROUPS]], %c32 : index
// CHECK: memref.alloc(%{{.*}}, %[[DVPAD]]) {alignment = 64 : i64} : memref<?x64x?xf32>
// CHECK: scf.for %{{.*}} = %c0 to %[[DVPAD]] step %c32
func.func @dynamic_value_dim(%q: memref<1x1x?x16xf32>, %k: memref<1x1x?x16xf32>, %v: memref<1x1x?x?xf32>, %o: memref<1x1x?x?xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x?x16xf32>, memref<1x1x?x16xf32>, memref<1x1x?x?xf32>) outs(%o : memref<1x1x?x?xf32>) {layout = #attic.layout<dense>, scale = 0.25 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// The tensor form is left alone: bufferize first.
// CHECK-LABEL: func.func @tensor_form
// CHECK: attic.block_attention
func.func @tensor_form(%q: tensor<1x1x8x8xf32>, %init: tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32> {
  %o = attic.block_attention ins(%q, %q, %q : tensor<1x1x8x8xf32>, tensor<1x1x8x8xf32>, tensor<1x1x8x8xf32>) outs(%init : tensor<1x1x8x8xf32>) {layout = #attic.layout<dense>, scale = 0.25 : f32, block_q = 4 : i64, block_k = 4 : i64} -> tensor<1x1x8x8xf32>
  return %o : tensor<1x1x8x8xf32>
}

// RUN: attic-opt %s --split-input-file --attic-lower-block-attention | FileCheck %s

// Dense: a parallel loop over (batch, head, query block), f32 scratch tiles,
// key blocks visited in a sequential loop, online-softmax updates, and the
// final division guarded so that rows without an admissible key give 0.
// CHECK-LABEL: func.func @dense
// CHECK-SAME: (%[[Q:.*]]: memref<1x2x100x16xf16>, %[[K:.*]]: memref<1x2x70x16xf16>, %[[V:.*]]: memref<1x2x70x8xf16>, %[[O:.*]]: memref<1x2x100x8xf16>)
// CHECK-DAG: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[C70:.*]] = arith.constant 70 : index
// CHECK: scf.parallel (%[[B:.*]], %[[H:.*]], %[[QB:.*]]) = (%c0, %c0, %c0) to (%c1, %c2, %c2)
// CHECK: %[[QS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x16xf32>
// CHECK: %[[KT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32>
// CHECK: %[[ACC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x8xf32>
// Query block: converted to f32 and pre-scaled.
// CHECK: memref.load %[[Q]]
// CHECK-NEXT: arith.extf {{.*}} : f16 to f32
// CHECK-NEXT: arith.mulf
// Key blocks: all of them (dense).
// CHECK: scf.for %[[K0:.*]] = %c0 to %[[C70]] step %c64
// Key tile transposed into KT.
// CHECK: memref.load %[[K]]
// CHECK: memref.store %{{.*}}, %[[KT]][%{{.*}}, %{{.*}}] : memref<16x64xf32>
// Logits, running max, exp and rescaling.
// CHECK: math.fma
// CHECK: arith.maxnumf
// CHECK: arith.cmpf oeq, %{{.*}}, %[[NEGINF]]
// CHECK: math.exp
// CHECK: math.exp
// CHECK: arith.addf {{.*}} fastmath<reassoc>
// CHECK: memref.load %[[V]]
// CHECK: math.fma
// Normalization: 1/l where l > 0, else 0; stored as f16.
// CHECK: arith.cmpf ogt
// CHECK: arith.divf
// CHECK: arith.select
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: memref.store %{{.*}}, %[[O]]
// CHECK: memref.dealloc %[[QS]]
// CHECK-NOT: attic.block_attention
func.func @dense(%q: memref<1x2x100x16xf16>, %k: memref<1x2x70x16xf16>, %v: memref<1x2x70x8xf16>, %o: memref<1x2x100x8xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x100x16xf16>, memref<1x2x70x16xf16>, memref<1x2x70x8xf16>) outs(%o : memref<1x2x100x8xf16>) {layout = #attic.layout<dense>, scale = 0.25 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// Causal: key blocks stop at the query block's last row, and within a block
// each row sees max(0, min(bk, q0 + i + 1 - k0)) keys.
// CHECK-LABEL: func.func @causal
// CHECK: scf.parallel
// CHECK: %[[Q0:.*]] = arith.muli %{{.*}}, %c32 : index
// CHECK: %[[ROWS:.*]] = arith.minsi %{{.*}}, %c32 : index
// CHECK: %[[END:.*]] = arith.addi %[[Q0]], %[[ROWS]] : index
// CHECK: %[[KEND:.*]] = arith.minsi %[[END]], %c128 : index
// CHECK: scf.for %[[K0:.*]] = %c0 to %[[KEND]] step %c16
// CHECK: arith.subi
// CHECK: arith.minsi
// CHECK: arith.maxsi %{{.*}}, %c0 : index
func.func @causal(%q: memref<1x1x128x8xf32>, %k: memref<1x1x128x8xf32>, %v: memref<1x1x128x8xf32>, %o: memref<1x1x128x8xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x128x8xf32>, memref<1x1x128x8xf32>, memref<1x1x128x8xf32>) outs(%o : memref<1x1x128x8xf32>) {layout = #attic.layout<causal>, scale = 0.25 : f32, block_q = 32 : i64, block_k = 16 : i64}
  return
}

// -----

// Bias and mask: one additive term per key, -inf where the mask is false.
// CHECK-LABEL: func.func @bias_mask
// CHECK-SAME: %[[BIAS:[^:]*]]: memref<2x4x64xbf16>, %[[MASK:[^:]*]]: memref<2x64xi1>
// CHECK: %[[BV:.*]] = memref.load %[[BIAS]]
// CHECK: %[[BF:.*]] = arith.extf %[[BV]] : bf16 to f32
// CHECK: %[[KEEP:.*]] = memref.load %[[MASK]]
// CHECK: arith.select %[[KEEP]], %[[BF]], %{{.*}} : f32
func.func @bias_mask(%q: memref<2x4x64x8xf32>, %k: memref<2x4x64x8xf32>, %v: memref<2x4x64x8xf32>, %b: memref<2x4x64xbf16>, %m: memref<2x64xi1>, %o: memref<2x4x64x8xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<2x4x64x8xf32>, memref<2x4x64x8xf32>, memref<2x4x64x8xf32>) bias(%b : memref<2x4x64xbf16>) mask(%m : memref<2x64xi1>) outs(%o : memref<2x4x64x8xf32>) {layout = #attic.layout<dense>, scale = 0.25 : f32, block_q = 64 : i64, block_k = 64 : i64}
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

// RUN: attic-opt %s --split-input-file --attic-tile-block-attention | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention="wide-head-block-k=16" | FileCheck %s --check-prefix=WIDE
// RUN: not attic-opt %s --split-input-file --attic-tile-block-attention="wide-head-block-k=-1" 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention="fit-block-k" | FileCheck %s --check-prefix=FIT

// BADOPT: attic-tile-block-attention: wide-head-block-k must be in [0, 1024], got -1

// Dense with a key mask (so a per-key term, which also masks the keys past
// Nk = 70 in the last block): one attic.tile.grid over (batch, head,
// query block); every key block of the range is
// full (the dense layout's visibility folds to true), so each step runs
// without a classification branch and without the element predicate. The step: the
// per-key term, S = Q K^T, base-2 logits (scale * log2(e) = 0.25 * 1.4427),
// the online-softmax update (mSafe keeps exp2(-inf) = 0), P V; then one
// reciprocal per row (0 where l == 0), the rows multiplied by it (the
// rows without a visible key are 0) and the block is stored.
// CHECK-LABEL: func.func @dense
// CHECK: attic.tile.grid (%[[B:arg[0-9]+]], %[[H:arg[0-9]+]], %[[QB:arg[0-9]+]]) in ({{.*}}) {
// CHECK: %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x64xf32>
// CHECK: %[[ACC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x8xf32>
// CHECK: attic.tile.map_rows
// CHECK: attic.tile.map at({{.*}}) outs(%[[ACC]] : memref<64x8xf32>)
// CHECK: scf.for %[[KB:.*]] = {{.*}} {
// CHECK-NOT: scf.if
// CHECK: attic.tile.map_cols
// CHECK: arith.cmpi slt
// CHECK: memref.load %{{.*}} : memref<1x70xi1>
// CHECK: attic.tile.qk %{{.*}}[%[[B]], %[[H]], %[[QB]]], %{{.*}}[%[[B]], %{{.*}}, %[[KB]]] into %[[S]]
// CHECK: attic.tile.map at({{.*}}) ins(%[[S]] : memref<64x64xf32>) cols({{.*}}) outs(%[[S]] : memref<64x64xf32>) {
// CHECK: %[[X:.*]] = arith.mulf
// CHECK-NEXT: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[MASKED:.*]] = arith.cmpf oeq, %[[T:.*]], %[[NINF]] : f32
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[X]], %[[T]]
// A finite logit plus a finite term that overflows saturates to -FLT_MAX.
// CHECK-NEXT: %[[LOW:.*]] = arith.constant -3.40282347E+38 : f32
// CHECK-NEXT: %[[BELOW:.*]] = arith.cmpf olt, %[[SUM]], %[[LOW]] : f32
// CHECK-NEXT: %[[FIN:.*]] = arith.cmpf ogt, %[[X]], %[[NINF]] : f32
// CHECK-NEXT: %[[OVF:.*]] = arith.andi %[[BELOW]], %[[FIN]] : i1
// CHECK-NEXT: %[[SAT:.*]] = arith.select %[[OVF]], %[[LOW]], %[[SUM]] : f32
// CHECK-NEXT: %[[L:.*]] = arith.select %[[MASKED]], %[[NINF]], %[[SAT]]
// CHECK-NEXT: attic.tile.yield %[[L]]
// CHECK: attic.tile.reduce max %[[S]]
// CHECK: attic.tile.map_rows
// CHECK: arith.maxnumf
// CHECK: arith.cmpf oeq, %{{.*}}, %{{.*}} : f32
// CHECK: math.exp2
// CHECK: attic.tile.map
// CHECK: math.exp2
// CHECK: attic.tile.reduce add %[[S]]
// CHECK: attic.tile.map_rows
// CHECK: attic.tile.pv %[[S]], %{{.*}}[%[[B]], %{{.*}}, %[[KB]]] rescale(%{{.*}}) into %[[ACC]]
// CHECK: }
// CHECK: attic.tile.map_rows
// CHECK: arith.cmpf oeq
// CHECK: arith.divf
// CHECK: arith.select
// CHECK: attic.tile.map at({{.*}}) ins(%[[ACC]] : memref<64x8xf32>) rows({{.*}}) outs(%[[ACC]] : memref<64x8xf32>)
// CHECK: arith.cmpf oeq
// CHECK: arith.mulf
// CHECK: arith.select
// CHECK: attic.tile.store %[[ACC]] into %{{.*}}[%[[B]], %[[H]], %[[QB]]]
// CHECK: memref.dealloc %[[S]]
// CHECK: return
// CHECK-NOT: attic.block_attention
func.func @dense(%q: memref<1x2x100x16xf16>, %k: memref<1x2x70x16xf16>, %v: memref<1x2x70x8xf16>, %m: memref<1x70xi1>, %o: memref<1x2x100x8xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x100x16xf16>, memref<1x2x70x16xf16>, memref<1x2x70x8xf16>) mask(%m : memref<1x70xi1>) outs(%o : memref<1x2x100x8xf16>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// Nk = 128, a multiple of block_k, and neither bias nor key mask: the
// per-key term is 0 for every key, so there is no column tile, and the
// scale (0.25 * log2(e)) is folded: the row maximum of the raw scores is
// scaled in the row update (exact for a positive scale), and the exponent
// is round(s * c) - m, without contract flags (a fused multiply-add would
// not be exact at the maximum). A full block has no map before the
// reduction. Overflow is told apart from masking (no term, no score
// region): the block's row maximum counts as at least -FLT_MAX, a row
// maximum of -FLT_MAX takes exponents relative to +inf, and the epilogue
// makes a row with l == 0 but m != -inf NaN.
// CHECK-LABEL: func.func @dense_folded
// CHECK: scf.for
// CHECK-NOT: attic.tile.map_cols
// CHECK: attic.tile.qk %{{.*}} into %[[S:.*]] :
// CHECK-NEXT: attic.tile.reduce max %[[S]]
// CHECK-NEXT: attic.tile.map_rows
// CHECK: %[[BLK:.*]] = arith.mulf %{{.*}}, %[[C:.*]] : f32
// CHECK-NEXT: %[[LOW:.*]] = arith.constant -3.40282347E+38 : f32
// CHECK-NEXT: %[[CL:.*]] = arith.maxnumf %[[BLK]], %[[LOW]] : f32
// CHECK-NEXT: %[[M:.*]] = arith.maxnumf %{{.*}}, %[[CL]] : f32
// CHECK-NEXT: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK-NEXT: %[[LOW2:.*]] = arith.constant -3.40282347E+38 : f32
// CHECK-NEXT: %[[NONE:.*]] = arith.cmpf ole, %[[M]], %[[LOW2]] : f32
// CHECK-NEXT: arith.select %[[NONE]], %[[INF]], %[[M]] : f32
// CHECK: attic.tile.map
// CHECK: %[[X:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[E:.*]] = arith.subf %[[X]], %{{.*}} : f32
// CHECK-NEXT: math.exp2 %[[E]] : f32
// CHECK: attic.tile.pv
// CHECK: attic.tile.map_rows at(%{{.*}}) ins(%[[L:.*]], %[[MAX:.*]] : memref<64xf32>, memref<64xf32>)
// CHECK-NEXT: ^bb0(%{{.*}}: index, %[[LV:.*]]: f32, %[[MV:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[LZERO:.*]] = arith.cmpf oeq, %[[LV]], %[[ZERO]] : f32
// CHECK-NEXT: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-NEXT: %[[NOKEY:.*]] = arith.cmpf oeq, %[[MV]], %[[NINF]] : f32
// CHECK-NEXT: %[[EMPTY:.*]] = arith.select %[[NOKEY]], %[[ZERO]], %[[NAN]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.divf
// CHECK-NEXT: arith.select %[[LZERO]], %[[EMPTY]], %[[R]] : f32
func.func @dense_folded(%q: memref<1x2x100x16xf16>, %k: memref<1x2x128x16xf16>, %v: memref<1x2x128x8xf16>, %o: memref<1x2x100x8xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x100x16xf16>, memref<1x2x128x16xf16>, memref<1x2x128x8xf16>) outs(%o : memref<1x2x100x8xf16>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// Nk = 70 without a bias or key mask: no term; the last key block (keys 64
// to 127, past Nk from 70) is classified partial (k0 + block_k <= Nk
// fails), and the partial blocks' predicate includes k < Nk (on the
// unclamped key). Full blocks run with the scale folded; the partial one
// scales in its predicate's map, where a visible logit counts as at least
// -FLT_MAX (an overflow, told apart from the masked keys' -inf).
// CHECK-LABEL: func.func @dense_tail
// CHECK-NOT: attic.tile.map_cols
// CHECK: scf.for %[[KB:.*]] = {{.*}} {
// CHECK: %[[INSIDE:.*]] = arith.cmpi sle, %{{.*}}, %c70{{.*}} : index
// CHECK-NEXT: scf.if %[[INSIDE]] {
// CHECK: attic.tile.qk
// CHECK-NEXT: attic.tile.reduce max
// CHECK: } else {
// CHECK: attic.tile.qk
// CHECK-NEXT: attic.tile.map
// CHECK-NEXT: ^bb0(%{{.*}}: index, %[[K:.*]]: index, %[[S:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[X:.*]] = arith.mulf %[[S]], %{{.*}} : f32
// CHECK: %[[VALID:.*]] = arith.cmpi slt, %[[K]], %c70{{.*}} : index
// CHECK: %[[LOW:.*]] = arith.constant -3.40282347E+38 : f32
// CHECK-NEXT: %[[BELOW:.*]] = arith.cmpf olt, %[[X]], %[[LOW]] : f32
// CHECK-NEXT: %[[CL:.*]] = arith.select %[[BELOW]], %[[LOW]], %[[X]] : f32
// CHECK-NEXT: arith.select %[[VALID]], %[[CL]], %cst{{.*}} : f32
// CHECK: attic.tile.reduce max
// CHECK-NEXT: attic.tile.map_rows
// CHECK-NOT: arith.mulf
// CHECK: arith.cmpf ole
// CHECK: attic.tile.map
// CHECK-NOT: arith.mulf
// CHECK: math.exp2
// CHECK-NOT: attic.tile.map_cols
// CHECK: return
func.func @dense_tail(%q: memref<1x2x100x16xf16>, %k: memref<1x2x70x16xf16>, %v: memref<1x2x70x8xf16>, %o: memref<1x2x100x8xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x100x16xf16>, memref<1x2x70x16xf16>, memref<1x2x70x8xf16>) outs(%o : memref<1x2x100x8xf16>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// The same shapes with a negative scale: max(c * s) is not c * max(s), so
// the scores are scaled before the reduction and nothing is folded.
// CHECK-LABEL: func.func @negative_scale
// CHECK-NOT: attic.tile.map_cols
// CHECK: attic.tile.qk
// CHECK: attic.tile.map
// CHECK: arith.mulf
// CHECK-NEXT: attic.tile.yield
// CHECK-NEXT: }
// CHECK-NEXT: attic.tile.reduce max
// CHECK: attic.tile.pv
func.func @negative_scale(%q: memref<1x2x100x16xf16>, %k: memref<1x2x128x16xf16>, %v: memref<1x2x128x8xf16>, %o: memref<1x2x100x8xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x100x16xf16>, memref<1x2x128x16xf16>, memref<1x2x128x8xf16>) outs(%o : memref<1x2x100x8xf16>) {layout = #attic.dense, scale = -0.25 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// Causal with grouped-query attention: key/value head h / (4 / 2); the
// key blocks of the causal range, each classified by the layout's IR:
// skipped (no tile op runs), full (no predicate) or partial (the
// predicate: k - q <= 0 on clamped positions, else -inf).
// CHECK-LABEL: func.func @causal_gqa
// CHECK: attic.tile.grid (%[[B:arg[0-9]+]], %[[H:arg[0-9]+]], %[[QB:arg[0-9]+]]) in
// CHECK: %[[HK:.*]] = arith.divui %[[H]], %{{.*}} : index
// CHECK: scf.for %[[KB:.*]] = %{{.*}} to %{{.*}} step
// CHECK: scf.if %[[ANY:.*]] {
// CHECK-NEXT: scf.if %[[ALL:.*]] {
// CHECK: attic.tile.qk %{{.*}}[%[[B]], %[[H]], %[[QB]]], %{{.*}}[%[[B]], %[[HK]], %[[KB]]]
// CHECK: attic.tile.map
// CHECK-NOT: arith.cmpi sle
// CHECK: attic.tile.yield
// CHECK: } else {
// CHECK: attic.tile.qk
// CHECK: attic.tile.map
// CHECK: arith.subi
// CHECK: arith.cmpi sle
// CHECK: arith.select
// CHECK: attic.tile.yield
// CHECK: attic.tile.pv %{{.*}}, %{{.*}}[%[[B]], %[[HK]], %[[KB]]]
// WIDE-LABEL: func.func @causal_gqa
// WIDE: memref.alloc() {alignment = 64 : i64} : memref<32x32xf32>
func.func @causal_gqa(%q: memref<1x4x64x16xf32>, %k: memref<1x2x64x16xf32>, %v: memref<1x2x64x8xf32>, %o: memref<1x4x64x8xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x4x64x16xf32>, memref<1x2x64x16xf32>, memref<1x2x64x8xf32>) outs(%o : memref<1x4x64x8xf32>) {layout = #attic.causal, scale = 0.25 : f32, block_q = 32 : i64, block_k = 32 : i64}
  return
}

// -----

// Heads wider than 64 take the key block of wide-head-block-k (a tiling
// choice without block lists).
// WIDE-LABEL: func.func @wide
// WIDE: memref.alloc() {alignment = 64 : i64} : memref<32x16xf32>
func.func @wide(%q: memref<1x1x64x128xf16>, %k: memref<1x1x64x128xf16>, %v: memref<1x1x64x128xf16>, %o: memref<1x1x64x128xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x64x128xf16>, memref<1x1x64x128xf16>, memref<1x1x64x128xf16>) outs(%o : memref<1x1x64x128xf16>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 32 : i64, block_k = 32 : i64}
  return
}

// -----

// fit-block-k (attic-cpu-pipeline): Nk = 70 below block_k = 128, without
// block lists, becomes the key block: one block, full (no keys past Nk, so
// no classification branch and no predicate), a 64 x 70 score tile. Without
// the option the block is 128 keys wide and partial.
// FIT-LABEL: func.func @fit_keys
// FIT: memref.alloc() {alignment = 64 : i64} : memref<64x70xf32>
// FIT: scf.for
// FIT-NOT: scf.if
// FIT: attic.tile.qk %{{.*}} into %{{.*}} : memref<1x1x100x16xf32>, memref<1x1x70x16xf32> into memref<64x70xf32>
// FIT-NEXT: attic.tile.reduce max
// FIT: return
// CHECK-LABEL: func.func @fit_keys
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<64x128xf32>
// CHECK: scf.if
func.func @fit_keys(%q: memref<1x1x100x16xf32>, %k: memref<1x1x70x16xf32>, %v: memref<1x1x70x8xf32>, %o: memref<1x1x100x8xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x100x16xf32>, memref<1x1x70x16xf32>, memref<1x1x70x8xf32>) outs(%o : memref<1x1x100x8xf32>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 64 : i64, block_k = 128 : i64}
  return
}

// -----

// fit-block-k leaves ops with block lists alone (the lists index blocks of
// block_k keys).
// FIT-LABEL: func.func @fit_keeps_lists
// FIT: memref<64x64xf32>
func.func @fit_keeps_lists(%q: memref<1x1x64x16xf32>, %k: memref<1x1x60x16xf32>, %v: memref<1x1x60x16xf32>, %n: memref<1x1x1xi32>, %i: memref<1x1x1x1xi32>, %fn: memref<1x1x1xi32>, %fi: memref<1x1x1x1xi32>, %o: memref<1x1x64x16xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x64x16xf32>, memref<1x1x60x16xf32>, memref<1x1x60x16xf32>) blocks(%n, %i, %fn, %fi : memref<1x1x1xi32>, memref<1x1x1x1xi32>, memref<1x1x1xi32>, memref<1x1x1x1xi32>) outs(%o : memref<1x1x64x16xf32>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// Block lists: a check loop in front of the grid reports shapes, counts
// and indices out of range, lists that are not strictly ascending (code 6)
// and blocks in both lists (code 7, a merge of the two) to the runtime; in
// the grid, the full list's blocks run without the predicate, the partial
// list's with it, counts clamped to [0, L] and indices outside [0, nKB)
// skipped.
// CHECK-LABEL: func.func private @attic_rt_report_error(i32, i64, i64, i64)
// CHECK-LABEL: func.func @lists
// CHECK: scf.parallel
// CHECK: memref.load %{{.*}} : memref<1x1x2xi32>
// CHECK: scf.if
// CHECK: func.call @attic_rt_report_error
// CHECK: scf.for
// CHECK: memref.load %{{.*}} : memref<1x1x2x2xi32>
// CHECK: func.call @attic_rt_report_error
// CHECK: arith.constant 6 : i32
// CHECK: scf.while
// CHECK: arith.constant 7 : i32
// CHECK: attic.tile.map_rows
// CHECK: arith.maxsi
// CHECK: scf.for %[[T:.*]] = %{{.*}} to
// CHECK: %[[KBI:.*]] = memref.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[T]]] : memref<1x1x2x2xi32>
// CHECK: %[[KB:.*]] = arith.index_cast %[[KBI]]
// CHECK: scf.if
// CHECK: attic.tile.qk %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %[[KB]]]
// CHECK: scf.for
// CHECK: attic.tile.qk
// CHECK: arith.cmpi sle
// CHECK: arith.select
// CHECK: return
func.func @lists(%q: memref<1x2x64x16xf32>, %k: memref<1x2x64x16xf32>, %v: memref<1x2x64x16xf32>, %n: memref<1x1x2xi32>, %i: memref<1x1x2x2xi32>, %fn: memref<1x1x2xi32>, %fi: memref<1x1x2x2xi32>, %o: memref<1x2x64x16xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x64x16xf32>, memref<1x2x64x16xf32>, memref<1x2x64x16xf32>) blocks(%n, %i, %fn, %fi : memref<1x1x2xi32>, memref<1x1x2x2xi32>, memref<1x1x2xi32>, memref<1x1x2x2xi32>) outs(%o : memref<1x2x64x16xf32>) {layout = #attic.causal, scale = 0.25 : f32, block_q = 32 : i64, block_k = 32 : i64}
  return
}

// -----

// Block lists with Nk = 60 (no bias, no key mask): a full-list block that
// ends past Nk runs as partial with k < Nk as its only predicate (a full
// block skips the causal layout), so a list computed for a longer sequence
// cannot expose keys past Nk.
// CHECK-LABEL: func.func @lists_tail
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: %[[INSIDE:.*]] = arith.cmpi sle, %{{.*}}, %c60 : index
// CHECK-NEXT: scf.if %[[INSIDE]] {
// CHECK: attic.tile.qk
// CHECK-NEXT: attic.tile.reduce max
// CHECK: } else {
// CHECK: attic.tile.qk
// CHECK-NEXT: attic.tile.map
// CHECK-NOT: arith.subi
// CHECK: %[[BELOW:.*]] = arith.cmpi slt, %{{.*}}, %c60 : index
// CHECK-NOT: arith.andi
// CHECK: arith.select %[[BELOW]]
// CHECK: attic.tile.pv
// CHECK: scf.for
// CHECK: attic.tile.qk
// CHECK: arith.cmpi slt, %{{.*}}, %c60 : index
// CHECK: return
func.func @lists_tail(%q: memref<1x2x64x16xf32>, %k: memref<1x2x60x16xf32>, %v: memref<1x2x60x16xf32>, %n: memref<1x1x2xi32>, %i: memref<1x1x2x2xi32>, %fn: memref<1x1x2xi32>, %fi: memref<1x1x2x2xi32>, %o: memref<1x2x64x16xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x64x16xf32>, memref<1x2x60x16xf32>, memref<1x2x60x16xf32>) blocks(%n, %i, %fn, %fi : memref<1x1x2xi32>, memref<1x1x2x2xi32>, memref<1x1x2xi32>, memref<1x1x2x2xi32>) outs(%o : memref<1x2x64x16xf32>) {layout = #attic.causal, scale = 0.25 : f32, block_q = 32 : i64, block_k = 32 : i64}
  return
}

// -----

// Tensors are left alone (bufferize first).
// CHECK-LABEL: func.func @on_tensors
// CHECK: attic.block_attention
func.func @on_tensors(%q: tensor<1x1x8x4xf32>, %o: tensor<1x1x8x4xf32>) -> tensor<1x1x8x4xf32> {
  %r = attic.block_attention ins(%q, %q, %q : tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>) outs(%o : tensor<1x1x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64} -> tensor<1x1x8x4xf32>
  return %r : tensor<1x1x8x4xf32>
}

// -----

// With an lse destination: after the normalized rows are stored, the row's
// log-sum-exp ln 2 (m + log2 l), -inf without a visible key, is stored too.
// CHECK-LABEL: func.func @lse
// CHECK: attic.tile.store %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<16x16xf32> into memref<1x2x64x16xf32>
// CHECK: attic.tile.map_rows
// CHECK: math.log2
// CHECK: arith.mulf
// CHECK: attic.tile.store %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<16xf32> into memref<1x2x64xf32>
// CHECK: return
func.func @lse(%q: memref<1x2x64x16xf32>, %o: memref<1x2x64x16xf32>, %l: memref<1x2x64xf32>) {
  attic.block_attention ins(%q, %q, %q : memref<1x2x64x16xf32>, memref<1x2x64x16xf32>, memref<1x2x64x16xf32>) outs(%o : memref<1x2x64x16xf32>, lse %l : memref<1x2x64xf32>) {layout = #attic.causal, scale = 0.25 : f32, block_q = 16 : i64, block_k = 16 : i64}
  return
}

// -----

// f32 queries are scaled by the power of two of c = scale * log2(e)
// (0.25 * 1.4427 = 0.36: 2^-2) in front of Q K^T, which then overflows f32
// only where the logits do, and the logits take c / 2^-2 = 1.4427 (both
// exact: the logits are those computed unscaled). With a score region the
// power of two is the scale's (0.125: 2^-3), and the region sees the
// product times 0.125 / 2^-3 = 1. f16 queries are not scaled (their
// products cannot overflow), nor are bf16 ones (the tensor-core kernels
// would scale them in bf16, whose subnormals are coarser).
// CHECK-LABEL: func.func @query_scale
// CHECK: attic.tile.qk %{{.*}} into %[[S:.*]] {query_scale = 2.500000e-01 : f32} : memref<1x1x64x16xf32>
// CHECK: arith.constant 1.44269502 : f32
// CHECK-LABEL: func.func @query_scale_score
// CHECK: attic.tile.qk %{{.*}} {query_scale = 1.250000e-01 : f32} : memref<1x1x64x16xf32>
// CHECK: attic.tile.map
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: arith.mulf %{{.*}}, %[[ONE]] : f32
// CHECK-LABEL: func.func @query_scale_f16
// CHECK-NOT: query_scale
// CHECK-LABEL: func.func @query_scale_bf16
// CHECK-NOT: query_scale
// CHECK: return
// CHECK-LABEL: func.func @query_scale_large
// CHECK-NOT: query_scale
// CHECK: return
func.func @query_scale(%q: memref<1x1x64x16xf32>, %k: memref<1x1x64x16xf32>, %v: memref<1x1x64x16xf32>, %o: memref<1x1x64x16xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x64x16xf32>, memref<1x1x64x16xf32>, memref<1x1x64x16xf32>) outs(%o : memref<1x1x64x16xf32>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}
func.func private @identity_score(%s: f32, %b: index, %h: index, %qi: index, %ki: index) -> f32 {
  return %s : f32
}
func.func @query_scale_score(%q: memref<1x1x64x16xf32>, %k: memref<1x1x64x16xf32>, %v: memref<1x1x64x16xf32>, %o: memref<1x1x64x16xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x64x16xf32>, memref<1x1x64x16xf32>, memref<1x1x64x16xf32>) outs(%o : memref<1x1x64x16xf32>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 64 : i64, block_k = 64 : i64, score_fn = @identity_score}
  return
}
func.func @query_scale_f16(%q: memref<1x1x64x16xf16>, %k: memref<1x1x64x16xf16>, %v: memref<1x1x64x16xf16>, %o: memref<1x1x64x16xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x64x16xf16>, memref<1x1x64x16xf16>, memref<1x1x64x16xf16>) outs(%o : memref<1x1x64x16xf16>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}
func.func @query_scale_bf16(%q: memref<1x1x64x16xbf16>, %k: memref<1x1x64x16xbf16>, %v: memref<1x1x64x16xbf16>, %o: memref<1x1x64x16xbf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x64x16xbf16>, memref<1x1x64x16xbf16>, memref<1x1x64x16xbf16>) outs(%o : memref<1x1x64x16xbf16>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}
// c = 2 * 1.4427 >= 1: no scale in front (it could overflow the query).
func.func @query_scale_large(%q: memref<1x1x64x16xf32>, %k: memref<1x1x64x16xf32>, %v: memref<1x1x64x16xf32>, %o: memref<1x1x64x16xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x64x16xf32>, memref<1x1x64x16xf32>, memref<1x1x64x16xf32>) outs(%o : memref<1x1x64x16xf32>) {layout = #attic.dense, scale = 2.0 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// Sizes the verifier could not compare (dynamic) are compared in front of
// the grid: each mismatch is reported (code 19, ATTIC_RT_OPERAND_SHAPE,
// with line * 64 + operand * 8 + dimension), Hq a positive multiple of Hkv
// too (field 63), and the grid gets no batches where one was. (Unchecked,
// Hq < Hkv divided by zero in the grid; an audit.)
// CHECK-LABEL: func.func @dynamic_sizes
// CHECK: %[[KB:.*]] = memref.dim %{{.*}}, %c0{{.*}} : memref<?x?x8x4xf32>
// CHECK: %[[BADB:.*]] = arith.cmpi ne, %[[KB]], %c1 : index
// CHECK: scf.if %[[BADB]] {
// CHECK: func.call @attic_rt_report_error(%c19_i32
// CHECK: arith.remui
// CHECK: func.call @attic_rt_report_error(%c19_i32
// CHECK: %[[NONE:.*]] = arith.select %{{.*}}, %c0{{.*}}, %c1{{.*}} : index
// CHECK: attic.tile.grid (%{{.*}}, %{{.*}}, %{{.*}}) in (%[[NONE]], %c4
// CHECK: arith.maxsi
// CHECK: arith.divui
func.func @dynamic_sizes(%q: memref<1x4x8x4xf32>, %k: memref<?x?x8x4xf32>, %o: memref<1x4x8x4xf32>) {
  attic.block_attention ins(%q, %k, %k : memref<1x4x8x4xf32>, memref<?x?x8x4xf32>, memref<?x?x8x4xf32>) outs(%o : memref<1x4x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 8 : i64, block_k = 8 : i64}
  return
}

// -----

// Static sizes: no check (the verifier compared them).
// CHECK-LABEL: func.func @static_sizes
// CHECK-NOT: attic_rt_report_error
// CHECK: attic.tile.grid
func.func @static_sizes(%q: memref<1x4x8x4xf32>, %k: memref<1x2x8x4xf32>, %o: memref<1x4x8x4xf32>) {
  attic.block_attention ins(%q, %k, %k : memref<1x4x8x4xf32>, memref<1x2x8x4xf32>, memref<1x2x8x4xf32>) outs(%o : memref<1x4x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 8 : i64, block_k = 8 : i64}
  return
}

// -----

// Region ops that are poison upstream for some operands are cloned with
// the results regions define (docs/patterns.md): a shift's amount at or
// past the bit width selects 0 (the shift itself only sees amounts in
// range), fptosi saturates and NaN gives 0.
// CHECK-LABEL: func.func @defined_region_ops
// CHECK: %[[BELOW:.*]] = arith.cmpf olt, %[[X:.*]], %cst{{.*}} : f32
// CHECK: %[[ABOVE:.*]] = arith.cmpf oge, %[[X]], %cst{{.*}} : f32
// CHECK: arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.select %[[BELOW]], %c-2147483648_i32
// CHECK: arith.select %[[ABOVE]], %c2147483647_i32
// CHECK: %[[BEYOND:.*]] = arith.cmpi uge, %[[AMOUNT:.*]], %c8_i8 : i8
// CHECK: %[[SAFE:.*]] = arith.select %[[BEYOND]], %c0_i8{{.*}}, %[[AMOUNT]] : i8
// CHECK: %[[SHIFTED:.*]] = arith.shli %{{.*}}, %[[SAFE]] : i8
// CHECK: arith.select %[[BEYOND]], %c0_i8{{.*}}, %[[SHIFTED]] : i8
func.func private @shift_mask(%b: index, %h: index, %qi: index, %ki: index) -> i1 {
  %k8 = arith.index_cast %ki : index to i8
  %one = arith.constant 1 : i8
  %x = arith.shli %one, %k8 : i8
  %z = arith.constant 0 : i8
  %p = arith.cmpi ne, %x, %z : i8
  return %p : i1
}
func.func private @fptosi_score(%s: f32, %b: index, %h: index, %qi: index, %ki: index) -> f32 {
  %i = arith.fptosi %s : f32 to i32
  %f = arith.sitofp %i : i32 to f32
  return %f : f32
}
func.func @defined_region_ops(%q: memref<1x1x8x4xf32>, %o: memref<1x1x8x4xf32>) {
  attic.block_attention ins(%q, %q, %q : memref<1x1x8x4xf32>, memref<1x1x8x4xf32>, memref<1x1x8x4xf32>) outs(%o : memref<1x1x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 8 : i64, block_k = 8 : i64, mask_fn = @shift_mask, score_fn = @fptosi_score}
  return
}

// -----

// The outlined modifier functions that nothing names any more are erased
// (one walk for the names used; a query per function was quadratic in the
// attentions), and one that something still calls is kept, as is a
// function without attic.modifier.
// CHECK-LABEL: func.func private @still_called
// CHECK-NOT: func.func private @unnamed_modifier
// CHECK-LABEL: func.func private @not_a_modifier
// CHECK-LABEL: func.func @calls_modifier
// CHECK: call @still_called
func.func private @still_called(%b: index, %h: index, %q: index, %k: index) -> i1 attributes {attic.modifier} {
  %t = arith.constant true
  return %t : i1
}
func.func private @unnamed_modifier(%b: index, %h: index, %q: index, %k: index) -> i1 attributes {attic.modifier} {
  %t = arith.constant true
  return %t : i1
}
func.func private @not_a_modifier(%b: index) -> i1 {
  %t = arith.constant true
  return %t : i1
}
func.func @calls_modifier(%i: index) -> i1 {
  %r = func.call @still_called(%i, %i, %i, %i) : (index, index, index, index) -> i1
  return %r : i1
}

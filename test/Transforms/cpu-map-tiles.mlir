// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-cpu-map-tiles="vector-width=8" | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-cpu-map-tiles="vector-width=16 register-rows=2 register-chunks=2" | FileCheck %s --check-prefix=TILE
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-cpu-map-tiles="vector-width=4 register-rows=1 register-chunks=1" | FileCheck %s --check-prefix=GROUPS
// RUN: not attic-opt %s --split-input-file --attic-cpu-map-tiles="vector-width=12" 2>&1 | FileCheck %s --check-prefix=BADWIDTH
// RUN: not attic-opt %s --split-input-file --attic-cpu-map-tiles="register-rows=17" 2>&1 | FileCheck %s --check-prefix=BADTILE

// BADWIDTH: attic-cpu-map-tiles: vector-width must be 0 (the target CPU's own) or a power of two up to 64, got 12
// BADTILE: attic-cpu-map-tiles: register-rows and register-chunks must be in [0, 16] (0: derived from the vector width), got 17 and 0

// The tile loop of a dense f16 block_attention, mapped onto the CPU:
// - K and V packed once per (batch, kv head, key block) into f32 panels in
//   front of the grid (K transposed [D][block_k], V [block_k][Dv]);
// - the grid stays an scf.parallel, its query blocks in zig-zag order;
// - the scratch tiles are heap buffers padded to whole vectors, the query
//   block is converted to f32 once per grid iteration;
// - Q K^T and P V are register tiles (2 rows x 4 vectors of 8 lanes)
//   carried through loops of FMAs;
// - the row-local ops form one loop over the rows: the maximum is a
//   select tree (x > m ? x : m) across the chunks and the lanes, the
//   regions run on vectors of 8 lanes;
// - the result rows are stored with masked vector stores.
// CHECK-LABEL: func.func @dense
// CHECK: %[[KP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x16x64xf32>
// CHECK: scf.parallel
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: memref.store %{{.*}}, %[[KP]]
// CHECK: %[[VP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x64x8xf32>
// CHECK: scf.parallel
// CHECK: memref.store %{{.*}}, %[[VP]]
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %[[QB:.*]]) =
// CHECK: arith.divui %[[QB]]
// CHECK: arith.remui %[[QB]]
// CHECK: %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x64xf32>
// CHECK: %[[ACC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x8xf32>
// CHECK: %[[QS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x16xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK: vector.load %[[KP]]
// CHECK: memref.load %[[QS]]
// CHECK: vector.fma
// CHECK: vector.store %{{.*}}, %[[S]]
// CHECK: vector.load %[[S]]
// CHECK: arith.cmpf ogt, %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: vector.shuffle
// CHECK: math.exp2 %{{.*}} : f32
// CHECK: math.exp2 %{{.*}} : vector<8xf32>
// CHECK: vector.store %{{.*}}, %[[S]]
// CHECK: vector.load %[[VP]]
// CHECK: vector.fma
// CHECK: vector.store %{{.*}}, %[[ACC]]
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: vector.maskedstore
// CHECK-NOT: attic.
// TILE-LABEL: func.func @dense
// TILE: iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// More than 4 register tiles across the key block (here 16 of one vector)
// are a loop over them, each with its loop over D: unrolled, LLVM unrolled
// every D loop, and compile time grew with the key block (one-lane
// vectors, 210 keys, 3 rows: 142 s; now 7.5 s).
// GROUPS-LABEL: func.func @dense
// GROUPS: %[[KP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x16x64xf32>
// GROUPS: scf.for %[[COL:.*]] = %{{.*}} to %c64{{.*}} step %c4{{.*}} {
// GROUPS-NEXT: arith.constant dense<0.000000e+00> : vector<4xf32>
// GROUPS: scf.for %[[D:.*]] = %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<4xf32>) {
// GROUPS-NEXT: vector.load %[[KP]][%{{.*}}, %[[D]], %[[COL]]]
// GROUPS: vector.fma
// GROUPS: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %[[COL]]] : memref<64x64xf32>, vector<4xf32>
func.func @dense(%q: memref<1x2x100x16xf16>, %k: memref<1x2x70x16xf16>, %v: memref<1x2x70x8xf16>, %o: memref<1x2x100x8xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x100x16xf16>, memref<1x2x70x16xf16>, memref<1x2x70x8xf16>) outs(%o : memref<1x2x100x8xf16>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 64 : i64, block_k = 64 : i64}
  return
}

// -----

// A partial block's predicate runs on vectors: the key index is a vector
// (k0 + chunk + lane), the query index a scalar; document ids are gathered.
// CHECK-LABEL: func.func @documents
// CHECK: arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xindex>
// CHECK: vector.gather
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : vector<8xindex>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
func.func @documents(%q: memref<1x1x64x16xf32>, %k: memref<1x1x64x16xf32>, %v: memref<1x1x64x16xf32>, %ids: memref<1x64xi32>, %o: memref<1x1x64x16xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x64x16xf32>, memref<1x1x64x16xf32>, memref<1x1x64x16xf32>) layout_operands(%ids : memref<1x64xi32>) outs(%o : memref<1x1x64x16xf32>) {layout = #attic.documents<query_ids = 0, key_ids = 0>, scale = 0.25 : f32, block_q = 32 : i64, block_k = 32 : i64}
  return
}

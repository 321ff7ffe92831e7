// RUN: attic-opt %s --split-input-file --verify-diagnostics

// The verifiers of the tile ops (dialects/AtticTileOps.td): shapes of the
// tiles and sources, region arguments and yields.

func.func @tile_map_argument_type(%s: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.map' op region argument #2 must be 'f32', got 'f16'}}
  attic.tile.map at(%i, %i) outs(%s : memref<8x8xf32>) {
  ^bb0(%q: index, %k: index, %old: f16):
    %x = arith.extf %old : f16 to f32
    attic.tile.yield %x : f32
  }
  return
}

// -----

func.func @tile_map_no_yield(%s: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.map' op region must end with attic.tile.yield}}
  attic.tile.map at(%i, %i) outs(%s : memref<8x8xf32>) {
  ^bb0(%q: index, %k: index, %old: f32):
    %x = arith.addf %old, %old : f32
  }
  return
}

// -----

func.func @tile_map_rows_yield_count(%s: memref<8xf32>, %t: memref<8xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.map_rows' op region must yield one value per output (2), got 1}}
  attic.tile.map_rows at(%i) outs(%s, %t : memref<8xf32>, memref<8xf32>) {
  ^bb0(%q: index, %a: f32, %b: f32):
    attic.tile.yield %a : f32
  }
  return
}

// -----

func.func @tile_map_no_output(%i: index) {
  // The custom form cannot spell no outputs; the generic form can.
  // expected-error @+1 {{'attic.tile.map' op needs at least one output}}
  "attic.tile.map"(%i, %i) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}> ({
  ^bb0(%q: index, %k: index):
    "attic.tile.yield"() : () -> ()
  }) : (index, index) -> ()
  return
}

// -----

func.func @tile_map_rows_no_output(%i: index) {
  // expected-error @+1 {{'attic.tile.map_rows' op needs at least one output}}
  "attic.tile.map_rows"(%i) <{operandSegmentSizes = array<i32: 1, 0, 0>}> ({
  ^bb0(%q: index):
    "attic.tile.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @tile_map_cols_no_output(%i: index) {
  // expected-error @+1 {{'attic.tile.map_cols' op needs at least one output}}
  "attic.tile.map_cols"(%i) <{operandSegmentSizes = array<i32: 1, 0, 0>}> ({
  ^bb0(%k: index):
    "attic.tile.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @tile_qk_elements(%q: memref<1x1x16x4xf16>, %k: memref<1x1x16x4xf32>, %s: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.qk' op key element type 'f32' differs from query element type 'f16'}}
  attic.tile.qk %q[%i, %i, %i], %k[%i, %i, %i] into %s : memref<1x1x16x4xf16>, memref<1x1x16x4xf32> into memref<8x8xf32>
  return
}

// -----

func.func @tile_qk_dynamic_out(%q: memref<1x1x16x4xf32>, %s: memref<?x8xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.qk' op out must be a static R x C tile, got 'memref<?x8xf32>'}}
  attic.tile.qk %q[%i, %i, %i], %q[%i, %i, %i] into %s : memref<1x1x16x4xf32>, memref<1x1x16x4xf32> into memref<?x8xf32>
  return
}

// -----

func.func @tile_pv_dynamic_probs(%p: memref<8x?xf32>, %v: memref<1x1x16x4xf32>, %r: memref<8xf32>, %acc: memref<8x4xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.pv' op probs must be a static R x C tile, got 'memref<8x?xf32>'}}
  attic.tile.pv %p, %v[%i, %i, %i] rescale(%r) into %acc : memref<8x?xf32>, memref<1x1x16x4xf32>, memref<8xf32> into memref<8x4xf32>
  return
}

// -----

func.func @tile_pv_rows(%p: memref<8x8xf32>, %v: memref<1x1x16x4xf32>, %r: memref<4xf32>, %acc: memref<8x4xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.pv' op acc ('memref<8x4xf32>') and rescale ('memref<4xf32>') must have the R = 8 rows of probs}}
  attic.tile.pv %p, %v[%i, %i, %i] rescale(%r) into %acc : memref<8x8xf32>, memref<1x1x16x4xf32>, memref<4xf32> into memref<8x4xf32>
  return
}

// -----

func.func @tile_reduce_rows(%t: memref<8x8xf32>, %o: memref<4xf32>) {
  // expected-error @+1 {{'attic.tile.reduce' op out has 4 rows but input has 8}}
  attic.tile.reduce max %t into %o : memref<8x8xf32> into memref<4xf32>
  return
}

// -----

func.func @tile_store_2d_into_3d(%t: memref<8x8xf32>, %o: memref<1x2x64xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.store' op a 2-D tile goes into a [B,H,Nq,Dv] out, got 'memref<1x2x64xf32>'}}
  attic.tile.store %t into %o[%i, %i, %i] : memref<8x8xf32> into memref<1x2x64xf32>
  return
}

// -----

func.func @tile_store_columns(%t: memref<8x8xf32>, %o: memref<1x2x64x16xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.store' op tile has 8 columns but out has Dv = 16}}
  attic.tile.store %t into %o[%i, %i, %i] : memref<8x8xf32> into memref<1x2x64x16xf32>
  return
}

// -----

func.func @tile_store_dynamic_rows(%t: memref<?x8xf32>, %o: memref<1x2x64x8xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.store' op tile must have a static number of rows, got 'memref<?x8xf32>'}}
  attic.tile.store %t into %o[%i, %i, %i] : memref<?x8xf32> into memref<1x2x64x8xf32>
  return
}

// -----

func.func @tile_pool_dynamic_rows(%t: memref<?x16xf32>, %o: memref<2x3x40x16xf32>, %w: memref<2x40xf32>, %p: memref<2x3x3x16xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.pool' op tile must have a static number of rows, got 'memref<?x16xf32>'}}
  attic.tile.pool %t stored(%o) weights(%w) into %p[%i, %i, %i] : memref<?x16xf32>, memref<2x3x40x16xf32>, memref<2x40xf32> into memref<2x3x3x16xf32>
  return
}

// -----

func.func @grid_two_ivs(%n: index) {
  // expected-error @+1 {{expected 3 induction variables (batch, head, query block), got 2}}
  attic.tile.grid (%b, %h) in (%n, %n) {
  }
  return
}

// -----

func.func @grid_two_bounds(%n: index) {
  // expected-error @+1 {{expected 3 bounds (batches, heads, query blocks), got 2}}
  attic.tile.grid (%b, %h, %qb) in (%n, %n) {
  }
  return
}

// -----

func.func @grid_bound_type(%n: index) {
  // expected-note @+1 {{prior use here}}
  %m = arith.constant 0 : i32
  // expected-error @+1 {{use of value '%m' expects different type than prior uses: 'index' vs 'i32'}}
  attic.tile.grid (%b, %h, %qb) in (%n, %n, %m) {
  }
  return
}

// -----

func.func @grid_nested(%n: index) {
  attic.tile.grid (%b, %h, %qb) in (%n, %n, %n) {
    // expected-error @+1 {{'attic.tile.grid' op is nested in another tile grid}}
    attic.tile.grid (%b2, %h2, %qb2) in (%n, %n, %n) {
    }
  }
  return
}

// -----

func.func @grid_yield_values(%n: index, %x: f32) {
  // expected-error @+1 {{'attic.tile.grid' op body must end with an attic.tile.yield of no values}}
  "attic.tile.grid"(%n, %n, %n) ({
  ^bb0(%b: index, %h: index, %qb: index):
    attic.tile.yield %x : f32
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @grid_block_args(%n: index) {
  // expected-error @+1 {{'attic.tile.grid' op body must take 3 index arguments (batch, head, query block), got 2}}
  "attic.tile.grid"(%n, %n, %n) ({
  ^bb0(%b: index, %h: index):
    attic.tile.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @tile_qk_query_scale(%q: memref<1x1x16x4xf32>, %s: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.qk' op query_scale must be a power of two 2^e with -126 <= e <= 0, got 3.000000e-01}}
  attic.tile.qk %q[%i, %i, %i], %q[%i, %i, %i] into %s {query_scale = 0.3 : f32} : memref<1x1x16x4xf32>, memref<1x1x16x4xf32> into memref<8x8xf32>
  return
}

// -----

func.func @tile_qk_query_scale_big(%q: memref<1x1x16x4xf32>, %s: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{'attic.tile.qk' op query_scale must be a power of two 2^e with -126 <= e <= 0, got 2.000000e+00}}
  attic.tile.qk %q[%i, %i, %i], %q[%i, %i, %i] into %s {query_scale = 2.0 : f32} : memref<1x1x16x4xf32>, memref<1x1x16x4xf32> into memref<8x8xf32>
  return
}

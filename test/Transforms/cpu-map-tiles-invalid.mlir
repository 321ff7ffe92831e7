// RUN: attic-opt %s --split-input-file --attic-cpu-map-tiles --verify-diagnostics

// Hand-written tile grids (attic.tile.grid, as attic-tile-block-attention
// makes them; the first in the form a grid expands to, an scf.parallel
// marked attic.tile_grid, which can have the wrong number of loops) that
// attic-cpu-map-tiles cannot map: an error naming the op, never a crash.

func.func @one_loop_grid(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{is a tile grid with 1 loops}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %x = memref.load %a[%i] : memref<4xf32>
    memref.store %x, %a[%i] : memref<4xf32>
    scf.reduce
  } {attic.tile_grid}
  return
}

// -----

func.func @map_region_op(%q: memref<1x1x8x4xf32>, %f: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    %s = memref.alloc() : memref<4x4xf32>
    attic.tile.qk %q[%b, %h, %qb], %q[%b, %h, %c0] into %s : memref<1x1x8x4xf32>, memref<1x1x8x4xf32> into memref<4x4xf32>
    attic.tile.map at(%qb, %c0) outs(%s : memref<4x4xf32>) {
    ^bb0(%i: index, %j: index, %x: f32):
      // expected-error @+1 {{'scf.if' op in a tile map region cannot be vectorized by attic-cpu-map-tiles (ops with regions are not supported there)}}
      %y = scf.if %f -> f32 {
        scf.yield %x : f32
      } else {
        scf.yield %x : f32
      }
      attic.tile.yield %y : f32
    }
    memref.dealloc %s : memref<4x4xf32>
  }
  return
}

// -----

func.func @map_not_elementwise(%q: memref<1x1x8x4xf32>, %a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    %s = memref.alloc() : memref<4x4xf32>
    attic.tile.qk %q[%b, %h, %qb], %q[%b, %h, %c0] into %s : memref<1x1x8x4xf32>, memref<1x1x8x4xf32> into memref<4x4xf32>
    attic.tile.map at(%qb, %c0) outs(%s : memref<4x4xf32>) {
    ^bb0(%i: index, %j: index, %x: f32):
      // expected-error @+1 {{'memref.store' op in a tile map region is not elementwise, so attic-cpu-map-tiles cannot vectorize it along the columns}}
      memref.store %x, %a[%c0] : memref<4xf32>
      attic.tile.yield %x : f32
    }
    memref.dealloc %s : memref<4x4xf32>
  }
  return
}

// -----

func.func @source_inside_grid(%q: memref<1x1x8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    %s = memref.alloc() : memref<4x4xf32>
    %k = memref.alloc() : memref<1x1x8x4xf32>
    // expected-error @+1 {{'attic.tile.qk' op reads a key/value source defined inside the tile grid; attic-cpu-map-tiles packs sources in front of the grid}}
    attic.tile.qk %q[%b, %h, %qb], %k[%b, %h, %c0] into %s : memref<1x1x8x4xf32>, memref<1x1x8x4xf32> into memref<4x4xf32>
    memref.dealloc %s : memref<4x4xf32>
    memref.dealloc %k : memref<1x1x8x4xf32>
  }
  return
}

// -----

func.func @pv_probs_not_scratch(%q: memref<1x1x8x4xf32>, %p: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    %acc = memref.alloc() : memref<4x4xf32>
    %r = memref.alloc() : memref<4xf32>
    // expected-error @+1 {{'attic.tile.pv' op uses a tile that is not a scratch tile of its grid}}
    attic.tile.pv %p, %q[%b, %h, %c0] rescale(%r) into %acc : memref<4x4xf32>, memref<1x1x8x4xf32>, memref<4xf32> into memref<4x4xf32>
    memref.dealloc %acc : memref<4x4xf32>
    memref.dealloc %r : memref<4xf32>
  }
  return
}

// -----

func.func @pool_not_scratch(%q: memref<1x1x8x4xf32>, %t: memref<4x4xf32>, %w: memref<1x8xf32>, %p: memref<1x1x2x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    %s = memref.alloc() : memref<4x4xf32>
    attic.tile.qk %q[%b, %h, %qb], %q[%b, %h, %c0] into %s : memref<1x1x8x4xf32>, memref<1x1x8x4xf32> into memref<4x4xf32>
    // expected-error @+1 {{'attic.tile.pool' op uses a tile that is not a scratch tile of its grid}}
    attic.tile.pool %t stored(%q) weights(%w) into %p[%b, %h, %qb] : memref<4x4xf32>, memref<1x1x8x4xf32>, memref<1x8xf32> into memref<1x1x2x4xf32>
    memref.dealloc %s : memref<4x4xf32>
  }
  return
}

// -----

func.func @map_cols_not_scratch(%q: memref<1x1x8x4xf32>, %o: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    %s = memref.alloc() : memref<4x4xf32>
    attic.tile.qk %q[%b, %h, %qb], %q[%b, %h, %c0] into %s : memref<1x1x8x4xf32>, memref<1x1x8x4xf32> into memref<4x4xf32>
    // expected-error @+1 {{'attic.tile.map_cols' op uses a tile that is not a scratch tile of its grid}}
    attic.tile.map_cols at(%c0) outs(%o : memref<4xf32>) {
    ^bb0(%k: index, %x: f32):
      attic.tile.yield %x : f32
    }
    memref.dealloc %s : memref<4x4xf32>
  }
  return
}

// -----

func.func @reduce_writes_not_scratch(%q: memref<1x1x8x4xf32>, %o: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    %s = memref.alloc() : memref<4x4xf32>
    attic.tile.qk %q[%b, %h, %qb], %q[%b, %h, %c0] into %s : memref<1x1x8x4xf32>, memref<1x1x8x4xf32> into memref<4x4xf32>
    // expected-error @+1 {{'attic.tile.reduce' op writes a tile that is not a scratch tile of its grid}}
    attic.tile.reduce max %s into %o : memref<4x4xf32> into memref<4xf32>
    memref.dealloc %s : memref<4x4xf32>
  }
  return
}

// -----

func.func @reduce_reads_not_scratch(%q: memref<1x1x8x4xf32>, %t: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    %s = memref.alloc() : memref<4x4xf32>
    %r = memref.alloc() : memref<4xf32>
    attic.tile.qk %q[%b, %h, %qb], %q[%b, %h, %c0] into %s : memref<1x1x8x4xf32>, memref<1x1x8x4xf32> into memref<4x4xf32>
    // expected-error @+1 {{'attic.tile.reduce' op reads a tile that is not a scratch tile of its grid}}
    attic.tile.reduce max %t into %r : memref<4x4xf32> into memref<4xf32>
    memref.dealloc %s : memref<4x4xf32>
    memref.dealloc %r : memref<4xf32>
  }
  return
}

// -----

func.func @scratch_read_by_load(%q: memref<1x1x8x4xf32>, %a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    %s = memref.alloc() : memref<4x4xf32>
    attic.tile.qk %q[%b, %h, %qb], %q[%b, %h, %c0] into %s : memref<1x1x8x4xf32>, memref<1x1x8x4xf32> into memref<4x4xf32>
    // expected-error @+1 {{'memref.load' op uses a scratch tile of the tile grid; attic-cpu-map-tiles supports only attic.tile ops on scratch tiles}}
    %x = memref.load %s[%c0, %c0] : memref<4x4xf32>
    memref.store %x, %a[%c0] : memref<4xf32>
    memref.dealloc %s : memref<4x4xf32>
  }
  return
}

// -----

func.func @qk_not_scratch(%q: memref<1x1x8x4xf32>, %out: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    %s = memref.alloc() : memref<4x4xf32>
    // expected-error @+1 {{'attic.tile.qk' op writes a tile that is not a scratch tile of its grid}}
    attic.tile.qk %q[%b, %h, %qb], %q[%b, %h, %c0] into %out : memref<1x1x8x4xf32>, memref<1x1x8x4xf32> into memref<4x4xf32>
    memref.dealloc %s : memref<4x4xf32>
  }
  return
}

// -----

func.func @reduce_dynamic_width(%q: memref<1x1x8x4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    %s = memref.alloc() : memref<4x4xf32>
    %d = memref.alloc(%n) : memref<4x?xf32>
    %r = memref.alloc() : memref<4xf32>
    attic.tile.qk %q[%b, %h, %qb], %q[%b, %h, %c0] into %s : memref<1x1x8x4xf32>, memref<1x1x8x4xf32> into memref<4x4xf32>
    // expected-error @+1 {{'attic.tile.reduce' op reduces a tile of dynamic width; attic-cpu-map-tiles needs static reduced tiles (the key block)}}
    attic.tile.reduce max %d into %r : memref<4x?xf32> into memref<4xf32>
    memref.dealloc %s : memref<4x4xf32>
    memref.dealloc %d : memref<4x?xf32>
    memref.dealloc %r : memref<4xf32>
  }
  return
}

// -----

func.func @tile_op_outside_grid(%t: memref<4x4xf32>, %o: memref<4xf32>) {
  // expected-error @+1 {{'attic.tile.reduce' op is outside a tile grid (attic.tile.grid); attic-cpu-map-tiles maps tile ops of grids only}}
  attic.tile.reduce max %t into %o : memref<4x4xf32> into memref<4xf32>
  return
}

// -----

// An attention not yet lowered to a tile grid (it was left as it was, with
// no error).
func.func @not_tiled(%q: tensor<1x1x64x16xf32>) -> tensor<1x1x64x16xf32> {
  // expected-error @+1 {{'attic.attention' op is not lowered to a tile grid; attic-cpu-map-tiles runs on buffers after attic-tile-block-attention (attic-cpu-pipeline runs every step)}}
  %o = attic.attention %q, %q, %q causal : tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32> -> tensor<1x1x64x16xf32>
  return %o : tensor<1x1x64x16xf32>
}

// RUN: attic-opt %s --split-input-file --attic-gpu-map-tiles="tensor-cores=false" --verify-diagnostics
// RUN: attic-opt %s --split-input-file --attic-gpu-map-tiles --verify-diagnostics

// Hand-written tile grids that attic-gpu-map-tiles cannot map: each reason
// once, then the grid (a pattern that fails leaves the grid as it was, and
// its tile ops are not reported as outside a grid). With tensor cores the
// tensor-core pattern declines these grids quietly and the SIMT pattern
// reports the same errors.

func.func @one_loop_grid(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  // expected-error @+2 {{'attic.tile.grid' op is a tile grid with 1 loops; (batch, head, query block) expected}}
  // expected-error @+1 {{'attic.tile.grid' op is a tile grid that attic-gpu-map-tiles could not map onto the GPU (the errors above say why)}}
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    memref.store %f, %a[%i] : memref<4xf32>
    scf.reduce
  } {attic.tile_grid}
  return
}

// -----

func.func @no_scratch_tile(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  // expected-error @+2 {{'attic.tile.grid' op is a tile grid without an R x C scratch tile}}
  // expected-error @+1 {{'attic.tile.grid' op is a tile grid that attic-gpu-map-tiles could not map onto the GPU (the errors above say why)}}
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    memref.store %f, %a[%qb] : memref<4xf32>
  }
  return
}

// -----

func.func @scratch_read_by_load(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'attic.tile.grid' op is a tile grid that attic-gpu-map-tiles could not map onto the GPU (the errors above say why)}}
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    %s = memref.alloc() : memref<4x4xf32>
    // expected-error @+1 {{'memref.load' op uses a scratch tile of a tile grid; only attic.tile ops may}}
    %x = memref.load %s[%c0, %c0] : memref<4x4xf32>
    memref.store %x, %a[%c0] : memref<4xf32>
    memref.dealloc %s : memref<4x4xf32>
  }
  return
}

// -----

func.func @tile_op_outside_grid(%t: memref<4x4xf32>, %o: memref<4xf32>) {
  // expected-error @+1 {{'attic.tile.reduce' op is outside a tile grid (attic.tile.grid); attic-gpu-map-tiles maps tile ops of grids only}}
  attic.tile.reduce max %t into %o : memref<4x4xf32> into memref<4xf32>
  return
}

// -----

func.func @reduce_dynamic_width(%q: memref<1x1x8x4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'attic.tile.grid' op is a tile grid that attic-gpu-map-tiles could not map onto the GPU (the errors above say why)}}
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    %s = memref.alloc() : memref<4x4xf32>
    %d = memref.alloc(%n) : memref<4x?xf32>
    %r = memref.alloc() : memref<4xf32>
    attic.tile.qk %q[%b, %h, %qb], %q[%b, %h, %c0] into %s : memref<1x1x8x4xf32>, memref<1x1x8x4xf32> into memref<4x4xf32>
    // expected-error @+1 {{'attic.tile.reduce' op reduces a tile of dynamic width (SIMT)}}
    attic.tile.reduce max %d into %r : memref<4x?xf32> into memref<4xf32>
    memref.dealloc %s : memref<4x4xf32>
    memref.dealloc %d : memref<4x?xf32>
    memref.dealloc %r : memref<4xf32>
  }
  return
}

// -----

func.func @map_mixes(%q: memref<1x1x8x4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'attic.tile.grid' op is a tile grid that attic-gpu-map-tiles could not map onto the GPU (the errors above say why)}}
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    %s = memref.alloc() : memref<4x4xf32>
    %d = memref.alloc(%n) : memref<4x?xf32>
    attic.tile.qk %q[%b, %h, %qb], %q[%b, %h, %c0] into %s : memref<1x1x8x4xf32>, memref<1x1x8x4xf32> into memref<4x4xf32>
    // expected-error @+1 {{'attic.tile.map' op mixes chunked and whole tiles (SIMT)}}
    attic.tile.map at(%qb, %c0) ins(%s : memref<4x4xf32>) outs(%d : memref<4x?xf32>) {
    ^bb0(%i: index, %j: index, %x: f32, %y: f32):
      attic.tile.yield %x : f32
    }
    memref.dealloc %s : memref<4x4xf32>
    memref.dealloc %d : memref<4x?xf32>
  }
  return
}

// -----

func.func @no_simt_mapping(%q: memref<1x1x8x4xf32>, %o: memref<1x1x8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'attic.tile.grid' op is a tile grid that attic-gpu-map-tiles could not map onto the GPU (the errors above say why)}}
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    %s = memref.alloc() : memref<4x4xf32>
    attic.tile.qk %q[%b, %h, %qb], %q[%b, %h, %c0] into %s : memref<1x1x8x4xf32>, memref<1x1x8x4xf32> into memref<4x4xf32>
    // expected-error @+1 {{'attic.block_attention' op has no SIMT mapping}}
    attic.block_attention ins(%q, %q, %q : memref<1x1x8x4xf32>, memref<1x1x8x4xf32>, memref<1x1x8x4xf32>) outs(%o : memref<1x1x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64}
    memref.dealloc %s : memref<4x4xf32>
  }
  return
}

// -----

func.func @not_scratch(%q: memref<1x1x8x4xf32>, %out: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'attic.tile.grid' op is a tile grid that attic-gpu-map-tiles could not map onto the GPU (the errors above say why)}}
  attic.tile.grid (%b, %h, %qb) in (%c1, %c1, %c1) {
    %s = memref.alloc() : memref<4x4xf32>
    // expected-error @+1 {{'attic.tile.qk' op operand #8 is not a scratch tile of its grid (a memref.alloc at the top of the grid's body)}}
    attic.tile.qk %q[%b, %h, %qb], %q[%b, %h, %c0] into %out : memref<1x1x8x4xf32>, memref<1x1x8x4xf32> into memref<4x4xf32>
    memref.dealloc %s : memref<4x4xf32>
  }
  return
}

// -----

// An attic op that is not a tile op was called "outside a tile grid" (a
// 2026-11-30 audit): it is not lowered to one yet.
func.func @untiled_attention(%q: tensor<1x1x64x16xf32>) -> tensor<1x1x64x16xf32> {
  // expected-error @+1 {{'attic.attention' op is not lowered to a tile grid; attic-gpu-map-tiles runs on device buffers after attic-tile-block-attention and attic-gpu-offload (attic-cuda-pipeline runs every step)}}
  %o = attic.attention %q, %q, %q causal : tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32> -> tensor<1x1x64x16xf32>
  return %o : tensor<1x1x64x16xf32>
}

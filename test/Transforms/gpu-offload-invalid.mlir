// RUN: attic-opt %s --split-input-file --attic-gpu-offload --verify-diagnostics
// RUN: not attic-opt %s --split-input-file --attic-gpu-offload="block-size=0" 2>&1 | FileCheck %s --check-prefix=OPTION

// What attic-gpu-offload refuses to move to the device, and its option.
// OPTION: error: attic-gpu-offload: block-size must be in [1, 1024], got 0

// expected-error @+1 {{'func.func' op has several blocks; attic-gpu-offload runs before the lowering of scf to cf}}
func.func @several_blocks(%a: memref<4xf32>) {
  cf.br ^bb1
^bb1:
  return
}

// -----

// A tile grid and its buffers in a branch: one error on the branch op.
func.func @grid_in_branch(%a: memref<4xf32>, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'scf.if' op cannot be offloaded by attic-gpu-offload: an attention's tile grid in a branch (device memory is allocated and an attention launched only at the top level of the function); compute the branches' results at the top level and choose with arith.select, or compile for the CPU}}
  scf.if %flag {
    %buf = memref.alloc() : memref<4xf32>
    // expected-note @+1 {{the first one is here}}
    scf.parallel (%j) = (%c0) to (%c2) step (%c1) {
      scf.reduce
    } {attic.tile_grid}
  }
  return
}

// -----

// An allocation in a branch of scf.index_switch.
func.func @alloc_in_switch(%a: memref<4xf32>, %i: index) {
  // expected-error @+1 {{'scf.index_switch' op cannot be offloaded by attic-gpu-offload: an allocation in a branch}}
  scf.index_switch %i
  case 1 {
    // expected-note @+1 {{the first one is here}}
    %buf = memref.alloc() : memref<4xf32>
    scf.yield
  }
  default {
  }
  return
}

// -----

func.func @nested_tile_grid_op(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    // expected-error @+1 {{'attic.tile.grid' op cannot be offloaded by attic-gpu-offload: a tile grid must be at the top level of the function}}
    attic.tile.grid (%b, %h, %qb) in (%c2, %c2, %c2) {
    }
  }
  return
}

// -----

func.func @nested_tile_grid(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    // expected-error @+1 {{'attic.tile.grid' op cannot be offloaded by attic-gpu-offload: a tile grid must be at the top level of the function}}
    scf.parallel (%j) = (%c0) to (%c2) step (%c1) {
      scf.reduce
    } {attic.tile_grid}
  }
  return
}

// -----

func.func @stack_buffer(%a: memref<4xf32>) {
  // expected-error @+1 {{'memref.alloca' op cannot be offloaded by attic-gpu-offload: a stack buffer on the host cannot be passed to kernels}}
  %s = memref.alloca() : memref<4xf32>
  memref.copy %a, %s : memref<4xf32> to memref<4xf32>
  return
}

// -----

memref.global "private" constant @table : memref<4xf32> = dense<1.0>

func.func @global_in_loop(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @+1 {{'memref.get_global' op cannot be offloaded by attic-gpu-offload: a global in host memory must be read at the top level of the function (it is copied to the device there)}}
    %g = memref.get_global @table : memref<4xf32>
    %x = memref.load %g[%i] : memref<4xf32>
    memref.store %x, %a[%i] : memref<4xf32>
  }
  return
}

// -----

func.func @alloc_in_loop(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @+1 {{'memref.alloc' op cannot be offloaded by attic-gpu-offload: kernels cannot allocate; allocations must be at the top level of the function (hoist them out of loops)}}
    %t = memref.alloc() : memref<4xf32>
    memref.dealloc %t : memref<4xf32>
  }
  return
}

// -----

func.func private @helper(memref<4xf32>)

func.func @host_call(%a: memref<4xf32>) {
  // expected-error @+1 {{'func.call' op cannot be offloaded by attic-gpu-offload: kernels cannot call host function @helper}}
  func.call @helper(%a) : (memref<4xf32>) -> ()
  return
}

// -----

func.func @parallel_reduction(%a: memref<4xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{'scf.parallel' op cannot be offloaded by attic-gpu-offload: a parallel loop with reductions (results) is not supported}}
  %sum = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%zero) -> f32 {
    %x = memref.load %a[%i] : memref<4xf32>
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      scf.reduce.return %s : f32
    }
  }
  memref.store %sum, %out[] : memref<f32>
  return
}

// -----

func.func @attic_op_in_loop(%q: memref<1x2x8x4xf32>, %o: memref<1x2x8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    // expected-error @+1 {{'attic.block_attention' op cannot be offloaded by attic-gpu-offload: it must be at the top level of the function, not inside a loop}}
    attic.block_attention ins(%q, %q, %q : memref<1x2x8x4xf32>, memref<1x2x8x4xf32>, memref<1x2x8x4xf32>) outs(%o : memref<1x2x8x4xf32>) {layout = #attic.dense, scale = 0.5 : f32, block_q = 4 : i64, block_k = 4 : i64}
  }
  return
}

// -----

// expected-error @+1 {{'func.func' op argument #0 must be a memref with the identity layout in the default memory space for attic-gpu-offload, got 'memref<4xf32, strided<[2]>>'}}
func.func @strided_argument(%a: memref<4xf32, strided<[2]>>) {
  return
}

// -----

// expected-error @+1 {{'func.func' op results must be memrefs with the identity layout in the default memory space for attic-gpu-offload, got 'memref<4xf32, strided<[2]>>'}}
func.func @strided_result(%a: memref<8xf32>) -> memref<4xf32, strided<[2]>> {
  %s = memref.subview %a[0] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2]>>
  return %s : memref<4xf32, strided<[2]>>
}

// -----

// expected-error @+1 {{'func.func' op @private_entry is private; attic-gpu-offload compiles public entry functions only (inline callees first)}}
func.func private @private_entry(%a: memref<4xf32>) {
  return
}

// -----

// A call to a function with a body that the inliner left (recursion): one
// error per call site, before the errors of what it causes (the callee is
// private, its call is a host call from a kernel, ...; a 2026-12-02
// audit).
func.func private @layer(%a: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %done = arith.cmpi eq, %n, %c0 : index
  scf.if %done {
  } else {
    %m = arith.subi %n, %c1 : index
    // expected-error @+1 {{'func.call' op calls @layer, which was not inlined (is it recursive?): the GPU pipelines take each entry with its callees inlined, since kernels cannot call host functions; write the recursion as a loop, or compile for the CPU}}
    func.call @layer(%a, %m) : (memref<4xf32>, index) -> ()
  }
  return
}

func.func @recursive(%a: memref<4xf32>) {
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'func.call' op calls @layer, which was not inlined (is it recursive?)}}
  func.call @layer(%a, %c2) : (memref<4xf32>, index) -> ()
  return
}

// -----

// Before bufferization: one error for the function, at its first op on
// tensors (the pass used to move tensor ops into a kernel, and the
// conversion to NVVM failed later).
func.func @on_tensors(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'arith.addf' op has tensor operands or results; attic-gpu-offload runs on bufferized code (after one-shot bufferization and convert-linalg-to-parallel-loops)}}
  %b = arith.addf %a, %a : tensor<4xf32>
  %c = arith.mulf %b, %b : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// A scalar read from a buffer (in a kernel) comes back to the host: the
// error names the host op, the note where the chain of values computed in
// kernels starts (the load), not the op just before.
func.func @offset_from_data(%off: memref<1xi32>) -> index {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the value is computed here}}
  %o = memref.load %off[%c0] : memref<1xi32>
  %i = arith.index_cast %o : i32 to index
  %j = arith.addi %i, %c0 : index
  // expected-error @+1 {{'func.return' op uses a value that attic-gpu-offload computes in a kernel; only buffers pass between kernels and the host (host code, e.g. an offset, a size or a branch, cannot depend on a scalar read from a tensor)}}
  return %j : index
}

// -----

// A gpu.launch inside a loop or a branch became part of a one-thread
// kernel: a kernel that launches a kernel, exit 0 (a 2026-11-30 audit). At
// the top level a hand-written launch runs as written (gpu-offload.mlir).
func.func @launch_in_loop(%m: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %it = %c0 to %n step %c1 {
    // expected-error @+1 {{'gpu.launch' op cannot be offloaded by attic-gpu-offload: a host op of the gpu dialect inside a loop or branch would run inside a kernel; keep it at the top level of the function, or write the loop without it (the pass makes the kernels)}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %v = memref.load %m[%tx] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %m[%tx] : memref<4xf32>
      gpu.terminator
    }
  }
  return
}

// -----

func.func @launch_in_branch(%m: memref<4xf32>, %c: i1) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.if %c {
    // expected-error @+1 {{'gpu.launch' op cannot be offloaded by attic-gpu-offload: a host op of the gpu dialect inside a loop or branch}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %v = memref.load %m[%tx] : memref<4xf32>
      memref.store %v, %m[%tx] : memref<4xf32>
      gpu.terminator
    }
  }
  return
}

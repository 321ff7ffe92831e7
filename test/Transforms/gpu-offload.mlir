// RUN: attic-opt %s --split-input-file --attic-gpu-offload="block-size=128" | FileCheck %s

// The output of attic-gpu-offload alone (gpu-offload-invalid.mlir has what
// it refuses; test/Conversion/cuda-pipeline.mlir its place in the CUDA
// pipeline). Arguments are copied to device buffers at entry and back at
// exit, the allocation moves to the device, the top-level scf.parallel is
// a launch of 128-thread blocks with a bounds check, memref.copy is a copy
// kernel, and every device buffer is freed.
// CHECK: module attributes {gpu.container_module}
// CHECK-LABEL: func.func @scale
// CHECK-SAME: (%[[IN:.*]]: memref<256xf32>, %[[OUT:.*]]: memref<256xf32>)
// CHECK: %[[DIN:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<256xf32>
// CHECK: gpu.memcpy async [%{{.*}}] %[[DIN]], %[[IN]]
// CHECK: %[[DOUT:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<256xf32>
// CHECK: gpu.memcpy async [%{{.*}}] %[[DOUT]], %[[OUT]]
// CHECK: %[[TMP:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<256xf32>
// CHECK-NOT: memref.alloc
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: gpu.launch async [%{{.*}}] blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in ({{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C128]],
// CHECK:   %[[OFF:.*]] = arith.muli %[[BX]], %[[C128]] : index
// CHECK:   %[[I:.*]] = arith.addi %[[OFF]], %[[TX]] : index
// CHECK:   %[[INSIDE:.*]] = arith.cmpi slt, %[[I]], %{{.*}} : index
// CHECK:   scf.if %[[INSIDE]] {
// CHECK:     memref.load %[[DIN]]
// CHECK:     arith.addf
// CHECK:     memref.store %{{.*}}, %[[TMP]]
// CHECK:   gpu.terminator
// The copy into %out's device buffer, a kernel of its own.
// CHECK: gpu.launch async
// CHECK:     %[[X:.*]] = memref.load %[[TMP]]
// CHECK:     memref.store %[[X]], %[[DOUT]]
// CHECK: gpu.dealloc async [%{{.*}}] %[[TMP]]
// CHECK: gpu.memcpy async [%{{.*}}] %[[OUT]], %[[DOUT]]
// CHECK: gpu.dealloc async [%{{.*}}] %[[DIN]]
// CHECK: gpu.dealloc async [%{{.*}}] %[[DOUT]]
// CHECK: gpu.wait [%{{.*}}]
// CHECK-NEXT: return
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.dealloc
func.func @scale(%in: memref<256xf32>, %out: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %tmp = memref.alloc() : memref<256xf32>
  scf.parallel (%i) = (%c0) to (%c256) step (%c1) {
    %v = memref.load %in[%i] : memref<256xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %tmp[%i] : memref<256xf32>
    scf.reduce
  }
  memref.copy %tmp, %out : memref<256xf32> to memref<256xf32>
  memref.dealloc %tmp : memref<256xf32>
  return
}

// -----

// Sequential top-level code runs in a kernel of one thread; an argument
// marked bufferization.writable = false is not copied back.
// CHECK-LABEL: func.func @sequential
// CHECK-SAME: (%[[A:.*]]: memref<4xf32> {bufferization.writable = false}, %[[OUT:.*]]: memref<f32>)
// CHECK: %[[DA:.*]], %{{.*}} = gpu.alloc async
// CHECK: gpu.memcpy async [%{{.*}}] %[[DA]], %[[A]]
// CHECK: %[[DOUT:.*]], %{{.*}} = gpu.alloc async
// CHECK: gpu.launch async [%{{.*}}] blocks({{.*}}) in (%{{.*}} = %[[ONE:[a-z0-9_]+]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads({{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]])
// CHECK:   %[[S:.*]] = scf.for
// CHECK:     memref.load %[[DA]]
// CHECK:   memref.store %[[S]], %[[DOUT]][]
// CHECK:   gpu.terminator
// CHECK-NOT: gpu.memcpy {{.*}} %[[A]], %[[DA]]
// CHECK: gpu.memcpy async [%{{.*}}] %[[OUT]], %[[DOUT]]
// CHECK-NOT: gpu.memcpy {{.*}} %[[A]], %[[DA]]
// CHECK: return
func.func @sequential(%a: memref<4xf32> {bufferization.writable = false}, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %a[%i] : memref<4xf32>
    %n = arith.addf %acc, %v : f32
    scf.yield %n : f32
  }
  memref.store %s, %out[] : memref<f32>
  return
}

// -----

// A tile op with a region outside a tile grid is left for
// attic-gpu-map-tiles (which reports it); its region's attic.tile.yield
// was blamed before ("must be at the top level of the function, not
// inside a loop").
// CHECK-LABEL: func.func @tile_op_outside_a_grid
// CHECK: attic.tile.map_cols
// CHECK:   attic.tile.yield
func.func @tile_op_outside_a_grid(%t: memref<16xf32>, %i: index) {
  attic.tile.map_cols at(%i) outs(%t : memref<16xf32>) {
  ^bb0(%k0: index, %old: f32):
    %z = arith.constant 0.0 : f32
    attic.tile.yield %z : f32
  }
  return
}

// -----

// A scalar read and its store into a new buffer stay in one kernel: the
// allocation between them moves before the kernel (it ended the kernel
// before, and the store was refused as host code using a kernel's value;
// tensor.from_elements of a tensor.extract on the CUDA targets).
// CHECK-LABEL: func.func @scalar_into_new_buffer
// CHECK: %[[DX:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<4xf32>
// CHECK: %[[NEW:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<1xf32>
// CHECK: gpu.launch async
// CHECK-NEXT: %[[V:.*]] = memref.load %[[DX]]
// CHECK-NEXT: memref.store %[[V]], %[[NEW]]
// CHECK-NEXT: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @scalar_into_new_buffer(%x: memref<4xf32>) -> memref<1xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %v = memref.load %x[%c3] : memref<4xf32>
  %new = memref.alloc() : memref<1xf32>
  memref.store %v, %new[%c0] : memref<1xf32>
  return %new : memref<1xf32>
}

// -----

// A report at the top level (an index made constant by folding): its
// atomic count, compare and record stores are one kernel. The constants
// of the rewrite came between the atomic and its compare and ended the
// kernel there.
// CHECK-LABEL: func.func @top_level_report
// CHECK: %[[REC:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<5xi64>
// CHECK: gpu.launch async
// CHECK: %[[OLD:.*]] = memref.atomic_rmw addi %{{.*}}, %[[REC]][%{{.*}}] : (i64, memref<5xi64>) -> i64
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[OLD]], %{{.*}} : i64
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK: memref.store %{{.*}}, %[[REC]]
// CHECK: gpu.terminator
// CHECK: return
func.func private @attic_rt_report_error(i32, i64, i64, i64)
func.func @top_level_report(%out: memref<f32>) {
  %code = arith.constant 8 : i32
  %a = arith.constant 320 : i64
  %b = arith.constant -5 : i64
  %c = arith.constant 4 : i64
  func.call @attic_rt_report_error(%code, %a, %b, %c) : (i32, i64, i64, i64) -> ()
  %zero = arith.constant 0.0 : f32
  memref.store %zero, %out[] : memref<f32>
  return
}

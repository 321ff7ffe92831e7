// RUN: attic-opt %s --split-input-file --attic-guard-tensor-indices | FileCheck %s
// A second run changes nothing.
// RUN: attic-opt %s --split-input-file --attic-guard-tensor-indices | attic-opt --split-input-file --attic-guard-tensor-indices > %t.twice
// RUN: attic-opt %s --split-input-file --attic-guard-tensor-indices > %t.once
// RUN: diff %t.once %t.twice

// A tensor of static nonzero sizes: the report when the index is outside,
// then the access at index 0 there and its result replaced by 0 (no branch
// around the access). The report's `a` is line * 64 + dimension.
// CHECK-LABEL: func.func @extract
// CHECK-SAME: (%[[T:.*]]: tensor<8xf32>, %[[I:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[T]], %{{.*}} : tensor<8xf32>
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[I]], %[[C0]] : index
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[I]], %[[N]] : index
// CHECK: %[[OK:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK: %[[OUT:.*]] = arith.xori %[[OK]], %{{.*}} : i1
// CHECK: scf.if %[[OUT]] {
// CHECK:   %[[LINE:.*]] = arith.constant {{[0-9]+}} : index
// CHECK:   %[[CODE:.*]] = arith.constant 8 : i32
// CHECK:   func.call @attic_rt_report_error(%[[CODE]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: }
// CHECK: %[[SAFE:.*]] = arith.select %[[OK]], %[[I]], %[[C0]] : index
// CHECK: %[[X:.*]] = tensor.extract %[[T]][%[[SAFE]]] {attic.in_bounds} : tensor<8xf32>
// CHECK: %[[R:.*]] = arith.select %[[OK]], %[[X]], %{{.*}} : f32
// CHECK: return %[[R]] : f32
func.func @extract(%t: tensor<8xf32>, %i: index) -> f32 {
  %x = tensor.extract %t[%i] : tensor<8xf32>
  return %x : f32
}

// -----

// Constant indices inside static sizes are not checked; the insert writes
// the element's own value back when the other index is outside.
// CHECK-LABEL: func.func @insert
// CHECK-SAME: (%[[T:.*]]: tensor<4x8xf32>, %[[I:.*]]: index, %[[V:.*]]: f32)
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[OK:.*]] = arith.andi
// CHECK: scf.if
// CHECK:   func.call @attic_rt_report_error
// CHECK-NOT: func.call @attic_rt_report_error
// CHECK: %[[SAFE:.*]] = arith.select %[[OK]], %[[I]], %{{.*}} : index
// CHECK: %[[OLD:.*]] = tensor.extract %[[T]][%[[C1]], %[[SAFE]]] {attic.in_bounds}
// CHECK: %[[NEW:.*]] = arith.select %[[OK]], %[[V]], %[[OLD]] : f32
// CHECK: tensor.insert %[[NEW]] into %[[T]][%[[C1]], %[[SAFE]]] {attic.in_bounds}
func.func @insert(%t: tensor<4x8xf32>, %i: index, %v: f32) -> tensor<4x8xf32> {
  %c1 = arith.constant 1 : index
  %u = tensor.insert %v into %t[%c1, %i] : tensor<4x8xf32>
  return %u : tensor<4x8xf32>
}

// -----

// A dynamic size (it may be 0): the access under scf.if, 0 outside.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[OK:.*]] = arith.andi
// CHECK: scf.if %{{.*}} {
// CHECK:   func.call @attic_rt_report_error
// CHECK: %[[R:.*]] = scf.if %[[OK]] -> (f32) {
// CHECK:   %[[X:.*]] = tensor.extract {{.*}} {attic.in_bounds} : tensor<?xf32>
// CHECK:   scf.yield %[[X]] : f32
// CHECK: } else {
// CHECK:   %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:   scf.yield %[[Z]] : f32
// CHECK: return %[[R]]
func.func @dynamic(%t: tensor<?xf32>, %i: index) -> f32 {
  %x = tensor.extract %t[%i] : tensor<?xf32>
  return %x : f32
}

// -----

// A slice whose stride is not a constant: the check of offset + (size - 1)
// stride < dim as (size - 1) <= (dim - 1 - offset) / stride, the report
// (code 9, ATTIC_RT_SLICE_BOUNDS) when outside, and the slice under an
// scf.if whose other branch takes nothing from the source (a tensor.empty).
// CHECK-LABEL: func.func @extract_slice
// CHECK-SAME: (%[[T:.*]]: tensor<16xf32>, %[[S:.*]]: index)
// CHECK: %[[N:.*]] = tensor.dim %[[T]], %{{.*}} : tensor<16xf32>
// CHECK: %[[POS:.*]] = arith.cmpi sge, %[[S]], %{{.*}} : index
// CHECK: %[[DIV:.*]] = arith.select %[[POS]], %[[S]], %{{.*}} : index
// CHECK: arith.divsi %{{.*}}, %[[DIV]] : index
// CHECK: scf.if %{{.*}} {
// CHECK:   arith.constant 9 : i32
// CHECK:   func.call @attic_rt_report_error
// CHECK: }
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (tensor<4xf32>) {
// CHECK:   %[[X:.*]] = tensor.extract_slice %[[T]][2] [4] [%[[S]]] {attic.in_bounds} : tensor<16xf32> to tensor<4xf32>
// CHECK:   scf.yield %[[X]] : tensor<4xf32>
// CHECK: } else {
// CHECK:   %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK:   scf.yield %[[E]] : tensor<4xf32>
// CHECK: }
// CHECK: return %[[R]] : tensor<4xf32>
func.func @extract_slice(%t: tensor<16xf32>, %s: index) -> tensor<4xf32> {
  %r = tensor.extract_slice %t[2] [4] [%s] : tensor<16xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// An extract_slice at an offset from the data, of static sizes and strides
// that fit at offset 0 of a static tensor: reported when outside, and then
// taken at offset 0 (an arith.select, no branch: attic-gpu-offload takes no
// allocation in a branch, and an attention after such a slice was refused
// on the CUDA targets).
// CHECK-LABEL: func.func @extract_slice_offset
// CHECK-SAME: (%[[T:.*]]: tensor<2x64x16xf32>, %[[O:.*]]: index)
// CHECK: scf.if %{{.*}} {
// CHECK:   func.call @attic_rt_report_error
// CHECK: }
// CHECK-NOT: scf.if
// CHECK: %[[SAFE:.*]] = arith.select %{{.*}}, %[[O]], %{{.*}} : index
// CHECK: %[[R:.*]] = tensor.extract_slice %[[T]][0, %[[SAFE]], 0] [2, 16, 16] [1, 1, 1] {attic.in_bounds} : tensor<2x64x16xf32> to tensor<2x16x16xf32>
// CHECK: return %[[R]]
func.func @extract_slice_offset(%t: tensor<2x64x16xf32>, %o: index) -> tensor<2x16x16xf32> {
  %r = tensor.extract_slice %t[0, %o, 0] [2, 16, 16] [1, 1, 1] : tensor<2x64x16xf32> to tensor<2x16x16xf32>
  return %r : tensor<2x16x16xf32>
}

// -----

// An insert_slice at an offset from the data leaves the destination as it
// was when outside; a slice with constant bounds inside is left alone.
// CHECK-LABEL: func.func @insert_slice
// CHECK-SAME: (%[[T:.*]]: tensor<16xf32>, %[[V:.*]]: tensor<4xf32>, %[[O:.*]]: index)
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (tensor<16xf32>) {
// CHECK:   %[[X:.*]] = tensor.insert_slice %[[V]] into %[[T]][%[[O]]] [4] [1] {attic.in_bounds}
// CHECK:   scf.yield %[[X]] : tensor<16xf32>
// CHECK: } else {
// CHECK:   scf.yield %[[T]] : tensor<16xf32>
// CHECK: }
// CHECK: %[[K:.*]] = tensor.extract_slice %[[R]][12] [4] [1] : tensor<16xf32> to tensor<4xf32>
// CHECK-NOT: attic.in_bounds
// CHECK: return %[[K]]
func.func @insert_slice(%t: tensor<16xf32>, %v: tensor<4xf32>, %o: index) -> tensor<4xf32> {
  %r = tensor.insert_slice %v into %t[%o] [4] [1] : tensor<4xf32> into tensor<16xf32>
  %k = tensor.extract_slice %r[12] [4] [1] : tensor<16xf32> to tensor<4xf32>
  return %k : tensor<4xf32>
}

// -----

// Offsets whose ranges are known (a loop's induction variable over
// [0, 8)) and keep the slices inside: no check, so that such loops stay
// as they were (the GPU pipeline offloads them as kernels).
// CHECK-LABEL: func.func @loop_rows
// CHECK-NOT: attic.in_bounds
// CHECK-NOT: attic_rt_report_error
// CHECK: return
func.func @loop_rows(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %out0 = tensor.empty() : tensor<8x16xf32>
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%out = %out0) -> (tensor<8x16xf32>) {
    %row = tensor.extract_slice %x[%i, 0] [1, 16] [1, 1] : tensor<8x16xf32> to tensor<16xf32>
    %o = tensor.insert_slice %row into %out[%i, 0] [1, 16] [1, 1] : tensor<16xf32> into tensor<8x16xf32>
    scf.yield %o : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}

// -----

// Nothing to check: constant indices inside, and capture reads in modifier
// regions (checked by the tile loop, ATTIC_RT_CAPTURE_INDEX). No
// declaration is added.
// CHECK-LABEL: func.func @nothing
// CHECK-NOT: attic.in_bounds
// CHECK-NOT: attic_rt_report_error
func.func @nothing(%t: tensor<8xf32>, %q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %s: tensor<2xf32>) -> (f32, tensor<1x2x64x16xf32>) {
  %c7 = arith.constant 7 : index
  %x = tensor.extract %t[%c7] : tensor<8xf32>
  %o = attic.attention %q, %k, %v captures(%s : tensor<2xf32>)
      score_mod {
      ^bb0(%score: f32, %b: index, %h: index, %qi: index, %ki: index, %sl: tensor<2xf32>):
        %slope = tensor.extract %sl[%h] : tensor<2xf32>
        %r = arith.addf %score, %slope : f32
        attic.yield %r : f32
      }
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %x, %o : f32, tensor<1x2x64x16xf32>
}

// -----

// A dim of size 1 gets stride 1 (one element whatever the stride; MLIR 22
// crashed on the rank-reducing form with stride 2 after bufferization).
// CHECK-LABEL: func.func @unit_size_strides
// CHECK: tensor.extract_slice %{{.*}}[1, 2] [1, 1] [1, 1] : tensor<3x4xf32> to tensor<1xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[2, 3] [1, 1] [1, 1] : tensor<1xf32> into tensor<3x4xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [2, 1] [2, 1] : tensor<3x4xf32> to tensor<2xf32>
func.func @unit_size_strides(%x: tensor<3x4xf32>) -> (tensor<1xf32>, tensor<3x4xf32>, tensor<2xf32>) {
  %r = tensor.extract_slice %x[1, 2] [1, 1] [2, 3] : tensor<3x4xf32> to tensor<1xf32>
  %u = tensor.insert_slice %r into %x[2, 3] [1, 1] [5, 5] : tensor<1xf32> into tensor<3x4xf32>
  %s = tensor.extract_slice %x[0, 0] [2, 1] [2, 7] : tensor<3x4xf32> to tensor<2xf32>
  return %r, %u, %s : tensor<1xf32>, tensor<3x4xf32>, tensor<2xf32>
}

// -----

// tensor.dim with a dimension index known at run time only: outside
// [0, rank) the report (code 12) and 0; the dim reads dimension 0 there.
// CHECK-LABEL: func.func @dim
// CHECK-SAME: (%[[T:.*]]: tensor<?x4xf32>, %[[I:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[I]], %[[C0]] : index
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[I]], %[[C2]] : index
// CHECK: %[[OK:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK: scf.if
// CHECK:   arith.constant 12 : i32
// CHECK:   func.call @attic_rt_report_error
// CHECK: %[[SAFE:.*]] = arith.select %[[OK]], %[[I]], %[[C0]] : index
// CHECK: %[[D:.*]] = tensor.dim {attic.in_bounds} %[[T]], %[[SAFE]] : tensor<?x4xf32>
// CHECK: %[[R:.*]] = arith.select %[[OK]], %[[D]], %[[C0]] : index
// CHECK: return %[[R]] : index
func.func @dim(%t: tensor<?x4xf32>, %i: index) -> index {
  %n = tensor.dim %t, %i : tensor<?x4xf32>
  return %n : index
}

// -----

// memref.load of static nonzero sizes: as tensor.extract, with code 13
// (ATTIC_RT_MEMREF_INDEX) and memref.dim for the size.
// CHECK-LABEL: func.func @load
// CHECK-SAME: (%[[M:.*]]: memref<8xf32>, %[[I:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[N:.*]] = memref.dim %[[M]], %{{.*}} : memref<8xf32>
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[I]], %[[C0]] : index
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[I]], %[[N]] : index
// CHECK: %[[OK:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK: scf.if
// CHECK:   arith.constant 13 : i32
// CHECK:   func.call @attic_rt_report_error
// CHECK: %[[SAFE:.*]] = arith.select %[[OK]], %[[I]], %[[C0]] : index
// CHECK: %[[X:.*]] = memref.load %[[M]][%[[SAFE]]] {attic.in_bounds} : memref<8xf32>
// CHECK: %[[R:.*]] = arith.select %[[OK]], %[[X]], %{{.*}} : f32
// CHECK: return %[[R]] : f32
func.func @load(%m: memref<8xf32>, %i: index) -> f32 {
  %x = memref.load %m[%i] : memref<8xf32>
  return %x : f32
}

// -----

// memref.store: under scf.if on the indices being inside (never a write
// of the old value, which could race with another thread's store); the
// report's `a` has 32 for a store. A dynamic load: under scf.if, 0 outside.
// CHECK-LABEL: func.func @store_and_dynamic_load
// CHECK-SAME: (%[[M:.*]]: memref<4x?xi32>, %[[I:.*]]: index, %[[V:.*]]: i32)
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[OK:.*]] = arith.andi
// CHECK: scf.if
// CHECK:   arith.constant 13 : i32
// CHECK:   func.call @attic_rt_report_error
// CHECK-NOT: func.call
// CHECK: scf.if %[[OK]] {
// CHECK-NEXT: memref.store %[[V]], %[[M]][%[[C1]], %[[I]]] {attic.in_bounds} : memref<4x?xi32>
// CHECK-NEXT: }
// CHECK: arith.andi
// CHECK: arith.andi
// CHECK: %[[OK2:.*]] = arith.andi
// CHECK: scf.if
// CHECK:   func.call @attic_rt_report_error
// CHECK: scf.if
// CHECK:   func.call @attic_rt_report_error
// CHECK: %[[X:.*]] = scf.if %[[OK2]] -> (i32) {
// CHECK-NEXT: %[[L:.*]] = memref.load %[[M]][%[[I]], %[[C1]]] {attic.in_bounds} : memref<4x?xi32>
// CHECK-NEXT: scf.yield %[[L]] : i32
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: scf.yield %[[Z]] : i32
// CHECK: return %[[X]] : i32
func.func @store_and_dynamic_load(%m: memref<4x?xi32>, %i: index, %v: i32) -> i32 {
  %c1 = arith.constant 1 : index
  memref.store %v, %m[%c1, %i] : memref<4x?xi32>
  %x = memref.load %m[%i, %c1] : memref<4x?xi32>
  return %x : i32
}

// -----

// Indices known inside are not checked: constants, an scf.for's induction
// variable over constant bounds (and sums of those), a gpu.launch's thread
// and block ids where its sizes are constants. A sum that wraps its i8
// type is not known (8 + 120 is -128 in i8), nor a thread id of a launch
// of a size known at run time only.
// CHECK-LABEL: func.func @known_inside
// CHECK: scf.for
// CHECK-NOT: func.call
// CHECK: memref.load %{{.*}} : memref<16xf32>
// CHECK-NOT: func.call
// CHECK: tensor.extract %{{.*}} : tensor<16xf32>
// CHECK: gpu.launch
// CHECK-NOT: func.call
// CHECK: memref.load %{{.*}} : memref<16xf32>
// CHECK: func.call @attic_rt_report_error
// CHECK: memref.store %{{.*}} {attic.in_bounds} : memref<16xf32>
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: func.call @attic_rt_report_error
// CHECK: memref.load %{{.*}} {attic.in_bounds} : memref<16xf32>
// CHECK: func.call @attic_rt_report_error
// CHECK: memref.load %{{.*}} {attic.in_bounds} : memref<200xf32>
func.func @known_inside(%m: memref<16xf32>, %t: tensor<16xf32>, %n: index, %w: memref<200xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
    %j = arith.addi %i, %c8 : index
    %x = memref.load %m[%j] : memref<16xf32>
    %y = tensor.extract %t[%i] : tensor<16xf32>
    %a = arith.addf %acc, %x : f32
    %b = arith.addf %a, %y : f32
    scf.yield %b : f32
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %x = memref.load %m[%tx] : memref<16xf32>
    %k = arith.addi %tx, %c1 : index
    memref.store %x, %m[%k] : memref<16xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %x = memref.load %m[%tx] : memref<16xf32>
    gpu.terminator
  }
  %c8_i8 = arith.constant 8 : i8
  %c120_i8 = arith.constant 120 : i8
  %wrapped = arith.addi %c8_i8, %c120_i8 : i8
  %wi = arith.index_cast %wrapped : i8 to index
  %z = memref.load %w[%wi] : memref<200xf32>
  %r = arith.addf %s, %z : f32
  return %r : f32
}

// -----

// memref.dim with a dimension index known at run time only: as tensor.dim,
// the report's `a` has 1 for memref.dim.
// CHECK-LABEL: func.func @memref_dim
// CHECK: %[[OK:.*]] = arith.andi
// CHECK: scf.if
// CHECK:   %[[A:.*]] = arith.constant {{[0-9]*}}1 : index
// CHECK:   arith.constant 12 : i32
// CHECK:   func.call @attic_rt_report_error
// CHECK: %[[SAFE:.*]] = arith.select %[[OK]]
// CHECK: memref.dim {attic.in_bounds} %{{.*}}, %[[SAFE]] : memref<?x4xf32>
func.func @memref_dim(%m: memref<?x4xf32>, %i: index) -> index {
  %n = memref.dim %m, %i : memref<?x4xf32>
  return %n : index
}

// -----

// Left alone: a function that an attic op names (the memref form's outlined
// mask region, whose capture reads have their own check) and the functions
// of a gpu.module (they cannot call the runtime). Host code that calls such
// a function too calls a private copy of it, which is checked.
// CHECK-LABEL: func.func private @mask
// CHECK-NOT: attic_rt_report_error
// CHECK: memref.load %{{.*}} : memref<1x256xi1>
// CHECK-LABEL: func.func private @mask_host
// CHECK-NOT: attic.modifier
// CHECK: func.call @attic_rt_report_error
// CHECK: memref.load %{{.*}} {attic.in_bounds} : memref<1x256xi1>
// CHECK-LABEL: gpu.module @kernels
// CHECK-NOT: attic_rt_report_error
// CHECK: memref.load %{{.*}} : memref<16xf32>
func.func private @mask(%b: index, %h: index, %q: index, %k: index, %keep: memref<1x256xi1>) -> i1 attributes {attic.modifier} {
  %v = memref.load %keep[%b, %k] : memref<1x256xi1>
  return %v : i1
}
gpu.module @kernels {
  gpu.func @k(%m: memref<16xf32>, %i: index) kernel {
    %x = memref.load %m[%i] : memref<16xf32>
    memref.store %x, %m[%i] : memref<16xf32>
    gpu.return
  }
}
func.func @masked(%q: memref<1x1x256x64xf32>, %k: memref<1x1x256x64xf32>, %v: memref<1x1x256x64xf32>, %keep: memref<1x256xi1>, %o: memref<1x1x256x64xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x256x64xf32>, memref<1x1x256x64xf32>, memref<1x1x256x64xf32>)
      captures(%keep : memref<1x256xi1>) outs(%o : memref<1x1x256x64xf32>) {layout = #attic.dense, scale = 1.250000e-01 : f32, block_q = 64 : i64, block_k = 64 : i64, mask_fn = @mask}
  return
}
// CHECK-LABEL: func.func @host_call
// CHECK: call @mask_host
func.func @host_call(%keep: memref<1x256xi1>, %k: index) -> i1 {
  %c0 = arith.constant 0 : index
  %r = func.call @mask(%c0, %c0, %c0, %k, %keep) : (index, index, index, index, memref<1x256xi1>) -> i1
  return %r : i1
}

// -----

// linalg indexing maps inside their operands everywhere are left as they
// are: a convolution's sums, a remainder bounded by interval arithmetic, one
// found inside by enumeration (7 d0 mod 10 over d0 < 4 is 0, 7, 4, 1).
// CHECK-LABEL: func.func @maps_inside
// CHECK: linalg.conv_1d
// CHECK: linalg.generic
// CHECK: linalg.generic
func.func @maps_inside(%x: tensor<10xf32>, %w: tensor<3xf32>, %o: tensor<8xf32>, %a: tensor<2xf32>, %b: tensor<8xf32>, %init: tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c = linalg.conv_1d ins(%x, %w : tensor<10xf32>, tensor<3xf32>) outs(%o : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i mod 2)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a : tensor<2xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%v: f32, %u: f32):
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i) -> ((i * 7) mod 10)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%b : tensor<8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%v: f32, %u: f32):
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %c, %r, %s : tensor<8xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Through a cast the check takes the cast's source's sizes (a cast to a
// larger static size let loads past the buffer through); an unranked
// memref's dimension index is checked against its rank at run time; an
// atomic update goes under scf.if (0 outside); a memref of vectors reads a
// zero vector outside.
// CHECK-LABEL: func.func @casts_unranked_atomic_vectors
// CHECK-SAME: (%[[M:.*]]: memref<?xf32>, %[[U:.*]]: memref<*xf32>, %[[V:.*]]: memref<8xvector<4xf32>>, %[[I:.*]]: index)
// CHECK: memref.cast %[[M]]
// CHECK: memref.dim %[[M]], %{{.*}} : memref<?xf32>
// CHECK: memref.load %{{.*}} {attic.in_bounds} : memref<64xf32>
// CHECK: %[[RANK:.*]] = memref.rank %[[U]] : memref<*xf32>
// CHECK: arith.cmpi slt, %[[I]], %[[RANK]] : index
// CHECK: memref.dim {attic.in_bounds} %[[U]]
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK-NEXT: memref.atomic_rmw addf {{.*}} {attic.in_bounds}
// CHECK: %[[W:.*]] = memref.load %[[V]][%{{.*}}] {attic.in_bounds} : memref<8xvector<4xf32>>
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK: arith.select %{{.*}}, %[[W]], %[[Z]] : vector<4xf32>
func.func @casts_unranked_atomic_vectors(%m: memref<?xf32>, %u: memref<*xf32>, %v: memref<8xvector<4xf32>>, %i: index) -> (f32, index, f32, vector<4xf32>) {
  %c = memref.cast %m : memref<?xf32> to memref<64xf32>
  %x = memref.load %c[%i] : memref<64xf32>
  %d = memref.dim %u, %i : memref<*xf32>
  %one = arith.constant 1.0 : f32
  %old = memref.atomic_rmw addf %one, %m[%i] : (f32, memref<?xf32>) -> f32
  %w = memref.load %v[%i] : memref<8xvector<4xf32>>
  return %x, %d, %old, %w : f32, index, f32, vector<4xf32>
}

// -----

// A cast chain through an unranked type: checked against its ranked start.
// CHECK-LABEL: func.func @cast_through_unranked
// CHECK-SAME: (%[[M:.*]]: memref<8xf32>, %[[I:.*]]: index)
// CHECK: memref.dim %[[M]], %{{.*}} : memref<8xf32>
// CHECK: memref.load %{{.*}} {attic.in_bounds} : memref<64xf32>
func.func @cast_through_unranked(%m: memref<8xf32>, %i: index) -> f32 {
  %u = memref.cast %m : memref<8xf32> to memref<*xf32>
  %c = memref.cast %u : memref<*xf32> to memref<64xf32>
  %x = memref.load %c[%i] : memref<64xf32>
  return %x : f32
}

// -----

// Casts to a static size the operand's type does not have: the size
// compared at run time (ATTIC_RT_CAST_SIZE = 15, a = line * 64 + 32 for
// memref.cast + the dimension, 31 for the rank), and the cast under an
// scf.if whose else gives a new tensor (or buffer) of the type. A cast to
// a dynamic size is left alone.
// CHECK-LABEL: func.func @cast_to_static
// CHECK-SAME: (%[[A:.*]]: tensor<?x4xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x4xf32>
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[N]], %{{.*}} : index
// CHECK: arith.constant 15 : i32
// CHECK: %[[OK:.*]] = arith.andi %{{.*}}, %[[SAME]] : i1
// CHECK: scf.if %[[OK]] -> (tensor<8x4xf32>) {
// CHECK-NEXT: tensor.cast %[[A]] {attic.in_bounds}
// CHECK: } else {
// CHECK-NEXT: tensor.empty() : tensor<8x4xf32>
// CHECK: memref.dim
// CHECK: scf.if %{{.*}} -> (memref<4xf32>) {
// CHECK: } else {
// CHECK-NEXT: memref.alloc() : memref<4xf32>
// CHECK: tensor.rank
// CHECK: scf.if %{{.*}} -> (i1) {
// CHECK: tensor.dim
// CHECK: } else {
// CHECK: scf.if %{{.*}} -> (tensor<8xf32>) {
// CHECK: tensor.cast %{{.*}} : tensor<2x4xf32> to tensor<?x4xf32>
// CHECK-NOT: scf.if
// CHECK: return
func.func @cast_to_static(%a: tensor<?x4xf32>, %m: memref<?xf32>, %u: tensor<*xf32>, %s: tensor<2x4xf32>) -> (tensor<8x4xf32>, memref<4xf32>, tensor<8xf32>, tensor<?x4xf32>) {
  %c = tensor.cast %a : tensor<?x4xf32> to tensor<8x4xf32>
  %d = memref.cast %m : memref<?xf32> to memref<4xf32>
  %e = tensor.cast %u : tensor<*xf32> to tensor<8xf32>
  %f = tensor.cast %s : tensor<2x4xf32> to tensor<?x4xf32>
  return %c, %d, %e, %f : tensor<8x4xf32>, memref<4xf32>, tensor<8xf32>, tensor<?x4xf32>
}

// -----

// A memref.cast's static strides and offset that its operand's layout has
// dynamic: each compared with the operand's metadata (fields 16 + d and
// 30 of ATTIC_RT_CAST_SIZE; not the stride of a dimension of size 1, which
// addresses nothing), and the replacement a buffer that covers the layout
// (3 + 3 * 2 + 1 = 10 elements), viewed as the type.
// CHECK-LABEL: func.func @memref_layout_claims
// CHECK: %{{.*}}, %[[OFF:.*]], %{{.*}}:2, %[[STR:.*]]:2 = memref.extract_strided_metadata
// CHECK: arith.cmpi eq, %[[STR]]#0, %{{.*}} : index
// CHECK-NOT: %[[STR]]#1
// CHECK: arith.cmpi eq, %[[OFF]], %{{.*}} : index
// CHECK: } else {
// CHECK-NEXT: %[[ALLOC:.*]] = memref.alloc() : memref<10xf32>
// CHECK-NEXT: memref.reinterpret_cast %[[ALLOC]] to offset: [3], sizes: [4, 1], strides: [2, 1] : memref<10xf32> to memref<4x1xf32, strided<[2, 1], offset: 3>>
func.func @memref_layout_claims(%m: memref<4xf32, strided<[?], offset: ?>>) -> memref<4x1xf32, strided<[2, 1], offset: 3>> {
  %e = memref.expand_shape %m [[0, 1]] output_shape [4, 1] : memref<4xf32, strided<[?], offset: ?>> into memref<4x1xf32, strided<[?, ?], offset: ?>>
  %c = memref.cast %e : memref<4x1xf32, strided<[?, ?], offset: ?>> to memref<4x1xf32, strided<[2, 1], offset: 3>>
  return %c : memref<4x1xf32, strided<[2, 1], offset: 3>>
}

// -----

// tensor.expand_shape with dynamic sizes: per group, the operand's size
// against the product of the output sizes (each step checked for
// overflow: the high half of the unsigned product 0; -1 is reported for a
// product that overflows), ATTIC_RT_RESHAPE_SIZE = 17 (a = line * 64 + group), and the
// op under an scf.if whose else gives a tensor of its type, its dynamic
// sizes 0.
// CHECK-LABEL: func.func @expand_sizes
// CHECK-SAME: (%[[T:.*]]: tensor<?xf32>, %[[R:.*]]: index)
// CHECK: %[[N:.*]] = tensor.dim %[[T]], %{{.*}} : tensor<?xf32>
// CHECK: %[[P:.*]], %[[H:.*]] = arith.mului_extended %{{.*}}, %[[R]] : index
// CHECK: arith.cmpi eq, %[[H]], %{{.*}} : index
// CHECK: %[[P2:.*]], %{{.*}} = arith.mului_extended %[[P]], %{{.*}} : index
// CHECK: arith.cmpi eq, %[[P2]], %[[N]] : index
// CHECK: arith.constant -1 : index
// CHECK: arith.constant 17 : i32
// CHECK: scf.if %{{.*}} -> (tensor<?x4xf32>) {
// CHECK-NEXT: tensor.expand_shape %[[T]] {{.*}} {attic.in_bounds}
// CHECK: } else {
// CHECK: tensor.empty(%{{.*}}) : tensor<?x4xf32>
func.func @expand_sizes(%t: tensor<?xf32>, %r: index) -> tensor<?x4xf32> {
  %e = tensor.expand_shape %t [[0, 1]] output_shape [%r, 4] : tensor<?xf32> into tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}

// -----

// A static output size in a dimension the type leaves dynamic becomes an
// operand (MLIR 22's canonicalization of tensor.expand_shape read past its
// size operands on such an op: a crash; attic-opt --canonicalize after
// this pass folds it to tensor<2x1x3x4xf32> for a 2x12 source). Its groups
// are then checked at run time like the ones above.
// CHECK-LABEL: func.func @expand_static_in_dynamic
//   CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
//       CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2, 3]] output_shape [%{{.*}}, %[[C1]], %[[C3]], %{{.*}}] {attic.in_bounds} : tensor<?x?xf32> into tensor<?x?x?x?xf32>
func.func @expand_static_in_dynamic(%a: tensor<?x?xf32>, %k: index) -> tensor<?x?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x?xf32>
  %e = tensor.expand_shape %a [[0, 1], [2, 3]] output_shape [%d, 1, 3, %k] : tensor<?x?xf32> into tensor<?x?x?x?xf32>
  return %e : tensor<?x?x?x?xf32>
}

// -----

// A size operand in a dimension the type makes static (%y into 4): the
// dimension becomes dynamic and a cast to the type follows, which is
// checked and reported as the expand_shape's output size (field 56 + 1;
// MLIR 22's canonicalization replaced %y by 4 unchecked).
// CHECK-LABEL: func.func @expand_operand_in_static
//       CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [%{{.*}}, %{{.*}}] {attic.in_bounds} : tensor<?xf32> into tensor<?x?xf32>
//       CHECK: %[[D:.*]] = tensor.dim %[[E:.*]], %{{.*}} : tensor<?x?xf32>
//       CHECK: %[[C4:.*]] = arith.constant 4 : index
//       CHECK: arith.cmpi eq, %[[D]], %[[C4]] : index
//       CHECK: func.call @attic_rt_report_error(%c17_i32
//       CHECK: tensor.cast %[[E]] {attic.expand_shape_size, attic.in_bounds} : tensor<?x?xf32> to tensor<?x4xf32>
func.func @expand_operand_in_static(%a: tensor<?xf32>, %x: index, %y: index) -> tensor<?x4xf32> {
  %e = tensor.expand_shape %a [[0, 1]] output_shape [%x, %y] : tensor<?xf32> into tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}

// -----

// A parallel_insert_slice: the check before scf.forall.in_parallel, and
// outside, an empty slice of the source inserted at offset 0 (no scf.if
// fits there).
// CHECK-LABEL: func.func @parallel_insert
//       CHECK: scf.forall
//       CHECK: arith.xori %[[OK:.*]], %true
//       CHECK: call @attic_rt_report_error
//       CHECK: %[[OFF:.*]] = arith.select %[[OK]], %{{.*}}, %{{.*}} : index
//       CHECK: %[[STRIDE:.*]] = arith.select %[[OK]], %{{.*}}, %{{.*}} : index
//       CHECK: %[[SIZE:.*]] = arith.select %[[OK]], %{{.*}}, %{{.*}} : index
//       CHECK: %[[SRC:.*]] = tensor.extract_slice %{{.*}}[0] [%[[SIZE]]] [1] {attic.in_bounds} : tensor<3xf32> to tensor<?xf32>
//       CHECK: scf.forall.in_parallel
//  CHECK-NEXT: tensor.parallel_insert_slice %[[SRC]] into %{{.*}}[%[[OFF]]] [%[[SIZE]]] [%[[STRIDE]]] {attic.in_bounds} : tensor<?xf32> into tensor<8xf32>
func.func @parallel_insert(%a: tensor<8xf32>, %off: index, %x: tensor<3xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (1) shared_outs(%o = %a) -> tensor<8xf32> {
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %x into %o[%off] [3] [1] : tensor<3xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}

// -----

// Allocation sizes from the data: a negative one or a byte count past
// 2^63 is reported and the sizes become 0; constant sizes need nothing.
// CHECK-LABEL: func.func @alloc_sizes
//       CHECK: arith.mului_extended
//       CHECK: call @attic_rt_report_error(%{{.*}}) : (i32, i64, i64, i64) -> ()
//       CHECK: %[[SAFE:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
//       CHECK: tensor.empty(%[[SAFE]]) {attic.in_bounds} : tensor<?xf32>
//       CHECK: tensor.empty(%{{.*}}) : tensor<?x4xf32>
//   CHECK-NOT: attic_rt_report_error
//       CHECK: return
func.func @alloc_sizes(%n: index) -> (tensor<?xf32>, tensor<?x4xf32>) {
  %e = tensor.empty(%n) : tensor<?xf32>
  %c3 = arith.constant 3 : index
  %f = tensor.empty(%c3) : tensor<?x4xf32>
  return %e, %f : tensor<?xf32>, tensor<?x4xf32>
}

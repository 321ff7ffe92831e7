// A reduction over a middle dim on the GPU (attic-interchange-reductions
// before convert-linalg-to-parallel-loops in buildGpuOffloadPipeline): the
// kernel has a thread per (b, f), each summing its column in an scf.for;
// before, a thread per b looped over n with a nested scf.parallel over f.
// A parallel loop left inside a kernel (here the second reduction's
// parallel dims of a one-thread scan) runs as nested scf.for loops in its
// thread (attic-gpu-offload). Each result is checked against the reference
// on the CPU, emulated and in the GPU simulator; the sums are bitwise
// those of the CPU (the same order per element).
// RUN: attic-opt %s --attic-cuda-pipeline="chip=sm_80 format=isa" --mlir-print-ir-after=attic-gpu-offload -o /dev/null 2>&1 | FileCheck %s
// RUN: attic-run %s --entry=column_sums --check | FileCheck %s --check-prefix=EXEC
// RUN: attic-run %s --entry=column_sums --target=cuda-emulated --check | FileCheck %s --check-prefix=EXEC
// RUN: attic-run %s --entry=column_sums --target=cuda-simulated --check | FileCheck %s --check-prefixes=EXEC,SIM
// RUN: attic-run %s --entry=running_rows --check | FileCheck %s --check-prefix=EXEC2
// RUN: attic-run %s --entry=running_rows --target=cuda-emulated --check | FileCheck %s --check-prefix=EXEC2
// RUN: attic-run %s --entry=running_rows --target=cuda-simulated --check | FileCheck %s --check-prefixes=EXEC2,SIM2

// CHECK-LABEL: func.func @column_sums
// CHECK: gpu.launch
// CHECK: %[[T:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: arith.cmpi slt, %[[T]], %[[TOTAL:.*]] : index
// CHECK: %[[F:.*]] = arith.remsi %[[T]], %{{.*}} : index
// CHECK: %[[B:.*]] = arith.divsi %[[T]], %{{.*}} : index
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: memref.load %{{.*}}[%{{.*}}, %[[N]], %{{.*}}] : memref<4x64x32xf32>
// CHECK-NOT: scf.parallel
// CHECK: gpu.terminator
// SIM: simulated: 1 launches,
// EXEC: check: result #0 (4x32 f32): {{.*}}: ok

func.func @column_sums(%x: tensor<4x64x32xf32>) -> tensor<4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<4x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%init : tensor<4x32xf32>) -> tensor<4x32xf32>
  %s = linalg.reduce ins(%x : tensor<4x64x32xf32>) outs(%z : tensor<4x32xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %r = arith.addf %in, %acc : f32
        linalg.yield %r : f32
      }
  return %s : tensor<4x32xf32>
}

// A running sum over the rows (a scan, as attic.state_scan's): one kernel
// of one thread whose parallel addition per row is an scf.for inside it.
// CHECK-LABEL: func.func @running_rows
// CHECK: gpu.launch
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: scf.parallel
// CHECK: gpu.terminator
// SIM2: simulated: 2 launches,
// EXEC2: check: result #0 (8x16 f32): {{.*}}: ok
func.func @running_rows(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %run0 = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %out0 = tensor.empty() : tensor<8x16xf32>
  %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%run = %run0, %out = %out0)
      -> (tensor<16xf32>, tensor<8x16xf32>) {
    %row = tensor.extract_slice %x[%i, 0] [1, 16] [1, 1] : tensor<8x16xf32> to tensor<16xf32>
    %next = linalg.add ins(%run, %row : tensor<16xf32>, tensor<16xf32>)
        outs(%run : tensor<16xf32>) -> tensor<16xf32>
    %o = tensor.insert_slice %next into %out[%i, 0] [1, 16] [1, 1] : tensor<16xf32> into tensor<8x16xf32>
    scf.yield %next, %o : tensor<16xf32>, tensor<8x16xf32>
  }
  return %r#1 : tensor<8x16xf32>
}

// Errors on ops that hold regions (a function, a loop, a kernel) are one
// line with the location: attic's passes emit them without the op's text,
// which MLIR's opt driver attaches by default (--mlir-print-op-on-diagnostic)
// and which was hundreds of kilobytes for a function or a tile grid (an
// audit: 892 KB for attic-gpu-check-host on one CPU-mapped attention).

// RUN: not attic-opt %s --split-input-file --attic-gpu-offload -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFFLOAD
// OFFLOAD: error: 'func.func' op has several blocks; attic-gpu-offload runs before the lowering of scf to cf
// OFFLOAD-NOT: see current operation
func.func @blocks(%a: memref<8xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  cf.br ^bb1(%c0 : index)
^bb1(%i: index):
  %c = arith.cmpi slt, %i, %n : index
  cf.cond_br %c, ^bb2, ^bb3
^bb2:
  memref.store %z, %a[%i] : memref<8xf32>
  %i1 = arith.addi %i, %c1 : index
  cf.br ^bb1(%i1 : index)
^bb3:
  return
}

// -----

// An allocation in a branch: the error is on the scf.if, without its text
// (22 KB for a windowed attention in a branch; a 2026-12-02 audit).
// OFFLOAD: error: 'scf.if' op cannot be offloaded by attic-gpu-offload: an allocation in a branch
// OFFLOAD-NOT: see current operation
func.func @branch(%c: i1) {
  scf.if %c {
    %a = memref.alloc() : memref<8xf32>
    memref.dealloc %a : memref<8xf32>
  }
  return
}

// -----

// RUN: not attic-opt %s --split-input-file --attic-gpu-check-host -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOST
// HOST: error: 'scf.parallel' op cannot be compiled by attic-cuda-pipeline: it would run on the CPU, and host code may only move data
// HOST-NOT: see current operation
func.func @host_loop(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %z, %a[%i] : memref<8xf32>
  }
  return
}

// -----

// RUN: not attic-opt %attic_src/examples/vcc_encoder_loop.mlir --attic-unroll-layer-loops="max-trip-count=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNROLL
// UNROLL: error: 'scf.for' op loops over attic ops {{[0-9]+}} times: attic-unroll-layer-loops unrolls at most 1 iterations (max-trip-count)
// UNROLL-NOT: see current operation

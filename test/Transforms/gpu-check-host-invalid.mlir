// RUN: attic-opt %s --split-input-file --attic-gpu-check-host --verify-diagnostics


// Float math on the host would run on the CPU.

func.func @float_on_host(%x: f32) -> f32 {
  // expected-error @below {{'arith.mulf' op cannot be compiled by attic-cuda-pipeline: it would run on the CPU, and host code may only move data}}
  %y = arith.mulf %x, %x : f32
  return %y : f32
}

// -----

// So would a load of a buffer that is not on the host's stack, and a
// parallel loop left outside a kernel.

func.func @device_load(%m: memref<4xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{'memref.load' op cannot be compiled by attic-cuda-pipeline}}
  %x = memref.load %m[%c0] : memref<4xi32>
  // expected-error @below {{'scf.parallel' op cannot be compiled by attic-cuda-pipeline}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.reduce
  }
  return %x : i32
}

// -----

// The offload's error record: a host stack buffer may be read and written.

func.func @error_record() -> i32 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %rec = memref.alloca() : memref<1xi32>
  memref.store %zero, %rec[%c0] : memref<1xi32>
  %x = memref.load %rec[%c0] : memref<1xi32>
  return %x : i32
}

// RUN: attic-opt %s --split-input-file --verify-diagnostics --attic-unroll-layer-loops | FileCheck %s
// RUN: not attic-opt %s --split-input-file --attic-unroll-layer-loops="max-trip-count=2" 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: not attic-opt %s --split-input-file --attic-unroll-layer-loops="max-trip-count=1" 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: not attic-opt %s --split-input-file --attic-unroll-layer-loops="max-trip-count=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: attic-unroll-layer-loops: max-trip-count must be in [0, 65536], got -1
// Each iteration is a copy of the body: 2^40 of them exhausted memory.
// RUN: not attic-opt %s --split-input-file --attic-unroll-layer-loops="max-trip-count=1099511627776" 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: attic-unroll-layer-loops: max-trip-count must be in [0, 65536], got 1099511627776

// A loop over layers (attic ops in its body): one copy per iteration, the
// induction variable a constant in each; a loop without attic ops is kept.
// CHECK-LABEL: func.func @layers
// CHECK-NOT: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<1x2x8x4xf32>)
// CHECK-COUNT-3: attic.attention
// CHECK-NOT: attic.attention
// CHECK: scf.for {{.*}} -> (index)
// CHECK: return
// LIMIT: error: 'scf.for' op loops over attic ops 3 times: attic-unroll-layer-loops unrolls at most 2 iterations (max-trip-count)
func.func @layers(%x: tensor<1x2x8x4xf32>, %w: tensor<3x4xf32>) -> (tensor<1x2x8x4xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %l = %c0 to %c3 step %c1 iter_args(%h = %x) -> (tensor<1x2x8x4xf32>) {
    %a = attic.attention %h, %h, %h : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
    scf.yield %a : tensor<1x2x8x4xf32>
  }
  %n = scf.for %i = %c0 to %c3 step %c1 iter_args(%s = %c0) -> (index) {
    %t = arith.addi %s, %i : index
    scf.yield %t : index
  }
  return %r, %n : tensor<1x2x8x4xf32>, index
}

// -----

// attic's own loop of repeated steps (attic.repeated_steps: here K-means's
// iterations as attic-lower-state writes them) is unrolled although no
// attic op is left in its body; the same loop unmarked is kept.
// CHECK-LABEL: func.func @repeated_steps
// CHECK-NOT: scf.for {{.*}} -> (tensor<4xf32>)
// CHECK-COUNT-2: arith.mulf
// CHECK-NOT: arith.mulf
// CHECK: scf.for {{.*}} -> (tensor<4xf32>)
// CHECK: arith.addf
// CHECK: return
func.func @repeated_steps(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%h = %x) -> (tensor<4xf32>) {
    %m = arith.mulf %h, %h : tensor<4xf32>
    scf.yield %m : tensor<4xf32>
  } {attic.repeated_steps}
  %s = scf.for %i = %c0 to %c2 step %c1 iter_args(%h = %x) -> (tensor<4xf32>) {
    %a = arith.addf %h, %h : tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  }
  return %r, %s : tensor<4xf32>, tensor<4xf32>
}

// -----

// A user's loop around a marked loop (a loop over layers whose K-means was
// lowered already: no attic op left in either) is unrolled, and then the
// marked loop in each copy (it was left nested before: an allocation in a
// host loop for the GPU mapping; a 2026-12-02 review). Named as such when
// past max-trip-count.
// CHECK-LABEL: func.func @nested_repeated_steps
// CHECK-NOT: scf.for
// CHECK-COUNT-4: arith.mulf
// CHECK-NOT: arith.mulf
// CHECK: return
// STEPS: error: 'scf.for' op loops over attic's repeated steps (attic.repeated_steps) 2 times: attic-unroll-layer-loops unrolls at most 1 iterations (max-trip-count)
func.func @nested_repeated_steps(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %l = %c0 to %c2 step %c1 iter_args(%y = %x) -> (tensor<4xf32>) {
    %s = scf.for %i = %c0 to %c2 step %c1 iter_args(%h = %y) -> (tensor<4xf32>) {
      %m = arith.mulf %h, %h : tensor<4xf32>
      scf.yield %m : tensor<4xf32>
    } {attic.repeated_steps}
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @dynamic_layers(%x: tensor<1x2x8x4xf32>, %count: index) -> tensor<1x2x8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{loops over attic ops with a trip count that is not a compile-time constant: the GPU mapping needs it unrolled (attic-unroll-layer-loops)}}
  %r = scf.for %l = %c0 to %count step %c1 iter_args(%h = %x) -> (tensor<1x2x8x4xf32>) {
    %a = attic.attention %h, %h, %h : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
    scf.yield %a : tensor<1x2x8x4xf32>
  }
  return %r : tensor<1x2x8x4xf32>
}

// -----

// Loops that are not scf.for (the GPU pipelines reported allocations and
// tile grids that the user never wrote, on the loop's terminator).
func.func @while_layers(%x: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // expected-error @below {{'scf.while' op loops over attic ops: the GPU mapping needs such loops unrolled, and attic-unroll-layer-loops unrolls scf.for loops with constant bounds only; write the loop as one, or compile for the CPU}}
  %r:2 = scf.while (%i = %c0, %h = %x) : (index, tensor<1x2x8x4xf32>) -> (index, tensor<1x2x8x4xf32>) {
    %go = arith.cmpi ult, %i, %c3 : index
    scf.condition(%go) %i, %h : index, tensor<1x2x8x4xf32>
  } do {
  ^bb0(%j: index, %g: tensor<1x2x8x4xf32>):
    %a = attic.attention %g, %g, %g : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
    %n = arith.addi %j, %c1 : index
    scf.yield %n, %a : index, tensor<1x2x8x4xf32>
  }
  return %r#1 : tensor<1x2x8x4xf32>
}

// -----

// The same with the layer in a function the loop calls.
func.func private @one_layer(%g: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %a = attic.attention %g, %g, %g : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %a : tensor<1x2x8x4xf32>
}
func.func @while_calls_layers(%x: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // expected-error @below {{'scf.while' op loops over attic ops}}
  %r:2 = scf.while (%i = %c0, %h = %x) : (index, tensor<1x2x8x4xf32>) -> (index, tensor<1x2x8x4xf32>) {
    %go = arith.cmpi ult, %i, %c3 : index
    scf.condition(%go) %i, %h : index, tensor<1x2x8x4xf32>
  } do {
  ^bb0(%j: index, %g: tensor<1x2x8x4xf32>):
    %a = func.call @one_layer(%g) : (tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
    %n = arith.addi %j, %c1 : index
    scf.yield %n, %a : index, tensor<1x2x8x4xf32>
  }
  return %r#1 : tensor<1x2x8x4xf32>
}

// -----

// An scf.for that calls the layer is unrolled too (the pipelines inline
// the calls afterwards; it stayed a loop, and the offload failed on it).
// CHECK-LABEL: func.func @for_calls_layers
// CHECK-NOT: scf.for
// CHECK-COUNT-2: call @layer_fn
// CHECK-NOT: call @layer_fn
func.func private @layer_fn(%g: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %a = attic.attention %g, %g, %g : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %a : tensor<1x2x8x4xf32>
}
func.func @for_calls_layers(%x: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %l = %c0 to %c2 step %c1 iter_args(%h = %x) -> (tensor<1x2x8x4xf32>) {
    %a = func.call @layer_fn(%h) : (tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
    scf.yield %a : tensor<1x2x8x4xf32>
  }
  return %r : tensor<1x2x8x4xf32>
}

// -----

// One under an scf.for is found once the outer loop is unrolled.
func.func @forall_heads(%x: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r0 = scf.for %l = %c0 to %c1 step %c1 iter_args(%y = %x) -> (tensor<1x2x8x4xf32>) {
    %init = tensor.empty() : tensor<1x2x8x4xf32>
    // expected-error @below {{'scf.forall' op loops over attic ops}}
    %r = scf.forall (%h) in (2) shared_outs(%acc = %init) -> tensor<1x2x8x4xf32> {
      %s = tensor.extract_slice %y[0, %h, 0, 0] [1, 1, 8, 4] [1, 1, 1, 1] : tensor<1x2x8x4xf32> to tensor<1x1x8x4xf32>
      %o = attic.attention %s, %s, %s : tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x1x8x4xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %o into %acc[0, %h, 0, 0] [1, 1, 8, 4] [1, 1, 1, 1] : tensor<1x1x8x4xf32> into tensor<1x2x8x4xf32>
      }
    }
    scf.yield %r : tensor<1x2x8x4xf32>
  }
  return %r0 : tensor<1x2x8x4xf32>
}

// -----

// A loop over layers that runs no iteration (from 3 to 0): its results are
// its initial values (found by the MLIR fuzzer: the pass did not end).
// CHECK-LABEL: func.func @zero_layers
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x8x4xf32>)
// CHECK-NOT: scf.for
// CHECK-NOT: attic.attention
// CHECK: return %[[X]] : tensor<1x2x8x4xf32>
func.func @zero_layers(%x: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %l = %c3 to %c0 step %c1 iter_args(%h = %x) -> (tensor<1x2x8x4xf32>) {
    %a = attic.attention %h, %h, %h : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
    scf.yield %a : tensor<1x2x8x4xf32>
  }
  return %r : tensor<1x2x8x4xf32>
}

// -----

// A step of 0 never ends the loop (found by the MLIR fuzzer: the pass did
// not end either).
func.func @zero_step(%x: tensor<1x2x8x4xf32>, %count: index) -> tensor<1x2x8x4xf32> {
  %c0 = arith.constant 0 : index
  // expected-error @below {{loops over attic ops with a step of 0: the loop never ends (attic-unroll-layer-loops)}}
  %r = scf.for %l = %c0 to %count step %c0 iter_args(%h = %x) -> (tensor<1x2x8x4xf32>) {
    %a = attic.attention %h, %h, %h : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
    scf.yield %a : tensor<1x2x8x4xf32>
  }
  return %r : tensor<1x2x8x4xf32>
}

// -----

// An i8 loop from -64 to 64 runs 128 times, but its trip count in 8 bits
// wraps (upstream reads none, and the pass once deleted the loop and its
// attention ops, then refused it): counted in 128 bits and unrolled, the
// induction variable -64 to 63.
// CHECK-LABEL: func.func @layers_i8_wrap
// CHECK-NOT: scf.for
// CHECK-COUNT-128: attic.attention
// CHECK-NOT: attic.attention
// CHECK: return
func.func @layers_i8_wrap(%x: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %lo = arith.constant -64 : i8
  %hi = arith.constant 64 : i8
  %c1 = arith.constant 1 : i8
  %r = scf.for %l = %lo to %hi step %c1 iter_args(%h = %x) -> (tensor<1x2x8x4xf32>) : i8 {
    %a = attic.attention %h, %h, %h : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
    scf.yield %a : tensor<1x2x8x4xf32>
  }
  return %r : tensor<1x2x8x4xf32>
}

// -----

// An unsigned i8 loop of 200 iterations: 200 fits 8 bits unsigned.
// Upstream's loopUnrollFull reads the count as signed (-56); the pass used
// to refuse the loop for that, and now unrolls it itself.
// CHECK-LABEL: func.func @layers_u8
// CHECK-NOT: scf.for
// CHECK-COUNT-200: attic.attention
// CHECK-NOT: attic.attention
// CHECK: return
func.func @layers_u8(%x: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %lo = arith.constant 0 : i8
  %hi = arith.constant 200 : i8
  %c1 = arith.constant 1 : i8
  %r = scf.for unsigned %l = %lo to %hi step %c1 iter_args(%h = %x) -> (tensor<1x2x8x4xf32>) : i8 {
    %a = attic.attention %h, %h, %h : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
    scf.yield %a : tensor<1x2x8x4xf32>
  }
  return %r : tensor<1x2x8x4xf32>
}

// -----

// 127 iterations of an i8 loop fit: unrolled.
// CHECK-LABEL: func.func @layers_i8_127
// CHECK-NOT: scf.for
// CHECK-COUNT-127: attic.attention
// CHECK-NOT: attic.attention
// CHECK: return
func.func @layers_i8_127(%x: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %lo = arith.constant -63 : i8
  %hi = arith.constant 64 : i8
  %c1 = arith.constant 1 : i8
  %r = scf.for %l = %lo to %hi step %c1 iter_args(%h = %x) -> (tensor<1x2x8x4xf32>) : i8 {
    %a = attic.attention %h, %h, %h : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
    scf.yield %a : tensor<1x2x8x4xf32>
  }
  return %r : tensor<1x2x8x4xf32>
}

// -----

// An unsigned i8 loop from 0 to 130 in steps of 64: 0, 64, 128, three
// iterations whose bounds read as negative when signed (130 is -126).
// upstream's loopUnrollFull counted none and dropped the body (a
// 2026-11-30 audit); each copy gets its induction variable's value.
// CHECK-LABEL: func.func @layers_u8_bounds_negative_when_signed
// CHECK-NOT: scf.for
// CHECK: arith.constant 0 : i32
// CHECK-NEXT: %[[I0:.*]] = arith.constant 0 : i8
// CHECK-NEXT: %[[A:.*]] = attic.attention
// CHECK-NEXT: arith.extui %[[I0]]
// CHECK: %[[I1:.*]] = arith.constant 64 : i8
// CHECK-NEXT: %[[B:.*]] = attic.attention %[[A]]
// CHECK-NEXT: arith.extui %[[I1]]
// CHECK: %[[I2:.*]] = arith.constant -128 : i8
// CHECK-NEXT: %[[C:.*]] = attic.attention %[[B]]
// CHECK-NEXT: arith.extui %[[I2]]
// CHECK: return %[[C]]
func.func @layers_u8_bounds_negative_when_signed(%x: tensor<1x2x8x4xf32>) -> (tensor<1x2x8x4xf32>, i32) {
  %lo = arith.constant 0 : i8
  %hi = arith.constant -126 : i8
  %c64 = arith.constant 64 : i8
  %zero = arith.constant 0 : i32
  %r:2 = scf.for unsigned %l = %lo to %hi step %c64 iter_args(%h = %x, %s = %zero) -> (tensor<1x2x8x4xf32>, i32) : i8 {
    %a = attic.attention %h, %h, %h : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
    %e = arith.extui %l : i8 to i32
    %n = arith.addi %s, %e : i32
    scf.yield %a, %n : tensor<1x2x8x4xf32>, i32
  }
  return %r#0, %r#1 : tensor<1x2x8x4xf32>, i32
}

// -----

// An unsigned step of 150 in i8 (-106 when signed): one iteration, 0. The
// pass read the step as signed and called the loop endless (a 2026-11-30
// review); the pipelines refuse such a step before it (attic-check-scope:
// MLIR 22's canonicalizer would delete the loop).
// CHECK-LABEL: func.func @unsigned_step_past_the_signed_range
// CHECK-NOT: scf.for
// CHECK-COUNT-1: attic.attention
// CHECK-NOT: attic.attention
// CHECK: return
func.func @unsigned_step_past_the_signed_range(%x: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %lo = arith.constant 0 : i8
  %hi = arith.constant 100 : i8
  %st = arith.constant -106 : i8
  %r = scf.for unsigned %l = %lo to %hi step %st iter_args(%h = %x) -> (tensor<1x2x8x4xf32>) : i8 {
    %a = attic.attention %h, %h, %h : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
    scf.yield %a : tensor<1x2x8x4xf32>
  }
  return %r : tensor<1x2x8x4xf32>
}

// -----

// i128 bounds whose difference wraps 128 bits (-2^127 to 2^127 - 1 in
// steps of 2^126: four iterations): counted in a fixed 128 bits, the pass
// read none and deleted the attention ops (a 2026-12-02 audit).
// CHECK-LABEL: func.func @layers_i128_full_range
// CHECK-NOT: scf.for
// CHECK-COUNT-4: attic.attention
// CHECK-NOT: attic.attention
// CHECK: return
func.func @layers_i128_full_range(%x: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %lo = arith.constant -170141183460469231731687303715884105728 : i128
  %hi = arith.constant 170141183460469231731687303715884105727 : i128
  %st = arith.constant 85070591730234615865843651857942052864 : i128
  %r = scf.for %l = %lo to %hi step %st iter_args(%h = %x) -> (tensor<1x2x8x4xf32>) : i128 {
    %a = attic.attention %h, %h, %h : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
    scf.yield %a : tensor<1x2x8x4xf32>
  }
  return %r : tensor<1x2x8x4xf32>
}

// -----

// Unsigned i128 from 0 to 2^128 - 1 in steps of 2^126: four iterations
// (the upper bound read as -1 before).
// CHECK-LABEL: func.func @layers_u128
// CHECK-NOT: scf.for
// CHECK-COUNT-4: attic.attention
// CHECK-NOT: attic.attention
// CHECK: return
func.func @layers_u128(%x: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %lo = arith.constant 0 : i128
  %hi = arith.constant -1 : i128
  %st = arith.constant 85070591730234615865843651857942052864 : i128
  %r = scf.for unsigned %l = %lo to %hi step %st iter_args(%h = %x) -> (tensor<1x2x8x4xf32>) : i128 {
    %a = attic.attention %h, %h, %h : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
    scf.yield %a : tensor<1x2x8x4xf32>
  }
  return %r : tensor<1x2x8x4xf32>
}

// -----

// An i129 loop of 3 iterations: its constants were extended to 128 bits,
// which corrupted the heap (exit 70).
// CHECK-LABEL: func.func @layers_i129
// CHECK-NOT: scf.for
// CHECK-COUNT-3: attic.attention
// CHECK-NOT: attic.attention
// CHECK: return
func.func @layers_i129(%x: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %lo = arith.constant 0 : i129
  %hi = arith.constant 3 : i129
  %st = arith.constant 1 : i129
  %r = scf.for %l = %lo to %hi step %st iter_args(%h = %x) -> (tensor<1x2x8x4xf32>) : i129 {
    %a = attic.attention %h, %h, %h : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
    scf.yield %a : tensor<1x2x8x4xf32>
  }
  return %r : tensor<1x2x8x4xf32>
}

// -----

// A negative signed step is named as such (it printed as 2^64 - 1).
func.func @negative_step_i8(%x: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %lo = arith.constant 0 : i8
  %hi = arith.constant 3 : i8
  %st = arith.constant -1 : i8
  // expected-error @below {{loops over attic ops with a step of -1: the loop never ends (attic-unroll-layer-loops)}}
  %r = scf.for %l = %lo to %hi step %st iter_args(%h = %x) -> (tensor<1x2x8x4xf32>) : i8 {
    %a = attic.attention %h, %h, %h : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
    scf.yield %a : tensor<1x2x8x4xf32>
  }
  return %r : tensor<1x2x8x4xf32>
}

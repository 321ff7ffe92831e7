// Input of ../loops-unsigned.test: `scf.for unsigned` loops whose bounds
// read as negative when signed (i8 130 is -126): 0, 64, 128.

func.func @count_unsigned(%x: tensor<1xi32>) -> tensor<1xi32> {
  %lb = arith.constant 0 : i8
  %ub = arith.constant -126 : i8
  %st = arith.constant 64 : i8
  %r = scf.for unsigned %i = %lb to %ub step %st iter_args(%acc = %x) -> tensor<1xi32> : i8 {
    %wide = arith.extui %i : i8 to i32
    %plus = arith.addi %wide, %wide : i32
    %add = tensor.from_elements %plus : tensor<1xi32>
    %n = arith.addi %acc, %add : tensor<1xi32>
    scf.yield %n : tensor<1xi32>
  }
  return %r : tensor<1xi32>
}

!t = tensor<1x2x64x32xf32>
func.func @layers_unsigned(%q: !t, %k: !t) -> !t {
  %lb = arith.constant 0 : i8
  %ub = arith.constant -126 : i8
  %st = arith.constant 64 : i8
  %r = scf.for unsigned %i = %lb to %ub step %st iter_args(%acc = %q) -> !t : i8 {
    %o = attic.attention %acc, %k, %k causal : !t, !t, !t -> !t
    scf.yield %o : !t
  }
  return %r : !t
}

// A step of 150 in i8: one iteration unsigned, but -106 when signed.
func.func @step_past_the_signed_range(%q: !t, %k: !t) -> !t {
  %lb = arith.constant 0 : i8
  %ub = arith.constant 100 : i8
  %st = arith.constant -106 : i8
  %r = scf.for unsigned %i = %lb to %ub step %st iter_args(%acc = %q) -> !t : i8 {
    %o = attic.attention %acc, %k, %k causal : !t, !t, !t -> !t
    scf.yield %o : !t
  }
  return %r : !t
}

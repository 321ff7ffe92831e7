// The constructs of attic's tensor-level lowerings that --check
// interprets (test/Integration/check-lowered-ir.test): scalar loops inside
// a payload, bit casts, extended multiplies and scf.forall.

// Per row, a loop over the columns carrying a float (the maximum) and an
// integer (its column), with an scf.if inside: an argmax.
func.func @loop_in_payload(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %lowest = arith.constant 0xFF800000 : f32
  %none = arith.constant -1 : i64
  %e0 = tensor.empty() : tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%e0, %e1 : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%o0: f32, %o1: i64):
    %i = linalg.index 0 : index
    %m:2 = scf.for %j = %c0 to %c8 step %c1 iter_args(%best = %lowest, %at = %none) -> (f32, i64) {
      %v = tensor.extract %x[%i, %j] : tensor<4x8xf32>
      %gt = arith.cmpf ogt, %v, %best : f32
      %n:2 = scf.if %gt -> (f32, i64) {
        %jj = arith.index_cast %j : index to i64
        scf.yield %v, %jj : f32, i64
      } else {
        scf.yield %best, %at : f32, i64
      }
      scf.yield %n#0, %n#1 : f32, i64
    }
    linalg.yield %m#0, %m#1 : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi64>
}

// 2^-e for the exponent e of each |x| (clamped), from the float's bits:
// what attic-decompose's sketches build to scale by a power of two.
func.func @exponent_bits(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c23 = arith.constant 23 : i32
  %c1 = arith.constant 1 : i32
  %c253 = arith.constant 253 : i32
  %c254 = arith.constant 254 : i32
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = math.absf %in : f32
    %bits = arith.bitcast %a : f32 to i32
    %exp = arith.shrui %bits, %c23 : i32
    %lo = arith.maxsi %exp, %c1 : i32
    %cl = arith.minsi %lo, %c253 : i32
    %neg = arith.subi %c254, %cl : i32
    %sh = arith.shli %neg, %c23 : i32
    %f = arith.bitcast %sh : i32 to f32
    %y = arith.mulf %in, %f : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// f16 and f64 through their bits and back: the values unchanged, and the
// integers the bits (1.0 is 0x3C00 in f16).
func.func @bitcast_widths(%x: tensor<4xf16>, %y: tensor<4xf64>) -> (tensor<4xf16>, tensor<4xf64>, tensor<4xi32>) {
  %e0 = tensor.empty() : tensor<4xf16>
  %e1 = tensor.empty() : tensor<4xf64>
  %e2 = tensor.empty() : tensor<4xi32>
  %r:3 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<4xf16>, tensor<4xf64>) outs(%e0, %e1, %e2 : tensor<4xf16>, tensor<4xf64>, tensor<4xi32>) {
  ^bb0(%a: f16, %b: f64, %o0: f16, %o1: f64, %o2: i32):
    %ia = arith.bitcast %a : f16 to i16
    %fa = arith.bitcast %ia : i16 to f16
    %ib = arith.bitcast %b : f64 to i64
    %fb = arith.bitcast %ib : i64 to f64
    %wa = arith.extui %ia : i16 to i32
    linalg.yield %fa, %fb, %wa : f16, f64, i32
  } -> (tensor<4xf16>, tensor<4xf64>, tensor<4xi32>)
  return %r#0, %r#1, %r#2 : tensor<4xf16>, tensor<4xf64>, tensor<4xi32>
}

// The halves of 32- and 64-bit products, unsigned and signed, with
// operands whose products overflow (the Philox rounds' multiplies). The
// 64-bit halves are returned shifted right by 16 bits, so that --check
// can compare them (it refuses i64 results beyond 2^53).
func.func @extended_mul(%a: tensor<4xi32>, %b: tensor<4xi64>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) {
  %m32 = arith.constant -766435501 : i32
  %m64 = arith.constant -3372466712981458921 : i64
  %c16 = arith.constant 16 : i64
  %e32 = tensor.empty() : tensor<4xi32>
  %e64 = tensor.empty() : tensor<4xi64>
  %r:6 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<4xi32>, tensor<4xi64>) outs(%e32, %e32, %e32, %e64, %e64, %e64 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) {
  ^bb0(%x: i32, %y: i64, %o0: i32, %o1: i32, %o2: i32, %o3: i64, %o4: i64, %o5: i64):
    %ul, %uh = arith.mului_extended %x, %m32 : i32
    %sl, %sh = arith.mulsi_extended %x, %m32 : i32
    %wl, %wh = arith.mului_extended %y, %m64 : i64
    %vl, %vh = arith.mulsi_extended %y, %m64 : i64
    %wl16 = arith.shrui %wl, %c16 : i64
    %wh16 = arith.shrui %wh, %c16 : i64
    %vh16 = arith.shrui %vh, %c16 : i64
    linalg.yield %ul, %uh, %sh, %wl16, %wh16, %vh16 : i32, i32, i32, i64, i64, i64
  } -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>
}

// A 2-D scf.forall with a step of 2 in its second dimension: each
// iteration writes one 1x2 slice (a running sum along it) of a copy of x.
func.func @forall_slices(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %r = scf.forall (%i, %j) = (0, 0) to (3, 8) step (1, 2) shared_outs(%o = %x) -> (tensor<3x8xf32>) {
    %s = tensor.extract_slice %o[%i, %j] [1, 2] [1, 1] : tensor<3x8xf32> to tensor<2xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = tensor.extract %s[%c0] : tensor<2xf32>
    %b = tensor.extract %s[%c1] : tensor<2xf32>
    %sum = arith.addf %a, %b : f32
    %t = tensor.insert %sum into %s[%c1] : tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%i, %j] [1, 2] [1, 1] : tensor<2xf32> into tensor<3x8xf32>
    }
  }
  return %r : tensor<3x8xf32>
}

// A loop inside a payload that carries a tensor: refused by the reference
// (only scalar loops are interpreted there).
func.func @tensor_loop_in_payload(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%e : tensor<4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %t = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
      scf.yield %acc : tensor<4xf32>
    }
    %v = tensor.extract %t[%i] : tensor<4xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A payload loop of 5*10^7 iterations: the oracle's limit, not a hang.
func.func @long_loop_in_payload(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 50000000 : index
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = scf.for %j = %c0 to %big step %c1 iter_args(%acc = %in) -> (f32) {
      %n = arith.addf %acc, %in : f32
      scf.yield %n : f32
    }
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// Composite slice attention on small shapes, for attic-expand-cst with
// and without the pooled epilogue (16 tokens in slices of 4, 2 heads).
func.func @cst_small(%x: tensor<2x16x8xf32>, %w: tensor<8x8xf32>, %pl: tensor<12x8xf32>, %pg: tensor<4x8xf32>, %m: tensor<2x16xi1>) -> tensor<2x16x8xf32> {
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg) mask(%m : tensor<2x16xi1>)
      {slice = 4 : i64, extension = 3 : i64, heads = 2 : i64}
      : tensor<2x16x8xf32>, tensor<8x8xf32>, tensor<12x8xf32>, tensor<4x8xf32> -> tensor<2x16x8xf32>
  return %y : tensor<2x16x8xf32>
}

func.func @cst_small_causal(%x: tensor<1x16x8xf32>, %w: tensor<8x8xf32>, %pl: tensor<8x8xf32>, %pg: tensor<4x8xf32>) -> tensor<1x16x8xf32> {
  %y = attic.slice_attention %x weights(%w, %w, %w) positions(%pl, %pg)
      {slice = 4 : i64, extension = 3 : i64, heads = 2 : i64, causal}
      : tensor<1x16x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<4x8xf32> -> tensor<1x16x8xf32>
  return %y : tensor<1x16x8xf32>
}

// A payload loop of 8*10^6 iterations whose body has 17 ops: 3 steps an
// iteration (one per 8 ops), 2.4e7 in all, refused before it runs (one
// step an iteration before 2026-12-02: 1.9e9 ops ran in 3.5 minutes).
func.func @long_body_in_payload(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 8000000 : index
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%a0 = %in) -> (f32) {
      %a1 = arith.addf %a0, %in : f32
      %a2 = arith.addf %a1, %in : f32
      %a3 = arith.addf %a2, %in : f32
      %a4 = arith.addf %a3, %in : f32
      %a5 = arith.addf %a4, %in : f32
      %a6 = arith.addf %a5, %in : f32
      %a7 = arith.addf %a6, %in : f32
      %a8 = arith.addf %a7, %in : f32
      %a9 = arith.addf %a8, %in : f32
      %a10 = arith.addf %a9, %in : f32
      %a11 = arith.addf %a10, %in : f32
      %a12 = arith.addf %a11, %in : f32
      %a13 = arith.addf %a12, %in : f32
      %a14 = arith.addf %a13, %in : f32
      %a15 = arith.addf %a14, %in : f32
      %a16 = arith.addf %a15, %in : f32
      scf.yield %a16 : f32
    }
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// 100 points of tensor.generate (not counted before 2026-12-02).
func.func @generate_points() -> tensor<100xf32> {
  %r = tensor.generate {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    tensor.yield %f : f32
  } : tensor<100xf32>
  return %r : tensor<100xf32>
}

// A loop carrying a tensor of 2*10^5 elements for 2*10^5 iterations, each
// reading and writing one element: the reference moves the tensor from
// iteration to iteration (it copied it twice or three times an
// iteration: 20 s before 2026-12-02, 0.1 s after).
func.func @carried_tensor(%x: tensor<200000xf32>) -> tensor<200000xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 200000 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %x) -> (tensor<200000xf32>) {
    %v = tensor.extract %t[%i] : tensor<200000xf32>
    %w = arith.mulf %v, %v : f32
    %t2 = tensor.insert %w into %t[%i] : tensor<200000xf32>
    scf.yield %t2 : tensor<200000xf32>
  }
  return %r : tensor<200000xf32>
}

// NaN bits through arith.bitcast, on scalars in a payload and elementwise
// on tensors: a signaling NaN stays signaling (the reference quieted it
// before 2026-12-02), and f16 and bf16 keep their payloads too.
func.func @nan_bits(%x: tensor<8xi32>, %h: tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>, tensor<8xi32>) {
  %e = tensor.empty() : tensor<8xi32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x, %h : tensor<8xi32>, tensor<8xi32>) outs(%e, %e : tensor<8xi32>, tensor<8xi32>) {
  ^bb0(%a: i32, %b: i32, %o0: i32, %o1: i32):
    %f = arith.bitcast %a : i32 to f32
    %back = arith.bitcast %f : f32 to i32
    %b16 = arith.trunci %b : i32 to i16
    %half = arith.bitcast %b16 : i16 to f16
    %brain = arith.bitcast %b16 : i16 to bf16
    %hb = arith.bitcast %half : f16 to i16
    %bb = arith.bitcast %brain : bf16 to i16
    %both = arith.xori %hb, %bb : i16
    %w = arith.extui %both : i16 to i32
    %hw = arith.extui %hb : i16 to i32
    %sum = arith.addi %w, %hw : i32
    linalg.yield %back, %sum : i32, i32
  } -> (tensor<8xi32>, tensor<8xi32>)
  %tf = arith.bitcast %x : tensor<8xi32> to tensor<8xf32>
  %ti = arith.bitcast %tf : tensor<8xf32> to tensor<8xi32>
  return %r#0, %r#1, %ti : tensor<8xi32>, tensor<8xi32>, tensor<8xi32>
}

// An insert into an scf.forall's shared output inside its body: the
// shared outputs are bound once for all iterations, so the reference
// copies, never moves, them (each iteration sees x).
func.func @forall_insert_into_shared(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %v = arith.constant 5.0 : f32
  %r:2 = scf.forall (%i) in (4) shared_outs(%o = %x, %p = %x) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
    %t = tensor.insert %v into %o[%i, %c0] : tensor<4x8xf32>
    %s = tensor.extract_slice %t[%i, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %p[%i, 0] [1, 8] [1, 1] : tensor<8xf32> into tensor<4x8xf32>
    }
  }
  return %r#0, %r#1 : tensor<4x8xf32>, tensor<4x8xf32>
}

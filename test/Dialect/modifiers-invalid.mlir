// RUN: attic-opt %s --split-input-file --verify-diagnostics

func.func @mask_argument_count(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{'mask' region must have 4 arguments (b, h, q, k : index, then one argument per capture), got 3}}
  %0 = attic.attention %q, %k, %v mask_mod {
      ^bb0(%b: index, %h: index, %qi: index):
        %t = arith.constant true
        attic.yield %t : i1
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @mask_argument_type(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{'mask' region argument #2 (q) must be 'index', got 'i32'}}
  %0 = attic.attention %q, %k, %v mask_mod {
      ^bb0(%b: index, %h: index, %qi: i32, %ki: index):
        %t = arith.constant true
        attic.yield %t : i1
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @score_argument_type(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{'score' region argument #0 (score) must be 'f32', got 'f16'}}
  %0 = attic.attention %q, %k, %v score_mod {
      ^bb0(%x: f16, %b: index, %h: index, %qi: index, %ki: index):
        %y = arith.extf %x : f16 to f32
        attic.yield %y : f32
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @capture_argument_type(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %s: tensor<2xf32>) {
  // expected-error @+1 {{'score' region argument #5 must have the type of capture #0 ('tensor<2xf32>'), got 'tensor<4xf32>'}}
  %0 = attic.attention %q, %k, %v captures(%s : tensor<2xf32>) score_mod {
      ^bb0(%x: f32, %b: index, %h: index, %qi: index, %ki: index, %t: tensor<4xf32>):
        attic.yield %x : f32
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @mask_yields_float(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{'mask' region must yield one 'i1' (whether key k is visible to query q), got 'f32'}}
  %0 = attic.attention %q, %k, %v mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %f = arith.constant 1.0 : f32
        attic.yield %f : f32
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @score_yields_nothing(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{'score' region must yield one 'f32' (the new score), got nothing}}
  %0 = attic.attention %q, %k, %v score_mod {
      ^bb0(%x: f32, %b: index, %h: index, %qi: index, %ki: index):
        attic.yield
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @unsupported_op(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  %0 = attic.attention %q, %k, %v mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %true = arith.constant true
        // expected-error @+1 {{'scf.if' op is not admissible in a 'mask' region (arith and math ops on scalars, and tensor.extract or memref.load of a capture)}}
        %p = scf.if %true -> i1 {
          scf.yield %true : i1
        } else {
          scf.yield %true : i1
        }
        attic.yield %p : i1
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

// Of math, only the float functions every target and --check evaluate
// (math.ipowi failed on the CUDA targets with upstream's "failed to
// legalize", math.ctlz in the GPU simulator).
func.func @math_not_on_every_target(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  %0 = attic.attention %q, %k, %v score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
        %i = arith.index_cast %ki : index to i32
        %two = arith.constant 2 : i32
        // expected-error @+1 {{'math.ipowi' op is not admissible in a 'score' region: its math ops are the float functions every target and --check evaluate (absf, acos, acosh, asin, asinh, atan, atan2, atanh, cbrt, ceil, copysign, cos, cosh, erf, erfc, exp, exp2, expm1, floor, fma, log, log10, log1p, log2, powf, round, roundeven, rsqrt, sin, sinh, sqrt, tan, tanh, trunc); write the others with arith ops}}
        %p = math.ipowi %i, %two : i32
        %f = arith.sitofp %p : i32 to f32
        %r = arith.addf %s, %f : f32
        attic.yield %r : f32
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

// Of arith, the ops --check evaluates: remf, bitcast and the *_extended
// ops compiled and ran, and --check (or the GPU simulator) then failed.
func.func @arith_not_evaluated(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  %0 = attic.attention %q, %k, %v score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
        %two = arith.constant 2.0 : f32
        // expected-error @+1 {{'arith.remf' op is not admissible in a 'score' region: its arith ops are those every target and --check evaluate (all but remf, bitcast, addui_extended, mulsi_extended, mului_extended, scaling_extf and scaling_truncf)}}
        %r = arith.remf %s, %two : f32
        attic.yield %r : f32
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @arith_extended(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  %0 = attic.attention %q, %k, %v mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %i = arith.index_cast %ki : index to i32
        // expected-error @+1 {{'arith.mulsi_extended' op is not admissible in a 'mask' region}}
        %lo, %hi = arith.mulsi_extended %i, %i : i32
        %z = arith.constant 0 : i32
        %p = arith.cmpi sge, %lo, %z : i32
        attic.yield %p : i1
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @division_by_variable(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  %0 = attic.attention %q, %k, %v mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        // expected-error @+1 {{'arith.divsi' op in a 'mask' region must divide by a non-zero constant (an integer division by zero would trap)}}
        %x = arith.divsi %qi, %ki : index
        %p = arith.cmpi slt, %x, %ki : index
        attic.yield %p : i1
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

// A signed division by -1 traps for the smallest integer (a capture's
// value can be one); arith.divui by all ones cannot trap and is admitted.
func.func @division_by_minus_one(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  %0 = attic.attention %q, %k, %v mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %m1 = arith.constant -1 : index
        // expected-error @+1 {{'arith.remsi' op in a 'mask' region must not divide by -1 (the smallest integer divided by -1 would trap; negate with arith.subi instead)}}
        %x = arith.remsi %qi, %m1 : index
        %p = arith.cmpi slt, %x, %ki : index
        attic.yield %p : i1
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

// The region is its own name scope (since 2026-11-30): a value from above
// is an undeclared name there, as in a func.func body.
func.func @value_from_above(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %w: index) {
  %0 = attic.attention %q, %k, %v mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        // expected-error @+1 {{use of undeclared SSA value name}}
        %p = arith.cmpi slt, %qi, %w : index
        attic.yield %p : i1
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @vector_value(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  %0 = attic.attention %q, %k, %v mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        // expected-error @+1 {{'arith.constant' op in a 'mask' region must produce scalars (integers, index or floats), got 'vector<2xi1>'}}
        %c = arith.constant dense<true> : vector<2xi1>
        %t = arith.constant true
        attic.yield %t : i1
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @bad_capture_type(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %s: tensor<2xcomplex<f32>>) {
  // expected-error @+1 {{operand #3 must be variadic of ranked tensor or memref of signless integers, index, f16, bf16, f32 or f64, but got 'tensor<2xcomplex<f32>>'}}
  %0 = attic.attention %q, %k, %v captures(%s : tensor<2xcomplex<f32>>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

// An unsigned integer is not signless (arith works on signless integers).
func.func @unsigned_capture(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %s: tensor<64xui8>) {
  // expected-error @+1 {{operand #3 must be variadic of ranked tensor or memref of signless integers, index, f16, bf16, f32 or f64, but got 'tensor<64xui8>'}}
  %0 = attic.attention %q, %k, %v captures(%s : tensor<64xui8>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @function_on_tensors(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %init: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{mask_fn is the memref form of the 'mask' region: on tensors, write the region}}
  %r = attic.block_attention ins(%q, %k, %v : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>)
      outs(%init : tensor<1x2x64x16xf32>)
      {layout = #attic.dense, scale = 0.25 : f32, block_q = 32 : i64, block_k = 32 : i64, mask_fn = @m} -> tensor<1x2x64x16xf32>
  return %r : tensor<1x2x64x16xf32>
}

// -----

func.func @unknown_function(%q: memref<1x2x64x16xf32>, %k: memref<1x2x64x16xf32>, %v: memref<1x2x64x16xf32>, %o: memref<1x2x64x16xf32>) {
  // expected-error @+1 {{mask_fn @nowhere does not name a func.func with a body}}
  attic.block_attention ins(%q, %k, %v : memref<1x2x64x16xf32>, memref<1x2x64x16xf32>, memref<1x2x64x16xf32>)
      outs(%o : memref<1x2x64x16xf32>)
      {layout = #attic.dense, scale = 0.25 : f32, block_q = 32 : i64, block_k = 32 : i64, mask_fn = @nowhere}
  return
}

// -----

func.func private @wrong_signature(%b: index, %h: index, %q: index) -> i1 {
  %t = arith.constant true
  return %t : i1
}
func.func @function_signature(%q: memref<1x2x64x16xf32>, %k: memref<1x2x64x16xf32>, %v: memref<1x2x64x16xf32>, %o: memref<1x2x64x16xf32>) {
  // expected-error @+1 {{'mask' region must have 4 arguments (b, h, q, k : index, then one argument per capture), got 3}}
  attic.block_attention ins(%q, %k, %v : memref<1x2x64x16xf32>, memref<1x2x64x16xf32>, memref<1x2x64x16xf32>)
      outs(%o : memref<1x2x64x16xf32>)
      {layout = #attic.dense, scale = 0.25 : f32, block_q = 32 : i64, block_k = 32 : i64, mask_fn = @wrong_signature}
  return
}

// -----

// A use before any definition (a forward reference) that a definition
// inside a modifier region would have resolved (before the region was its
// own name scope, 2026-11-30; test/Integration/parse-error-memory.test has
// the same on a parse error): now the name is simply undeclared outside.
func.func @forward_reference_into_region(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{use of undeclared SSA value name}}
  %x = arith.index_cast %d : index to i64
  %o = attic.attention %q, %q, %q mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %d = arith.subi %qi, %ki : index
    %z = arith.constant 0 : index
    %p = arith.cmpi sge, %d, %z : index
    attic.yield %p : i1
  } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @mask_without_yield(%q: tensor<1x2x64x16xf32>) {
  // expected-error @+1 {{'attic.attention' op 'mask' region must end with attic.yield}}
  %0 = attic.attention %q, %q, %q mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %t = arith.constant true
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

// A tensor.extract whose source is not a capture argument: the only other
// tensor a region can name is a (forward-referenced) value defined in it.
func.func @extract_not_capture(%q: tensor<1x2x64x16xf32>) {
  %0 = attic.attention %q, %q, %q mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        // expected-error @+1 {{'tensor.extract' op in a 'mask' region may only read a capture (a block argument after the first 4)}}
        %x = tensor.extract %t[%ki] : tensor<2xi1>
        %t = arith.constant dense<true> : tensor<2xi1>
        attic.yield %x : i1
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

// tensor.dim of a capture reads its descriptor: the dimension must be a
// constant below the capture's rank (a head index as the dimension read
// past the descriptor of a rank-1 capture before).
func.func @dim_variable(%q: tensor<1x2x64x16xf32>, %c: tensor<4xf32>) {
  %0 = attic.attention %q, %q, %q captures(%c : tensor<4xf32>) mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index, %t: tensor<4xf32>):
        // expected-error @+1 {{'tensor.dim' op in a 'mask' region must read a constant dimension in [0, 1) of the capture (its rank)}}
        %n = tensor.dim %t, %h : tensor<4xf32>
        %p = arith.cmpi ult, %ki, %n : index
        attic.yield %p : i1
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @dim_out_of_range(%q: tensor<1x2x64x16xf32>, %c: tensor<?x4xf32>) {
  %0 = attic.attention %q, %q, %q captures(%c : tensor<?x4xf32>) score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %t: tensor<?x4xf32>):
        %two = arith.constant 2 : index
        // expected-error @+1 {{'tensor.dim' op in a 'score' region must read a constant dimension in [0, 2) of the capture (its rank)}}
        %n = tensor.dim %t, %two : tensor<?x4xf32>
        %i = arith.index_cast %n : index to i32
        %f = arith.sitofp %i : i32 to f32
        %r = arith.addf %s, %f : f32
        attic.yield %r : f32
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

// The regions in the wrong order: before, "expected ':'" at mask_mod.
func.func @regions_out_of_order(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  %0 = attic.attention %q, %k, %v score_mod {
      ^bb0(%x: f32, %b: index, %h: index, %qi: index, %ki: index):
        attic.yield %x : f32
      // expected-error @+1 {{'mask_mod' must come before 'score_mod', and at most once}}
      } mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %t = arith.constant true
        attic.yield %t : i1
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

func.func @two_masks(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  %0 = attic.attention %q, %k, %v mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %t = arith.constant true
        attic.yield %t : i1
      // expected-error @+1 {{'mask_mod' must come before 'score_mod', and at most once}}
      } mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %t = arith.constant true
        attic.yield %t : i1
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

// An always-true compare of a sitofp crashed MLIR 22's canonicalizer
// (segmentation fault on every target; a differential test, 2026-11-30).
func.func @always_true_compare(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) {
  %0 = attic.attention %q, %k, %v mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %i = arith.index_cast %qi : index to i64
        %x = arith.sitofp %i : i64 to f32
        %c2 = arith.constant 2.0 : f32
        // expected-error @+1 {{'arith.cmpf' op in a 'mask' region must not compare a sitofp or uitofp with the 'true' or 'false' predicate (MLIR 22's canonicalizer crashes on it): use arith.constant true or false}}
        %p = arith.cmpf true, %x, %c2 : f32
        attic.yield %p : i1
      } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return
}

// -----

// The capture check in front of the kernel cannot enumerate scores: a read
// index computed from the score is refused, also through other ops.
func.func @score_dependent_index(%q: tensor<1x1x8x4xf32>, %k: tensor<1x1x8x4xf32>, %v: tensor<1x1x8x4xf32>, %t: tensor<4xf32>) {
  %0 = attic.attention %q, %k, %v captures(%t : tensor<4xf32>) score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %tt: tensor<4xf32>):
        %c100 = arith.constant 100.0 : f32
        %x = arith.mulf %s, %c100 : f32
        %i = arith.fptosi %x : f32 to i64
        %ix = arith.index_cast %i : i64 to index
        // expected-error @+1 {{'tensor.extract' op in a 'score' region must not read a capture at an index computed from the score (argument #0)}}
        %e = tensor.extract %tt[%ix] : tensor<4xf32>
        %r = arith.addf %s, %e : f32
        attic.yield %r : f32
      } : tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x1x8x4xf32>
  return
}

// -----

func.func @score_selected_index(%q: tensor<1x1x8x4xf32>, %k: tensor<1x1x8x4xf32>, %v: tensor<1x1x8x4xf32>, %t: tensor<4xf32>) {
  %0 = attic.attention %q, %k, %v captures(%t : tensor<4xf32>) score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %tt: tensor<4xf32>):
        %zero = arith.constant 0.0 : f32
        %c1 = arith.constant 1 : index
        %c100 = arith.constant 100 : index
        %isz = arith.cmpf oeq, %s, %zero : f32
        %ix = arith.select %isz, %c100, %c1 : index
        // expected-error @+1 {{must not read a capture at an index computed from the score}}
        %e = tensor.extract %tt[%ix] : tensor<4xf32>
        attic.yield %e : f32
      } : tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x1x8x4xf32>
  return
}

// -----

// A tensor.insert of the score into a capture is refused as such (it was
// reported as the read after it, "at an index computed from the score",
// though the index was %h; an audit).
func.func @score_inserted(%q: tensor<1x1x8x4xf32>, %k: tensor<1x1x8x4xf32>, %v: tensor<1x1x8x4xf32>, %t: tensor<4xf32>) {
  %0 = attic.attention %q, %k, %v captures(%t : tensor<4xf32>) score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %tt: tensor<4xf32>):
        // expected-error @+1 {{'tensor.insert' op is not admissible in a 'score' region (arith and math ops on scalars, and tensor.extract or memref.load of a capture)}}
        %i = tensor.insert %s into %tt[%h] : tensor<4xf32>
        %e = tensor.extract %i[%h] : tensor<4xf32>
        attic.yield %e : f32
      } : tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x1x8x4xf32>
  return
}

// -----

// The outlined (memref) form is checked for score-dependent reads too.
func.func private @score_fn(%x: f32, %b: index, %h: index, %q: index, %k: index, %s: memref<4xf32>) -> f32 {
  %c100 = arith.constant 100.0 : f32
  %y = arith.mulf %x, %c100 : f32
  %i = arith.fptosi %y : f32 to i64
  %ix = arith.index_cast %i : i64 to index
  // expected-error @+1 {{'memref.load' op in a 'score' region must not read a capture at an index computed from the score (argument #0)}}
  %t = memref.load %s[%ix] : memref<4xf32>
  %r = arith.addf %x, %t : f32
  return %r : f32
}
func.func @score_fn_reads_by_score(%q: memref<1x4x64x16xf32>, %k: memref<1x4x64x16xf32>, %v: memref<1x4x64x16xf32>, %s: memref<4xf32>, %o: memref<1x4x64x16xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x4x64x16xf32>, memref<1x4x64x16xf32>, memref<1x4x64x16xf32>)
      captures(%s : memref<4xf32>) outs(%o : memref<1x4x64x16xf32>)
      {layout = #attic.dense, scale = 0.25 : f32, block_q = 32 : i64, block_k = 32 : i64, score_fn = @score_fn}
  return
}

// -----

// A call in an outlined modifier: the tile loop inlines the function's
// ops, and the call made invalid IR there.
func.func private @helper(%x: f32, %s: memref<4xf32>) -> f32 {
  return %x : f32
}
func.func private @score_calls(%x: f32, %b: index, %h: index, %q: index, %k: index, %s: memref<4xf32>) -> f32 {
  // expected-error @+1 {{'func.call' op is not admissible in a 'score' modifier: its ops are evaluated inline, so they must be written out (arith and math ops, capture reads)}}
  %r = func.call @helper(%x, %s) : (f32, memref<4xf32>) -> f32
  return %r : f32
}
func.func @score_fn_calls(%q: memref<1x4x64x16xf32>, %k: memref<1x4x64x16xf32>, %v: memref<1x4x64x16xf32>, %s: memref<4xf32>, %o: memref<1x4x64x16xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x4x64x16xf32>, memref<1x4x64x16xf32>, memref<1x4x64x16xf32>)
      captures(%s : memref<4xf32>) outs(%o : memref<1x4x64x16xf32>)
      {layout = #attic.dense, scale = 0.25 : f32, block_q = 32 : i64, block_k = 32 : i64, score_fn = @score_calls}
  return
}

// -----

// The memref form's function attributes on the tensor form were ignored.
func.func @score_fn_on_attention(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.attention' op takes its modifiers as regions (mask_mod, score_mod); 'score_fn' names a function only on attic.block_attention}}
  %o = attic.attention %q, %q, %q {score_fn = @f} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// Functions on which attic-run --check's oracle (lib/Reference/Evaluator.cpp)
// once disagreed with correct compiled code, or crashed or hung; see
// check-semantics.test.

// Integers wrap at their type's width: 100 + 100 in i8 is -56, and
// INT32_MAX + 1 is INT32_MIN.
func.func @wrap_i8(%a: tensor<4xi8>) -> tensor<4xi8> {
  %c = arith.constant dense<100> : tensor<4xi8>
  %r = arith.addi %c, %c : tensor<4xi8>
  return %r : tensor<4xi8>
}
func.func @wrap_i32(%a: tensor<4xi32>) -> tensor<4xi32> {
  %c = arith.constant dense<2147483647> : tensor<4xi32>
  %one = arith.constant dense<1> : tensor<4xi32>
  %r = arith.addi %c, %one : tensor<4xi32>
  return %r : tensor<4xi32>
}

// The unsigned ops read the bits: an i8 -1 is 255 to extui and uitofp, and
// an i32 -2 is 4294967294 to divui; an i1 true is -1 to a signed compare.
func.func @unsigned_ops(%a: tensor<4xi8>) -> (tensor<4xi32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>) {
  %c = arith.constant dense<-1> : tensor<4xi8>
  %e = arith.extui %c : tensor<4xi8> to tensor<4xi32>
  %f = arith.uitofp %c : tensor<4xi8> to tensor<4xf32>
  %m2 = arith.constant dense<-2> : tensor<4xi32>
  %two = arith.constant dense<2> : tensor<4xi32>
  %d = arith.divui %m2, %two : tensor<4xi32>
  %t = arith.constant dense<true> : tensor<4xi1>
  %z = arith.constant dense<false> : tensor<4xi1>
  %lt = arith.cmpi slt, %t, %z : tensor<4xi1>
  return %e, %f, %d, %lt : tensor<4xi32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>
}

// truncf rounds: through f16 and bf16 and back, the tolerance of an f32
// result (1e-5) is far below the rounding (2^-11, 2^-8).
func.func @round_f16(%a: tensor<64xf32>) -> tensor<64xf32> {
  %h = arith.truncf %a : tensor<64xf32> to tensor<64xf16>
  %r = arith.extf %h : tensor<64xf16> to tensor<64xf32>
  return %r : tensor<64xf32>
}
func.func @round_bf16(%a: tensor<64xf32>) -> tensor<64xf32> {
  %h = arith.truncf %a : tensor<64xf32> to tensor<64xbf16>
  %r = arith.extf %h : tensor<64xbf16> to tensor<64xf32>
  return %r : tensor<64xf32>
}

// minimumf(+0, -0) is -0 and maximumf(-0, +0) is +0.
func.func @signed_zeros(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %z = arith.constant dense<0.0> : tensor<2xf32>
  %n = arith.negf %z : tensor<2xf32>
  %min = arith.minimumf %z, %n : tensor<2xf32>
  %max = arith.maximumf %n, %z : tensor<2xf32>
  %one = arith.constant dense<1.0> : tensor<2xf32>
  %a = math.copysign %one, %min : tensor<2xf32>
  %b = math.copysign %one, %max : tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}

// A function calling itself: rec(t, 1) = rec(2t, 0) + t = 3t (the inner
// activation overwrote the outer's %t: 4t).
func.func private @rec(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %is0 -> tensor<4xf32> {
    scf.yield %t : tensor<4xf32>
  } else {
    %c1 = arith.constant 1 : index
    %m = arith.subi %n, %c1 : index
    %t2 = arith.addf %t, %t : tensor<4xf32>
    %a = func.call @rec(%t2, %m) : (tensor<4xf32>, index) -> tensor<4xf32>
    %s = arith.addf %a, %t : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
func.func @recursion(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c1 = arith.constant 1 : index
  %r = func.call @rec(%x, %c1) : (tensor<4xf32>, index) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A dynamic destination: the slice's result takes its shape from the
// values (the oracle took it from the type and aborted).
func.func @dynamic_insert(%x: tensor<?xf32>, %y: tensor<2xf32>) -> tensor<?xf32> {
  %r = tensor.insert_slice %y into %x[1] [2] [1] : tensor<2xf32> into tensor<?xf32>
  return %r : tensor<?xf32>
}

// 10^12 empty iterations: compiled code deletes the loop; the oracle stops
// at its limit with an error (it ran for hours).
func.func @long_loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 1000000000000 : index
  %r = scf.for %i = %c0 to %big step %c1 iter_args(%a = %x) -> tensor<4xf32> {
    scf.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// A linalg input from tensor.empty has no defined values (the oracle read
// past an empty vector).
func.func @empty_input(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%e : tensor<4xf32>) outs(%x : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// Scalars back into tensors: tensor.from_elements (rounded to f16 where
// the scalars are) and tensor.insert into an input and into a constant.
func.func @scalars_to_tensors(%x: tensor<4xf32>) -> (tensor<2x2xf16>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %a = tensor.extract %x[%c0] : tensor<4xf32>
  %b = tensor.extract %x[%c3] : tensor<4xf32>
  %s = arith.addf %a, %b : f32
  %h = arith.truncf %s : f32 to f16
  %ha = arith.truncf %a : f32 to f16
  %one = arith.constant 1.0 : f16
  %m = tensor.from_elements %h, %ha, %one, %h : tensor<2x2xf16>
  %y = tensor.insert %s into %x[%c0] : tensor<4xf32>
  %z = tensor.insert %a into %y[%c3] : tensor<4xf32>
  return %m, %z : tensor<2x2xf16>, tensor<4xf32>
}

// Captures of a modifier region in a function of many values: the
// oracle's map of values grew while the attention held references into
// it (a DenseMap; --check segfaulted with these 41 constants).
func.func @captures_many_values(%q: tensor<1x1x32x16xf32>, %k: tensor<1x1x32x16xf32>, %v: tensor<1x1x32x16xf32>, %c0: tensor<4xf32>, %c1: tensor<4xf32>) -> tensor<1x1x32x16xf32> {
  %p0 = arith.constant dense<0.0> : tensor<2xf32>
  %p1 = arith.constant dense<1.0> : tensor<2xf32>
  %p2 = arith.constant dense<2.0> : tensor<2xf32>
  %p3 = arith.constant dense<3.0> : tensor<2xf32>
  %p4 = arith.constant dense<4.0> : tensor<2xf32>
  %p5 = arith.constant dense<5.0> : tensor<2xf32>
  %p6 = arith.constant dense<6.0> : tensor<2xf32>
  %p7 = arith.constant dense<7.0> : tensor<2xf32>
  %p8 = arith.constant dense<8.0> : tensor<2xf32>
  %p9 = arith.constant dense<9.0> : tensor<2xf32>
  %p10 = arith.constant dense<10.0> : tensor<2xf32>
  %p11 = arith.constant dense<11.0> : tensor<2xf32>
  %p12 = arith.constant dense<12.0> : tensor<2xf32>
  %p13 = arith.constant dense<13.0> : tensor<2xf32>
  %p14 = arith.constant dense<14.0> : tensor<2xf32>
  %p15 = arith.constant dense<15.0> : tensor<2xf32>
  %p16 = arith.constant dense<16.0> : tensor<2xf32>
  %p17 = arith.constant dense<17.0> : tensor<2xf32>
  %p18 = arith.constant dense<18.0> : tensor<2xf32>
  %p19 = arith.constant dense<19.0> : tensor<2xf32>
  %p20 = arith.constant dense<20.0> : tensor<2xf32>
  %p21 = arith.constant dense<21.0> : tensor<2xf32>
  %p22 = arith.constant dense<22.0> : tensor<2xf32>
  %p23 = arith.constant dense<23.0> : tensor<2xf32>
  %p24 = arith.constant dense<24.0> : tensor<2xf32>
  %p25 = arith.constant dense<25.0> : tensor<2xf32>
  %p26 = arith.constant dense<26.0> : tensor<2xf32>
  %p27 = arith.constant dense<27.0> : tensor<2xf32>
  %p28 = arith.constant dense<28.0> : tensor<2xf32>
  %p29 = arith.constant dense<29.0> : tensor<2xf32>
  %p30 = arith.constant dense<30.0> : tensor<2xf32>
  %p31 = arith.constant dense<31.0> : tensor<2xf32>
  %p32 = arith.constant dense<32.0> : tensor<2xf32>
  %p33 = arith.constant dense<33.0> : tensor<2xf32>
  %p34 = arith.constant dense<34.0> : tensor<2xf32>
  %p35 = arith.constant dense<35.0> : tensor<2xf32>
  %p36 = arith.constant dense<36.0> : tensor<2xf32>
  %p37 = arith.constant dense<37.0> : tensor<2xf32>
  %p38 = arith.constant dense<38.0> : tensor<2xf32>
  %p39 = arith.constant dense<39.0> : tensor<2xf32>
  %p40 = arith.constant dense<40.0> : tensor<2xf32>
  %o = attic.attention %q, %k, %v captures(%c0, %c1 : tensor<4xf32>, tensor<4xf32>) score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %t0: tensor<4xf32>, %t1: tensor<4xf32>):
        %z = arith.constant 1 : index
        %e = tensor.extract %t1[%z] : tensor<4xf32>
        %a = arith.addf %s, %e : f32
        attic.yield %a : f32
      } : tensor<1x1x32x16xf32>, tensor<1x1x32x16xf32>, tensor<1x1x32x16xf32> -> tensor<1x1x32x16xf32>
  return %o : tensor<1x1x32x16xf32>
}

// Shifts in a mask region (2026-11-30: --check had no reference for them):
// keys whose bit 2 is clear, ((k << 61) >>s 63) == 0 (bit 2 of k, sign-
// extended), and (-1 >>u 60) = 15 >= k mod 16.
func.func @shifts(%q: tensor<1x1x64x16xf32>, %k: tensor<1x1x64x16xf32>, %v: tensor<1x1x64x16xf32>) -> tensor<1x1x64x16xf32> {
  %o = attic.attention %q, %k, %v mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %k64 = arith.index_cast %ki : index to i64
    %c61 = arith.constant 61 : i64
    %c63 = arith.constant 63 : i64
    %c60 = arith.constant 60 : i64
    %m1 = arith.constant -1 : i64
    %z = arith.constant 0 : i64
    %l = arith.shli %k64, %c61 : i64
    %s = arith.shrsi %l, %c63 : i64
    %bit = arith.cmpi eq, %s, %z : i64
    %fifteen = arith.shrui %m1, %c60 : i64
    %c16 = arith.constant 16 : i64
    %r = arith.remui %k64, %c16 : i64
    %le = arith.cmpi ule, %r, %fifteen : i64
    %p = arith.andi %bit, %le : i1
    attic.yield %p : i1
  } : tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32> -> tensor<1x1x64x16xf32>
  return %o : tensor<1x1x64x16xf32>
}

// A shift by the bit width is poison upstream, but defined in a modifier
// region (0 for shli, docs/patterns.md, since 2026-12-02): every key is
// visible, on the targets and in the oracle.
func.func @shift_too_far(%q: tensor<1x1x8x16xf32>, %k: tensor<1x1x8x16xf32>, %v: tensor<1x1x8x16xf32>) -> tensor<1x1x8x16xf32> {
  %o = attic.attention %q, %k, %v mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c64 = arith.constant 64 : index
    %s = arith.shli %ki, %c64 : index
    %z = arith.constant 0 : index
    %p = arith.cmpi eq, %s, %z : index
    attic.yield %p : i1
  } : tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32> -> tensor<1x1x8x16xf32>
  return %o : tensor<1x1x8x16xf32>
}

// A score region's f32 ops round to f32 in the oracle too: (s + 1e8) - 1e8
// is 0 in f32 (uniform weights), where the oracle kept s in double and
// --check failed on all three targets (2026-11-30).
func.func @region_rounds_f32(%q: tensor<1x1x8x4xf32>, %k: tensor<1x1x8x4xf32>, %v: tensor<1x1x8x4xf32>) -> tensor<1x1x8x4xf32> {
  %o = attic.attention %q, %k, %v score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
    %big = arith.constant 1.0e+08 : f32
    %x = arith.addf %s, %big : f32
    %r = arith.subf %x, %big : f32
    attic.yield %r : f32
  } : tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x1x8x4xf32>
  return %o : tensor<1x1x8x4xf32>
}

// Outside a region a shift by the bit width stays poison: the oracle says
// so instead of guessing.
func.func @shift_too_far_outside(%x: tensor<4xi64>) -> tensor<4xi64> {
  %c64 = arith.constant dense<64> : tensor<4xi64>
  %s = arith.shli %x, %c64 : tensor<4xi64>
  return %s : tensor<4xi64>
}

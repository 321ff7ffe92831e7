// Ops that are undefined upstream for some operands, defined in modifier
// regions (docs/patterns.md; test/Integration/modifiers-undefined-ops.test).
// Each mask keeps key k where the op on table[k] gives expected[k]: with
// zero queries and keys, the result is the mean of the visible rows of V,
// the 8 x 8 identity: 1/8 everywhere where every key matches.

// fptosi f32 -> i8 saturates, NaN is 0.
func.func @fptosi_i8(%q: tensor<1x1x1x8xf32>, %k: tensor<1x1x8x8xf32>, %v: tensor<1x1x8x8xf32>) -> tensor<1x1x1x8xf32> {
  %t = arith.constant dense<[3.0e9, -3.0e9, 0x7FC00000, 0x7F800000, 0xFF800000, 127.9, -128.5, 100.7]> : tensor<8xf32>
  %e = arith.constant dense<[127, -128, 0, 127, -128, 127, -128, 100]> : tensor<8xi8>
  %o = attic.attention %q, %k, %v captures(%t, %e : tensor<8xf32>, tensor<8xi8>) mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index, %tt: tensor<8xf32>, %ee: tensor<8xi8>):
    %x = tensor.extract %tt[%ki] : tensor<8xf32>
    %want = tensor.extract %ee[%ki] : tensor<8xi8>
    %i = arith.fptosi %x : f32 to i8
    %p = arith.cmpi eq, %i, %want : i8
    attic.yield %p : i1
  } : tensor<1x1x1x8xf32>, tensor<1x1x8x8xf32>, tensor<1x1x8x8xf32> -> tensor<1x1x1x8xf32>
  return %o : tensor<1x1x1x8xf32>
}

// fptosi f32 -> i32 (3e9 was INT_MIN on the CPU, INT_MAX in the simulator).
func.func @fptosi_i32(%q: tensor<1x1x1x8xf32>, %k: tensor<1x1x8x8xf32>, %v: tensor<1x1x8x8xf32>) -> tensor<1x1x1x8xf32> {
  %t = arith.constant dense<[3.0e9, -3.0e9, 0x7FC00000, 0x7F800000, 0xFF800000, 2147483520.0, -2147483648.0, -7.9]> : tensor<8xf32>
  %e = arith.constant dense<[2147483647, -2147483648, 0, 2147483647, -2147483648, 2147483520, -2147483648, -7]> : tensor<8xi32>
  %o = attic.attention %q, %k, %v captures(%t, %e : tensor<8xf32>, tensor<8xi32>) mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index, %tt: tensor<8xf32>, %ee: tensor<8xi32>):
    %x = tensor.extract %tt[%ki] : tensor<8xf32>
    %want = tensor.extract %ee[%ki] : tensor<8xi32>
    %i = arith.fptosi %x : f32 to i32
    %p = arith.cmpi eq, %i, %want : i32
    attic.yield %p : i1
  } : tensor<1x1x1x8xf32>, tensor<1x1x8x8xf32>, tensor<1x1x8x8xf32> -> tensor<1x1x1x8xf32>
  return %o : tensor<1x1x1x8xf32>
}

// fptoui f16 -> i8 saturates to [0, 255] (255 is -1 in i8), NaN is 0,
// -0.5 truncates to 0.
func.func @fptoui_f16_i8(%q: tensor<1x1x1x8xf32>, %k: tensor<1x1x8x8xf32>, %v: tensor<1x1x8x8xf32>) -> tensor<1x1x1x8xf32> {
  %t = arith.constant dense<[300.0, -5.0, 0x7E00, 0x7C00, 0xFC00, -0.5, 255.9, 3.2]> : tensor<8xf16>
  %e = arith.constant dense<[-1, 0, 0, -1, 0, 0, -1, 3]> : tensor<8xi8>
  %o = attic.attention %q, %k, %v captures(%t, %e : tensor<8xf16>, tensor<8xi8>) mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index, %tt: tensor<8xf16>, %ee: tensor<8xi8>):
    %x = tensor.extract %tt[%ki] : tensor<8xf16>
    %want = tensor.extract %ee[%ki] : tensor<8xi8>
    %i = arith.fptoui %x : f16 to i8
    %p = arith.cmpi eq, %i, %want : i8
    attic.yield %p : i1
  } : tensor<1x1x1x8xf32>, tensor<1x1x8x8xf32>, tensor<1x1x8x8xf32> -> tensor<1x1x1x8xf32>
  return %o : tensor<1x1x1x8xf32>
}

// Shifts of i8 by amounts [0, 7, 8, 9, 200, 255, 3, 1] (read unsigned):
// 5 << a, -64 >> a (signed) and 192 >> a (unsigned).
func.func @shifts_i8(%q: tensor<1x1x1x8xf32>, %k: tensor<1x1x8x8xf32>, %v: tensor<1x1x8x8xf32>) -> tensor<1x1x1x8xf32> {
  %t = arith.constant dense<[0, 7, 8, 9, -56, -1, 3, 1]> : tensor<8xi8>
  %e = arith.constant dense<[5, -128, 0, 0, 0, 0, 40, 10, -64, -1, -1, -1, -1, -1, -8, -32, -64, 1, 0, 0, 0, 0, 24, 96]> : tensor<24xi8>
  %o = attic.attention %q, %k, %v captures(%t, %e : tensor<8xi8>, tensor<24xi8>) mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index, %tt: tensor<8xi8>, %ee: tensor<24xi8>):
    %a = tensor.extract %tt[%ki] : tensor<8xi8>
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %k8 = arith.addi %ki, %c8 : index
    %k16 = arith.addi %ki, %c16 : index
    %w0 = tensor.extract %ee[%ki] : tensor<24xi8>
    %w1 = tensor.extract %ee[%k8] : tensor<24xi8>
    %w2 = tensor.extract %ee[%k16] : tensor<24xi8>
    %five = arith.constant 5 : i8
    %m64 = arith.constant -64 : i8
    %l = arith.shli %five, %a : i8
    %rs = arith.shrsi %m64, %a : i8
    %ru = arith.shrui %m64, %a : i8
    %p0 = arith.cmpi eq, %l, %w0 : i8
    %p1 = arith.cmpi eq, %rs, %w1 : i8
    %p2 = arith.cmpi eq, %ru, %w2 : i8
    %p01 = arith.andi %p0, %p1 : i1
    %p = arith.andi %p01, %p2 : i1
    attic.yield %p : i1
  } : tensor<1x1x1x8xf32>, tensor<1x1x8x8xf32>, tensor<1x1x8x8xf32> -> tensor<1x1x1x8xf32>
  return %o : tensor<1x1x1x8xf32>
}

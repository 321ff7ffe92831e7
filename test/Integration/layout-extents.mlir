// Layout parameters at their bound, 2^40 = 1099511627776 (a larger one is
// a verifier error, test/Dialect/layouts-invalid.mlir): a window, dilation,
// stride, block or token that far out must classify like "unbounded" or
// "absent", with no overflow in the compile-time or run-time index sums.
// Before the bound, window and dilated widths near 2^63 and a global token
// at 2^63 - 1 overflowed and the attention returned zeros with exit 0.
//
// RUN: attic-run %s --entry=window_wide --check | FileCheck %s
// RUN: attic-run %s --entry=window_wide --check --target=cuda-emulated | FileCheck %s
// RUN: attic-run %s --entry=dilated_wide --check --block-q=8 --block-k=8 | FileCheck %s
// RUN: attic-run %s --entry=dilated_wide --check --target=cuda-emulated | FileCheck %s
// RUN: attic-run %s --entry=far_parameters --check --block-q=16 --block-k=8 | FileCheck %s
// RUN: attic-run %s --entry=far_parameters --check --target=cuda-emulated | FileCheck %s
// RUN: attic-run %s --entry=lists_wide --check | FileCheck %s --check-prefix=LISTS
// RUN: attic-run %s --entry=lists_wide --check --target=cuda-emulated | FileCheck %s --check-prefix=LISTS
//
// CHECK: check: result #0 {{.*}}non_finite=0 {{.*}}: ok
// CHECK-NOT: FAILED
// LISTS-COUNT-4: check: result #{{[0-3]}} ({{.*}} i32): max_abs_err=0.00e+00 {{.*}}: ok
// LISTS-NOT: FAILED

// Every key visible, in either alignment: the same as no layout.
func.func @window_wide(%q: tensor<1x2x48x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) -> tensor<1x2x48x16xf32> {
  %o = attic.attention %q, %k, %v layout(#attic.intersect<[#attic.window<left = 1099511627776, right = 1099511627776>, #attic.window<left = 1099511627776, right = 1099511627776, align = bottom_right>]>) block_sizes [16, 16]
      : tensor<1x2x48x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x48x16xf32>
  return %o : tensor<1x2x48x16xf32>
}

// A dilation of 2^40: only the diagonal (d = 0) inside the widths, here
// together with the causal rule; the wide window on the right is the
// causal band's complement, so the union sees every key at or before the
// query and the diagonal.
func.func @dilated_wide(%q: tensor<1x1x40x16xf32>, %k: tensor<1x1x40x16xf32>, %v: tensor<1x1x40x16xf32>) -> tensor<1x1x40x16xf32> {
  %o = attic.attention %q, %k, %v layout(#attic.union<[#attic.dilated<left = 1099511627776, right = 1099511627776, dilation = 1099511627776>, #attic.window<left = 1099511627776, right = 0>]>)
      : tensor<1x1x40x16xf32>, tensor<1x1x40x16xf32>, tensor<1x1x40x16xf32> -> tensor<1x1x40x16xf32>
  return %o : tensor<1x1x40x16xf32>
}

// A stride, a fixed block, a sinks count, a random block, a blocked size
// and a block-diagonal tile of 2^40, and a global token at 2^40 (past the
// sequence: absent), each beside a window of 3 that keeps the union sparse.
func.func @far_parameters(%q: tensor<1x2x40x16xf32>, %k: tensor<1x2x40x16xf32>, %v: tensor<1x2x40x16xf32>) -> tensor<1x2x40x16xf32> {
  %o = attic.attention %q, %k, %v layout(#attic.intersect<[
        #attic.union<[#attic.window<left = 3, right = 3>, #attic.global<tokens = [5, 1099511627776]>]>,
        #attic.strided<stride = 1099511627776>,
        #attic.fixed<block = 1099511627776, summary = 0>,
        #attic.union<[#attic.window<left = 2, right = 2>, #attic.sinks<count = 1099511627776>]>,
        #attic.union<[#attic.window<left = 1, right = 1>, #attic.random<block = 1099511627776, count = 1, seed = 3>]>,
        #attic.blocked<size = 1099511627776, layout = #attic.causal>,
        #attic.block_diagonal<query = 1099511627776, key = 1099511627776>]>)
      : tensor<1x2x40x16xf32>, tensor<1x2x40x16xf32>, tensor<1x2x40x16xf32> -> tensor<1x2x40x16xf32>
  return %o : tensor<1x2x40x16xf32>
}

// The run-time classification of the widest window and dilation.
func.func @lists_wide() -> (tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>) {
  %n = arith.constant 64 : index
  %e3 = tensor.empty() : tensor<1x1x4xi32>
  %e4 = tensor.empty() : tensor<1x1x4x4xi32>
  %r:4 = attic.block_mask
      layout(#attic.union<[#attic.window<left = 1099511627776, right = 0, align = bottom_right>, #attic.dilated<left = 1099511627776, right = 1099511627776, dilation = 1099511627776>]>)
      sizes(%n, %n)
      outs(%e3, %e4, %e3, %e4 : tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>)
      {block_q = 16 : i64, block_k = 16 : i64}
      -> tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>
  return %r#0, %r#1, %r#2, %r#3 : tensor<1x1x4xi32>, tensor<1x1x4x4xi32>, tensor<1x1x4xi32>, tensor<1x1x4x4xi32>
}

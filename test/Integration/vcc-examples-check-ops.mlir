// attic-run --check on the upstream ops that a VCC layer body is written
// with (examples/vcc_layer.mlir): linalg.fill, linalg.matmul,
// linalg.transpose, linalg.generic (parallel and reduction, with
// linalg.index), tensor.generate with scf.if and tensor.extract,
// tensor.concat, and arith/math ops on scalars.
// The reference interprets each op's indexing maps and payload in double;
// the compiled code goes through attic-cpu-pipeline.
// RUN: rm -rf %t && split-file %s %t
// RUN: attic-run %t/body.mlir --entry=body --check | FileCheck %s
// RUN: attic-run %t/body.mlir --entry=body --check --seed=3 --range-lo=-4 --range-hi=2 | FileCheck %s
// RUN: attic-run %t/gather.mlir --entry=gather --check --mask-keep=0.5 | FileCheck %s --check-prefix=GATHER
// CHECK: compiled for the CPU
// CHECK: check: result #0 (6x5 f32): {{.*}} non_finite=0 {{.*}}: ok
// CHECK: check: result #1 (2x6 f32): {{.*}} non_finite=0 {{.*}}: ok
// CHECK: check: result #2 (5x6 f32): {{.*}} non_finite=0 {{.*}}: ok
// CHECK: check: result #3 (9x5 f32): {{.*}} non_finite=0 {{.*}}: ok
// GATHER: check: result #0 (2x4x3 f32): max_abs_err=0.00e+00 {{.*}}: ok

// A payload op without reference semantics is an error naming it, not an
// unchecked run.
// RUN: not attic-run %t/unsupported.mlir --entry=unsupported --check 2>&1 | FileCheck %s --check-prefix=NOREF
// NOREF: attic-run: error: reference: 'math.fpowi' is not one of the scalar ops --check interprets

//--- body.mlir
#rows = affine_map<(i, e) -> (i, e)>
#row = affine_map<(i, e) -> (i)>
#feature = affine_map<(i, e) -> (e)>
func.func @body(%x: tensor<6x4xf32>, %w: tensor<4x5xf32>, %b: tensor<5xf32>, %y: tensor<3x5xf32>)
    -> (tensor<6x5xf32>, tensor<2x6xf32>, tensor<5x6xf32>, tensor<9x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %half = arith.divf %one, %two : f32
  %e0 = tensor.empty() : tensor<6x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e0 : tensor<6x5xf32>) -> tensor<6x5xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<6x4xf32>, tensor<4x5xf32>) outs(%z : tensor<6x5xf32>) -> tensor<6x5xf32>
  // relu(mm + b) * 0.5 + sqrt(|mm| + 1) at even columns, exp(-|mm|) at odd ones.
  %act = linalg.generic {indexing_maps = [#rows, #feature, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<6x5xf32>, tensor<5xf32>) outs(%e0 : tensor<6x5xf32>) {
  ^bb0(%v: f32, %bias: f32, %out: f32):
    %s = arith.addf %v, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    %h = arith.mulf %r, %half : f32
    %a = math.absf %v : f32
    %a1 = arith.addf %a, %one : f32
    %sq = math.sqrt %a1 : f32
    %na = arith.negf %a : f32
    %ex = math.exp %na : f32
    %col = linalg.index 1 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %m = arith.remui %col, %c2 : index
    %even = arith.cmpi eq, %m, %c0 : index
    %t = arith.select %even, %sq, %ex : f32
    %res = arith.addf %h, %t : f32
    linalg.yield %res : f32
  } -> tensor<6x5xf32>
  // Row maxima and row sums of the transposed matrix, as [2, 6].
  %e1 = tensor.empty() : tensor<5x6xf32>
  %tr = linalg.transpose ins(%act : tensor<6x5xf32>) outs(%e1 : tensor<5x6xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<6xf32>) -> tensor<6xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(e, i) -> (e, i)>, affine_map<(e, i) -> (i)>],
                         iterator_types = ["reduction", "parallel"]}
      ins(%tr : tensor<5x6xf32>) outs(%z2 : tensor<6xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %m0 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<6xf32>) -> tensor<6xf32>
  %max = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%act : tensor<6x5xf32>) outs(%m0 : tensor<6xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.maximumf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  %both = tensor.generate {
  ^bb0(%k: index, %i: index):
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %k, %c0 : index
    %v = scf.if %first -> (f32) {
      %s = tensor.extract %sum[%i] : tensor<6xf32>
      scf.yield %s : f32
    } else {
      %s = tensor.extract %max[%i] : tensor<6xf32>
      scf.yield %s : f32
    }
    tensor.yield %v : f32
  } : tensor<2x6xf32>
  // Rows of %act, then %y (contiguous pieces along dim 0).
  %cat = tensor.concat dim(0) %act, %y : (tensor<6x5xf32>, tensor<3x5xf32>) -> tensor<9x5xf32>
  return %act, %both, %tr, %cat : tensor<6x5xf32>, tensor<2x6xf32>, tensor<5x6xf32>, tensor<9x5xf32>
}

//--- gather.mlir
// A masked select through linalg.generic on i1 and tensor.extract with
// computed indices: rows of x in reverse order where the mask is set.
func.func @gather(%x: tensor<2x4x3xf32>, %mask: tensor<2x4xi1>) -> tensor<2x4x3xf32> {
  %e = tensor.empty() : tensor<2x4x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, e) -> (b, i)>, affine_map<(b, i, e) -> (b, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mask : tensor<2x4xi1>) outs(%e : tensor<2x4x3xf32>) {
  ^bb0(%keep: i1, %out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %c = linalg.index 2 : index
    %c3 = arith.constant 3 : index
    %j = arith.subi %c3, %i : index
    %v = tensor.extract %x[%b, %j, %c] : tensor<2x4x3xf32>
    %zero = arith.constant 0.0 : f32
    %s = arith.select %keep, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<2x4x3xf32>
  return %r : tensor<2x4x3xf32>
}

//--- unsupported.mlir
func.func @unsupported(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %out: f32):
    %three = arith.constant 3 : i32
    %r = math.fpowi %v, %three : f32, i32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// Upstream tensor ops around attic's: tensor.concat (it bufferizes to copies
// into strided subviews, lowered to calls of memrefCopy from MLIR's C runner
// utilities, which attic::initializeJit loads), elementwise arith/math on whole tensors (turned into
// linalg.generic by the CPU pipeline), and an in-place update of an
// argument: the compiled code must never write into its caller's buffers
// (attic-readonly-arguments), which --check would see since it evaluates the
// reference on the inputs after the compiled run.
// RUN: rm -rf %t && split-file %s %t
// RUN: attic-run %t/concat.mlir --entry=concat --check --tolerance=0 | FileCheck %s
// RUN: attic-run %t/residual.mlir --entry=residual --check | FileCheck %s
// RUN: attic-run %t/in_place.mlir --entry=in_place --check | FileCheck %s
// RUN: attic-run %t/in_place.mlir --entry=in_place --check --sequential | FileCheck %s
// CHECK: compiled for {{.+}}
// CHECK: check: result #0 {{.*}}: ok
// CHECK-NOT: FAILED

//--- concat.mlir
func.func @concat(%a: tensor<2x3x4xf32>, %b: tensor<2x5x4xf32>) -> tensor<2x8x4xf32> {
  %c = tensor.concat dim(1) %a, %b : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  return %c : tensor<2x8x4xf32>
}

//--- residual.mlir
func.func @residual(%a: tensor<2x3x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %c = arith.addf %a, %b : tensor<2x3x4xf32>
  %d = math.exp %c : tensor<2x3x4xf32>
  %e = arith.mulf %d, %a : tensor<2x3x4xf32>
  return %e : tensor<2x3x4xf32>
}

//--- in_place.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @in_place(%a: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %doubled = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%a : tensor<8x16xf32>) {
  ^bb0(%x: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %doubled, %a : tensor<8x16xf32>, tensor<8x16xf32>
}

// Input of ../check-reference-fixes.test: IR on which the --check reference
// was wrong (a 2026-11-30 differential audit).

func.func @fp_to_int(%a: tensor<4xf32>) -> (tensor<4xi8>, tensor<4xi1>) {
  %c = arith.constant dense<[200.0, 130.5, 255.0, 3.0]> : tensor<4xf32>
  %s = arith.addf %a, %c : tensor<4xf32>
  %e = tensor.empty() : tensor<4xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%c : tensor<4xf32>) outs(%e : tensor<4xi8>) {
  ^bb0(%x: f32, %o: i8):
    %y = arith.fptoui %x : f32 to i8
    linalg.yield %y : i8
  } -> tensor<4xi8>
  %m = arith.constant dense<[-1.0, 0.0, -1.0, 0.0]> : tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xi1>
  %b = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%m : tensor<4xf32>) outs(%e1 : tensor<4xi1>) {
  ^bb0(%x: f32, %o: i1):
    %y = arith.fptosi %x : f32 to i1
    linalg.yield %y : i1
  } -> tensor<4xi1>
  return %r, %b : tensor<4xi8>, tensor<4xi1>
}

func.func private @rec(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %is0 -> tensor<4xf32> {
    scf.yield %t : tensor<4xf32>
  } else {
    %c1 = arith.constant 1 : index
    %m = arith.subi %n, %c1 : index
    %a = func.call @rec(%t, %m) : (tensor<4xf32>, index) -> tensor<4xf32>
    %ni = arith.index_cast %n : index to i64
    %nf = arith.sitofp %ni : i64 to f32
    %e = tensor.empty() : tensor<4xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a, %t : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %p = arith.mulf %y, %nf : f32
      %q = arith.addf %x, %p : f32
      linalg.yield %q : f32
    } -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
func.func @index_after_recursive_call(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c2 = arith.constant 2 : index
  %r = func.call @rec(%x, %c2) : (tensor<4xf32>, index) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @empty_init(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @rounding_mode(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = arith.truncf %x downward : f32 to f16
    %u = arith.truncf %x upward : f32 to f16
    %hx = arith.extf %h : f16 to f32
    %ux = arith.extf %u : f16 to f32
    %d = arith.subf %ux, %hx : f32
    linalg.yield %d : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// The same through a reshape and a loop-carried value.
func.func @empty_init_reshaped(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<2x2xf32>
  %c = tensor.collapse_shape %e [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%c : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @empty_init_carried(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %e) -> tensor<4xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.addf %x, %o : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    scf.yield %r : tensor<4xf32>
  }
  return %l : tensor<4xf32>
}

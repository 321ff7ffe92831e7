// attic-run --bench's GFLOP/s: counted from the shapes and the layout, and
// left out where the visible pairs depend on the data (test/Integration/
// bench-flops.test).

func.func @dense(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

func.func @window(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %k, %v layout(#attic.window<left = 8, right = 0>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

func.func @key_mask(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %m: tensor<1x64xi1>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %k, %v mask(%m : tensor<1x64xi1>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

func.func @mask_region(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %k, %v
    mask_mod {
    ^bb0(%b: index, %h: index, %i: index, %j: index):
      %c8 = arith.constant 8 : index
      %lo = arith.remui %i, %c8 : index
      %hi = arith.remui %j, %c8 : index
      %same = arith.cmpi eq, %lo, %hi : index
      attic.yield %same : i1
    }
    : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

func.func @documents(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>, %ids: tensor<1x64xi32>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %k, %v layout(#attic.documents<query_ids = 0, key_ids = 0>) layout_operands(%ids : tensor<1x64xi32>) : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

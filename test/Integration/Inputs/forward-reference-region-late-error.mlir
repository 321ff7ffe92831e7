// fuzz-seed: skip (a parse error after the region, on purpose)
// A forward reference (%d) resolved by a definition inside a modifier
// region that parses, then a parse error after the region (a bad type):
// the same use-after-free as forward-reference-region-eof.mlir unless the
// region's parser rejects the reference
// (test/Integration/parse-error-memory.test).
func.func @f(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %x = arith.index_cast %d : index to i64
  %o = attic.attention %q, %q, %q mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %d = arith.subi %qi, %ki : index
    %z = arith.constant 0 : index
    %p = arith.cmpi sge, %d, %z : index
    attic.yield %p : i1
  } : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32, bad>
  return %o : tensor<1x2x64x16xf32>
}

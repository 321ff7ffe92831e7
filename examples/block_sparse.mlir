// Explicit block-sparse attention with run-time block lists, as
// FlexAttention's BlockMask: attic.block_mask (the analogue of
// create_block_mask) classifies the (query block, key block) pairs of a
// layout once and returns ordinary tensors, which two attention ops (two
// "layers") then take with blocks(...): the full list's blocks are visited
// without evaluating the layout, the partial list's with it, all other
// blocks are never loaded.
//
//   attic-run examples/block_sparse.mlir --entry=two_layers --check
//   attic-run examples/block_sparse.mlir --entry=given_lists --check --input=...
//
// @given_lists needs the caller's lists as .npy inputs (random ones are not
// valid lists); test/Integration/layouts-examples.test writes them with
// NumPy and runs it.
//
// @two_layers: the lists of a causal sliding window (512 keys) in blocks of
// 128, reused by two attentions. @given_lists: lists passed in by the
// caller (here a pure block-sparse pattern: dense layout, so partial blocks
// are as full ones). B=1, H=4, N=1024, D=64.

func.func @two_layers(%q: tensor<1x4x1024x64xf32>, %k: tensor<1x4x1024x64xf32>, %v: tensor<1x4x1024x64xf32>, %q2: tensor<1x4x1024x64xf32>) -> (tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>) {
  %c1024 = arith.constant 1024 : index
  %e3 = tensor.empty() : tensor<1x1x8xi32>
  %e4 = tensor.empty() : tensor<1x1x8x8xi32>
  %n, %i, %fn, %fi = attic.block_mask
      layout(#attic.intersect<[#attic.causal, #attic.window<left = 511, right = 0>]>)
      sizes(%c1024, %c1024) outs(%e3, %e4, %e3, %e4 : tensor<1x1x8xi32>, tensor<1x1x8x8xi32>, tensor<1x1x8xi32>, tensor<1x1x8x8xi32>)
      {block_q = 128 : i64, block_k = 128 : i64} -> tensor<1x1x8xi32>, tensor<1x1x8x8xi32>, tensor<1x1x8xi32>, tensor<1x1x8x8xi32>
  %o1 = attic.attention %q, %k, %v
      layout(#attic.intersect<[#attic.causal, #attic.window<left = 511, right = 0>]>)
      blocks(%n, %i, %fn, %fi : tensor<1x1x8xi32>, tensor<1x1x8x8xi32>, tensor<1x1x8xi32>, tensor<1x1x8x8xi32>) block_sizes [128, 128]
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32> -> tensor<1x4x1024x64xf32>
  %o2 = attic.attention %q2, %k, %o1
      layout(#attic.intersect<[#attic.causal, #attic.window<left = 511, right = 0>]>)
      blocks(%n, %i, %fn, %fi : tensor<1x1x8xi32>, tensor<1x1x8x8xi32>, tensor<1x1x8xi32>, tensor<1x1x8x8xi32>) block_sizes [128, 128]
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32> -> tensor<1x4x1024x64xf32>
  return %o1, %o2 : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>
}

func.func @given_lists(%q: tensor<1x4x1024x64xf32>, %k: tensor<1x4x1024x64xf32>, %v: tensor<1x4x1024x64xf32>, %n: tensor<1x1x8xi32>, %i: tensor<1x1x8x8xi32>, %fn: tensor<1x1x8xi32>, %fi: tensor<1x1x8x8xi32>) -> tensor<1x4x1024x64xf32> {
  %o = attic.attention %q, %k, %v
      blocks(%n, %i, %fn, %fi : tensor<1x1x8xi32>, tensor<1x1x8x8xi32>, tensor<1x1x8xi32>, tensor<1x1x8x8xi32>) block_sizes [128, 128]
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32> -> tensor<1x4x1024x64xf32>
  return %o : tensor<1x4x1024x64xf32>
}

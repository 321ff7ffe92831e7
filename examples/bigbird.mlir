// BigBird (Zaheer et al. 2020) at block granularity: queries and keys in
// blocks of 64; each query block sees the key blocks next to it (a window
// of 3 blocks), the first block is global (it sees everything and is seen
// by everyone), and 3 random key blocks per query block and head, drawn
// from a Philox seed (the same on every target).
//
//   attic-run examples/bigbird.mlir --entry=bigbird --check
//   attic-run examples/bigbird.mlir --entry=bigbird --check --target=cuda-emulated
//
// The random part is irregular, so attic-decompose puts an attic.block_mask
// in front that classifies the block pairs once (the analogue of
// FlexAttention's create_block_mask); the attention visits only the listed
// blocks. With tiles of 64 (--block-q=64 --block-k=64) every visited block is
// full. B=1, H=4, N=1024, D=64.

func.func @bigbird(%q: tensor<1x4x1024x64xf32>, %k: tensor<1x4x1024x64xf32>, %v: tensor<1x4x1024x64xf32>) -> tensor<1x4x1024x64xf32> {
  %o = attic.attention %q, %k, %v
      layout(#attic.blocked<size = 64, layout = #attic.union<[
          #attic.window<left = 1, right = 1>,
          #attic.global<tokens = [0]>,
          #attic.random<block = 1, count = 3, seed = 42>]>>)
      : tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32>, tensor<1x4x1024x64xf32> -> tensor<1x4x1024x64xf32>
  return %o : tensor<1x4x1024x64xf32>
}

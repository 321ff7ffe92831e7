// Modifier regions that read captures, with dynamic shapes bound by
// --shape: attic-run's specialization casts the arguments to their static
// types and canonicalizes, and the casts fold into the captures and the
// regions' arguments. Used by test/Integration/captures-dynamic.test.

// attic.attention: a per-key table (mask) and per-head slopes (score);
// attic-decompose makes an attic.block_mask and an attic.block_attention
// of it, both with the captures. Before the fix: "region argument #4 must
// have the type of capture #0".
func.func @attention(%q: tensor<?x?x?x16xf32>, %k: tensor<?x?x?x16xf32>, %v: tensor<?x?x?x?xf32>, %slopes: tensor<?xf32>, %table: tensor<?x?xf32>) -> tensor<?x?x?x?xf32> {
  %o = attic.attention %q, %k, %v captures(%slopes, %table : tensor<?xf32>, tensor<?x?xf32>)
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index, %s: tensor<?xf32>, %t: tensor<?x?xf32>):
        %x = tensor.extract %t[%b, %ki] : tensor<?x?xf32>
        %lim = arith.constant -0.6 : f32
        %p = arith.cmpf ogt, %x, %lim : f32
        attic.yield %p : i1
      }
      score_mod {
      ^bb0(%sc: f32, %b: index, %h: index, %qi: index, %ki: index, %s: tensor<?xf32>, %t: tensor<?x?xf32>):
        %sl = tensor.extract %s[%h] : tensor<?xf32>
        %d = arith.subi %ki, %qi : index
        %di = arith.index_cast %d : index to i64
        %df = arith.sitofp %di : i64 to f32
        %tenth = arith.constant 0.1 : f32
        %w = arith.mulf %sl, %tenth : f32
        %pen = arith.mulf %w, %df : f32
        %r = arith.addf %sc, %pen : f32
        attic.yield %r : f32
      }
      : tensor<?x?x?x16xf32>, tensor<?x?x?x16xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  return %o : tensor<?x?x?x?xf32>
}

// attic.block_attention with a mask region reading a capture, lse and
// pool (sized with arith.ceildivui). Before the fix: a segmentation fault
// in upstream's fold of the casts into the op (OpBuilder::cloneRegionBefore).
func.func @block_attention(%q: tensor<2x1x?x16xf16>, %k: tensor<2x?x?x16xf16>, %v: tensor<2x?x?x16xf16>, %table: tensor<?x?xf32>, %w: tensor<2x?xf32>) -> (tensor<2x1x?x16xf16>, tensor<2x1x?xf32>, tensor<2x1x?x16xf32>) {
  %c2 = arith.constant 2 : index
  %c17 = arith.constant 17 : index
  %n = tensor.dim %q, %c2 : tensor<2x1x?x16xf16>
  %nb = arith.ceildivui %n, %c17 : index
  %init = tensor.empty(%n) : tensor<2x1x?x16xf16>
  %lse = tensor.empty(%n) : tensor<2x1x?xf32>
  %pool = tensor.empty(%nb) : tensor<2x1x?x16xf32>
  %o:3 = attic.block_attention ins(%q, %k, %v : tensor<2x1x?x16xf16>, tensor<2x?x?x16xf16>, tensor<2x?x?x16xf16>)
      captures(%table : tensor<?x?xf32>)
      pool(%w : tensor<2x?xf32> into %pool : tensor<2x1x?x16xf32>)
      outs(%init : tensor<2x1x?x16xf16>, lse %lse : tensor<2x1x?xf32>)
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index, %t: tensor<?x?xf32>):
        %x = tensor.extract %t[%b, %ki] : tensor<?x?xf32>
        %lim = arith.constant -0.6 : f32
        %p = arith.cmpf ogt, %x, %lim : f32
        attic.yield %p : i1
      }
      {layout = #attic.window<left = 254, right = 52>, scale = 0.25 : f32, block_q = 17 : i64, block_k = 55 : i64}
      -> tensor<2x1x?x16xf16>, tensor<2x1x?xf32>, tensor<2x1x?x16xf32>
  return %o#0, %o#1, %o#2 : tensor<2x1x?x16xf16>, tensor<2x1x?xf32>, tensor<2x1x?x16xf32>
}

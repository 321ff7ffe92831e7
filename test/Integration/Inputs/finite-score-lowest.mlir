// A score region that yields a finite score below -FLT_MAX / log2(e)
// (about -2.36e38): finfo(float32).min on keys 0..39 (@min_keys; causal
// rows 0..39 see only such keys), and s - 3e38 on every key (@shifted).
// log2(e) * score overflows f32 and saturates to -FLT_MAX, as a key bias
// does (never -inf, which masks), so those rows are the average of their
// value rows, as in the reference; they were an empty row's 0 (relative
// error 1, exit 0; a 2026-11-30 audit).
func.func @min_keys(%q: tensor<1x2x100x16xf32>, %k: tensor<1x2x100x16xf32>, %v: tensor<1x2x100x16xf32>) -> tensor<1x2x100x16xf32> {
  %o = attic.attention %q, %k, %v causal score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %c40 = arith.constant 40 : index
    %masked = arith.cmpi ult, %j, %c40 : index
    %min = arith.constant -3.40282347e+38 : f32
    %x = arith.select %masked, %min, %s : f32
    attic.yield %x : f32
  } : tensor<1x2x100x16xf32>, tensor<1x2x100x16xf32>, tensor<1x2x100x16xf32> -> tensor<1x2x100x16xf32>
  return %o : tensor<1x2x100x16xf32>
}

func.func @shifted(%q: tensor<1x2x100x16xf32>, %k: tensor<1x2x100x16xf32>, %v: tensor<1x2x100x16xf32>) -> tensor<1x2x100x16xf32> {
  %o = attic.attention %q, %k, %v score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %c = arith.constant 3.0e+38 : f32
    %x = arith.subf %s, %c : f32
    attic.yield %x : f32
  } : tensor<1x2x100x16xf32>, tensor<1x2x100x16xf32>, tensor<1x2x100x16xf32> -> tensor<1x2x100x16xf32>
  return %o : tensor<1x2x100x16xf32>
}

// A bias of finfo(float32).min and a score of finfo(float32).min on every
// key: each saturates, and their sum, -inf in f32, saturates too (it read
// as a masked key, and the rows were an empty row's 0; a 2026-11-30
// review).
func.func @score_and_bias(%q: tensor<1x1x4x8xf32>, %k: tensor<1x1x4x8xf32>, %v: tensor<1x1x4x8xf32>) -> tensor<1x1x4x8xf32> {
  %b = arith.constant dense<-3.40282347e+38> : tensor<1x4xf32>
  %i = tensor.empty() : tensor<1x1x4x8xf32>
  %o = attic.block_attention ins(%q, %k, %v : tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>) bias(%b : tensor<1x4xf32>) outs(%i : tensor<1x1x4x8xf32>) score_mod {
  ^bb0(%s: f32, %bb: index, %h: index, %ii: index, %j: index):
    %min = arith.constant -3.40282347e+38 : f32
    attic.yield %min : f32
  } {layout = #attic.dense, scale = 1.0 : f32, block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x1x4x8xf32>
  return %o : tensor<1x1x4x8xf32>
}

// The same bias with logits of -1e36 (q . k < 0): the sum saturates.
func.func @bias_negative_logits(%v: tensor<1x1x4x8xf32>) -> (tensor<1x1x4x8xf32>, tensor<1x1x4xf32>) {
  %q = arith.constant dense<-1.0e18> : tensor<1x1x4x8xf32>
  %k = arith.constant dense<1.25e17> : tensor<1x1x4x8xf32>
  %b = arith.constant dense<-3.40282347e+38> : tensor<1x4xf32>
  %i = tensor.empty() : tensor<1x1x4x8xf32>
  %l = tensor.empty() : tensor<1x1x4xf32>
  %o, %s = attic.block_attention ins(%q, %k, %v : tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>) bias(%b : tensor<1x4xf32>) outs(%i : tensor<1x1x4x8xf32>, lse %l : tensor<1x1x4xf32>) {layout = #attic.dense, scale = 1.0 : f32, block_q = 16 : i64, block_k = 16 : i64} -> tensor<1x1x4x8xf32>, tensor<1x1x4xf32>
  return %o, %s : tensor<1x1x4x8xf32>, tensor<1x1x4xf32>
}

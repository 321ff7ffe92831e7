// attic.attention on slices whose sizes come from the data
// (test/Integration/attention-operand-sizes.test): n = %nt[0].

// The key and value heads: Hkv = n, Hq = 4.
func.func @kv_heads(%q: tensor<1x4x8x4xf32>, %k: tensor<1x4x8x4xf32>, %nt: tensor<1xi64>) -> tensor<1x4x8x4xf32> {
  %c0 = arith.constant 0 : index
  %a = tensor.extract %nt[%c0] : tensor<1xi64>
  %n = arith.index_cast %a : i64 to index
  %ks = tensor.extract_slice %k[0, 0, 0, 0] [1, %n, 8, 4] [1, 1, 1, 1] : tensor<1x4x8x4xf32> to tensor<1x?x8x4xf32>
  %o = attic.attention %q, %ks, %ks : tensor<1x4x8x4xf32>, tensor<1x?x8x4xf32>, tensor<1x?x8x4xf32> -> tensor<1x4x8x4xf32>
  return %o : tensor<1x4x8x4xf32>
}

// The query heads: Hq = n, Hkv = 4 (the result has n heads).
func.func @query_heads(%q: tensor<1x4x8x4xf32>, %k: tensor<1x4x8x4xf32>, %nt: tensor<1xi64>) -> tensor<1x?x8x4xf32> {
  %c0 = arith.constant 0 : index
  %a = tensor.extract %nt[%c0] : tensor<1xi64>
  %n = arith.index_cast %a : i64 to index
  %qs = tensor.extract_slice %q[0, 0, 0, 0] [1, %n, 8, 4] [1, 1, 1, 1] : tensor<1x4x8x4xf32> to tensor<1x?x8x4xf32>
  %o = attic.attention %qs, %k, %k : tensor<1x?x8x4xf32>, tensor<1x4x8x4xf32>, tensor<1x4x8x4xf32> -> tensor<1x?x8x4xf32>
  return %o : tensor<1x?x8x4xf32>
}

// The key's and value's batches: n, the query's 2.
func.func @batches(%q: tensor<2x1x8x4xf32>, %k: tensor<2x1x8x4xf32>, %nt: tensor<1xi64>) -> tensor<2x1x8x4xf32> {
  %c0 = arith.constant 0 : index
  %a = tensor.extract %nt[%c0] : tensor<1xi64>
  %n = arith.index_cast %a : i64 to index
  %ks = tensor.extract_slice %k[0, 0, 0, 0] [%n, 1, 8, 4] [1, 1, 1, 1] : tensor<2x1x8x4xf32> to tensor<?x1x8x4xf32>
  %o = attic.attention %q, %ks, %ks : tensor<2x1x8x4xf32>, tensor<?x1x8x4xf32>, tensor<?x1x8x4xf32> -> tensor<2x1x8x4xf32>
  return %o : tensor<2x1x8x4xf32>
}

// The value's keys: n, the key's 8.
func.func @value_keys(%q: tensor<1x1x8x4xf32>, %v: tensor<1x1x8x4xf32>, %nt: tensor<1xi64>) -> tensor<1x1x8x4xf32> {
  %c0 = arith.constant 0 : index
  %a = tensor.extract %nt[%c0] : tensor<1xi64>
  %n = arith.index_cast %a : i64 to index
  %vs = tensor.extract_slice %v[0, 0, 0, 0] [1, 1, %n, 4] [1, 1, 1, 1] : tensor<1x1x8x4xf32> to tensor<1x1x?x4xf32>
  %o = attic.attention %q, %q, %vs : tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x?x4xf32> -> tensor<1x1x8x4xf32>
  return %o : tensor<1x1x8x4xf32>
}

// The key's features: n, the query's 4 (the scale given: D is not needed
// for it).
func.func @features(%q: tensor<1x1x8x4xf32>, %k: tensor<1x1x8x4xf32>, %nt: tensor<1xi64>) -> tensor<1x1x8x4xf32> {
  %c0 = arith.constant 0 : index
  %a = tensor.extract %nt[%c0] : tensor<1xi64>
  %n = arith.index_cast %a : i64 to index
  %ks = tensor.extract_slice %k[0, 0, 0, 0] [1, 1, 8, %n] [1, 1, 1, 1] : tensor<1x1x8x4xf32> to tensor<1x1x8x?xf32>
  %o = attic.attention %q, %ks, %q scale 0.5 : tensor<1x1x8x4xf32>, tensor<1x1x8x?xf32>, tensor<1x1x8x4xf32> -> tensor<1x1x8x4xf32>
  return %o : tensor<1x1x8x4xf32>
}

// The key mask's keys: n, the key's 8.
func.func @mask_keys(%q: tensor<1x1x8x4xf32>, %m: tensor<1x8xi1>, %nt: tensor<1xi64>) -> tensor<1x1x8x4xf32> {
  %c0 = arith.constant 0 : index
  %a = tensor.extract %nt[%c0] : tensor<1xi64>
  %n = arith.index_cast %a : i64 to index
  %ms = tensor.extract_slice %m[0, 0] [1, %n] [1, 1] : tensor<1x8xi1> to tensor<1x?xi1>
  %o = attic.attention %q, %q, %q mask(%ms : tensor<1x?xi1>) : tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x1x8x4xf32>
  return %o : tensor<1x1x8x4xf32>
}

// The key bias's keys: n, the key's 8 (its strides are dynamic: the CPU's
// bias loads were a vector.gather, which vector-to-llvm does not lower for
// a stride that is not 1, "the pipeline left 'vector.gather' unlowered").
func.func @bias_keys(%q: tensor<1x1x8x4xf32>, %bias: tensor<1x8xf32>, %nt: tensor<1xi64>) -> tensor<1x1x8x4xf32> {
  %c0 = arith.constant 0 : index
  %a = tensor.extract %nt[%c0] : tensor<1xi64>
  %n = arith.index_cast %a : i64 to index
  %bs = tensor.extract_slice %bias[0, 0] [1, %n] [1, 1] : tensor<1x8xf32> to tensor<1x?xf32>
  %o = attic.attention %q, %q, %q bias(%bs : tensor<1x?xf32>) : tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32>, tensor<1x1x8x4xf32> -> tensor<1x1x8x4xf32>
  return %o : tensor<1x1x8x4xf32>
}

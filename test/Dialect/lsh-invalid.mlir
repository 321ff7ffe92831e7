// RUN: attic-opt %s --split-input-file --verify-diagnostics

func.func @odd_buckets(%qk: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.lsh_attention' op buckets must be 1 or a positive even number (the hash argmax([xR; -xR]) has two buckets per rotation), got 5}}
  %o = attic.lsh_attention %qk, %qk {buckets = 5 : i64, chunk = 8 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @zero_buckets(%qk: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.lsh_attention' op buckets must be 1 or a positive even number (the hash argmax([xR; -xR]) has two buckets per rotation), got 0}}
  %o = attic.lsh_attention %qk, %qk {buckets = 0 : i64, chunk = 8 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @chunk_not_dividing(%qk: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.lsh_attention' op chunk must be positive and divide N = 64, got 24 (pad the sequence to a multiple of the chunk)}}
  %o = attic.lsh_attention %qk, %qk {buckets = 4 : i64, chunk = 24 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @negative_chunk(%qk: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.lsh_attention' op chunk must be positive and divide N = 64, got -8}}
  %o = attic.lsh_attention %qk, %qk {buckets = 4 : i64, chunk = -8 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @missing_seed(%qk: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.lsh_attention' op hashing into 4 buckets draws random rotations and needs a `seed`}}
  %o = attic.lsh_attention %qk, %qk {buckets = 4 : i64, chunk = 8 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

// One bucket draws no rotations: its seed was accepted and ignored.
func.func @unused_seed(%qk: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.lsh_attention' op hashing into 1 bucket draws no rotations: a `seed` has no effect (drop it)}}
  %o = attic.lsh_attention %qk, %qk {buckets = 1 : i64, chunk = 8 : i64, seed = 12345 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @zero_rounds(%qk: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.lsh_attention' op rounds must be in [1, 64], got 0}}
  %o = attic.lsh_attention %qk, %qk {buckets = 4 : i64, rounds = 0 : i64, chunk = 8 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @value_length(%qk: tensor<1x2x64x16xf32>, %v: tensor<1x2x32x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.lsh_attention' op value has shape 1x2x32x16 but [B,H,N,Dv] = 1x2x64x16 is expected: dim 2 (N) is 32, qk has 64}}
  %o = attic.lsh_attention %qk, %v {buckets = 4 : i64, chunk = 8 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x32x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @mask_shape(%qk: tensor<1x2x64x16xf32>, %m: tensor<1x32xi1>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.lsh_attention' op mask has shape 1x32 but [B,N] = 1x64 is expected: dim 1 (N) is 32, qk has 64}}
  %o = attic.lsh_attention %qk, %qk mask(%m : tensor<1x32xi1>) {buckets = 4 : i64, chunk = 8 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @bad_scale(%qk: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.lsh_attention' op scale must be finite and positive, got 0}}
  %o = attic.lsh_attention %qk, %qk {buckets = 4 : i64, chunk = 8 : i64, seed = 1 : i64, scale = 0.0 : f32} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

func.func @hash_rotation_rows(%x: tensor<1x2x64x16xf32>, %r: tensor<8x4xf32>) -> tensor<1x2x64xi64> {
  // expected-error @+1 {{'attic.lsh_hash' op rotations has shape 8x4 but [D,K] = 16x4 is expected: dim 0 (D) is 8, x has 16}}
  %h = attic.lsh_hash %x, %r : tensor<1x2x64x16xf32>, tensor<8x4xf32> -> tensor<1x2x64xi64>
  return %h : tensor<1x2x64xi64>
}

// -----

func.func @sort_no_buckets(%h: tensor<1x2x64xi64>) -> (tensor<1x2x64xi64>, tensor<1x2x64xi64>) {
  // expected-error @+1 {{'attic.bucket_sort' op num_buckets must be positive, got 0}}
  %p, %i = attic.bucket_sort %h {num_buckets = 0 : i64} : tensor<1x2x64xi64> -> tensor<1x2x64xi64>, tensor<1x2x64xi64>
  return %p, %i : tensor<1x2x64xi64>, tensor<1x2x64xi64>
}

// -----

func.func @sort_shapes(%h: tensor<1x2x64xi64>) -> (tensor<1x2x32xi64>, tensor<1x2x64xi64>) {
  // expected-error @+1 {{'attic.bucket_sort' op perm has shape 1x2x32 but [B,H,N] = 1x2x64 is expected: dim 2 (N) is 32, buckets has 64}}
  %p, %i = attic.bucket_sort %h {num_buckets = 4 : i64} : tensor<1x2x64xi64> -> tensor<1x2x32xi64>, tensor<1x2x64xi64>
  return %p, %i : tensor<1x2x32xi64>, tensor<1x2x64xi64>
}

// -----

func.func @too_many_buckets(%qk: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  // expected-error @+1 {{'attic.lsh_attention' op buckets must be at most 65536, got 131072}}
  %o = attic.lsh_attention %qk, %qk {buckets = 131072 : i64, chunk = 8 : i64, seed = 1 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

// 2^62 tokens: the decomposition's [B*H, 2N] would wrap to the dynamic size.
func.func @too_many_elements(%qk: tensor<1x2x4611686018427387904x16xf32>) -> tensor<1x2x4611686018427387904x16xf32> {
  // expected-error @+1 {{'attic.lsh_attention' op qk [B,H,N,D] = 1x2x4611686018427387904x16 must have at most 2^40 = 1099511627776 elements}}
  %o = attic.lsh_attention %qk, %qk {buckets = 4 : i64, chunk = 8 : i64, seed = 3 : i64} : tensor<1x2x4611686018427387904x16xf32>, tensor<1x2x4611686018427387904x16xf32> -> tensor<1x2x4611686018427387904x16xf32>
  return %o : tensor<1x2x4611686018427387904x16xf32>
}

// -----

// The rotations drawn at compile time: 64 * 32768 * 64 = 2^27 values took
// 3.4 GB and 20 s to compile (a 2026-11-30 audit); at most 2^24.
func.func @too_many_rotations(%qk: tensor<1x1x64x64xf32>, %v: tensor<1x1x64x8xf32>) -> tensor<1x1x64x8xf32> {
  // expected-error @+1 {{'attic.lsh_attention' op buckets = 65536 and rounds = 64 with D = 64 draw D * rounds * buckets / 2 = 134217728 rotation values at compile time, above 2^24; use fewer buckets or rounds (or attic.lsh_hash with rotations of your own)}}
  %o = attic.lsh_attention %qk, %v {buckets = 65536 : i64, rounds = 64 : i64, chunk = 8 : i64, seed = 5 : i64} : tensor<1x1x64x64xf32>, tensor<1x1x64x8xf32> -> tensor<1x1x64x8xf32>
  return %o : tensor<1x1x64x8xf32>
}

// -----

// A histogram of num_buckets entries per 64 tokens: 2^62 wrapped its size
// (a segfault on the CPU, garbage on the emulated GPU; a 2026-11-30 audit).
func.func @too_many_sort_buckets(%h: tensor<1x2x8xi64>) {
  // expected-error @+1 {{'attic.bucket_sort' op num_buckets must be at most 2^24 = 16777216 (the sort keeps a histogram of num_buckets entries per 64 tokens), got 4611686018427387904}}
  %p, %i = attic.bucket_sort %h {num_buckets = 4611686018427387904 : i64} : tensor<1x2x8xi64> -> tensor<1x2x8xi64>, tensor<1x2x8xi64>
  return
}

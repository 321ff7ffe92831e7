// The L2 primitives of the kernelized, hashed and clustered patterns, each
// called on its own (test/Integration/primitives.test checks them against
// the reference evaluator): every feature map, the state reduction and the
// causal scan with a padding mask and FAVOR+'s stabilizer, the LSH hash and
// the bucket sort, K-means.

func.func @maps(%x: tensor<2x2x64x16xf32>, %w: tensor<24x16xf32>) -> (tensor<2x2x64x16xf32>, tensor<2x2x64x16xf32>, tensor<2x2x64x32xf32>, tensor<2x2x64x24xf32>, tensor<2x2x64x24xf32>, tensor<2x2x64xf32>) {
  %a = attic.feature_map elu_plus_one %x : tensor<2x2x64x16xf32> -> tensor<2x2x64x16xf32>
  %b = attic.feature_map relu %x : tensor<2x2x64x16xf32> -> tensor<2x2x64x16xf32>
  %c = attic.feature_map cosformer %x {period = 100 : i64} : tensor<2x2x64x16xf32> -> tensor<2x2x64x32xf32>
  %d = attic.feature_map performer_relu %x projection(%w : tensor<24x16xf32>) : tensor<2x2x64x16xf32> -> tensor<2x2x64x24xf32>
  %e, %s = attic.feature_map favor_plus %x projection(%w : tensor<24x16xf32>) : tensor<2x2x64x16xf32> -> tensor<2x2x64x24xf32>, tensor<2x2x64xf32>
  return %a, %b, %c, %d, %e, %s : tensor<2x2x64x16xf32>, tensor<2x2x64x16xf32>, tensor<2x2x64x32xf32>, tensor<2x2x64x24xf32>, tensor<2x2x64x24xf32>, tensor<2x2x64xf32>
}

func.func @reduce(%k: tensor<2x2x64x16xf32>, %v: tensor<2x2x64x8xf32>, %m: tensor<2x64xi1>, %w: tensor<24x16xf32>) -> (tensor<2x2x16x8xf32>, tensor<2x2x16xf32>, tensor<2x2x24x8xf32>, tensor<2x2x24xf32>) {
  %phi = attic.feature_map elu_plus_one %k : tensor<2x2x64x16xf32> -> tensor<2x2x64x16xf32>
  %s, %z = attic.state_reduce %phi, %v mask(%m : tensor<2x64xi1>) : tensor<2x2x64x16xf32>, tensor<2x2x64x8xf32> -> tensor<2x2x16x8xf32>, tensor<2x2x16xf32>
  %fk, %c = attic.feature_map favor_plus %k projection(%w : tensor<24x16xf32>) : tensor<2x2x64x16xf32> -> tensor<2x2x64x24xf32>, tensor<2x2x64xf32>
  %s2, %z2 = attic.state_reduce %fk, %v mask(%m : tensor<2x64xi1>) stabilizer(%c : tensor<2x2x64xf32>) : tensor<2x2x64x24xf32>, tensor<2x2x64x8xf32> -> tensor<2x2x24x8xf32>, tensor<2x2x24xf32>
  return %s, %z, %s2, %z2 : tensor<2x2x16x8xf32>, tensor<2x2x16xf32>, tensor<2x2x24x8xf32>, tensor<2x2x24xf32>
}

func.func @scan(%q: tensor<2x2x64x16xf32>, %k: tensor<2x2x64x16xf32>, %v: tensor<2x2x64x8xf32>, %m: tensor<2x64xi1>, %w: tensor<24x16xf32>) -> (tensor<2x2x64x8xf32>, tensor<2x2x64xf32>, tensor<2x2x64x8xf32>, tensor<2x2x64xf32>) {
  %pq = attic.feature_map elu_plus_one %q : tensor<2x2x64x16xf32> -> tensor<2x2x64x16xf32>
  %pk = attic.feature_map elu_plus_one %k : tensor<2x2x64x16xf32> -> tensor<2x2x64x16xf32>
  %n, %d = attic.state_scan %pq, %pk, %v mask(%m : tensor<2x64xi1>) {chunk = 16 : i64} : tensor<2x2x64x16xf32>, tensor<2x2x64x16xf32>, tensor<2x2x64x8xf32> -> tensor<2x2x64x8xf32>, tensor<2x2x64xf32>
  %fq = attic.feature_map favor_plus %q projection(%w : tensor<24x16xf32>) : tensor<2x2x64x16xf32> -> tensor<2x2x64x24xf32>
  %fk, %c = attic.feature_map favor_plus %k projection(%w : tensor<24x16xf32>) : tensor<2x2x64x16xf32> -> tensor<2x2x64x24xf32>, tensor<2x2x64xf32>
  %n2, %d2 = attic.state_scan %fq, %fk, %v mask(%m : tensor<2x64xi1>) stabilizer(%c : tensor<2x2x64xf32>) {chunk = 16 : i64} : tensor<2x2x64x24xf32>, tensor<2x2x64x24xf32>, tensor<2x2x64x8xf32> -> tensor<2x2x64x8xf32>, tensor<2x2x64xf32>
  return %n, %d, %n2, %d2 : tensor<2x2x64x8xf32>, tensor<2x2x64xf32>, tensor<2x2x64x8xf32>, tensor<2x2x64xf32>
}

func.func @hash_sort(%x: tensor<2x2x64x16xf32>, %r: tensor<16x4xf32>) -> (tensor<2x2x64xi64>, tensor<2x2x64xi64>, tensor<2x2x64xi64>) {
  %h = attic.lsh_hash %x, %r : tensor<2x2x64x16xf32>, tensor<16x4xf32> -> tensor<2x2x64xi64>
  %p, %i = attic.bucket_sort %h {num_buckets = 8 : i64} : tensor<2x2x64xi64> -> tensor<2x2x64xi64>, tensor<2x2x64xi64>
  return %h, %p, %i : tensor<2x2x64xi64>, tensor<2x2x64xi64>, tensor<2x2x64xi64>
}

func.func @kmeans(%x: tensor<2x2x96x16xf32>) -> (tensor<2x2x12x16xf32>, tensor<2x2x96xi64>) {
  %c, %a = attic.kmeans %x {clusters = 12 : i64, iterations = 5 : i64, seed = 3 : i64} : tensor<2x2x96x16xf32> -> tensor<2x2x12x16xf32>, tensor<2x2x96xi64>
  return %c, %a : tensor<2x2x12x16xf32>, tensor<2x2x96xi64>
}

func.func @sort_given(%h: tensor<2x2x64xi64>) -> (tensor<2x2x64xi64>, tensor<2x2x64xi64>) {
  %p, %i = attic.bucket_sort %h {num_buckets = 8 : i64} : tensor<2x2x64xi64> -> tensor<2x2x64xi64>, tensor<2x2x64xi64>
  return %p, %i : tensor<2x2x64xi64>, tensor<2x2x64xi64>
}

// K-means at head dim 1 (primitives.test): a query that is a centroid's
// initial row went to a centroid 6.5e-5 away when the distances were
// |c|^2 - 2 x.c (a 2026-11-30 audit); up to D = 4 they are sum (x - c)^2.
func.func @kmeans_d1(%x: tensor<1x4x257x1xf32>) -> (tensor<1x4x53x1xf32>, tensor<1x4x257xi64>) {
  %c, %a = attic.kmeans %x {clusters = 53 : i64, iterations = 1 : i64, seed = 1 : i64} : tensor<1x4x257x1xf32> -> tensor<1x4x53x1xf32>, tensor<1x4x257xi64>
  return %c, %a : tensor<1x4x53x1xf32>, tensor<1x4x257xi64>
}

// K-means with 100 iterations (the most the op takes; primitives.test):
// one iteration's IR in an scf.for on the CPU (unrolled, attic-run took
// 12.6 s to compile a smaller one; bench/results/cpu/iteration-loops.md).
func.func @kmeans_many(%x: tensor<1x2x64x8xf32>) -> (tensor<1x2x6x8xf32>, tensor<1x2x64xi64>) {
  %c, %a = attic.kmeans %x {clusters = 6 : i64, iterations = 100 : i64, seed = 7 : i64} : tensor<1x2x64x8xf32> -> tensor<1x2x6x8xf32>, tensor<1x2x64xi64>
  return %c, %a : tensor<1x2x6x8xf32>, tensor<1x2x64xi64>
}

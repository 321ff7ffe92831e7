// A query row whose keys are all excluded yields 0, never NaN: batch 1 has
// every key masked out; in batch 0 the causal rows see their prefix only.
// RUN: attic-run %s --entry=all_masked --check --output=%t.npy | FileCheck %s
// RUN: attic-run %s --entry=all_masked --check --block-q=4 --block-k=3 | FileCheck %s
// RUN: %python -c "import numpy as n; o=n.load('%t.npy'); assert n.isfinite(o).all(); assert (o[1]==0).all(); assert (o[0]!=0).any(); print('zero rows ok')" | FileCheck %s --check-prefix=ZERO
// A NaN in a value row of batch 1, whose rows see no key, does not reach
// them (0 * NaN): they stay 0, on every target (a mutation test: the empty
// rows' select was dropped and no other test failed numerically).
// RUN: %python -c "import numpy as n; r=n.random.default_rng(3); n.save('%t.q.npy', r.uniform(-1,1,(2,2,16,8)).astype(n.float32)); n.save('%t.k.npy', r.uniform(-1,1,(2,2,16,8)).astype(n.float32)); v=r.uniform(-1,1,(2,2,16,8)).astype(n.float32); v[1,:,3,:]=n.nan; n.save('%t.v.npy', v)"
// RUN: attic-run %s --entry=all_masked --input=%t.q.npy --input=%t.k.npy --input=%t.v.npy --check --output=%t3.npy | FileCheck %s
// RUN: %python -c "import numpy as n; o=n.load('%t3.npy'); assert n.isfinite(o).all(); assert (o[1]==0).all(); print('zero rows ok')" | FileCheck %s --check-prefix=ZERO
// RUN: attic-run %s --entry=all_masked --input=%t.q.npy --input=%t.k.npy --input=%t.v.npy --check --target=cuda-emulated | FileCheck %s
// RUN: attic-run %s --entry=all_masked --input=%t.q.npy --input=%t.k.npy --input=%t.v.npy --check --target=cuda-simulated | FileCheck %s
// Every bias -inf excludes every key too.
// RUN: attic-run %s --entry=all_bias_neg_inf --check --output=%t2.npy | FileCheck %s
// RUN: %python -c "import numpy as n; o=n.load('%t2.npy'); assert (o==0).all(); print('zero rows ok')" | FileCheck %s --check-prefix=ZERO

// CHECK: check: result #0 {{.*}}non_finite=0 {{.*}}: ok
// ZERO: zero rows ok

func.func @all_masked(%q: tensor<2x2x16x8xf32>, %k: tensor<2x2x16x8xf32>, %v: tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32> {
  %mask = arith.constant dense<[[true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,true],[false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false]]> : tensor<2x16xi1>
  %o = attic.attention %q, %k, %v causal mask(%mask : tensor<2x16xi1>) : tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32> -> tensor<2x2x16x8xf32>
  return %o : tensor<2x2x16x8xf32>
}

func.func @all_bias_neg_inf(%q: tensor<1x2x40x16xf16>, %k: tensor<1x2x40x16xf16>, %v: tensor<1x2x40x16xf16>) -> tensor<1x2x40x16xf16> {
  %bias = arith.constant dense<0xFF800000> : tensor<1x40xf32>
  %o = attic.attention %q, %k, %v bias(%bias : tensor<1x40xf32>) : tensor<1x2x40x16xf16>, tensor<1x2x40x16xf16>, tensor<1x2x40x16xf16> -> tensor<1x2x40x16xf16>
  return %o : tensor<1x2x40x16xf16>
}

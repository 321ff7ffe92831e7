// RUN: attic-opt %s --split-input-file --attic-decompose="wide-head-block-k=64" | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-decompose | FileCheck %s --check-prefix=OFF

// wide-head-block-k: the key block of the block lists built for f16/bf16
// attentions wider than 64 without block_sizes of their own (the GPU
// pipelines set 64: the tensor-core kernel at D = 128 and block_k = 128
// spilled and could not use wgmma). Off by default.

// CHECK-LABEL: func.func @wide_f16
// CHECK: attic.block_mask {{.*}} {block_k = 64 : i64, block_q = 128 : i64}
// CHECK: attic.block_attention {{.*}}block_k = 64 : i64, block_q = 128 : i64
// OFF-LABEL: func.func @wide_f16
// OFF: attic.block_mask {{.*}} {block_k = 128 : i64, block_q = 128 : i64}
func.func @wide_f16(%q: tensor<1x1x256x128xf16>, %k: tensor<1x1x256x128xf16>, %v: tensor<1x1x256x128xf16>) -> tensor<1x1x256x128xf16> {
  %o = attic.attention %q, %k, %v layout(#attic.random<block = 64, count = 2, seed = 7>)
      : tensor<1x1x256x128xf16>, tensor<1x1x256x128xf16>, tensor<1x1x256x128xf16> -> tensor<1x1x256x128xf16>
  return %o : tensor<1x1x256x128xf16>
}

// -----

// A wide value head is enough (bf16, D = 64, Dv = 128).
// CHECK-LABEL: func.func @wide_value_bf16
// CHECK: attic.block_mask {{.*}} {block_k = 64 : i64, block_q = 128 : i64}
func.func @wide_value_bf16(%q: tensor<1x1x256x64xbf16>, %k: tensor<1x1x256x64xbf16>, %v: tensor<1x1x256x128xbf16>) -> tensor<1x1x256x128xbf16> {
  %o = attic.attention %q, %k, %v layout(#attic.random<block = 64, count = 2, seed = 7>)
      : tensor<1x1x256x64xbf16>, tensor<1x1x256x64xbf16>, tensor<1x1x256x128xbf16> -> tensor<1x1x256x128xbf16>
  return %o : tensor<1x1x256x128xbf16>
}

// -----

// Unchanged: f32 (no tensor cores), heads of 64, and the op's own
// block_sizes.
// CHECK-LABEL: func.func @unchanged
// CHECK: attic.block_mask {{.*}} {block_k = 128 : i64, block_q = 128 : i64}
// CHECK: attic.block_mask {{.*}} {block_k = 128 : i64, block_q = 128 : i64}
// CHECK: attic.block_mask {{.*}} {block_k = 128 : i64, block_q = 64 : i64}
func.func @unchanged(%q: tensor<1x1x256x128xf32>, %k: tensor<1x1x256x128xf32>, %v: tensor<1x1x256x128xf32>,
                     %q2: tensor<1x1x256x64xf16>, %k2: tensor<1x1x256x64xf16>, %v2: tensor<1x1x256x64xf16>,
                     %q3: tensor<1x1x256x128xf16>, %k3: tensor<1x1x256x128xf16>, %v3: tensor<1x1x256x128xf16>)
    -> (tensor<1x1x256x128xf32>, tensor<1x1x256x64xf16>, tensor<1x1x256x128xf16>) {
  %o = attic.attention %q, %k, %v layout(#attic.random<block = 64, count = 2, seed = 7>)
      : tensor<1x1x256x128xf32>, tensor<1x1x256x128xf32>, tensor<1x1x256x128xf32> -> tensor<1x1x256x128xf32>
  %o2 = attic.attention %q2, %k2, %v2 layout(#attic.random<block = 64, count = 2, seed = 7>)
      : tensor<1x1x256x64xf16>, tensor<1x1x256x64xf16>, tensor<1x1x256x64xf16> -> tensor<1x1x256x64xf16>
  %o3 = attic.attention %q3, %k3, %v3 layout(#attic.random<block = 64, count = 2, seed = 7>) block_sizes [64, 128]
      : tensor<1x1x256x128xf16>, tensor<1x1x256x128xf16>, tensor<1x1x256x128xf16> -> tensor<1x1x256x128xf16>
  return %o, %o2, %o3 : tensor<1x1x256x128xf32>, tensor<1x1x256x64xf16>, tensor<1x1x256x128xf16>
}

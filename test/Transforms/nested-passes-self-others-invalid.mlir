// As nested-passes-self-invalid.mlir, for the other passes that run on any
// op: nested in any(...) they ran on the attic op itself and did nothing,
// with exit 0, leaving it unlowered.
// RUN: not attic-opt %s --pass-pipeline='builtin.module(func.func(any(attic-expand-vcc)))' 2>&1 | FileCheck %s --check-prefix=VCC
// RUN: not attic-opt %s --pass-pipeline='builtin.module(func.func(any(attic-decompose)))' 2>&1 | FileCheck %s --check-prefix=DECOMPOSE
// At the function, they lower the ops inside it.
// RUN: attic-opt %s --pass-pipeline='builtin.module(func.func(attic-decompose))' | FileCheck %s --check-prefix=FUNC

// VCC: error: {{'attic\.(vip_order|attention)'}} op is the op attic-expand-vcc runs on: it lowers the attic ops inside the op it runs on (a function or module), so nest it on that op, not in any(...) below it
// DECOMPOSE: error: {{'attic\.(vip_order|attention)'}} op is the op attic-decompose runs on
// FUNC-LABEL: func.func @attention
// FUNC-NOT: attic.attention
// FUNC: attic.block_attention

func.func @vip(%vip: tensor<2x128xi1>) -> tensor<2x128xi64> {
  %perm, %inverse = attic.vip_order %vip {num_vip = 8 : i64} : tensor<2x128xi1> -> tensor<2x128xi64>, tensor<2x128xi64>
  return %perm : tensor<2x128xi64>
}

func.func @attention(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.attention %q, %q, %q causal : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

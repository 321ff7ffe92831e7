// Logits of magnitude ~1e4 (inputs in [-40, 40), D=64, scale 1/8): the
// running max keeps exp() in range, so nothing overflows and the result
// matches the double-precision reference. f32 itself rounds a logit of 1e4
// to about 1e-3, which bounds the agreement.
// RUN: attic-run %s --entry=big --range-lo=-40 --range-hi=40 --check --tolerance=1e-3 --output=%t.npy | FileCheck %s
// RUN: attic-run %s --entry=big_causal --range-lo=-40 --range-hi=40 --check --tolerance=1e-3 | FileCheck %s
// RUN: %python -c "import numpy as n; o=n.load('%t.npy'); assert n.isfinite(o).all(); assert n.abs(o).max() > 1; print('finite, not lost')" | FileCheck %s --check-prefix=PY

// CHECK: check: result #0 {{.*}}non_finite=0 {{.*}}: ok
// PY: finite, not lost

func.func @big(%q: tensor<1x2x128x64xf32>, %k: tensor<1x2x128x64xf32>, %v: tensor<1x2x128x64xf32>) -> tensor<1x2x128x64xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x2x128x64xf32>, tensor<1x2x128x64xf32>, tensor<1x2x128x64xf32> -> tensor<1x2x128x64xf32>
  return %o : tensor<1x2x128x64xf32>
}

func.func @big_causal(%q: tensor<1x2x128x64xf32>, %k: tensor<1x2x128x64xf32>, %v: tensor<1x2x128x64xf32>) -> tensor<1x2x128x64xf32> {
  %o = attic.attention %q, %k, %v causal : tensor<1x2x128x64xf32>, tensor<1x2x128x64xf32>, tensor<1x2x128x64xf32> -> tensor<1x2x128x64xf32>
  return %o : tensor<1x2x128x64xf32>
}

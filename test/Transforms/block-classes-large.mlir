// RUN: attic-opt %s --split-input-file --attic-report-block-classes -o /dev/null 2>&1 | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-report-block-classes="block-q=1024 block-k=1024" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LARGER

// 2048 x 2048 blocks of 128 (4M pairs) are not reported; it ran out of
// memory (2 KB a pair). In blocks of 1024: 256 x 256 pairs, reported.
// CHECK: remark: block classes: not reported (128x128 blocks of 262144 queries and 262144 keys are 4194304 block pairs, above 2^20; report larger blocks)
// LARGER: remark: block classes (1024x1024, b = 0, h = 0): 32640 full, 256 partial, 32640 skipped, 0 decided at run time
func.func @long(%q: tensor<1x1x262144x16xf32>) -> tensor<1x1x262144x16xf32> {
  %o = attic.attention %q, %q, %q causal : tensor<1x1x262144x16xf32>, tensor<1x1x262144x16xf32>, tensor<1x1x262144x16xf32> -> tensor<1x1x262144x16xf32>
  return %o : tensor<1x1x262144x16xf32>
}

// -----

// 2^40 tokens: 2^64 pairs of blocks of 128 wrapped to 0 in 64 bits, and
// the pass built the grid without end (a 2026-11-30 audit).
// CHECK: remark: block classes: not reported (128x128 blocks of 1099511627776 queries and 1099511627776 keys are more than 2^63 block pairs, above 2^20; report larger blocks)
// LARGER: remark: block classes: not reported (1024x1024 blocks of 1099511627776 queries and 1099511627776 keys are 1152921504606846976 block pairs, above 2^20; report larger blocks)
func.func @huge(%q: tensor<1x1x1099511627776x16xf16>) -> tensor<1x1x1099511627776x16xf16> {
  %o = attic.attention %q, %q, %q causal : tensor<1x1x1099511627776x16xf16>, tensor<1x1x1099511627776x16xf16>, tensor<1x1x1099511627776x16xf16> -> tensor<1x1x1099511627776x16xf16>
  return %o : tensor<1x1x1099511627776x16xf16>
}

// RUN: attic-opt %s --split-input-file --attic-report-block-classes --verify-diagnostics
// RUN: not attic-opt %s --attic-report-block-classes="block-q=0" 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not attic-opt %s --attic-report-block-classes="block-k=2048" 2>&1 | FileCheck %s --check-prefix=OPTION2

// OPTION: error: attic-report-block-classes: block-q and block-k must be in [1, 1024], got 0 and 128
// OPTION2: error: attic-report-block-classes: block-q and block-k must be in [1, 1024], got 128 and 2048
// Nested on each function of the whole file: one report, before the run.
// RUN: not attic-opt %s --pass-pipeline="builtin.module(func.func(attic-report-block-classes{block-q=0}))" 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: <unknown>:0: error: attic-report-block-classes: block-q and block-k must be in [1, 1024], got 0 and 128
// NESTED-NOT: must be in

func.func @dynamic_lengths(%q: tensor<1x2x?x16xf32>) -> tensor<1x2x?x16xf32> {
  // expected-remark @+1 {{block classes: not reported (dynamic lengths)}}
  %o = attic.attention %q, %q, %q causal : tensor<1x2x?x16xf32>, tensor<1x2x?x16xf32>, tensor<1x2x?x16xf32> -> tensor<1x2x?x16xf32>
  return %o : tensor<1x2x?x16xf32>
}

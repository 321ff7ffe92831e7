// RUN: attic-opt %s --attic-lower-block-mask --verify-diagnostics

// An op that reports to the runtime must be in a function inside a symbol
// table, where the runtime's error function is declared.

%c8 = arith.constant 8 : index
%e3 = memref.alloc() : memref<1x1x2xi32>
%e4 = memref.alloc() : memref<1x1x2x2xi32>
// expected-error @+1 {{'attic.block_mask' op needs its function inside a module (or another symbol table) to declare the runtime's attic_rt_report_error}}
attic.block_mask layout(#attic.causal) sizes(%c8, %c8) outs(%e3, %e4, %e3, %e4 : memref<1x1x2xi32>, memref<1x1x2x2xi32>, memref<1x1x2xi32>, memref<1x1x2x2xi32>) {block_q = 4 : i64, block_k = 4 : i64}

// The GPU mapping fuses adjacent parallel loops over one iteration space
// (attic-hoist-allocs and upstream scf-parallel-loop-fusion, after
// convert-linalg-to-parallel-loops in buildGpuOffloadPipeline) when the
// second reads what the first writes only at its own index: one kernel
// instead of two. A loop that reads the
// first's result at another index (the transpose) is not fused with it, so
// it still sees the whole result; the transpose and the product after it
// are fused. Each result is checked against the reference, as the kernels
// run emulated and in the GPU simulator.
// RUN: attic-opt %s --attic-cuda-pipeline="chip=sm_80 format=isa" | FileCheck %s
// The CPU pipeline fuses them the same way: one OpenMP parallel region
// instead of two, two for the transpose (bench/results/cpu/loop-fusion.md).
// RUN: attic-opt %s --attic-cpu-pipeline | FileCheck %s --check-prefix=CPU
// RUN: attic-run %s --entry=same_index --check | FileCheck %s --check-prefix=EXEC
// RUN: attic-run %s --entry=transposed --check | FileCheck %s --check-prefix=EXEC
// RUN: attic-run %s --entry=same_index --target=cuda-emulated --check | FileCheck %s --check-prefix=EXEC
// RUN: attic-run %s --entry=transposed --target=cuda-emulated --check | FileCheck %s --check-prefix=EXEC
// RUN: attic-run %s --entry=same_index --target=cuda-simulated --check | FileCheck %s --check-prefixes=EXEC,SIM1
// RUN: attic-run %s --entry=transposed --target=cuda-simulated --check | FileCheck %s --check-prefixes=EXEC,SIM2

// CHECK-LABEL: llvm.func @same_index
// CHECK: gpu.launch_func {{.*}} @same_index_kernel::@same_index_kernel
// CHECK-NOT: gpu.launch_func
// CHECK-LABEL: llvm.func @transposed
// CHECK: gpu.launch_func {{.*}} @same_index_kernel::@transposed_kernel
// CHECK: gpu.launch_func {{.*}} @same_index_kernel::@transposed_kernel_0
// CHECK-NOT: gpu.launch_func
// CPU-LABEL: llvm.func @same_index
// CPU: omp.parallel
// CPU-NOT: omp.parallel
// CPU-LABEL: llvm.func @transposed
// CPU: omp.parallel
// CPU: omp.parallel
// CPU-NOT: omp.parallel
// CPU: llvm.return
// SIM1: simulated: 1 launches,
// SIM2: simulated: 2 launches,
// EXEC: check: result #0 (64x64 f32): {{.*}}: ok

func.func @same_index(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = arith.addf %x, %y : tensor<64x64xf32>
  %b = arith.mulf %a, %x : tensor<64x64xf32>
  return %b : tensor<64x64xf32>
}

func.func @transposed(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = arith.addf %x, %y : tensor<64x64xf32>
  %init = tensor.empty() : tensor<64x64xf32>
  %t = linalg.transpose ins(%a : tensor<64x64xf32>) outs(%init : tensor<64x64xf32>) permutation = [1, 0]
  %b = arith.mulf %t, %x : tensor<64x64xf32>
  return %b : tensor<64x64xf32>
}

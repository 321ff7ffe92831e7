// RUN: attic-opt %s --split-input-file | attic-opt --split-input-file | FileCheck %s --check-prefix=ROUND
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention | FileCheck %s --check-prefix=TILE
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-cpu-map-tiles="vector-width=8" | FileCheck %s --check-prefix=CPU
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles | FileCheck %s --check-prefix=GPU
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="tensor-cores=false" | FileCheck %s --check-prefix=EMU

// The pooled epilogue of the shared tile loop, pass by pass: the pool
// destination round-trips; attic-tile-block-attention pools each finished
// query block right after storing it (attic.tile.pool); the CPU sums the
// rows of the result tile a vector of columns at a time (rounded to the
// stored f16 as the store wrote them) and writes the pooled row with a
// masked store; the GPU mapping (f16, but the tensor-core kernel has no
// pooled epilogue, so the thread-per-row kernel) pools behind a barrier in
// the same kernel, and with tensor-cores=false (kernels attic-gpu-emulate
// can run: no barriers) in a second kernel after the first.

// ROUND-LABEL: func.func @pooled
// ROUND: attic.block_attention ins(%{{.*}}, %{{.*}}, %{{.*}} : memref<2x3x40x8xf16>, memref<2x3x48x8xf16>, memref<2x3x48x16xf16>) pool(%{{.*}} : memref<2x40xf32> into %{{.*}} : memref<2x3x3x16xf32>) outs(%{{.*}} : memref<2x3x40x16xf16>)

// TILE-LABEL: func.func @pooled
// TILE: attic.tile.grid
// TILE: attic.tile.store %[[ACC:.*]] into %arg4[%[[B:.*]], %[[H:.*]], %[[QB:.*]]] : memref<16x16xf32> into memref<2x3x40x16xf16>
// TILE-NEXT: attic.tile.pool %[[ACC]] stored(%arg4) weights(%arg3) into %arg5[%[[B]], %[[H]], %[[QB]]]

// CPU-LABEL: func.func @pooled
// CPU: vector.maskedstore %arg4
// CPU: scf.for
// CPU: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>)
// CPU: memref.load %arg3
// CPU: vector.load
// CPU: arith.truncf {{.*}} : vector<8xf32> to vector<8xf16>
// CPU: arith.extf
// CPU: vector.fma
// CPU: vector.create_mask
// CPU: vector.maskedstore %arg5{{.*}} : memref<2x3x3x16xf32>
// CPU-NOT: attic.tile

// GPU-LABEL: func.func @pooled
// GPU: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c16{{.*}}) private(
// GPU-NOT: nvgpu.mma
// GPU: gpu.barrier
// GPU: scf.for {{.*}} step %c16
// GPU: memref.load %arg3
// GPU: memref.load %arg4
// GPU: arith.extf
// GPU: memref.store {{.*}}, %arg5{{.*}} : memref<2x3x3x16xf32>
// GPU: gpu.terminator
// GPU-NOT: gpu.launch

// EMU-LABEL: func.func @pooled
// EMU: %[[FIRST:.*]] = gpu.launch async
// EMU-NOT: gpu.barrier
// EMU: gpu.wait [%[[FIRST]]]
// EMU: %[[AFTER:.*]] = gpu.wait async
// EMU: %[[SECOND:.*]] = gpu.launch async [%[[AFTER]]]
// EMU: memref.store {{.*}}, %arg5{{.*}} : memref<2x3x3x16xf32>
// EMU: gpu.wait [%[[SECOND]]]
func.func @pooled(%q: memref<2x3x40x8xf16>, %k: memref<2x3x48x8xf16>, %v: memref<2x3x48x16xf16>, %w: memref<2x40xf32>, %o: memref<2x3x40x16xf16>, %p: memref<2x3x3x16xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<2x3x40x8xf16>, memref<2x3x48x8xf16>, memref<2x3x48x16xf16>)
      pool(%w : memref<2x40xf32> into %p : memref<2x3x3x16xf32>)
      outs(%o : memref<2x3x40x16xf16>)
      {layout = #attic.causal, scale = 0.35 : f32, block_q = 16 : i64, block_k = 16 : i64}
  return
}


// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="tensor-cores=false" | FileCheck %s --check-prefix=SIMT
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="async-copies=false" | FileCheck %s --check-prefix=SYNC
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="kv-stages=2" | FileCheck %s --check-prefix=RING
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="kv-stages=3" | FileCheck %s --check-prefix=STAGE3
// RUN: not attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="kv-stages=4" 2>&1 | FileCheck %s --check-prefix=STAGES
// STAGES: attic-gpu-map-tiles: kv-stages must be 1, 2 or 3, got 4
// RUN: not attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="kv-stages=2 async-copies=false" 2>&1 | FileCheck %s --check-prefix=RINGSYNC
// RINGSYNC: attic-gpu-map-tiles: kv-stages=2 needs async-copies (the ring is filled by cp.async)
// The tensor-core kernel's options with tensor-cores=false (accepted and
// ignored before 2026-12-02).
// RUN: not attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="tensor-cores=false wgmma=true" 2>&1 | FileCheck %s --check-prefix=SIMTWGMMA
// SIMTWGMMA: attic-gpu-map-tiles: wgmma is an option of the tensor-core kernel, which tensor-cores=false does not use
// RUN: not attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="tensor-cores=false kv-stages=2" 2>&1 | FileCheck %s --check-prefix=SIMTRING
// SIMTRING: attic-gpu-map-tiles: kv-stages=2 is an option of the tensor-core kernel, which tensor-cores=false does not use
// RUN: not attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="tensor-cores=false async-copies=false" 2>&1 | FileCheck %s --check-prefix=SIMTSYNC
// SIMTSYNC: attic-gpu-map-tiles: async-copies=false is an option of the tensor-core kernel, which tensor-cores=false does not use

// f16, D = Dv = 16: the tensor-core pattern. One launch of (B*Hq, nQB)
// blocks of 2 warps (block_q = 32), each at least 1, on its own token
// chain, the body under a guard against empty grids (uniform, in the
// kernel: the host has no branch around the launch); block y runs query block nQB - 1 - y (the heavy
// causal blocks start first). Shared memory: K and V row-major with rows padded
// to 16+8 halves (16 keys x 24, 16-byte aligned rows); no per-key term (no
// bias, no key mask: the keys past Nk = 40 are masked by the partial
// blocks' predicate, the last key block being partial). The tile loop's
// key-block loop and its classification branches carry the row statistics
// and the accumulator (2 + 2 + 8 registers per lane) and the key block
// whose K is in Ks or on its way (an index, -1 at first), nothing else. Per
// visited block: a barrier; K copied with cp.async (16 bytes per copy,
// zero-filled past Nk) unless the previous block prefetched it (a stale
// prefetch lands first), and V, each its own group; wait for
// all but V's group, a barrier; ldmatrix .x4 of K and mma.sync for Q K^T,
// quad shuffles for the row reductions and ex2.approx for exp2; then wait
// for V, a barrier, the next key block's K copied into Ks while ldmatrix
// .x4 .trans of V and mma.sync compute P V. A wait for every group at the
// end of the kernel.
// CHECK-LABEL: func.func @tensor_cores
// CHECK: %[[NONEMPTY:.*]] = arith.andi
// CHECK-NEXT: %[[GX1:.*]] = arith.maxsi %{{.*}}, %c1
// CHECK-NEXT: %[[GY1:.*]] = arith.maxsi %{{.*}}, %c1
// CHECK-NOT: scf.if
// CHECK: %[[T:.*]] = gpu.wait async
// CHECK: gpu.launch async [%[[T]]] blocks(%{{arg[0-9]+}}, %[[BY:arg[0-9]+]], %{{arg[0-9]+}}) in (%{{arg[0-9]+}} = %[[GX1]], %[[GY:arg[0-9]+]] = %[[GY1]], %{{[^)]*}}) threads({{.*}}) in (%{{.*}} = %c64{{.*}}) workgroup(%[[KS:arg[0-9]+]] : memref<384xf16, #gpu.address_space<workgroup>>, %[[VS:arg[0-9]+]] : memref<384xf16, #gpu.address_space<workgroup>>)
// CHECK-NEXT: scf.if %[[NONEMPTY]] {
// CHECK: %[[LASTQB:.*]] = arith.subi %[[GY]], %{{.*}} : index
// CHECK-NEXT: arith.subi %[[LASTQB]], %[[BY]] : index
// CHECK: vector.load {{.*}} : memref<1x2x40x16xf16>, vector<2xf16>
// CHECK: scf.for %[[KB:.*]] = {{.*}} iter_args({{.*}}, %[[TAG:.*]] = %c-1) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, index)
// CHECK: scf.if {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, index)
// CHECK: gpu.barrier
// CHECK-NEXT: %[[STALE:.*]] = arith.cmpi ne, %[[TAG]], %[[KB]] : index
// CHECK-NEXT: scf.if %[[STALE]] {
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK: %[[ROWS:.*]] = arith.select %{{.*}}, %c8{{[_0-9]*}}, %c0{{[_0-9]*}} : index
// CHECK: nvgpu.device_async_copy %{{.*}}[{{.*}}], %[[KS]][%{{.*}}], 8, %[[ROWS]] {bypassL1} : memref<1x2x40x16xf16> to memref<384xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK: nvgpu.device_async_copy %{{.*}}[{{.*}}], %[[VS]][%{{.*}}], 8, %{{.*}} {bypassL1} : memref<1x2x40x16xf16> to memref<384xf16, #gpu.address_space<workgroup>>
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: memref.store
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.ldmatrix %[[KS]][%{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<384xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.mma.sync
// CHECK: nvgpu.mma.sync
// CHECK-NOT: memref.load
// CHECK: gpu.shuffle xor
// CHECK: llvm.inline_asm asm_dialect = att "ex2.approx.ftz.f32 $0, $1;"
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[KB]], %{{.*}} : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi slt, %[[NEXT]], %{{.*}} : index
// CHECK-NEXT: %[[NEWTAG:.*]] = scf.if %[[IN]] -> (index) {
// CHECK: %[[VALID:.*]] = arith.andi
// CHECK-NEXT: scf.if %[[VALID]] {
// CHECK: nvgpu.device_async_copy %{{.*}}[{{.*}}], %[[KS]][%{{.*}}], 8, %{{.*}} {bypassL1}
// CHECK: %[[T:.*]] = arith.select %[[VALID]], %[[NEXT]], %[[KB]] : index
// CHECK-NEXT: scf.yield %[[T]] : index
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[KB]] : index
// CHECK: nvvm.cp.async.commit.group
// CHECK: arith.truncf %{{.*}} : vector<2xf32> to vector<2xf16>
// CHECK: nvgpu.ldmatrix %[[VS]][%{{.*}}] {numTiles = 4 : i32, transpose = true} : memref<384xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.mma.sync
// CHECK: nvgpu.mma.sync
// CHECK: scf.yield {{.*}}, %[[NEWTAG]] : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, index
// CHECK: vector.store %{{.*}}, %{{.*}} : memref<1x2x40x16xf16>, vector<2xf16>
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: }
// CHECK-NEXT: gpu.terminator
// CHECK: gpu.wait [%{{.*}}]
// CHECK-NOT: attic.tile
// async-copies=false (the kernel before cp.async, for A/B timing): K and
// V loaded into registers and stored to shared memory, 16 bytes per item,
// between one pair of barriers; no cp.async, no key-block tag.
// SYNC-LABEL: func.func @tensor_cores
// SYNC: workgroup(%[[KS:arg[0-9]+]] : memref<384xf16, #gpu.address_space<workgroup>>, %[[VS:arg[0-9]+]] : memref<384xf16, #gpu.address_space<workgroup>>
// SYNC-NOT: nvvm.cp.async
// SYNC: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// SYNC: gpu.barrier
// SYNC: vector.load %{{.*}} {alignment = 16 : i64} : memref<1x2x40x16xf16>, vector<8xf16>
// SYNC: vector.store %{{.*}}, %[[KS]][%{{.*}}] {alignment = 16 : i64} : memref<384xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// SYNC: vector.store %{{.*}}, %[[VS]][%{{.*}}] {alignment = 16 : i64} : memref<384xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// SYNC: gpu.barrier
// SYNC-NOT: gpu.barrier
// SYNC: nvgpu.ldmatrix %[[KS]]
// SYNC-NOT: gpu.barrier
// SYNC: nvgpu.ldmatrix %[[VS]]
// SYNC-NOT: nvgpu.device_async_copy
// SYNC-NOT: nvvm.cp.async
// SYNC: gpu.terminator
// kv-stages=2: K and V rings of two slots in dynamic shared memory (Ks,
// then Vs, each 2 x 16 keys x 24 halves; the term stays static). The tile
// loop carries the tag and the slot it is in (-1 and 0 at first). Per
// visited block: a barrier; the slot's offsets; if the tag is not this
// block, a stale prefetch lands and K and V are copied into the slot, one
// group; the next iteration's K and V (when it is a block of the keys:
// else the tag is -1) into the other slot, one group; the term; wait for
// all but the prefetch, a barrier; Q K^T, softmax and P V read the slot
// with no further barrier; the loop passes on the prefetch's tag and the
// other slot.
// RING-LABEL: func.func @tensor_cores
// RING: gpu.launch async {{.*}} dynamic_shared_memory_size %c3072_i32 workgroup(%[[TERM:arg[0-9]+]] : memref<16xf32, #gpu.address_space<workgroup>>)
// RING: %[[DYN:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// RING: %[[KS:.*]] = memref.view %[[DYN]][%c0{{[_0-9]*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<768xf16, #gpu.address_space<workgroup>>
// RING: %[[VS:.*]] = memref.view %[[DYN]][%c1536][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<768xf16, #gpu.address_space<workgroup>>
// RING: scf.for %[[KB:.*]] = {{.*}} iter_args({{.*}}, %[[TAG:.*]] = %c-1, %[[SLOT:.*]] = %c0{{[_0-9]*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, index, index)
// RING: gpu.barrier
// RING: %[[KOFF:.*]] = arith.muli %[[SLOT]], %c384
// RING: %[[VOFF:.*]] = arith.muli %[[SLOT]], %c384
// RING-NEXT: %[[STALE:.*]] = arith.cmpi ne, %[[TAG]], %[[KB]] : index
// RING-NEXT: scf.if %[[STALE]] {
// RING-NEXT: nvvm.cp.async.wait.group 0
// RING: arith.addi %{{.*}}, %[[KOFF]] : index
// RING: nvgpu.device_async_copy %{{.*}}, %[[KS]][%{{.*}}], 8, %{{.*}} {bypassL1}
// RING: arith.addi %{{.*}}, %[[VOFF]] : index
// RING: nvgpu.device_async_copy %{{.*}}, %[[VS]][%{{.*}}], 8, %{{.*}} {bypassL1}
// RING: nvvm.cp.async.commit.group
// RING-NEXT: }
// RING: %[[OTHER:.*]] = arith.subi %c1{{[_0-9]*}}, %[[SLOT]] : index
// RING: %[[NEXT:.*]] = arith.addi %[[KB]], %{{.*}} : index
// RING-NEXT: %[[IN:.*]] = arith.cmpi slt, %[[NEXT]], %{{.*}} : index
// RING-NEXT: %[[NEWTAG:.*]] = scf.if %[[IN]] -> (index) {
// RING: %[[VALID:.*]] = arith.andi
// RING-NEXT: scf.if %[[VALID]] {
// RING: arith.muli %[[OTHER]], %c384
// RING: nvgpu.device_async_copy %{{.*}}, %[[KS]]
// RING: arith.muli %[[OTHER]], %c384
// RING: nvgpu.device_async_copy %{{.*}}, %[[VS]]
// RING: arith.select %[[VALID]], %[[NEXT]], %c-1{{[_0-9]*}} : index
// RING: } else {
// RING: scf.yield %c-1{{[_0-9]*}} : index
// RING: nvvm.cp.async.commit.group
// RING: memref.store %{{.*}}, %[[TERM]]
// RING: nvvm.cp.async.wait.group 1
// RING-NEXT: gpu.barrier
// RING-NOT: gpu.barrier
// RING: %[[KROW:.*]] = arith.addi %{{.*}}, %[[KOFF]] : index
// RING-NEXT: nvgpu.ldmatrix %[[KS]][%[[KROW]]] {numTiles = 4 : i32, transpose = false}
// RING-NOT: gpu.barrier
// RING-NOT: nvvm.cp.async
// RING: nvgpu.ldmatrix %[[VS]][%{{.*}}] {numTiles = 4 : i32, transpose = true}
// RING-NOT: gpu.barrier
// RING: scf.yield {{.*}}, %[[NEWTAG]], %[[OTHER]] : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, index, index
// RING: vector.store %{{.*}}, %{{.*}} : memref<1x2x40x16xf16>, vector<2xf16>
// RING: nvvm.cp.async.wait.group 0
// RING-NEXT: }
// RING-NEXT: gpu.terminator
// kv-stages=3: three K and three V slots (3 x 768 bytes each; a term would
// take two buffers, @key_mask_term). The slot counts the prefetches: K's
// and V's slot is the count % 3, and the next iteration gets the count +
// 1. Per visited block
// there is no barrier before the copies (the prefetch goes to the slot of
// three blocks before, which every thread finished reading before the
// previous block's barrier), and one after the wait: one barrier per block
// and per classification branch.
// STAGE3-LABEL: func.func @tensor_cores
// STAGE3: gpu.launch async {{.*}} dynamic_shared_memory_size %c4608_i32 {
// STAGE3: memref.view %{{.*}}[%c0{{[_0-9]*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1152xf16, #gpu.address_space<workgroup>>
// STAGE3: memref.view %{{.*}}[%c2304][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1152xf16, #gpu.address_space<workgroup>>
// STAGE3: scf.for %[[KB:.*]] = {{.*}} iter_args({{.*}}, %[[TAG:.*]] = %c-1, %[[COUNT:.*]] = %c0{{[_0-9]*}})
// STAGE3-NOT: gpu.barrier
// STAGE3: %[[KS:.*]] = arith.remui %[[COUNT]], %c3{{[_0-9]*}} : index
// STAGE3: %[[VS:.*]] = arith.remui %[[COUNT]], %c3{{[_0-9]*}} : index
// STAGE3-NOT: gpu.barrier
// STAGE3: %[[OTHER:.*]] = arith.addi %[[COUNT]], %c1{{[_0-9]*}} : index
// STAGE3-NOT: gpu.barrier
// STAGE3: nvvm.cp.async.wait.group 1
// STAGE3-NEXT: gpu.barrier
// STAGE3-NOT: gpu.barrier
// STAGE3: scf.yield {{.*}}, %[[OTHER]] : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, index, index
// STAGE3-NOT: gpu.barrier
// STAGE3: nvvm.cp.async.wait.group 1
// STAGE3-NEXT: gpu.barrier
// STAGE3-NOT: gpu.barrier
// STAGE3: gpu.terminator
// SIMT-LABEL: func.func @tensor_cores
// SIMT: private(
func.func @tensor_cores(%q: memref<1x2x40x16xf16>, %k: memref<1x2x40x16xf16>, %v: memref<1x2x40x16xf16>, %o: memref<1x2x40x16xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x40x16xf16>, memref<1x2x40x16xf16>, memref<1x2x40x16xf16>) outs(%o : memref<1x2x40x16xf16>) {layout = #attic.causal, scale = 0.25 : f32, block_q = 32 : i64, block_k = 16 : i64}
  return
}

// -----

// A key mask: the per-key term (log2(e) * bias, -inf for masked keys and
// keys past Nk) is a column tile in shared memory, written by the first
// block_k threads before the barrier that publishes K, read per element.
// CHECK-LABEL: func.func @key_mask_term
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<384xf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<384xf16, #gpu.address_space<workgroup>>, %[[TERM:arg[0-9]+]] : memref<16xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK: memref.load %{{.*}} : memref<1x40xi1>
// CHECK: memref.store %{{.*}}, %[[TERM]]
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.mma.sync
// CHECK: memref.load %[[TERM]]
// CHECK: gpu.shuffle xor
// kv-stages=3: the term in two buffers (32 floats), alternating by block:
// the buffer is the prefetch count % 2 (K's and V's slot the count % 3).
// STAGE3-LABEL: func.func @key_mask_term
// STAGE3: gpu.launch async {{.*}} dynamic_shared_memory_size %c4608_i32 workgroup(%[[TERM:arg[0-9]+]] : memref<32xf32, #gpu.address_space<workgroup>>)
// STAGE3: scf.for %[[KB:.*]] = {{.*}} iter_args({{.*}}, %[[TAG:.*]] = %c-1, %[[COUNT:.*]] = %c0{{[_0-9]*}})
// STAGE3-NOT: gpu.barrier
// STAGE3: %[[PARITY:.*]] = arith.remui %[[COUNT]], %c2{{[_0-9]*}} : index
// STAGE3: %[[TERMBASE:.*]] = arith.muli %[[PARITY]], %c16{{[_0-9]*}} : index
// STAGE3-NOT: gpu.barrier
// STAGE3: %[[AT:.*]] = arith.addi %{{.*}}, %[[TERMBASE]] : index
// STAGE3: memref.store %{{.*}}, %[[TERM]][%[[AT]]]
// STAGE3: nvvm.cp.async.wait.group 1
// STAGE3-NEXT: gpu.barrier
// STAGE3: memref.load %[[TERM]]
func.func @key_mask_term(%q: memref<1x2x40x16xf16>, %k: memref<1x2x40x16xf16>, %v: memref<1x2x40x16xf16>, %m: memref<1x40xi1>, %o: memref<1x2x40x16xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x40x16xf16>, memref<1x2x40x16xf16>, memref<1x2x40x16xf16>) mask(%m : memref<1x40xi1>) outs(%o : memref<1x2x40x16xf16>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 32 : i64, block_k = 16 : i64}
  return
}

// -----

// D = 128 with block_k = 128: K (34816 bytes) and V do not fit in 48 KiB
// together, so they share one buffer and each is copied where it is used
// and waited for at once (wait_group 0, a barrier); nothing is prefetched
// and no key-block tag is carried (Nk = 256: no tail block, no branch).
// CHECK-LABEL: func.func @shared_kv
// CHECK: gpu.launch {{.*}} workgroup(%[[KV:arg[0-9]+]] : memref<17408xf16, #gpu.address_space<workgroup>>)
// CHECK: scf.for {{.*}} -> ({{[f32, ]*}}f32) {
// CHECK: gpu.barrier
// CHECK-NOT: scf.if
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[KV]][%{{.*}}], 8, %{{.*}} {bypassL1} : memref<1x1x256x128xf16> to memref<17408xf16, #gpu.address_space<workgroup>>
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.ldmatrix %[[KV]]{{.*}}transpose = false
// CHECK: gpu.barrier
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[KV]][%{{.*}}], 8, %{{.*}} {bypassL1}
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.ldmatrix %[[KV]]{{.*}}transpose = true
// CHECK: scf.yield
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: }
// CHECK-NEXT: gpu.terminator
func.func @shared_kv(%q: memref<1x1x200x128xf16>, %k: memref<1x1x256x128xf16>, %v: memref<1x1x256x128xf16>, %o: memref<1x1x200x128xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x200x128xf16>, memref<1x1x256x128xf16>, memref<1x1x256x128xf16>) outs(%o : memref<1x1x200x128xf16>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 64 : i64, block_k = 128 : i64}
  return
}

// -----

// Block lists: the prefetch reads the next entry of the list (only when the
// loop has a next iteration), as the tile loop computes its key block.
// CHECK-LABEL: func.func @lists_prefetch
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %[[COUNT:.*]] step %[[STEP:[^ ]*]] iter_args({{.*}}, %{{.*}} = %c-1) -> ({{.*}}index) {
// CHECK-NEXT: %[[ENTRY:.*]] = memref.load %[[LIST:.*]][%{{.*}}, %{{.*}}, %{{.*}}, %[[T]]] : memref<1x1x2x2xi32>
// CHECK-NEXT: %[[KB:.*]] = arith.index_cast %[[ENTRY]] : i32 to index
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[T]], %[[STEP]] : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi slt, %[[NEXT]], %[[COUNT]] : index
// CHECK-NEXT: scf.if %[[IN]] -> (index) {
// CHECK-NEXT: %[[NEXTENTRY:.*]] = memref.load %[[LIST]][%{{.*}}, %{{.*}}, %{{.*}}, %[[NEXT]]] : memref<1x1x2x2xi32>
// CHECK-NEXT: %[[NEXTKB:.*]] = arith.index_cast %[[NEXTENTRY]] : i32 to index
// CHECK: nvgpu.device_async_copy
// CHECK: arith.select %{{.*}}, %[[NEXTKB]], %[[KB]] : index
// With a ring: the next entry's K and V into the other slot.
// RING-LABEL: func.func @lists_prefetch
// RING: scf.for %[[T:.*]] = %{{.*}} to %[[COUNT:.*]] step %[[STEP:[^ ]*]] iter_args({{.*}}, %{{.*}} = %c-1, %{{.*}} = %c0{{[_0-9]*}}) -> ({{.*}}index, index) {
// RING-NEXT: %[[ENTRY:.*]] = memref.load %[[LIST:.*]][%{{.*}}, %{{.*}}, %{{.*}}, %[[T]]] : memref<1x1x2x2xi32>
// RING: %[[NEXT:.*]] = arith.addi %[[T]], %[[STEP]] : index
// RING-NEXT: %[[IN:.*]] = arith.cmpi slt, %[[NEXT]], %[[COUNT]] : index
// RING-NEXT: scf.if %[[IN]] -> (index) {
// RING-NEXT: %[[NEXTENTRY:.*]] = memref.load %[[LIST]][%{{.*}}, %{{.*}}, %{{.*}}, %[[NEXT]]] : memref<1x1x2x2xi32>
// RING-NEXT: %[[NEXTKB:.*]] = arith.index_cast %[[NEXTENTRY]] : i32 to index
// RING: nvgpu.device_async_copy
// RING: nvgpu.device_async_copy
// RING: arith.select %{{.*}}, %[[NEXTKB]], %c-1{{[_0-9]*}} : index
// RING: nvvm.cp.async.wait.group 1
func.func @lists_prefetch(%q: memref<1x2x64x16xf16>, %k: memref<1x2x64x16xf16>, %v: memref<1x2x64x16xf16>, %n: memref<1x1x2xi32>, %i: memref<1x1x2x2xi32>, %fn: memref<1x1x2xi32>, %fi: memref<1x1x2x2xi32>, %o: memref<1x2x64x16xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x64x16xf16>, memref<1x2x64x16xf16>, memref<1x2x64x16xf16>) blocks(%n, %i, %fn, %fi : memref<1x1x2xi32>, memref<1x1x2x2xi32>, memref<1x1x2xi32>, memref<1x1x2x2xi32>) outs(%o : memref<1x2x64x16xf16>) {layout = #attic.causal, scale = 0.25 : f32, block_q = 32 : i64, block_k = 32 : i64}
  return
}

// -----

// bf16 goes through nvvm.mma.sync (operands as i32).
// CHECK-LABEL: func.func @bf16
// CHECK: nvgpu.ldmatrix {{.*}} -> vector<4x2xbf16>
// CHECK: nvvm.mma.sync
// CHECK-SAME: multiplicandAPtxType = #nvvm.mma_type<bf16>
func.func @bf16(%q: memref<1x1x32x16xbf16>, %k: memref<1x1x32x16xbf16>, %v: memref<1x1x32x16xbf16>, %o: memref<1x1x32x16xbf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x32x16xbf16>, memref<1x1x32x16xbf16>, memref<1x1x32x16xbf16>) outs(%o : memref<1x1x32x16xbf16>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 16 : i64, block_k = 16 : i64}
  return
}

// -----

// f32 (no f32 mma) and f16 with D = 20 (not a multiple of 16) take the
// SIMT pattern: a thread per query row (block_q threads), each scratch tile
// a private row (R x C: C floats, a row tile: 1, a column tile: C; here
// none: without a bias or key mask the keys past Nk = 19 are masked by the
// last key block's predicate), each tile op a loop over its columns; the
// body under the kernel's guard against empty grids.
// CHECK-LABEL: func.func @simt_f32
// CHECK: %[[NONEMPTY:.*]] = arith.andi
// CHECK-NOT: scf.if
// CHECK: gpu.launch async {{.*}} threads({{.*}}) in (%{{.*}} = %c8{{.*}}) private(%{{.*}} : memref<4xf32, #gpu.address_space<private>>, %{{.*}} : memref<1xf32, #gpu.address_space<private>>
// CHECK-NEXT: scf.if %[[NONEMPTY]] {
// CHECK: scf.for
// CHECK: math.exp2
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
// CHECK-LABEL: func.func @simt_d20
// CHECK: private(
// CHECK-NOT: nvgpu.mma.sync
func.func @simt_f32(%q: memref<1x1x19x8xf32>, %k: memref<1x1x19x8xf32>, %v: memref<1x1x19x8xf32>, %o: memref<1x1x19x8xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x19x8xf32>, memref<1x1x19x8xf32>, memref<1x1x19x8xf32>) outs(%o : memref<1x1x19x8xf32>) {layout = #attic.causal, scale = 0.25 : f32, block_q = 8 : i64, block_k = 4 : i64}
  return
}
func.func @simt_d20(%q: memref<1x1x32x20xf16>, %k: memref<1x1x32x20xf16>, %v: memref<1x1x32x20xf16>, %o: memref<1x1x32x20xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x32x20xf16>, memref<1x1x32x20xf16>, memref<1x1x32x20xf16>) outs(%o : memref<1x1x32x20xf16>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 16 : i64, block_k = 16 : i64}
  return
}

// -----

// A value dim that is dynamic: the SIMT thread runs its program once per
// chunk of 64 value columns.
// CHECK-LABEL: func.func @dynamic_value_dim
// CHECK: private({{.*}}memref<64xf32, #gpu.address_space<private>>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c64
func.func @dynamic_value_dim(%q: memref<1x1x20x8xf32>, %k: memref<1x1x20x8xf32>, %v: memref<1x1x20x?xf32>, %o: memref<1x1x20x?xf32>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x20x8xf32>, memref<1x1x20x8xf32>, memref<1x1x20x?xf32>) outs(%o : memref<1x1x20x?xf32>) {layout = #attic.dense, scale = 0.25 : f32, block_q = 8 : i64, block_k = 4 : i64}
  return
}

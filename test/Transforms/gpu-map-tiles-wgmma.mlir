// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="wgmma=true" | FileCheck %s
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="wgmma=true kv-stages=2" | FileCheck %s --check-prefix=RING
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="wgmma=true kv-stages=2 wgmma-overlap=true" | FileCheck %s --check-prefix=OVERLAP
// RUN: not attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="wgmma=true async-copies=false" 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: not attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="wgmma=true wgmma-overlap=true" 2>&1 | FileCheck %s --check-prefix=NOSTAGES
// RUN: not attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="kv-stages=2 wgmma-overlap=true" 2>&1 | FileCheck %s --check-prefix=NOSTAGES
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="wgmma=true kv-stages=2 tma=true" | FileCheck %s --check-prefix=TMA
// RUN: not attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="kv-stages=2 tma=true" 2>&1 | FileCheck %s --check-prefix=NOTMA
// RUN: not attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="wgmma=true tma=true" 2>&1 | FileCheck %s --check-prefix=NOTMA
// NOTMA: error: attic-gpu-map-tiles: tma needs wgmma and kv-stages=2 or 3 (TMA fills the rings' swizzled tiles that wgmma reads)
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="wgmma=true kv-stages=2 tma=true warp-specialize=true" | FileCheck %s --check-prefix=WS
// RUN: not attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="wgmma=true kv-stages=2 warp-specialize=true" 2>&1 | FileCheck %s --check-prefix=NOWS
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="wgmma=true kv-stages=2 tma=true warp-specialize=true wgmma-overlap=true" | FileCheck %s --check-prefix=WSO
// RUN: attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="wgmma=true kv-stages=2 tma=true warp-specialize=true wgmma-overlap=true ping-pong=true" | FileCheck %s --check-prefix=PP
// RUN: not attic-opt %s --split-input-file --attic-tile-block-attention --attic-gpu-map-tiles="wgmma=true kv-stages=2 tma=true warp-specialize=true ping-pong=true" 2>&1 | FileCheck %s --check-prefix=NOPP
// NOPP: error: attic-gpu-map-tiles: ping-pong needs warp-specialize and wgmma-overlap (each consumer warpgroup's turn issues a block's Q K^T and the deferred P V)
// NOWS: error: attic-gpu-map-tiles: warp-specialize needs tma (the producer warpgroup issues the rings' TMA loads)
// NOSTAGES: attic-gpu-map-tiles: wgmma-overlap needs wgmma and kv-stages=2 or 3 (the deferred P V is a wgmma that reads one more V slot of the ring)
// SYNC: attic-gpu-map-tiles: wgmma needs async-copies (the swizzled K and V tiles are filled by cp.async)

// With kv-stages=2 the K and V rings live in dynamic shared memory: each
// ring's view holds its two blocks (2 * 4096 bytes) and 1024 bytes of
// slack (4608 halves; V's view at byte 9216), 18432 bytes in all; the
// tiles are aligned as with one slot, and each product's descriptors
// start at the current slot (its element offset / 8, in 16-byte units).
// RING-LABEL: func.func @wgmma
// RING: gpu.launch async {{.*}} dynamic_shared_memory_size %c18432_i32
// RING: %[[DYN:.*]] = gpu.dynamic_shared_memory
// RING: %[[KS:.*]] = memref.view %[[DYN]][%c0{{[_0-9]*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4608xf16, #gpu.address_space<workgroup>>
// RING: %[[VS:.*]] = memref.view %[[DYN]][%c9216][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4608xf16, #gpu.address_space<workgroup>>
// RING: memref.extract_aligned_pointer_as_index %[[KS]]
// RING: %[[KDESC:.*]] = arith.ori %{{.*}}, %c4611686293305360384_i64
// RING: memref.extract_aligned_pointer_as_index %[[VS]]
// RING: %[[VDESC:.*]] = arith.ori %{{.*}}, %c4611686293322072064_i64
// RING: scf.for
// RING: nvvm.cp.async.wait.group 1
// RING-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "fence.proxy.async.shared::cta;", ""
// RING-NEXT: gpu.barrier
// RING: %[[KUNITS:.*]] = arith.divui %{{.*}}, %c8{{[_0-9]*}} : index
// RING-NEXT: %[[K64:.*]] = arith.index_cast %[[KUNITS]] : index to i64
// RING-NEXT: %[[KSLOT:.*]] = arith.addi %[[KDESC]], %[[K64]] : i64
// RING: arith.addi %[[KSLOT]], %c0_i64
// RING: wgmma.mma_async.sync.aligned.m64n32k16
// RING: %[[VUNITS:.*]] = arith.divui %{{.*}}, %c8{{[_0-9]*}} : index
// RING-NEXT: %[[V64:.*]] = arith.index_cast %[[VUNITS]] : index to i64
// RING-NEXT: %[[VSLOT:.*]] = arith.addi %[[VDESC]], %[[V64]] : i64
// RING: arith.addi %[[VSLOT]], %c0_i64
// RING: wgmma.mma_async.sync.aligned.m64n64k16

// With wgmma-overlap (and kv-stages=2) each key block's P V is deferred:
// V's ring has a third slot (3 * 4096 bytes + 1024 of slack = 6656
// halves; 22528 bytes in all). Before the tile loop the third slot is
// zeroed (the deferred product before the first visited block is 0 times
// it), fenced for the async proxy and ordered by a barrier. The ring
// counts its prefetches: K's slot is the count % 2, V's the count % 3.
// In each classification branch (causal: partial and full) Q K^T is
// committed as one group and the previous block's P V (N-major, 32
// accumulators tied in) as a second; wait_group 1 completes Q K^T only
// and passes S's 16 accumulators; the softmax runs while P V is in flight;
// at the attic.tile.pv, wait_group 0 passes the 32 accumulators, which
// are rescaled, and this block's P stays in registers (carried through
// the loop with its V slot). After the loop, the last block's P V is
// issued and waited for before the epilogue reads the accumulator.
// With tma=true, the tensor maps of K and V on the host (128-byte swizzle, zero
// fill, boxes of block_k x 64), passed to the kernel as pointers; an
// mbarrier per K slot initialized by thread 0, then slot 0's first phase an
// arrival alone; per block, thread 0 announces 8192 bytes (K and V of 32
// keys x 64) and issues two TMA loads, every thread waits for the slot's
// phase (parity from the carried bits) before the barrier; no cp.async.
// TMA-LABEL: func.func @wgmma
// TMA: nvgpu.tma.create.descriptor %{{.*}} box[%c1{{[_0-9]*}}, %c1{{[_0-9]*}}, %c32{{[_0-9]*}}, %c64{{[_0-9]*}}] : memref<*xf16> -> <tensor = memref<1x1x32x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// TMA: %[[KPTR:.*]] = builtin.unrealized_conversion_cast %{{.*}} : {{.*}} to !llvm.ptr
// TMA: nvgpu.tma.create.descriptor
// TMA: gpu.launch async
// TMA-NOT: nvgpu.device_async_copy
// TMA: %[[BARS:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// TMA: nvgpu.mbarrier.init %[[BARS]][%c0{{[_0-9]*}}], %c1
// TMA: nvgpu.mbarrier.init %[[BARS]][%c1{{[_0-9]*}}], %c1
// TMA-NEXT: nvvm.fence.mbarrier.init
// TMA: gpu.barrier
// TMA: nvgpu.mbarrier.arrive.expect_tx %[[BARS]][%{{.*}}], %c0
// TMA: builtin.unrealized_conversion_cast %[[KPTR]] : !llvm.ptr to
// TMA-NOT: nvgpu.device_async_copy
// TMA: nvgpu.mbarrier.try_wait.parity %[[BARS]]
// TMA: nvgpu.mbarrier.arrive.expect_tx %[[BARS]][%{{.*}}], %c8192
// TMA: memref.subview
// TMA: memref.expand_shape
// TMA: nvgpu.tma.async.load %{{.*}}[%c0{{[_0-9]*}}, %{{.*}}, %{{.*}}, %{{.*}}], %[[BARS]][%{{.*}}] to %{{.*}} : {{.*}} -> memref<1x1x32x64xf16, strided<[2048, 2048, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
// TMA: nvgpu.tma.async.load
// TMA: nvgpu.mbarrier.try_wait.parity %[[BARS]]
// TMA-NEXT: arith.xori
// TMA-NEXT: gpu.barrier
// TMA-NOT: nvgpu.device_async_copy
// TMA-NOT: nvvm.cp.async
// TMA: nvgpu.mbarrier.try_wait.parity %[[BARS]]
// TMA: gpu.terminator

// With warp-specialize=true: 256 threads, the consumer warpgroup (block_q
// 64) and the producer's; per slot a "full" mbarrier (one arrival: the
// producer's, with the bytes) and an "empty" one (128 arrivals: every
// consumer thread). Thread 0 initializes both, then a barrier of the whole
// block; then the roles: the consumers (tid < 128) take 240 registers,
// load Q, and per visited key block compute the column tile between two
// named barriers of their 128 threads (bar.sync 1, 128), wait for their
// slot's "full" phase, compute (each wgmma product waited for) and arrive
// on its "empty" mbarrier after P V; no gpu.barrier, cp.async or thread-0
// issue in the loop. The producer warpgroup keeps 24 registers; its first
// thread walks the same key loop and classification, and per visited block
// waits for "empty" when the slot was used before (count >= 2), announces
// 8192 bytes on "full" and issues K's and V's TMA loads.
// WS-LABEL: func.func @wgmma
// WS: gpu.launch async {{.*}} threads({{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}}) dynamic_shared_memory_size %c18432_i32
// WS: %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// WS-NEXT: %[[EMPTY:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// WS: nvgpu.mbarrier.init %[[FULL]][%c0{{[_0-9]*}}], %c1
// WS: nvgpu.mbarrier.init %[[EMPTY]][%c0{{[_0-9]*}}], %c128
// WS: nvgpu.mbarrier.init %[[FULL]][%c1{{[_0-9]*}}], %c1
// WS: nvgpu.mbarrier.init %[[EMPTY]][%c1{{[_0-9]*}}], %c128
// WS-NEXT: nvvm.fence.mbarrier.init
// WS: gpu.barrier
// WS: %[[CONSUMER:.*]] = arith.cmpi ult, %{{.*}}, %c128 : index
// WS-NEXT: scf.if %[[CONSUMER]] {
// WS-NEXT: "setmaxnreg.inc.sync.aligned.u32 240;"
// WS-NOT: gpu.barrier
// WS: scf.for
// WS: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// WS: scf.for %{{.*}} = %{{.*}} to %c32{{[_0-9]*}} step %c128
// WS: nvgpu.mbarrier.try_wait.parity %[[FULL]]
// WS: nvvm.barrier id
// WS-NOT: nvgpu.tma.async.load
// WS-NOT: nvvm.cp.async
// WS: "wgmma.wait_group.sync.aligned 0;"
// WS: "wgmma.wait_group.sync.aligned 0;"
// WS-NEXT: llvm.extractvalue
// WS-NOT: wgmma
// WS: nvgpu.mbarrier.arrive.expect_tx %[[EMPTY]][%{{.*}}], %c0
// WS-NEXT: scf.yield
// WS-NOT: gpu.barrier
// WS: "setmaxnreg.dec.sync.aligned.u32 24;"
// WS-NEXT: %[[ISSUER:.*]] = arith.cmpi eq, %{{.*}}, %c128 : index
// WS-NEXT: scf.if %[[ISSUER]] {
// WS-NOT: wgmma
// WS: scf.for {{.*}} iter_args(%{{.*}} = %c0{{[_0-9]*}}) -> (index) {
// WS: %[[REUSE:.*]] = arith.cmpi uge, %{{.*}}, %c2{{[_0-9]*}} : index
// WS-NEXT: scf.if %[[REUSE]] {
// WS: nvgpu.mbarrier.try_wait.parity %[[EMPTY]]
// WS: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.*}}], %c8192
// WS: nvgpu.tma.async.load %{{.*}}, %[[FULL]][%{{.*}}] to
// WS: nvgpu.tma.async.load %{{.*}}, %[[FULL]][%{{.*}}] to
// WS-NOT: wgmma
// WS: } {attic.warp_roles}
// WS-NEXT: }
// WS-NEXT: gpu.terminator

// With the deferred P V too (22528 bytes: V's ring has the third, zeroed
// slot): the consumers zero it after their setmaxnreg, ordered by their
// named barrier; a slot is released when the deferred P V that reads its V
// completes (the wait_group 0 at the next block's attic.tile.pv, and after
// the loop), where one was deferred (the slot index carried through the
// loop is -1 before the first visited block).
// WSO-LABEL: func.func @wgmma
// WSO: gpu.launch async {{.*}} in (%{{.*}} = %c256, {{.*}} dynamic_shared_memory_size %c22528_i32
// WSO: %[[FULL:.*]] = nvgpu.mbarrier.create
// WSO-NEXT: %[[EMPTY:.*]] = nvgpu.mbarrier.create
// WSO: "setmaxnreg.inc.sync.aligned.u32 240;"
// WSO: vector.store %{{.*}} : memref<6656xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// WSO: "fence.proxy.async.shared::cta;"
// WSO: nvvm.barrier id
// WSO: scf.for {{.*}} iter_args({{.*}}, %{{.*}} = %c-1{{[_0-9]*}}, %{{.*}} = %c0_i32{{[_0-9]*}}, {{.*}}) -> (
// WSO: nvgpu.mbarrier.try_wait.parity %[[FULL]]
// WSO: "wgmma.wait_group.sync.aligned 1;"
// WSO: "wgmma.wait_group.sync.aligned 0;"
// WSO: %[[SOME:.*]] = arith.cmpi sge, %[[DEFERRED:.*]], %c0{{[_0-9]*}} : index
// WSO-NEXT: scf.if %[[SOME]] {
// WSO-NEXT: %{{.*}} = arith.constant 0 : index
// WSO-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[EMPTY]][%[[DEFERRED]]], %c0
// After the loop, the last block's P V and its slot.
// WSO: "wgmma.wait_group.sync.aligned 0;"
// WSO: arith.cmpi sge
// WSO: nvgpu.mbarrier.arrive.expect_tx %[[EMPTY]]
// WSO: "setmaxnreg.dec.sync.aligned.u32 24;"
// WSO: nvgpu.mbarrier.try_wait.parity %[[EMPTY]]
// WSO: nvgpu.tma.async.load

// With ping-pong=true only block_q 128 (two consumer warpgroups, 384
// threads) changes: @wgmma (block_q 64) keeps one consumer warpgroup.
// PP-LABEL: func.func @wgmma
// PP-NOT: attic.warpgroup_roles
// PP-NOT: nvvm.barrier.arrive
// PP: } {attic.warp_roles}
// In @wgmma_d128 warpgroup w = tid / 128 of the consumers; warpgroup 1
// arrives on barrier 2 (warpgroup 0 goes first); in each block,
// bar.sync on 2 + w before the wgmma.fence of Q K^T and the deferred P V,
// bar.arrive on 3 - w after their two commits (before wait_group 1, so
// that the softmax runs during the other warpgroup's products); after the
// tile loop warpgroup 0 syncs on barrier 2 once more (warpgroup 1's last
// arrival). The simulator runs each consumer warpgroup as a role
// (attic.warpgroup_roles).
// PP-LABEL: func.func @wgmma_d128
// PP: gpu.launch async {{.*}} in (%{{.*}} = %c384,
// PP: "setmaxnreg.inc.sync.aligned.u32 240;"
// PP: %[[WGI:.*]] = arith.divui %{{.*}}, %c128{{[_0-9]*}} : index
// PP-NEXT: %[[WG:.*]] = arith.index_cast %[[WGI]] : index to i32
// PP-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// PP-NEXT: %[[IS1:.*]] = arith.cmpi eq, %[[WG]], %[[C1]] : i32
// PP-NEXT: scf.if %[[IS1]] {
// PP-NEXT: %[[C2:.*]] = arith.constant 2 : i32
// PP-NEXT: %[[N:.*]] = arith.constant 256 : i32
// PP-NEXT: nvvm.barrier.arrive id = %[[C2]] number_of_threads = %[[N]]
// PP: scf.for
// PP: %[[MINE:.*]] = arith.addi %{{.*}}, %[[WG]] : i32
// PP-NEXT: %[[N1:.*]] = arith.constant 256 : i32
// PP-NEXT: nvvm.barrier id = %[[MINE]] number_of_threads = %[[N1]]
// PP-NEXT: "wgmma.fence.sync.aligned;"
// PP: "wgmma.commit_group.sync.aligned;"
// PP: "wgmma.commit_group.sync.aligned;"
// PP-NEXT: %[[C3:.*]] = arith.constant 3 : i32
// PP-NEXT: %[[THEIRS:.*]] = arith.subi %[[C3]], %[[WG]] : i32
// PP-NEXT: %[[N2:.*]] = arith.constant 256 : i32
// PP-NEXT: nvvm.barrier.arrive id = %[[THEIRS]] number_of_threads = %[[N2]]
// PP-NEXT: "wgmma.wait_group.sync.aligned 1;"
// PP: %[[IS0:.*]] = arith.cmpi eq, %[[WG]], %{{.*}} : i32
// PP-NEXT: scf.if %[[IS0]] {
// PP-NEXT: arith.constant 2 : i32
// PP-NEXT: arith.constant 256 : i32
// PP-NEXT: nvvm.barrier id
// PP: "setmaxnreg.dec.sync.aligned.u32 24;"
// PP: } {attic.warp_roles, attic.warpgroup_roles}

// OVERLAP-LABEL: func.func @wgmma
// OVERLAP: gpu.launch async {{.*}} dynamic_shared_memory_size %c22528_i32
// OVERLAP: %[[DYN:.*]] = gpu.dynamic_shared_memory
// OVERLAP: memref.view %[[DYN]][%c0{{[_0-9]*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4608xf16, #gpu.address_space<workgroup>>
// OVERLAP: %[[VS:.*]] = memref.view %[[DYN]][%c9216][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<6656xf16, #gpu.address_space<workgroup>>
// OVERLAP: scf.for %{{.*}} = %{{.*}} to %c2048 step
// OVERLAP: vector.store %{{.*}}, %[[VS]][%{{.*}}] {alignment = 16 : i64} : memref<6656xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// OVERLAP: }
// OVERLAP-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "fence.proxy.async.shared::cta;", ""
// OVERLAP-NEXT: gpu.barrier
// OVERLAP: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// OVERLAP: gpu.barrier
// OVERLAP: arith.remui %[[COUNT:.*]], %c2{{[_0-9]*}} : index
// OVERLAP: arith.remui %[[COUNT]], %c3{{[_0-9]*}} : index
// OVERLAP: arith.addi %[[COUNT]], %c1{{[_0-9]*}} : index
// OVERLAP: nvvm.cp.async.wait.group 1
// OVERLAP: "wgmma.fence.sync.aligned;"
// OVERLAP-COUNT-4: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16
// OVERLAP: "wgmma.commit_group.sync.aligned;"
// OVERLAP-NOT: wgmma.wait_group
// OVERLAP: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 1; }", "=f{{(,=f)+}},0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,r,r,r,r,l,r"
// OVERLAP: wgmma.mma_async.sync.aligned.m64n64k16
// OVERLAP: "wgmma.commit_group.sync.aligned;"
// OVERLAP-NEXT: "wgmma.wait_group.sync.aligned 1;", "=f{{(,=f)+}},0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"
// OVERLAP-NOT: wgmma.mma_async
// OVERLAP: "wgmma.wait_group.sync.aligned 0;", "=f{{(,=f)+}},0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31"
// OVERLAP-NOT: wgmma.mma_async
// OVERLAP: scf.yield
// The full blocks' branch: the same.
// OVERLAP-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k16
// OVERLAP-NOT: wgmma
// OVERLAP: "wgmma.commit_group.sync.aligned;"
// OVERLAP-NEXT: "wgmma.wait_group.sync.aligned 1;"
// OVERLAP: "wgmma.wait_group.sync.aligned 0;"
// After the loop (and the rows' reciprocals, which do not read the
// accumulator): the last block's P V.
// OVERLAP: arith.divf
// OVERLAP: "wgmma.fence.sync.aligned;"
// OVERLAP-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k16
// OVERLAP-NOT: wgmma
// OVERLAP: "wgmma.commit_group.sync.aligned;"
// OVERLAP-NEXT: "wgmma.wait_group.sync.aligned 0;"
// OVERLAP: arith.mulf
// OVERLAP: vector.store %{{.*}}, %arg4
// OVERLAP: return
// D = Dv = 128 with block_k 64 (two warpgroups): K's ring 2 * 16384 +
// 1024 bytes, V's 3 * 16384 + 1024 (83968 in all, within 99 KiB); the
// deferred P V is 4 m64n128k16, after which wait_group 1 passes S's 32
// accumulators. The other functions keep their kernels: half a warpgroup
// and D = 32 have no wgmma P V.
// OVERLAP-LABEL: func.func @wgmma_d128
// OVERLAP: dynamic_shared_memory_size %c83968_i32
// OVERLAP: memref.view %{{.*}}[%c33792][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<25088xbf16, #gpu.address_space<workgroup>>
// OVERLAP: "wgmma.commit_group.sync.aligned;"
// OVERLAP-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}} p, 1, 1, 1; }
// OVERLAP-NOT: wgmma
// OVERLAP: "wgmma.commit_group.sync.aligned;"
// OVERLAP-NEXT: "wgmma.wait_group.sync.aligned 1;", "=f{{(,=f)+}},0,1,{{.*}},30,31"
// OVERLAP-LABEL: func.func @half_warpgroup
// OVERLAP-NOT: wgmma.wait_group.sync.aligned 1;
// OVERLAP-LABEL: func.func @narrow_head
// OVERLAP-NOT: wgmma.wait_group.sync.aligned 1;

// f16, D = Dv = 64, block_q 64 (one warpgroup of 4 warps), block_k 32:
// both products with wgmma. Ks and Vs hold the 32 x 64 K and V blocks in
// 128-byte rows plus 1024 bytes of slack (2560 halves each); the kernel
// aligns each tile to the next 1024-byte boundary (element offsets
// %[[ALIGN]] and %[[VALIGN]]) and builds the descriptor of its start:
// address bits 4-17, stride byte offset 1024, 128-byte swizzle, and the
// leading byte offset 16 for K (unused: K-major) and 32 * 128 = 4096 for
// V (N-major: the distance of 64-column groups of Dv). Q's A fragments
// are bitcast to i32 once. The copies put chunk j of row r at chunk j ^
// (r % 8) of the row; every cp.async wait is followed by
// fence.proxy.async (the copies are generic-proxy writes, wgmma reads in
// the async proxy) and the barrier. Per key block, S = Q K^T:
// wgmma.fence, four m64n32k16 (16 columns of D each, the descriptor 32
// bytes = 2 further each), the first with scale-d 0 and the others
// accumulating into tied operands, one commit and wait_group 0 that
// passes the 16 accumulators through. Then acc += P V: wgmma.fence, two
// m64n64k16 with B N-major (imm-trans-b 1; 16 keys = 2048 bytes = 128
// further each), P's fragments from registers, the 32 accumulators tied
// in from the first one (scale-d 1), commit and wait.
// CHECK-LABEL: func.func @wgmma
// CHECK: gpu.launch async {{.*}} threads({{.*}}) in (%{{.*}} = %c128{{[_0-9]*}}, {{.*}} workgroup(%[[KS:arg[0-9]+]] : memref<2560xf16, #gpu.address_space<workgroup>>, %[[VS:arg[0-9]+]] : memref<2560xf16, #gpu.address_space<workgroup>>
// CHECK: vector.bitcast %{{.*}} : vector<2xf16> to vector<1xi32>
// CHECK: %[[ADDR:.*]] = memref.extract_aligned_pointer_as_index %[[KS]]
// CHECK: %[[REM:.*]] = arith.remui %[[ADDR]], %c1024
// CHECK: %[[UP:.*]] = arith.subi %c1024{{[_0-9]*}}, %[[REM]]
// CHECK: %[[PAD:.*]] = arith.remui %[[UP]], %c1024
// CHECK: %[[ALIGN:.*]] = arith.divui %[[PAD]], %c2
// CHECK: %[[START:.*]] = arith.addi %[[ADDR]], %[[PAD]]
// CHECK: %[[START64:.*]] = arith.index_cast %[[START]] : index to i64
// CHECK: %[[SHIFTED:.*]] = arith.shrui %[[START64]], %c4_i64
// CHECK: %[[FIELD:.*]] = arith.andi %[[SHIFTED]], %c16383_i64
// CHECK: %[[DESC:.*]] = arith.ori %[[FIELD]], %c4611686293305360384_i64
// CHECK: %[[VADDR:.*]] = memref.extract_aligned_pointer_as_index %[[VS]]
// CHECK: %[[VALIGN:.*]] = arith.divui %{{.*}}, %c2
// CHECK: %[[VDESC:.*]] = arith.ori %{{.*}}, %c4611686293322072064_i64
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: %[[CHUNK:.*]] = arith.xori
// CHECK: arith.addi %{{.*}}, %[[ALIGN]] : index
// CHECK: nvgpu.device_async_copy %arg1[{{.*}}], %[[KS]][%{{.*}}], 8
// CHECK: nvvm.cp.async.commit.group
// CHECK: arith.xori
// CHECK: arith.addi %{{.*}}, %[[VALIGN]] : index
// CHECK: nvgpu.device_async_copy %arg2[{{.*}}], %[[VS]][%{{.*}}], 8
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "fence.proxy.async.shared::cta;", ""
// CHECK-NEXT: gpu.barrier
// CHECK: %[[D0:.*]] = arith.addi %[[DESC]], %c0_i64
// CHECK: %[[D1:.*]] = arith.addi %[[DESC]], %c2_i64
// CHECK: %[[D2:.*]] = arith.addi %[[DESC]], %c4_i64
// CHECK: %[[D3:.*]] = arith.addi %[[DESC]], %c6_i64
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.fence.sync.aligned;", ""
// CHECK: %[[S0:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $21, 0; wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15}, {$16, $17, $18, $19}, $20, p, 1, 1, 0; }", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,r,r,r,r,l,r" %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[D0]], %c0_i32
// CHECK: %[[S1:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $37, 0; wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15}, {$32, $33, $34, $35}, $36, p, 1, 1, 0; }", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,r,r,r,r,l,r" {{.*}}, %[[D1]], %c1_i32
// CHECK: wgmma.mma_async{{.*}}, %[[D2]], %c1_i32
// CHECK: %[[S3:.*]] = llvm.inline_asm {{.*}}wgmma.mma_async{{.*}}, %[[D3]], %c1_i32
// CHECK-NOT: wgmma.mma_async
// CHECK: llvm.extractvalue %[[S3]][15]
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.commit_group.sync.aligned;", ""
// CHECK-NEXT: %[[DONE:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"
// CHECK: llvm.extractvalue %[[DONE]][0]
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "fence.proxy.async.shared::cta;", ""
// CHECK-NEXT: gpu.barrier
// CHECK: %[[V0:.*]] = arith.addi %[[VDESC]], %c0_i64
// CHECK: %[[V1:.*]] = arith.addi %[[VDESC]], %c128_i64
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.fence.sync.aligned;", ""
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $69, 0; wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, {$64, $65, $66, $67}, $68, p, 1, 1, 1; }", "{{(=f,)+}}0,1,{{.*}},31,r,r,r,r,l,r" {{.*}}, %[[V0]], %c1_i32
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}} p, 1, 1, 1; }", {{.*}}, %[[V1]], %c1_i32
// CHECK-NOT: wgmma.mma_async
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-NOT: nvgpu.ldmatrix
// CHECK-NOT: nvgpu.mma.sync
// The branch of the full blocks (no mask) does the same.
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "fence.proxy.async.shared::cta;", ""
// CHECK-NEXT: gpu.barrier
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.fence.sync.aligned;", ""
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16
// CHECK-NOT: wgmma.mma_async
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK-NOT: wgmma.mma_async
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-NOT: wgmma.mma_async
// CHECK-NOT: nvgpu.mma.sync
// CHECK: return
// The key mask gives the kernels a per-key column tile (without a bias or
// key mask there is none: the keys past Nk are masked by the predicate).
func.func @wgmma(%q: memref<1x2x100x64xf16>, %k: memref<1x2x100x64xf16>, %v: memref<1x2x100x64xf16>, %m: memref<1x100xi1>, %o: memref<1x2x100x64xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x100x64xf16>, memref<1x2x100x64xf16>, memref<1x2x100x64xf16>) mask(%m : memref<1x100xi1>) outs(%o : memref<1x2x100x64xf16>) {layout = #attic.causal, scale = 0.125 : f32, block_q = 64 : i64, block_k = 32 : i64}
  return
}

// -----

// bf16, D = Dv = 128, block_q 128 (two warpgroups), block_k 64: two
// column groups of 64 elements, 64 rows of 128 bytes each (4096 elements,
// 8192 bytes apart; each buffer 8704 halves with the slack), so the
// descriptors of Q K^T's 8 steps of 16 columns start at +0, 32, 64, 96,
// 8192, ... bytes (>> 4: 0, 2, 4, 6, 512, 514, 516, 518), m64n64k16 on
// bf16; P V is 4 steps of m64n128k16 (N = Dv spans both column groups: V's
// leading byte offset 64 * 128 = 8192).
// CHECK-LABEL: func.func @wgmma_d128
// CHECK: workgroup(%{{.*}} : memref<8704xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<8704xbf16, #gpu.address_space<workgroup>>
// CHECK: arith.ori %{{.*}}, %c4611686293338849280_i64
// CHECK: arith.constant 4096 : index
// CHECK: arith.xori
// CHECK: arith.addi %{{.*}}, %c512_i64
// CHECK: arith.addi %{{.*}}, %c518_i64
// CHECK-NEXT: wgmma.fence.sync.aligned
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK-NOT: wgmma.mma_async
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}} p, 1, 1, 1; }
// CHECK-NOT: wgmma.mma_async
// CHECK: wgmma.wait_group.sync.aligned 0;
func.func @wgmma_d128(%q: memref<1x2x130x128xbf16>, %k: memref<1x2x130x128xbf16>, %v: memref<1x2x130x128xbf16>, %o: memref<1x2x130x128xbf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x2x130x128xbf16>, memref<1x2x130x128xbf16>, memref<1x2x130x128xbf16>) outs(%o : memref<1x2x130x128xbf16>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 128 : i64, block_k = 64 : i64}
  return
}

// -----

// Where the tiles do not allow wgmma, the kernel keeps mma.sync (no
// error): block_q 32 is half a warpgroup, D = 32 not a row of 64.
// CHECK-LABEL: func.func @half_warpgroup
// CHECK-NOT: wgmma
// CHECK-NOT: fence.proxy
// CHECK: nvgpu.ldmatrix
// CHECK-NOT: wgmma
// CHECK-LABEL: func.func @narrow_head
// CHECK-NOT: wgmma
// CHECK: nvgpu.ldmatrix
// CHECK-NOT: wgmma
// CHECK: return
func.func @half_warpgroup(%q: memref<1x1x64x64xf16>, %k: memref<1x1x64x64xf16>, %v: memref<1x1x64x64xf16>, %o: memref<1x1x64x64xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x64x64xf16>, memref<1x1x64x64xf16>, memref<1x1x64x64xf16>) outs(%o : memref<1x1x64x64xf16>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 32 : i64, block_k = 32 : i64}
  return
}
func.func @narrow_head(%q: memref<1x1x64x32xf16>, %k: memref<1x1x64x32xf16>, %v: memref<1x1x64x32xf16>, %o: memref<1x1x64x32xf16>) {
  attic.block_attention ins(%q, %k, %v : memref<1x1x64x32xf16>, memref<1x1x64x32xf16>, memref<1x1x64x32xf16>) outs(%o : memref<1x1x64x32xf16>) {layout = #attic.dense, scale = 0.125 : f32, block_q = 64 : i64, block_k = 32 : i64}
  return
}

//===- TensorCoreTiles.cpp - tile loops -> mma.sync kernels -----*- C++ -*-===//
//
// The tensor-core pattern of attic-gpu-map-tiles (benefit 2): a tile grid
// becomes a FlashAttention-2-style kernel. It maps tiles onto registers
// and shared memory; the tile loop's IR (visited blocks, classification,
// the regions with the masking and the online softmax) is cloned as it is,
// a region per fragment element.
//
//   grid  = (B*Hq, ceil(Nq/R)), block = 32*W threads, W = R/16 warps;
//           block y runs query block ceil(Nq/R) - 1 - y (heavy causal
//           blocks first).
//   Warp w owns the query rows q0 + 16w .. q0 + 16w + 15 of its block.
//
// Where tiles live (lane = 4g + t, g = lane/4, t = lane%4):
//   R x C tiles (scores, P; the accumulator with C = Dv): mma.sync C
//     fragments, per 8 columns nc two rows r (g, g+8) of two columns e
//     (8nc + 2t + e): C/2 f32 registers per lane;
//   row tiles (m, l, alpha): rows g and g+8: 2 registers per lane;
//   column tiles (the per-key term): shared memory, written by all
//     threads of the block (each a column), between two barriers;
//   K and V blocks: shared memory, row-major as Ks[key][D + 8] and
//     Vs[key][Dv + 8] (rows padded by 8 halves: a row is an odd multiple
//     of 16 bytes long, so the 8 rows of an ldmatrix matrix start in
//     distinct 16-byte bank groups); their mma B fragments are loaded with
//     ldmatrix .x4 (K) and ldmatrix .x4 .trans (V: no transposition
//     through registers); Q: A fragments loaded once per block.
//
// Ops:
//   attic.tile.qk    S chunk nc = sum over 16-column chunks kc of D of
//                    mma.m16n8k16(Q frag kc, K frag (kc, nc)), the K
//                    fragments of chunks nc, nc+1 one ldmatrix .x4 of Ks;
//   attic.tile.pv    acc *= rescale (per row); acc chunk j += mma(P as A
//                    fragment (the C fragments of S re-packed, no
//                    shuffles), V frag (kk, j)), the V fragments of
//                    chunks j, j+1 one ldmatrix .x4 .trans of Vs;
//   attic.tile.map / .map_rows   the region once per register element;
//   attic.tile.map_cols          the region once per column, by thread
//                                tid, tid + 32W, ...;
//   attic.tile.reduce            over the lane's elements of each row, then
//                                across the quad (shuffle xor 1, 2);
//   attic.tile.store             the lane's pairs of the rows < Nq.
//
// Registers pass through the tile loop's scf.for and scf.if as iter_args
// and results (the loop bounds and conditions are uniform per block:
// classification and block lists depend on (b, h, qb, kb) only, so the
// barriers inside them are reached by all threads).
//
// Staging (cp.async, 16 bytes per copy, keys past Nk zero-filled): when K
// and V fit in 48 KiB of shared memory together, per visited key block
//   barrier; K (unless prefetched) and V issued, one group each; the
//   column tiles computed; wait_group 1 (K has landed); barrier;
//   S = Q K^T, softmax; wait_group 0 (V has landed); barrier;
//   K of the next iteration's key block issued into Ks; P V.
// So V's load overlaps Q K^T and the softmax, and the next K's load P V
// (FlashAttention-2's order), with 3 barriers per block. The prefetch is
// speculative: the next iteration's key block is computed as the tile loop
// computes it (the induction variable for range layouts, the next list
// entry for block lists), and a uniform tag (the key block in Ks, carried
// through the tile loop) tells the next visited block whether Ks holds its
// K; if not (the prefetched block was skipped), the stale copy is waited
// for and K is copied again. Else K and V share one
// buffer and each is copied and waited for where it is used. With
// kv-stages=2, where two K and two V blocks fit in 99 KiB, Ks and Vs are
// rings of two slots in dynamic shared memory, and per visited key block
//   barrier; K and V copied into the current slot unless they were
//   prefetched there (one group); the next iteration's K and V issued into
//   the other slot (one group); the column tiles; wait_group 1; barrier;
//   S = Q K^T, softmax, P V from the current slot;
// so the next block's copies overlap the whole block, with 2 barriers per
// block (the tag of the prefetched block and its slot carried through the
// tile loop; see stageRing). With kv-stages=3 the rings have three slots
// (counted: slot = count % 3) and the column tiles two buffers (count %
// 2): a prefetch goes to the slot of three blocks before, which every
// thread finished reading before the previous block's barrier, so the
// barrier before the copies goes and a block has one. With wgmma for both
// products and the ring,
// `wgmma-overlap` defers each block's P V: it is issued after the next
// block's Q K^T (two wgmma groups; wait_group 1 completes Q K^T) and runs
// during that block's softmax, waited for at the attic.tile.pv, which
// then rescales the accumulator and keeps this block's P in registers
// (FlashAttention-3's intra-warpgroup overlap); V's ring has a third slot
// so that the deferred block's V outlives the next prefetch, and the last
// P V is added before the epilogue (canDeferPV says which grids). With
// `tma` the rings are filled by TMA loads that thread 0 issues, completing
// an mbarrier per slot; with `warp-specialize` too, one more warpgroup
// per block (the producer) issues them in the tile loop's control flow
// while the other warps compute, each slot with a "full" and an "empty"
// mbarrier (stageWs, produceOp). With
// async-copies=false (for A/B timing against the kernel before cp.async),
// K and V pass through registers (16-byte loads and stores) and a block's
// staging sits between one pair of barriers.
//
// Fragment layouts (PTX ISA, "Matrix Fragments for mma.m16n8k16", .f16 or
// .bf16 multiplicands, .f32 accumulators):
//   A (16x16, row):  a0,a1 = A[g][2t..]  a2,a3 = A[g+8][2t..]
//                    a4,a5 = A[g][2t+8..] a6,a7 = A[g+8][2t+8..]
//   B (16x8, col):   b0,b1 = B[2t..][g]  b2,b3 = B[2t+8..][g]
//   C (16x8, f32):   c0,c1 = C[g][2t..]  c2,c3 = C[g+8][2t..]
// nvgpu.mma.sync holds A as vector<4x2xT>, B as vector<2x2xT>, C as
// vector<2x2xf32>; bf16 goes through nvvm.mma.sync (operands as i32),
// since MLIR 22's nvgpu lowering cannot deduce bf16 PTX types. exp2 is
// PTX's ex2.approx.ftz.f32 (inline asm, instead of a libdevice call). See
// docs/cuda.md and test/Conversion/Inputs/cuda_fragment_model.py.
//
//===----------------------------------------------------------------------===//

#include "attic/Conversion/AtticToGPU/AtticToGPU.h"
#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Support/Diagnostics.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace attic;

namespace {

constexpr int64_t kSharedLimit = 48 * 1024; // static shared memory per block
/// Shared memory per block of the two-stage ring (dynamic shared memory,
/// above 48 KiB by the driver's opt-in): what every sm_80+ chip allows
/// (sm_86/89: 99 KiB; sm_80: 163 KiB; sm_90: 227 KiB).
constexpr int64_t kRingLimit = 99 * 1024;
/// Shared memory per block on sm_90 (its opt-in maximum): the limit of
/// three-stage rings for wgmma kernels, which run on sm_90a only.
constexpr int64_t kHopperLimit = 227 * 1024;
constexpr int64_t kPad = 8;                 // halves of padding per tile row
/// wgmma's K tile: 128-byte swizzled rows in an atom of 8 rows aligned to
/// 1024 bytes (the buffer has this much slack for aligning it at run time).
constexpr int64_t kSwizzleAlign = 1024;
/// A wgmma descriptor's fixed fields for that tile (PTX ISA, "Matrix
/// Descriptor Format"): leading byte offset 16 (unused by a K-major
/// swizzled operand), stride byte offset 1024 (between 8-row groups),
/// swizzle mode 1 (128 bytes); the start address goes in bits 0-13.
constexpr uint64_t kDescriptorFields = (uint64_t(16 >> 4) << 16) |
                                       (uint64_t(1024 >> 4) << 32) |
                                       (uint64_t(1) << 62);

/// The tensor map type of the TMA loads of K and V: boxes of `keys` x 64
/// elements (one 64-column group of wgmma's swizzled tile) with the
/// 128-byte swizzle, zero fill past the tensor.
nvgpu::TensorMapDescriptorType tensorMapType(MLIRContext *ctx, Type elem,
                                             int64_t keys) {
  auto space = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  return nvgpu::TensorMapDescriptorType::get(
      ctx, MemRefType::get({1, 1, keys, 64}, elem, nullptr, space),
      nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
      nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
}

/// Small helpers over an ImplicitLocOpBuilder.
struct Gen {
  ImplicitLocOpBuilder &b;
  Type elem; // f16 or bf16
  bool isBf16;

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, v); }
  Value i32(int32_t v) {
    return arith::ConstantIntOp::create(b, b.getI32Type(), v);
  }
  Value f32(float v) {
    return arith::ConstantFloatOp::create(b, b.getF32Type(), APFloat(v));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value xorI(Value x, Value y) { return arith::XOrIOp::create(b, x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, index(y)) : x; }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, x, y); }
  Value mul(Value x, int64_t y) { return mul(x, index(y)); }
  Value divU(Value x, int64_t y) {
    return arith::DivUIOp::create(b, x, index(y));
  }
  Value remU(Value x, int64_t y) {
    return arith::RemUIOp::create(b, x, index(y));
  }
  Value minI(Value x, Value y) { return arith::MinSIOp::create(b, x, y); }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::slt, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, c, x, y);
  }
  Value fmul(Value x, Value y) { return arith::MulFOp::create(b, x, y); }
  Value fadd(Value x, Value y) { return arith::AddFOp::create(b, x, y); }
  /// maxNum(x, y): PTX's max.f32, one instruction (a compare and a select
  /// before); a NaN operand is dropped, which the tile op leaves open.
  Value fmax(Value x, Value y) { return arith::MaxNumFOp::create(b, x, y); }

  /// 2^x with PTX's ex2.approx.ftz.f32 (2^-inf = +0).
  Value exp2(Value x) {
    return inlineAsm(b.getF32Type(), x, "ex2.approx.ftz.f32 $0, $1;", "=f,f",
                     /*sideEffects=*/false);
  }

  /// Inline PTX: its one result of type `result`, or none when `result` is
  /// null; with `sideEffects`, kept in order with the other such asm.
  Value inlineAsm(Type result, ValueRange operands, const Twine &text,
                  const Twine &constraints, bool sideEffects = true) {
    auto op = LLVM::InlineAsmOp::create(
        b, result, operands, b.getStringAttr(text),
        b.getStringAttr(constraints),
        /*has_side_effects=*/sideEffects ? b.getUnitAttr() : UnitAttr(),
        /*is_align_stack=*/UnitAttr(),
        LLVM::TailCallKindAttr::get(b.getContext(),
                                    LLVM::tailcallkind::TailCallKind::None),
        LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
        /*operand_attrs=*/ArrayAttr());
    return result ? op.getResult(0) : Value();
  }

  /// Butterfly over the 4 lanes of a quad (xor 1, then xor 2).
  Value quadReduce(Value v, bool isMax) {
    Value width = i32(32);
    for (int32_t offset : {1, 2}) {
      Value other = gpu::ShuffleOp::create(b, v, i32(offset), width,
                                           gpu::ShuffleMode::XOR)
                        .getShuffleResult();
      v = isMax ? fmax(other, v) : fadd(v, other);
    }
    return v;
  }

  VectorType pairType() { return VectorType::get({2}, elem); }
  /// n zeros as vector<nxT>: what keys past Nk are staged as (without
  /// cp.async).
  Value zeros(int64_t n) {
    auto type = VectorType::get({n}, elem);
    return arith::ConstantOp::create(
        b, type, DenseElementsAttr::get(type, b.getZeroAttr(elem)));
  }

  /// memref[..., last, last+1] as vector<2xT> (4-byte aligned: `last` is
  /// even and rows have an even length).
  Value loadPair(Value memref, ValueRange indices) {
    auto op = vector::LoadOp::create(b, pairType(), memref, indices);
    op.setAlignment(4);
    return op;
  }
  void storePair(Value v, Value memref, ValueRange indices) {
    auto op = vector::StoreOp::create(b, v, memref, indices);
    op.setAlignment(4);
  }

  /// nvgpu.ldmatrix .x4 of `smem` (1-D, elements of T) at this lane's row
  /// address `index`: four 8x8 matrices, lanes 8i..8i+7 giving the rows of
  /// matrix i; row i of the vector<4x2xT> result is this lane's pair of
  /// matrix i (with `transpose`, of its transpose).
  Value ldmatrix(Value smem, Value index, bool transpose) {
    return nvgpu::LdMatrixOp::create(b, VectorType::get({4, 2}, elem), smem,
                                     ValueRange{index}, transpose,
                                     /*numTiles=*/4);
  }
  /// The mma B operand of rows 2i and 2i+1 of an ldmatrix .x4 result.
  SmallVector<Value> bFragment(Value matrices, int64_t i) {
    return packRegs(
        {vector::ExtractOp::create(b, matrices, ArrayRef<int64_t>{2 * i}),
         vector::ExtractOp::create(b, matrices, ArrayRef<int64_t>{2 * i + 1})});
  }

  /// Pairs as mma operand registers: vector<Nx2xT> (f16) or N i32 (bf16).
  SmallVector<Value> packRegs(ArrayRef<Value> pairs) {
    if (isBf16)
      return asI32(pairs);
    auto type = VectorType::get({int64_t(pairs.size()), 2}, elem);
    Value v = arith::ConstantOp::create(
        b, type, DenseElementsAttr::get(type, b.getZeroAttr(elem)));
    for (auto [i, p] : llvm::enumerate(pairs))
      v = vector::InsertOp::create(b, p, v, ArrayRef<int64_t>{int64_t(i)});
    return {v};
  }

  /// Each pair as one i32 register (the bf16 mma operands, and wgmma's A
  /// fragments in either type).
  SmallVector<Value> asI32(ArrayRef<Value> pairs) {
    SmallVector<Value> regs;
    for (Value p : pairs) {
      Value v =
          vector::BitCastOp::create(b, VectorType::get({1}, b.getI32Type()), p);
      regs.push_back(vector::ExtractOp::create(b, v, ArrayRef<int64_t>{0}));
    }
    return regs;
  }

  /// acc (vector<2x2xf32>) += A (16x16) * B (16x8): m16n8k16.
  Value mma(ArrayRef<Value> a, ArrayRef<Value> bRegs, Value acc) {
    if (!isBf16)
      return nvgpu::MmaSyncOp::create(b, a[0], bRegs[0], acc,
                                      ArrayRef<int64_t>{16, 8, 16})
          .getResult();
    SmallVector<Value> c;
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 2; ++j)
        c.push_back(vector::ExtractOp::create(b, acc, ArrayRef<int64_t>{i, j}));
    Type f32 = b.getF32Type();
    auto structType =
        LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
    Value d = NVVM::MmaOp::create(
        b, structType, a, bRegs, c, ArrayRef<int64_t>{16, 8, 16}, std::nullopt,
        std::nullopt,
        std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                      NVVM::MMATypes::bf16},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    SmallVector<Value> parts;
    for (int64_t i = 0; i < 4; ++i)
      parts.push_back(LLVM::ExtractValueOp::create(b, d, i));
    return vector::FromElementsOp::create(b, VectorType::get({2, 2}, f32),
                                          parts);
  }
};

/// What the kernel needs to know of a grid.
struct KernelConfig {
  int64_t rows = 0, keys = 0, headDim = 0, valueDim = 0;
  Type elem;
  Value query, key, value;
  /// Ks and Vs fit together in shared memory (else they share one buffer).
  bool separateKV = true;
  /// K and V are cp.async copies (else loads and stores through registers,
  /// all between one barrier pair: the kernel before cp.async, kept for
  /// A/B timing, `async-copies=false`).
  bool asyncCopies = true;
  /// Slots of the K and V rings (`kv-stages`): 1, or 2 where two K and
  /// two V blocks fit in kRingLimit (then they live in dynamic shared
  /// memory and a block's K and V are prefetched during the previous
  /// block's whole computation), or 3 (where three of each fit: kRingLimit,
  /// kHopperLimit for wgmma kernels), whose prefetch goes to a slot no
  /// thread has read since the previous block's last barrier, so that a
  /// key block needs one barrier instead of two (the column tiles then
  /// alternate between two buffers).
  int64_t stages = 1;
  bool ring() const { return stages >= 2; }
  /// Three stages: one barrier per key block.
  bool oneBarrier() const { return stages == 3; }
  /// Ring slots counted by the prefetches (slot = count % slots) rather
  /// than alternating (slot = 1 - slot).
  bool countedSlots() const { return stages == 3 || overlap || ws; }
  int64_t kSlots() const { return stages; }
  /// S = Q K^T with wgmma.mma_async (sm_90a, `wgmma`): a warpgroup per 64
  /// query rows, Q's A fragments from registers, K in rows of 64 elements
  /// (128 bytes, D/64 column groups one after the other) swizzled in
  /// 1024-byte atoms, read through descriptors.
  bool wgmma = false;
  /// With wgmma, also P V (where Dv is a multiple of 64): P's A fragments
  /// from registers, V N-major in the same swizzled rows as K.
  bool wgmmaPV = false;
  /// With wgmma P V in a ring (`wgmma-overlap`): a block's P V is issued
  /// at the next block's Q K^T and runs during its softmax
  /// (FlashAttention-3's intra-warpgroup overlap), so V's ring has three
  /// slots: the deferred block's, the current one's and the prefetch's.
  bool overlap = false;
  int64_t vSlots() const { return stages + (overlap ? 1 : 0); }
  /// With wgmma for both products and a ring (`tma`): K and V blocks are
  /// TMA loads (cp.async.bulk.tensor, one per 64-column group, issued by
  /// thread 0) completing an mbarrier per K slot, instead of cp.async by
  /// every thread.
  bool tma = false;
  /// With TMA (`warp-specialize`): one more warpgroup per block, the
  /// producer, issues the loads in the tile loop's control flow (one
  /// thread) into slot count % kSlots, after the consumers have released
  /// it on its "empty" mbarrier; the consumers (the other warps) wait for
  /// its "full" mbarrier, compute, and release it.
  bool ws = false;
  /// With warp specialization and the deferred P V at block_q 128
  /// (`ping-pong`): the two consumer warpgroups take turns issuing a
  /// block's wgmmas.
  bool pingPong = false;
  /// Threads per block: a warp per 16 query rows, and the producer's.
  int64_t consumerThreads() const { return 2 * rows; }
  int64_t blockThreads() const { return consumerThreads() + (ws ? 128 : 0); }
  /// Buffers of each column tile: two with three stages (alternating by
  /// block), else one.
  int64_t colBuffers() const { return stages == 3 && !ws ? 2 : 1; }
};

/// One K and one V block (a slot): padded rows, or wgmma's swizzled rows
/// of 64 elements (a multiple of 1024 bytes: block_k is a multiple of 16).
int64_t kTileBytes(const KernelConfig &c) {
  return c.keys * (c.headDim + (c.wgmma ? 0 : kPad)) * 2;
}
int64_t vTileBytes(const KernelConfig &c) {
  return c.keys * (c.valueDim + (c.wgmmaPV ? 0 : kPad)) * 2;
}
/// The one-slot K and V buffers: a tile, and the slack to align it to
/// 1024 bytes at run time where wgmma reads it.
int64_t kBytes(const KernelConfig &c) {
  return kTileBytes(c) + (c.wgmma ? kSwizzleAlign : 0);
}
int64_t vBytes(const KernelConfig &c) {
  return vTileBytes(c) + (c.wgmmaPV ? kSwizzleAlign : 0);
}
/// The rings in dynamic shared memory: kSlots K blocks, then vSlots V
/// blocks (one more than K with `overlap`), each ring with the slack to
/// align it where wgmma reads it.
int64_t kRingBytes(const KernelConfig &c) {
  return c.kSlots() * kTileBytes(c) + (c.wgmma ? kSwizzleAlign : 0);
}
int64_t vRingBytes(const KernelConfig &c) {
  return c.vSlots() * vTileBytes(c) + (c.wgmmaPV ? kSwizzleAlign : 0);
}
int64_t ringBytes(const KernelConfig &c) {
  return kRingBytes(c) + vRingBytes(c);
}

/// Whether a warp-specialized kernel's producer can follow the tile loop
/// without its tile ops: every op in the grid outside tile ops that holds
/// no tile op only reads memory (the producer clones those it needs) or
/// allocates or frees a tile, and the control flow around tile ops is
/// scf.for and scf.if. Tile ops have no results, so the values that K and
/// V blocks depend on never come from tiles.
bool producerCanFollow(scf::ParallelOp grid, const TileGridInfo &info) {
  llvm::DenseSet<Value> tiles;
  for (TileGridInfo::Tile tile : info.tiles)
    tiles.insert(tile.alloc.getResult());
  bool ok = true;
  grid.getBody()->walk([&](Operation *op) {
    if (isa_and_nonnull<AtticDialect>(op->getDialect()))
      return WalkResult::skip();
    bool holdsTiles = false;
    op->walk([&](Operation *inner) {
      holdsTiles |= isa_and_nonnull<AtticDialect>(inner->getDialect());
    });
    if (holdsTiles) {
      if (!isa<scf::ForOp, scf::IfOp, scf::YieldOp>(op))
        ok = false;
      return WalkResult::advance();
    }
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      ok &= tiles.contains(alloc.getResult());
      return WalkResult::skip();
    }
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      ok &= tiles.contains(dealloc.getMemref());
      return WalkResult::skip();
    }
    // Only reads, its regions' ops included.
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsRecursively(op);
    if (!effects || llvm::any_of(*effects, [](const auto &effect) {
          return !isa<MemoryEffects::Read>(effect.getEffect());
        }))
      ok = false;
    return WalkResult::skip();
  });
  return ok;
}

/// The value of index (or integer, or i1) arithmetic `v` at one point of
/// the grid (`at`: its induction variables' values), or nullopt where it is
/// anything else (a load, a loop's induction variable, an unknown op).
std::optional<int64_t>
evaluateAt(Value v, const llvm::DenseMap<Value, int64_t> &at, int depth = 0) {
  if (auto it = at.find(v); it != at.end())
    return it->second;
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant)))
    return constant.getBitWidth() == 1 ? int64_t(constant.getBoolValue())
                                       : constant.getSExtValue();
  Operation *def = v.getDefiningOp();
  if (!def || depth > 64)
    return std::nullopt;
  SmallVector<int64_t, 3> x;
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> value = evaluateAt(operand, at, depth + 1);
    if (!value)
      return std::nullopt;
    x.push_back(*value);
  }
  // Index values here are far from overflowing (sizes and block indices).
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(def)
      .Case([&](arith::AddIOp) { return x[0] + x[1]; })
      .Case([&](arith::SubIOp) { return x[0] - x[1]; })
      .Case([&](arith::MulIOp) { return x[0] * x[1]; })
      .Case([&](arith::MinSIOp) { return std::min(x[0], x[1]); })
      .Case([&](arith::MaxSIOp) { return std::max(x[0], x[1]); })
      .Case([&](arith::FloorDivSIOp) -> std::optional<int64_t> {
        if (x[1] == 0)
          return std::nullopt;
        return llvm::divideFloorSigned(x[0], x[1]);
      })
      .Case([&](arith::CeilDivSIOp) -> std::optional<int64_t> {
        if (x[1] == 0)
          return std::nullopt;
        return llvm::divideCeilSigned(x[0], x[1]);
      })
      .Case([&](arith::SelectOp) { return x[0] ? x[1] : x[2]; })
      .Case([&](arith::AndIOp) { return x[0] & x[1]; })
      .Case([&](arith::OrIOp) { return x[0] | x[1]; })
      .Case([&](arith::XOrIOp) { return x[0] ^ x[1]; })
      .Case([&](arith::CmpIOp cmp) -> std::optional<int64_t> {
        switch (cmp.getPredicate()) {
        case arith::CmpIPredicate::eq:
          return x[0] == x[1];
        case arith::CmpIPredicate::ne:
          return x[0] != x[1];
        case arith::CmpIPredicate::slt:
          return x[0] < x[1];
        case arith::CmpIPredicate::sle:
          return x[0] <= x[1];
        case arith::CmpIPredicate::sgt:
          return x[0] > x[1];
        case arith::CmpIPredicate::sge:
          return x[0] >= x[1];
        default:
          return std::nullopt;
        }
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// Whether at every point of the grid each key-block loop around an
/// attic.tile.qk runs at most once (or there is none): its bounds are then
/// index arithmetic of the grid's induction variables and constants,
/// evaluated at each point (at most 4096 points). False where that cannot
/// be decided. A causal attention of Nq = 64 queries and Nk = 129 keys
/// visits one key block in its one query block, although Nk > block_k:
/// the deferred P V then has nothing to defer past, and ptxas serialized
/// its wgmmas (C7511/C7519; a 2026-11-30 audit).
bool atMostOneKeyBlock(scf::ParallelOp grid) {
  SmallVector<scf::ForOp> loops;
  grid.getBody()->walk([&](TileQKOp qk) {
    auto loop = qk->getParentOfType<scf::ForOp>();
    if (loop && grid->isProperAncestor(loop) &&
        !llvm::is_contained(loops, loop))
      loops.push_back(loop);
  });
  SmallVector<int64_t> lower, upper, step;
  int64_t points = 1;
  for (auto [lb, ub, st] :
       llvm::zip(grid.getLowerBound(), grid.getUpperBound(), grid.getStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb),
                           u = getConstantIntValue(ub),
                           s = getConstantIntValue(st);
    if (!l || !u || !s || *s <= 0)
      return false;
    lower.push_back(*l);
    upper.push_back(*u);
    step.push_back(*s);
    points *= std::max<int64_t>(0, llvm::divideCeilSigned(*u - *l, *s));
    if (points > 4096)
      return false;
  }
  if (loops.empty() || points == 0)
    return true;
  SmallVector<int64_t> point(lower);
  llvm::DenseMap<Value, int64_t> at;
  while (true) {
    for (auto [iv, value] : llvm::zip(grid.getInductionVars(), point))
      at[iv] = value;
    for (scf::ForOp loop : loops) {
      std::optional<int64_t> l = evaluateAt(loop.getLowerBound(), at),
                             u = evaluateAt(loop.getUpperBound(), at),
                             s = evaluateAt(loop.getStep(), at);
      if (!l || !u || !s || *s <= 0)
        return false;
      if (*u - *l > *s)
        return false;
    }
    // The next point, the last dimension fastest.
    int64_t d = int64_t(point.size()) - 1;
    for (; d >= 0; --d) {
      point[d] += step[d];
      if (point[d] < upper[d])
        break;
      point[d] = lower[d];
    }
    if (d < 0)
      return true;
  }
}

/// The most ops of one tile.map region that the tensor-core kernel
/// unrolls over a lane's elements (region ops times elements).
constexpr int64_t kMaxUnrolledRegionOps = 16384;

/// Checks what the kernel supports; `why` names the unsupported thing. The
/// shared memory layout follows from the tiles and `options` (those of
/// attic-gpu-map-tiles).
FailureOr<KernelConfig> configFor(scf::ParallelOp grid,
                                  const TileGridInfo &info, std::string &why,
                                  const TensorCoreOptions &options = {}) {
  auto [asyncCopies, kvStages, wgmma, wgmmaOverlap, tma, warpSpecialize,
        pingPong] = options;
  auto fail = [&](const Twine &msg) -> FailureOr<KernelConfig> {
    why = msg.str();
    return failure();
  };
  KernelConfig cfg;
  cfg.rows = info.rows;
  SmallVector<Operation *> ops;
  grid.walk([&](Operation *op) {
    if (isa_and_nonnull<AtticDialect>(op->getDialect()))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    // The pooled epilogue needs every row of the block after the stores;
    // the thread-per-row mapping has it (see MapTilesToGPU.cpp).
    if (isa<TilePoolOp>(op))
      return fail("the grid pools its rows (attic.tile.pool): the "
                  "tensor-core kernel has no pooled epilogue");
    if (auto qk = dyn_cast<TileQKOp>(op)) {
      // The Q fragments are loaded once per block, for the grid's own
      // (batch, head, query block).
      if (qk.getQueryBatch() != grid.getInductionVars()[0] ||
          qk.getQueryHead() != grid.getInductionVars()[1] ||
          qk.getQueryBlock() != grid.getInductionVars()[2])
        return fail("attic.tile.qk reads a query block other than the "
                    "grid's (batch, head, query block)");
      if ((cfg.query && cfg.query != qk.getQuery()) ||
          (cfg.key && cfg.key != qk.getKey()))
        return fail("the grid reads more than one query or key tensor");
      // Scaled in f16 or bf16, whose subnormals are coarser than f32's,
      // small queries would lose bits (attic-tile-block-attention scales
      // f32 queries only).
      if (qk.getQueryScale())
        return fail("attic.tile.qk has a query_scale (the thread-per-row "
                    "mapping applies it in f32)");
      cfg.query = qk.getQuery();
      cfg.key = qk.getKey();
      cfg.keys = qk.getOut().getType().getDimSize(1);
      cfg.headDim = qk.getQuery().getType().getDimSize(3);
      cfg.elem = qk.getQuery().getType().getElementType();
    } else if (auto pv = dyn_cast<TilePVOp>(op)) {
      if (cfg.value && cfg.value != pv.getValue())
        return fail("the grid reads more than one value tensor");
      cfg.value = pv.getValue();
      cfg.valueDim = pv.getValue().getType().getDimSize(3);
    }
  }
  if (!cfg.query || !cfg.value)
    return fail("the grid has no attic.tile.qk or attic.tile.pv");
  for (Value v : {cfg.query, cfg.key, cfg.value}) {
    auto type = cast<MemRefType>(v.getType());
    if (!type.getLayout().isIdentity())
      return fail("query, key and value must have the identity layout (a "
                  "contiguous buffer)");
  }
  if (!cfg.elem.isF16() && !cfg.elem.isBF16())
    return fail("the element type must be f16 or bf16 (mma.sync)");
  auto dimOk = [](int64_t d) {
    return !ShapedType::isDynamic(d) && d % 16 == 0 && d >= 16 && d <= 128;
  };
  if (!dimOk(cfg.headDim) || !dimOk(cfg.valueDim))
    return fail("D and Dv must be static multiples of 16 in [16, 128]");
  if (cfg.rows != 16 && cfg.rows != 32 && cfg.rows != 64 && cfg.rows != 128)
    return fail("block_q must be 16, 32, 64 or 128 (16 query rows per warp)");
  if (cfg.keys % 16 != 0 || cfg.keys < 16 || cfg.keys > 128)
    return fail("block_k must be a multiple of 16 in [16, 128]");
  // A tile.map's region is unrolled over the elements each lane holds
  // (two per row and 8 columns, so cols / 2). Past kMaxUnrolledRegionOps
  // ops in all, code generation slows down faster than linearly (a mask
  // region of 1200 ops at block_k 64: 72 s), and the thread-per-row
  // kernel, which loops over the columns, takes the grid.
  for (Operation *op : ops)
    if (auto map = dyn_cast<TileMapOp>(op)) {
      int64_t regionOps =
          static_cast<int64_t>(map.getBody().front().getOperations().size()) -
          1;
      int64_t cols =
          cast<MemRefType>(map.getOutputs().front().getType()).getDimSize(1);
      if (!ShapedType::isDynamic(cols) &&
          regionOps * (cols / 2) > kMaxUnrolledRegionOps)
        return fail("a tile.map region of " + Twine(regionOps) + " ops over " +
                    Twine(cols) + " columns would be unrolled " +
                    Twine(cols / 2) + " times per lane (at most " +
                    Twine(kMaxUnrolledRegionOps) + " ops in all)");
    }
  for (TileGridInfo::Tile tile : info.tiles) {
    MemRefType type = tile.alloc.getType();
    if (tile.kind == TileGridInfo::TileKind::Matrix &&
        type.getDimSize(1) != cfg.keys && type.getDimSize(1) != cfg.valueDim)
      return fail("a scratch tile has neither block_k nor Dv columns");
    if (tile.kind == TileGridInfo::TileKind::Cols &&
        type.getDimSize(0) != cfg.keys)
      return fail("a column tile does not have block_k columns");
  }
  int64_t cols = 0;
  for (TileGridInfo::Tile tile : info.tiles)
    cols += tile.kind == TileGridInfo::TileKind::Cols;
  int64_t colBytes = cols * cfg.keys * 4;
  cfg.asyncCopies = asyncCopies;
  // wgmma where the tiles allow it (else mma.sync, no error: the option
  // asks for an instruction, not a result): whole warpgroups, rows of 64
  // elements, and K and V (swizzled, with their alignment slack) within
  // `limit`; P V too where Dv is a multiple of 64.
  bool wgmmaShape =
      wgmma && asyncCopies && cfg.rows % 64 == 0 && cfg.headDim % 64 == 0;
  auto chooseWgmma = [&](KernelConfig &c,
                         llvm::function_ref<bool(const KernelConfig &)> fits) {
    if (!wgmmaShape)
      return;
    c.wgmma = true;
    c.wgmmaPV = c.valueDim % 64 == 0;
    if (!fits(c))
      c.wgmmaPV = false;
    if (!fits(c))
      c.wgmma = false;
  };
  // Where two slots do not fit, the kernel keeps one (no error: the option
  // asks for a schedule, not a result). The rings are separate buffers for
  // K and V, whether or not one K and one V block would fit in 48 KiB of
  // static shared memory.
  // Three stages that do not fit fall back to two.
  for (int64_t stages = kvStages; stages >= 2 && asyncCopies; --stages) {
    KernelConfig ring = cfg;
    ring.stages = stages;
    ring.separateKV = true;
    auto fits = [&](const KernelConfig &c) {
      int64_t limit = c.stages == 3 && c.wgmma ? kHopperLimit : kRingLimit;
      // With TMA, an 8-byte mbarrier per K slot (two with warp
      // specialization: "full" and "empty").
      return ringBytes(c) + colBytes * c.colBuffers() +
                 (c.tma ? 8 * c.kSlots() : 0) + (c.ws ? 8 * c.kSlots() : 0) <=
             limit;
    };
    chooseWgmma(ring, fits);
    // The deferred P V needs wgmma for P V and one more V slot, and a
    // next key block to overlap: with one (a static Nk <= block_k, or key
    // loops that run at most once at every point of the grid) there is
    // nothing to defer past, and ptxas serialized the kernel's wgmmas
    // (C7511/C7519) for the deferred form.
    int64_t keyLength = cast<MemRefType>(cfg.key.getType()).getDimSize(2);
    bool oneKeyBlock =
        (!ShapedType::isDynamic(keyLength) && keyLength <= cfg.keys) ||
        (wgmmaOverlap && ring.wgmmaPV && atMostOneKeyBlock(grid));
    if (wgmmaOverlap && ring.wgmmaPV && !oneKeyBlock) {
      ring.overlap = true;
      if (!fits(ring))
        ring.overlap = false;
    }
    // TMA writes the swizzled tiles of wgmma's K and V only; the tensors
    // must be host values (the maps are made before the launch).
    auto outsideGrid = [&](Value v) {
      return !grid->isAncestor(v.getParentRegion()->getParentOp());
    };
    ring.tma = tma && ring.wgmma && ring.wgmmaPV && outsideGrid(cfg.key) &&
               outsideGrid(cfg.value);
    if (ring.tma && !fits(ring))
      ring.tma = false;
    ring.ws = warpSpecialize && ring.tma && producerCanFollow(grid, info);
    if (ring.ws && !fits(ring))
      ring.ws = false;
    ring.pingPong = pingPong && ring.ws && ring.overlap && ring.rows == 128;
    if (fits(ring))
      return ring;
  }
  chooseWgmma(cfg, [&](const KernelConfig &c) {
    return kBytes(c) + vBytes(c) + colBytes <= kSharedLimit;
  });
  cfg.separateKV = kBytes(cfg) + vBytes(cfg) + colBytes <= kSharedLimit;
  if (!cfg.separateKV &&
      std::max(kBytes(cfg), vBytes(cfg)) + colBytes > kSharedLimit)
    return fail("the K and V tiles do not fit in 48 KiB of shared memory");
  return cfg;
}

/// The first OpT in `loop` when every OpT there reads the same
/// `outsideReads` (values defined outside the loop) and the same
/// `sameRead` (if given; it may come from the loop body) as it; else null.
template <typename OpT>
OpT readsFromOutside(scf::ForOp loop,
                     llvm::function_ref<SmallVector<Value>(OpT)> outsideReads,
                     llvm::function_ref<Value(OpT)> sameRead = nullptr) {
  auto outside = [&](Value v) {
    return !loop->isAncestor(v.getParentRegion()->getParentOp());
  };
  OpT first;
  bool ok = true;
  loop.walk([&](OpT op) {
    if (!first)
      first = op;
    ok &= outsideReads(op) == outsideReads(first) &&
          llvm::all_of(outsideReads(op), outside) &&
          (!sameRead || sameRead(op) == sameRead(first));
  });
  return ok ? first : OpT();
}

/// Maps the body of one grid into the body of its launch.
class KernelMapper {
public:
  KernelMapper(ImplicitLocOpBuilder &b, const KernelConfig &cfg,
               const TileGridInfo &info, gpu::LaunchOp launch)
      : b(b), g{b, cfg.elem, cfg.elem.isBF16()}, cfg(cfg), info(info),
        launch(launch) {}

  LogicalResult run(scf::ParallelOp grid);
  /// The tensor maps of K and V as pointers (host values made before the
  /// launch) when cfg.tma; kMap and vMap are their descriptors in the
  /// kernel.
  Value kMapPtr, vMapPtr;

private:
  scf::ParallelOp grid;
  bool isMatrix(Value tile) { return kinds.lookup(tile) == Kind::Matrix; }
  bool isRows(Value tile) { return kinds.lookup(tile) == Kind::Rows; }
  /// Register element (r, chunk, e) of an R x n tile: row 8r + g of the
  /// warp, column 8 chunk + 2t + e.
  static int64_t at(int64_t r, int64_t chunk, int64_t e) {
    return (chunk * 2 + r) * 2 + e;
  }
  int64_t chunksOf(Value tile) {
    return cast<MemRefType>(tile.getType()).getDimSize(1) / 8;
  }

  LogicalResult mapBlock(Block &src, IRMapping &map);
  LogicalResult mapOp(Operation &op, IRMapping &map);
  LogicalResult mapLoop(scf::ForOp loop, IRMapping &map);
  LogicalResult mapIf(scf::IfOp ifOp, IRMapping &map);
  void stage(ArrayRef<Operation *> ops, IRMapping &map);
  void stageCols(TileMapColsOp op, IRMapping &map);
  /// The end of a staging point: the column tiles of `ops`, the wait for
  /// the thread's copies but the newest `inFlight` groups (with TMA: for
  /// the outstanding phase of slot `slot`) and a barrier.
  void finishStaging(ArrayRef<Operation *> ops, IRMapping &map,
                     int32_t inFlight, Value slot = Value());
  /// K block `kBlock` of `qk` (if any) into K's slot at `kOffset` and V
  /// block `vBlock` of `pv` (if any) into V's at `vOffset`: TMA loads
  /// completing slot `slot`'s mbarrier, or cp.async copies (not
  /// committed).
  void issueKV(Value slot, TileQKOp qk, TilePVOp pv, IRMapping &map,
               Value kBlock, Value vBlock, Value kOffset, Value vOffset) {
    if (cfg.tma)
      return tmaIssue(slot, qk, pv, map, kBlock, vBlock, kOffset, vOffset);
    if (qk)
      copyK(qk, map, kBlock, kOffset);
    if (pv)
      copyV(pv, map, vBlock, vOffset);
  }
  /// `body` in an scf.if of thread 0.
  void onThreadZero(llvm::function_ref<void()> body) {
    emitIf(arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tid, g.index(0)),
           body);
  }
  /// Where `cond` (an i1) holds, `body`; the scf.if.
  scf::IfOp emitIf(Value cond, llvm::function_ref<void()> body) {
    auto ifOp = scf::IfOp::create(b, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    body();
    return ifOp;
  }
  /// The element offsets of ring slot `slot` (an index below the ring's
  /// slots) in Ks and in Vs.
  Value kSlotOffset(Value slot) { return g.mul(slot, kTileBytes(cfg) / 2); }
  Value vSlotOffset(Value slot) { return g.mul(slot, vTileBytes(cfg) / 2); }
  /// try_wait.parity on mbarrier `index` of `group` for parity `parity`
  /// (i1). The tick count is a hint (the suspend time of each try); the op
  /// loops until the phase completes.
  void tryWait(Value group, Value index, Value parity) {
    nvgpu::MBarrierTryWaitParityOp::create(b, group, parity, g.index(1000000),
                                           index);
  }
  void copyRows(Value src, Value batchIdx, Value headIdx, Value block,
                int64_t width, Value dst, Value base = Value(),
                bool swizzled = false);
  /// Key block `block` of the key tensor, batch and head `qk` reads into
  /// Ks (at element offset `base`, a ring's slot); V likewise for `pv`.
  void copyK(TileQKOp qk, IRMapping &map, Value block, Value base = Value()) {
    copyRows(map.lookupOrDefault(qk.getKey()),
             map.lookupOrDefault(qk.getKeyBatch()),
             map.lookupOrDefault(qk.getKeyHead()), block, cfg.headDim, ks,
             withAlign(kAlign, base), /*swizzled=*/cfg.wgmma);
  }
  /// An element offset `base` (a ring's slot, or null) past the alignment
  /// `align` of a wgmma tile (or null).
  Value withAlign(Value align, Value base) {
    if (!align)
      return base;
    return base ? g.add(align, base) : align;
  }
  /// The wgmma.mma_async ops of one product (no fence, commit or wait):
  /// one m64n{n}k16 per (A fragment, descriptor), accumulating from
  /// `accIn` (empty: from zero); the n / 2 accumulators per thread, in
  /// flight until a wgmmaWait.
  SmallVector<Value> wgmmaIssue(int64_t n, ArrayRef<Value> accIn,
                                ArrayRef<SmallVector<Value>> aRegs,
                                ArrayRef<Value> descriptors, bool transB);
  /// wgmma.wait_group `pending`, passing `acc` (accumulators of a
  /// completed group) through as tied operands: their readable values.
  SmallVector<Value> wgmmaWait(int32_t pending, ArrayRef<Value> acc);
  void wgmmaFence() {
    g.inlineAsm(Type(), {}, "wgmma.fence.sync.aligned;", "");
  }
  void wgmmaCommit() {
    g.inlineAsm(Type(), {}, "wgmma.commit_group.sync.aligned;", "");
  }
  /// The accumulator tile's registers in wgmma's output order, and back.
  SmallVector<Value> accInWgmmaOrder();
  void setAccFromWgmma(ArrayRef<Value> values);
  /// Deferred P V (`overlap`): whether every attic.tile.qk and
  /// attic.tile.pv of the grid allows it (see the definition).
  bool canDeferPV();
  /// Issues acc += P V of the deferred block (no fence or commit).
  void issueDeferredPV();
  /// Waits for the deferred P V issued at a Q K^T, if in flight.
  void settleAcc();
  /// Adds the deferred P V to the accumulator (issue, wait) before an op
  /// other than qk or pv touches the accumulator.
  void flushDeferredPV();
  /// cp.async.wait_group `n`; with wgmma, then fence.proxy.async: the
  /// landed copies (generic proxy) become visible to wgmma's reads (async
  /// proxy) after the barrier that follows.
  void waitGroup(int32_t n) {
    NVVM::CpAsyncWaitGroupOp::create(b, n);
    if (cfg.wgmma)
      g.inlineAsm(Type(), {}, "fence.proxy.async.shared::cta;", "");
  }
  /// wgmma.fence, one wgmma.mma_async m64n{n}k16 per (A fragment,
  /// descriptor) accumulating from `accIn` (empty: from zero), commit and
  /// wgmma.wait_group 0: the n / 2 accumulators per thread.
  SmallVector<Value> wgmmaChain(int64_t n, ArrayRef<Value> accIn,
                                ArrayRef<SmallVector<Value>> aRegs,
                                ArrayRef<Value> descriptors, bool transB);
  Value descriptorAt(Value base, int64_t bytes);
  Value inSlotDescriptor(Value desc, Value slotBase);
  /// S (a warpgroup's 64 x block_k) = Q K^T on wgmma; `s` gets it.
  void wgmmaQK(SmallVector<Value> &s);
  void copyV(TilePVOp pv, IRMapping &map, Value block, Value base = Value()) {
    copyRows(map.lookupOrDefault(pv.getValue()),
             map.lookupOrDefault(pv.getValueBatch()),
             map.lookupOrDefault(pv.getValueHead()), block, cfg.valueDim, vs,
             withAlign(vAlign, base), /*swizzled=*/cfg.wgmmaPV);
  }
  /// `issue` (copies into the buffer kTag's prefetch went to) unless kTag
  /// is `block`; a prefetch of another block (one the tile loop then
  /// skipped) lands first, so that two copies into the same bytes are
  /// never in flight at once.
  void unlessPrefetched(Value block, llvm::function_ref<void()> issue) {
    Value stale =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ne, kTag, block);
    if (cfg.tma) {
      // The outstanding phase (a prefetch of another block, or an arrival)
      // completes first; the wait flips its parity bit.
      auto ifStale = scf::IfOp::create(b, TypeRange{phases.getType()}, stale,
                                       /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      Value before = phases;
      b.setInsertionPointToStart(ifStale.thenBlock());
      tmaWait(kSlot);
      issue();
      scf::YieldOp::create(b, phases);
      b.setInsertionPointToStart(ifStale.elseBlock());
      scf::YieldOp::create(b, before);
      phases = ifStale.getResult(0);
      return;
    }
    auto ifStale = scf::IfOp::create(b, stale, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifStale.thenBlock()->getTerminator());
    waitGroup(0);
    issue();
  }
  scf::ForOp prefetchLoop(TilePVOp pv);
  scf::ForOp ringLoop(TileQKOp qk);
  Value prefetchNext(scf::ForOp loop, IRMapping &map,
                     llvm::function_ref<void(Value)> copy, Value otherwise);
  scf::ForOp keyLoop(Operation *op, bool forRing);
  void stageRing(TileQKOp qk, TilePVOp pv, ArrayRef<Operation *> ops,
                 IRMapping &map);
  /// The staging state carried through the tile loop's scf.for and
  /// scf.if: kTag, and kSlot with a ring; with a deferred P V also its V
  /// slot and P's registers.
  SmallVector<Value> tagState() {
    SmallVector<Value> state = {kTag};
    if (cfg.ring())
      state.push_back(kSlot);
    if (cfg.tma)
      state.push_back(phases);
    if (overlap) {
      state.push_back(deferredVBase);
      if (cfg.ws)
        state.push_back(deferredSlot);
      llvm::append_range(state, deferredP);
    }
    return state;
  }
  void setTagState(ValueRange state) {
    kTag = state[0];
    if (cfg.ring())
      kSlot = state[1];
    size_t next = cfg.ring() ? 2 : 1;
    if (cfg.tma)
      phases = state[next++];
    if (overlap) {
      deferredVBase = state[next++];
      if (cfg.ws)
        deferredSlot = state[next++];
      deferredP.assign(state.begin() + next, state.end());
    }
  }
  // TMA (cfg.tma): an mbarrier per K slot. Invariant at a staging point:
  // exactly one phase of slot kSlot's mbarrier is outstanding (complete or
  // not: K and V of block kTag, or an arrival alone), so that waiting for
  // it never deadlocks; `phases` holds the parity to wait for per mbarrier
  // (bit i for mbarrier i).
  Value bars, phases, kMap, vMap;
  /// The mbarrier of ring slot `slot`.
  Value tmaBarrier(Value slot) {
    return cfg.countedSlots() ? g.remU(slot, cfg.kSlots()) : slot;
  }
  /// Every thread waits for the outstanding phase of slot `slot`'s
  /// mbarrier.
  void tmaWait(Value slot);
  /// Thread 0 announces the bytes and issues the TMA loads of K block
  /// `kBlock` of `qk` (if any) into K's slot at `kOffset` and V block
  /// `vBlock` of `pv` (if any) into V's at `vOffset`, completing slot
  /// `slot`'s mbarrier.
  void tmaIssue(Value slot, TileQKOp qk, TilePVOp pv, IRMapping &map,
                Value kBlock, Value vBlock, Value kOffset, Value vOffset);
  /// tmaIssue's loads from the calling thread, completing mbarrier `bar`
  /// (an index) of `bars`.
  void tmaLoadKV(Value bar, TileQKOp qk, TilePVOp pv, IRMapping &map,
                 Value kBlock, Value vBlock, Value kOffset, Value vOffset);
  /// Thread 0 arrives on slot `slot`'s mbarrier without loads (a phase
  /// that completes at once).
  void tmaArrive(Value slot);
  /// One block of `width` columns: a TMA load per 64-column group into
  /// `smem` at element `start` (groups block_k * 64 elements apart).
  void tmaLoadTile(Value tensorMap, Value smem, Value start, int64_t width,
                   Value block, Value head, Value batchIdx, Value bar);
  /// `index` offset by `base` (a slot of a ring), or `index` without one.
  Value inSlot(Value index, Value base) {
    return cfg.ring() ? g.add(index, base) : index;
  }
  /// Whether `op` may change kTag (it stages or prefetches K): loops and
  /// ifs around it carry kTag.
  bool movesKTag(Operation *op) {
    if (!cfg.separateKV || !cfg.asyncCopies)
      return false;
    bool found = false;
    op->walk(
        [&](Operation *inner) { found |= isa<TileQKOp, TilePVOp>(inner); });
    return found;
  }
  LogicalResult mapTileOp(Operation *op, IRMapping &map);
  /// `op` (a staging op: attic.tile.map_cols, qk or pv) and the staging
  /// ops after it in its block that are staged with it (their operands
  /// are all in `map` here, at most one qk and one pv, a column tile
  /// written once): the consumers and the producer of a warp-specialized
  /// kernel group them alike.
  SmallVector<Operation *> stagingGroup(Operation *op, IRMapping &map);
  /// A barrier of the threads that compute: gpu.barrier, or with warp
  /// specialization a named barrier (bar.sync 1) of the consumers.
  void barrier() {
    if (!cfg.ws) {
      gpu::BarrierOp::create(b);
      return;
    }
    NVVM::BarrierOp::create(b, Type(), g.i32(1), g.i32(cfg.consumerThreads()),
                            NVVM::BarrierReductionAttr(), Value());
  }

  // Warp specialization (cfg.ws). Slot s = count % kSlots has a "full"
  // mbarrier (bars[s]: the producer's arrival with the bytes of its TMA
  // loads) and an "empty" one (emptyBars[s]: an arrival of every consumer
  // thread once the wgmmas that read the slot have completed). The count
  // (kSlot for the consumers, `produced` for the producer) numbers the
  // staging points with K or V in the order both visit them, so use n of
  // a slot waits for parity n % 2 of "full" and the producer's load n
  // into it for phase n - 1 of "empty".
  Value emptyBars;
  /// Consumers: the qk and pv of the current slot not yet mapped, and the
  /// slot they release after the last of them. With the deferred P V the
  /// slot is released when the block's P V completes, in the next visited
  /// block (or at the flush): `currentSlot` is the slot of the block being
  /// computed, `deferredSlot` that of the deferred block (carried with
  /// deferredVBase; -1 before the first, whose V is the zeroed slot) and
  /// `inFlightSlot` that of the product in flight.
  SmallVector<Operation *> releaseOps;
  Value releaseSlot, currentSlot, deferredSlot, inFlightSlot;
  /// Ping-pong (cfg.pingPong with the deferred P V): this consumer's
  /// warpgroup (0 or 1, i32); its turn to issue a block's wgmmas begins at
  /// bar.sync on named barrier 2 + wg and passes to the other warpgroup by
  /// bar.arrive on 3 - wg (256 threads each: one warpgroup waits, the
  /// other arrives).
  bool pingPong = false;
  Value pingPongGroup;
  void pingPongBarrier(Value id, bool arriveOnly) {
    Value count = g.i32(2 * 128);
    if (arriveOnly)
      NVVM::BarrierArriveOp::create(b, id, count);
    else
      NVVM::BarrierOp::create(b, Type(), id, count,
                              NVVM::BarrierReductionAttr(), Value());
  }
  /// Every consumer thread arrives on slot `slot`'s "empty" mbarrier
  /// (where `slot` >= 0 when `maybeNone`).
  void release(Value slot, bool maybeNone = false);
  void stageWs(ArrayRef<Operation *> ops, IRMapping &map);
  void releaseAfter(Operation *op);
  /// Waits on mbarrier `index` of `group` for the phase of parity bit 0
  /// of `phase` (index).
  void waitPhase(Value group, Value index, Value phase);
  /// Producer: the tile loop's control flow (scf.for, scf.if and the ops
  /// that only read memory, cloned), a load per staging point with K or
  /// V, the count carried through the loops and branches.
  Value produced;
  llvm::DenseSet<Operation *> producerStaged;
  LogicalResult produceBlock(Block &src, IRMapping &map);
  LogicalResult produceOp(Operation &op, IRMapping &map);
  void produceLoad(TileQKOp qk, TilePVOp pv, IRMapping &map);
  static bool holdsTileOps(Operation &op) {
    bool found = false;
    op.walk([&](Operation *inner) {
      found |= isa_and_nonnull<AtticDialect>(inner->getDialect());
    });
    return found;
  }
  SmallVector<Value> inlineBody(Block &body, ArrayRef<Value> args,
                                IRMapping &outer);
  /// The register tiles that ops inside `op` write, in a stable order.
  SmallVector<Value> writtenTiles(Operation *op);
  enum class Access { None, Read, Write };
  Access accessOf(Operation *op, Value t);
  Access firstAccess(Block &block, Value t, Operation *after = nullptr);
  bool liveAfter(Operation *op, Value t);
  /// The tiles written in `op` whose values must leave it: live after it
  /// or (loops) live into the next iteration.
  SmallVector<Value> carriedTiles(Operation *op) {
    SmallVector<Value> carried;
    for (Value t : writtenTiles(op)) {
      bool live = liveAfter(op, t);
      if (auto loop = dyn_cast<scf::ForOp>(op))
        live |= firstAccess(*loop.getBody(), t) == Access::Read;
      if (live)
        carried.push_back(t);
    }
    return carried;
  }

  ImplicitLocOpBuilder &b;
  Gen g;
  const KernelConfig &cfg;
  const TileGridInfo &info;
  gpu::LaunchOp launch;

  enum class Kind { None, Matrix, Rows, Cols };
  DenseMap<Value, Kind> kinds;
  /// Registers of the R x C and row tiles (old alloc value -> elements).
  DenseMap<Value, SmallVector<Value>> regs;
  /// Shared memory of the column tiles.
  DenseMap<Value, Value> smemOf;
  Value ks, vs;
  /// Ops whose shared-memory staging was done ahead of them.
  llvm::DenseSet<Operation *> staged;
  /// attic.tile.pv ops whose V copies are in flight (waited at the pv).
  llvm::DenseSet<Operation *> pendingV;
  /// The key block whose K is in Ks or on its way there (-1: none); uniform
  /// in the block, carried through the tile loop's scf.for and scf.if.
  Value kTag;
  /// Ring (`cfg.ring()`): the slot that kTag's block is in or on its way to
  /// (uniform, carried with kTag), and the element offsets into Ks and Vs
  /// of the slot the current key block was staged in (constants 0 without
  /// a ring).
  Value kSlot, kBase, vBase;
  /// The element offset of the current key block's column tiles in their
  /// buffers (three stages: the buffer of the block's parity; else 0).
  Value colBase;
  /// Deferred P V (`overlap`, decided by canDeferPV): the accumulator
  /// tile; P's A registers (four i32 per 16 keys) of the last visited key
  /// block and the element offset of its V slot, whose product is issued
  /// with the next block's Q K^T (uniform per block; before the first
  /// visited block P is 0 and the slot is the zeroed third slot); whether
  /// that product is in flight (between a Q K^T and its attic.tile.pv,
  /// within one block of the tile loop); whether no P V has been deferred
  /// yet (at mapping time: before the first attic.tile.pv), and whether
  /// one was flushed into the accumulator.
  bool overlap = false;
  Value accTile;
  SmallVector<Value> deferredP;
  Value deferredVBase;
  bool accInFlight = false, deferredEmpty = true, flushed = false;
  /// An internal inconsistency of the deferral (reported by run).
  std::string deferralError;
  /// The attic.tile.qk whose key tensor, batch, head and block a prefetch
  /// reads, and the ops of its loop that compute the block (set by
  /// prefetchLoop); with a ring also the attic.tile.pv whose value tensor
  /// it reads.
  TileQKOp prefetchKey;
  TilePVOp prefetchValue;
  SmallVector<Operation *> prefetchSlice;
  // Per thread.
  Value tid, warp, grp, tig, twoT, threads;
  /// This lane's row of an ldmatrix .x4 (lane % 8) and which half of the
  /// matrices' columns (bit 0 of lane / 8) and rows (bit 1) it addresses.
  Value ldRow, ldLo, ldHi;
  Value batch, head, queryBlock;
  SmallVector<SmallVector<Value>> qFrag;
  /// wgmma: Q's A fragments as four i32 per 16 columns of D, the element
  /// offset of the 1024-byte aligned K tile in Ks, and the descriptor of
  /// its start.
  SmallVector<SmallVector<Value>> qRegs;
  Value kAlign, kDescriptor;
  /// wgmma P V: the same for V.
  Value vAlign, vDescriptor;
  /// The first 1024-byte boundary in `buffer` (its element offset in
  /// `align`) and the descriptor of a tile there: `fields` with the start
  /// address.
  Value alignSwizzled(Value buffer, Value &align, uint64_t fields);
};

/// How `op` first touches register tile `t`: it reads the old value
/// (Read), overwrites it whole without reading (Write), or neither.
KernelMapper::Access KernelMapper::accessOf(Operation *op, Value t) {
  auto usesOld = [](Block &body, unsigned arg) {
    return !body.getArgument(arg).use_empty();
  };
  if (auto qk = dyn_cast<TileQKOp>(op))
    return qk.getOut() == t ? Access::Write : Access::None;
  if (auto pv = dyn_cast<TilePVOp>(op))
    return llvm::is_contained(op->getOperands(), t) ? Access::Read
                                                    : Access::None;
  if (auto reduce = dyn_cast<TileReduceOp>(op))
    return reduce.getInput() == t ? Access::Read
           : reduce.getOut() == t ? Access::Write
                                  : Access::None;
  if (auto store = dyn_cast<TileStoreOp>(op))
    return store.getTile() == t ? Access::Read : Access::None;
  if (auto map = dyn_cast<TileMapOp>(op)) {
    if (llvm::is_contained(map.getInputs(), t) ||
        llvm::is_contained(map.getRows(), t) ||
        llvm::is_contained(map.getCols(), t))
      return Access::Read;
    unsigned first = 2 + map.getInputs().size() + map.getRows().size() +
                     map.getCols().size();
    for (auto [i, v] : llvm::enumerate(map.getOutputs()))
      if (v == t)
        return usesOld(map.getBody().front(), first + i) ? Access::Read
                                                         : Access::Write;
    return Access::None;
  }
  if (auto rows = dyn_cast<TileMapRowsOp>(op)) {
    if (llvm::is_contained(rows.getInputs(), t))
      return Access::Read;
    unsigned first = 1 + rows.getInputs().size();
    for (auto [i, v] : llvm::enumerate(rows.getOutputs()))
      if (v == t)
        return usesOld(rows.getBody().front(), first + i) ? Access::Read
                                                          : Access::Write;
    return Access::None;
  }
  if (isa<TileMapColsOp>(op))
    return Access::None; // column tiles live in shared memory
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    Access a = firstAccess(ifOp.getThenRegion().front(), t);
    Access b = ifOp.getElseRegion().empty()
                   ? Access::None
                   : firstAccess(ifOp.getElseRegion().front(), t);
    if (a == Access::Read || b == Access::Read)
      return Access::Read;
    return a == Access::Write && b == Access::Write ? Access::Write
                                                    : Access::None;
  }
  if (auto loop = dyn_cast<scf::ForOp>(op))
    // A loop may run no iteration: it never overwrites for sure.
    return firstAccess(*loop.getBody(), t) == Access::Read ? Access::Read
                                                           : Access::None;
  return Access::None;
}

KernelMapper::Access KernelMapper::firstAccess(Block &block, Value t,
                                               Operation *after) {
  bool started = !after;
  for (Operation &op : block) {
    if (!started) {
      started = &op == after;
      continue;
    }
    Access a = accessOf(&op, t);
    if (a != Access::None)
      return a;
  }
  return Access::None;
}

/// Whether tile `t` may be read, before being overwritten, after `op`
/// (through the rest of its block, the next iterations of enclosing loops,
/// and what follows them in the grid body).
bool KernelMapper::liveAfter(Operation *op, Value t) {
  Access a = firstAccess(*op->getBlock(), t, op);
  if (a != Access::None)
    return a == Access::Read;
  Operation *parent = op->getParentOp();
  if (!parent || parent == grid.getOperation())
    return false;
  if (auto loop = dyn_cast<scf::ForOp>(parent))
    if (firstAccess(*loop.getBody(), t) == Access::Read)
      return true;
  return liveAfter(parent, t);
}

SmallVector<Value> KernelMapper::writtenTiles(Operation *root) {
  llvm::SetVector<Value> written;
  root->walk([&](Operation *op) {
    SmallVector<Value> outs;
    if (auto qk = dyn_cast<TileQKOp>(op))
      outs.push_back(qk.getOut());
    else if (auto pv = dyn_cast<TilePVOp>(op))
      outs.push_back(pv.getAcc());
    else if (auto map = dyn_cast<TileMapOp>(op))
      llvm::append_range(outs, map.getOutputs());
    else if (auto rows = dyn_cast<TileMapRowsOp>(op))
      llvm::append_range(outs, rows.getOutputs());
    else if (auto reduce = dyn_cast<TileReduceOp>(op)) {
      outs.push_back(reduce.getOut());
    }
    for (Value v : outs)
      if (regs.count(v))
        written.insert(v);
  });
  return written.takeVector();
}

SmallVector<Value> KernelMapper::inlineBody(Block &body, ArrayRef<Value> args,
                                            IRMapping &map) {
  for (auto [arg, v] : llvm::zip(body.getArguments(), args))
    map.map(arg, v);
  for (Operation &op : body.without_terminator()) {
    // exp2 on the GPU: ex2.approx, not a libdevice call.
    if (auto exp2 = dyn_cast<math::Exp2Op>(op);
        exp2 && exp2.getType().isF32()) {
      map.map(exp2.getResult(), g.exp2(map.lookupOrDefault(exp2.getOperand())));
      continue;
    }
    b.clone(op, map);
  }
  SmallVector<Value> results;
  for (Value v : body.getTerminator()->getOperands())
    results.push_back(map.lookupOrDefault(v));
  return results;
}

LogicalResult KernelMapper::run(scf::ParallelOp gridOp) {
  grid = gridOp;
  Block &kernel = launch.getBody().front();
  b.setInsertionPointToStart(&kernel);
  tid = launch.getThreadIds().x;
  threads = g.index(cfg.consumerThreads());
  warp = g.divU(tid, 32);
  Value lane = g.remU(tid, 32);
  ldRow = g.remU(lane, 8);
  ldLo = g.remU(g.divU(lane, 8), 2);
  ldHi = g.divU(lane, 16);
  grp = g.divU(lane, 4);
  tig = g.remU(lane, 4);
  twoT = g.mul(tig, 2);
  Value heads = grid.getUpperBound()[1];
  Value bx = launch.getBlockIds().x;
  batch = arith::DivUIOp::create(b, bx, heads);
  head = arith::RemUIOp::create(b, bx, heads);
  // Query blocks in reverse launch order: the GPU starts blocks in
  // increasing (x, y) order, and under causal-like layouts the last query
  // blocks visit the most key blocks. Starting them first leaves the short
  // blocks for the tail (as FlashAttention-2 does); other layouts do not
  // care.
  queryBlock =
      g.sub(g.sub(launch.getGridSize().y, g.index(1)), launch.getBlockIds().y);
  IRMapping map;
  map.map(grid.getInductionVars()[0], batch);
  map.map(grid.getInductionVars()[1], head);
  map.map(grid.getInductionVars()[2], queryBlock);

  // Shared memory and tile kinds.
  auto smem = launch.getWorkgroupAttributions();
  int64_t nextSmem;
  if (cfg.ring()) {
    // Ks (both slots), then Vs, in the launch's dynamic shared memory
    // (16-byte aligned; each ring a multiple of 16 bytes long).
    MLIRContext *ctx = b.getContext();
    auto space = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    Value bytes = gpu::DynamicSharedMemoryOp::create(
        b,
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), nullptr, space));
    // Where wgmma reads a ring, its view also holds the slack, which the
    // kernel skips to the first 1024-byte boundary (alignSwizzled).
    ks = memref::ViewOp::create(
        b, MemRefType::get({kRingBytes(cfg) / 2}, cfg.elem, nullptr, space),
        bytes, g.index(0), ValueRange{});
    vs = memref::ViewOp::create(
        b, MemRefType::get({vRingBytes(cfg) / 2}, cfg.elem, nullptr, space),
        bytes, g.index(kRingBytes(cfg)), ValueRange{});
    nextSmem = 0;
  } else {
    ks = smem[0];
    vs = cfg.separateKV ? smem[1] : smem[0];
    nextSmem = cfg.separateKV ? 2 : 1;
  }
  Value zero = g.f32(0.0f);
  for (TileGridInfo::Tile tile : info.tiles) {
    Value t = tile.alloc.getResult();
    switch (tile.kind) {
    case TileGridInfo::TileKind::Matrix:
      kinds[t] = Kind::Matrix;
      regs[t].assign(4 * chunksOf(t), zero);
      break;
    case TileGridInfo::TileKind::Rows:
      kinds[t] = Kind::Rows;
      regs[t].assign(2, zero);
      break;
    case TileGridInfo::TileKind::Cols:
      kinds[t] = Kind::Cols;
      smemOf[t] = smem[nextSmem++];
      break;
    }
  }

  // Q fragments (A operand of S = Q K^T), one per 16 columns of D; rows
  // past Nq read the last row (in bounds) and are never stored. With warp
  // specialization the consumers load them, after the role split.
  auto loadQ = [&] {
    Value queryLen = memref::DimOp::create(b, cfg.query, 2);
    Value lastRow = g.sub(queryLen, g.index(1));
    Value row0 =
        g.add(g.add(g.mul(queryBlock, cfg.rows), g.mul(warp, 16)), grp);
    Value row0c = g.minI(row0, lastRow),
          row1c = g.minI(g.add(row0, 8), lastRow);
    Value qHead = head;
    for (int64_t kc = 0; kc < cfg.headDim / 16; ++kc) {
      Value col = g.add(twoT, 16 * kc), colHi = g.add(twoT, 16 * kc + 8);
      SmallVector<Value> pairs = {
          g.loadPair(cfg.query, {batch, qHead, row0c, col}),
          g.loadPair(cfg.query, {batch, qHead, row1c, col}),
          g.loadPair(cfg.query, {batch, qHead, row0c, colHi}),
          g.loadPair(cfg.query, {batch, qHead, row1c, colHi})};
      // wgmma takes each pair as an i32 register.
      if (cfg.wgmma)
        qRegs.push_back(g.asI32(pairs));
      else
        qFrag.push_back(g.packRegs(pairs));
    }
  };
  if (!cfg.ws)
    loadQ();
  if (cfg.wgmma) {
    kDescriptor = alignSwizzled(ks, kAlign, kDescriptorFields);
    // V, N-major: 8-key groups 1024 bytes apart (stride byte offset), the
    // 64-column groups of Dv block_k * 128 bytes apart (leading byte
    // offset).
    if (cfg.wgmmaPV)
      vDescriptor =
          alignSwizzled(vs, vAlign,
                        (uint64_t(cfg.keys * 128 >> 4) << 16) |
                            (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 62));
  }
  kTag = g.index(-1);
  colBase = g.index(0);
  if (cfg.ring()) {
    kSlot = g.index(0);
    kBase = vBase = kSlot;
  }
  if (cfg.tma) {
    // An mbarrier per K slot, each expecting one arrival (thread 0's, with
    // the bytes of its loads) per phase; initialized by thread 0, fenced
    // and published by a barrier; then slot 0's first phase is an arrival
    // alone (the invariant of tmaBarrier).
    MLIRContext *ctx = b.getContext();
    auto space = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    bars = nvgpu::MBarrierCreateOp::create(
        b, nvgpu::MBarrierGroupType::get(ctx, space, cfg.kSlots()));
    // With warp specialization, also an "empty" mbarrier per slot, each
    // phase an arrival of every consumer thread.
    if (cfg.ws)
      emptyBars = nvgpu::MBarrierCreateOp::create(
          b, nvgpu::MBarrierGroupType::get(ctx, space, cfg.kSlots()));
    onThreadZero([&] {
      for (int64_t i = 0; i < cfg.kSlots(); ++i) {
        nvgpu::MBarrierInitOp::create(b, bars, g.index(1), g.index(i),
                                      /*predicate=*/Value());
        if (cfg.ws)
          nvgpu::MBarrierInitOp::create(b, emptyBars,
                                        g.index(cfg.consumerThreads()),
                                        g.index(i), /*predicate=*/Value());
      }
      NVVM::FenceMbarrierInitOp::create(b);
    });
    gpu::BarrierOp::create(b);
    phases = g.i32(0);
    if (!cfg.ws)
      tmaArrive(kSlot);
    auto asMap = [&](Value ptr) {
      return UnrealizedConversionCastOp::create(
                 b, tensorMapType(ctx, cfg.elem, cfg.keys), ptr)
          .getResult(0);
    };
    kMap = asMap(kMapPtr);
    vMap = asMap(vMapPtr);
  }
  overlap = canDeferPV();
  pingPong = cfg.pingPong && overlap;
  // Before the first visited block the deferred product is 0 times the
  // last V slot, which the ring fills only from the second prefetch on
  // (with warp specialization: never): that slot is zeroed (shared memory
  // is not, and 0 * NaN is NaN), its stores fenced for wgmma's async proxy
  // and ordered by a barrier of the threads that compute.
  auto zeroDeferredSlot = [&] {
    int64_t slotElems = vTileBytes(cfg) / 2;
    deferredVBase = g.index((cfg.vSlots() - 1) * slotElems);
    if (cfg.ws)
      deferredSlot = g.index(-1);
    Value start = g.add(vAlign, deferredVBase);
    auto loop = scf::ForOp::create(b, g.mul(tid, 8), g.index(slotElems),
                                   g.mul(threads, 8));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      auto store = vector::StoreOp::create(
          b, g.zeros(8), vs, ValueRange{g.add(start, loop.getInductionVar())});
      store.setAlignment(16);
    }
    g.inlineAsm(Type(), {}, "fence.proxy.async.shared::cta;", "");
    barrier();
    deferredP.assign(cfg.keys / 4, g.i32(0));
  };
  if (overlap && !cfg.ws)
    zeroDeferredSlot();
  scf::IfOp roles;
  if (cfg.ws) {
    // The roles: the consumers (warps 0 .. rows/16 - 1, whose thread
    // indices the mapping's fragments assume) and the producer warpgroup
    // after them. setmaxnreg moves registers from the producer (24) to
    // the consumers (240: 2 consumer warpgroups and the producer's take
    // 64512 of the 65536).
    Value isConsumer =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, tid, threads);
    roles = scf::IfOp::create(b, isConsumer, /*withElseRegion=*/true);
    roles->setAttr(kWarpRolesAttrName, b.getUnitAttr());
    // With ping-pong the consumer warpgroups wait for each other: the
    // simulator runs them as roles of their own too.
    if (pingPong)
      roles->setAttr(kWarpgroupRolesAttrName, b.getUnitAttr());
    b.setInsertionPoint(roles.elseBlock()->getTerminator());
    g.inlineAsm(Type(), {}, "setmaxnreg.dec.sync.aligned.u32 24;", "");
    {
      Value issuer =
          arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tid, threads);
      auto ifIssuer = scf::IfOp::create(b, issuer, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifIssuer.thenBlock()->getTerminator());
      IRMapping producerMap;
      for (auto [iv, v] : llvm::zip(grid.getInductionVars(),
                                    ValueRange{batch, head, queryBlock}))
        producerMap.map(iv, v);
      produced = g.index(0);
      if (failed(produceBlock(*grid.getBody(), producerMap)))
        return failure();
      // Everything the producer uses is its own or from before the split.
      WalkResult leak = ifIssuer.walk([&](Operation *op) {
        for (Value v : op->getOperands())
          if (grid->isAncestor(v.getParentRegion()->getParentOp())) {
            op->emitOpError("in the producer warpgroup uses a value of the "
                            "tile loop it does not compute (internal error "
                            "of the warp-specialized kernel)");
            return WalkResult::interrupt();
          }
        return WalkResult::advance();
      });
      if (leak.wasInterrupted())
        return failure();
    }
    b.setInsertionPoint(roles.thenBlock()->getTerminator());
    g.inlineAsm(Type(), {}, "setmaxnreg.inc.sync.aligned.u32 240;", "");
    if (overlap)
      zeroDeferredSlot();
    loadQ();
    if (pingPong) {
      // Warpgroup 0 takes the first turn: warpgroup 1 arrives on its
      // barrier.
      pingPongGroup =
          arith::IndexCastOp::create(b, b.getI32Type(), g.divU(tid, 128));
      emitIf(arith::CmpIOp::create(b, arith::CmpIPredicate::eq, pingPongGroup,
                                   g.i32(1)),
             [&] { pingPongBarrier(g.i32(2), /*arriveOnly=*/true); });
    }
  }
  if (failed(mapBlock(*grid.getBody(), map)))
    return failure();
  settleAcc();
  if (!deferralError.empty())
    return attic::opError(grid,
                          "internal error in the deferred P V or the warp "
                          "specialization of the tensor-core kernel: ")
           << deferralError;
  if (cfg.ws) {
    // The producer loads only what the consumers wait for: nothing is in
    // flight at the end.
    if (!releaseOps.empty())
      return attic::opError(grid, "internal error of the warp-specialized "
                                  "kernel: a slot is never released");
    // Warpgroup 1's last turn ends with an arrival on warpgroup 0's
    // barrier: warpgroup 0 waits for it, so that no phase is left open.
    if (pingPong)
      emitIf(arith::CmpIOp::create(b, arith::CmpIPredicate::eq, pingPongGroup,
                                   g.i32(0)),
             [&] { pingPongBarrier(g.i32(2), /*arriveOnly=*/false); });
    b.setInsertionPointAfter(roles);
  } else if (cfg.tma) {
    // A prefetch of a key block the tile loop then skipped may be in
    // flight (with TMA: the outstanding phase, which may be a load).
    tmaWait(kSlot);
  } else if (cfg.asyncCopies) {
    waitGroup(0);
  }
  gpu::TerminatorOp::create(b);
  return success();
}

LogicalResult KernelMapper::mapBlock(Block &src, IRMapping &map) {
  for (Operation &op : src.without_terminator())
    if (failed(mapOp(op, map)))
      return failure();
  return success();
}

LogicalResult KernelMapper::mapOp(Operation &op, IRMapping &map) {
  if (auto alloc = dyn_cast<memref::AllocOp>(op))
    if (kinds.count(alloc.getResult()))
      return success();
  if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
    if (kinds.count(dealloc.getMemref()))
      return success();
  if (isa_and_nonnull<AtticDialect>(op.getDialect())) {
    if (failed(mapTileOp(&op, map)))
      return failure();
    if (cfg.ws)
      releaseAfter(&op);
    return success();
  }
  bool holdsTiles = false;
  op.walk([&](Operation *inner) {
    holdsTiles |= isa_and_nonnull<AtticDialect>(inner->getDialect());
  });
  if (!holdsTiles) {
    b.clone(op, map);
    return success();
  }
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return mapLoop(loop, map);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return mapIf(ifOp, map);
  return attic::opError(&op, "holds tile ops; the tensor-core mapping supports "
                             "them inside scf.for and scf.if only");
}

LogicalResult KernelMapper::mapLoop(scf::ForOp loop, IRMapping &map) {
  // No wgmma is in flight across the loop's boundary.
  settleAcc();
  SmallVector<Value> tiles = carriedTiles(loop);
  // Tiles the loop writes but nothing reads afterwards keep their values
  // from before (defined outside the loop) once it is mapped.
  DenseMap<Value, SmallVector<Value>> before;
  for (Value t : writtenTiles(loop))
    before[t] = regs[t];
  SmallVector<Value> inits;
  for (Value v : loop.getInitArgs())
    inits.push_back(map.lookupOrDefault(v));
  int64_t own = inits.size();
  for (Value t : tiles)
    llvm::append_range(inits, regs[t]);
  bool carryTag = movesKTag(loop);
  if (carryTag)
    llvm::append_range(inits, tagState());
  auto newLoop = scf::ForOp::create(b, map.lookupOrDefault(loop.getLowerBound()),
                                    map.lookupOrDefault(loop.getUpperBound()),
                                    map.lookupOrDefault(loop.getStep()), inits);
  LogicalResult result = success();
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = newLoop.getBody();
    b.setInsertionPointToStart(body);
    map.map(loop.getInductionVar(), newLoop.getInductionVar());
    for (auto [arg, v] : llvm::zip(loop.getRegionIterArgs(),
                                   newLoop.getRegionIterArgs().take_front(own)))
      map.map(arg, v);
    int64_t next = own;
    for (Value t : tiles)
      for (Value &r : regs[t])
        r = newLoop.getRegionIterArgs()[next++];
    if (carryTag) {
      setTagState(newLoop.getRegionIterArgs().slice(next));
      next += tagState().size();
    }
    result = mapBlock(*loop.getBody(), map);
    settleAcc();
    SmallVector<Value> yields;
    for (Value v : loop.getBody()->getTerminator()->getOperands())
      yields.push_back(map.lookupOrDefault(v));
    for (Value t : tiles)
      llvm::append_range(yields, regs[t]);
    if (carryTag)
      llvm::append_range(yields, tagState());
    // The loop body built by create has a terminator: replace it.
    if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
      body->back().erase();
    b.setInsertionPointToEnd(body);
    scf::YieldOp::create(b, yields);
  }
  for (auto [r, v] : llvm::zip(loop.getResults(),
                               newLoop.getResults().take_front(own)))
    map.map(r, v);
  for (auto &[t, values] : before)
    regs[t] = values;
  int64_t next = own;
  for (Value t : tiles)
    for (Value &r : regs[t])
      r = newLoop.getResult(next++);
  if (carryTag)
    setTagState(newLoop.getResults().drop_front(next));
  return result;
}

LogicalResult KernelMapper::mapIf(scf::IfOp ifOp, IRMapping &map) {
  // No wgmma is in flight across the branches' boundaries.
  settleAcc();
  SmallVector<Value> tiles = carriedTiles(ifOp);
  SmallVector<Type> types(ifOp.getResultTypes());
  int64_t own = types.size();
  for (Value t : tiles)
    for (Value r : regs[t])
      types.push_back(r.getType());
  bool carryTag = movesKTag(ifOp);
  SmallVector<Value> tagBefore = tagState();
  if (carryTag)
    for (Value v : tagBefore)
      types.push_back(v.getType());
  auto newIf = scf::IfOp::create(b, types,
                                 map.lookupOrDefault(ifOp.getCondition()),
                                 /*withElseRegion=*/true);
  DenseMap<Value, SmallVector<Value>> before;
  for (Value t : writtenTiles(ifOp))
    before[t] = regs[t];
  auto mapBranch = [&](Region &src, Block *dst) -> LogicalResult {
    OpBuilder::InsertionGuard guard(b);
    for (auto &[t, values] : before)
      regs[t] = values;
    setTagState(tagBefore);
    if (!dst->empty())
      dst->back().erase();
    b.setInsertionPointToEnd(dst);
    SmallVector<Value> yields;
    if (!src.empty()) {
      if (failed(mapBlock(src.front(), map)))
        return failure();
      settleAcc();
      for (Value v : src.front().getTerminator()->getOperands())
        yields.push_back(map.lookupOrDefault(v));
    }
    for (Value t : tiles)
      llvm::append_range(yields, regs[t]);
    if (carryTag)
      llvm::append_range(yields, tagState());
    scf::YieldOp::create(b, yields);
    return success();
  };
  if (failed(mapBranch(ifOp.getThenRegion(), newIf.thenBlock())) ||
      failed(mapBranch(ifOp.getElseRegion(), newIf.elseBlock())))
    return failure();
  for (auto [r, v] : llvm::zip(ifOp.getResults(),
                               newIf.getResults().take_front(own)))
    map.map(r, v);
  for (auto &[t, values] : before)
    regs[t] = values;
  int64_t next = own;
  for (Value t : tiles)
    for (Value &r : regs[t])
      r = newIf.getResult(next++);
  setTagState(carryTag ? ValueRange(newIf.getResults().drop_front(next))
                       : ValueRange(tagBefore));
  return success();
}

/// The column tiles, K and V of one key block: `ops` are the staging ops
/// of a block of the tile loop whose operands are all available here. K
/// and V are cp.async copies, each its own group; when V is staged with K
/// (separate buffers), only K is waited for here, and V at its
/// attic.tile.pv (`pendingV`), so that V's load overlaps S = Q K^T and the
/// softmax. K may already be in Ks or on its way (`kTag`, prefetched at the
/// previous block's attic.tile.pv).
void KernelMapper::stage(ArrayRef<Operation *> ops, IRMapping &map) {
  if (cfg.ws) {
    staged.insert(ops.begin(), ops.end());
    stageWs(ops, map);
    return;
  }
  // The previous readers of the shared tiles are done (with three stages
  // stageRing decides: its prefetches write what no thread has read since
  // the previous block's barrier).
  if (!cfg.oneBarrier())
    barrier();
  TileQKOp qk;
  TilePVOp pv;
  for (Operation *op : ops) {
    if (auto x = dyn_cast<TileQKOp>(op))
      qk = x;
    else if (auto x = dyn_cast<TilePVOp>(op))
      pv = x;
    staged.insert(op);
  }
  if (!cfg.asyncCopies) {
    // Loads and stores through registers, all before one barrier.
    if (qk)
      copyK(qk, map, map.lookupOrDefault(qk.getKeyBlock()));
    if (pv)
      copyV(pv, map, map.lookupOrDefault(pv.getValueBlock()));
    for (Operation *op : ops)
      if (auto cols = dyn_cast<TileMapColsOp>(op))
        stageCols(cols, map);
    barrier();
    return;
  }
  if (cfg.ring()) {
    stageRing(qk, pv, ops, map);
    return;
  }
  if (qk) {
    Value block = map.lookupOrDefault(qk.getKeyBlock());
    // K is copied unless the previous block prefetched it.
    if (cfg.separateKV)
      unlessPrefetched(block, [&] { copyK(qk, map, block); });
    else
      copyK(qk, map, block);
    NVVM::CpAsyncCommitGroupOp::create(b);
    if (cfg.separateKV)
      kTag = block;
  }
  if (pv) {
    copyV(pv, map, map.lookupOrDefault(pv.getValueBlock()));
    NVVM::CpAsyncCommitGroupOp::create(b);
  }
  // With K and V: all but the newest group (V) have landed.
  bool vLater = qk && pv;
  if (vLater)
    pendingV.insert(pv);
  finishStaging(ops, map, /*inFlight=*/vLater ? 1 : 0);
}

/// The end of a staging point: the column tiles of `ops` computed, the
/// thread's copies but the newest `inFlight` groups waited for (with TMA,
/// the outstanding phase of `slot`), and a barrier (the copies and the
/// column tiles visible to every thread).
void KernelMapper::finishStaging(ArrayRef<Operation *> ops, IRMapping &map,
                                 int32_t inFlight, Value slot) {
  for (Operation *op : ops)
    if (auto cols = dyn_cast<TileMapColsOp>(op))
      stageCols(cols, map);
  if (cfg.tma)
    tmaWait(slot);
  else
    waitGroup(inFlight);
  barrier();
}

void KernelMapper::stageCols(TileMapColsOp op, IRMapping &map) {
  auto loop = scf::ForOp::create(b, tid, g.index(cfg.keys), threads);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value j = loop.getInductionVar();
  Value at = g.add(j, colBase);
  SmallVector<Value> args = {g.add(map.lookupOrDefault(op.getColOffset()), j)};
  for (Value v : op.getInputs())
    args.push_back(memref::LoadOp::create(b, smemOf[v], ValueRange{at}));
  for (Value v : op.getOutputs())
    args.push_back(memref::LoadOp::create(b, smemOf[v], ValueRange{at}));
  SmallVector<Value> results = inlineBody(op.getBody().front(), args, map);
  for (auto [out, v] : llvm::zip(op.getOutputs(), results))
    memref::StoreOp::create(b, v, smemOf[out], ValueRange{at});
}

/// Staging with K and V rings of two slots (after the barrier that ends
/// the previous block's reads). Invariant at a staging point: at most one
/// cp.async group is in flight, the copies of K and V of block kTag into
/// slot kSlot; no thread reads either slot. Per visited key block kb:
///   if kTag != kb: wait_group 0 (a prefetch of a skipped block lands),
///     K and V of kb into slot kSlot, one group;
///   K and V of the next iteration's key block into the other slot, one
///     group (empty without a next block of the keys);
///   the column tiles; wait_group 1 (kb's group has landed); barrier;
/// and the block's Q K^T, softmax and P V read slot kSlot, while the next
/// block's copies are in flight: 2 barriers per block. A group that does
/// not hold K and V of one key block of a loop that ringLoop accepts
/// waits for everything and copies what it has into slot kSlot (correct,
/// without overlap). With three V slots (`overlap`) kSlot counts the
/// prefetches: K's slot is kSlot % 2, V's kSlot % 3, so that the deferred
/// block's V (slot kSlot - 1) outlives the next prefetch.
void KernelMapper::stageRing(TileQKOp qk, TilePVOp pv,
                             ArrayRef<Operation *> ops, IRMapping &map) {
  Value cur = kSlot;
  bool counted = cfg.countedSlots();
  auto kOff = [&](Value slot) {
    return kSlotOffset(counted ? g.remU(slot, cfg.kSlots()) : slot);
  };
  auto vOff = [&](Value slot) {
    return vSlotOffset(counted ? g.remU(slot, cfg.vSlots()) : slot);
  };
  Value kOffset = kOff(cur);
  Value vOffset = vOff(cur);
  if (cfg.oneBarrier())
    colBase = g.mul(g.remU(cur, 2), cfg.keys);
  scf::ForOp loop = qk && pv ? ringLoop(qk) : scf::ForOp();
  if (loop && pv.getValueBlock() != qk.getKeyBlock())
    loop = {};
  if (!loop && overlap)
    deferralError = "a staging point without a ring prefetch (canDeferPV "
                    "accepted the grid)";
  if (!loop) {
    // Three stages: this staging writes the current slot, which the
    // previous block may have read, so it waits for everyone first, and
    // the next staging moves on to the next slot.
    if (cfg.oneBarrier())
      barrier();
    // Everything in flight lands first (with TMA: the outstanding phase).
    if (cfg.tma)
      tmaWait(cur);
    else
      waitGroup(0);
    issueKV(cur, qk, pv, map,
            qk ? map.lookupOrDefault(qk.getKeyBlock()) : Value(),
            pv ? map.lookupOrDefault(pv.getValueBlock()) : Value(), kOffset,
            vOffset);
    if (!cfg.tma)
      NVVM::CpAsyncCommitGroupOp::create(b);
    finishStaging(ops, map, /*inFlight=*/0, cur);
    kTag = g.index(-1);
    if (cfg.oneBarrier())
      kSlot = g.add(cur, g.index(1));
    // The invariant's outstanding phase, for the next staging.
    if (cfg.tma)
      tmaArrive(kSlot);
    if (qk)
      kBase = kOffset;
    if (pv)
      vBase = vOffset;
    return;
  }
  Value block = map.lookupOrDefault(qk.getKeyBlock());
  unlessPrefetched(block, [&] {
    issueKV(cur, qk, pv, map, block, block, kOffset, vOffset);
    if (!cfg.tma)
      NVVM::CpAsyncCommitGroupOp::create(b);
  });
  Value other = counted ? g.add(cur, g.index(1)) : g.sub(g.index(1), cur);
  Value newTag = prefetchNext(
      loop, map,
      [&](Value nextBlock) {
        if (!cfg.tma) {
          // Each slot offset next to its copy (the IR's order).
          copyK(qk, map, nextBlock, kOff(other));
          copyV(pv, map, nextBlock, vOff(other));
          return;
        }
        Value nextK = kOff(other);
        Value nextV = vOff(other);
        issueKV(other, qk, pv, map, nextBlock, nextBlock, nextK, nextV);
      },
      g.index(-1));
  if (cfg.tma) {
    // Without a prefetch, an arrival keeps the invariant (tmaBarrier).
    Value none =
        arith::CmpIOp::create(b, arith::CmpIPredicate::slt, newTag, g.index(0));
    auto ifNone = scf::IfOp::create(b, none, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifNone.thenBlock()->getTerminator());
    tmaArrive(other);
  } else {
    NVVM::CpAsyncCommitGroupOp::create(b);
  }
  // All but the newest group (the prefetch) have landed (with TMA: the
  // current block's phase, its slot's only outstanding one).
  finishStaging(ops, map, /*inFlight=*/1, cur);
  kTag = newTag;
  kSlot = other;
  kBase = kOffset;
  vBase = vOffset;
}

/// Warp specialization, a consumers' staging point: the column tiles
/// (between two barriers of the consumers: the previous block's readers
/// are done, then the new values are visible), and where the point has
/// K or V, the wait for its slot's "full" phase; the slot is released
/// after its qk and pv (releaseAfter).
void KernelMapper::stageWs(ArrayRef<Operation *> ops, IRMapping &map) {
  TileQKOp qk;
  TilePVOp pv;
  bool cols = false;
  for (Operation *op : ops) {
    if (auto x = dyn_cast<TileQKOp>(op))
      qk = x;
    else if (auto x = dyn_cast<TilePVOp>(op))
      pv = x;
    else
      cols = true;
  }
  if (!releaseOps.empty())
    deferralError = "a staging point before the products of the previous "
                    "slot";
  if (overlap && (!qk || !pv))
    deferralError = "a staging point without both K and V (canDeferPV "
                    "accepted the grid)";
  if (cols)
    barrier();
  for (Operation *op : ops)
    if (auto c = dyn_cast<TileMapColsOp>(op))
      stageCols(c, map);
  if (qk || pv) {
    Value slot = g.remU(kSlot, cfg.kSlots());
    waitPhase(bars, slot, g.divU(kSlot, cfg.kSlots()));
    if (qk) {
      kBase = kSlotOffset(slot);
      if (!overlap)
        releaseOps.push_back(qk);
    }
    if (pv) {
      vBase = vSlotOffset(slot);
      if (!overlap)
        releaseOps.push_back(pv);
    }
    releaseSlot = currentSlot = slot;
    kSlot = g.add(kSlot, g.index(1));
  }
  if (cols)
    barrier();
}

/// After `op` (mapped): when it was the last product of the current slot
/// (its wgmmas completed by their wait_group), every consumer thread
/// arrives on the slot's "empty" mbarrier.
void KernelMapper::releaseAfter(Operation *op) {
  auto it = llvm::find(releaseOps, op);
  if (it == releaseOps.end())
    return;
  releaseOps.erase(it);
  if (releaseOps.empty())
    release(releaseSlot);
}

void KernelMapper::release(Value slot, bool maybeNone) {
  if (!maybeNone) {
    nvgpu::MBarrierArriveExpectTxOp::create(b, emptyBars, g.index(0), slot,
                                            /*predicate=*/Value());
    return;
  }
  emitIf(arith::CmpIOp::create(b, arith::CmpIPredicate::sge, slot, g.index(0)),
         [&] { release(slot); });
}

void KernelMapper::waitPhase(Value group, Value index, Value phase) {
  tryWait(group, index,
          arith::CmpIOp::create(b, arith::CmpIPredicate::ne, g.remU(phase, 2),
                                g.index(0)));
}

/// The producer's load n (= `produced`) into slot n % kSlots: once the
/// consumers have released the slot's use n - kSlots (phase n / kSlots - 1
/// of its "empty" mbarrier), the bytes announced on "full" and one TMA
/// load per 64 columns of K and of V.
void KernelMapper::produceLoad(TileQKOp qk, TilePVOp pv, IRMapping &map) {
  Value slot = g.remU(produced, cfg.kSlots());
  emitIf(arith::CmpIOp::create(b, arith::CmpIPredicate::uge, produced,
                               g.index(cfg.kSlots())),
         [&] {
           waitPhase(emptyBars, slot,
                     g.sub(g.divU(produced, cfg.kSlots()), g.index(1)));
         });
  tmaLoadKV(slot, qk, pv, map,
            qk ? map.lookupOrDefault(qk.getKeyBlock()) : Value(),
            pv ? map.lookupOrDefault(pv.getValueBlock()) : Value(),
            kSlotOffset(slot), vSlotOffset(slot));
  produced = g.add(produced, g.index(1));
}

LogicalResult KernelMapper::produceBlock(Block &src, IRMapping &map) {
  for (Operation &op : src.without_terminator())
    if (failed(produceOp(op, map)))
      return failure();
  return success();
}

LogicalResult KernelMapper::produceOp(Operation &op, IRMapping &map) {
  if (isa<memref::AllocOp, memref::DeallocOp>(op))
    return success(); // tiles (producerCanFollow allows no other)
  if (isa_and_nonnull<AtticDialect>(op.getDialect())) {
    if (!isa<TileMapColsOp, TileQKOp, TilePVOp>(op) ||
        producerStaged.count(&op))
      return success();
    TileQKOp qk;
    TilePVOp pv;
    for (Operation *staging : stagingGroup(&op, map)) {
      producerStaged.insert(staging);
      if (auto x = dyn_cast<TileQKOp>(staging))
        qk = x;
      else if (auto x = dyn_cast<TilePVOp>(staging))
        pv = x;
    }
    if (qk || pv)
      produceLoad(qk, pv, map);
    return success();
  }
  if (!holdsTileOps(op)) {
    b.clone(op, map);
    return success();
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    SmallVector<Value> inits;
    for (Value v : loop.getInitArgs())
      inits.push_back(map.lookupOrDefault(v));
    inits.push_back(produced);
    auto newLoop =
        scf::ForOp::create(b, map.lookupOrDefault(loop.getLowerBound()),
                           map.lookupOrDefault(loop.getUpperBound()),
                           map.lookupOrDefault(loop.getStep()), inits);
    {
      OpBuilder::InsertionGuard guard(b);
      Block *body = newLoop.getBody();
      if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
        body->back().erase();
      b.setInsertionPointToEnd(body);
      map.map(loop.getInductionVar(), newLoop.getInductionVar());
      for (auto [arg, v] :
           llvm::zip(loop.getRegionIterArgs(), newLoop.getRegionIterArgs()))
        map.map(arg, v);
      produced = newLoop.getRegionIterArgs().back();
      if (failed(produceBlock(*loop.getBody(), map)))
        return failure();
      SmallVector<Value> yields;
      for (Value v : loop.getBody()->getTerminator()->getOperands())
        yields.push_back(map.lookupOrDefault(v));
      yields.push_back(produced);
      scf::YieldOp::create(b, yields);
    }
    for (auto [r, v] : llvm::zip(loop.getResults(), newLoop.getResults()))
      map.map(r, v);
    produced = newLoop.getResults().back();
    return success();
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    SmallVector<Type> types(ifOp.getResultTypes());
    types.push_back(b.getIndexType());
    auto newIf =
        scf::IfOp::create(b, types, map.lookupOrDefault(ifOp.getCondition()),
                          /*withElseRegion=*/true);
    Value before = produced;
    for (auto [src, dst] :
         {std::make_pair(&ifOp.getThenRegion(), newIf.thenBlock()),
          std::make_pair(&ifOp.getElseRegion(), newIf.elseBlock())}) {
      OpBuilder::InsertionGuard guard(b);
      if (!dst->empty())
        dst->back().erase();
      b.setInsertionPointToEnd(dst);
      produced = before;
      SmallVector<Value> yields;
      if (!src->empty()) {
        if (failed(produceBlock(src->front(), map)))
          return failure();
        for (Value v : src->front().getTerminator()->getOperands())
          yields.push_back(map.lookupOrDefault(v));
      }
      yields.push_back(produced);
      scf::YieldOp::create(b, yields);
    }
    for (auto [r, v] : llvm::zip(ifOp.getResults(), newIf.getResults()))
      map.map(r, v);
    produced = newIf.getResults().back();
    return success();
  }
  return attic::opError(&op, "holds tile ops; the warp-specialized kernel's "
                             "producer follows scf.for and scf.if only");
}

void KernelMapper::tmaWait(Value slot) {
  Type i32 = b.getI32Type();
  Value bar = tmaBarrier(slot);
  Value bit = arith::ShLIOp::create(b, g.i32(1),
                                    arith::IndexCastOp::create(b, i32, bar));
  Value parity =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ne,
                            arith::AndIOp::create(b, phases, bit), g.i32(0));
  tryWait(bars, bar, parity);
  phases = arith::XOrIOp::create(b, phases, bit);
}

void KernelMapper::tmaArrive(Value slot) {
  onThreadZero([&] {
    nvgpu::MBarrierArriveExpectTxOp::create(
        b, bars, g.index(0), tmaBarrier(slot), /*predicate=*/Value());
  });
}

void KernelMapper::tmaIssue(Value slot, TileQKOp qk, TilePVOp pv,
                            IRMapping &map, Value kBlock, Value vBlock,
                            Value kOffset, Value vOffset) {
  onThreadZero([&] {
    tmaLoadKV(tmaBarrier(slot), qk, pv, map, kBlock, vBlock, kOffset, vOffset);
  });
}

void KernelMapper::tmaLoadKV(Value bar, TileQKOp qk, TilePVOp pv,
                             IRMapping &map, Value kBlock, Value vBlock,
                             Value kOffset, Value vOffset) {
  // Whole boxes count, the rows past the tensor (zero-filled) too.
  int64_t bytes = (qk ? cfg.keys * cfg.headDim * 2 : 0) +
                  (pv ? cfg.keys * cfg.valueDim * 2 : 0);
  nvgpu::MBarrierArriveExpectTxOp::create(b, bars, g.index(bytes), bar,
                                          /*predicate=*/Value());
  if (qk)
    tmaLoadTile(kMap, ks, g.add(kAlign, kOffset), cfg.headDim, kBlock,
                map.lookupOrDefault(qk.getKeyHead()),
                map.lookupOrDefault(qk.getKeyBatch()), bar);
  if (pv)
    tmaLoadTile(vMap, vs, g.add(vAlign, vOffset), cfg.valueDim, vBlock,
                map.lookupOrDefault(pv.getValueHead()),
                map.lookupOrDefault(pv.getValueBatch()), bar);
}

void KernelMapper::tmaLoadTile(Value tensorMap, Value smem, Value start,
                               int64_t width, Value block, Value head,
                               Value batchIdx, Value bar) {
  MLIRContext *ctx = b.getContext();
  const int64_t bk = cfg.keys;
  auto space = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto flat = MemRefType::get(
      {bk * 64}, cfg.elem,
      StridedLayoutAttr::get(ctx, ShapedType::kDynamic, {1}), space);
  auto box = MemRefType::get({1, 1, bk, 64}, cfg.elem,
                             StridedLayoutAttr::get(ctx, ShapedType::kDynamic,
                                                    {bk * 64, bk * 64, 64, 1}),
                             space);
  Value row = g.mul(block, bk);
  for (int64_t group = 0; group < width / 64; ++group) {
    Value at = g.add(start, group * bk * 64);
    Value tile = memref::SubViewOp::create(
        b, flat, smem, ArrayRef<OpFoldResult>{at},
        ArrayRef<OpFoldResult>{b.getIndexAttr(bk * 64)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
    Value dst = memref::ExpandShapeOp::create(
        b, box, tile, ArrayRef<ReassociationIndices>{{0, 1, 2, 3}},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1),
                               b.getIndexAttr(bk), b.getIndexAttr(64)});
    // Coordinates innermost first: column, key, head, batch.
    nvgpu::TmaAsyncLoadOp::create(
        b, dst, bars, tensorMap,
        ValueRange{g.index(group * 64), row, head, batchIdx}, bar,
        /*multicastMask=*/Value(), /*predicate=*/Value());
  }
}

/// The next iteration's key block of `loop` (prefetchLoop or ringLoop),
/// computed as the tile loop computes it (prefetchSlice cloned with the
/// next induction variable: a list entry is read only when the next
/// iteration exists), passed to `copy` when it is a block of the keys:
/// the new tag, that block, else `otherwise`.
Value KernelMapper::prefetchNext(scf::ForOp loop, IRMapping &map,
                                 llvm::function_ref<void(Value)> copy,
                                 Value otherwise) {
  Value next = g.add(map.lookupOrDefault(loop.getInductionVar()),
                     map.lookupOrDefault(loop.getStep()));
  Value inRange = g.lt(next, map.lookupOrDefault(loop.getUpperBound()));
  auto ifNext = scf::IfOp::create(b, TypeRange{b.getIndexType()}, inRange,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifNext.thenBlock());
  IRMapping nextMap = map;
  nextMap.map(loop.getInductionVar(), next);
  for (Operation *op : prefetchSlice)
    b.clone(*op, nextMap);
  Value block = nextMap.lookupOrDefault(prefetchKey.getKeyBlock());
  Value keyLen =
      memref::DimOp::create(b, map.lookupOrDefault(prefetchKey.getKey()), 2);
  Value valid = arith::AndIOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::sge, block, g.index(0)),
      g.lt(g.mul(block, cfg.keys), keyLen));
  auto ifValid = scf::IfOp::create(b, valid, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPoint(ifValid.thenBlock()->getTerminator());
    copy(block);
  }
  scf::YieldOp::create(b, g.select(valid, block, otherwise));
  b.setInsertionPointToStart(ifNext.elseBlock());
  scf::YieldOp::create(b, otherwise);
  return ifNext.getResult(0);
}

/// The key-block loop whose next iteration's K and V blocks a ring's
/// staging of `qk` may prefetch into the other slot, or null: as for
/// prefetchLoop, without the condition on what follows (the prefetch
/// writes the slot no op of this iteration reads); every attic.tile.pv in
/// the loop must read one value tensor, batch and head from outside it
/// (`prefetchValue`).
scf::ForOp KernelMapper::ringLoop(TileQKOp qk) {
  scf::ForOp loop = keyLoop(qk, /*forRing=*/true);
  if (!loop)
    return {};
  prefetchValue = readsFromOutside<TilePVOp>(loop, [](TilePVOp pv) {
    return SmallVector<Value>{pv.getValue(), pv.getValueBatch(),
                              pv.getValueHead()};
  });
  return prefetchValue ? loop : scf::ForOp();
}

/// The key-block loop whose next iteration's K block an attic.tile.pv may
/// prefetch into Ks, or null: the nearest scf.for around `pv`, when every
/// attic.tile.qk in it reads one key block value of one key tensor, batch
/// and head defined outside it, and none follows `pv` in an iteration (Ks
/// has no reader left once the pv's barrier is passed). The key block is
/// the induction variable (range layouts) or computed from it in the loop
/// body by pure ops and loads (block lists: an entry of the list); those
/// ops (`prefetchSlice`) are cloned with the next induction variable.
scf::ForOp KernelMapper::prefetchLoop(TilePVOp pv) {
  if (!cfg.separateKV || !cfg.asyncCopies || cfg.ring())
    return {};
  return keyLoop(pv, /*forRing=*/false);
}

/// The nearest scf.for around `op` (in the grid) whose attic.tile.qk ops
/// all read one key block of one key tensor, batch and head, with the
/// ops that compute the block from the induction variable in
/// `prefetchSlice` and the first qk in `prefetchKey`; unless `forRing`,
/// no qk may follow `op` in an iteration.
scf::ForOp KernelMapper::keyLoop(Operation *op, bool forRing) {
  auto loop = op->getParentOfType<scf::ForOp>();
  if (!loop || !grid->isProperAncestor(loop))
    return {};
  auto outside = [&](Value v) {
    return !loop->isAncestor(v.getParentRegion()->getParentOp());
  };
  TileQKOp first = readsFromOutside<TileQKOp>(
      loop,
      [](TileQKOp qk) {
        return SmallVector<Value>{qk.getKey(), qk.getKeyBatch(),
                                  qk.getKeyHead()};
      },
      [](TileQKOp qk) { return qk.getKeyBlock(); });
  if (!first)
    return {};
  for (Operation *at = op; !forRing && at != loop.getOperation();
       at = at->getParentOp())
    for (Operation *next = at->getNextNode(); next;
         next = next->getNextNode()) {
      bool reads = false;
      next->walk([&](TileQKOp) { reads = true; });
      if (reads)
        return {};
    }
  // The ops of the loop body that compute the key block from the
  // induction variable, in program order.
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work = {first.getKeyBlock()};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == loop.getInductionVar() || outside(v))
      continue;
    Operation *def = v.getDefiningOp();
    auto load = dyn_cast_or_null<memref::LoadOp>(def);
    // Loads of buffers from outside the grid (the block lists), which the
    // grid does not write.
    if (load &&
        grid->isAncestor(load.getMemref().getParentRegion()->getParentOp()))
      return {};
    if (!def || def->getBlock() != loop.getBody() || def->getNumRegions() ||
        !(load || isPure(def)))
      return {};
    if (slice.insert(def))
      llvm::append_range(work, def->getOperands());
  }
  prefetchSlice.assign(slice.begin(), slice.end());
  llvm::sort(prefetchSlice,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  prefetchKey = first;
  return loop;
}

/// Copies one key block, dst[r * (width + kPad) + c] = src[batchIdx,
/// headIdx, k0 + r, c] for the block_k keys from k0 = block * block_k (K
/// into Ks, V into Vs), 8 columns (16 bytes) per item (rows of src are 2 *
/// width bytes, a multiple of 32, and device buffers start 256-byte
/// aligned; rows of dst are 2 * (width + 8) bytes); keys past Nk read the
/// last key's address and are zeros. With cp.async the items are issued,
/// not waited for: zero-filled by a source size of 0; else a 16-byte global
/// load and a 16-byte shared store each. `swizzled` (wgmma's K tile): rows
/// of 64 elements, 128-byte swizzled, instead of padded rows.
void KernelMapper::copyRows(Value src, Value batchIdx, Value headIdx,
                            Value block, int64_t width, Value dst, Value base,
                            bool swizzled) {
  const int64_t bk = cfg.keys, stride = width + kPad, perRow = width / 8;
  Value k0 = g.mul(block, bk);
  Value keyLen = memref::DimOp::create(b, src, 2);
  Value lastKey = g.sub(keyLen, g.index(1));
  Value zeros = cfg.asyncCopies ? Value() : g.zeros(8);
  auto loop = scf::ForOp::create(b, tid, g.index(bk * perRow), threads);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value i = loop.getInductionVar();
  Value r = g.divU(i, perRow), j = g.remU(i, perRow), c = g.mul(j, 8);
  Value keyRow = g.add(k0, r);
  Value valid = g.lt(keyRow, keyLen);
  SmallVector<Value, 4> srcIdx = {batchIdx, headIdx, g.minI(keyRow, lastKey),
                                  c};
  Value dstIdx;
  if (swizzled) {
    // wgmma's K tile: chunk j (8 elements) of row r in column group j / 8
    // (bk rows of 64 elements each), at chunk (j % 8) ^ (r % 8) of its row.
    Value group = g.mul(g.divU(j, 8), bk * 64);
    Value chunk = g.xorI(g.remU(j, 8), g.remU(r, 8));
    dstIdx = g.add(g.add(group, g.mul(r, 64)), g.mul(chunk, 8));
  } else {
    dstIdx = g.add(g.mul(r, stride), c);
  }
  if (base)
    dstIdx = g.add(dstIdx, base);
  if (cfg.asyncCopies) {
    nvgpu::DeviceAsyncCopyOp::create(
        b, nvgpu::DeviceAsyncTokenType::get(b.getContext()), dst,
        ValueRange{dstIdx}, src, srcIdx, b.getIndexAttr(8),
        g.select(valid, g.index(8), g.index(0)), b.getUnitAttr());
    return;
  }
  auto load =
      vector::LoadOp::create(b, VectorType::get({8}, cfg.elem), src, srcIdx);
  load.setAlignment(16);
  auto store = vector::StoreOp::create(b, g.select(valid, load, zeros), dst,
                                       ValueRange{dstIdx});
  store.setAlignment(16);
}

Value KernelMapper::alignSwizzled(Value buffer, Value &align, uint64_t fields) {
  Type i64 = b.getI64Type();
  Value addr = memref::ExtractAlignedPointerAsIndexOp::create(b, buffer);
  Value pad = g.remU(g.sub(g.index(kSwizzleAlign), g.remU(addr, kSwizzleAlign)),
                     kSwizzleAlign);
  align = g.divU(pad, 2);
  Value start = arith::IndexCastOp::create(b, i64, g.add(addr, pad));
  auto c64 = [&](uint64_t v) {
    return arith::ConstantIntOp::create(b, i64, static_cast<int64_t>(v));
  };
  Value field = arith::AndIOp::create(
      b, arith::ShRUIOp::create(b, start, c64(4)), c64(0x3fff));
  return arith::OrIOp::create(b, field, c64(fields));
}

/// The warpgroup's rows are its warps' (16 per warp, in order), and wgmma's
/// accumulator layout per warp is mma.sync's C layout per 8 columns: output
/// i of lane (g, t) is row 8((i / 2) % 2) + g, column 8(i / 4) + 2t + i % 2,
/// which is register element at((i / 2) % 2, i / 4, i % 2) of an R x n tile.
/// The A operand is in registers (PTX's register form of wgmma, which MLIR
/// 22's nvvm.wgmma.mma_async does not offer: inline PTX), in mma.sync's A
/// layout. The accumulators pass from one wgmma to the next and through
/// wgmma.wait_group as tied operands, so that no read of them can be
/// scheduled before the wait.
SmallVector<Value> KernelMapper::wgmmaChain(int64_t n, ArrayRef<Value> accIn,
                                            ArrayRef<SmallVector<Value>> aRegs,
                                            ArrayRef<Value> descriptors,
                                            bool transB) {
  // Registers written since the last wait (the A fragments, the
  // accumulators) are ordered before the wgmmas.
  wgmmaFence();
  SmallVector<Value> acc = wgmmaIssue(n, accIn, aRegs, descriptors, transB);
  wgmmaCommit();
  return wgmmaWait(0, acc);
}

/// Fields 0 .. count - 1 of an LLVM struct value.
static SmallVector<Value> structFields(ImplicitLocOpBuilder &b, Value s,
                                       int64_t count) {
  SmallVector<Value> values;
  for (int64_t i = 0; i < count; ++i)
    values.push_back(LLVM::ExtractValueOp::create(b, s, i));
  return values;
}

/// The constraints of n / 2 f32 outputs ("=f,...") and of as many inputs
/// tied to them (",0,1,...").
static std::pair<std::string, std::string> accConstraints(int64_t perThread) {
  std::string outputs, tied;
  for (int64_t i = 0; i < perThread; ++i) {
    outputs += i ? ",=f" : "=f";
    tied += "," + std::to_string(i);
  }
  return {outputs, tied};
}

SmallVector<Value> KernelMapper::wgmmaIssue(int64_t n, ArrayRef<Value> accIn,
                                            ArrayRef<SmallVector<Value>> aRegs,
                                            ArrayRef<Value> descriptors,
                                            bool transB) {
  const int64_t perThread = n / 2;
  Type f32 = b.getF32Type();
  auto accType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(perThread, f32));
  const char *type = g.isBf16 ? "bf16" : "f16";
  auto list = [](int64_t first, int64_t count) {
    std::string text = "{";
    for (int64_t i = 0; i < count; ++i)
      text += (i ? ", $" : "$") + std::to_string(first + i);
    return text + "}";
  };
  auto [outputs, tied] = accConstraints(perThread);
  SmallVector<Value> acc(accIn);
  for (auto [regs, desc] : llvm::zip(aRegs, descriptors)) {
    // scale-d 0 (D = A B) when there is no accumulator yet.
    SmallVector<Value> operands = acc;
    std::string constraints = outputs + (acc.empty() ? "" : tied);
    int64_t first = perThread + operands.size();
    llvm::append_range(operands, regs);
    operands.push_back(desc);
    operands.push_back(g.i32(acc.empty() ? 0 : 1));
    constraints += ",r,r,r,r,l,r";
    std::string text =
        "{ .reg .pred p; setp.ne.b32 p, $" + std::to_string(first + 5) +
        ", 0; wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) +
        "k16.f32." + type + "." + type + " " + list(0, perThread) + ", " +
        list(first, 4) + ", $" + std::to_string(first + 4) + ", p, 1, 1, " +
        (transB ? "1" : "0") + "; }";
    acc = structFields(b, g.inlineAsm(accType, operands, text, constraints),
                       perThread);
  }
  return acc;
}

SmallVector<Value> KernelMapper::wgmmaWait(int32_t pending,
                                           ArrayRef<Value> acc) {
  const int64_t perThread = acc.size();
  auto accType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(perThread, b.getF32Type()));
  auto [outputs, tied] = accConstraints(perThread);
  return structFields(b,
                      g.inlineAsm(accType, acc,
                                  "wgmma.wait_group.sync.aligned " +
                                      std::to_string(pending) + ";",
                                  outputs + tied),
                      perThread);
}

SmallVector<Value> KernelMapper::accInWgmmaOrder() {
  const SmallVector<Value> &acc = regs[accTile];
  SmallVector<Value> values;
  for (int64_t i = 0; i < cfg.valueDim / 2; ++i)
    values.push_back(acc[at((i / 2) % 2, i / 4, i % 2)]);
  return values;
}

void KernelMapper::setAccFromWgmma(ArrayRef<Value> values) {
  SmallVector<Value> &acc = regs[accTile];
  for (auto [i, v] : llvm::enumerate(values))
    acc[at((i / 2) % 2, i / 4, i % 2)] = v;
}

/// Whether the grid's P V can be deferred to the next key block's Q K^T.
/// It can when (1) every attic.tile.qk is staged by a ring prefetch: its
/// ring loop (ringLoop) is directly in the grid body, and each
/// attic.tile.pv there reads the qk's key block and follows a qk in its
/// block; (2) inside those loops only the attic.tile.pv ops touch their one
/// accumulator; (3) outside them, the ops that touch the accumulator come
/// before the first loop or after the last (one flush, at the end, and no
/// Q K^T after it). Then the deferred block's V stays in its slot until
/// the next Q K^T: the ring's prefetches go to the other two slots.
bool KernelMapper::canDeferPV() {
  if (!cfg.overlap)
    return false;
  SmallVector<TileQKOp> qks;
  SmallVector<TilePVOp> pvs;
  grid.walk([&](Operation *op) {
    if (auto qk = dyn_cast<TileQKOp>(op))
      qks.push_back(qk);
    else if (auto pv = dyn_cast<TilePVOp>(op))
      pvs.push_back(pv);
  });
  if (pvs.empty())
    return false;
  Value acc = pvs.front().getAcc();
  llvm::SmallPtrSet<Operation *, 2> loops;
  for (TileQKOp qk : qks) {
    scf::ForOp loop = ringLoop(qk);
    if (!loop || loop->getParentOp() != grid.getOperation())
      return false;
    loops.insert(loop);
    bool ok = true;
    loop.walk(
        [&](TilePVOp pv) { ok &= pv.getValueBlock() == qk.getKeyBlock(); });
    if (!ok)
      return false;
  }
  for (TilePVOp pv : pvs) {
    if (pv.getAcc() != acc)
      return false;
    auto loop = pv->getParentOfType<scf::ForOp>();
    if (!loop || !loops.contains(loop))
      return false;
    bool follows = false;
    for (Operation *prev = pv->getPrevNode(); prev; prev = prev->getPrevNode())
      follows |= isa<TileQKOp>(prev);
    if (!follows)
      return false;
  }
  for (Operation *loop : loops) {
    bool others = false;
    loop->walk([&](Operation *op) {
      if (isa_and_nonnull<AtticDialect>(op->getDialect()) &&
          !isa<TilePVOp>(op) && accessOf(op, acc) != Access::None)
        others = true;
    });
    if (others)
      return false;
  }
  bool seenLoop = false, touchedBetween = false;
  for (Operation &op : grid.getBody()->without_terminator()) {
    if (loops.contains(&op)) {
      if (touchedBetween)
        return false;
      seenLoop = true;
      continue;
    }
    if (seenLoop && accessOf(&op, acc) != Access::None)
      touchedBetween = true;
  }
  accTile = acc;
  return true;
}

void KernelMapper::issueDeferredPV() {
  // With warp specialization the deferred block's slot is released once
  // this product completes (settleAcc).
  if (cfg.ws)
    inFlightSlot = deferredSlot;
  SmallVector<SmallVector<Value>> aRegs;
  SmallVector<Value> descriptors;
  Value slot = inSlotDescriptor(vDescriptor, deferredVBase);
  for (int64_t kk = 0; kk < cfg.keys / 16; ++kk) {
    aRegs.emplace_back(deferredP.begin() + 4 * kk,
                       deferredP.begin() + 4 * kk + 4);
    descriptors.push_back(descriptorAt(slot, kk * 2048));
  }
  setAccFromWgmma(wgmmaIssue(cfg.valueDim, accInWgmmaOrder(), aRegs,
                             descriptors, /*transB=*/true));
}

void KernelMapper::settleAcc() {
  if (!accInFlight)
    return;
  setAccFromWgmma(wgmmaWait(0, accInWgmmaOrder()));
  accInFlight = false;
  if (inFlightSlot) {
    release(inFlightSlot, /*maybeNone=*/true);
    inFlightSlot = Value();
  }
}

void KernelMapper::flushDeferredPV() {
  if (deferredEmpty)
    return;
  settleAcc();
  wgmmaFence();
  issueDeferredPV();
  wgmmaCommit();
  accInFlight = true;
  settleAcc();
  deferredEmpty = true;
  flushed = true;
}

/// Descriptor `base` plus `bytes` (a multiple of 16) in its start address.
Value KernelMapper::descriptorAt(Value base, int64_t bytes) {
  return arith::AddIOp::create(
      b, base, arith::ConstantIntOp::create(b, b.getI64Type(), bytes >> 4));
}

/// With a ring, the descriptor of the slot at element offset `slotBase`
/// (2 bytes per element, 16 per start address unit); else `desc`.
Value KernelMapper::inSlotDescriptor(Value desc, Value slotBase) {
  if (!cfg.ring())
    return desc;
  Value units =
      arith::IndexCastOp::create(b, b.getI64Type(), g.divU(slotBase, 8));
  return arith::AddIOp::create(b, desc, units);
}

/// S (a warpgroup's 64 x block_k) = Q K^T: D/16 steps, B = K^T K-major
/// (K's rows are B's columns); step kc reads columns 16kc.. of D: column
/// group kc / 4, 32 bytes per 16 columns.
void KernelMapper::wgmmaQK(SmallVector<Value> &s) {
  SmallVector<Value> descriptors;
  for (int64_t kc = 0; kc < cfg.headDim / 16; ++kc)
    descriptors.push_back(
        descriptorAt(inSlotDescriptor(kDescriptor, kBase),
                     (kc / 4) * cfg.keys * 128 + (kc % 4) * 32));
  SmallVector<Value> values;
  if (!overlap) {
    values = wgmmaChain(cfg.keys, {}, qRegs, descriptors, /*transB=*/false);
  } else {
    // The deferred block's P V is issued after Q K^T, as a second group:
    // wait_group 1 completes Q K^T and leaves P V in flight during the
    // softmax, until the attic.tile.pv (settleAcc).
    if (flushed)
      deferralError = "a Q K^T after the deferred P V was flushed "
                      "(canDeferPV accepted the grid)";
    settleAcc();
    // Ping-pong: this warpgroup's turn to issue (after the other's).
    if (pingPong)
      pingPongBarrier(arith::AddIOp::create(b, g.i32(2), pingPongGroup),
                      /*arriveOnly=*/false);
    wgmmaFence();
    values = wgmmaIssue(cfg.keys, {}, qRegs, descriptors, /*transB=*/false);
    wgmmaCommit();
    issueDeferredPV();
    wgmmaCommit();
    // ... and the other's turn: its softmax ran during these products.
    if (pingPong)
      pingPongBarrier(arith::SubIOp::create(b, g.i32(3), pingPongGroup),
                      /*arriveOnly=*/true);
    accInFlight = true;
    values = wgmmaWait(1, values);
  }
  for (auto [i, v] : llvm::enumerate(values))
    s[at((i / 2) % 2, i / 4, i % 2)] = v;
}

SmallVector<Operation *> KernelMapper::stagingGroup(Operation *op,
                                                    IRMapping &map) {
  SmallVector<Operation *> group = {op};
  bool hasK = isa<TileQKOp>(op), hasV = isa<TilePVOp>(op);
  llvm::DenseSet<Value> colTiles;
  if (auto cols = dyn_cast<TileMapColsOp>(op))
    colTiles.insert(cols.getOutputs().begin(), cols.getOutputs().end());
  // Every value `other` (and its region) uses from outside itself must
  // be known here: mapped already, a scratch tile, or from outside the
  // grid.
  auto available = [&](Operation *other) {
    bool ok = true;
    other->walk([&](Operation *inner) {
      for (Value v : inner->getOperands()) {
        Region *region = v.getParentRegion();
        if (other->isAncestor(region->getParentOp()))
          continue; // defined inside `other`
        if (map.contains(v) || kinds.count(v) ||
            !grid->isAncestor(region->getParentOp()))
          continue;
        ok = false;
      }
    });
    return ok;
  };
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    if (next->getNumRegions() &&
        !isa_and_nonnull<AtticDialect>(next->getDialect()))
      break;
    bool isK = isa<TileQKOp>(next), isV = isa<TilePVOp>(next);
    auto cols = dyn_cast<TileMapColsOp>(next);
    if (!isK && !isV && !cols)
      continue;
    if ((isK && hasK) || (isV && hasV) || !available(next))
      break;
    if ((isK && hasV) || (isV && hasK))
      if (!cfg.separateKV)
        break;
    if (cols && llvm::any_of(cols.getOutputs(),
                             [&](Value v) { return colTiles.count(v); }))
      break;
    if (cols)
      colTiles.insert(cols.getOutputs().begin(), cols.getOutputs().end());
    hasK |= isK;
    hasV |= isV;
    group.push_back(next);
  }
  return group;
}

LogicalResult KernelMapper::mapTileOp(Operation *op, IRMapping &map) {
  if (overlap && !isa<TileQKOp, TilePVOp>(op) &&
      accessOf(op, accTile) != Access::None)
    flushDeferredPV();
  if (isa<TileMapColsOp, TileQKOp, TilePVOp>(op) && !staged.count(op)) {
    // Stage this op and the staging ops that follow it in its block whose
    // operands are all available here, at once.
    stage(stagingGroup(op, map), map);
  }
  if (isa<TileMapColsOp>(op))
    return success(); // its stores are the staging

  if (auto qk = dyn_cast<TileQKOp>(op)) {
    // S chunks nc and nc+1 = Q K^T over D. Their B fragments for the 16
    // columns kc of D are one ldmatrix .x4 of Ks (B[c][n] = K[8nc + n][16kc
    // + c], so B's columns are Ks rows): matrix i = rows 8(nc + i/2) ..,
    // columns 16kc + 8(i%2) ..; lane (g, t) gets Ks[8nc+g][16kc+2t..] (b0,
    // b1) and Ks[8nc+g][16kc+8+2t..] (b2, b3) of each chunk.
    if (cfg.wgmma) {
      wgmmaQK(regs[qk.getOut()]);
      return success();
    }
    const int64_t stride = cfg.headDim + kPad;
    SmallVector<Value> &s = regs[qk.getOut()];
    auto accType = VectorType::get({2, 2}, b.getF32Type());
    Value zeroAcc = arith::ConstantOp::create(
        b, accType, DenseElementsAttr::get(accType, b.getF32FloatAttr(0.0f)));
    Value laneRow = inSlot(
        g.add(g.mul(g.add(g.mul(ldHi, 8), ldRow), stride), g.mul(ldLo, 8)),
        kBase);
    for (int64_t nc = 0; nc < cfg.keys / 8; nc += 2) {
      Value c[2] = {zeroAcc, zeroAcc};
      for (int64_t kc = 0; kc < cfg.headDim / 16; ++kc) {
        Value frags =
            g.ldmatrix(ks, g.add(laneRow, 8 * nc * stride + 16 * kc), false);
        for (int64_t h = 0; h < 2; ++h)
          c[h] = g.mma(qFrag[kc], g.bFragment(frags, h), c[h]);
      }
      for (int64_t h = 0; h < 2; ++h)
        for (int64_t r = 0; r < 2; ++r)
          for (int64_t e = 0; e < 2; ++e)
            s[at(r, nc + h, e)] =
                vector::ExtractOp::create(b, c[h], ArrayRef<int64_t>{r, e});
    }
    return success();
  }

  if (auto pv = dyn_cast<TilePVOp>(op)) {
    // acc *= rescale per row; acc chunk j += P V with P's A fragment from
    // the C fragments of the probabilities (a-row 0 = row g, keys 16kk +
    // 2t.. = chunk 2kk row 0, a-row 1 = chunk 2kk row 1, a-row 2/3 =
    // chunk 2kk+1). The B fragments of chunks j and j+1 (B[c][n] = V[16kk +
    // c][8j + n], V's rows as Vs rows) are one ldmatrix .x4 .trans of Vs:
    // matrix i = rows 16kk + 8(i%2) .., columns 8(j + i/2) ..; lane (g, t)
    // gets Vs[16kk+2t..2t+1][8j+g] (b0, b1) and Vs[16kk+8+2t..][8j+g].
    if (pendingV.erase(op)) {
      // V has landed for every thread, and no thread reads Ks any more.
      waitGroup(0);
      barrier();
    }
    if (scf::ForOp loop = prefetchLoop(pv)) {
      // K of the next iteration's key block into Ks, while P V runs.
      Value newTag = prefetchNext(
          loop, map, [&](Value block) { copyK(prefetchKey, map, block); },
          kTag);
      NVVM::CpAsyncCommitGroupOp::create(b);
      kTag = newTag;
    }
    const int64_t stride = cfg.valueDim + kPad;
    // The previous block's P V, issued at this block's Q K^T, lands.
    settleAcc();
    SmallVector<Value> &acc = regs[pv.getAcc()];
    const SmallVector<Value> &p = regs[pv.getProbs()];
    const SmallVector<Value> &alpha = regs[pv.getRescale()];
    for (int64_t j = 0; j < cfg.valueDim / 8; ++j)
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t e = 0; e < 2; ++e)
          acc[at(r, j, e)] = g.fmul(acc[at(r, j, e)], alpha[r]);
    auto pair = [&](int64_t r, int64_t nc) {
      Value v = vector::FromElementsOp::create(
          b, VectorType::get({2}, b.getF32Type()),
          ValueRange{p[at(r, nc, 0)], p[at(r, nc, 1)]});
      return arith::TruncFOp::create(b, g.pairType(), v).getResult();
    };
    if (overlap) {
      // This block's P V waits for the next block's Q K^T (or the flush
      // after the tile loop): acc now holds alpha * (acc + P' V') of the
      // previous block, and P V is the deferred product.
      deferredP.clear();
      for (int64_t kk = 0; kk < cfg.keys / 16; ++kk)
        llvm::append_range(deferredP,
                           g.asI32({pair(0, 2 * kk), pair(1, 2 * kk),
                                    pair(0, 2 * kk + 1), pair(1, 2 * kk + 1)}));
      deferredVBase = vBase;
      if (cfg.ws)
        deferredSlot = currentSlot;
      deferredEmpty = false;
      return success();
    }
    if (cfg.wgmmaPV) {
      // acc (a warpgroup's 64 x Dv) += P V: block_k/16 steps, B = V
      // N-major (Vs rows are keys); step kk reads keys 16kk.., two 8-key
      // groups of 1024 bytes.
      SmallVector<SmallVector<Value>> aRegs;
      SmallVector<Value> descriptors, accIn;
      Value slot = inSlotDescriptor(vDescriptor, vBase);
      for (int64_t kk = 0; kk < cfg.keys / 16; ++kk) {
        aRegs.push_back(g.asI32({pair(0, 2 * kk), pair(1, 2 * kk),
                                 pair(0, 2 * kk + 1), pair(1, 2 * kk + 1)}));
        descriptors.push_back(descriptorAt(slot, kk * 2048));
      }
      for (int64_t i = 0; i < cfg.valueDim / 2; ++i)
        accIn.push_back(acc[at((i / 2) % 2, i / 4, i % 2)]);
      SmallVector<Value> values =
          wgmmaChain(cfg.valueDim, accIn, aRegs, descriptors, /*transB=*/true);
      for (auto [i, v] : llvm::enumerate(values))
        acc[at((i / 2) % 2, i / 4, i % 2)] = v;
      return success();
    }
    auto accType = VectorType::get({2, 2}, b.getF32Type());
    Value laneRow = inSlot(
        g.add(g.mul(g.add(g.mul(ldLo, 8), ldRow), stride), g.mul(ldHi, 8)),
        vBase);
    for (int64_t kk = 0; kk < cfg.keys / 16; ++kk) {
      SmallVector<Value> aFrag = g.packRegs(
          {pair(0, 2 * kk), pair(1, 2 * kk), pair(0, 2 * kk + 1),
           pair(1, 2 * kk + 1)});
      for (int64_t j = 0; j < cfg.valueDim / 8; j += 2) {
        Value frags =
            g.ldmatrix(vs, g.add(laneRow, 16 * kk * stride + 8 * j), true);
        for (int64_t h = 0; h < 2; ++h) {
          Value c = vector::FromElementsOp::create(
              b, accType,
              ValueRange{acc[at(0, j + h, 0)], acc[at(0, j + h, 1)],
                         acc[at(1, j + h, 0)], acc[at(1, j + h, 1)]});
          c = g.mma(aFrag, g.bFragment(frags, h), c);
          for (int64_t r = 0; r < 2; ++r)
            for (int64_t e = 0; e < 2; ++e)
              acc[at(r, j + h, e)] =
                  vector::ExtractOp::create(b, c, ArrayRef<int64_t>{r, e});
        }
      }
    }
    return success();
  }

  // Rows of this lane: q0 + 16w + g + 8r.
  auto rowOf = [&](Value offset, int64_t r) {
    return g.add(g.add(map.lookupOrDefault(offset), g.mul(warp, 16)),
                 g.add(grp, 8 * r));
  };
  if (auto m = dyn_cast<TileMapOp>(op)) {
    int64_t chunks = chunksOf(m.getOutputs().front());
    SmallVector<SmallVector<Value>> outs;
    for (Value v : m.getOutputs())
      outs.push_back(regs[v]);
    for (int64_t nc = 0; nc < chunks; ++nc)
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t e = 0; e < 2; ++e) {
          Value colIdx = g.add(twoT, 8 * nc + e);
          SmallVector<Value> args = {
              rowOf(m.getRowOffset(), r),
              g.add(map.lookupOrDefault(m.getColOffset()), colIdx)};
          for (Value v : m.getInputs())
            args.push_back(regs[v][at(r, nc, e)]);
          for (Value v : m.getRows())
            args.push_back(regs[v][r]);
          for (Value v : m.getCols())
            args.push_back(memref::LoadOp::create(
                b, smemOf[v], ValueRange{g.add(colIdx, colBase)}));
          for (Value v : m.getOutputs())
            args.push_back(regs[v][at(r, nc, e)]);
          SmallVector<Value> results = inlineBody(m.getBody().front(), args, map);
          for (auto [i, v] : llvm::enumerate(results))
            outs[i][at(r, nc, e)] = v;
        }
    for (auto [v, o] : llvm::zip(m.getOutputs(), outs))
      regs[v] = o;
    return success();
  }
  if (auto m = dyn_cast<TileMapRowsOp>(op)) {
    SmallVector<SmallVector<Value>> outs;
    for (Value v : m.getOutputs())
      outs.push_back(regs[v]);
    for (int64_t r = 0; r < 2; ++r) {
      SmallVector<Value> args = {rowOf(m.getRowOffset(), r)};
      for (Value v : m.getInputs())
        args.push_back(regs[v][r]);
      for (Value v : m.getOutputs())
        args.push_back(regs[v][r]);
      SmallVector<Value> results = inlineBody(m.getBody().front(), args, map);
      for (auto [i, v] : llvm::enumerate(results))
        outs[i][r] = v;
    }
    for (auto [v, o] : llvm::zip(m.getOutputs(), outs))
      regs[v] = o;
    return success();
  }
  if (auto reduce = dyn_cast<TileReduceOp>(op)) {
    bool isMax = reduce.getKind() == TileReduceKind::Max;
    int64_t chunks = chunksOf(reduce.getInput());
    const SmallVector<Value> &x = regs[reduce.getInput()];
    SmallVector<Value> &out = regs[reduce.getOut()];
    for (int64_t r = 0; r < 2; ++r) {
      Value total;
      for (int64_t nc = 0; nc < chunks; ++nc)
        for (int64_t e = 0; e < 2; ++e) {
          Value v = x[at(r, nc, e)];
          total = !total ? v : isMax ? g.fmax(v, total) : g.fadd(total, v);
        }
      out[r] = g.quadReduce(total, isMax);
    }
    return success();
  }
  if (auto store = dyn_cast<TileStoreOp>(op);
      store && store.getOut().getType().getRank() == 3) {
    // One value per row (the log-sum-exp): the quad's four lanes hold the
    // same value; lane 0 of the quad writes it.
    Value out = map.lookupOrDefault(store.getOut());
    Value queryLen = memref::DimOp::create(b, out, 2);
    const SmallVector<Value> &rowValues = regs[store.getTile()];
    Value q0 = g.mul(map.lookupOrDefault(store.getQueryBlock()), cfg.rows);
    Value leader = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tig,
                                         arith::ConstantIndexOp::create(b, 0));
    for (int64_t r = 0; r < 2; ++r) {
      Value row = g.add(g.add(q0, g.mul(warp, 16)), g.add(grp, 8 * r));
      Value write = arith::AndIOp::create(b, leader, g.lt(row, queryLen));
      auto ifRow = scf::IfOp::create(b, write, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifRow.thenBlock()->getTerminator());
      memref::StoreOp::create(b, rowValues[r], out,
                              ValueRange{map.lookupOrDefault(store.getBatch()),
                                         map.lookupOrDefault(store.getHead()),
                                         row});
    }
    return success();
  }
  if (auto store = dyn_cast<TileStoreOp>(op)) {
    // The output is a weighted mean of V, within V's range; but P V
    // multiplies P rounded to 16 bits while the row sum adds the f32 P,
    // so acc / l can exceed max |V| by up to 2^-11 (f16) or 2^-8 (bf16)
    // relative: V all 65504, f16's largest, gave infinity everywhere (a
    // 2026-12-02 audit). Finite values past the type's largest are that
    // largest value; infinities and NaN (from V) are kept. (Summing the
    // rounded P instead would change the log-sum-exp output and makes
    // ptxas serialize the deferred-P V wgmma kernels.)
    auto clampToFinite = [&](Value v, Type elem) -> Value {
      if (!elem.isF16() && !elem.isBF16())
        return v;
      auto type = cast<VectorType>(v.getType());
      const llvm::fltSemantics &semantics =
          cast<FloatType>(elem).getFloatSemantics();
      double largest = APFloat::getLargest(semantics).convertToDouble();
      auto splat = [&](double value) -> Value {
        return arith::ConstantOp::create(
            b, DenseElementsAttr::get(type, b.getF32FloatAttr(value)));
      };
      Value clamped = arith::MaximumFOp::create(
          b, arith::MinimumFOp::create(b, v, splat(largest)), splat(-largest));
      double inf = std::numeric_limits<double>::infinity();
      Value infinite = arith::OrIOp::create(
          b, arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, v, splat(inf)),
          arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, v, splat(-inf)));
      return arith::SelectOp::create(b, infinite, v, clamped);
    };
    Value out = map.lookupOrDefault(store.getOut());
    Value queryLen = memref::DimOp::create(b, out, 2);
    const SmallVector<Value> &acc = regs[store.getTile()];
    int64_t chunks = chunksOf(store.getTile());
    Value q0 = g.mul(map.lookupOrDefault(store.getQueryBlock()), cfg.rows);
    Type elem = cast<MemRefType>(out.getType()).getElementType();
    for (int64_t r = 0; r < 2; ++r) {
      Value row = g.add(g.add(q0, g.mul(warp, 16)), g.add(grp, 8 * r));
      auto ifRow = scf::IfOp::create(b, g.lt(row, queryLen), false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifRow.thenBlock()->getTerminator());
      for (int64_t j = 0; j < chunks; ++j) {
        Value v = vector::FromElementsOp::create(
            b, VectorType::get({2}, b.getF32Type()),
            ValueRange{acc[at(r, j, 0)], acc[at(r, j, 1)]});
        v = clampToFinite(v, elem);
        Value pairOut = arith::TruncFOp::create(b, VectorType::get({2}, elem), v);
        g.storePair(pairOut, out,
                    {map.lookupOrDefault(store.getBatch()),
                     map.lookupOrDefault(store.getHead()), row,
                     g.add(twoT, 8 * j)});
      }
    }
    return success();
  }
  return op->emitOpError("has no tensor-core mapping");
}

struct TensorCoreTiles : OpRewritePattern<scf::ParallelOp> {
  TensorCoreTiles(MLIRContext *ctx, const TensorCoreOptions &options)
      : OpRewritePattern(ctx, /*benefit=*/2), options(options) {}
  TensorCoreOptions options;

  /// The tensor map of `tensor` ([B, H, N, width], identity layout) for
  /// TMA loads of block_k x 64 boxes with the 128-byte swizzle (wgmma's
  /// tile layout), keys past N zero-filled. Its sizes are at least 1 (the
  /// driver refuses empty dimensions; the kernel loads nothing from an
  /// empty tensor).
  static Value tensorMapOf(ImplicitLocOpBuilder &b, Value tensor,
                           int64_t keys) {
    MLIRContext *ctx = b.getContext();
    auto type = cast<MemRefType>(tensor.getType());
    Type elem = type.getElementType();
    Value one = arith::ConstantIndexOp::create(b, 1);
    SmallVector<Value, 4> sizes;
    for (int64_t d = 0; d < 4; ++d)
      sizes.push_back(
          arith::MaxUIOp::create(b, memref::DimOp::create(b, tensor, d), one));
    SmallVector<OpFoldResult, 4> sizeFolds, strideFolds(4);
    Value stride = one;
    for (int64_t d = 3; d >= 0; --d) {
      strideFolds[d] = stride;
      stride = arith::MulIOp::create(b, stride, sizes[d]);
    }
    for (Value v : sizes)
      sizeFolds.push_back(v);
    int64_t dyn = ShapedType::kDynamic;
    auto viewType =
        MemRefType::get({dyn, dyn, dyn, dyn}, elem,
                        StridedLayoutAttr::get(ctx, 0, {dyn, dyn, dyn, dyn}));
    Value view = memref::ReinterpretCastOp::create(
        b, viewType, tensor, OpFoldResult(b.getIndexAttr(0)), sizeFolds,
        strideFolds);
    Value unranked = memref::CastOp::create(
        b, UnrankedMemRefType::get(elem, type.getMemorySpace()), view);
    Value map = nvgpu::TmaCreateDescriptorOp::create(
        b, tensorMapType(ctx, elem, keys), unranked,
        ValueRange{one, one, arith::ConstantIndexOp::create(b, keys),
                   arith::ConstantIndexOp::create(b, 64)});
    // The kernel takes the map as the pointer that convert-nvgpu-to-nvvm
    // makes of it (the device copy from mgpuTensorMapEncodeTiledMemref):
    // an outlined kernel's argument of the descriptor type is not
    // converted by convert-gpu-to-nvvm. KernelMapper casts it back.
    return UnrealizedConversionCastOp::create(
               b, LLVM::LLVMPointerType::get(ctx), map)
        .getResult(0);
  }

  LogicalResult matchAndRewrite(scf::ParallelOp grid,
                                PatternRewriter &rewriter) const override {
    if (!grid->hasAttr(kTileGridAttrName))
      return failure();
    // Quietly: the SIMT pattern analyzes the grid next and reports.
    FailureOr<TileGridInfo> info = analyzeTileGrid(grid, /*report=*/false);
    if (failed(info))
      return failure();
    std::string why;
    FailureOr<KernelConfig> cfg = configFor(grid, *info, why, options);
    if (failed(cfg))
      return rewriter.notifyMatchFailure(grid, why);

    MLIRContext *ctx = getContext();
    // Everything built from here on is in front of the grid, which is
    // left as it is until the end: a failure erases what was built.
    Operation *before = grid->getPrevNode();
    ImplicitLocOpBuilder b(grid.getLoc(), rewriter);
    b.setInsertionPoint(grid);
    Value gridX, gridY;
    Value nonEmpty = launchDims(b, grid, gridX, gridY);

    auto smemSpace =
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    int64_t kElems = kBytes(*cfg) / 2, vElems = vBytes(*cfg) / 2;
    SmallVector<Type> smem;
    if (cfg->ring()) {
      // K and V in dynamic shared memory (KernelMapper::run).
    } else if (cfg->separateKV) {
      smem.push_back(MemRefType::get({kElems}, cfg->elem, nullptr, smemSpace));
      smem.push_back(MemRefType::get({vElems}, cfg->elem, nullptr, smemSpace));
    } else {
      smem.push_back(MemRefType::get({std::max(kElems, vElems)}, cfg->elem,
                                     nullptr, smemSpace));
    }
    for (TileGridInfo::Tile tile : info->tiles)
      if (tile.kind == TileGridInfo::TileKind::Cols)
        smem.push_back(MemRefType::get({cfg->keys * cfg->colBuffers()},
                                       rewriter.getF32Type(), nullptr,
                                       smemSpace));
    Type tokenType = gpu::AsyncTokenType::get(ctx);
    Value token = gpu::WaitOp::create(b, tokenType, ValueRange{}).getAsyncToken();
    Value c1 = arith::ConstantIndexOp::create(b, 1);
    Value threads = arith::ConstantIndexOp::create(b, cfg->blockThreads());
    Value dynamicBytes;
    if (cfg->ring())
      dynamicBytes =
          arith::ConstantIntOp::create(b, b.getI32Type(), ringBytes(*cfg));
    auto launch =
        gpu::LaunchOp::create(b, gridX, gridY, c1, threads, c1, c1,
                              dynamicBytes, tokenType, ValueRange{token}, smem);
    gpu::WaitOp::create(b, Type(), ValueRange{launch.getAsyncToken()});

    ImplicitLocOpBuilder k(grid.getLoc(), rewriter);
    KernelMapper mapper(k, *cfg, *info, launch);
    if (cfg->tma) {
      // Host code, before the launch.
      OpBuilder::InsertionGuard guard(rewriter);
      b.setInsertionPoint(launch);
      mapper.kMapPtr = tensorMapOf(b, cfg->key, cfg->keys);
      mapper.vMapPtr = tensorMapOf(b, cfg->value, cfg->keys);
    }
    // A construct the kernel does not map (a hand-written grid: tile ops
    // in an scf.while, an op without a tensor-core mapping) falls back to
    // SIMT like the configurations configFor turns down; the SIMT pattern
    // reports what it cannot map either.
    std::string unmapped;
    LogicalResult mapped = [&] {
      ScopedDiagnosticHandler quiet(ctx, [&](Diagnostic &diag) {
        if (unmapped.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
          unmapped = diag.str();
        return success();
      });
      return mapper.run(grid);
    }();
    if (failed(mapped)) {
      eraseBuiltInFront(rewriter, grid, before);
      return rewriter.notifyMatchFailure(grid, unmapped);
    }
    guardLaunchBody(launch, nonEmpty);
    rewriter.eraseOp(grid);
    return success();
  }
};

} // namespace

bool attic::supportsTensorCoreTiles(scf::ParallelOp grid, std::string *why) {
  FailureOr<TileGridInfo> info = analyzeTileGrid(grid, /*report=*/false);
  if (failed(info)) {
    if (why)
      *why = "not a tile grid";
    return false;
  }
  std::string reason;
  bool ok = succeeded(configFor(grid, *info, reason));
  if (why)
    *why = reason;
  return ok;
}

void attic::populateTensorCoreTilesPatterns(RewritePatternSet &patterns,
                                            const TensorCoreOptions &options) {
  patterns.add<TensorCoreTiles>(patterns.getContext(), options);
}

//===- GpuBlockAttention.cpp - block_attention to a CUDA kernel -*- C++ -*-===//
//
// Lowers the memref form of attic.block_attention into a `gpu.launch` of a
// flash-style tensor-core kernel (FlashAttention-2 structure), plus the host
// side data movement around it: device buffers (gpu.alloc), host->device
// copies of the inputs, the launch, the device->host copy of the result and
// the frees, all on one async token chain that ends in a blocking gpu.wait.
// gpu-kernel-outlining turns the launch into a gpu.module + gpu.launch_func.
//
// Kernel structure
// ----------------
// grid  = (B*H, ceil(Nq/block_q), 1), block = (32*W, 1, 1), W = block_q/16.
// Warp w of the block owns the 16 query rows q0 + 16w .. q0 + 16w + 15 of
// query block q0 = blockIdx.y * block_q. Per key block k0 (scf.for):
//
//   barrier; stage K[k0:k0+bk, :] -> Ks[bk][D+8]        (row-major, zero tail)
//            V[k0:k0+bk, :]^T -> Vt[Dv][bk+8]          (transposed)
//            term[j] = log2(e)*bias[k0+j] or -inf (mask / past Nk)
//   barrier;
//   S   = Q_w Ks^T               mma.sync m16n8k16 over D (Q in registers)
//   S2  = S*scale*log2(e) + term (causal: key > query row -> -inf)
//   online softmax in base 2, statistics f32, per row of the warp
//   acc = alpha*acc + P Vt^T     mma.sync m16n8k16 over the keys; P is
//                                the S accumulator re-packed as A operand
//
// Both tiles are stored as vector<2xT> elements (pairs of halves), which
// makes the shared arrays 4-byte aligned for the 32-bit fragment loads:
// Ks[r][p] = K[k0+r][2p..2p+1], Vt[c][p] = V[k0+2p..2p+1][c].
// The "+8" paddings of the shared tiles make the fragment reads below
// conflict-free: a row of Ks is (D+8)/2 32-bit words = 4 (mod 32) words for
// D in {64, 128}, so lanes (g, t) hit bank 4g + t + const: 32 distinct banks.
//
// Fragment layouts (PTX ISA, "Matrix Fragments for mma.m16n8k16" with
// .f16/.bf16 multiplicands and .f32 accumulators). Lane = 4*g + t with
// g = lane/4 in [0,8) ("groupID") and t = lane%4 ("threadID_in_group"):
//
//   A (16x16, row):  a0,a1 = A[g  ][2t, 2t+1]     a2,a3 = A[g+8][2t, 2t+1]
//                    a4,a5 = A[g  ][2t+8, 2t+9]   a6,a7 = A[g+8][2t+8, 2t+9]
//   B (16x8,  col):  b0,b1 = B[2t, 2t+1][g]       b2,b3 = B[2t+8, 2t+9][g]
//   C (16x8,  f32):  c0,c1 = C[g  ][2t, 2t+1]     c2,c3 = C[g+8][2t, 2t+1]
//
// nvgpu.mma.sync holds A as vector<4x2xT> (row i = {a_2i, a_2i+1}), B as
// vector<2x2xT> and C as vector<2x2xf32> (row 0 = {c0,c1}, row 1 = {c2,c3}).
// nvvm.mma.sync (used for bf16, see below) takes the same pairs packed into
// i32 (element 0 in the low half) and C as four f32.
//
// S = Q K^T, k-chunk kc (16 columns of D), key chunk nc (8 keys):
//   A = Q rows of the warp:  A[r][c] = Q[row0 + r][16kc + c]
//       a-row 0 = Q[row0+g  ][16kc+2t..+1]   a-row 1 = Q[row0+g+8][16kc+2t..+1]
//       a-row 2 = Q[row0+g  ][16kc+8+2t..+1] a-row 3 = Q[row0+g+8][16kc+8+2t..+1]
//     (loaded once per query block from global memory, kept in registers)
//   B[c][n] = K[k0 + 8nc + n][16kc + c]
//       b-row 0 = Ks[8nc+g][16kc+2t..+1]     b-row 1 = Ks[8nc+g][16kc+8+2t..+1]
//     (contiguous pairs of a row of Ks)
//   C = S chunk nc: lane holds S[g][8nc+2t..+1] (row 0) and S[g+8][...] (row 1)
//
// O += P V, key chunk kk (16 keys), value-column chunk j (8 columns):
//   A[r][c] = P[r][16kk + c]: by the A layout and the C layout of S,
//       a-row 0 = P[g  ][16kk+2t..+1]   = S chunk 2kk,   C row 0
//       a-row 1 = P[g+8][16kk+2t..+1]   = S chunk 2kk,   C row 1
//       a-row 2 = P[g  ][16kk+8+2t..+1] = S chunk 2kk+1, C row 0
//       a-row 3 = P[g+8][16kk+8+2t..+1] = S chunk 2kk+1, C row 1
//     so every lane already holds its own A fragment (no shuffles).
//   B[c][n] = V[k0 + 16kk + c][8j + n] = Vt[8j+n][16kk+c]
//       b-row 0 = Vt[8j+g][16kk+2t..+1]  b-row 1 = Vt[8j+g][16kk+8+2t..+1]
//     (contiguous pairs of a row of the transposed tile)
//   C = O chunk j: O[g][8j+2t..+1] (row 0), O[g+8][8j+2t..+1] (row 1).
//
// Row statistics: row g of the warp's 16 rows lives in the 4 lanes
// 4g..4g+3; the running max is reduced across them with gpu.shuffle xor 1
// and 2. The running sum is kept per lane (every lane of a quad scales by
// the same alpha) and reduced across the quad once at the end.
// mSafe = (m == -inf ? 0 : m) keeps rows without any admissible key at
// exp2(-inf) = 0, never NaN, and the epilogue writes 0 for l == 0.
// exp2 is PTX's ex2.approx.ftz.f32 (inline asm: convert-gpu-to-nvvm would
// otherwise turn it into a libdevice call).
//
// bf16: upstream's nvgpu-to-nvvm conversion cannot deduce PTX types for
// bf16 nvgpu.mma.sync in MLIR 22 ("failed to deduce operand PTX types"), so
// bf16 uses nvvm.mma.sync directly (same instruction, operands as i32).
// f32 inputs are rejected (a tf32 path would miss f32 accuracy and no SIMT
// path is written yet).
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <cassert>
#include <cmath>
#include <limits>

namespace attic {
#define GEN_PASS_DEF_ATTICGPUBLOCKATTENTION
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;
using namespace attic;

static bool isTopLeftCausal(BlockAttentionOp op) {
  auto causal = dyn_cast<CausalLayoutAttr>(op.getLayout());
  return causal && causal.getAlign() == Alignment::TopLeft;
}

namespace {

constexpr int64_t kSharedLimit = 48 * 1024; // static shared memory per block
constexpr int64_t kPad = 8;                 // halves of padding per tile row

/// Small helpers over an ImplicitLocOpBuilder.
struct Gen {
  ImplicitLocOpBuilder &b;
  Type elem;     // f16 or bf16
  bool isBf16;

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, v); }
  Value i32(int32_t v) {
    return arith::ConstantIntOp::create(b, b.getI32Type(), v);
  }
  Value f32(float v) {
    return arith::ConstantFloatOp::create(b, b.getF32Type(), APFloat(v));
  }
  Value negInf() { return f32(-std::numeric_limits<float>::infinity()); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, index(y)) : x; }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, x, y); }
  Value mul(Value x, int64_t y) { return mul(x, index(y)); }
  Value divU(Value x, int64_t y) { return arith::DivUIOp::create(b, x, index(y)); }
  Value remU(Value x, int64_t y) { return arith::RemUIOp::create(b, x, index(y)); }
  Value divS(Value x, Value y) { return arith::DivSIOp::create(b, x, y); }
  Value remS(Value x, Value y) { return arith::RemSIOp::create(b, x, y); }
  Value ceilDiv(Value x, Value y) { return arith::CeilDivSIOp::create(b, x, y); }
  Value minI(Value x, Value y) { return arith::MinSIOp::create(b, x, y); }
  Value maxI(Value x, Value y) { return arith::MaxSIOp::create(b, x, y); }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::slt, x, y);
  }
  Value le(Value x, Value y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::sle, x, y);
  }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, x, y); }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, c, x, y);
  }
  Value fadd(Value x, Value y) { return arith::AddFOp::create(b, x, y); }
  Value fsub(Value x, Value y) { return arith::SubFOp::create(b, x, y); }
  Value fmul(Value x, Value y) { return arith::MulFOp::create(b, x, y); }
  Value fmax(Value x, Value y) { return arith::MaximumFOp::create(b, x, y); }
  Value toF32(Value v) {
    return v.getType().isF32() ? v
                               : arith::ExtFOp::create(b, b.getF32Type(), v);
  }

  /// 2^x with PTX's ex2.approx.ftz.f32 (2^-inf = +0).
  Value exp2(Value x) {
    return LLVM::InlineAsmOp::create(
               b, b.getF32Type(), ValueRange{x},
               b.getStringAttr("ex2.approx.ftz.f32 $0, $1;"),
               b.getStringAttr("=f,f"), /*has_side_effects=*/UnitAttr(),
               /*is_align_stack=*/UnitAttr(),
               LLVM::TailCallKindAttr::get(b.getContext(),
                                           LLVM::tailcallkind::TailCallKind::None),
               LLVM::AsmDialectAttr::get(b.getContext(),
                                         LLVM::AsmDialect::AD_ATT),
               /*operand_attrs=*/ArrayAttr())
        .getResult(0);
  }

  /// Butterfly reduction over the 4 lanes of a quad (xor 1, then xor 2).
  Value quadReduce(Value v, bool isMax) {
    Value width = i32(32);
    for (int32_t offset : {1, 2}) {
      Value other = gpu::ShuffleOp::create(b, v, i32(offset), width,
                                           gpu::ShuffleMode::XOR)
                        .getShuffleResult();
      v = isMax ? fmax(v, other) : fadd(v, other);
    }
    return v;
  }

  VectorType pairType() { return VectorType::get({2}, elem); }

  /// Two consecutive elements memref[..., last, last+1] as vector<2xT>
  /// (4-byte aligned: `last` is even and rows have an even length).
  Value loadPair(Value memref, ValueRange indices) {
    auto op = vector::LoadOp::create(b, pairType(), memref, indices);
    op.setAlignment(4);
    return op;
  }
  /// Pair `pair` of row `row` of a shared tile of vector<2xT> elements.
  Value loadShared(Value tile, Value row, Value pair) {
    return memref::LoadOp::create(b, tile, ValueRange{row, pair});
  }
  void storePair(Value v, Value memref, ValueRange indices) {
    auto op = vector::StoreOp::create(b, v, memref, indices);
    op.setAlignment(4);
  }

  /// Packs four pairs into an mma A operand: vector<4x2xT> (f16) or the
  /// four i32 registers (bf16).
  SmallVector<Value> packA(ArrayRef<Value> pairs) {
    return packRegs(pairs);
  }
  SmallVector<Value> packRegs(ArrayRef<Value> pairs) {
    if (isBf16) {
      SmallVector<Value> regs;
      for (Value p : pairs) {
        Value v = vector::BitCastOp::create(
            b, VectorType::get({1}, b.getI32Type()), p);
        regs.push_back(vector::ExtractOp::create(b, v, ArrayRef<int64_t>{0}));
      }
      return regs;
    }
    auto type = VectorType::get({int64_t(pairs.size()), 2}, elem);
    Value v = arith::ConstantOp::create(
        b, type, DenseElementsAttr::get(type, b.getZeroAttr(elem)));
    for (auto [i, p] : llvm::enumerate(pairs))
      v = vector::InsertOp::create(b, p, v, ArrayRef<int64_t>{int64_t(i)});
    return {v};
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
    auto structType = LLVM::LLVMStructType::getLiteral(
        b.getContext(), {f32, f32, f32, f32});
    Value d = NVVM::MmaOp::create(
        b, structType, a, bRegs, c, ArrayRef<int64_t>{16, 8, 16},
        std::nullopt, std::nullopt,
        std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                      NVVM::MMATypes::bf16},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    SmallVector<Value> parts;
    for (int64_t i = 0; i < 4; ++i)
      parts.push_back(LLVM::ExtractValueOp::create(b, d, i));
    return vector::FromElementsOp::create(
        b, VectorType::get({2, 2}, f32), parts);
  }

  Value extract(Value v, int64_t i, int64_t j) {
    return vector::ExtractOp::create(b, v, ArrayRef<int64_t>{i, j});
  }
};

struct KernelConfig {
  int64_t blockQ, blockK, warps, headDim, valueDim;
};

/// Bytes of static shared memory the kernel's tiles take: K pairs, V
/// transposed pairs and the per-key logit terms.
int64_t sharedBytes(int64_t blockK, int64_t headDim, int64_t valueDim) {
  return blockK * (headDim + kPad) * 2 + valueDim * (blockK + kPad) * 2 +
         blockK * 4;
}

/// The tile sizes of `op` (or of the options, when set). block_k is a
/// performance choice that does not change the result, so a key tile too
/// large for 48 KiB of static shared memory (e.g. 128 keys with D = Dv =
/// 128: 70144 bytes) is halved until it fits, rather than sending the op
/// to the SIMT kernel (about 500x slower on an H100).
KernelConfig configFor(BlockAttentionOp op, int64_t blockQOption,
                       int64_t blockKOption) {
  KernelConfig cfg;
  cfg.blockQ = blockQOption ? blockQOption : op.getBlockQ();
  cfg.blockK = blockKOption ? blockKOption : op.getBlockK();
  cfg.warps = cfg.blockQ / 16;
  cfg.headDim = cast<ShapedType>(op.getQuery().getType()).getDimSize(3);
  cfg.valueDim = cast<ShapedType>(op.getValue().getType()).getDimSize(3);
  if (!ShapedType::isDynamic(cfg.headDim) &&
      !ShapedType::isDynamic(cfg.valueDim) && cfg.blockK % 16 == 0 &&
      cfg.blockK <= 128) // other sizes are errors (checkSupported)
    while (cfg.blockK > 16 &&
           sharedBytes(cfg.blockK, cfg.headDim, cfg.valueDim) > kSharedLimit)
      cfg.blockK = std::max<int64_t>(16, cfg.blockK / 32 * 16);
  return cfg;
}

/// Checks what the kernel supports. On failure, `why` says what is not
/// supported, naming the operand and the supported values.
LogicalResult checkSupported(BlockAttentionOp op, const KernelConfig &cfg,
                             std::string &why) {
  auto fail = [&](const Twine &msg) {
    why = msg.str();
    return failure();
  };
  if (!op.hasPureBufferSemantics())
    return fail("bufferize first (operands are tensors)");
  Value operands[] = {op.getQuery(), op.getKey(),   op.getValue(),
                      op.getInit(),  op.getKeyBias(), op.getKeyMask()};
  const char *names[] = {"query", "key", "value", "init", "key_bias",
                         "key_mask"};
  for (auto [v, name] : llvm::zip(operands, names)) {
    if (!v)
      continue;
    auto type = cast<MemRefType>(v.getType());
    if (!type.getLayout().isIdentity())
      return fail(Twine(name) + " must have the identity layout (a "
                                "contiguous buffer), got a strided layout");
    if (type.getMemorySpace())
      return fail(Twine(name) + " must be in the default (host) memory space");
  }
  Type elem = cast<MemRefType>(op.getQuery().getType()).getElementType();
  if (!elem.isF16() && !elem.isBF16()) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << elem;
    return fail("query element type must be f16 or bf16 (tensor-core "
                "mma.sync), got " + s);
  }
  if (cfg.headDim == ShapedType::kDynamic || cfg.headDim % 16 != 0 ||
      cfg.headDim < 16 || cfg.headDim > 128)
    return fail("query head dim D must be static and a multiple of 16 in "
                "[16, 128] (e.g. 64 or 128), got " +
                (cfg.headDim == ShapedType::kDynamic
                     ? std::string("?")
                     : std::to_string(cfg.headDim)));
  if (cfg.valueDim == ShapedType::kDynamic || cfg.valueDim % 16 != 0 ||
      cfg.valueDim < 16 || cfg.valueDim > 128)
    return fail("value head dim Dv must be static and a multiple of 16 in "
                "[16, 128] (e.g. 64 or 128), got " +
                (cfg.valueDim == ShapedType::kDynamic
                     ? std::string("?")
                     : std::to_string(cfg.valueDim)));
  if (cfg.blockQ != 16 && cfg.blockQ != 32 && cfg.blockQ != 64 &&
      cfg.blockQ != 128)
    return fail("block_q must be 16, 32, 64 or 128 (16 query rows per "
                "warp), got " + std::to_string(cfg.blockQ));
  if (cfg.blockK % 16 != 0 || cfg.blockK < 16 || cfg.blockK > 128)
    return fail("block_k must be a multiple of 16 in [16, 128], got " +
                std::to_string(cfg.blockK));
  // configFor halves block_k until the tiles fit; D, Dv <= 128 always fit
  // with 16 keys.
  assert(sharedBytes(cfg.blockK, cfg.headDim, cfg.valueDim) <= kSharedLimit &&
         "configFor keeps the tiles within the shared-memory limit");
  return success();
}

/// Builds the kernel body inside the gpu.launch region.
void buildKernel(ImplicitLocOpBuilder &b, gpu::LaunchOp launch,
                 const KernelConfig &cfg, bool causal, float scale,
                 Value query, Value key, Value value, Value bias, Value mask,
                 Value out, Value heads, Value queryLen, Value keyLen,
                 Value batchHeads) {
  Type elem = cast<MemRefType>(query.getType()).getElementType();
  Gen g{b, elem, elem.isBF16()};
  const int64_t D = cfg.headDim, Dv = cfg.valueDim, bk = cfg.blockK;
  const int64_t threads = 32 * cfg.warps;
  const float log2e = 1.4426950408889634f;

  Value ks = launch.getWorkgroupAttributions()[0];
  Value vt = launch.getWorkgroupAttributions()[1];
  Value term = launch.getWorkgroupAttributions()[2];

  Value bh = launch.getBlockIds().x, qb = launch.getBlockIds().y;
  Value tid = launch.getThreadIds().x;
  // Grid dims are clamped to >= 1 on the host; nothing to do for empty
  // problems (this also keeps min(row, Nq-1) below from going negative).
  Value c0 = g.index(0);
  Value active = g.andI(g.lt(c0, queryLen), g.lt(bh, batchHeads));
  auto ifActive = scf::IfOp::create(b, active, /*withElseRegion=*/false);
  b.setInsertionPointToStart(&ifActive.getThenRegion().front());

  Value bi = g.divS(bh, heads), hi = g.remS(bh, heads);
  Value warp = g.divU(tid, 32), lane = g.remU(tid, 32);
  Value grp = g.divU(lane, 4), tig = g.remU(lane, 4);
  Value twoT = g.mul(tig, 2);
  Value q0 = g.mul(qb, cfg.blockQ);
  Value row0 = g.add(g.add(q0, g.mul(warp, 16)), grp);
  Value row1 = g.add(row0, 8);
  Value lastRow = g.sub(queryLen, g.index(1));
  Value row0c = g.minI(row0, lastRow), row1c = g.minI(row1, lastRow);

  // Q fragments (A operand of S = Q K^T), one per 16 columns of D; rows
  // past Nq read the last row (in bounds) and are never stored.
  SmallVector<SmallVector<Value>> qFrag;
  for (int64_t kc = 0; kc < D / 16; ++kc) {
    Value col = g.add(twoT, 16 * kc), colHi = g.add(twoT, 16 * kc + 8);
    qFrag.push_back(g.packA({g.loadPair(query, {bi, hi, row0c, col}),
                             g.loadPair(query, {bi, hi, row1c, col}),
                             g.loadPair(query, {bi, hi, row0c, colHi}),
                             g.loadPair(query, {bi, hi, row1c, colHi})}));
  }

  // Key blocks to visit: all of them, or (causal, top-left aligned) those
  // that hold a key <= the block's last query row q0 + block_q - 1.
  Value bkVal = g.index(bk);
  Value keyEnd = keyLen;
  if (causal)
    keyEnd = g.minI(keyLen, g.add(q0, cfg.blockQ));
  Value numKeyBlocks = g.ceilDiv(keyEnd, bkVal);

  Type f32 = b.getF32Type();
  auto accType = VectorType::get({2, 2}, f32);
  Value zeroAcc = arith::ConstantOp::create(
      b, accType, DenseElementsAttr::get(accType, b.getF32FloatAttr(0.0f)));
  Value negInf = g.negInf(), zero = g.f32(0.0f);
  SmallVector<Value> inits = {negInf, negInf, zero, zero};
  for (int64_t j = 0; j < Dv / 8; ++j)
    inits.push_back(zeroAcc);

  Value lastKey = g.sub(keyLen, g.index(1));
  Value scaleLog2 = g.f32(scale * log2e), log2eVal = g.f32(log2e);
  Value threadsVal = g.index(threads);
  auto loop = scf::ForOp::create(b, c0, numKeyBlocks, g.index(1), inits);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kb = loop.getInductionVar();
    ValueRange iter = loop.getRegionIterArgs();
    Value m[2] = {iter[0], iter[1]}, l[2] = {iter[2], iter[3]};
    SmallVector<Value> acc(iter.begin() + 4, iter.end());
    Value k0 = g.mul(kb, bk);

    // The previous iteration's reads of the tiles are done.
    gpu::BarrierOp::create(b);

    // Stage K: pair cp of row r of Ks = K[k0+r][2cp..2cp+1]; keys past Nk
    // are zeros.
    Value zeroPair = arith::ConstantOp::create(
        b, g.pairType(),
        DenseElementsAttr::get(g.pairType(), b.getZeroAttr(elem)));
    {
      auto stage = scf::ForOp::create(b, tid, g.index(bk * D / 2), threadsVal);
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(stage.getBody());
      Value i = stage.getInductionVar();
      Value r = g.divU(i, D / 2), cp = g.remU(i, D / 2);
      Value keyRow = g.add(k0, r);
      Value valid = g.lt(keyRow, keyLen);
      Value v = g.loadPair(key, {bi, hi, g.minI(keyRow, lastKey), g.mul(cp, 2)});
      memref::StoreOp::create(b, g.select(valid, v, zeroPair), ks,
                              ValueRange{r, cp});
    }
    // Stage V transposed, a 2x2 block per item: keys 2rp, 2rp+1 and
    // columns 2cp, 2cp+1 of V become the pairs Vt[2cp][rp] and
    // Vt[2cp+1][rp] (pair rp = keys 2rp, 2rp+1).
    {
      auto stage =
          scf::ForOp::create(b, tid, g.index(bk * Dv / 4), threadsVal);
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(stage.getBody());
      Value i = stage.getInductionVar();
      Value rp = g.divU(i, Dv / 2), cp = g.remU(i, Dv / 2);
      Value c = g.mul(cp, 2);
      Value keyRow0 = g.add(k0, g.mul(rp, 2)), keyRow1 = g.add(keyRow0, 1);
      Value v0 = g.select(
          g.lt(keyRow0, keyLen),
          g.loadPair(value, {bi, hi, g.minI(keyRow0, lastKey), c}), zeroPair);
      Value v1 = g.select(
          g.lt(keyRow1, keyLen),
          g.loadPair(value, {bi, hi, g.minI(keyRow1, lastKey), c}), zeroPair);
      Value col0 = vector::ShuffleOp::create(b, v0, v1,
                                             ArrayRef<int64_t>{0, 2});
      Value col1 = vector::ShuffleOp::create(b, v0, v1,
                                             ArrayRef<int64_t>{1, 3});
      memref::StoreOp::create(b, col0, vt, ValueRange{c, rp});
      memref::StoreOp::create(b, col1, vt, ValueRange{g.add(c, 1), rp});
    }
    // Per-key logit term (base 2): log2(e)*bias, -inf for masked keys and
    // keys past Nk.
    // Stored as pairs (term[jp] = keys 2jp, 2jp+1), like the tiles.
    {
      auto stage = scf::ForOp::create(b, tid, g.index(bk / 2), threadsVal);
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(stage.getBody());
      Value jp = stage.getInductionVar();
      SmallVector<Value> terms;
      for (int64_t e = 0; e < 2; ++e) {
        Value keyRow = g.add(g.add(k0, g.mul(jp, 2)), e);
        Value valid = g.lt(keyRow, keyLen);
        Value keyC = g.minI(keyRow, lastKey);
        Value t = zero;
        if (bias) {
          auto biasType = cast<MemRefType>(bias.getType());
          Value x =
              biasType.getRank() == 2
                  ? memref::LoadOp::create(b, bias, ValueRange{bi, keyC})
                  : memref::LoadOp::create(b, bias, ValueRange{bi, hi, keyC});
          t = g.fmul(g.toF32(x), log2eVal);
        }
        if (mask)
          valid = g.andI(
              valid, memref::LoadOp::create(b, mask, ValueRange{bi, keyC}));
        terms.push_back(g.select(valid, t, negInf));
      }
      memref::StoreOp::create(
          b,
          vector::FromElementsOp::create(b, VectorType::get({2}, f32), terms),
          term, ValueRange{jp});
    }
    gpu::BarrierOp::create(b);

    // S = Q K^T: one accumulator per 8 keys.
    SmallVector<Value> s;
    for (int64_t nc = 0; nc < bk / 8; ++nc) {
      Value kRow = g.add(grp, 8 * nc);
      Value c = zeroAcc;
      for (int64_t kc = 0; kc < D / 16; ++kc) {
        SmallVector<Value> bRegs =
            g.packRegs({g.loadShared(ks, kRow, g.add(tig, 8 * kc)),
                        g.loadShared(ks, kRow, g.add(tig, 8 * kc + 4))});
        c = g.mma(qFrag[kc], bRegs, c);
      }
      s.push_back(c);
    }

    // Scaled logits (base 2) with the key term and the causal mask, and the
    // row maxima. sv[r][nc][e]: row r (g or g+8), key 8nc + 2t + e.
    // Causal: key k0 + 8nc + 2t + e is visible to row r iff
    // 8nc + e <= row_r - k0 - 2t =: limit_r (i32: sequence lengths are
    // below 2^31, so row - k0 - 2t fits).
    Value limit[2];
    if (causal)
      for (int64_t r = 0; r < 2; ++r)
        limit[r] = arith::IndexCastOp::create(
            b, b.getI32Type(), g.sub(g.sub(r == 0 ? row0 : row1, k0), twoT));
    SmallVector<Value> sv[2];
    Value rowMax[2] = {negInf, negInf};
    for (int64_t nc = 0; nc < bk / 8; ++nc) {
      // Keys 8nc + 2t and 8nc + 2t + 1: pair 4nc + t of the terms.
      Value tPair =
          memref::LoadOp::create(b, term, ValueRange{g.add(tig, 4 * nc)});
      for (int64_t e = 0; e < 2; ++e) {
        Value tk = vector::ExtractOp::create(b, tPair, ArrayRef<int64_t>{e});
        for (int64_t r = 0; r < 2; ++r) {
          Value x = g.fadd(g.fmul(g.extract(s[nc], r, e), scaleLog2), tk);
          if (causal)
            x = g.select(g.le(g.i32(int32_t(8 * nc + e)), limit[r]), x,
                         negInf);
          sv[r].push_back(x);
          rowMax[r] = g.fmax(rowMax[r], x);
        }
      }
    }
    Value mNew[2], alpha[2];
    SmallVector<Value> p[2];
    Value lNew[2];
    for (int64_t r = 0; r < 2; ++r) {
      mNew[r] = g.fmax(m[r], g.quadReduce(rowMax[r], /*isMax=*/true));
      Value isNegInf = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ,
                                             mNew[r], negInf);
      Value mSafe = g.select(isNegInf, zero, mNew[r]);
      alpha[r] = g.exp2(g.fsub(m[r], mSafe));
      Value sum = zero;
      for (Value x : sv[r]) {
        Value px = g.exp2(g.fsub(x, mSafe));
        p[r].push_back(px);
        sum = g.fadd(sum, px);
      }
      // Per-lane partial sum; the quad's lanes share alpha.
      lNew[r] = g.fadd(g.fmul(alpha[r], l[r]), sum);
    }

    // acc *= alpha (row 0 of each accumulator is row g, row 1 is g+8).
    Value alphaVec = vector::FromElementsOp::create(
        b, accType, ValueRange{alpha[0], alpha[0], alpha[1], alpha[1]});
    for (Value &a : acc)
      a = g.fmul(a, alphaVec);

    // O += P V. p[r][2*nc + e] is P[row r][8nc + 2t + e].
    auto pairOf = [&](int64_t r, int64_t nc) {
      Value v = vector::FromElementsOp::create(
          b, VectorType::get({2}, f32),
          ValueRange{p[r][2 * nc], p[r][2 * nc + 1]});
      return arith::TruncFOp::create(b, g.pairType(), v).getResult();
    };
    for (int64_t kk = 0; kk < bk / 16; ++kk) {
      SmallVector<Value> aFrag = g.packA({pairOf(0, 2 * kk), pairOf(1, 2 * kk),
                                          pairOf(0, 2 * kk + 1),
                                          pairOf(1, 2 * kk + 1)});
      for (int64_t j = 0; j < Dv / 8; ++j) {
        Value vRow = g.add(grp, 8 * j);
        SmallVector<Value> bRegs =
            g.packRegs({g.loadShared(vt, vRow, g.add(tig, 8 * kk)),
                        g.loadShared(vt, vRow, g.add(tig, 8 * kk + 4))});
        acc[j] = g.mma(aFrag, bRegs, acc[j]);
      }
    }

    SmallVector<Value> yields = {mNew[0], mNew[1], lNew[0], lNew[1]};
    yields.append(acc.begin(), acc.end());
    scf::YieldOp::create(b, yields);
  }

  // Epilogue: O = acc / l (0 for rows without an admissible key).
  ValueRange res = loop.getResults();
  for (int64_t r = 0; r < 2; ++r) {
    Value lSum = g.quadReduce(res[2 + r], /*isMax=*/false);
    Value positive = arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, lSum,
                                           zero);
    Value inv = g.select(positive, arith::DivFOp::create(b, g.f32(1.0f), lSum),
                         zero);
    Value row = r == 0 ? row0 : row1;
    Value inRange = g.lt(row, queryLen);
    auto ifRow = scf::IfOp::create(b, inRange, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifRow.getThenRegion().front());
    for (int64_t j = 0; j < Dv / 8; ++j) {
      Value a = res[4 + j];
      Value v = vector::FromElementsOp::create(
          b, VectorType::get({2}, f32),
          ValueRange{g.fmul(g.extract(a, r, 0), inv),
                     g.fmul(g.extract(a, r, 1), inv)});
      Value o = arith::TruncFOp::create(b, g.pairType(), v);
      g.storePair(o, out, {bi, hi, row, g.add(twoT, 8 * j)});
    }
  }
}



LogicalResult lowerToGpu(BlockAttentionOp op, int64_t blockQOption,
                         int64_t blockKOption, bool deviceOperands) {
  auto queryType = cast<MemRefType>(op.getQuery().getType());
  KernelConfig cfg = configFor(op, blockQOption, blockKOption);
  std::string why;
  if (failed(checkSupported(op, cfg, why)))
    return op.emitOpError("cannot be lowered to the CUDA kernel: ") << why;

  OpBuilder builder(op);
  ImplicitLocOpBuilder b(op.getLoc(), builder);
  Gen g{b, queryType.getElementType(), queryType.getElementType().isBF16()};
  auto dim = [&](Value v, int64_t d) -> Value {
    return memref::DimOp::create(b, v, d);
  };
  Value query = op.getQuery(), key = op.getKey(), value = op.getValue();
  Value bias = op.getKeyBias(), mask = op.getKeyMask(), out = op.getInit();
  Value batches = dim(query, 0), heads = dim(query, 1);
  Value queryLen = dim(query, 2), keyLen = dim(key, 2);

  // Device buffers and host->device copies on one async chain.
  Type tokenType = gpu::AsyncTokenType::get(b.getContext());
  Value token = gpu::WaitOp::create(b, tokenType, ValueRange{}).getAsyncToken();
  auto toDevice = [&](Value host, bool copy) -> Value {
    if (deviceOperands)
      return host;
    auto type = cast<MemRefType>(host.getType());
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        sizes.push_back(dim(host, d));
    auto alloc = gpu::AllocOp::create(b, type, tokenType, ValueRange{token},
                                      sizes, ValueRange{}, UnitAttr());
    token = alloc.getAsyncToken();
    if (copy)
      token = gpu::MemcpyOp::create(b, tokenType, ValueRange{token},
                                    alloc.getMemref(), host)
                  .getAsyncToken();
    return alloc.getMemref();
  };
  Value dQuery = toDevice(query, true), dKey = toDevice(key, true);
  Value dValue = toDevice(value, true);
  Value dBias = bias ? toDevice(bias, true) : Value();
  Value dMask = mask ? toDevice(mask, true) : Value();
  Value dOut = toDevice(out, false);

  Value c1 = g.index(1);
  Value batchHeads = g.mul(batches, heads);
  Value gridX = g.maxI(batchHeads, c1);
  Value gridY = g.maxI(g.ceilDiv(queryLen, g.index(cfg.blockQ)), c1);
  auto smemSpace = gpu::AddressSpaceAttr::get(b.getContext(),
                                              gpu::AddressSpace::Workgroup);
  Type elem = queryType.getElementType();
  // The f16/bf16 tiles hold vector<2xT> elements (pairs): that gives them
  // 4-byte alignment, which their 32-bit fragment loads need (an f16
  // element type would give the shared arrays .align 2 only).
  auto pairType = VectorType::get({2}, elem);
  SmallVector<Type> smem = {
      MemRefType::get({cfg.blockK, (cfg.headDim + kPad) / 2}, pairType,
                      nullptr, smemSpace),
      MemRefType::get({cfg.valueDim, (cfg.blockK + kPad) / 2}, pairType,
                      nullptr, smemSpace),
      MemRefType::get({cfg.blockK / 2}, VectorType::get({2}, b.getF32Type()),
                      nullptr, smemSpace)};
  auto launch = gpu::LaunchOp::create(
      b, gridX, gridY, c1, g.index(32 * cfg.warps), c1, c1,
      /*dynamicSharedMemorySize=*/nullptr, tokenType, ValueRange{token},
      smem);
  token = launch.getAsyncToken();
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&launch.getBody().front());
    buildKernel(b, launch, cfg, isTopLeftCausal(op),
                op.getScale().convertToFloat(), dQuery, dKey, dValue, dBias,
                dMask, dOut, heads, queryLen, keyLen, batchHeads);
    b.setInsertionPointToEnd(&launch.getBody().front());
    gpu::TerminatorOp::create(b);
  }

  // Result back to the host, then free everything and wait.
  if (!deviceOperands) {
    token = gpu::MemcpyOp::create(b, tokenType, ValueRange{token}, out, dOut)
                .getAsyncToken();
    for (Value d : {dQuery, dKey, dValue, dBias, dMask, dOut})
      if (d)
        token = gpu::DeallocOp::create(b, tokenType, ValueRange{token}, d)
                    .getAsyncToken();
  }
  gpu::WaitOp::create(b, Type(), ValueRange{token});
  op.erase();
  return success();
}

} // namespace

bool attic::supportsTensorCoreKernel(BlockAttentionOp op, int64_t blockQ,
                                     int64_t blockK, std::string *why) {
  std::string reason;
  bool ok = succeeded(checkSupported(op, configFor(op, blockQ, blockK), reason));
  if (why)
    *why = reason;
  return ok;
}

namespace {

struct AtticGpuBlockAttentionPass
    : public attic::impl::AtticGpuBlockAttentionBase<
          AtticGpuBlockAttentionPass> {
  using Base::Base;

  void runOnOperation() override {
    if (blockQ < 0 || blockK < 0) {
      emitError(getOperation()->getLoc())
          << "attic-gpu-block-attention: block-q and block-k must be >= 0 "
             "(0: the op's block_q/block_k), got "
          << static_cast<int64_t>(blockQ) << " and "
          << static_cast<int64_t>(blockK);
      return signalPassFailure();
    }
    SmallVector<BlockAttentionOp> ops;
    getOperation()->walk([&](BlockAttentionOp op) { ops.push_back(op); });
    bool failed = false;
    for (BlockAttentionOp op : ops)
      if (mlir::failed(lowerToGpu(op, blockQ, blockK, deviceOperands)))
        failed = true;
    if (failed)
      return signalPassFailure();
    if (!ops.empty())
      if (auto module = dyn_cast<ModuleOp>(getOperation()))
        module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                        UnitAttr::get(&getContext()));
  }
};

} // namespace

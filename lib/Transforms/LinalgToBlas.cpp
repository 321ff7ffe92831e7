//===- LinalgToBlas.cpp - f32 linalg.matmul on memrefs -> sgemm --*- C++
//-*-===//
//
// Dense GEMMs that are not attention (projections, feed-forward layers, the
// state products of kernelized attention) run through the runtime's
// `attic_rt_sgemm`, which calls OpenBLAS's cblas_sgemm; a batch matmul
// becomes a loop of such calls. Matmuls the call cannot express stay for
// the loop lowering.
//
//===----------------------------------------------------------------------===//

#include "attic/Transforms/Passes.h"
#include "attic/Transforms/RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace attic {
#define GEN_PASS_DEF_ATTICLINALGTOBLAS
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {
constexpr StringLiteral kSgemmName = "attic_rt_sgemm";

/// How one operand of the GEMM lies in memory: row-major with leading
/// dimension `leadingStride` (the stride of dim 0, dim 1 contiguous), or
/// column-major (dim 0 contiguous), which BLAS reads as the transpose of a
/// row-major matrix.
struct OperandLayout {
  bool columnMajor = false;
  unsigned leadingDim = 0; // the dim whose stride is the leading dimension
};

/// Row-major or column-major with a static unit stride; anything else
/// (dynamic or non-unit inner strides) is left to the loops.
std::optional<OperandLayout> classifyLayout(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.size() != 2)
    return std::nullopt;
  if (strides[1] == 1)
    return OperandLayout{/*columnMajor=*/false, /*leadingDim=*/0};
  if (strides[0] == 1)
    return OperandLayout{/*columnMajor=*/true, /*leadingDim=*/1};
  return std::nullopt;
}

bool isF32Matrix(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.getRank() == 2 && type.getElementType().isF32();
}

/// The runtime call uses OpenBLAS's own threads; from inside parallel
/// loops it would oversubscribe the cores.
bool insideParallelLoop(Operation *op) {
  return op->getParentOfType<scf::ParallelOp>() ||
         op->getParentOfType<scf::ForallOp>() ||
         op->getParentOfType<omp::ParallelOp>();
}

/// The declaration of the runtime function, created once per module:
///   attic_rt_sgemm(transA, transB, m, n, k,
///                  a, aOffset, lda, b, bOffset, ldb, c, cOffset, ldc)
/// with every argument an index (a, b, c: aligned base addresses; offsets in
/// elements). It computes C += op(A) op(B) (see lib/Execution/Blas.cpp).
FailureOr<func::FuncOp>
getOrCreateSgemmDecl(ModuleOp module, OpBuilder &builder, bool &created) {
  SmallVector<Type> argTypes(14, builder.getIndexType());
  FunctionType type = builder.getFunctionType(argTypes, {});
  created = false;
  if (Operation *existing = module.lookupSymbol(kSgemmName)) {
    // A definition took the calls as well (until 2026-12-01).
    if (std::string problem = attic::reservedNameProblem(existing, type);
        !problem.empty())
      return existing->emitError()
             << "@" << kSgemmName
             << " is the runtime's sgemm, which attic-linalg-to-blas calls, "
                "but "
             << problem << "; rename it";
    return cast<func::FuncOp>(existing);
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto decl = func::FuncOp::create(builder, module.getLoc(), kSgemmName, type);
  decl.setPrivate();
  created = true;
  return decl;
}

struct MatmulToSgemm : public OpRewritePattern<linalg::MatmulOp> {
  MatmulToSgemm(MLIRContext *context, func::FuncOp sgemm)
      : OpRewritePattern(context), sgemm(sgemm) {}

  LogicalResult matchAndRewrite(linalg::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics())
      return rewriter.notifyMatchFailure(op, "not on memrefs");
    if (insideParallelLoop(op))
      return rewriter.notifyMatchFailure(op, "inside a parallel loop");
    // Host code of the module that declares the runtime function only: not
    // a nested module's (its own run of the pass declares it there), not a
    // GPU kernel's (a host call there is invalid).
    if (SymbolTable::getNearestSymbolTable(op) != sgemm->getParentOp() ||
        op->getParentOfType<gpu::LaunchOp>())
      return rewriter.notifyMatchFailure(op, "not host code of the module");
    Value a = op.getDpsInputOperand(0)->get();
    Value b = op.getDpsInputOperand(1)->get();
    Value c = op.getDpsInitOperand(0)->get();
    if (!isF32Matrix(a) || !isF32Matrix(b) || !isF32Matrix(c))
      return rewriter.notifyMatchFailure(op, "not f32 matrices");

    // Default maps (A[m,k], B[k,n], C[m,n]) or A/B given transposed.
    MLIRContext *ctx = op.getContext();
    AffineExpr m, n, k;
    bindDims(ctx, m, n, k);
    auto map = [&](AffineExpr r, AffineExpr s) {
      return AffineMap::get(3, 0, {r, s}, ctx);
    };
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    if (maps.size() != 3 || maps[2] != map(m, n))
      return rewriter.notifyMatchFailure(op, "unsupported output map");
    bool transA, transB;
    if (maps[0] == map(m, k))
      transA = false;
    else if (maps[0] == map(k, m))
      transA = true;
    else
      return rewriter.notifyMatchFailure(op, "unsupported map of A");
    if (maps[1] == map(k, n))
      transB = false;
    else if (maps[1] == map(n, k))
      transB = true;
    else
      return rewriter.notifyMatchFailure(op, "unsupported map of B");

    std::optional<OperandLayout> layoutA =
        classifyLayout(cast<MemRefType>(a.getType()));
    std::optional<OperandLayout> layoutB =
        classifyLayout(cast<MemRefType>(b.getType()));
    std::optional<OperandLayout> layoutC =
        classifyLayout(cast<MemRefType>(c.getType()));
    if (!layoutA || !layoutB || !layoutC || layoutC->columnMajor)
      return rewriter.notifyMatchFailure(
          op, "operands are not row- or column-major with unit stride");
    // A column-major operand is the row-major transpose.
    transA ^= layoutA->columnMajor;
    transB ^= layoutB->columnMajor;

    Location loc = op.getLoc();
    auto metadata = [&](Value matrix, const OperandLayout &layout) {
      auto meta =
          memref::ExtractStridedMetadataOp::create(rewriter, loc, matrix);
      Value base = memref::ExtractAlignedPointerAsIndexOp::create(
          rewriter, loc, meta.getBaseBuffer());
      return std::make_tuple(base, meta.getOffset(),
                             meta.getStrides()[layout.leadingDim],
                             meta.getSizes());
    };
    auto [baseA, offsetA, ldA, sizesA] = metadata(a, *layoutA);
    auto [baseB, offsetB, ldB, sizesB] = metadata(b, *layoutB);
    auto [baseC, offsetC, ldC, sizesC] = metadata(c, *layoutC);
    // m and n from C; k from A (its dim 1 unless the indexing map
    // transposes it).
    Value sizeM = sizesC[0], sizeN = sizesC[1];
    Value sizeK = maps[0] == map(m, k) ? sizesA[1] : sizesA[0];
    auto flag = [&](bool value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value ? 1 : 0);
    };
    func::CallOp::create(rewriter, loc, sgemm,
                         ValueRange{flag(transA), flag(transB), sizeM, sizeN,
                                    sizeK, baseA, offsetA, ldA, baseB, offsetB,
                                    ldB, baseC, offsetC, ldC});
    rewriter.eraseOp(op);
    return success();
  }

  func::FuncOp sgemm;
};

/// f32 linalg.batch_matmul on memrefs -> a loop over the batch whose body
/// is one 2-D linalg.matmul on rank-reduced subviews (with the batch
/// matmul's maps less the batch dim), which MatmulToSgemm then turns into a
/// runtime sgemm call. The state products of kernelized attention (one
/// GEMM per head or per chunk) take this path.
struct BatchMatmulToLoop : public OpRewritePattern<linalg::BatchMatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::BatchMatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics())
      return rewriter.notifyMatchFailure(op, "not on memrefs");
    if (insideParallelLoop(op))
      return rewriter.notifyMatchFailure(op, "inside a parallel loop");
    SmallVector<Value> operands{op.getDpsInputOperand(0)->get(),
                                op.getDpsInputOperand(1)->get(),
                                op.getDpsInitOperand(0)->get()};
    for (Value v : operands) {
      auto type = dyn_cast<MemRefType>(v.getType());
      if (!type || type.getRank() != 3 || !type.getElementType().isF32() ||
          !type.hasStaticShape())
        return rewriter.notifyMatchFailure(op, "not static f32 3-D memrefs");
    }
    // Every map must keep the batch dim first: (b, ...) -> (b, x, y).
    MLIRContext *ctx = op.getContext();
    SmallVector<AffineMap> maps2d;
    for (AffineMap map : op.getIndexingMapsArray()) {
      if (map.getNumDims() != 4 || map.getNumResults() != 3 ||
          map.getResult(0) != getAffineDimExpr(0, ctx))
        return rewriter.notifyMatchFailure(op, "unsupported batch map");
      SmallVector<AffineExpr> rest;
      for (unsigned r = 1; r < 3; ++r) {
        auto dim = dyn_cast<AffineDimExpr>(map.getResult(r));
        if (!dim || dim.getPosition() == 0)
          return rewriter.notifyMatchFailure(op, "unsupported batch map");
        rest.push_back(getAffineDimExpr(dim.getPosition() - 1, ctx));
      }
      maps2d.push_back(AffineMap::get(3, 0, rest, ctx));
    }
    Location loc = op.getLoc();
    int64_t batch = cast<MemRefType>(operands[2].getType()).getDimSize(0);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value upper = arith::ConstantIndexOp::create(rewriter, loc, batch);
    auto loop = scf::ForOp::create(rewriter, loc, zero, upper, one);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    Value iv = loop.getInductionVar();
    SmallVector<Value> slices;
    for (Value v : operands) {
      auto type = cast<MemRefType>(v.getType());
      SmallVector<OpFoldResult> offsets{iv, rewriter.getIndexAttr(0),
                                        rewriter.getIndexAttr(0)};
      SmallVector<OpFoldResult> sizes{
          rewriter.getIndexAttr(1), rewriter.getIndexAttr(type.getDimSize(1)),
          rewriter.getIndexAttr(type.getDimSize(2))};
      SmallVector<OpFoldResult> strides(3, rewriter.getIndexAttr(1));
      auto reduced = memref::SubViewOp::inferRankReducedResultType(
          {type.getDimSize(1), type.getDimSize(2)}, type, offsets, sizes,
          strides);
      slices.push_back(memref::SubViewOp::create(rewriter, loc,
                                                 cast<MemRefType>(reduced), v,
                                                 offsets, sizes, strides));
    }
    auto matmul = linalg::MatmulOp::create(rewriter, loc, TypeRange{},
                                           ValueRange{slices[0], slices[1]},
                                           ValueRange{slices[2]});
    matmul.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps2d));
    rewriter.eraseOp(op);
    return success();
  }
};

struct AtticLinalgToBlasPass
    : public attic::impl::AtticLinalgToBlasBase<AtticLinalgToBlasPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool any = false;
    module.walk([&](Operation *op) {
      any |= isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op);
    });
    if (!any)
      return;
    OpBuilder builder(module.getContext());
    bool created;
    FailureOr<func::FuncOp> sgemm =
        getOrCreateSgemmDecl(module, builder, created);
    if (failed(sgemm))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    attic::populateLinalgToBlasPatterns(patterns, *sgemm);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
    // Drop the declaration again when no matmul could use it.
    if (created && SymbolTable::symbolKnownUseEmpty(*sgemm, module))
      sgemm->erase();
  }
};
} // namespace

void attic::populateLinalgToBlasPatterns(RewritePatternSet &patterns,
                                         func::FuncOp sgemm) {
  patterns.add<MatmulToSgemm>(patterns.getContext(), sgemm);
  patterns.add<BatchMatmulToLoop>(patterns.getContext());
}

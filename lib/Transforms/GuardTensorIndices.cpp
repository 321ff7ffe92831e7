//===- GuardTensorIndices.cpp - no tensor access out of bounds -----------===//
//
// tensor.extract and tensor.insert with an index outside the tensor (and
// tensor.extract_slice / insert_slice reaching outside it), and
// memref.load and memref.store outside the memref, are undefined
// behaviour upstream; compiled, they read or write past the
// buffer (an index taken from the data, a token id past an embedding
// table, segfaulted attic-run). For each access whose indices are not all
// known inside, this pass reports an index outside to the runtime
// (ATTIC_RT_TENSOR_INDEX, ATTIC_RT_MEMREF_INDEX) and makes the access read
// 0 (extract, load) or change nothing (insert, store) there. See
// AtticPasses.td.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Transforms/Passes.h"
#include "attic/Transforms/RuntimeCalls.h"
#include "attic/runtime/Runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include "llvm/Support/MathExtras.h"

namespace attic {
#define GEN_PASS_DEF_ATTICGUARDTENSORINDICES
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;

namespace {

/// Marks the accesses this pass has guarded (or made), so that a second
/// run leaves them alone.
constexpr llvm::StringLiteral kGuarded = "attic.in_bounds";

/// The range [min, max] of an index, offset, size or stride, where it is
/// plain to see: a constant, the induction variable of an scf.for with
/// constant bounds, a block or thread id of a gpu.launch of constant
/// sizes, and sums, differences, products (of non-negative ranges) and
/// index casts of those that fit their integer type (a wrapped i32 sum
/// is not the sum). (Upstream's IntegerRangeAnalysis was tried: on a
/// recursive function its ranges grow one step per round and the solver
/// ran for hours.)
std::optional<std::pair<int64_t, int64_t>> rangeOf(OpFoldResult value,
                                                   int depth = 0) {
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return std::make_pair(*c, *c);
  auto v = dyn_cast<Value>(value);
  if (!v || depth > 8)
    return std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // A gpu.launch's block and thread ids: [0, its grid or block size).
    if (auto launch = dyn_cast<gpu::LaunchOp>(arg.getOwner()->getParentOp());
        launch && arg.getOwner() == &launch.getBody().front()) {
      gpu::KernelDim3 ids[] = {launch.getBlockIds(), launch.getThreadIds()};
      gpu::KernelDim3 sizes[] = {launch.getGridSizeOperandValues(),
                                 launch.getBlockSizeOperandValues()};
      for (int i = 0; i < 2; ++i)
        for (auto [id, size] :
             {std::pair(ids[i].x, sizes[i].x), std::pair(ids[i].y, sizes[i].y),
              std::pair(ids[i].z, sizes[i].z)})
          if (arg == id) {
            std::optional<int64_t> n = getConstantIntValue(size);
            if (!n || *n < 1)
              return std::nullopt;
            return std::make_pair(int64_t(0), *n - 1);
          }
      return std::nullopt;
    }
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg != loop.getInductionVar())
      return std::nullopt;
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                           ub = getConstantIntValue(loop.getUpperBound()),
                           step = getConstantIntValue(loop.getStep());
    if (!lb || !ub || !step || *step < 1 || *lb >= *ub)
      return std::nullopt;
    return std::make_pair(*lb, *ub - 1);
  }
  // [lo, hi] if every value in it is one of v's type (index: 64 bits).
  auto fitting = [&](int64_t lo,
                     int64_t hi) -> std::optional<std::pair<int64_t, int64_t>> {
    if (!v.getType().isIntOrIndex())
      return std::nullopt;
    unsigned width =
        v.getType().isIndex() ? 64 : v.getType().getIntOrFloatBitWidth();
    if (width < 64 && (lo < -(int64_t(1) << (width - 1)) ||
                       hi >= (int64_t(1) << (width - 1))))
      return std::nullopt;
    return std::make_pair(lo, hi);
  };
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<arith::IndexCastOp>(def)) {
    auto range = rangeOf(def->getOperand(0), depth + 1);
    if (!range)
      return std::nullopt;
    return fitting(range->first, range->second);
  }
  if (!isa_and_nonnull<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def))
    return std::nullopt;
  auto l = rangeOf(def->getOperand(0), depth + 1),
       r = rangeOf(def->getOperand(1), depth + 1);
  if (!l || !r)
    return std::nullopt;
  // Both bounds are computed (no short circuit), then either overflow
  // gives up.
  int64_t lo, hi;
  bool loOverflow, hiOverflow;
  if (isa<arith::AddIOp>(def)) {
    loOverflow = __builtin_add_overflow(l->first, r->first, &lo);
    hiOverflow = __builtin_add_overflow(l->second, r->second, &hi);
  } else if (isa<arith::SubIOp>(def)) {
    loOverflow = __builtin_sub_overflow(l->first, r->second, &lo);
    hiOverflow = __builtin_sub_overflow(l->second, r->first, &hi);
  } else if (l->first >= 0 && r->first >= 0) {
    loOverflow = __builtin_mul_overflow(l->first, r->first, &lo);
    hiOverflow = __builtin_mul_overflow(l->second, r->second, &hi);
  } else {
    return std::nullopt;
  }
  if (loOverflow || hiOverflow)
    return std::nullopt;
  return fitting(lo, hi);
}

/// Whether `index` is known inside static dimension `d` (rangeOf).
bool provablyInside(ShapedType type, int64_t d, Value index) {
  if (!type.hasRank() || type.isDynamicDim(d))
    return false;
  std::optional<std::pair<int64_t, int64_t>> range = rangeOf(index);
  return range && range->first >= 0 && range->second < type.getDimSize(d);
}

/// Whether every index is known inside its static dimension.
bool provablyInside(ShapedType type, ValueRange indices) {
  for (auto [d, index] : llvm::enumerate(indices))
    if (!provablyInside(type, int64_t(d), index))
      return false;
  return true;
}

/// Whether an extract of `type` has a 0 to read where it is outside.
bool hasZero(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    type = vector.getElementType();
  return isa<FloatType, IntegerType, IndexType>(type);
}

/// 0 of a type for which hasZero holds (a vector: all zeros).
Value zeroOf(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc,
                                   cast<TypedAttr>(b.getZeroAttr(type)));
}

/// zero <= index < size (zero: an index constant 0), an i1.
Value inRange(OpBuilder &b, Location loc, Value index, Value zero, Value size) {
  return arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, size));
}

/// Where `ok` does not hold, a report of `code` to the runtime: a (the
/// op's line and dimension), then x and y.
void reportUnless(OpBuilder &b, Location loc, Value ok, func::FuncOp report,
                  attic_rt_error_code code, int64_t a, Value x, Value y) {
  Value outside = arith::XOrIOp::create(
      b, loc, ok, arith::ConstantIntOp::create(b, loc, 1, 1));
  auto ifOp = scf::IfOp::create(b, loc, outside, /*withElseRegion=*/false);
  OpBuilder then = ifOp.getThenBodyBuilder();
  attic::emitReportError(then, loc, report, code,
                         arith::ConstantIndexOp::create(then, loc, a), x, y);
}

/// Moves `op` (one result) under `scf.if %inside`, its result the then
/// branch's; returns a builder at the start of the else branch, which must
/// yield the value taken outside.
OpBuilder underIf(OpBuilder &b, Operation *op, Value inside) {
  Location loc = op->getLoc();
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{op->getResult(0).getType()},
                                inside, /*withElseRegion=*/true);
  op->getResult(0).replaceAllUsesWith(ifOp.getResult(0));
  op->moveBefore(ifOp.thenBlock(), ifOp.thenBlock()->end());
  OpBuilder then = ifOp.getThenBodyBuilder();
  scf::YieldOp::create(then, loc, op->getResult(0));
  return ifOp.getElseBodyBuilder();
}

/// The coefficients of the loop dimensions and the constant of an affine
/// expression without mod, floordiv, ceildiv and symbols, or nothing
/// (also where a coefficient overflows).
std::optional<std::pair<SmallVector<int64_t>, int64_t>>
linearForm(AffineExpr expr, unsigned numDims) {
  SmallVector<int64_t> coefficients(numDims, 0);
  int64_t constant = 0;
  std::function<bool(AffineExpr, int64_t)> add = [&](AffineExpr e,
                                                     int64_t scale) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      return !__builtin_add_overflow(coefficients[dim.getPosition()], scale,
                                     &coefficients[dim.getPosition()]);
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      int64_t term;
      return !__builtin_mul_overflow(c.getValue(), scale, &term) &&
             !__builtin_add_overflow(constant, term, &constant);
    }
    auto binary = dyn_cast<AffineBinaryOpExpr>(e);
    if (!binary)
      return false;
    if (e.getKind() == AffineExprKind::Add)
      return add(binary.getLHS(), scale) && add(binary.getRHS(), scale);
    if (e.getKind() != AffineExprKind::Mul)
      return false;
    auto c = dyn_cast<AffineConstantExpr>(binary.getRHS());
    int64_t product;
    return c && !__builtin_mul_overflow(c.getValue(), scale, &product) &&
           add(binary.getLHS(), product);
  };
  if (!add(expr, 1))
    return std::nullopt;
  return std::make_pair(coefficients, constant);
}

/// The value of `expr` at `point`, or nothing where it overflows or
/// divides by a value below 1.
std::optional<int64_t> valueAt(AffineExpr expr, ArrayRef<int64_t> point) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return point[dim.getPosition()];
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return c.getValue();
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  std::optional<int64_t> l = valueAt(binary.getLHS(), point),
                         r = valueAt(binary.getRHS(), point);
  if (!l || !r)
    return std::nullopt;
  int64_t out;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return __builtin_add_overflow(*l, *r, &out) ? std::nullopt
                                                : std::optional(out);
  case AffineExprKind::Mul:
    return __builtin_mul_overflow(*l, *r, &out) ? std::nullopt
                                                : std::optional(out);
  default:
    break;
  }
  if (*r < 1)
    return std::nullopt;
  switch (expr.getKind()) {
  case AffineExprKind::FloorDiv:
    return llvm::divideFloorSigned(*l, *r);
  case AffineExprKind::CeilDiv:
    return llvm::divideCeilSigned(*l, *r);
  case AffineExprKind::Mod:
    return llvm::mod(*l, *r);
  default:
    return std::nullopt;
  }
}

/// A range [lo, hi] that holds every value of `expr` over the loop ranges
/// (all positive), or nothing (overflow, a division by a variable).
std::optional<std::pair<int64_t, int64_t>> boundsOf(AffineExpr expr,
                                                    ArrayRef<int64_t> ranges) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return std::make_pair(int64_t(0), ranges[dim.getPosition()] - 1);
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return std::make_pair(c.getValue(), c.getValue());
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  auto r = binary ? dyn_cast<AffineConstantExpr>(binary.getRHS()) : nullptr;
  std::optional<std::pair<int64_t, int64_t>> l =
      binary ? boundsOf(binary.getLHS(), ranges) : std::nullopt;
  if (!l)
    return std::nullopt;
  if (expr.getKind() == AffineExprKind::Add) {
    auto rr = boundsOf(binary.getRHS(), ranges);
    int64_t lo, hi;
    if (!rr || __builtin_add_overflow(l->first, rr->first, &lo) ||
        __builtin_add_overflow(l->second, rr->second, &hi))
      return std::nullopt;
    return std::make_pair(lo, hi);
  }
  if (!r)
    return std::nullopt;
  int64_t c = r.getValue();
  if (expr.getKind() == AffineExprKind::Mul) {
    int64_t a, b;
    if (__builtin_mul_overflow(l->first, c, &a) ||
        __builtin_mul_overflow(l->second, c, &b))
      return std::nullopt;
    return std::make_pair(std::min(a, b), std::max(a, b));
  }
  if (c < 1)
    return std::nullopt;
  switch (expr.getKind()) {
  case AffineExprKind::FloorDiv:
    return std::make_pair(llvm::divideFloorSigned(l->first, c),
                          llvm::divideFloorSigned(l->second, c));
  case AffineExprKind::CeilDiv:
    return std::make_pair(llvm::divideCeilSigned(l->first, c),
                          llvm::divideCeilSigned(l->second, c));
  case AffineExprKind::Mod:
    // Inside one period the remainders ascend; else any of [0, c).
    if (l->second - l->first < c &&
        llvm::mod(l->first, c) <= llvm::mod(l->second, c))
      return std::make_pair(llvm::mod(l->first, c), llvm::mod(l->second, c));
    return std::make_pair(int64_t(0), c - 1);
  default:
    return std::nullopt;
  }
}

/// A point of the loop ranges (all positive) at which `expr` is outside
/// [0, size), if there is one. Linear expressions reach their least and
/// greatest values at a corner; the others, unless boundsOf shows them
/// inside, are enumerated over the loops they use, where those hold at
/// most 2^24 points (`unknown` is set if there are more). A value that
/// overflows or divides by less than 1 counts as outside.
std::optional<SmallVector<int64_t>> pointOutside(AffineExpr expr,
                                                 ArrayRef<int64_t> ranges,
                                                 int64_t size, bool &unknown) {
  unsigned numDims = ranges.size();
  if (auto linear = linearForm(expr, numDims)) {
    // The corners of least and greatest value, each computed without
    // overflow (a sum past 64 bits is outside any size).
    for (bool greatest : {false, true}) {
      SmallVector<int64_t> corner(numDims, 0);
      int64_t value = linear->second;
      bool overflow = false;
      for (unsigned d = 0; d < numDims; ++d) {
        int64_t c = linear->first[d];
        if ((c > 0) == greatest && c != 0) {
          corner[d] = ranges[d] - 1;
          int64_t term;
          overflow |= __builtin_mul_overflow(c, corner[d], &term) ||
                      __builtin_add_overflow(value, term, &value);
        }
      }
      if (overflow || value < 0 || value >= size)
        return corner;
    }
    return std::nullopt;
  }
  if (auto bounds = boundsOf(expr, ranges);
      bounds && bounds->first >= 0 && bounds->second < size)
    return std::nullopt;
  SmallVector<unsigned> used;
  int64_t points = 1;
  for (unsigned d = 0; d < numDims; ++d)
    if (expr.isFunctionOfDim(d)) {
      used.push_back(d);
      if (__builtin_mul_overflow(points, ranges[d], &points) ||
          points > (int64_t(1) << 24)) {
        unknown = true;
        return std::nullopt;
      }
    }
  SmallVector<int64_t> point(numDims, 0);
  while (true) {
    std::optional<int64_t> value = valueAt(expr, point);
    if (!value || *value < 0 || *value >= size)
      return point;
    unsigned k = 0;
    for (; k < used.size(); ++k) {
      if (++point[used[k]] < ranges[used[k]])
        break;
      point[used[k]] = 0;
    }
    if (k == used.size())
      return std::nullopt;
  }
}

/// Refuses a linalg op of static shapes whose indexing map reaches outside
/// its operand somewhere in the iteration space: upstream's verifier
/// checks the loop bounds' first and last points only, and compiled code
/// read or wrote past the buffer there (`d0 mod 3` on a dimension of 1,
/// `d0 - d1 + 3`; a segfault; a 2026-11-30 audit).
LogicalResult checkIndexingMaps(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, [](int64_t r) { return r <= 0; }))
    return success(); // dynamic (not checked here) or no iteration
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type || !type.hasRank() || !type.hasStaticShape())
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (map.getNumSymbols() || map.getNumDims() != ranges.size())
      continue;
    for (int64_t d = 0; d < int64_t(map.getNumResults()); ++d) {
      AffineExpr expr = map.getResult(d);
      std::string text;
      llvm::raw_string_ostream(text) << expr;
      bool unknown = false;
      std::optional<SmallVector<int64_t>> point =
          pointOutside(expr, ranges, type.getDimSize(d), unknown);
      auto describe = [&](InFlightDiagnostic &diag) -> InFlightDiagnostic & {
        return diag << "indexing map of operand #" << operand.getOperandNumber()
                    << " (" << type << "), result " << d << " (" << text << ")";
      };
      if (point) {
        InFlightDiagnostic diag = op->emitOpError();
        std::optional<int64_t> value = valueAt(expr, *point);
        describe(diag) << " is ";
        if (value)
          diag << *value;
        else
          diag << "undefined (an overflow or a division by less than 1)";
        diag << " at loop indices (";
        llvm::interleaveComma(*point, diag);
        diag << "), outside [0, " << type.getDimSize(d)
             << ") (the loop ranges are (";
        llvm::interleaveComma(ranges, diag);
        diag << "))";
        return failure();
      }
      if (unknown) {
        InFlightDiagnostic diag = op->emitOpError();
        describe(diag) << " could not be checked to stay inside [0, "
                       << type.getDimSize(d) << ") over the loop ranges (";
        llvm::interleaveComma(ranges, diag);
        diag << ") (more than 2^24 points of a map that is not linear)";
        return failure();
      }
    }
  }
  return success();
}

/// What an access is checked against: `v` through tensor.cast and
/// memref.cast, whose static sizes are not checked (a cast of a buffer of
/// 8 to memref<64xf32> let loads at 8 to 63 through; a 2026-11-30 audit).
Value castSource(Value v) {
  // The value nearest the chain's start of the access's rank (or an
  // unranked one, whose sizes are read at run time): a chain through an
  // unranked cast, 8 -> * -> 64, let loads through too (a review).
  int64_t rank = cast<ShapedType>(v.getType()).getRank();
  Value source = v;
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<tensor::CastOp, memref::CastOp>(def))
      break;
    v = def->getOperand(0);
    auto type = dyn_cast<ShapedType>(v.getType());
    if (!type)
      break;
    if (!type.hasRank() || type.getRank() == rank)
      source = v;
  }
  return source;
}

/// The element access of a tensor.extract, tensor.insert, memref.load,
/// memref.store or memref.atomic_rmw: the tensor or memref (through casts,
/// castSource), its type, the indices, whether it writes and whether it is
/// a memref op.
struct Access {
  explicit Access(Operation *op) {
    if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
      shaped = extract.getTensor();
      indices = extract.getIndices();
    } else if (auto insert = dyn_cast<tensor::InsertOp>(op)) {
      shaped = insert.getDest();
      indices = insert.getIndices();
      write = true;
    } else if (auto load = dyn_cast<memref::LoadOp>(op)) {
      shaped = load.getMemref();
      indices = load.getIndices();
      memref = true;
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      shaped = store.getMemref();
      indices = store.getIndices();
      write = memref = true;
    } else {
      auto atomic = cast<memref::AtomicRMWOp>(op);
      shaped = atomic.getMemref();
      indices = atomic.getIndices();
      write = memref = true;
    }
    shaped = castSource(shaped);
    type = cast<ShapedType>(shaped.getType());
  }
  Value shaped;
  ShapedType type;
  SmallVector<Value> indices;
  bool write = false, memref = false;
};

struct AtticGuardTensorIndicesPass
    : public attic::impl::AtticGuardTensorIndicesBase<
          AtticGuardTensorIndicesPass> {
  using AtticGuardTensorIndicesBase::AtticGuardTensorIndicesBase;

  /// A dim of size 1 takes one element whatever its stride: the stride
  /// becomes 1. A rank-reducing extract_slice with stride 2 on such a dim
  /// crashed MLIR 22 (memref::SubViewOp::getDroppedDims, in the CPU
  /// pipeline's folding of the bufferized subview), and stride 3 on a dim
  /// of a size-1 source failed with "expected result type with stride = 3"
  /// (a 2026-11-30 audit).
  void unitStridesForUnitSizes() {
    SmallVector<Operation *> slices;
    getOperation().walk([&](Operation *op) {
      auto slice = dyn_cast<OffsetSizeAndStrideOpInterface>(op);
      if (!slice || !isa<tensor::ExtractSliceOp, tensor::InsertSliceOp>(op))
        return;
      for (auto [size, stride] :
           llvm::zip(slice.getMixedSizes(), slice.getMixedStrides()))
        if (isConstantIntValue(size, 1) && !isConstantIntValue(stride, 1)) {
          slices.push_back(op);
          return;
        }
    });
    for (Operation *op : slices) {
      auto slice = cast<OffsetSizeAndStrideOpInterface>(op);
      SmallVector<OpFoldResult> strides = slice.getMixedStrides();
      OpBuilder b(op);
      for (auto [size, stride] : llvm::zip(slice.getMixedSizes(), strides))
        if (isConstantIntValue(size, 1))
          stride = b.getIndexAttr(1);
      Operation *replacement;
      if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op))
        replacement = tensor::ExtractSliceOp::create(
            b, op->getLoc(), extract.getType(), extract.getSource(),
            extract.getMixedOffsets(), extract.getMixedSizes(), strides);
      else {
        auto insert = cast<tensor::InsertSliceOp>(op);
        replacement = tensor::InsertSliceOp::create(
            b, op->getLoc(), insert.getSource(), insert.getDest(),
            insert.getMixedOffsets(), insert.getMixedSizes(), strides);
      }
      replacement->setDiscardableAttrs(op->getDiscardableAttrDictionary());
      op->replaceAllUsesWith(replacement);
      op->erase();
    }
  }

  /// Whether `op` is the module's own code: inside a function of the
  /// module, not inside an attic op (a modifier region has its own check)
  /// nor in a function an attic op names (`mask_fn`, `score_fn`: the
  /// memref form's outlined regions, checked the same way), nor in a
  /// gpu.module (its functions cannot call the runtime).
  bool ownCode(Operation *op) {
    auto func = op->getParentOfType<FunctionOpInterface>();
    return func && func->getParentOp() == getOperation() &&
           !modifierFunctions.contains(func.getName()) &&
           !attic::insideAtticOp(op);
  }

  void runOnOperation() override {
    attic::normalizeExpandShapes(getOperation());
    attic::normalizeNarrowingIndexCasts(getOperation());
    unitStridesForUnitSizes();
    modifierFunctions.clear();
    getOperation().walk([&](Operation *op) {
      if (isa_and_nonnull<attic::AtticDialect>(op->getDialect()))
        for (NamedAttribute attr : op->getAttrs())
          if (auto ref = dyn_cast<FlatSymbolRefAttr>(attr.getValue()))
            modifierFunctions.insert(ref.getValue());
    });
    separateHostCalls();
    SmallVector<Operation *> accesses, slices, dims, casts, reshapes, allocs,
        pads;
    bool refused = false;
    getOperation().walk([&](Operation *op) {
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
          linalgOp && ownCode(op) && failed(checkIndexingMaps(linalgOp)))
        refused = true;
      if (isa<tensor::CastOp, memref::CastOp>(op) && !op->hasAttr(kGuarded) &&
          castNeedsCheck(op) && ownCode(op)) {
        casts.push_back(op);
        return;
      }
      if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op);
          expand && !op->hasAttr(kGuarded) &&
          (!reshapeChecks(expand).empty() || dynamicFromScalar(expand)) &&
          ownCode(op)) {
        reshapes.push_back(op);
        return;
      }
      // (Unranked: the shape's length is known at run time only; left
      // alone.)
      if (auto reshape = dyn_cast<tensor::ReshapeOp>(op);
          reshape && isa<RankedTensorType>(reshape.getSource().getType()) &&
          isa<RankedTensorType>(reshape.getType()) && !op->hasAttr(kGuarded) &&
          ownCode(op)) {
        reshapes.push_back(op);
        return;
      }
      if (auto pad = dyn_cast<tensor::PadOp>(op);
          pad && !op->hasAttr(kGuarded) && padNeedsCheck(pad) && ownCode(op)) {
        pads.push_back(op);
        return;
      }
      if (isa<tensor::EmptyOp, tensor::SplatOp, tensor::GenerateOp,
              memref::AllocOp, bufferization::AllocTensorOp>(op) &&
          !op->hasAttr(kGuarded) && ownCode(op)) {
        if (staticBytesOverflow(op)) {
          op->emitOpError("allocates ")
              << op->getResult(0).getType()
              << ", whose static sizes take 2^63 bytes or more";
          refused = true;
          return;
        }
        if (allocNeedsCheck(op))
          allocs.push_back(op);
        return;
      }
      if (op->hasAttr(kGuarded) ||
          !isa<tensor::DimOp, memref::DimOp, tensor::ExtractOp,
               tensor::InsertOp, memref::LoadOp, memref::StoreOp,
               memref::AtomicRMWOp, tensor::ExtractSliceOp,
               tensor::InsertSliceOp, tensor::ParallelInsertSliceOp>(op) ||
          !ownCode(op))
        return;
      if (isa<tensor::DimOp, memref::DimOp>(op)) {
        // A dimension index outside [0, rank): undefined upstream; it read
        // past the sizes of the descriptor (a 2026-11-30 audit: [0] for
        // index 7, a crash for -1, and MLIR's folding crashed on a
        // constant -1 in the CUDA pipeline).
        auto type = dyn_cast<ShapedType>(op->getOperand(0).getType());
        if (!type)
          return;
        // Unranked: the rank is known at run time only.
        if (!type.hasRank()) {
          dims.push_back(op);
          return;
        }
        APInt value;
        if (matchPattern(op->getOperand(1), m_ConstantInt(&value))) {
          if (value.isNegative() || value.getSExtValue() >= type.getRank()) {
            op->emitOpError("dimension index ")
                << value.getSExtValue() << " is outside [0, " << type.getRank()
                << ") (the rank of " << type << ")";
            refused = true;
          }
          return;
        }
        dims.push_back(op);
        return;
      }
      if (isa<tensor::ExtractSliceOp, tensor::InsertSliceOp,
              tensor::ParallelInsertSliceOp>(op)) {
        if (!sliceProvablyInside(op))
          slices.push_back(op);
        return;
      }
      // A read of a type without a 0 (a memref of vectors) is left alone.
      if (isa<tensor::ExtractOp, memref::LoadOp>(op) &&
          !hasZero(op->getResult(0).getType()))
        return;
      Access access(op);
      if (!provablyInside(access.type, access.indices))
        accesses.push_back(op);
    });
    if (refused)
      return signalPassFailure();
    if (accesses.empty() && slices.empty() && dims.empty() && casts.empty() &&
        reshapes.empty() && allocs.empty() && pads.empty())
      return;
    Operation *first = !accesses.empty()   ? accesses[0]
                       : !slices.empty()   ? slices[0]
                       : !dims.empty()     ? dims[0]
                       : !casts.empty()    ? casts[0]
                       : !reshapes.empty() ? reshapes[0]
                       : !allocs.empty()   ? allocs[0]
                                           : pads[0];
    FailureOr<func::FuncOp> report = attic::declareReportError(first);
    if (failed(report))
      return signalPassFailure();
    for (Operation *op : accesses)
      guard(op, *report);
    for (Operation *op : slices)
      guardSlice(op, *report);
    for (Operation *dim : dims)
      guardDim(dim, *report);
    // Last: the accesses through a cast were checked against its source.
    for (Operation *op : casts)
      guardCast(op, *report);
    for (Operation *op : reshapes) {
      if (auto reshape = dyn_cast<tensor::ReshapeOp>(op))
        guardTensorReshape(reshape, *report);
      else
        guardReshape(cast<tensor::ExpandShapeOp>(op), *report);
    }
    for (Operation *op : allocs)
      guardAllocSizes(op, *report);
    for (Operation *op : pads)
      guardPad(cast<tensor::PadOp>(op), *report);
  }

  /// Whether a tensor.pad has a padding from the data, or a static result
  /// size from a dynamic source size (which its verifier cannot match).
  static bool padNeedsCheck(tensor::PadOp op) {
    if (!op.getLow().empty() || !op.getHigh().empty())
      return true;
    for (int64_t d = 0; d < op.getResultType().getRank(); ++d)
      if (!op.getResultType().isDynamicDim(d) &&
          op.getSourceType().isDynamicDim(d))
        return true;
    return false;
  }

  /// A tensor.pad whose padding from the data is negative (undefined
  /// upstream: -1 gave a shifted result, and one run in three corrupted the
  /// heap; an audit): reported (ATTIC_RT_ALLOC_SIZE with the pad: the
  /// dimension and the value), and that padding becomes 0.
  void guardPad(tensor::PadOp op, func::FuncOp report) {
    Location loc = op.getLoc();
    OpBuilder b(op);
    int64_t line = attic::sourceLineOf(loc) * 64;
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    SmallVector<OpFoldResult> pads[2];
    for (bool high : {false, true}) {
      SmallVector<Value> safe;
      for (auto [d, pad] :
           llvm::enumerate(high ? op.getMixedHighPad() : op.getMixedLowPad())) {
        pads[high].push_back(pad);
        auto value = dyn_cast<Value>(pad);
        if (!value)
          continue;
        Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                         value, zero);
        reportUnless(b, loc, ok, report, ATTIC_RT_ALLOC_SIZE,
                     line + (high ? 6 : 5),
                     arith::ConstantIndexOp::create(b, loc, d), value);
        safe.push_back(arith::SelectOp::create(b, loc, ok, value, zero));
        pads[high].back() = safe.back();
      }
      (high ? op.getHighMutable() : op.getLowMutable()).assign(safe);
    }
    // A static result size must be the padded size: low + high + the
    // source's size (a padding of 1000000 into tensor<5xf32> wrote there:
    // a segfault). Each padding at most the size first, so that the sum
    // cannot wrap. Otherwise the op gives a new tensor of its type.
    RankedTensorType result = op.getResultType();
    Value all;
    for (int64_t d = 0; d < result.getRank(); ++d) {
      if (result.isDynamicDim(d))
        continue;
      Value low = getValueOrCreateConstantIndexOp(b, loc, pads[0][d]);
      Value high = getValueOrCreateConstantIndexOp(b, loc, pads[1][d]);
      if (matchPattern(low, m_Constant()) && matchPattern(high, m_Constant()) &&
          !op.getSourceType().isDynamicDim(d))
        continue; // the verifier's
      Value size = arith::ConstantIndexOp::create(b, loc, result.getDimSize(d));
      Value padded = arith::AddIOp::create(
          b, loc, arith::AddIOp::create(b, loc, low, high),
          tensor::DimOp::create(b, loc, op.getSource(), d));
      auto le = [&](Value l, Value r) -> Value {
        return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, l, r);
      };
      Value ok = arith::AndIOp::create(
          b, loc, arith::AndIOp::create(b, loc, le(low, size), le(high, size)),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, padded,
                                size));
      reportUnless(b, loc, ok, report, ATTIC_RT_ALLOC_SIZE, line + 7,
                   arith::ConstantIndexOp::create(b, loc, d), padded);
      all = all ? arith::AndIOp::create(b, loc, all, ok).getResult() : ok;
    }
    op->setAttr(kGuarded, b.getUnitAttr());
    if (all)
      replaceUnless(b, op, all);
  }

  /// `product` times `size` (index values), and-ing into `ok` that the
  /// size is at least 0 and the product does not overflow: the high half
  /// of the unsigned product 0 and its low half at least 0 (no division,
  /// which attic-guard-integer-division would guard in turn).
  static void multiplyChecked(OpBuilder &b, Location loc, Value &product,
                              Value &ok, Value size) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    auto atLeast0 = [&](Value v) -> Value {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, v, zero);
    };
    auto wide = arith::MulUIExtendedOp::create(b, loc, product, size);
    Value fits = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, wide.getHigh(),
                              zero),
        atLeast0(wide.getLow()));
    ok = arith::AndIOp::create(
        b, loc, ok, arith::AndIOp::create(b, loc, fits, atLeast0(size)));
    product = wide.getLow();
  }

  /// The dynamic size operands of a tensor.empty, tensor.splat,
  /// tensor.generate or memref.alloc (none: nothing to check).
  static MutableOperandRange allocSizes(Operation *op) {
    if (auto empty = dyn_cast<tensor::EmptyOp>(op))
      return empty.getDynamicSizesMutable();
    if (auto alloc = dyn_cast<bufferization::AllocTensorOp>(op))
      return alloc.getDynamicSizesMutable();
    if (auto splat = dyn_cast<tensor::SplatOp>(op))
      return splat.getDynamicSizesMutable();
    if (auto generate = dyn_cast<tensor::GenerateOp>(op))
      return generate.getDynamicExtentsMutable();
    return cast<memref::AllocOp>(op).getDynamicSizesMutable();
  }

  /// Whether an allocation has a dynamic size that is not a constant, or
  /// constants whose bytes (with the static sizes) take 2^63 or more, or
  /// a negative one (the guards' own replacements allocate with constant
  /// sizes 0, which need nothing).
  /// The bytes of an element of `type` (a complex or vector element: its
  /// size in memory; 8 for others, a pointer).
  static int64_t elementBytes(ShapedType type) {
    Type element = type.getElementType();
    int64_t lanes = 1;
    if (auto vector = dyn_cast<VectorType>(element)) {
      lanes = vector.getNumElements();
      element = vector.getElementType();
    }
    if (auto complex = dyn_cast<ComplexType>(element)) {
      lanes *= 2;
      element = complex.getElementType();
    }
    int64_t bits =
        element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
    return std::max<int64_t>(1, (bits + 7) / 8) * lanes;
  }

  /// The element bytes times the static sizes (128 bits: no overflow).
  static llvm::APInt staticBytes(Operation *op) {
    auto type = cast<ShapedType>(op->getResult(0).getType());
    llvm::APInt bytes(128, elementBytes(type));
    for (int64_t size : type.getShape())
      if (!ShapedType::isDynamic(size))
        bytes *= llvm::APInt(128, size);
    return bytes;
  }

  /// Whether the static sizes alone take 2^63 bytes or more (a compile-time
  /// error: 4 * 2^62 wrapped to 0, and the allocation segfaulted; a
  /// review).
  static bool staticBytesOverflow(Operation *op) {
    return staticBytes(op).getActiveBits() > 63;
  }

  static bool allocNeedsCheck(Operation *op) {
    llvm::APInt bytes = staticBytes(op);
    for (OpOperand &operand : allocSizes(op)) {
      APInt value;
      if (!matchPattern(operand.get(), m_ConstantInt(&value)) ||
          value.isNegative())
        return true;
      bytes *= value.zext(128);
      if (bytes.getActiveBits() > 63)
        return true;
    }
    return false;
  }

  /// An allocation whose sizes from the data are negative, or whose byte
  /// count takes 2^63 or more: the lowering's byte count wrapped, a small
  /// buffer was allocated and written past (tensor.empty of 2^62 f32
  /// segfaulted; an audit). Reported (ATTIC_RT_ALLOC_SIZE), and the sizes
  /// become 0.
  static void guardAllocSizes(Operation *op, func::FuncOp report) {
    Location loc = op->getLoc();
    OpBuilder b(op);
    auto type = cast<ShapedType>(op->getResult(0).getType());
    int64_t kind = isa<tensor::EmptyOp>(op)                ? 0
                   : isa<tensor::SplatOp>(op)              ? 1
                   : isa<tensor::GenerateOp>(op)           ? 2
                   : isa<bufferization::AllocTensorOp>(op) ? 4
                                                           : 3;
    int64_t code = attic::sourceLineOf(loc) * 64 + kind;
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    // The bytes of the static sizes (below 2^63: staticBytesOverflow), then
    // each dynamic size: no overflow in the unsigned product, and the low
    // half at least 0.
    Value bytes = arith::ConstantIndexOp::create(
        b, loc, int64_t(staticBytes(op).getZExtValue()));
    Value fits = arith::ConstantIntOp::create(b, loc, 1, 1);
    Value negativeDim = arith::ConstantIndexOp::create(b, loc, -1);
    Value negativeSize = zero;
    MutableOperandRange sizes = allocSizes(op);
    SmallVector<Value> values;
    for (OpOperand &operand : sizes)
      values.push_back(operand.get());
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      if (!type.isDynamicDim(d))
        continue;
      Value size = values[type.getDynamicDimIndex(d)];
      Value negative =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, size, zero);
      // The first negative dimension (scanning down from the last).
      negativeDim = arith::SelectOp::create(
          b, loc, negative, arith::ConstantIndexOp::create(b, loc, d),
          negativeDim);
      negativeSize =
          arith::SelectOp::create(b, loc, negative, size, negativeSize);
      multiplyChecked(b, loc, bytes, fits, size);
    }
    Value ok = arith::AndIOp::create(
        b, loc, fits,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, negativeDim,
                              arith::ConstantIndexOp::create(b, loc, -1)));
    reportUnless(b, loc, ok, report, ATTIC_RT_ALLOC_SIZE, code, negativeDim,
                 negativeSize);
    SmallVector<Value> safe;
    for (Value size : values)
      safe.push_back(arith::SelectOp::create(b, loc, ok, size, zero));
    sizes.assign(safe);
    op->setAttr(kGuarded, b.getUnitAttr());
  }

  /// Whether the product of sizes that multiplyChecked made (`ok`: no
  /// size negative, no overflow) is `expected`; reported otherwise
  /// (ATTIC_RT_RESHAPE_SIZE, `code`, with `expected` and the product, -1
  /// where it is not defined).
  static Value productMatches(OpBuilder &b, Location loc, Value product,
                              Value ok, Value expected, func::FuncOp report,
                              int64_t code) {
    Value same = arith::AndIOp::create(
        b, loc, ok,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, product,
                              expected));
    Value reported = arith::SelectOp::create(
        b, loc, ok, product, arith::ConstantIndexOp::create(b, loc, -1));
    reportUnless(b, loc, same, report, ATTIC_RT_RESHAPE_SIZE, code, expected,
                 reported);
    return same;
  }

  /// tensor.reshape with a shape from the data: the shape's entries must
  /// be at least 0, multiply to the operand's elements, and equal the
  /// result type's static sizes (upstream it is undefined: a 2x3 operand
  /// reshaped to 4x4 read 10 elements past it with exit 0; an audit).
  /// Reported (ATTIC_RT_RESHAPE_SIZE), and the op then gives a new tensor
  /// of its type, its dynamic sizes 0.
  void guardTensorReshape(tensor::ReshapeOp op, func::FuncOp report) {
    Location loc = op.getLoc();
    OpBuilder b(op);
    auto source = cast<RankedTensorType>(op.getSource().getType());
    auto result = cast<RankedTensorType>(op.getResult().getType());
    int64_t code = attic::sourceLineOf(loc) * 64;
    Value elements = arith::ConstantIndexOp::create(b, loc, 1);
    for (int64_t d = 0; d < source.getRank(); ++d)
      elements = arith::MulIOp::create(
          b, loc, elements, tensor::DimOp::create(b, loc, op.getSource(), d));
    Value product = arith::ConstantIndexOp::create(b, loc, 1);
    Value ok = arith::ConstantIntOp::create(b, loc, 1, 1);
    Value all = arith::ConstantIntOp::create(b, loc, 1, 1);
    for (int64_t d = 0; d < result.getRank(); ++d) {
      auto entry = tensor::ExtractOp::create(
          b, loc, op.getShape(),
          ValueRange{arith::ConstantIndexOp::create(b, loc, d)});
      entry->setAttr(kGuarded, b.getUnitAttr()); // d < the shape's length
      Value size = entry;
      if (!size.getType().isIndex())
        size = arith::IndexCastOp::create(b, loc, b.getIndexType(), size);
      if (!result.isDynamicDim(d)) {
        Value expected =
            arith::ConstantIndexOp::create(b, loc, result.getDimSize(d));
        Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           size, expected);
        reportUnless(b, loc, same, report, ATTIC_RT_RESHAPE_SIZE,
                     code + 40 + std::min<int64_t>(d, 15), size, expected);
        all = arith::AndIOp::create(b, loc, all, same);
      }
      multiplyChecked(b, loc, product, ok, size);
    }
    all = arith::AndIOp::create(
        b, loc, all,
        productMatches(b, loc, product, ok, elements, report, code + 32));
    op->setAttr(kGuarded, b.getUnitAttr());
    replaceUnless(b, op, all);
  }

  /// The groups of a tensor.expand_shape whose sizes the verifier could
  /// not match (a dynamic size on either side). A collapse_shape needs
  /// none: its verifier makes a group with a dynamic size dynamic in the
  /// result, which is then the product by definition.
  static SmallVector<int64_t> reshapeChecks(tensor::ExpandShapeOp op) {
    SmallVector<int64_t> checks;
    for (auto [g, group] : llvm::enumerate(op.getReassociationIndices())) {
      bool dynamic = op.getSrcType().isDynamicDim(g);
      for (int64_t d : group)
        dynamic |= op.getResultType().isDynamicDim(d);
      if (dynamic)
        checks.push_back(int64_t(g));
    }
    return checks;
  }

  /// A tensor.expand_shape of a rank-0 operand into a type with dynamic
  /// sizes: every size must be 1, which the tensor verifier leaves to run
  /// time and memref.expand_shape's verifier demands of the type (the
  /// lowering failed with upstream's "rank 0 memrefs can only be
  /// extended/collapsed with/from ones").
  static bool dynamicFromScalar(tensor::ExpandShapeOp op) {
    return op.getSrcType().getRank() == 0 &&
           !op.getResultType().hasStaticShape();
  }

  /// A tensor.expand_shape with dynamic sizes: per group, the operand's
  /// size must be the product of the output sizes (upstream a difference
  /// is undefined: an expand_shape of a 5-element slice into
  /// [ceil(5/4), 4] returned 4 elements of it with exit 0; an audit).
  /// Each difference (or a negative output size, or a product that
  /// overflows) is reported (ATTIC_RT_RESHAPE_SIZE), and the op then gives
  /// a new tensor of its type, its dynamic sizes 0, as a cast does
  /// (guardCast: under an scf.if, or chosen with arith.select with
  /// `branch-free`).
  void guardReshape(tensor::ExpandShapeOp op, func::FuncOp report) {
    Location loc = op.getLoc();
    OpBuilder b(op);
    SmallVector<OpFoldResult> outputSizes = op.getMixedOutputShape();
    SmallVector<ReassociationIndices> groups = op.getReassociationIndices();
    int64_t code = attic::sourceLineOf(loc) * 64;
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value all = arith::ConstantIntOp::create(b, loc, 1, 1);
    for (int64_t g : reshapeChecks(op)) {
      Value sourceSize = tensor::DimOp::create(b, loc, op.getSrc(), g);
      // The product of sizes >= 0 without overflow: the high half of the
      // unsigned product 0 and its low half >= 0 (no division, which
      // attic-guard-integer-division would guard in turn).
      Value product = one;
      Value ok = arith::ConstantIntOp::create(b, loc, 1, 1);
      for (int64_t d : groups[g]) {
        Value size = getValueOrCreateConstantIndexOp(b, loc, outputSizes[d]);
        multiplyChecked(b, loc, product, ok, size);
      }
      all = arith::AndIOp::create(
          b, loc, all,
          productMatches(b, loc, product, ok, sourceSize, report,
                         code + std::min<int64_t>(g, 31)));
    }
    if (dynamicFromScalar(op)) {
      // The sizes multiply to the operand's one element (so each is 1);
      // the op then expands into ones and the result is cast to its type.
      Value product = one;
      Value ok = arith::ConstantIntOp::create(b, loc, 1, 1);
      for (OpFoldResult size : outputSizes)
        multiplyChecked(b, loc, product, ok,
                        getValueOrCreateConstantIndexOp(b, loc, size));
      all = arith::AndIOp::create(
          b, loc, all,
          productMatches(b, loc, product, ok, one, report, code + 33));
      RankedTensorType type = op.getResultType();
      auto ones = tensor::ExpandShapeOp::create(
          b, loc, type.clone(SmallVector<int64_t>(type.getRank(), 1)),
          op.getSrc(), ArrayRef<ReassociationIndices>{});
      ones->setAttr(kGuarded, b.getUnitAttr());
      auto cast = tensor::CastOp::create(b, loc, type, ones.getResult());
      cast->setAttr(kGuarded, b.getUnitAttr());
      op.getResult().replaceAllUsesWith(cast.getResult());
      op.erase();
      b.setInsertionPoint(cast);
      replaceUnless(b, cast, all);
      return;
    }
    op->setAttr(kGuarded, b.getUnitAttr());
    replaceUnless(b, op, all);
  }

  /// Makes `op` (one ranked tensor result) give a new tensor of its type,
  /// its dynamic sizes 0, where `ok` does not hold: `op` under an scf.if,
  /// or, with `branch-free`, the tensor allocated in front and chosen with
  /// arith.select. `b` is in front of `op`.
  void replaceUnless(OpBuilder &b, Operation *op, Value ok) {
    Location loc = op->getLoc();
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    auto emptyOf = [&](OpBuilder &nb) -> Value {
      SmallVector<Value> dynamicSizes;
      if (type.getNumDynamicDims() > 0)
        dynamicSizes.assign(type.getNumDynamicDims(),
                            arith::ConstantIndexOp::create(nb, loc, 0));
      return tensor::EmptyOp::create(nb, loc, type.getShape(),
                                     type.getElementType(), dynamicSizes,
                                     type.getEncoding());
    };
    if (branchFree) {
      Value empty = emptyOf(b);
      b.setInsertionPointAfter(op);
      Value picked =
          arith::SelectOp::create(b, loc, ok, op->getResult(0), empty);
      op->getResult(0).replaceAllUsesExcept(picked, picked.getDefiningOp());
      return;
    }
    OpBuilder otherwise = underIf(b, op, ok);
    scf::YieldOp::create(otherwise, loc, emptyOf(otherwise));
  }

  /// Whether a cast claims a size its operand's type does not: a static
  /// dimension of a dynamic one, or any rank of an unranked operand.
  static bool castNeedsCheck(Operation *op) {
    auto from = cast<ShapedType>(op->getOperand(0).getType());
    auto to = cast<ShapedType>(op->getResult(0).getType());
    if (!to.hasRank())
      return false;
    if (!from.hasRank())
      return true;
    for (int64_t d = 0; d < to.getRank(); ++d)
      if (!to.isDynamicDim(d) && from.isDynamicDim(d))
        return true;
    return !layoutClaims(op).empty();
  }

  /// The static strides (dimension d) and offset (-1) of a memref.cast's
  /// type that its ranked operand's strided layout has dynamic: a cast
  /// to memref<4xf32> of a subview whose stride came from the data read
  /// the first 4 elements with exit 0 (a review).
  /// Through an unranked operand every static stride and the static
  /// offset are claims (a cast chain through memref<*xf32> let the strided
  /// view through; a review). A stride of a dimension of static size 1,
  /// and any layout of an empty type, addresses nothing and is no claim.
  /// None in a gpu.launch body, whose accesses through the cast are
  /// checked against its operand (the GPU simulator has no
  /// extract_strided_metadata).
  static SmallVector<int64_t> layoutClaims(Operation *op) {
    Type fromType = op->getOperand(0).getType();
    auto to = dyn_cast<MemRefType>(op->getResult(0).getType());
    SmallVector<int64_t> claims;
    if (!to || !isa<MemRefType, UnrankedMemRefType>(fromType) ||
        op->getParentOfType<gpu::LaunchOp>() ||
        llvm::is_contained(to.getShape(), 0))
      return claims;
    SmallVector<int64_t> fromStrides(to.getRank(), ShapedType::kDynamic),
        toStrides;
    int64_t fromOffset = ShapedType::kDynamic, toOffset;
    if (auto from = dyn_cast<MemRefType>(fromType))
      if (failed(from.getStridesAndOffset(fromStrides, fromOffset)))
        return claims;
    if (failed(to.getStridesAndOffset(toStrides, toOffset)))
      return claims;
    for (int64_t d = 0; d < to.getRank(); ++d)
      if (!ShapedType::isDynamic(toStrides[d]) &&
          ShapedType::isDynamic(fromStrides[d]) && to.getDimSize(d) != 1)
        claims.push_back(d);
    if (!ShapedType::isDynamic(toOffset) && ShapedType::isDynamic(fromOffset))
      claims.push_back(-1);
    return claims;
  }

  /// A tensor.cast or memref.cast to static sizes (or from an unranked
  /// operand): each size (the rank first) is compared with the operand's
  /// at run time, a difference is reported (ATTIC_RT_CAST_SIZE), and the
  /// cast then gives a new tensor (tensor.empty) or buffer (memref.alloc,
  /// not freed: the run has failed) of its type, its dynamic sizes 0, so
  /// that nothing reads or copies past the operand (upstream such a cast
  /// is undefined; a returned tensor.cast of a 2-element slice to
  /// tensor<4xf32> gave 2 elements of garbage with exit 0, one of 1000
  /// corrupted the heap; a 2026-12-01 audit). With `branch-free`, the
  /// tensor is allocated in front of the cast and chosen with
  /// arith.select. In a gpu.launch body, where nothing can be allocated,
  /// and for a memref.cast with `branch-free`, the difference is reported
  /// only (the accesses through the cast are checked against its operand).
  void guardCast(Operation *op, func::FuncOp report) {
    Location loc = op->getLoc();
    OpBuilder b(op);
    Value source = op->getOperand(0);
    auto from = cast<ShapedType>(source.getType());
    auto to = cast<ShapedType>(op->getResult(0).getType());
    bool isMemref = isa<memref::CastOp>(op);
    int64_t code = attic::sourceLineOf(loc) * 64 + (isMemref ? 32 : 0);
    auto checkSizes = [&](OpBuilder &nb) -> Value {
      Value all = arith::ConstantIntOp::create(nb, loc, 1, 1);
      for (int64_t d = 0; d < to.getRank(); ++d) {
        if (to.isDynamicDim(d) || (from.hasRank() && !from.isDynamicDim(d)))
          continue;
        Operation *dim =
            isMemref ? memref::DimOp::create(nb, loc, source, d).getOperation()
                     : tensor::DimOp::create(nb, loc, source, d).getOperation();
        // An unranked operand's rank is checked in front.
        if (!from.hasRank())
          dim->setAttr(kGuarded, nb.getUnitAttr());
        Value size = dim->getResult(0);
        Value expected =
            arith::ConstantIndexOp::create(nb, loc, to.getDimSize(d));
        Value same = arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::eq,
                                           size, expected);
        // Behind a tensor.expand_shape (normalizeExpandShapes): its
        // output size operand d, reported as the expand_shape's.
        if (op->hasAttr(attic::kExpandShapeSizeCast))
          reportUnless(nb, loc, same, report, ATTIC_RT_RESHAPE_SIZE,
                       attic::sourceLineOf(loc) * 64 + 56 +
                           std::min<int64_t>(d, 7),
                       size, expected);
        else
          reportUnless(nb, loc, same, report, ATTIC_RT_CAST_SIZE,
                       code + std::min<int64_t>(d, 15), size, expected);
        all = arith::AndIOp::create(nb, loc, all, same);
      }
      // A memref's static strides and offset (ranked operands).
      SmallVector<int64_t> claims = layoutClaims(op);
      if (claims.empty())
        return all;
      Value ranked = source;
      if (!from.hasRank()) {
        // Viewed with the type's rank and a fully dynamic layout (the rank
        // is checked in front).
        int64_t rank = to.getRank();
        auto layout = StridedLayoutAttr::get(
            nb.getContext(), ShapedType::kDynamic,
            SmallVector<int64_t>(rank, ShapedType::kDynamic));
        auto view = memref::CastOp::create(
            nb, loc,
            MemRefType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                            to.getElementType(), layout,
                            cast<MemRefType>(to).getMemorySpace()),
            source);
        view->setAttr(kGuarded, nb.getUnitAttr());
        ranked = view;
      }
      auto metadata = memref::ExtractStridedMetadataOp::create(nb, loc, ranked);
      SmallVector<int64_t> toStrides;
      int64_t toOffset;
      (void)cast<MemRefType>(to).getStridesAndOffset(toStrides, toOffset);
      for (int64_t d : claims) {
        Value actual = d < 0 ? Value(metadata.getOffset())
                             : Value(metadata.getStrides()[d]);
        Value expected = arith::ConstantIndexOp::create(
            nb, loc, d < 0 ? toOffset : toStrides[d]);
        Value same = arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::eq,
                                           actual, expected);
        reportUnless(nb, loc, same, report, ATTIC_RT_CAST_SIZE,
                     code + (d < 0 ? 30 : 16 + std::min<int64_t>(d, 13)),
                     actual, expected);
        all = arith::AndIOp::create(nb, loc, all, same);
      }
      return all;
    };
    Value ok;
    if (from.hasRank()) {
      ok = checkSizes(b);
    } else {
      // The sizes are read only where the rank is the type's.
      Value rank = isMemref ? Value(memref::RankOp::create(b, loc, source))
                            : Value(tensor::RankOp::create(b, loc, source));
      Value expected = arith::ConstantIndexOp::create(b, loc, to.getRank());
      Value sameRank = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             rank, expected);
      reportUnless(b, loc, sameRank, report, ATTIC_RT_CAST_SIZE, code + 31,
                   rank, expected);
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{b.getI1Type()}, sameRank,
                                    /*withElseRegion=*/true);
      OpBuilder then = ifOp.getThenBodyBuilder();
      scf::YieldOp::create(then, loc, checkSizes(then));
      OpBuilder otherwise = ifOp.getElseBodyBuilder();
      scf::YieldOp::create(
          otherwise, loc,
          arith::ConstantIntOp::create(otherwise, loc, 0, 1).getResult());
      ok = ifOp.getResult(0);
    }
    op->setAttr(kGuarded, b.getUnitAttr());
    if (op->getParentOfType<gpu::LaunchOp>() || (isMemref && branchFree))
      return;
    if (!isMemref) {
      replaceUnless(b, op, ok);
      return;
    }
    // A memref replacement: a buffer that covers the type's layout (its
    // dynamic sizes 0, dynamic strides 1, dynamic offset 0), viewed as the
    // type by memref.reinterpret_cast. Not for layouts that are not
    // strided, have a negative stride or an extent that overflows: those
    // are reported only.
    auto memrefType = cast<MemRefType>(to);
    SmallVector<int64_t> sizes, strides;
    int64_t offset = 0, extent = 1;
    if (failed(memrefType.getStridesAndOffset(strides, offset)))
      return;
    offset = ShapedType::isDynamic(offset) ? 0 : offset;
    bool overflow = offset < 0;
    extent = offset + 1;
    for (int64_t d = 0; d < memrefType.getRank(); ++d) {
      int64_t size = memrefType.isDynamicDim(d) ? 0 : memrefType.getDimSize(d);
      int64_t stride = ShapedType::isDynamic(strides[d]) ? 1 : strides[d];
      sizes.push_back(size);
      strides[d] = stride;
      int64_t reach = 0;
      overflow |=
          stride < 0 ||
          llvm::MulOverflow(std::max<int64_t>(size - 1, 0), stride, reach) ||
          llvm::AddOverflow(extent, reach, extent);
    }
    if (overflow)
      return;
    OpBuilder otherwise = underIf(b, op, ok);
    Value buffer = memref::AllocOp::create(
        otherwise, loc,
        MemRefType::get({extent}, memrefType.getElementType(),
                        MemRefLayoutAttrInterface(),
                        memrefType.getMemorySpace()));
    // Static where the type is (the verifier compares them), values where
    // it is dynamic.
    auto entry = [&](int64_t value, bool dynamic) -> OpFoldResult {
      if (dynamic)
        return arith::ConstantIndexOp::create(otherwise, loc, value)
            .getResult();
      return otherwise.getIndexAttr(value);
    };
    SmallVector<int64_t> typeStrides;
    int64_t typeOffset;
    (void)memrefType.getStridesAndOffset(typeStrides, typeOffset);
    SmallVector<OpFoldResult> sizeValues, strideValues;
    for (int64_t d = 0; d < memrefType.getRank(); ++d) {
      sizeValues.push_back(entry(sizes[d], memrefType.isDynamicDim(d)));
      strideValues.push_back(
          entry(strides[d], ShapedType::isDynamic(typeStrides[d])));
    }
    Value view = memref::ReinterpretCastOp::create(
        otherwise, loc, memrefType, buffer,
        entry(offset, ShapedType::isDynamic(typeOffset)), sizeValues,
        strideValues);
    scf::YieldOp::create(otherwise, loc, view);
  }

  /// The functions that attic ops name (ownCode).
  llvm::DenseSet<StringRef> modifierFunctions;

  /// A function that an attic op names and host code calls too: the calls
  /// go to a private copy, which is checked as the module's own code (the
  /// modifier check covers the attic op's uses only; a host call at a key
  /// index from the data read past the capture; a 2026-11-30 audit).
  void separateHostCalls() {
    ModuleOp module = getOperation();
    SymbolTable table(module);
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      if (modifierFunctions.contains(call.getCallee()) &&
          !attic::insideAtticOp(call))
        calls.push_back(call);
    });
    llvm::DenseMap<StringRef, func::FuncOp> copies;
    for (func::CallOp call : calls) {
      auto callee = table.lookup<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal())
        continue;
      func::FuncOp &copy = copies[callee.getName()];
      if (!copy) {
        copy = callee.clone();
        copy.setPrivate();
        copy->removeAttr("attic.modifier");
        copy.setName((callee.getName() + "_host").str());
        table.insert(copy, std::next(Block::iterator(callee)));
      }
      call.setCalleeAttr(FlatSymbolRefAttr::get(copy));
    }
  }

  /// tensor.dim or memref.dim with an index known at run time only:
  /// outside [0, rank) it reports ATTIC_RT_DIM_INDEX and gives 0, reading
  /// dimension 0 (the verifiers refuse a dim of rank 0).
  static void guardDim(Operation *dim, func::FuncOp report) {
    Location loc = dim->getLoc();
    OpBuilder b(dim);
    Value source = dim->getOperand(0);
    auto type = cast<ShapedType>(source.getType());
    Value index = dim->getOperand(1);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    // An unranked operand's rank from its descriptor (its dim was never
    // checked: a dimension index of 3 read a pointer; an audit).
    Value rankValue =
        type.hasRank()
            ? Value(arith::ConstantIndexOp::create(b, loc, type.getRank()))
        : isa<MemRefType, UnrankedMemRefType>(type)
            ? Value(memref::RankOp::create(b, loc, source))
            : Value(tensor::RankOp::create(b, loc, source));
    Value inside = inRange(b, loc, index, zero, rankValue);
    reportUnless(b, loc, inside, report, ATTIC_RT_DIM_INDEX,
                 attic::sourceLineOf(loc) * 64 +
                     (isa<memref::DimOp>(dim) ? 1 : 0),
                 index, rankValue);
    Value result = dim->getResult(0);
    dim->setOperand(1, arith::SelectOp::create(b, loc, inside, index, zero));
    dim->setAttr(kGuarded, b.getUnitAttr());
    b.setInsertionPointAfter(dim);
    Value picked = arith::SelectOp::create(b, loc, inside, result, zero);
    result.replaceAllUsesExcept(picked, picked.getDefiningOp());
  }

  /// The offsets, sizes and strides of a slice op, and the tensor they
  /// address (extract_slice's source, insert_slice's destination).
  static void sliceParts(Operation *op, Value &tensor,
                         SmallVector<OpFoldResult> &offsets,
                         SmallVector<OpFoldResult> &sizes,
                         SmallVector<OpFoldResult> &strides) {
    if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op)) {
      tensor = extract.getSource();
      offsets = extract.getMixedOffsets();
      sizes = extract.getMixedSizes();
      strides = extract.getMixedStrides();
      return;
    }
    if (auto parallel = dyn_cast<tensor::ParallelInsertSliceOp>(op)) {
      tensor = parallel.getDest();
      offsets = parallel.getMixedOffsets();
      sizes = parallel.getMixedSizes();
      strides = parallel.getMixedStrides();
      return;
    }
    auto insert = cast<tensor::InsertSliceOp>(op);
    tensor = insert.getDest();
    offsets = insert.getMixedOffsets();
    sizes = insert.getMixedSizes();
    strides = insert.getMixedStrides();
  }

  /// Whether dimension d of a slice is known inside: offset, size and
  /// stride constant or of known ranges, in a static dimension, with
  /// offset + (size - 1) stride < dim for the largest of each (the
  /// smallest offset and size at least 0, stride at least 1).
  static bool sliceDimInside(RankedTensorType type, int64_t d,
                             OpFoldResult offset, OpFoldResult size,
                             OpFoldResult stride) {
    auto o = rangeOf(offset), n = rangeOf(size), t = rangeOf(stride);
    if (!o || !n || !t || type.isDynamicDim(d))
      return false;
    int64_t dim = type.getDimSize(d);
    if (o->first < 0 || n->first < 0 || t->first < 1)
      return false;
    return n->second == 0 ||
           (o->second < dim &&
            n->second - 1 <= (dim - 1 - o->second) / t->second);
  }

  static bool sliceProvablyInside(Operation *op) {
    Value tensor;
    SmallVector<OpFoldResult> offsets, sizes, strides;
    sliceParts(op, tensor, offsets, sizes, strides);
    auto type = cast<RankedTensorType>(tensor.getType());
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (!sliceDimInside(type, d, offsets[d], sizes[d], strides[d]))
        return false;
    return true;
  }

  /// Whether a slice of these sizes and strides at offset 0 is inside a
  /// tensor of `type` in every dimension: static sizes, static strides of
  /// at least 1 and a static tensor dimension they fit in.
  static bool offsetZeroFits(OpBuilder &b, RankedTensorType type,
                             ArrayRef<OpFoldResult> sizes,
                             ArrayRef<OpFoldResult> strides) {
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (!getConstantIntValue(sizes[d]) || !getConstantIntValue(strides[d]) ||
          !sliceDimInside(type, d, b.getIndexAttr(0), sizes[d], strides[d]))
        return false;
    return true;
  }

  /// Reports each dimension of a slice that reaches outside its tensor
  /// (ATTIC_RT_SLICE_BOUNDS) and then takes nothing outside: an
  /// extract_slice gives a tensor.empty of its sizes (negative ones 0), an
  /// insert_slice leaves the destination unchanged.
  static void guardSlice(Operation *op, func::FuncOp report) {
    Location loc = op->getLoc();
    // A parallel_insert_slice's checks go before the scf.forall.in_parallel
    // that holds it (which takes nothing else).
    auto parallel = dyn_cast<tensor::ParallelInsertSliceOp>(op);
    OpBuilder b(parallel ? op->getParentOp() : op);
    Value tensor;
    SmallVector<OpFoldResult> offsets, sizes, strides;
    sliceParts(op, tensor, offsets, sizes, strides);
    auto type = cast<RankedTensorType>(tensor.getType());
    bool insert = isa<tensor::InsertSliceOp, tensor::ParallelInsertSliceOp>(op);
    // Dimensions up to 31 (an extract) or 15 (an insert: 16 marks a
    // parallel one), a later one reported as the last.
    int64_t code =
        attic::sourceLineOf(loc) * 64 + (insert ? 32 : 0) + (parallel ? 16 : 0);
    int64_t lastDim = insert ? 15 : 31;
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value all;
    auto cmp = [&](arith::CmpIPredicate p, Value l, Value r) -> Value {
      return arith::CmpIOp::create(b, loc, p, l, r);
    };
    auto andI = [&](Value l, Value r) -> Value {
      return arith::AndIOp::create(b, loc, l, r);
    };
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (sliceDimInside(type, d, offsets[d], sizes[d], strides[d]))
        continue;
      Value offset = getValueOrCreateConstantIndexOp(b, loc, offsets[d]);
      Value size = getValueOrCreateConstantIndexOp(b, loc, sizes[d]);
      Value stride = getValueOrCreateConstantIndexOp(b, loc, strides[d]);
      Value dim = tensor::DimOp::create(b, loc, tensor, d);
      // offset + (size - 1) stride < dim, as (size - 1) <= (dim - 1 -
      // offset) / stride (no overflow at huge strides; a stride below 1 is
      // outside anyway, divided by 1 here).
      Value positive = cmp(arith::CmpIPredicate::sge, stride, one);
      Value divisor = arith::SelectOp::create(b, loc, positive, stride, one);
      Value room = arith::DivSIOp::create(
          b, loc,
          arith::SubIOp::create(b, loc, arith::SubIOp::create(b, loc, dim, one),
                                offset),
          divisor);
      Value fits = andI(cmp(arith::CmpIPredicate::slt, offset, dim),
                        cmp(arith::CmpIPredicate::sle,
                            arith::SubIOp::create(b, loc, size, one), room));
      Value ok = andI(
          andI(cmp(arith::CmpIPredicate::sge, offset, zero),
               cmp(arith::CmpIPredicate::sge, size, zero)),
          andI(positive,
               arith::OrIOp::create(
                   b, loc, cmp(arith::CmpIPredicate::eq, size, zero), fits)));
      reportUnless(b, loc, ok, report, ATTIC_RT_SLICE_BOUNDS,
                   code + std::min<int64_t>(d, lastDim), offset, dim);
      all = all ? andI(all, ok) : ok;
    }
    op->setAttr(kGuarded, b.getUnitAttr());
    if (!all)
      return;
    if (parallel) {
      guardParallelInsert(b, parallel, all);
      return;
    }
    Type resultType = op->getResult(0).getType();
    if (!insert && offsetZeroFits(b, type, sizes, strides)) {
      // Every offset 0 is inside: take the slice there when outside (its
      // contents do not matter, the run reports an error), without a
      // branch and its allocation, which the GPU offload cannot take.
      SmallVector<OpFoldResult> safe(offsets);
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (!sliceDimInside(type, d, offsets[d], sizes[d], strides[d]))
          safe[d] =
              arith::SelectOp::create(
                  b, loc, all,
                  getValueOrCreateConstantIndexOp(b, loc, offsets[d]), zero)
                  .getResult();
      auto slice = tensor::ExtractSliceOp::create(
          b, loc, cast<RankedTensorType>(resultType), tensor, safe, sizes,
          strides);
      slice->setAttr(kGuarded, b.getUnitAttr());
      op->replaceAllUsesWith(slice);
      op->erase();
      return;
    }
    OpBuilder otherwise = underIf(b, op, all);
    if (insert) {
      scf::YieldOp::create(otherwise, loc, tensor);
      return;
    }
    // The result's dynamic sizes, in the result's dims (a rank-reduced
    // result drops unit dims), at least 0.
    auto extract = cast<tensor::ExtractSliceOp>(op);
    auto result = cast<RankedTensorType>(resultType);
    llvm::SmallBitVector dropped = extract.getDroppedDims();
    SmallVector<Value> dynamicSizes;
    int64_t r = 0;
    for (int64_t d = 0; d < int64_t(sizes.size()); ++d) {
      if (dropped.test(d))
        continue;
      if (result.isDynamicDim(r))
        dynamicSizes.push_back(arith::MaxSIOp::create(
            otherwise, loc,
            getValueOrCreateConstantIndexOp(otherwise, loc, sizes[d]),
            arith::ConstantIndexOp::create(otherwise, loc, 0)));
      ++r;
    }
    Value empty =
        tensor::EmptyOp::create(otherwise, loc, result.getShape(),
                                result.getElementType(), dynamicSizes);
    scf::YieldOp::create(otherwise, loc, empty);
  }

  /// A tensor.parallel_insert_slice outside its destination (reported):
  /// it inserts nothing instead, as a slice of its sizes with the kept
  /// (not rank-reduced) ones 0 at offset 0 and stride 1, from an empty
  /// tensor. It cannot go under an scf.if (scf.forall.in_parallel holds
  /// only such inserts); unchecked, it wrote past the buffer or
  /// segfaulted (an audit).
  static void guardParallelInsert(OpBuilder &b,
                                  tensor::ParallelInsertSliceOp op, Value ok) {
    Location loc = op.getLoc();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto pick = [&](OpFoldResult value, Value otherwise) -> OpFoldResult {
      return arith::SelectOp::create(
                 b, loc, ok, getValueOrCreateConstantIndexOp(b, loc, value),
                 otherwise)
          .getResult();
    };
    llvm::SmallBitVector dropped = op.getDroppedDims();
    Value original = op.getSource();
    // Every dimension dropped (a tensor<f32> into %o[%i]): the last one is
    // kept, the source viewed as tensor<1xT>, so that it can take size 0
    // (one element was written at offset 0 otherwise; a review).
    if (dropped.size() > 0 && dropped.all()) {
      dropped.reset(dropped.size() - 1);
      original = tensor::ExpandShapeOp::create(
          b, loc,
          RankedTensorType::get({1}, op.getSourceType().getElementType()),
          original, ArrayRef<ReassociationIndices>{});
    }
    SmallVector<OpFoldResult> offsets, sizes, strides;
    SmallVector<OpFoldResult> sourceOffsets, sourceSizes, sourceStrides;
    SmallVector<int64_t> sourceShape;
    for (auto [d, offset, size, stride] : llvm::enumerate(
             op.getMixedOffsets(), op.getMixedSizes(), op.getMixedStrides())) {
      offsets.push_back(pick(offset, zero));
      strides.push_back(pick(stride, one));
      if (dropped.test(d)) {
        sizes.push_back(size); // 1
        continue;
      }
      sizes.push_back(pick(size, zero));
      sourceOffsets.push_back(b.getIndexAttr(0));
      sourceSizes.push_back(sizes.back());
      sourceStrides.push_back(b.getIndexAttr(1));
      sourceShape.push_back(ShapedType::kDynamic);
    }
    // The source's first `sizes` elements: all of it, or none. (Not an
    // arith.select of it and an empty tensor: convert-elementwise-to-linalg
    // makes that an elementwise select, which read the empty one.)
    auto dynamicType =
        RankedTensorType::get(sourceShape, op.getSourceType().getElementType());
    auto source = tensor::ExtractSliceOp::create(b, loc, dynamicType, original,
                                                 sourceOffsets, sourceSizes,
                                                 sourceStrides);
    source->setAttr(kGuarded, b.getUnitAttr());
    OpBuilder at(op);
    auto guarded = tensor::ParallelInsertSliceOp::create(
        at, loc, source, op.getDest(), offsets, sizes, strides);
    guarded->setAttr(kGuarded, at.getUnitAttr());
    op.erase();
  }

  /// Reports each dimension of `op` out of bounds, and makes `op` access
  /// nothing outside. A read (tensor.extract, memref.load) of static
  /// nonzero sizes clamps its indices to 0 and selects 0 for its result,
  /// and so does a tensor.insert (writing the element's own value back):
  /// no branch, so no allocation in one for the GPU. Other sizes, and
  /// memref.store (a write of the old value could race with another
  /// thread's), go under an scf.if.
  static void guard(Operation *op, func::FuncOp report) {
    Location loc = op->getLoc();
    OpBuilder b(op);
    Access access(op);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    // inside[d]: null where the index is known inside the dimension.
    SmallVector<Value> inside, sizes;
    Value all;
    for (auto [d, index] : llvm::enumerate(access.indices)) {
      if (provablyInside(access.type, int64_t(d), index)) {
        inside.push_back(Value());
        sizes.push_back(Value());
        continue;
      }
      Value size = access.memref
                       ? Value(memref::DimOp::create(b, loc, access.shaped, d))
                       : Value(tensor::DimOp::create(b, loc, access.shaped, d));
      Value ok = inRange(b, loc, index, zero, size);
      inside.push_back(ok);
      sizes.push_back(size);
      all = all ? arith::AndIOp::create(b, loc, all, ok).getResult() : ok;
    }
    // The reports: one per dimension out of bounds.
    // (A memref write's dimension is at most 15: 16 marks atomic_rmw.)
    bool atomic = isa<memref::AtomicRMWOp>(op);
    int64_t code = attic::sourceLineOf(loc) * 64 + (access.write ? 32 : 0) +
                   (atomic ? 16 : 0);
    int64_t maxDim = access.memref && access.write ? 15 : 31;
    for (size_t d = 0; d < access.indices.size(); ++d)
      if (inside[d])
        reportUnless(b, loc, inside[d], report,
                     access.memref ? ATTIC_RT_MEMREF_INDEX
                                   : ATTIC_RT_TENSOR_INDEX,
                     code + std::min<int64_t>(int64_t(d), maxDim),
                     access.indices[d], sizes[d]);

    op->setAttr(kGuarded, b.getUnitAttr());
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      auto ifOp = scf::IfOp::create(b, loc, all, /*withElseRegion=*/false);
      store->moveBefore(ifOp.thenBlock()->getTerminator());
      return;
    }
    // An atomic update under scf.if too; outside it gives 0 (its result is
    // the old value).
    if (isa<memref::AtomicRMWOp>(op)) {
      OpBuilder otherwise = underIf(b, op, all);
      scf::YieldOp::create(otherwise, loc,
                           zeroOf(otherwise, loc, op->getResult(0).getType()));
      return;
    }
    Type resultType = op->getResult(0).getType();
    bool nonEmpty =
        access.type.hasStaticShape() && access.type.getNumElements() > 0;
    if (nonEmpty) {
      // Index 0 of every dimension exists: access there when outside, and
      // make it change nothing (insert) or read as 0 (extract, load).
      SmallVector<Value> safe;
      for (auto [d, index] : llvm::enumerate(access.indices))
        safe.push_back(
            inside[d]
                ? arith::SelectOp::create(b, loc, all, index, zero).getResult()
                : index);
      if (auto insert = dyn_cast<tensor::InsertOp>(op)) {
        auto oldOp = tensor::ExtractOp::create(b, loc, insert.getDest(), safe);
        oldOp->setAttr(kGuarded, b.getUnitAttr());
        Value old = oldOp;
        Value value =
            arith::SelectOp::create(b, loc, all, insert.getScalar(), old);
        insert.getScalarMutable().assign(value);
        insert.getIndicesMutable().assign(safe);
        return;
      }
      if (auto load = dyn_cast<memref::LoadOp>(op))
        load.getIndicesMutable().assign(safe);
      else
        cast<tensor::ExtractOp>(op).getIndicesMutable().assign(safe);
      b.setInsertionPointAfter(op);
      Value picked = arith::SelectOp::create(b, loc, all, op->getResult(0),
                                             zeroOf(b, loc, resultType));
      op->getResult(0).replaceAllUsesExcept(picked, picked.getDefiningOp());
      return;
    }
    // Sizes known only at run time (or a zero size): the access under
    // scf.if, 0 or the unchanged tensor outside.
    OpBuilder otherwise = underIf(b, op, all);
    auto insert = dyn_cast<tensor::InsertOp>(op);
    scf::YieldOp::create(otherwise, loc,
                         insert ? insert.getDest()
                                : zeroOf(otherwise, loc, resultType));
  }
};

} // namespace

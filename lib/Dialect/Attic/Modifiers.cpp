//===- Modifiers.cpp - mask and score regions -------------------*- C++ -*-===//
//
// See include/attic/Dialect/Attic/Modifiers.h. Three things walk a
// modifier region here:
//
//   - the cloner (buildMaskPredicate, buildScore, the capture check): the
//     region's ops at an element, capture reads turned into clamped
//     memref.loads of the op's captures;
//   - the interval emitter (buildMaskBlockVisibility, the capture proof):
//     for each integer value an interval [lo, hi] of index Values, for each
//     i1 a pair (mayBeTrue, mayBeFalse), emitted with folding arithmetic,
//     so constant ranges give constant answers;
//   - the static analysis (isIntervalClassifiable): whether the interval
//     emitter models every value the yielded i1 depends on.
//
// Each interval carries whether it is exact: an i1 that is false when an
// op on the way may have wrapped (index and i64 arithmetic past 2^63, an
// i32 or narrower result outside its type's range, a narrowing cast that
// cuts the value, a zero extension of a negative value). A comparison of
// intervals that are not exact may be either true or false, so the block
// is partial and its elements decide: wrapping arithmetic is classified
// soundly (the region's own ops wrap as the hardware does), never as if
// the value had not wrapped.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/Modifiers.h"
#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Transforms/RuntimeCalls.h"
#include "attic/runtime/Runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <optional>

using namespace mlir;

/// The math ops a modifier region may hold: the float functions that the
/// CPU and CUDA lowerings, the GPU simulator and the reference evaluator
/// all take.
static bool admissibleMath(Operation *op) {
  return isa<
      math::AbsFOp, math::AcosOp, math::AcoshOp, math::AsinOp, math::AsinhOp,
      math::AtanOp, math::Atan2Op, math::AtanhOp, math::CbrtOp, math::CeilOp,
      math::CopySignOp, math::CosOp, math::CoshOp, math::ErfOp, math::ErfcOp,
      math::ExpOp, math::Exp2Op, math::ExpM1Op, math::FloorOp, math::FmaOp,
      math::LogOp, math::Log10Op, math::Log1pOp, math::Log2Op, math::PowFOp,
      math::RoundOp, math::RoundEvenOp, math::RsqrtOp, math::SinOp,
      math::SinhOp, math::SqrtOp, math::TanOp, math::TanhOp, math::TruncOp>(op);
}
/// The arith ops a modifier region may hold: those the reference evaluator
/// behind --check interprets (and every target lowers). remf, bitcast,
/// the *_extended ops and the scaling conversions compiled and ran, and
/// then --check or the GPU simulator failed on them (an audit).
static bool admissibleArith(Operation *op) {
  return isa<arith::AddFOp, arith::AddIOp, arith::AndIOp, arith::CeilDivSIOp,
             arith::CeilDivUIOp, arith::CmpFOp, arith::CmpIOp,
             arith::ConstantOp, arith::DivFOp, arith::DivSIOp, arith::DivUIOp,
             arith::ExtFOp, arith::ExtSIOp, arith::ExtUIOp, arith::FPToSIOp,
             arith::FPToUIOp, arith::FloorDivSIOp, arith::IndexCastOp,
             arith::IndexCastUIOp, arith::MaxNumFOp, arith::MaxSIOp,
             arith::MaxUIOp, arith::MaximumFOp, arith::MinNumFOp,
             arith::MinSIOp, arith::MinUIOp, arith::MinimumFOp, arith::MulFOp,
             arith::MulIOp, arith::NegFOp, arith::OrIOp, arith::RemSIOp,
             arith::RemUIOp, arith::SIToFPOp, arith::SelectOp, arith::ShLIOp,
             arith::ShRSIOp, arith::ShRUIOp, arith::SubFOp, arith::SubIOp,
             arith::TruncFOp, arith::TruncIOp, arith::UIToFPOp, arith::XOrIOp>(
      op);
}
using namespace attic;

namespace {

StringRef regionName(ModifierKind kind) {
  return kind == ModifierKind::Mask ? "mask" : "score";
}

/// The capture read by `op` (tensor.extract, tensor.dim, memref.load,
/// memref.dim of a capture argument), or nullptr.
BlockArgument capturedSource(Operation *op, unsigned leading) {
  Value source;
  if (auto e = dyn_cast<tensor::ExtractOp>(op))
    source = e.getTensor();
  else if (auto l = dyn_cast<memref::LoadOp>(op))
    source = l.getMemRef();
  else if (auto d = dyn_cast<tensor::DimOp>(op))
    source = d.getSource();
  else if (auto d = dyn_cast<memref::DimOp>(op))
    source = d.getSource();
  auto arg = dyn_cast_or_null<BlockArgument>(source);
  if (!arg || arg.getOwner()->getParent() != op->getParentRegion() ||
      arg.getArgNumber() < leading)
    return nullptr;
  return arg;
}

bool isReadOp(Operation *op) {
  return isa<tensor::ExtractOp, memref::LoadOp>(op);
}

ValueRange readIndices(Operation *op) {
  if (auto e = dyn_cast<tensor::ExtractOp>(op))
    return e.getIndices();
  return cast<memref::LoadOp>(op).getIndices();
}

bool isScalar(Type t) { return t.isIntOrIndexOrFloat(); }

} // namespace

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

LogicalResult attic::verifyModifierRegion(Operation *op, Region &region,
                                          ModifierKind kind,
                                          ValueRange captures, bool checkOps) {
  if (region.empty())
    return success();
  StringRef name = regionName(kind);
  Block &block = region.front();
  unsigned leading = leadingArguments(kind);
  const char *signature =
      kind == ModifierKind::Mask
          ? "(b, h, q, k : index, then one argument per capture)"
          : "(score : f32, b, h, q, k : index, then one argument per capture)";
  if (block.getNumArguments() != leading + captures.size())
    return op->emitOpError()
           << "'" << name << "' region must have " << leading + captures.size()
           << " arguments " << signature << ", got "
           << block.getNumArguments();
  static const char *names[2][5] = {{"b", "h", "q", "k", ""},
                                    {"score", "b", "h", "q", "k"}};
  int which = kind == ModifierKind::Mask ? 0 : 1;
  for (unsigned i = 0; i < leading; ++i) {
    Type expected = kind == ModifierKind::Score && i == 0
                        ? Type(Float32Type::get(op->getContext()))
                        : Type(IndexType::get(op->getContext()));
    Type got = block.getArgument(i).getType();
    if (got != expected)
      return op->emitOpError()
             << "'" << name << "' region argument #" << i << " ("
             << names[which][i] << ") must be " << expected << ", got " << got;
  }
  for (auto [i, capture] : llvm::enumerate(captures)) {
    Type got = block.getArgument(leading + i).getType();
    if (got != capture.getType())
      return op->emitOpError()
             << "'" << name << "' region argument #" << leading + i
             << " must have the type of capture #" << i << " ("
             << capture.getType() << "), got " << got;
  }

  // attic.yield in a region, func.return in an outlined function.
  Operation *terminator = block.empty() ? nullptr : &block.back();
  if (!terminator || !isa<YieldOp, func::ReturnOp>(terminator))
    return op->emitOpError() << "'" << name
                             << "' region must end with attic.yield";
  Type yieldType = kind == ModifierKind::Mask
                       ? Type(IntegerType::get(op->getContext(), 1))
                       : Type(Float32Type::get(op->getContext()));
  ValueRange yielded = terminator->getOperands();
  if (yielded.size() != 1 || yielded.front().getType() != yieldType) {
    auto diag = op->emitOpError()
                << "'" << name << "' region must yield one " << yieldType
                << (kind == ModifierKind::Mask
                        ? " (whether key k is visible to query q)"
                        : " (the new score)")
                << ", got ";
    if (yielded.empty())
      diag << "nothing";
    llvm::interleaveComma(yielded.getTypes(), diag);
    return diag;
  }

  // The values computed from the score: the capture check in front of the
  // kernels runs the region over every (b, h, q, k) but cannot enumerate
  // scores, so an index computed from the score could not be checked. (In
  // outlined functions too.)
  if (kind == ModifierKind::Score) {
    llvm::DenseSet<Value> fromScore{block.getArgument(0)};
    for (Operation &inner : block.without_terminator()) {
      if (llvm::none_of(inner.getOperands(),
                        [&](Value v) { return fromScore.contains(v); }))
        continue;
      // A read of something other than a capture is refused below, naming
      // what made it (a tensor.insert into a capture was reported as a
      // read at an index computed from the score; an audit).
      if (isa<tensor::ExtractOp, tensor::DimOp, memref::LoadOp, memref::DimOp>(
              inner) &&
          capturedSource(&inner, leading))
        return inner.emitOpError()
               << "in a '" << name
               << "' region must not read a capture at an index computed "
                  "from the score (argument #0): indices may depend on b, h, "
                  "q, k and captured values only, which are checked against "
                  "the capture's size before the kernel runs";
      fromScore.insert(inner.result_begin(), inner.result_end());
    }
  }

  // A call would hide the ops of its callee from these checks, and the tile
  // loop inlines a modifier's ops into its own region (a call there made
  // invalid IR).
  for (Operation &inner : block.without_terminator())
    if (isa<CallOpInterface>(inner))
      return inner.emitOpError()
             << "is not admissible in a '" << name
             << "' modifier: its ops are evaluated inline, so they must be "
                "written out (arith and math ops, capture reads)";

  // Outlined functions are checked for their signature only: upstream's
  // buffer deallocation adds (no-op) ops to them that canonicalization
  // removes again.
  if (!checkOps)
    return success();
  for (Operation &inner : block.without_terminator()) {
    StringRef dialect = inner.getName().getDialectNamespace();
    bool captureOp =
        isa<tensor::ExtractOp, tensor::DimOp, memref::LoadOp, memref::DimOp>(
            inner);
    if (captureOp) {
      if (!capturedSource(&inner, leading))
        return inner.emitOpError()
               << "in a '" << name
               << "' region may only read a capture (a block argument after "
                  "the first "
               << leading << ")";
      // A dimension is read from the capture's descriptor, which has rank
      // entries: only a constant dimension in range is defined.
      if (isa<tensor::DimOp, memref::DimOp>(inner)) {
        int64_t rank =
            cast<ShapedType>(inner.getOperand(0).getType()).getRank();
        APInt dim;
        if (!matchPattern(inner.getOperand(1), m_ConstantInt(&dim)) ||
            dim.isNegative() || dim.sge(rank))
          return inner.emitOpError()
                 << "in a '" << name
                 << "' region must read a constant dimension in [0, " << rank
                 << ") of the capture (its rank)";
      }
    } else if (dialect != "arith" && dialect != "math") {
      return inner.emitOpError()
             << "is not admissible in a '" << name
             << "' region (arith and math ops on scalars, and "
                "tensor.extract or memref.load of a capture)";
    } else if (dialect == "arith" && !admissibleArith(&inner)) {
      return inner.emitOpError()
             << "is not admissible in a '" << name
             << "' region: its arith ops are those every target and --check "
                "evaluate (all but remf, bitcast, addui_extended, "
                "mulsi_extended, mului_extended, scaling_extf and "
                "scaling_truncf)";
    } else if (dialect == "math" && !admissibleMath(&inner)) {
      // Others failed on some targets only, each with an upstream
      // lowering message (math.ipowi on the CUDA targets, math.clampf and
      // math.isinf on the CPU, math.fpowi in the CPU vectorizer) or were
      // not simulated (math.ctlz, absi, isnan; a 2026-11-30 audit).
      return inner.emitOpError()
             << "is not admissible in a '" << name
             << "' region: its math ops are the float functions every "
                "target and --check evaluate (absf, acos, acosh, asin, "
                "asinh, atan, atan2, atanh, cbrt, ceil, copysign, cos, "
                "cosh, erf, erfc, exp, exp2, expm1, floor, fma, log, log10, "
                "log1p, log2, powf, round, roundeven, rsqrt, sin, sinh, "
                "sqrt, tan, tanh, trunc); write the others with arith ops";
    }
    if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
            arith::FloorDivSIOp, arith::CeilDivSIOp, arith::CeilDivUIOp>(
            inner)) {
      APInt divisor;
      if (!matchPattern(inner.getOperand(1), m_ConstantInt(&divisor)) ||
          divisor.isZero())
        return inner.emitOpError()
               << "in a '" << name
               << "' region must divide by a non-zero constant (an integer "
                  "division by zero would trap)";
      if (divisor.isAllOnes() &&
          isa<arith::DivSIOp, arith::RemSIOp, arith::FloorDivSIOp,
              arith::CeilDivSIOp>(inner))
        return inner.emitOpError()
               << "in a '" << name
               << "' region must not divide by -1 (the smallest integer "
                  "divided by -1 would trap; negate with arith.subi instead)";
    }
    // MLIR 22's arith canonicalization crashes on an always-true or
    // always-false compare of a sitofp/uitofp with a constant (upstream
    // mlir-opt --canonicalize too): refused with a message rather than a
    // segmentation fault in every pipeline.
    if (auto cmp = dyn_cast<arith::CmpFOp>(inner)) {
      auto converted = [](Value v) {
        return isa_and_nonnull<arith::SIToFPOp, arith::UIToFPOp>(
            v.getDefiningOp());
      };
      if ((cmp.getPredicate() == arith::CmpFPredicate::AlwaysTrue ||
           cmp.getPredicate() == arith::CmpFPredicate::AlwaysFalse) &&
          (converted(cmp.getLhs()) || converted(cmp.getRhs())))
        return inner.emitOpError()
               << "in a '" << name
               << "' region must not compare a sitofp or uitofp with the "
                  "'true' or 'false' predicate (MLIR 22's canonicalizer "
                  "crashes on it): use arith.constant true or false";
    }
    if (inner.getNumRegions() != 0)
      return inner.emitOpError() << "with regions is not admissible in a '"
                                 << name << "' region";
    for (Type t : inner.getResultTypes())
      if (!isScalar(t))
        return inner.emitOpError()
               << "in a '" << name << "' region must produce scalars "
               << "(integers, index or floats), got " << t;
    if (!captureOp)
      for (Type t : inner.getOperandTypes())
        if (!isScalar(t))
          return inner.emitOpError()
                 << "in a '" << name
                 << "' region must take scalars (integers, index or "
                    "floats), got "
                 << t;
  }
  return success();
}

LogicalResult attic::verifyModifierFunction(Operation *op,
                                            SymbolTableCollection &symbols,
                                            FlatSymbolRefAttr name,
                                            ModifierKind kind,
                                            ValueRange captures, bool onTensors) {
  if (!name)
    return success();
  StringRef what = kind == ModifierKind::Mask ? "mask_fn" : "score_fn";
  if (onTensors)
    return op->emitOpError()
           << what << " is the memref form of the '" << regionName(kind)
           << "' region: on tensors, write the region";
  auto fn = symbols.lookupNearestSymbolFrom<func::FuncOp>(op, name);
  if (!fn || fn.isExternal())
    return op->emitOpError() << what << " " << name
                             << " does not name a func.func with a body";
  return verifyModifierRegion(op, fn.getBody(), kind, captures,
                              /*checkOps=*/false);
}

Region *attic::lookupModifier(Operation *op, Region &region,
                              FlatSymbolRefAttr name) {
  if (!region.empty())
    return &region;
  if (!name)
    return nullptr;
  auto fn = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(op, name);
  if (!fn || fn.isExternal())
    return nullptr;
  return &fn.getBody();
}

bool attic::modifierUsesBatch(Region &region, ModifierKind kind) {
  if (region.empty())
    return false;
  return !region.front().getArgument(kind == ModifierKind::Mask ? 0 : 1).use_empty();
}

bool attic::modifierUsesHead(Region &region, ModifierKind kind) {
  if (region.empty())
    return false;
  return !region.front().getArgument(kind == ModifierKind::Mask ? 1 : 2).use_empty();
}

bool attic::readsCaptures(Region &region) {
  if (region.empty())
    return false;
  for (Operation &op : region.front())
    if (isReadOp(&op))
      return true;
  return false;
}

//===----------------------------------------------------------------------===//
// Cloning
//===----------------------------------------------------------------------===//

namespace {
/// Called for each capture read when cloning: (builder, location, capture,
/// dimension, index, size).
using ReadHook = function_ref<void(OpBuilder &, Location, unsigned, unsigned,
                                   Value, Value)>;

/// The bit width of an integer or index type (index: 64, as every target
/// attic compiles for has it).
unsigned bitWidthOf(Type type) {
  return isa<IndexType>(type) ? 64 : type.getIntOrFloatBitWidth();
}

/// Clones `op`, a shift or a float-to-integer conversion, with the results
/// modifier regions define where upstream's are poison (docs/patterns.md):
/// a shift by the bit width or more (the amount read unsigned) gives 0
/// (shli, shrui) or the sign in every bit (shrsi), and fptosi / fptoui
/// saturate, NaN giving 0. Upstream's ops only ever see operands in range.
/// Targets disagreed (fptosi of 3e9 to i32: INT_MIN on the CPU, INT_MAX in
/// the GPU simulator, as PTX) and the simulator failed on the shift while
/// the CPU ran it (an audit). Returns false for other ops.
bool cloneDefined(OpBuilder &b, Operation &op, IRMapping &map) {
  // Scalars only (a region's ops are; an outlined function is checked for
  // its signature only).
  if (llvm::any_of(op.getOperandTypes(),
                   [](Type t) { return !t.isIntOrIndexOrFloat(); }))
    return false;
  Location loc = op.getLoc();
  auto constantInt = [&](Type type, const APInt &value) -> Value {
    return arith::ConstantOp::create(b, loc, type,
                                     b.getIntegerAttr(type, value));
  };
  if (isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(op)) {
    Value x = map.lookupOrDefault(op.getOperand(0));
    Value amount = map.lookupOrDefault(op.getOperand(1));
    Type type = x.getType();
    unsigned width = bitWidthOf(type);
    Value widthValue = constantInt(type, APInt(width, width));
    Value beyond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                         amount, widthValue);
    bool signFill = isa<arith::ShRSIOp>(op);
    Value safe = arith::SelectOp::create(
        b, loc, beyond,
        constantInt(type, APInt(width, signFill ? width - 1 : 0)), amount);
    Operation *shift = b.clone(op, map);
    shift->setOperand(1, safe);
    Value result = shift->getResult(0);
    if (!signFill)
      result = arith::SelectOp::create(
          b, loc, beyond, constantInt(type, APInt(width, 0)), result);
    map.map(op.getResult(0), result);
    return true;
  }
  if (!isa<arith::FPToSIOp, arith::FPToUIOp>(op))
    return false;
  bool isSigned = isa<arith::FPToSIOp>(op);
  Value x = map.lookupOrDefault(op.getOperand(0));
  auto floatType = cast<FloatType>(x.getType());
  Type type = op.getResult(0).getType();
  unsigned width = bitWidthOf(type);
  // The bounds in x's type: [lo, hi) holds the values whose truncation
  // fits (for fptoui (-1, hi): -0.5 truncates to 0). A power of two is
  // exact in a float type, or past its range +inf.
  auto power = [&](unsigned exponent, bool negative) {
    APFloat f(floatType.getFloatSemantics());
    f.convertFromAPInt(APInt::getOneBitSet(width + 1, exponent),
                       /*isSigned=*/false, APFloat::rmNearestTiesToEven);
    if (negative)
      f.changeSign();
    return f;
  };
  APFloat hi = power(isSigned ? width - 1 : width, false);
  APFloat lo = isSigned ? power(width - 1, true)
                        : APFloat(floatType.getFloatSemantics(), "-1");
  auto floatConstant = [&](const APFloat &v) -> Value {
    return arith::ConstantOp::create(b, loc, floatType,
                                     b.getFloatAttr(floatType, v));
  };
  Value hiValue = floatConstant(hi), loValue = floatConstant(lo);
  // Below: x < lo (x <= lo where lo is -inf or fptoui's -1).
  bool inclusiveLow = lo.isInfinity() || !isSigned;
  Value below = arith::CmpFOp::create(b, loc,
                                      inclusiveLow ? arith::CmpFPredicate::OLE
                                                   : arith::CmpFPredicate::OLT,
                                      x, loValue);
  Value above =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, x, hiValue);
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value outside = arith::OrIOp::create(
      b, loc, arith::OrIOp::create(b, loc, below, above), isNaN);
  Value safe = arith::SelectOp::create(
      b, loc, outside,
      floatConstant(APFloat::getZero(floatType.getFloatSemantics())), x);
  Operation *converted = b.clone(op, map);
  converted->setOperand(0, safe);
  APInt minValue =
      isSigned ? APInt::getSignedMinValue(width) : APInt::getMinValue(width);
  APInt maxValue =
      isSigned ? APInt::getSignedMaxValue(width) : APInt::getMaxValue(width);
  Value result = converted->getResult(0);
  result = arith::SelectOp::create(b, loc, below, constantInt(type, minValue),
                                   result);
  result = arith::SelectOp::create(b, loc, above, constantInt(type, maxValue),
                                   result);
  map.map(op.getResult(0), result);
  return true;
}

/// Clones the region's ops with `leadingValues` for the leading arguments;
/// capture reads become memref.loads of env.captures with clamped indices.
/// Returns the yielded value.
Value cloneModifier(LayoutEnv &env, Region &region, ModifierKind kind,
                    ArrayRef<Value> leadingValues, ReadHook hook = nullptr) {
  OpBuilder &b = env.builder;
  Location loc = env.loc;
  IndexMath m(b, loc);
  Block &block = region.front();
  unsigned leading = leadingArguments(kind);
  IRMapping map;
  for (unsigned i = 0; i < leading; ++i)
    map.map(block.getArgument(i), leadingValues[i]);
  for (Operation &op : block.without_terminator()) {
    BlockArgument capture = capturedSource(&op, leading);
    if (!capture) {
      if (!cloneDefined(b, op, map))
        b.clone(op, map);
      continue;
    }
    unsigned c = capture.getArgNumber() - leading;
    Value memref = env.captures[c];
    auto dimOf = [&](Value d) -> Value {
      APInt constant;
      if (matchPattern(d, m_ConstantInt(&constant)))
        return b.createOrFold<memref::DimOp>(loc, memref,
                                             constant.getSExtValue());
      return memref::DimOp::create(b, loc, memref, d);
    };
    if (isa<tensor::DimOp, memref::DimOp>(op)) {
      Value d = map.lookupOrDefault(op.getOperand(1));
      map.map(op.getResult(0), dimOf(d));
      continue;
    }
    SmallVector<Value> indices;
    Value nonEmpty = m.boolean(true);
    for (auto [d, index] : llvm::enumerate(readIndices(&op))) {
      Value i = map.lookupOrDefault(index);
      Value size = b.createOrFold<memref::DimOp>(loc, memref, d);
      if (hook)
        hook(b, loc, c, d, i, size);
      // Clamped into [0, size): an index outside reads an element of the
      // capture, never memory outside it (the check reports the read).
      indices.push_back(m.max(m.min(i, m.sub(size, 1)), m.c(0)));
      nonEmpty = m.andI(nonEmpty, m.lt(m.c(0), size));
    }
    // A capture with an empty dimension has no element to clamp to. The
    // tile loop and attic.block_mask run no element then (buildCaptureCheck
    // says so); the check's own loop, which reports the reads (`hook`),
    // reads 0 instead (it read index 0 of the empty capture: an audit).
    if (!hook || matchPattern(nonEmpty, m_One())) {
      map.map(op.getResult(0), memref::LoadOp::create(b, loc, memref, indices));
      continue;
    }
    Type element = op.getResult(0).getType();
    auto read = scf::IfOp::create(
        b, loc, nonEmpty,
        [&](OpBuilder &tb, Location tl) {
          scf::YieldOp::create(
              tb, tl,
              ValueRange{memref::LoadOp::create(tb, tl, memref, indices)});
        },
        [&](OpBuilder &eb, Location el) {
          scf::YieldOp::create(
              eb, el,
              ValueRange{arith::ConstantOp::create(
                  eb, el, cast<TypedAttr>(eb.getZeroAttr(element)))});
        });
    map.map(op.getResult(0), read.getResult(0));
  }
  return map.lookupOrDefault(block.getTerminator()->getOperand(0));
}
} // namespace

Value attic::buildMaskPredicate(LayoutEnv &env, Region &mask, Value q,
                                Value k) {
  return cloneModifier(env, mask, ModifierKind::Mask,
                       {env.batch, env.head, q, k});
}

Value attic::buildScore(LayoutEnv &env, Region &score, Value s, Value q,
                        Value k) {
  return cloneModifier(env, score, ModifierKind::Score,
                       {s, env.batch, env.head, q, k});
}

//===----------------------------------------------------------------------===//
// Interval arithmetic
//===----------------------------------------------------------------------===//

namespace {
struct Interval {
  Value lo, hi;
  /// i1: whether [lo, hi] holds every value (no op on the way wrapped);
  /// null: true.
  Value exact = nullptr;
};
/// An i1: whether it may be true and whether it may be false.
struct Truth {
  Value mayTrue, mayFalse;
};

/// Emits the abstract values of a region's ops for given argument ranges.
class IntervalEmitter {
public:
  IntervalEmitter(OpBuilder &b, Location loc) : m(b, loc) {}

  /// Walks the region; `args` are the intervals of the leading integer
  /// arguments (nullopt: unknown). Calls `onRead` with each capture read's
  /// capture, dimension and index interval (nullopt when not modelled).
  void run(Region &region, ModifierKind kind,
           ArrayRef<std::optional<Interval>> args,
           function_ref<void(unsigned, unsigned, std::optional<Interval>)>
               onRead = nullptr) {
    Block &block = region.front();
    unsigned leading = leadingArguments(kind);
    for (unsigned i = 0; i < leading; ++i)
      if (args[i])
        ints[block.getArgument(i)] = *args[i];
    for (Operation &op : block.without_terminator()) {
      if (BlockArgument capture = capturedSource(&op, leading)) {
        if (onRead && isReadOp(&op))
          for (auto [d, index] : llvm::enumerate(readIndices(&op)))
            onRead(capture.getArgNumber() - leading, d, intervalOf(index));
        continue;
      }
      visit(&op);
    }
  }

  /// The truth of `v` (unknown: may be either).
  Truth truthOf(Value v) {
    auto it = truths.find(v);
    if (it != truths.end())
      return it->second;
    return Truth{m.boolean(true), m.boolean(true)};
  }

  std::optional<Interval> intervalOf(Value v) {
    auto it = ints.find(v);
    if (it != ints.end())
      return it->second;
    return std::nullopt;
  }

private:
  static std::optional<int64_t> constantOf(Value v) {
    APInt c;
    if (matchPattern(v, m_ConstantInt(&c)))
      return c.getSExtValue();
    return std::nullopt;
  }

  Interval point(Value v) { return Interval{v, v}; }

  void visit(Operation *op) {
    if (op->getNumResults() != 1)
      return;
    Value result = op->getResult(0);
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto attr = dyn_cast<IntegerAttr>(constant.getValue());
      if (!attr)
        return;
      if (attr.getType().isInteger(1)) {
        bool v = attr.getValue().getBoolValue();
        truths[result] = Truth{m.boolean(v), m.boolean(!v)};
      } else {
        ints[result] = point(m.c(attr.getValue().getSExtValue()));
      }
      return;
    }
    visitInteger(op, result);
    if (auto it = ints.find(result); it != ints.end())
      it->second.exact =
          m.andI(exactOf(it->second), fits(it->second, result.getType()));
  }

  /// i1: whether `i` is exact.
  Value exactOf(const Interval &i) {
    return i.exact ? i.exact : m.boolean(true);
  }
  Value bothExact(const Interval &x, const Interval &y) {
    return m.andI(exactOf(x), exactOf(y));
  }

  /// i1: whether [i.lo, i.hi] lies in the range of the signed integer type
  /// `type` (index and i64: always; their wrapping is checked per op).
  Value fits(const Interval &i, Type type) {
    unsigned width = type.isIndex() ? 64 : cast<IntegerType>(type).getWidth();
    if (width >= 64)
      return m.boolean(true);
    int64_t lowest = -(int64_t(1) << (width - 1));
    int64_t highest = (int64_t(1) << (width - 1)) - 1;
    return m.andI(m.le(m.c(lowest), i.lo), m.le(i.hi, m.c(highest)));
  }

  /// x + y (wrapping) and whether it wrapped past int64.
  std::pair<Value, Value> addChecked(Value x, Value y) {
    Value sum = m.add(x, y);
    return {sum, negative(bitAnd(bitXor(sum, x), bitXor(sum, y)))};
  }
  /// x - y (wrapping) and whether it wrapped past int64.
  std::pair<Value, Value> subChecked(Value x, Value y) {
    Value difference = m.sub(x, y);
    return {difference, negative(bitAnd(bitXor(x, y), bitXor(x, difference)))};
  }
  /// x * y (wrapping) and whether it wrapped past int64: p / x != y, with
  /// x = 0 (never wraps) and x = -1 (wraps for y = INT64_MIN only) apart,
  /// so that the division neither divides by zero nor overflows.
  std::pair<Value, Value> mulChecked(Value x, Value y) {
    // A constant factor as the divisor: the checks fold, and the division
    // is by a constant.
    if (!constantOf(x) && constantOf(y))
      std::swap(x, y);
    Value product = m.mul(x, y);
    Value isZero = m.eq(x, m.c(0));
    Value isMinusOne = m.eq(x, m.c(-1));
    Value divisor = m.select(m.orI(isZero, isMinusOne), m.c(1), x);
    Value quotient = m.b.createOrFold<arith::DivSIOp>(m.loc, product, divisor);
    Value wrapped =
        m.select(isMinusOne, m.eq(y, m.c(std::numeric_limits<int64_t>::min())),
                 m.andI(m.notI(isZero), m.ne(quotient, y)));
    return {product, wrapped};
  }
  Value bitXor(Value x, Value y) {
    return m.b.createOrFold<arith::XOrIOp>(m.loc, x, y);
  }
  Value bitAnd(Value x, Value y) {
    return m.b.createOrFold<arith::AndIOp>(m.loc, x, y);
  }
  Value negative(Value x) { return m.lt(x, m.c(0)); }

  /// The interval of an integer op's result (none: not modelled); its
  /// exactness before the result type's range is checked (visit does).
  void visitInteger(Operation *op, Value result) {
    if (result.getType().isInteger(1)) {
      visitBoolean(op, result);
      return;
    }
    if (!result.getType().isIntOrIndex())
      return;
    // Casts between integer types keep the value when it fits the result
    // type (visit checks it: a narrowing index_cast or trunci may cut it);
    // a zero extension keeps it when it is not negative; a zero-extended
    // i1 is 0 or 1.
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp>(op)) {
      Value in = op->getOperand(0);
      if (in.getType().isInteger(1)) {
        if (!isa<arith::ExtUIOp, arith::IndexCastUIOp>(op))
          return;
        Truth t = truthOf(in);
        ints[result] = Interval{m.select(t.mayFalse, m.c(0), m.c(1)),
                                m.select(t.mayTrue, m.c(1), m.c(0))};
        return;
      }
      auto i = intervalOf(in);
      if (!i)
        return;
      Interval cast = *i;
      if (isa<arith::ExtUIOp, arith::IndexCastUIOp>(op))
        cast.exact = m.andI(exactOf(*i), m.le(m.c(0), i->lo));
      ints[result] = cast;
      return;
    }
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      auto x = intervalOf(select.getTrueValue());
      auto y = intervalOf(select.getFalseValue());
      if (!x || !y)
        return;
      Truth c = truthOf(select.getCondition());
      // Only true: x; only false: y; either: the hull.
      Value onlyTrue = m.notI(c.mayFalse), onlyFalse = m.notI(c.mayTrue);
      Value lo = m.select(onlyTrue, x->lo,
                          m.select(onlyFalse, y->lo, m.min(x->lo, y->lo)));
      Value hi = m.select(onlyTrue, x->hi,
                          m.select(onlyFalse, y->hi, m.max(x->hi, y->hi)));
      ints[result] = Interval{lo, hi, bothExact(*x, *y)};
      return;
    }
    if (op->getNumOperands() != 2)
      return;
    auto x = intervalOf(op->getOperand(0));
    auto y = intervalOf(op->getOperand(1));
    std::optional<int64_t> divisor = constantOf(op->getOperand(1));
    // Division and remainder by a positive constant (the divisor's
    // interval is not needed).
    if (x && divisor && *divisor > 0) {
      int64_t c = *divisor;
      auto monotone = [&](auto makeOp) {
        ints[result] = Interval{makeOp(x->lo), makeOp(x->hi), x->exact};
      };
      OpBuilder &b = m.b;
      Location loc = m.loc;
      if (isa<arith::DivSIOp>(op))
        return monotone([&](Value v) {
          return b.createOrFold<arith::DivSIOp>(loc, v, m.c(c));
        });
      if (isa<arith::FloorDivSIOp>(op))
        return monotone([&](Value v) { return m.floorDiv(v, c); });
      if (isa<arith::CeilDivSIOp>(op))
        return monotone([&](Value v) { return m.ceilDiv(v, m.c(c)); });
      if (isa<arith::DivUIOp>(op)) {
        // Unsigned: monotone on non-negative values only; a negative one
        // is read as up to 2^width - 1 (by 1: the value itself).
        if (c == 1) {
          ints[result] = *x;
          return;
        }
        unsigned width = result.getType().isIndex()
                             ? 64
                             : result.getType().getIntOrFloatBitWidth();
        uint64_t largest =
            width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
        Value nonneg = m.le(m.c(0), x->lo);
        ints[result] = Interval{m.select(nonneg, m.floorDiv(x->lo, c), m.c(0)),
                                m.select(nonneg, m.floorDiv(x->hi, c),
                                         m.c(int64_t(largest / uint64_t(c)))),
                                x->exact};
        return;
      }
      if (isa<arith::RemSIOp, arith::RemUIOp>(op)) {
        // Within one period of non-negative values the remainder is
        // monotone; otherwise it is anywhere in its range.
        Value nonneg = m.le(m.c(0), x->lo);
        Value samePeriod = m.andI(
            nonneg, m.eq(m.floorDiv(x->lo, c), m.floorDiv(x->hi, c)));
        int64_t low = isa<arith::RemSIOp>(op) ? -(c - 1) : 0;
        Value fallbackLo = m.select(nonneg, m.c(0), m.c(low));
        ints[result] = Interval{
            m.select(samePeriod, m.floorMod(x->lo, c), fallbackLo),
            m.select(samePeriod, m.floorMod(x->hi, c), m.c(c - 1)), x->exact};
        return;
      }
    }
    if (!x || !y)
      return;
    Value exact = bothExact(*x, *y);
    if (isa<arith::AddIOp>(op)) {
      auto [lo, loWrapped] = addChecked(x->lo, y->lo);
      auto [hi, hiWrapped] = addChecked(x->hi, y->hi);
      ints[result] =
          Interval{lo, hi, m.andI(exact, m.notI(m.orI(loWrapped, hiWrapped)))};
    } else if (isa<arith::SubIOp>(op)) {
      auto [lo, loWrapped] = subChecked(x->lo, y->hi);
      auto [hi, hiWrapped] = subChecked(x->hi, y->lo);
      ints[result] =
          Interval{lo, hi, m.andI(exact, m.notI(m.orI(loWrapped, hiWrapped)))};
    } else if (isa<arith::MulIOp>(op)) {
      std::pair<Value, Value> p[4] = {
          mulChecked(x->lo, y->lo), mulChecked(x->lo, y->hi),
          mulChecked(x->hi, y->lo), mulChecked(x->hi, y->hi)};
      Value wrapped = m.orI(m.orI(p[0].second, p[1].second),
                            m.orI(p[2].second, p[3].second));
      ints[result] = Interval{
          m.min(m.min(p[0].first, p[1].first), m.min(p[2].first, p[3].first)),
          m.max(m.max(p[0].first, p[1].first), m.max(p[2].first, p[3].first)),
          m.andI(exact, m.notI(wrapped))};
    } else if (isa<arith::MinSIOp>(op)) {
      ints[result] = Interval{m.min(x->lo, y->lo), m.min(x->hi, y->hi), exact};
    } else if (isa<arith::MaxSIOp>(op)) {
      ints[result] = Interval{m.max(x->lo, y->lo), m.max(x->hi, y->hi), exact};
    }
  }

  void visitBoolean(Operation *op, Value result) {
    if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      auto x = intervalOf(cmp.getLhs()), y = intervalOf(cmp.getRhs());
      if (!x || !y)
        return;
      // Intervals that are not exact say nothing.
      Truth t = compare(cmp.getPredicate(), *x, *y);
      Value unknown = m.notI(bothExact(*x, *y));
      truths[result] =
          Truth{m.orI(t.mayTrue, unknown), m.orI(t.mayFalse, unknown)};
      return;
    }
    if (isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op)) {
      Truth x = truthOf(op->getOperand(0)), y = truthOf(op->getOperand(1));
      if (isa<arith::AndIOp>(op))
        truths[result] = Truth{m.andI(x.mayTrue, y.mayTrue),
                               m.orI(x.mayFalse, y.mayFalse)};
      else if (isa<arith::OrIOp>(op))
        truths[result] = Truth{m.orI(x.mayTrue, y.mayTrue),
                               m.andI(x.mayFalse, y.mayFalse)};
      else
        truths[result] =
            Truth{m.orI(m.andI(x.mayTrue, y.mayFalse),
                        m.andI(x.mayFalse, y.mayTrue)),
                  m.orI(m.andI(x.mayTrue, y.mayTrue),
                        m.andI(x.mayFalse, y.mayFalse))};
      return;
    }
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      Truth c = truthOf(select.getCondition());
      Truth x = truthOf(select.getTrueValue());
      Truth y = truthOf(select.getFalseValue());
      truths[result] =
          Truth{m.orI(m.andI(c.mayTrue, x.mayTrue),
                      m.andI(c.mayFalse, y.mayTrue)),
                m.orI(m.andI(c.mayTrue, x.mayFalse),
                      m.andI(c.mayFalse, y.mayFalse))};
      return;
    }
  }

  /// x pred y over all x in [x.lo, x.hi], y in [y.lo, y.hi].
  Truth compare(arith::CmpIPredicate pred, Interval x, Interval y) {
    using P = arith::CmpIPredicate;
    auto lessThan = [&](Interval a, Interval c, bool orEqual) {
      // always: a.hi < c.lo; sometimes: a.lo < c.hi (<= for orEqual).
      Value always = orEqual ? m.le(a.hi, c.lo) : m.lt(a.hi, c.lo);
      Value sometimes = orEqual ? m.le(a.lo, c.hi) : m.lt(a.lo, c.hi);
      return Truth{sometimes, m.notI(always)};
    };
    auto equal = [&]() {
      Value always = m.andI(m.andI(m.eq(x.lo, x.hi), m.eq(y.lo, y.hi)),
                            m.eq(x.lo, y.lo));
      Value sometimes = m.andI(m.le(x.lo, y.hi), m.le(y.lo, x.hi));
      return Truth{sometimes, m.notI(always)};
    };
    Truth t;
    switch (pred) {
    case P::eq: return equal();
    case P::ne: {
      Truth e = equal();
      return Truth{e.mayFalse, e.mayTrue};
    }
    case P::slt: case P::ult: t = lessThan(x, y, false); break;
    case P::sle: case P::ule: t = lessThan(x, y, true); break;
    case P::sgt: case P::ugt: t = lessThan(y, x, false); break;
    case P::sge: case P::uge: t = lessThan(y, x, true); break;
    }
    if (pred == P::ult || pred == P::ule || pred == P::ugt || pred == P::uge) {
      // Unsigned order is the signed one on non-negative values only.
      Value unknown = m.notI(m.andI(m.le(m.c(0), x.lo), m.le(m.c(0), y.lo)));
      t = Truth{m.orI(t.mayTrue, unknown), m.orI(t.mayFalse, unknown)};
    }
    return t;
  }

  IndexMath m;
  llvm::DenseMap<Value, Interval> ints;
  llvm::DenseMap<Value, Truth> truths;
};

/// Whether interval arithmetic models `v` (statically: the emitter would
/// give it an interval or a truth that depends on no unknown).
class ModelledValues {
public:
  explicit ModelledValues(Region &region, ModifierKind kind) {
    Block &block = region.front();
    for (unsigned i = 0; i < leadingArguments(kind); ++i)
      if (block.getArgument(i).getType().isIndex())
        modelled.insert(block.getArgument(i));
    for (Operation &op : block.without_terminator())
      if (models(&op))
        modelled.insert(op.getResult(0));
  }
  bool contains(Value v) const { return modelled.contains(v); }

private:
  bool all(Operation *op) {
    return llvm::all_of(op->getOperands(),
                        [&](Value v) { return modelled.contains(v); });
  }
  bool models(Operation *op) {
    if (op->getNumResults() != 1 || !op->getResult(0).getType().isIntOrIndex())
      return false;
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      return isa<IntegerAttr>(constant.getValue());
    if (isa<arith::TruncIOp>(op))
      return false;
    if (isa<arith::IndexCastOp, arith::ExtSIOp>(op))
      return !op->getOperand(0).getType().isInteger(1) && all(op);
    // Zero extension: of an i1 (0 or 1) only.
    if (isa<arith::ExtUIOp, arith::IndexCastUIOp>(op))
      return op->getOperand(0).getType().isInteger(1) && all(op);
    if (isa<arith::SelectOp, arith::CmpIOp, arith::AndIOp, arith::OrIOp,
            arith::XOrIOp>(op)) {
      if (isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op) &&
          !op->getResult(0).getType().isInteger(1))
        return false;
      if (auto cmp = dyn_cast<arith::CmpIOp>(op))
        if (cmp.getLhs().getType().isInteger(1))
          return false;
      return all(op);
    }
    if (isa<arith::DivSIOp, arith::DivUIOp, arith::FloorDivSIOp,
            arith::CeilDivSIOp, arith::RemSIOp, arith::RemUIOp>(op)) {
      APInt c;
      return modelled.contains(op->getOperand(0)) &&
             matchPattern(op->getOperand(1), m_ConstantInt(&c)) &&
             c.getSExtValue() > 0;
    }
    if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::MinSIOp,
            arith::MaxSIOp>(op))
      return all(op);
    return false;
  }

  llvm::DenseSet<Value> modelled;
};
} // namespace

bool attic::isIntervalClassifiable(Region &mask) {
  if (mask.empty())
    return true;
  ModelledValues modelled(mask, ModifierKind::Mask);
  return modelled.contains(mask.front().getTerminator()->getOperand(0));
}

BlockVisibility attic::buildMaskBlockVisibility(LayoutEnv &env, Region &mask,
                                                Value q0, Value q1, Value k0,
                                                Value k1) {
  IndexMath m(env.builder, env.loc);
  IntervalEmitter emitter(env.builder, env.loc);
  emitter.run(mask, ModifierKind::Mask,
              {Interval{env.batch, env.batch}, Interval{env.head, env.head},
               Interval{q0, m.sub(q1, 1)}, Interval{k0, m.sub(k1, 1)}});
  Truth t = emitter.truthOf(mask.front().getTerminator()->getOperand(0));
  return BlockVisibility{t.mayTrue, m.notI(t.mayFalse)};
}

BlockVisibility attic::intersectMaskVisibility(LayoutEnv &env,
                                               BlockVisibility layout,
                                               Region *mask, Value q0, Value q1,
                                               Value k0, Value k1) {
  if (!mask)
    return layout;
  IndexMath m(env.builder, env.loc);
  BlockVisibility r = buildMaskBlockVisibility(env, *mask, q0, q1, k0, k1);
  return BlockVisibility{m.andI(layout.any, r.any), m.andI(layout.all, r.all)};
}

BlockVisibility attic::buildExhaustiveVisibility(
    OpBuilder &b, Location loc, Value q0, Value q1, Value k0, Value k1,
    function_ref<Value(OpBuilder &, Location, Value, Value)> predicate) {
  IndexMath m(b, loc);
  // Row by row until the block is known partial (an element visible and
  // one hidden): a block that is partial is usually decided in its first
  // rows; only an empty or a full one is scanned whole.
  Type i1 = b.getI1Type();
  auto rows = scf::WhileOp::create(
      b, loc, TypeRange{b.getIndexType(), i1, i1},
      ValueRange{q0, m.boolean(false), m.boolean(true)},
      [&](OpBuilder &ob, Location at, ValueRange acc) {
        IndexMath n(ob, at);
        Value undecided = n.orI(n.notI(acc[1]), acc[2]);
        scf::ConditionOp::create(ob, at, n.andI(n.lt(acc[0], q1), undecided),
                                 acc);
      },
      [&](OpBuilder &ob, Location at, ValueRange acc) {
        IndexMath n(ob, at);
        Value q = acc[0];
        auto row = scf::ForOp::create(
            ob, at, k0, k1, n.c(1), ValueRange{acc[1], acc[2]},
            [&](OpBuilder &ib, Location at2, Value k, ValueRange acc2) {
              IndexMath r(ib, at2);
              Value p = predicate(ib, at2, q, k);
              scf::YieldOp::create(
                  ib, at2, ValueRange{r.orI(acc2[0], p), r.andI(acc2[1], p)});
            });
        scf::YieldOp::create(
            ob, at,
            ValueRange{n.add(q, 1), row.getResult(0), row.getResult(1)});
      });
  return BlockVisibility{rows.getResult(1), rows.getResult(2)};
}

//===----------------------------------------------------------------------===//
// The capture check
//===----------------------------------------------------------------------===//

Value attic::buildCaptureCheck(
    OpBuilder &b, Location loc, Operation *report,
    ArrayRef<std::pair<Region *, ModifierKind>> regions, ValueRange captures,
    Value batches, Value heads, Value queryLen, Value keyLen) {
  IndexMath m(b, loc);
  Value proven = m.boolean(true);
  Value empty = m.boolean(false);
  bool anyRead = false;
  // The proof: every read's index interval over the whole domain is
  // inside the capture.
  for (auto [region, kind] : regions) {
    if (region->empty() || !readsCaptures(*region))
      continue;
    anyRead = true;
    IntervalEmitter emitter(b, loc);
    SmallVector<std::optional<Interval>> args;
    if (kind == ModifierKind::Score)
      args.push_back(std::nullopt);
    args.push_back(Interval{m.c(0), m.sub(batches, 1)});
    args.push_back(Interval{m.c(0), m.sub(heads, 1)});
    args.push_back(Interval{m.c(0), m.sub(queryLen, 1)});
    args.push_back(Interval{m.c(0), m.sub(keyLen, 1)});
    emitter.run(*region, kind, args,
                [&](unsigned c, unsigned d, std::optional<Interval> index) {
                  Value size = b.createOrFold<memref::DimOp>(loc, captures[c], d);
                  empty = m.orI(empty, m.eq(size, m.c(0)));
                  if (!index) {
                    proven = m.boolean(false);
                    return;
                  }
                  Value exact = index->exact ? index->exact : m.boolean(true);
                  proven = m.andI(proven,
                                  m.andI(exact, m.andI(m.le(m.c(0), index->lo),
                                                       m.lt(index->hi, size))));
                });
  }
  if (!anyRead || matchPattern(proven, m_One()))
    return empty;
  // An empty domain reads nothing.
  Value domainEmpty =
      m.orI(m.orI(m.le(batches, m.c(0)), m.le(heads, m.c(0))),
            m.orI(m.le(queryLen, m.c(0)), m.le(keyLen, m.c(0))));
  auto func = cast<func::FuncOp>(report);
  auto ifUnproven =
      scf::IfOp::create(b, loc, m.notI(m.orI(proven, domainEmpty)),
                        /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifUnproven.thenBlock()->getTerminator());
  auto nest = scf::ParallelOp::create(
      b, loc, ValueRange{m.c(0), m.c(0), m.c(0)},
      ValueRange{batches, heads, queryLen}, ValueRange{m.c(1), m.c(1), m.c(1)});
  b.setInsertionPoint(nest.getBody()->getTerminator());
  SmallVector<Value> ivs(nest.getInductionVars());
  scf::ForOp::create(
      b, loc, m.c(0), keyLen, m.c(1), ValueRange{},
      [&](OpBuilder &nb, Location at, Value k, ValueRange) {
        LayoutEnv env{nb, at, queryLen, keyLen, ivs[0], ivs[1], ValueRange{},
                      captures};
        auto hook = [&](OpBuilder &hb, Location hl, unsigned c, unsigned d,
                        Value index, Value size) {
          IndexMath h(hb, hl);
          Value outside = h.orI(h.lt(index, h.c(0)), h.le(size, index));
          if (matchPattern(outside, m_Zero()))
            return;
          scf::IfOp::create(hb, hl, outside, [&](OpBuilder &ib, Location il) {
            emitReportError(ib, il, func, ATTIC_RT_CAPTURE_INDEX,
                            IndexMath(ib, il).c(int64_t(c) * 16 + d), index,
                            size);
            scf::YieldOp::create(ib, il);
          });
        };
        for (auto [region, kind] : regions) {
          if (region->empty() || !readsCaptures(*region))
            continue;
          SmallVector<Value> leading;
          if (kind == ModifierKind::Score)
            leading.push_back(arith::ConstantFloatOp::create(
                nb, at, nb.getF32Type(), APFloat(0.0f)));
          leading.append({ivs[0], ivs[1], ivs[2], k});
          cloneModifier(env, *region, kind, leading, hook);
        }
        scf::YieldOp::create(nb, at);
      });
  return empty;
}

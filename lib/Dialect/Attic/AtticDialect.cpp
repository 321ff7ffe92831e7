//===- AtticDialect.cpp - the attic dialect ---------------------*- C++ -*-===//

#include "attic/Dialect/Attic/AtticDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace attic;

#include "AtticDialect.cpp.inc"
#include "AtticEnums.cpp.inc"
#include "AtticAttrInterfaces.cpp.inc"

/// Consumes `true` or `false` where it comes next: AsmParser::parseInteger
/// reads them as 1-bit integers, 1 and 0 (`true` was 2^64 - 1 as a seed;
/// audits), so the integer parsers below refuse them.
static bool parseOptionalBoolean(AsmParser &parser) {
  return succeeded(parser.parseOptionalKeyword("true")) ||
         succeeded(parser.parseOptionalKeyword("false"));
}

ParseResult attic::parseIntegerParameter(AsmParser &parser, int64_t &value) {
  SMLoc loc = parser.getCurrentLocation();
  if (parseOptionalBoolean(parser))
    return parser.emitError(loc, "expected an integer, got a boolean");
  return parser.parseInteger(value);
}

/// Attic_IntParameter's parser (FailureOr, as ODS's field parsers return).
static FailureOr<int64_t> parseIntParameter(AsmParser &parser) {
  int64_t value;
  if (attic::parseIntegerParameter(parser, value))
    return failure();
  return value;
}

/// Attic_IntArrayParameter's parser: `a, b, ...` (the format writes the
/// brackets).
static FailureOr<SmallVector<int64_t>>
parseIntArrayParameter(AsmParser &parser) {
  SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList([&] {
        return attic::parseIntegerParameter(parser, values.emplace_back());
      }))
    return failure();
  return values;
}

/// A Philox seed of a layout attribute, in [0, 2^64): MLIR's parser of a
/// uint64_t read `seed = -1` as 2^64 - 1 without a word (an audit).
static FailureOr<uint64_t> parseSeed(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalMinus()))
    return parser.emitError(loc, "a seed is an integer in [0, 2^64), got a "
                                 "negative one");
  if (parseOptionalBoolean(parser))
    return parser.emitError(loc, "a seed is an integer in [0, 2^64), got a "
                                 "boolean");
  uint64_t seed;
  if (parser.parseInteger(seed))
    return failure();
  return seed;
}

#define GET_ATTRDEF_CLASSES
#include "AtticAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "AtticTypes.cpp.inc"

namespace {
/// attic ops may be inlined anywhere: they are pure functions of their
/// operands (or, on memrefs, touch only their operands), and their regions
/// (mask and score modifiers, tile bodies) refer to nothing outside them
/// but captured operands. The pipelines inline private functions first
/// (a layer written once and called per layer), which kernels need.
struct AtticInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool,
                       IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

LogicalResult attic::verifyNoUnknownAttributes(Operation *op) {
  for (NamedAttribute attr : op->getDiscardableAttrs()) {
    StringRef name = attr.getName().strref();
    // (Names starting with "__" are upstream's internal annotations, e.g.
    // One-Shot Bufferize's __inplace_operands_attr__ in its analysis
    // mode.)
    if (name.contains('.') || name.starts_with("__"))
      continue;
    // attic.attention's verifier says what to write instead.
    if (isa<AttentionOp>(op) && (name == "mask_fn" || name == "score_fn"))
      continue;
    InFlightDiagnostic diag = op->emitOpError("has no attribute '")
                              << name << "'";
    SmallVector<StringRef> own;
    for (StringAttr inherent : op->getName().getAttributeNames())
      if (inherent.strref() != "operandSegmentSizes" &&
          inherent.strref() != "resultSegmentSizes")
        own.push_back(inherent.strref());
    if (own.empty())
      diag << " (it takes none)";
    else
      diag << " (its attributes: " << llvm::join(own, ", ") << ")";
    diag << "; an attribute of another meaning needs a dialect prefix (e.g. "
            "'mine."
         << name << "')";
    return failure();
  }
  return success();
}

/// How deep attic attributes may nest in the text (#attic.intersect of
/// #attic.union of ...). Parsing recurses per level: 6000 levels
/// overflowed the stack ("internal error", exit 70; an audit). A layout
/// nests a few levels in practice.
static constexpr int kMaxAttributeNesting = 100;

Attribute AtticDialect::parseAttribute(DialectAsmParser &parser,
                                       Type type) const {
  static thread_local int depth = 0;
  // Set once the nesting error is given: each level around it would add a
  // "failed to parse ... parameter" error echoing the whole line (6000
  // levels wrote gigabytes), so the outermost level swallows those.
  static thread_local bool tooDeep = false;
  SMLoc loc = parser.getCurrentLocation();
  if (depth >= kMaxAttributeNesting) {
    parser.emitError(loc) << "attic attributes nest more than "
                          << kMaxAttributeNesting << " levels deep here";
    tooDeep = true;
    return {};
  }
  std::optional<ScopedDiagnosticHandler> quiet;
  if (depth == 0)
    quiet.emplace(parser.getContext(),
                  [](Diagnostic &) { return success(tooDeep); });
  ++depth;
  llvm::scope_exit leave([] {
    if (--depth == 0)
      tooDeep = false;
  });
  StringRef mnemonic;
  Attribute attr;
  OptionalParseResult parsed =
      generatedAttributeParser(parser, &mnemonic, type, attr);
  if (parsed.has_value())
    return attr;
  parser.emitError(loc) << "unknown attribute `" << mnemonic
                        << "` in dialect `" << getNamespace() << "`";
  return {};
}

void AtticDialect::printAttribute(Attribute attr,
                                  DialectAsmPrinter &printer) const {
  (void)generatedAttributePrinter(attr, printer);
}

void AtticDialect::initialize() {
  addInterfaces<AtticInlinerInterface>();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "AtticAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "AtticTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "AtticOps.cpp.inc"
      >();
}

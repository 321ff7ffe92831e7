//===- AtticDialect.h - the attic dialect -------------------------*- C++ -*-===//

#ifndef ATTIC_DIALECT_ATTIC_ATTICDIALECT_H
#define ATTIC_DIALECT_ATTIC_ATTICDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "attic/Dialect/Attic/Layout.h"

#include "AtticDialect.h.inc"
#include "AtticEnums.h.inc"
#include "AtticAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "AtticAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "AtticTypes.h.inc"

namespace attic {
/// Fails, naming the attribute and the op's own, where an attic op carries
/// an attribute without a dialect prefix that is not one of its own (a
/// `{causal}` on an op without causal masking verified and was ignored: a
/// 2026-11-30 audit). Discardable attributes keep a prefix (`mine.tag`).
mlir::LogicalResult verifyNoUnknownAttributes(mlir::Operation *op);

/// Parses an integer parameter of an attic attribute or type into `value`
/// and refuses `true` and `false`, which AsmParser::parseInteger (and so
/// ODS's FieldParser<int64_t>) reads as 1 and 0: `#attic.sinks<count =
/// true>` was one sink (an audit).
mlir::ParseResult parseIntegerParameter(mlir::AsmParser &parser,
                                        int64_t &value);

/// The trait of every attic op (Attic_Op) that calls it.
template <typename ConcreteType>
class NoUnknownAttributes
    : public mlir::OpTrait::TraitBase<ConcreteType, NoUnknownAttributes> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyNoUnknownAttributes(op);
  }
};
} // namespace attic

#define GET_OP_CLASSES
#include "AtticOps.h.inc"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace attic {
/// True when `layout`'s block visibility is exact (`any` and `all` are the
/// block's truth, not bounds of it): the atomic static layouts, random
/// blocks, and blocked layouts of exact ones. False for document ids
/// (per-block id ranges) and for intersections and unions of more than one
/// layout, whose visibility is sound only.
bool hasExactBlockVisibility(LayoutAttrInterface layout);

/// Registers the external models (one-shot bufferization) of attic ops.
void registerBufferizableOpInterfaceExternalModels(mlir::DialectRegistry &registry);
} // namespace attic

#endif // ATTIC_DIALECT_ATTIC_ATTICDIALECT_H

//===- AtticDialect.cpp - the attic dialect ---------------------*- C++ -*-===//

#include "attic/Dialect/Attic/AtticDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace attic;

#include "AtticDialect.cpp.inc"
#include "AtticEnums.cpp.inc"
#include "AtticAttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "AtticAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "AtticTypes.cpp.inc"

void AtticDialect::initialize() {
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

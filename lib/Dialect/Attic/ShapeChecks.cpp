//===- ShapeChecks.cpp - shape checks shared by attic verifiers -*- C++ -*-===//

#include "ShapeChecks.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::string attic::detail::formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      shape, os,
      [&](int64_t d) {
        if (ShapedType::isDynamic(d))
          os << '?';
        else
          os << d;
      },
      "x");
  return text;
}

LogicalResult attic::detail::checkShape(Operation *op, StringRef name,
                                        ShapedType type,
                                        ArrayRef<ExpectedDim> expected) {
  std::string symbols;
  SmallVector<int64_t> expectedShape;
  for (const ExpectedDim &dim : expected) {
    symbols += symbols.empty() ? "" : ",";
    symbols += dim.symbol;
    expectedShape.push_back(dim.size);
  }
  if (type.getRank() != static_cast<int64_t>(expected.size()))
    return op->emitOpError()
           << name << " must have rank " << expected.size() << " ([" << symbols
           << "] = " << formatShape(expectedShape) << "), got " << type;
  for (auto [index, dim] : llvm::enumerate(expected)) {
    int64_t actual = type.getDimSize(index);
    if (ShapedType::isDynamic(actual) || ShapedType::isDynamic(dim.size) ||
        actual == dim.size)
      continue;
    return op->emitOpError()
           << name << " has shape " << formatShape(type.getShape()) << " but ["
           << symbols << "] = " << formatShape(expectedShape)
           << " is expected: dim " << index << " (" << dim.symbol << ") is "
           << actual << ", " << dim.source << " has " << dim.size;
  }
  return success();
}

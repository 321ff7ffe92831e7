//===- ShapeChecks.cpp - shape checks shared by attic verifiers -*- C++ -*-===//

#include "ShapeChecks.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

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

LogicalResult attic::detail::checkPositiveShape(Operation *op, StringRef name,
                                                ShapedType type, int64_t rank,
                                                StringRef dims) {
  if (type.getRank() != rank)
    return op->emitOpError()
           << name << " must be " << dims << ", got rank " << type.getRank();
  // The decompositions build tensors a small multiple of the operands'
  // (LSH's [B*H, 2N], its rounds): 2^62 tokens wrapped to the dynamic size.
  for (int64_t size : type.getShape())
    if (size < 1)
      return op->emitOpError()
             << name << " " << dims << " = " << formatShape(type.getShape())
             << " must have positive sizes";
  if (elementsAbove(type.getShape()))
    return op->emitOpError()
           << name << " " << dims << " = " << formatShape(type.getShape())
           << " must have at most 2^40 = " << kMaxStaticElements << " elements";
  return success();
}

bool attic::detail::elementsAbove(ArrayRef<int64_t> sizes, int64_t limit) {
  int64_t elements = 1;
  for (int64_t size : sizes) {
    if (size == 0)
      return false;
    if (size > limit / elements)
      return true;
    elements *= size;
  }
  return elements > limit;
}

LogicalResult
attic::detail::checkAttentionShapes(Operation *op, ShapedType query,
                                    ShapedType key, ShapedType value,
                                    ShapedType result, ShapedType mask) {
  if (failed(checkPositiveShape(op, "query", query, 4, "[B,H,Nq,D]")) ||
      failed(checkPositiveShape(op, "key", key, 4, "[B,H,Nk,D]")) ||
      failed(checkPositiveShape(op, "value", value, 4, "[B,H,Nk,Dv]")))
    return failure();
  int64_t batch = query.getDimSize(0), heads = query.getDimSize(1),
          queries = query.getDimSize(2), dim = query.getDimSize(3);
  int64_t keys = key.getDimSize(2), valueDim = value.getDimSize(3);
  if (failed(checkShape(op, "key", key,
                        {{batch, "B", "query"},
                         {heads, "H", "query"},
                         {keys, "Nk", "key"},
                         {dim, "D", "query"}})) ||
      failed(checkShape(op, "value", value,
                        {{batch, "B", "query"},
                         {heads, "H", "query"},
                         {keys, "Nk", "key"},
                         {valueDim, "Dv", "value"}})))
    return failure();
  if (mask && failed(checkShape(op, "mask", mask,
                                {{batch, "B", "query"}, {keys, "Nk", "key"}})))
    return failure();
  return checkShape(op, "result", result,
                    {{batch, "B", "query"},
                     {heads, "H", "query"},
                     {queries, "Nq", "query"},
                     {valueDim, "Dv", "value"}});
}

float attic::detail::defaultScale(ShapedType query) {
  return static_cast<float>(1.0 / std::sqrt(double(query.getDimSize(3))));
}

LogicalResult attic::detail::verifyPositiveScale(Operation *op,
                                                 std::optional<APFloat> scale) {
  if (!scale)
    return success();
  float s = scale->convertToFloat();
  if (!std::isfinite(s) || s <= 0.0f)
    return op->emitOpError("scale must be finite and positive, got ") << s;
  return verifyScaleMagnitude(op, s);
}

LogicalResult attic::detail::verifyScaleMagnitude(Operation *op, float scale) {
  // The product as the kernels round it: in f32 (score regions, the
  // sketches), or in double rounded to f32 (the tile loop's constant).
  float log2e = static_cast<float>(llvm::numbers::log2e);
  if (std::isfinite(scale * log2e) &&
      std::isfinite(static_cast<float>(double(scale) * llvm::numbers::log2e)))
    return success();
  return op->emitOpError("scale must be at most 2.3586574e38 in magnitude (the "
                         "kernels multiply it by log2(e) in f32), got ")
         << scale;
}

//===- SketchOps.cpp - sketched and low-rank attention ----------*- C++ -*-===//
//
// Verifiers of attic.skeinformer_attention, attic.informer_attention,
// attic.linformer_attention, attic.nystrom_attention and
// attic.synthesizer_attention (dialects/AtticSketchOps.td). The op classes
// are generated into AtticOps.cpp.inc, which AtticOps.cpp includes.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"

#include "ShapeChecks.h"

#include <cmath>

using namespace mlir;
using namespace attic;
using attic::detail::checkAttentionShapes;
using attic::detail::checkPositiveShape;
using attic::detail::checkShape;
using attic::detail::verifyPositiveScale;

namespace {

/// `scale`, else 1/sqrt(D) of the query.
float effectiveScale(std::optional<APFloat> scale, RankedTensorType query) {
  if (scale)
    return scale->convertToFloat();
  return attic::detail::defaultScale(query);
}

/// `min(limit, factor * ceil(ln n))`, Informer's u and U.
int64_t logCount(int64_t factor, int64_t n, int64_t limit) {
  int64_t count = factor * int64_t(std::ceil(std::log(double(n))));
  return std::min(limit, std::max<int64_t>(count, 1));
}

} // namespace

//===----------------------------------------------------------------------===//
// Skeinformer
//===----------------------------------------------------------------------===//

float SkeinformerAttentionOp::getEffectiveScale() {
  return effectiveScale(getScale(), getQuery().getType());
}

LogicalResult SkeinformerAttentionOp::verify() {
  if (failed(checkAttentionShapes(*this, getQuery().getType(),
                                  getKey().getType(), getValue().getType(),
                                  getResult().getType(), ShapedType())) ||
      failed(verifyPositiveScale(*this, getScale())))
    return failure();
  int64_t keys = getKey().getType().getDimSize(2);
  int64_t samples = getSamplesAttr().getInt();
  if (samples < 1 || samples > keys)
    return emitOpError("samples must be in [1, Nk] = [1, ")
           << keys << "] (Nk from key), got " << samples;
  if (samples < keys && !getSeed())
    return emitOpError("needs a seed: samples = ")
           << samples << " < Nk = " << keys
           << " draws the pilot rows and the sampled keys";
  return success();
}

//===----------------------------------------------------------------------===//
// Informer
//===----------------------------------------------------------------------===//

float InformerAttentionOp::getEffectiveScale() {
  return effectiveScale(getScale(), getQuery().getType());
}

int64_t InformerAttentionOp::getActiveCount() {
  int64_t queries = getQuery().getType().getDimSize(2);
  if (getActiveAttr())
    return getActiveAttr().getInt();
  return logCount(getFactorAttr().getInt(), queries, queries);
}

int64_t InformerAttentionOp::getSampleCount() {
  int64_t keys = getKey().getType().getDimSize(2);
  if (getSamplesAttr())
    return getSamplesAttr().getInt();
  return logCount(getFactorAttr().getInt(), keys, keys);
}

LogicalResult InformerAttentionOp::verify() {
  if (failed(checkAttentionShapes(*this, getQuery().getType(),
                                  getKey().getType(), getValue().getType(),
                                  getResult().getType(), ShapedType())) ||
      failed(verifyPositiveScale(*this, getScale())))
    return failure();
  int64_t queries = getQuery().getType().getDimSize(2);
  int64_t keys = getKey().getType().getDimSize(2);
  int64_t factor = getFactorAttr().getInt();
  if (factor < 1 || factor > 1000)
    return emitOpError("factor must be in [1, 1000], got ") << factor;
  if (getActiveAttr()) {
    int64_t active = getActiveAttr().getInt();
    if (active < 1 || active > queries)
      return emitOpError("active must be in [1, Nq] = [1, ")
             << queries << "] (Nq from query), got " << active;
  }
  if (getSamplesAttr()) {
    int64_t samples = getSamplesAttr().getInt();
    if (samples < 1 || samples > keys)
      return emitOpError("samples must be in [1, Nk] = [1, ")
             << keys << "] (Nk from key), got " << samples;
  }
  // factor only sizes what samples and active leave to it (a factor with
  // both was accepted and ignored; an audit). The default, 5, cannot be
  // told from a written one.
  if (getSamplesAttr() && getActiveAttr() && factor != 5)
    return emitOpError("factor = ")
           << factor
           << " has no effect: samples and active are both given (drop one "
              "of them or the factor)";
  if (getActiveCount() < queries && !getSeed())
    return emitOpError("needs a seed: ")
           << getActiveCount() << " active queries of Nq = " << queries
           << " are chosen from sampled keys";
  return success();
}

//===----------------------------------------------------------------------===//
// Linformer
//===----------------------------------------------------------------------===//

float LinformerAttentionOp::getEffectiveScale() {
  return effectiveScale(getScale(), getQuery().getType());
}

LogicalResult LinformerAttentionOp::verify() {
  ShapedType mask;
  if (getMask())
    mask = getMask().getType();
  if (failed(checkAttentionShapes(*this, getQuery().getType(),
                                  getKey().getType(), getValue().getType(),
                                  getResult().getType(), mask)) ||
      failed(verifyPositiveScale(*this, getScale())))
    return failure();
  RankedTensorType key = getKey().getType();
  int64_t heads = key.getDimSize(1), keys = key.getDimSize(2);
  RankedTensorType e = getKeyProjection().getType();
  if (failed(checkPositiveShape(*this, "key_projection", e, 3, "[Hp,P,Nk]")))
    return failure();
  if (e.getDimSize(0) != 1 && e.getDimSize(0) != heads)
    return emitOpError("key_projection has ")
           << e.getDimSize(0)
           << " heads; [Hp,P,Nk] needs Hp = 1 (shared) or H = " << heads
           << " (from key)";
  if (failed(checkShape(*this, "key_projection", e,
                        {{e.getDimSize(0), "Hp", "key_projection"},
                         {e.getDimSize(1), "P", "key_projection"},
                         {keys, "Nk", "key"}})))
    return failure();
  if (Value f = getValueProjection()) {
    if (failed(checkShape(*this, "value_projection",
                          cast<ShapedType>(f.getType()),
                          {{e.getDimSize(0), "Hp", "key_projection"},
                           {e.getDimSize(1), "P", "key_projection"},
                           {keys, "Nk", "key"}})))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Nystromformer
//===----------------------------------------------------------------------===//

float NystromAttentionOp::getEffectiveScale() {
  return effectiveScale(getScale(), getQuery().getType());
}

LogicalResult NystromAttentionOp::verify() {
  if (failed(checkAttentionShapes(*this, getQuery().getType(),
                                  getKey().getType(), getValue().getType(),
                                  getResult().getType(), ShapedType())) ||
      failed(verifyPositiveScale(*this, getScale())))
    return failure();
  int64_t queries = getQuery().getType().getDimSize(2);
  int64_t keys = getKey().getType().getDimSize(2);
  int64_t landmarks = getLandmarksAttr().getInt();
  if (landmarks < 1 || queries % landmarks != 0 || keys % landmarks != 0)
    return emitOpError("landmarks must be positive and divide Nq = ")
           << queries << " and Nk = " << keys
           << " (segment means without padding), got " << landmarks;
  int64_t iterations = getIterationsAttr().getInt();
  if (iterations < 1 || iterations > 100)
    return emitOpError("iterations must be in [1, 100], got ") << iterations;
  if (Value conv = getConv()) {
    auto type = cast<RankedTensorType>(conv.getType());
    int64_t heads = getQuery().getType().getDimSize(1);
    if (failed(checkPositiveShape(*this, "conv", type, 2, "[H,W]")) ||
        failed(checkShape(
            *this, "conv", type,
            {{heads, "H", "query"}, {type.getDimSize(1), "W", "conv"}})))
      return failure();
    if (type.getDimSize(1) % 2 == 0)
      return emitOpError("conv width W must be odd (centered), got ")
             << type.getDimSize(1);
    if (queries != keys)
      return emitOpError("conv adds a convolution of value to the result: "
                         "needs Nq = Nk, got ")
             << queries << " and " << keys;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Synthesizer
//===----------------------------------------------------------------------===//

LogicalResult SynthesizerAttentionOp::verify() {
  RankedTensorType r1 = getR1().getType(), r2 = getR2().getType(),
                   value = getValue().getType();
  if (failed(checkPositiveShape(*this, "r1", r1, 3, "[H,Nq,k]")) ||
      failed(checkPositiveShape(*this, "value", value, 4, "[B,H,Nk,Dv]")))
    return failure();
  int64_t heads = r1.getDimSize(0), queries = r1.getDimSize(1),
          rank = r1.getDimSize(2);
  int64_t batch = value.getDimSize(0), keys = value.getDimSize(2),
          valueDim = value.getDimSize(3);
  if (failed(checkShape(
          *this, "r2", r2,
          {{heads, "H", "r1"}, {keys, "Nk", "value"}, {rank, "k", "r1"}})) ||
      failed(checkShape(*this, "value", value,
                        {{batch, "B", "value"},
                         {heads, "H", "r1"},
                         {keys, "Nk", "value"},
                         {valueDim, "Dv", "value"}})) ||
      failed(checkShape(*this, "result", getResult().getType(),
                        {{batch, "B", "value"},
                         {heads, "H", "r1"},
                         {queries, "Nq", "r1"},
                         {valueDim, "Dv", "value"}})))
    return failure();
  if (Value mask = getMask())
    if (failed(checkShape(*this, "mask", cast<ShapedType>(mask.getType()),
                          {{batch, "B", "value"}, {keys, "Nk", "value"}})))
      return failure();
  if (failed(attic::detail::verifyPositiveScale(*this, getScale())))
    return failure();
  return success();
}

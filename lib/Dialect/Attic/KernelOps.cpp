//===- KernelOps.cpp - kernelized attention and its L2 ops ------*- C++ -*-===//
//
// Verifiers of attic.kernelized_attention, attic.feature_map,
// attic.state_reduce and attic.state_scan (dialects/AtticKernelOps.td).
// The op classes are generated into AtticOps.cpp.inc, which AtticOps.cpp
// includes.
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"

#include "ShapeChecks.h"

#include <algorithm>

using namespace mlir;
using namespace attic;
using attic::detail::checkAttentionShapes;
using attic::detail::checkPositiveShape;
using attic::detail::checkShape;
using attic::detail::formatShape;

namespace {

bool isRandom(FeatureMap map) {
  return map == FeatureMap::PerformerRelu || map == FeatureMap::FavorPlus;
}

/// Features per row of `map` on rows of width `dim` (`projected`: the
/// projection's row count).
int64_t featureCount(FeatureMap map, int64_t dim, int64_t projected) {
  if (isRandom(map))
    return projected;
  return map == FeatureMap::Cosformer ? 2 * dim : dim;
}

} // namespace

int64_t KernelizedAttentionOp::getFeatureCount() {
  int64_t dim = getQuery().getType().getDimSize(3);
  int64_t projected =
      getProjection() ? getProjection().getType().getDimSize(0)
                      : (getFeaturesAttr() ? getFeaturesAttr().getInt() : 0);
  return featureCount(getFeatureMap(), dim, projected);
}

int64_t KernelizedAttentionOp::getChunkOr() {
  // The attributes' signed values (the accessors return them unsigned).
  if (IntegerAttr chunk = getChunkAttr())
    return chunk.getInt();
  // The largest divisor of N up to 64 (N = 100: 50), so that the default
  // always divides N.
  int64_t tokens = getQuery().getType().getDimSize(2);
  int64_t chunk = std::min<int64_t>(64, tokens);
  while (chunk > 1 && tokens % chunk != 0)
    --chunk;
  return chunk;
}

LogicalResult KernelizedAttentionOp::verify() {
  RankedTensorType query = getQuery().getType();
  RankedTensorType key = getKey().getType();
  if (failed(checkAttentionShapes(
          *this, query, key, getValue().getType(), getResult().getType(),
          getMask() ? getMask().getType() : ShapedType())))
    return failure();
  int64_t queries = query.getDimSize(2), dim = query.getDimSize(3);
  int64_t keys = key.getDimSize(2);

  FeatureMap map = getFeatureMap();
  if (isRandomFeatureMap()) {
    if (getProjection()) {
      if (getFeatures() || getSeed())
        return emitOpError("takes its random features from `projection`; "
                           "`features` and `seed` are for drawing them "
                           "(give one or the other)");
      RankedTensorType projection = getProjection().getType();
      if (projection.getRank() != 2 || projection.getDimSize(0) < 1)
        return emitOpError("projection must be [p,D] with p >= 1, got ")
               << formatShape(projection.getShape());
      if (failed(checkShape(*this, "projection", projection,
                            {{projection.getDimSize(0), "p", "projection"},
                             {dim, "D", "query"}})))
        return failure();
    } else {
      if (!getFeatures())
        return emitOpError("feature map '")
               << stringifyFeatureMap(map)
               << "' needs `features` (the number of random features) and "
                  "`seed`, or a `projection` operand";
      int64_t features = getFeaturesAttr().getInt();
      if (features < 1)
        return emitOpError("features must be >= 1, got ") << features;
      if (features > (int64_t(1) << 20))
        return emitOpError("features must be at most 2^20, got ") << features;
      // The projection [features, D] is drawn (and, for FAVOR+,
      // orthogonalized: features * D^2 steps) at compile time.
      if (features * dim > (int64_t(1) << 24) ||
          features * dim * dim > (int64_t(1) << 32))
        return emitOpError("features = ")
               << features << " with D = " << dim
               << " draws a projection at compile time of features * D = "
               << features * dim
               << " values and features * D^2 = " << features * dim * dim
               << " steps, above 2^24 and 2^32; pass a `projection` operand";
      if (!getSeed())
        return emitOpError("feature map '")
               << stringifyFeatureMap(map)
               << "' draws random features and needs a `seed` (or a "
                  "`projection` operand)";
    }
  } else {
    if (getProjection() || getFeatures() || getSeed())
      return emitOpError("feature map '")
             << stringifyFeatureMap(map)
             << "' is deterministic: `projection`, `features` and `seed` "
                "are only for performer_relu and favor_plus";
  }

  if (getCausal()) {
    if (queries != keys)
      return emitOpError("causal needs as many queries as keys, got Nq = ")
             << queries << " and Nk = " << keys;
    int64_t chunk = getChunkOr();
    if (chunk < 1)
      return emitOpError("chunk must be >= 1, got ") << chunk;
    if (queries % chunk != 0)
      return emitOpError("chunk = ")
             << chunk << " does not divide the sequence length N = " << queries
             << " (choose a divisor of N, or pad the sequence "
             << "and mask the padding)";
  } else if (getChunk()) {
    return emitOpError("chunk is the causal form's chunk length; it needs "
                       "`causal`");
  }
  float eps = getEps().convertToFloat();
  if (!(eps > 0.0f) || !std::isfinite(eps))
    return emitOpError("eps must be a positive finite number, got ") << eps;
  // The feature maps phi(Q) and phi(K) that the op decomposes into, bounded
  // as the operands are (checkPositiveShape), here rather than on the
  // attic.state_reduce the user did not write.
  __int128 featureElements = __int128(query.getDimSize(0)) *
                             query.getDimSize(1) * std::max(queries, keys) *
                             getFeatureCount();
  if (featureElements > detail::kMaxStaticElements)
    return emitOpError("the feature maps [B,H,N,F] = [")
           << query.getDimSize(0) << "," << query.getDimSize(1) << ","
           << std::max(queries, keys) << "," << getFeatureCount()
           << "] must have at most 2^40 = " << detail::kMaxStaticElements
           << " elements";
  return success();
}

/// FAVOR+'s optional per-row stabilizer `[B,H,N]`, shaped as the first
/// three dims of `like` (named `likeName`); success when there is none.
static LogicalResult checkStabilizer(Operation *op, Value stabilizer,
                                     RankedTensorType like,
                                     const char *likeName) {
  if (!stabilizer)
    return success();
  return checkShape(op, "stabilizer",
                    cast<RankedTensorType>(stabilizer.getType()),
                    {{like.getDimSize(0), "B", likeName},
                     {like.getDimSize(1), "H", likeName},
                     {like.getDimSize(2), "N", likeName}});
}

LogicalResult FeatureMapOp::verify() {
  RankedTensorType input = getInput().getType();
  if (failed(checkPositiveShape(*this, "input", input, 4, "[B,H,N,D]")))
    return failure();
  int64_t dim = input.getDimSize(3);
  FeatureMap map = getMap();
  int64_t projected = 0;
  if (isRandom(map)) {
    if (!getProjection())
      return emitOpError("feature map '")
             << stringifyFeatureMap(map) << "' needs a `projection` [p,D]";
    RankedTensorType projection = getProjection().getType();
    if (projection.getRank() != 2 || projection.getDimSize(0) < 1)
      return emitOpError("projection must be [p,D] with p >= 1, got ")
             << formatShape(projection.getShape());
    if (failed(checkShape(*this, "projection", projection,
                          {{projection.getDimSize(0), "p", "projection"},
                           {dim, "D", "input"}})))
      return failure();
    projected = projection.getDimSize(0);
  } else if (getProjection()) {
    return emitOpError("feature map '")
           << stringifyFeatureMap(map) << "' takes no projection";
  }
  if (map == FeatureMap::Cosformer) {
    if (!getPeriod())
      return emitOpError("feature map 'cosformer' needs `period` (m, at "
                         "least the sequence length)");
    if (getPeriodAttr().getInt() < input.getDimSize(2))
      return emitOpError("period m = ")
             << getPeriodAttr().getInt()
             << " must be at least the sequence length N = "
             << input.getDimSize(2);
  } else if (getPeriod()) {
    return emitOpError("period is cosformer's m; feature map '")
           << stringifyFeatureMap(map) << "' takes none";
  }
  if (getStabilizer() && map != FeatureMap::FavorPlus)
    return emitOpError("result `stabilizer` is FAVOR+'s; feature map '")
           << stringifyFeatureMap(map) << "' has none";
  int64_t features = featureCount(map, dim, projected);
  if (failed(checkShape(*this, "result", getResult().getType(),
                        {{input.getDimSize(0), "B", "input"},
                         {input.getDimSize(1), "H", "input"},
                         {input.getDimSize(2), "N", "input"},
                         {features, "F", "feature map"}})))
    return failure();
  return checkStabilizer(*this, getStabilizer(), input, "input");
}

LogicalResult StateReduceOp::verify() {
  RankedTensorType features = getFeatures().getType();
  RankedTensorType value = getValue().getType();
  if (failed(checkPositiveShape(*this, "features", features, 4, "[B,H,N,F]")) ||
      failed(checkPositiveShape(*this, "value", value, 4, "[B,H,N,Dv]")))
    return failure();
  int64_t batch = features.getDimSize(0), heads = features.getDimSize(1),
          keys = features.getDimSize(2), count = features.getDimSize(3),
          valueDim = value.getDimSize(3);
  if (failed(checkShape(*this, "value", value,
                        {{batch, "B", "features"},
                         {heads, "H", "features"},
                         {keys, "N", "features"},
                         {valueDim, "Dv", "value"}})))
    return failure();
  if (getMask() &&
      failed(checkShape(*this, "mask", getMask().getType(),
                        {{batch, "B", "features"}, {keys, "N", "features"}})))
    return failure();
  if (failed(checkStabilizer(*this, getStabilizer(), features, "features")))
    return failure();
  if (failed(checkShape(*this, "state", getState().getType(),
                        {{batch, "B", "features"},
                         {heads, "H", "features"},
                         {count, "F", "features"},
                         {valueDim, "Dv", "value"}})))
    return failure();
  return checkShape(*this, "normalizer", getNormalizer().getType(),
                    {{batch, "B", "features"},
                     {heads, "H", "features"},
                     {count, "F", "features"}});
}

LogicalResult StateScanOp::verify() {
  RankedTensorType query = getQueryFeatures().getType();
  RankedTensorType key = getKeyFeatures().getType();
  RankedTensorType value = getValue().getType();
  if (failed(
          checkPositiveShape(*this, "query_features", query, 4, "[B,H,N,F]")) ||
      failed(checkPositiveShape(*this, "value", value, 4, "[B,H,N,Dv]")))
    return failure();
  int64_t batch = query.getDimSize(0), heads = query.getDimSize(1),
          tokens = query.getDimSize(2), count = query.getDimSize(3),
          valueDim = value.getDimSize(3);
  if (failed(checkShape(*this, "key_features", key,
                        {{batch, "B", "query_features"},
                         {heads, "H", "query_features"},
                         {tokens, "N", "query_features"},
                         {count, "F", "query_features"}})) ||
      failed(checkShape(*this, "value", value,
                        {{batch, "B", "query_features"},
                         {heads, "H", "query_features"},
                         {tokens, "N", "query_features"},
                         {valueDim, "Dv", "value"}})))
    return failure();
  if (getMask() && failed(checkShape(*this, "mask", getMask().getType(),
                                     {{batch, "B", "query_features"},
                                      {tokens, "N", "query_features"}})))
    return failure();
  if (failed(checkStabilizer(*this, getStabilizer(), query, "query_features")))
    return failure();
  int64_t chunk = getChunkAttr().getInt();
  if (chunk < 1)
    return emitOpError("chunk must be >= 1, got ") << chunk;
  if (tokens % chunk != 0)
    return emitOpError("chunk = ")
           << chunk << " does not divide the sequence length N = " << tokens;
  if (failed(checkShape(*this, "numerator", getNumerator().getType(),
                        {{batch, "B", "query_features"},
                         {heads, "H", "query_features"},
                         {tokens, "N", "query_features"},
                         {valueDim, "Dv", "value"}})))
    return failure();
  return checkShape(*this, "denominator", getDenominator().getType(),
                    {{batch, "B", "query_features"},
                     {heads, "H", "query_features"},
                     {tokens, "N", "query_features"}});
}

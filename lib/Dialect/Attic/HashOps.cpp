//===- HashOps.cpp - LSH attention and its L2 ops ---------------*- C++ -*-===//
//
// Verifiers of attic.lsh_attention, attic.lsh_hash and attic.bucket_sort
// (dialects/AtticHashOps.td). The op classes are generated into
// AtticOps.cpp.inc, which AtticOps.cpp includes.
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
using attic::detail::defaultScale;
using attic::detail::formatShape;
using attic::detail::verifyPositiveScale;

float LshAttentionOp::getEffectiveScale() {
  if (std::optional<APFloat> scale = getScale())
    return scale->convertToFloat();
  return defaultScale(getQk().getType());
}

LogicalResult LshAttentionOp::verify() {
  RankedTensorType qk = getQk().getType(), value = getValue().getType();
  if (failed(checkPositiveShape(*this, "qk", qk, 4, "[B,H,N,D]")) ||
      failed(checkPositiveShape(*this, "value", value, 4, "[B,H,N,Dv]")))
    return failure();
  int64_t batch = qk.getDimSize(0), heads = qk.getDimSize(1),
          length = qk.getDimSize(2);
  int64_t valueDim = value.getDimSize(3);
  if (failed(checkShape(*this, "value", value,
                        {{batch, "B", "qk"},
                         {heads, "H", "qk"},
                         {length, "N", "qk"},
                         {valueDim, "Dv", "value"}})) ||
      failed(checkShape(*this, "result", getResult().getType(),
                        {{batch, "B", "qk"},
                         {heads, "H", "qk"},
                         {length, "N", "qk"},
                         {valueDim, "Dv", "value"}})))
    return failure();
  if (getMask() &&
      failed(checkShape(*this, "mask", getMask().getType(),
                        {{batch, "B", "qk"}, {length, "N", "qk"}})))
    return failure();
  // The attributes' signed values (the accessors return them unsigned).
  int64_t buckets = getBucketsAttr().getInt();
  int64_t rounds = getRoundsAttr().getInt();
  int64_t chunk = getChunkAttr().getInt();
  if (buckets < 1 || (buckets > 1 && buckets % 2 != 0))
    return emitOpError("buckets must be 1 or a positive even number (the "
                       "hash argmax([xR; -xR]) has two buckets per rotation), "
                       "got ")
           << buckets;
  if (buckets > (int64_t(1) << 16))
    return emitOpError("buckets must be at most 65536, got ") << buckets;
  if (rounds < 1 || rounds > 64)
    return emitOpError("rounds must be in [1, 64], got ") << rounds;
  if (chunk < 1 || length % chunk != 0)
    return emitOpError("chunk must be positive and divide N = ")
           << length << ", got " << chunk
           << " (pad the sequence to a multiple of the chunk)";
  if (buckets > 1 && !getSeed())
    return emitOpError("hashing into ")
           << buckets << " buckets draws random rotations and needs a `seed`";
  // (Accepted and ignored before: an audit.)
  if (buckets == 1 && getSeed())
    return emitOpError("hashing into 1 bucket draws no rotations: a `seed` "
                       "has no effect (drop it)");
  // The rotations [D, rounds * buckets / 2] are drawn into a constant at
  // compile time: 3.4 GB and 20 s at D = 64, 65536 buckets, 64 rounds (a
  // 2026-11-30 audit). The cap of kernelized_attention's projection.
  int64_t dim = qk.getDimSize(3);
  if (buckets > 1 && dim * (buckets / 2) * rounds > (int64_t(1) << 24))
    return emitOpError("buckets = ")
           << buckets << " and rounds = " << rounds << " with D = " << dim
           << " draw D * rounds * buckets / 2 = "
           << dim * (buckets / 2) * rounds
           << " rotation values at compile time, above 2^24; use fewer "
              "buckets or rounds (or attic.lsh_hash with rotations of your "
              "own)";
  if (failed(verifyPositiveScale(*this, getScale())))
    return failure();
  return success();
}

LogicalResult LshHashOp::verify() {
  RankedTensorType x = getX().getType(), rotations = getRotations().getType();
  if (failed(checkPositiveShape(*this, "x", x, 4, "[B,H,N,D]")) ||
      failed(checkPositiveShape(*this, "rotations", rotations, 2, "[D,K]")))
    return failure();
  if (failed(checkShape(*this, "rotations", rotations,
                        {{x.getDimSize(3), "D", "x"},
                         {rotations.getDimSize(1), "K", "rotations"}})) ||
      failed(checkShape(*this, "buckets", getBuckets().getType(),
                        {{x.getDimSize(0), "B", "x"},
                         {x.getDimSize(1), "H", "x"},
                         {x.getDimSize(2), "N", "x"}})))
    return failure();
  return success();
}

LogicalResult BucketSortOp::verify() {
  RankedTensorType buckets = getBuckets().getType();
  if (failed(checkPositiveShape(*this, "buckets", buckets, 3, "[B,H,N]")))
    return failure();
  std::initializer_list<attic::detail::ExpectedDim> same = {
      {buckets.getDimSize(0), "B", "buckets"},
      {buckets.getDimSize(1), "H", "buckets"},
      {buckets.getDimSize(2), "N", "buckets"}};
  if (failed(checkShape(*this, "perm", getPerm().getType(), same)) ||
      failed(checkShape(*this, "inverse", getInverse().getType(), same)))
    return failure();
  int64_t count = getNumBucketsAttr().getInt();
  if (count < 1)
    return emitOpError("num_buckets must be positive, got ") << count;
  // The counting sort keeps a histogram of num_buckets entries per 64
  // tokens: 2^62 wrapped its size (a segfault on the CPU, garbage on the
  // emulated GPU; a 2026-11-30 audit), 2^31 took 16 GB.
  if (count > (int64_t(1) << 24))
    return emitOpError("num_buckets must be at most 2^24 = 16777216 (the "
                       "sort keeps a histogram of num_buckets entries per 64 "
                       "tokens), got ")
           << count;
  return success();
}

float ClusteredAttentionOp::getEffectiveScale() {
  if (std::optional<APFloat> scale = getScale())
    return scale->convertToFloat();
  return defaultScale(getQuery().getType());
}

namespace {
/// The clusters / iterations / seed rules shared by the two K-means ops.
LogicalResult verifyKMeans(Operation *op, int64_t rows, int64_t clusters,
                           int64_t iterations, bool hasSeed) {
  if (clusters < 1 || clusters > rows)
    return op->emitOpError("clusters must be in [1, N] = [1, ")
           << rows << "], got " << clusters;
  if (iterations < 1 || iterations > 100)
    return op->emitOpError("iterations must be in [1, 100], got ")
           << iterations;
  if (clusters < rows && !hasSeed)
    return op->emitOpError("K-means with ")
           << clusters << " clusters of " << rows
           << " rows draws its initial centroids and needs a `seed`";
  return success();
}
} // namespace

LogicalResult ClusteredAttentionOp::verify() {
  RankedTensorType query = getQuery().getType();
  if (failed(
          checkAttentionShapes(*this, query, getKey().getType(),
                               getValue().getType(), getResult().getType(),
                               getMask() ? getMask().getType() : ShapedType())))
    return failure();
  int64_t queries = query.getDimSize(2);
  int64_t keys = getKey().getType().getDimSize(2);
  if (failed(verifyPositiveScale(*this, getScale())))
    return failure();
  if (IntegerAttr topk = getTopkAttr())
    if (topk.getInt() < 1 || topk.getInt() > keys)
      return emitOpError("topk must be in [1, Nk] = [1, ")
             << keys << "], got " << topk.getInt();
  return verifyKMeans(*this, queries, getClustersAttr().getInt(),
                      getIterationsAttr().getInt(), bool(getSeed()));
}

LogicalResult KMeansOp::verify() {
  RankedTensorType x = getX().getType();
  if (failed(checkPositiveShape(*this, "x", x, 4, "[B,H,N,D]")))
    return failure();
  int64_t clusters = getClustersAttr().getInt();
  if (failed(verifyKMeans(*this, x.getDimSize(2), clusters,
                          getIterationsAttr().getInt(), /*hasSeed=*/true)))
    return failure();
  if (failed(checkShape(*this, "centroids", getCentroids().getType(),
                        {{x.getDimSize(0), "B", "x"},
                         {x.getDimSize(1), "H", "x"},
                         {clusters, "C", "clusters"},
                         {x.getDimSize(3), "D", "x"}})) ||
      failed(checkShape(*this, "assignment", getAssignment().getType(),
                        {{x.getDimSize(0), "B", "x"},
                         {x.getDimSize(1), "H", "x"},
                         {x.getDimSize(2), "N", "x"}})))
    return failure();
  return success();
}

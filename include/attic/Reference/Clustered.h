//===- Clustered.h - reference semantics of clustered attention -*- C++ -*-===//
//
// attic.clustered_attention (docs/lsh.md; ../shared/papers/xformer.md A5,
// Vyas et al. 2020) computed the plain way in double precision, with no
// MLIR and no code shared with attic's lowering: K-means over each (batch,
// head)'s queries (the op's seeded initialization, assign then update, in
// double), softmax attention of each centroid over all real keys, and each
// query taking its cluster's row; with `topk`, each cluster's top keys
// recomputed exactly per query and scaled by their centroid mass, the
// other keys at the centroid's weights.
//
// Conventions: row-major arrays; query [B,H,Nq,D], key [B,H,Nk,D], value
// [B,H,Nk,Dv], mask [B,Nk] (empty: every key is real). The result is
// [B,H,Nq,Dv].
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_REFERENCE_CLUSTERED_H
#define ATTIC_REFERENCE_CLUSTERED_H

#include <cstdint>
#include <vector>

namespace attic::ref::clustered {

struct Options {
  int64_t batch = 1, heads = 1, queries = 0, keys = 0, dim = 0, valueDim = 0;
  int64_t clusters = 1, iterations = 10;
  int64_t topk = 0; // > 0: the improved variant (exact over the top keys)
  uint64_t seed = 0;
  double scale = 0; // 0: 1/sqrt(dim)
};

/// Throws std::invalid_argument naming the argument when a size or an
/// option is wrong.
std::vector<double> attention(const Options &options,
                              const std::vector<double> &query,
                              const std::vector<double> &key,
                              const std::vector<double> &value,
                              const std::vector<bool> &mask);

/// The K-means assignment of every query row: [B,H,Nq] clusters; the
/// final centroids [B,H,C,D] into `centroids` when given (attic.kmeans).
std::vector<int64_t> assignment(const Options &options,
                                const std::vector<double> &query,
                                std::vector<double> *centroids = nullptr);

} // namespace attic::ref::clustered

#endif // ATTIC_REFERENCE_CLUSTERED_H

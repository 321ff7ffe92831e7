//===- Lsh.h - reference semantics of LSH attention -------------*- C++ -*-===//
//
// attic.lsh_attention (docs/lsh.md; ../shared/papers/xformer.md A4,
// Reformer) computed the plain way in double precision, with no MLIR and no
// code shared with attic's lowering: per (batch, head) and round, the hash
// of every row, a stable sort of the positions by bucket, for every
// query the softmax over its chunk window ([previous chunk, chunk] of the
// sorted order, cyclic) with Reformer's self-key logit -1e5, and the merge
// of the rounds by their log-sum-exps.
//
// Conventions: row-major arrays; qk [B,H,N,D] (queries and keys are the
// same rows), value [B,H,N,Dv], mask [B,N] (empty: every key is real). The
// result is [B,H,N,Dv].
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_REFERENCE_LSH_H
#define ATTIC_REFERENCE_LSH_H

#include <cstdint>
#include <vector>

namespace attic::ref::lsh {

struct Options {
  int64_t batch = 1, heads = 1, length = 0, dim = 0, valueDim = 0;
  int64_t buckets = 1, rounds = 1, chunk = 1;
  uint64_t seed = 0;
  bool causal = false;
  double scale = 0; // 0: 1/sqrt(dim)
};

/// Throws std::invalid_argument naming the argument when a size or an
/// option is wrong.
std::vector<double> attention(const Options &options,
                              const std::vector<double> &qk,
                              const std::vector<double> &value,
                              const std::vector<bool> &mask);

/// The hash of one round for every row of qk: [B,H,N] buckets in
/// [0, buckets) (all 0 with one bucket).
std::vector<int64_t> hash(const Options &options, int64_t round,
                          const std::vector<double> &qk);

/// argmax_j [x R ; -x R]_j of every row of x [rows, dim] for rotations R
/// [dim, K] (attic.lsh_hash): a bucket in [0, 2K), the first maximum (a row
/// of NaN projections gets 0).
std::vector<int64_t> hashRows(const std::vector<double> &x, int64_t dim,
                              const std::vector<double> &rotations);

/// The n positions of `buckets` (one row) sorted by bucket, positions in
/// increasing order within one (a stable sort; attic.bucket_sort's perm).
std::vector<int64_t> sortByBucket(const int64_t *buckets, int64_t n);

/// Round r's rotations [dim, buckets/2] (docs/lsh.md: normal draw
/// d * K + j of Philox stream 16 + r, rounded to f32 as the compiler's
/// constant holds it).
std::vector<double> rotations(uint64_t seed, int64_t round, int64_t dim,
                              int64_t half);

} // namespace attic::ref::lsh

#endif // ATTIC_REFERENCE_LSH_H

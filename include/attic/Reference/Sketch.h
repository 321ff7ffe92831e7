//===- Sketch.h - reference semantics of sketched attention -----*- C++ -*-===//
//
// The ops of dialects/AtticSketchOps.td (docs/sketches.md) computed the plain
// way in double precision, with no MLIR and no code shared with attic's
// lowering (lib/Transforms/Sketch.cpp): Skeinformer (Algorithm 1 of Chen et
// al. 2022 with the op's draws), Informer ProbSparse, Linformer,
// Nystromformer and the factorized random Synthesizer
// (../shared/papers/skeinformer.md, ../shared/papers/xformer.md). Random
// draws use the runtime's attic_philox4x32(seed, stream, counter) as
// docs/sketches.md specifies: word w gives the index (w * n) >> 32 in
// [0, n), the uniform u = ((w >> 8) + 0.5) 2^-24 in (0, 1) and the Gumbel
// -ln(-ln u).
//
// Conventions: row-major arrays; query [B,H,Nq,D], key [B,H,Nk,D], value
// [B,H,Nk,Dv]; results [B,H,Nq,Dv]; `scale` 0 means 1/sqrt(D). Bad sizes or
// options throw std::invalid_argument naming the argument.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_REFERENCE_SKETCH_H
#define ATTIC_REFERENCE_SKETCH_H

#include <cstdint>
#include <vector>

namespace attic::ref::sketch {

struct Dims {
  int64_t batch = 1, heads = 1, queries = 0, keys = 0, dim = 0, valueDim = 0;
};

//===----------------------------------------------------------------------===//
// Skeinformer
//===----------------------------------------------------------------------===//

struct SkeinOptions {
  int64_t samples = 0; // d, in [1, Nk]
  uint64_t seed = 0;
  bool uniformSampling = false;     // "w/o column sampling": no pilot step
  bool simpleNormalization = false; // softmax over the sampled keys only
  bool pilotReuse = true;           // pilot rows get their exact output
  double scale = 0;                 // 0: 1/sqrt(dim)
};

/// Per (batch, head): d pilot rows J drawn uniformly (stream 48), B_J =
/// softmax of their logits, w_j = |B_J[:, j]|_2 |v_j|_2, the d keys J' with
/// the largest ln w_j + G_j (Gumbel noise, stream 49), then each row's
/// missing logits filled with the mean of its sampled logits, and the pilot
/// rows replaced by their exact outputs (pilotReuse, not with
/// uniformSampling).
std::vector<double> skeinformer(const Dims &dims, const SkeinOptions &options,
                                const std::vector<double> &query,
                                const std::vector<double> &key,
                                const std::vector<double> &value);

/// The pilot rows J: d entries in [0, Nq), with replacement, shared by every
/// batch and head (drawn with uniformSampling too, where they are unused).
std::vector<int64_t> skeinformerPilotRows(const Dims &dims,
                                          const SkeinOptions &options);

/// The sampled keys J' [B,H,d]: each head's d distinct keys in decreasing
/// order of their sampling key (ties and ln 0 = -inf: the lower index first).
std::vector<int64_t> skeinformerColumns(const Dims &dims,
                                        const SkeinOptions &options,
                                        const std::vector<double> &query,
                                        const std::vector<double> &key,
                                        const std::vector<double> &value);

//===----------------------------------------------------------------------===//
// Informer ProbSparse
//===----------------------------------------------------------------------===//

struct InformerOptions {
  int64_t factor = 5;
  int64_t active = 0;  // u; 0: min(Nq, factor * ceil(ln Nq))
  int64_t samples = 0; // U; 0: min(Nk, factor * ceil(ln Nk))
  uint64_t seed = 0;
  double scale = 0; // 0: 1/sqrt(dim)
};

/// The u active queries (largest sparsity measure) get exact softmax
/// attention over all keys, every other query mean(V).
std::vector<double> informer(const Dims &dims, const InformerOptions &options,
                             const std::vector<double> &query,
                             const std::vector<double> &key,
                             const std::vector<double> &value);

/// The active queries [B,H,u] in decreasing measure order (ties: the lower
/// index first). M_i = max_t q_i.k_{j_t} - sum_t q_i.k_{j_t} / Nk over the U
/// keys j_t sampled for query i (stream 50, shared by every batch and head),
/// with unscaled dot products.
std::vector<int64_t> informerActive(const Dims &dims,
                                    const InformerOptions &options,
                                    const std::vector<double> &query,
                                    const std::vector<double> &key);

/// The effective (u, U) of the options for these sizes.
void informerCounts(const Dims &dims, const InformerOptions &options,
                    int64_t &active, int64_t &samples);

//===----------------------------------------------------------------------===//
// Linformer
//===----------------------------------------------------------------------===//

struct LinformerOptions {
  int64_t projected = 0;       // P
  int64_t projectionHeads = 1; // Hp: 1 (shared by the heads) or H
  double scale = 0;            // 0: 1/sqrt(dim)
};

/// softmax(scale Q (E K)^T) (F V) per head. e, f: [Hp,P,Nk] (f empty:
/// F = E); mask [B,Nk] (empty: every key real): padded key and value rows are
/// zero before the projection.
std::vector<double>
linformer(const Dims &dims, const LinformerOptions &options,
          const std::vector<double> &query, const std::vector<double> &key,
          const std::vector<double> &value, const std::vector<double> &e,
          const std::vector<double> &f, const std::vector<bool> &mask);

//===----------------------------------------------------------------------===//
// Nystromformer
//===----------------------------------------------------------------------===//

struct NystromOptions {
  int64_t landmarks = 0;  // p, dividing Nq and Nk
  int64_t iterations = 6; // of the pseudo-inverse
  int64_t convWidth = 0;  // W, odd; 0: no convolution skip
  double scale = 0;       // 0: 1/sqrt(dim)
};

/// softmax(s(Q, Kt)) pinv(softmax(s(Qt, Kt))) softmax(s(Qt, K)) V with the
/// segment means Qt, Kt, plus the depthwise convolution of V along the
/// sequence (conv [H,W], zero outside; needs Nq = Nk) when convWidth > 0.
std::vector<double> nystrom(const Dims &dims, const NystromOptions &options,
                            const std::vector<double> &query,
                            const std::vector<double> &key,
                            const std::vector<double> &value,
                            const std::vector<double> &conv);

/// The iterative Moore-Penrose pseudo-inverse of one p x p matrix
/// (row-major), as in the Nystromformer authors' code:
/// Z_0 = A^T / (max column sum of |A| * max row sum of |A|),
/// Z <- Z (13 I - A Z (15 I - A Z (7 I - A Z))) / 4, `iterations` times.
std::vector<double> pseudoInverse(int64_t p, const std::vector<double> &a,
                                  int64_t iterations);

//===----------------------------------------------------------------------===//
// Synthesizer
//===----------------------------------------------------------------------===//

struct SynthesizerOptions {
  int64_t rank = 0; // k
  bool causal = false;
  double scale = 1.0;
};

/// softmax(scale R1 R2^T) V per (batch, head). r1 [H,Nq,rank], r2
/// [H,Nk,rank]; causal: key j visible to row i iff j <= i; mask [B,Nk]
/// (empty: every key real). A row with no visible key is 0. dims.dim is
/// not used.
std::vector<double>
synthesizer(const Dims &dims, const SynthesizerOptions &options,
            const std::vector<double> &r1, const std::vector<double> &r2,
            const std::vector<double> &value, const std::vector<bool> &mask);

//===----------------------------------------------------------------------===//
// Drineas et al.'s estimator
//===----------------------------------------------------------------------===//

/// Drineas et al.'s column-sampling estimator of B C (Def. 3.1 of the
/// Skeinformer paper): d draws with replacement from the probabilities p
/// (size n, non-negative, summing to 1), B [m,n], C [n,c]:
/// (1/d) sum_k B[:, i_k] C[i_k, :] / p_{i_k}. Draw k takes
/// philox(seed, 51, k)[0] as a uniform u in (0, 1) and i_k = the first i
/// with p_0 + ... + p_i >= u (inverse CDF).
std::vector<double> columnSamplingEstimate(int64_t m, int64_t n, int64_t c,
                                           const std::vector<double> &b,
                                           const std::vector<double> &cm,
                                           const std::vector<double> &p,
                                           int64_t d, uint64_t seed);

} // namespace attic::ref::sketch

#endif // ATTIC_REFERENCE_SKETCH_H

//===- Sketch.h - reference semantics of sketched attention ------*- C++
//-*-===//
//
// The ops of dialects/AtticSketchOps.td (docs/sketches.md) computed the plain
// way in double precision, with no MLIR and no code shared with attic's
// lowering (lib/Transforms/Sketch.cpp): Skeinformer (Algorithm 1 of Chen et
// al. 2022 with the op's draws), Informer ProbSparse, Linformer,
// Nystromformer and the factorized random Synthesizer. Random draws use the
// runtime's attic_philox4x32 as docs/sketches.md specifies.
//
// Conventions: row-major arrays; query [B,H,Nq,D], key [B,H,Nk,D], value
// [B,H,Nk,Dv]; results [B,H,Nq,Dv]. Bad sizes or options throw
// std::invalid_argument naming the argument.
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

struct SkeinOptions {
  int64_t samples = 0;
  uint64_t seed = 0;
  bool uniformSampling = false;
  bool simpleNormalization = false;
  bool pilotReuse = true;
  double scale = 0; // 0: 1/sqrt(dim)
};

std::vector<double> skeinformer(const Dims &dims, const SkeinOptions &options,
                                const std::vector<double> &query,
                                const std::vector<double> &key,
                                const std::vector<double> &value);

/// The pilot rows J (d entries, shared by every batch and head).
std::vector<int64_t> skeinformerPilotRows(const Dims &dims,
                                          const SkeinOptions &options);

/// The sampled keys J' [B,H,d], each head's in decreasing key order.
std::vector<int64_t> skeinformerColumns(const Dims &dims,
                                        const SkeinOptions &options,
                                        const std::vector<double> &query,
                                        const std::vector<double> &key,
                                        const std::vector<double> &value);

struct InformerOptions {
  int64_t factor = 5, active = 0, samples = 0; // 0: the defaults of the op
  uint64_t seed = 0;
  double scale = 0;
};

std::vector<double> informer(const Dims &dims, const InformerOptions &options,
                             const std::vector<double> &query,
                             const std::vector<double> &key,
                             const std::vector<double> &value);

/// The active queries [B,H,u] in decreasing measure order.
std::vector<int64_t> informerActive(const Dims &dims,
                                    const InformerOptions &options,
                                    const std::vector<double> &query,
                                    const std::vector<double> &key);

struct LinformerOptions {
  int64_t projected = 0, projectionHeads = 1; // P; Hp = 1 or H
  double scale = 0;
};

/// e, f: [Hp,P,Nk] (f empty: F = E); mask [B,Nk] (empty: every key real).
std::vector<double>
linformer(const Dims &dims, const LinformerOptions &options,
          const std::vector<double> &query, const std::vector<double> &key,
          const std::vector<double> &value, const std::vector<double> &e,
          const std::vector<double> &f, const std::vector<bool> &mask);

struct NystromOptions {
  int64_t landmarks = 0, iterations = 6, convWidth = 0; // 0: no conv
  double scale = 0;
};

/// conv: [H,W] or empty.
std::vector<double> nystrom(const Dims &dims, const NystromOptions &options,
                            const std::vector<double> &query,
                            const std::vector<double> &key,
                            const std::vector<double> &value,
                            const std::vector<double> &conv);

/// The iterative pseudo-inverse of one p x p matrix (row-major).
std::vector<double> pseudoInverse(int64_t p, const std::vector<double> &a,
                                  int64_t iterations);

struct SynthesizerOptions {
  int64_t rank = 0;
  bool causal = false;
  double scale = 1.0;
};

/// r1 [H,Nq,rank], r2 [H,Nk,rank]; mask [B,Nk] (empty: every key real).
std::vector<double>
synthesizer(const Dims &dims, const SynthesizerOptions &options,
            const std::vector<double> &r1, const std::vector<double> &r2,
            const std::vector<double> &value, const std::vector<bool> &mask);

/// Drineas et al.'s column-sampling estimate of B C: d draws with
/// replacement from p (draw k: philox(seed, 51, k)[0] as a uniform,
/// inverse CDF), (1/d) sum_k B[:, i_k] C[i_k, :] / p_{i_k}. B [m,n], C [n,c].
std::vector<double> columnSamplingEstimate(int64_t m, int64_t n, int64_t c,
                                           const std::vector<double> &b,
                                           const std::vector<double> &cm,
                                           const std::vector<double> &p,
                                           int64_t d, uint64_t seed);

} // namespace attic::ref::sketch

#endif // ATTIC_REFERENCE_SKETCH_H

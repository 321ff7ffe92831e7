//===- Kernelized.h - reference semantics of kernelized attention -*- C++
//-*-===//
//
// attic.kernelized_attention (docs/kernelized.md; ../shared/papers/xformer.md
// section 3.3, A6-A8, A12) computed the plain way in double precision, with
// no MLIR and no code shared with attic's lowering: the feature map of every
// row, then for each query the explicit sum over its visible keys of
// (phi(q) . phi(k)) v -- the quadratic form, Eq. (2) of the digest, which
// the compiler never builds (it reduces or scans phi(K)^T V).
//
// Conventions: row-major arrays; query [B,H,Nq,D], key [B,H,Nk,D], value
// [B,H,Nk,Dv], mask [B,Nk] (empty: every key is real), projection [p,D]
// (empty: drawn from `seed` for the random feature maps). The result is
// [B,H,Nq,Dv].
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_REFERENCE_KERNELIZED_H
#define ATTIC_REFERENCE_KERNELIZED_H

#include <cstdint>
#include <vector>

namespace attic::ref::kernelized {

enum class Map { EluPlusOne, Relu, Cosformer, PerformerRelu, FavorPlus };
enum class Norm { Linear, RmsNorm };

struct Options {
  int64_t batch = 1, heads = 1, queries = 0, keys = 0, dim = 0, valueDim = 0;
  Map map = Map::EluPlusOne;
  Norm norm = Norm::Linear;
  int64_t features = 0; // p, for the random maps without a projection
  uint64_t seed = 0;
  bool causal = false;
  double eps = 1e-6;
};

/// Throws std::invalid_argument naming the argument when a size is wrong.
std::vector<double>
attention(const Options &options, const std::vector<double> &query,
          const std::vector<double> &key, const std::vector<double> &value,
          const std::vector<bool> &mask, const std::vector<double> &projection);

/// The n-th standard normal draw of Philox stream `stream` for `seed`
/// (docs/kernelized.md, "Random features"): Box-Muller on Philox block
/// n / 2, cosine for even n, sine for odd n.
double normal(uint64_t seed, uint64_t stream, uint64_t n);

/// FAVOR+'s positive orthogonal random features [p, dim] for `seed`
/// (docs/kernelized.md, "Random features"), in double.
std::vector<double> randomFeatures(uint64_t seed, int64_t p, int64_t dim);

/// Exact softmax attention (scale 1/sqrt(D)) over the same keys, for
/// comparing the kernel approximations (no causal masking when !causal).
std::vector<double> softmaxAttention(const Options &options,
                                     const std::vector<double> &query,
                                     const std::vector<double> &key,
                                     const std::vector<double> &value,
                                     const std::vector<bool> &mask);

} // namespace attic::ref::kernelized

#endif // ATTIC_REFERENCE_KERNELIZED_H

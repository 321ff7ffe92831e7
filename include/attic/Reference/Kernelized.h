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

/// phi of every row of x [rows, dim] (attic.feature_map): row r is token
/// r % n of its head (cosFormer's a_t = pi (t+1) / (2 period)); `w` [p, dim]
/// is the random maps' projection. Sets `features` (F). FAVOR+ subtracts
/// each row's largest exponent and stores it in `stabilizers` ([rows]) when
/// given.
std::vector<double> featureMap(Map map, const std::vector<double> &x, int64_t n,
                               int64_t dim, double period,
                               const std::vector<double> &w, int64_t &features,
                               std::vector<double> *stabilizers = nullptr);

/// attic.state_reduce for `heads` = B*H heads of n tokens: state [heads, F,
/// Dv] = sum_j s_j phi_j^T v_j and normalizer [heads, F] = sum_j s_j phi_j,
/// where s_j = mask[b, j] (`mask` [B, n], empty: all 1) times, with
/// `stabilizer` ([heads, n], empty: none), exp(c_j - M), M the largest c_j
/// of the head's unmasked keys.
void stateReduce(int64_t batch, int64_t heads, int64_t n, int64_t F, int64_t Dv,
                 const std::vector<double> &features,
                 const std::vector<double> &value,
                 const std::vector<bool> &mask,
                 const std::vector<double> &stabilizer,
                 std::vector<double> &state, std::vector<double> &normalizer);

/// attic.state_scan, the quadratic form: numerator [heads, n, Dv] and
/// denominator [heads, n] of row i = sum over j <= i of s_ij (phi(q_i) .
/// phi(k_j)) v_j (and of s_ij (phi(q_i) . phi(k_j))), s_ij = mask[b, j]
/// times, with `stabilizer`, exp(c_j - m_i), m_i the largest c_j of the
/// keys row i sees.
void stateScan(int64_t batch, int64_t heads, int64_t n, int64_t F, int64_t Dv,
               const std::vector<double> &queryFeatures,
               const std::vector<double> &keyFeatures,
               const std::vector<double> &value, const std::vector<bool> &mask,
               const std::vector<double> &stabilizer,
               std::vector<double> &numerator,
               std::vector<double> &denominator);

/// Exact softmax attention (scale 1/sqrt(D)) over the same keys, for
/// comparing the kernel approximations (no causal masking when !causal).
std::vector<double> softmaxAttention(const Options &options,
                                     const std::vector<double> &query,
                                     const std::vector<double> &key,
                                     const std::vector<double> &value,
                                     const std::vector<bool> &mask);

} // namespace attic::ref::kernelized

#endif // ATTIC_REFERENCE_KERNELIZED_H

//===- Attention.h - Reference semantics of attic.attention -----*- C++ -*-===//
//
// The semantics that every lowering of `attic.attention` must reproduce. This
// is deliberately plain C++ computing in double, with no MLIR dependency, and
// it shares no code with the compiler so it can serve as an independent oracle
// for tests and for `attic-run --check`.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_REFERENCE_ATTENTION_H
#define ATTIC_REFERENCE_ATTENTION_H

#include <cstdint>
#include <functional>
#include <limits>

#include "attic/Reference/Layout.h"

namespace attic::ref {

struct AttentionShape {
  /// `heads` are the query heads Hq.
  int64_t batch, heads, queryLen, keyLen, headDim, valueDim;
  /// Key/value heads Hkv (grouped-query attention: query head h reads kv
  /// head h / (Hq / Hkv)); 0 means Hq.
  int64_t kvHeads = 0;
};

enum class KeyBiasKind {
  None,
  PerBatch, ///< keyBias is [B, Nk].
  PerHead,  ///< keyBias is [B, H, Nk].
};

struct AttentionOptions {
  /// logits = scale * q.k + bias.
  double scale;
  /// Key j is visible to query i iff j <= i (top-left aligned, as torch SDPA
  /// is_causal), independently of Nq and Nk.
  bool causal = false;
  KeyBiasKind biasKind = KeyBiasKind::None;
  /// [B, Nk] or [B, H, Nk] depending on biasKind; -inf excludes that key.
  const double *keyBias = nullptr;
  /// Optional [B, Nk]; nonzero = the key may be attended, 0 = excluded.
  const uint8_t *keyMask = nullptr;
  /// Optional layout: key k is excluded where it is not visible (in
  /// addition to `causal`).
  const Layout *layout = nullptr;
  /// Optional block lists: key k is visible to query q only if its block
  /// is in q's block's full list, or in its partial list and the layout
  /// (and `causal`) visit (q, k).
  const BlockLists *blocks = nullptr;
  /// Optional mask modifier (a mask region): key k is visible to query q of
  /// batch b and query head h only if it returns true (in addition to the
  /// layout; with block lists, it refines partial blocks as the layout
  /// does).
  std::function<bool(int64_t b, int64_t h, int64_t q, int64_t k)> mask;
  /// Optional score modifier (a score region): the logit of a visible key
  /// is score(scale * q.k, b, h, q, k) + bias; a result of -inf hides the
  /// key.
  std::function<double(double s, int64_t b, int64_t h, int64_t q, int64_t k)>
      score;
};

/// q: [B,H,Nq,D], k: [B,Hkv,Nk,D], v: [B,Hkv,Nk,Dv], out: [B,H,Nq,Dv], all
/// row-major. Each output row is the softmax-weighted (max-subtracted) sum of
/// the value rows of the keys that are not excluded (mask 0, causal, or bias
/// -inf). A query row with no admissible key yields a zero row, never NaN.
/// Only one row of Nk logits is held at a time, so large N is fine.
///
/// With `lse` ([B,H,Nq]), also writes each row's log-sum-exp of its
/// admissible logits, `log(sum_j exp(logit_j))` (natural log; the logits
/// after the scale, the score modifier and the bias), and -inf for a row
/// with no admissible key: the lse destination of attic.block_attention.
void attention(const AttentionShape &shape, const double *q, const double *k,
               const double *v, const AttentionOptions &options, double *out,
               double *lse = nullptr);

/// The conventional softmax scale 1/sqrt(headDim).
double defaultScale(int64_t headDim);

/// Error figures used by --check.
struct ErrorStats {
  /// max |actual - expected|; +inf if any difference is not finite.
  double maxAbs;
  /// maxAbs / max(max |expected|, floor).
  double maxRel;
  /// Number of non-finite values in actual that differ from expected (an
  /// infinity where the reference has the same infinity, as the lse of a
  /// row with no admissible key, and a NaN where the reference is NaN, as
  /// a row with a visible NaN logit, are matches, not errors).
  int64_t nonFinite;
  /// Number of elements compared.
  int64_t count;
};

/// `floor` bounds the denominator of maxRel from below: the smallest normal
/// value of the result's type (attic-run), so that a result whose expected
/// values are all subnormal there (an f32 0 for a reference of 1e-114, or an
/// f16 result of 1e-6) is judged by the type's absolute precision, not
/// relative to a value the type cannot hold.
ErrorStats compare(const double *actual, const double *expected, int64_t n,
                   double floor = std::numeric_limits<double>::min());

} // namespace attic::ref

#endif // ATTIC_REFERENCE_ATTENTION_H

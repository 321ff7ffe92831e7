//===- VccEncoder.h - a VCC encoder built from a few numbers ----*- C++ -*-===//
//
// A C++ builder of VCC encoders (issue 19): an N-layer encoder is a
// VccEncoderSpec of a dozen numbers, not hundreds of lines of IR. The
// function it builds is the form of examples/vcc_encoder_loop.mlir: the
// tree built once, the layers one body in an scf.for that carries the tree,
// the P rows and every layer's J, the weights stacked on a leading layer
// dim. `attic-gen vcc-encoder` prints it (tools/attic-gen); docs/vcc.md
// shows both.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_BUILDERS_VCCENCODER_H
#define ATTIC_BUILDERS_VCCENCODER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace attic {

/// The sizes and choices of a VCC encoder. The defaults are those of
/// examples/vcc_encoder_loop.mlir.
struct VccEncoderSpec {
  int64_t batch = 2;    ///< B, sequences
  int64_t tokens = 128; ///< n, tokens of a sequence
  int64_t dim = 32;     ///< d, features of a token
  int64_t heads = 2;    ///< attention heads (dividing d)
  int64_t ffnDim = 64;  ///< hidden features of the FFN
  int64_t numVip = 8;   ///< n_p, rows kept exact (VIP tokens and spares)
  /// The tree over the n - n_p other tokens: fanouts from the leaves up
  /// (their product is n - n_p), and tree_select's budgets per level.
  llvm::SmallVector<int64_t> fanouts = {8, 15};
  llvm::SmallVector<int64_t> budgets = {4, 1};
  int64_t layers = 3; ///< N, the layers (the loop's trip count)
  /// The FFN's activation: ReLU (attic's examples) or exact GELU (the VCC
  /// authors' nn.GELU()).
  bool gelu = false;
  double lnEps = 1e-5; ///< LayerNorm's epsilon
  /// The VCC authors' epsilons (tree_build/tree_update mean_eps,
  /// vcc_compress bias_eps); 0 is attic's exact form.
  double meanEps = 0.0, biasEps = 0.0;
  /// Only the VIP tokens among the P rows vote in tree_select (its
  /// `vote_mask`, the authors' importance mask); otherwise every P row
  /// votes, spare ones included.
  bool vipVotes = false;
};

/// "" when `spec` describes an encoder the builder can build, else why not
/// (naming the field and the rule).
std::string checkVccEncoderSpec(const VccEncoderSpec &spec);

/// Builds, at `builder`'s insertion point (a module body), the function
///
///   func.func @name(%x: [B,n,d] f32, %vip: [B,n] i1, %mask: [B,n] i1,
///                   %ln1_gamma: [N,d], %ln1_beta: [N,d],
///                   %wq: [N,d,d], %bq: [N,d], %wk, %bk, %wv, %bv, %wo, %bo,
///                   %ln2_gamma: [N,d], %ln2_beta: [N,d],
///                   %w1: [N,d,f], %b1: [N,f], %w2: [N,f,d], %b2: [N,d])
///       -> ([B,n,d] f32, [N,B,|J|] i64)
///
/// N pre-LN VCC layers (eq 7 of the paper on the compressed sequence of
/// n_p + |J| rows: x + Attn(LN1(x)), then h + FFN(LN2(h))), the new hidden
/// states in the original token order and each layer's J. Returns null
/// with `error` set when checkVccEncoderSpec rejects `spec`.
mlir::func::FuncOp buildVccEncoder(mlir::OpBuilder &builder, mlir::Location loc,
                                   llvm::StringRef name,
                                   const VccEncoderSpec &spec,
                                   std::string &error);

} // namespace attic

#endif // ATTIC_BUILDERS_VCCENCODER_H

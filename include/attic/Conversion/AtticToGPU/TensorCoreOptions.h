//===- TensorCoreOptions.h - the tensor-core kernel's options ----*- C++ -*-===//
//
// A header of its own so that the pipelines' and tools' headers can take
// the options without the GPU dialects' headers.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_CONVERSION_ATTICTOGPU_TENSORCOREOPTIONS_H
#define ATTIC_CONVERSION_ATTICTOGPU_TENSORCOREOPTIONS_H

#include <cstdint>

namespace attic {

/// The tensor-core kernel's options: those of attic-gpu-map-tiles, of
/// attic-cuda-pipeline and of attic-run and attic-compile (the option and
/// flag names in parentheses). checkTensorCoreOptions states how they
/// relate.
struct TensorCoreOptions {
  /// K and V copied with cp.async (`async-copies`), else loaded and
  /// stored through registers.
  bool asyncCopies = true;
  /// Slots of the K and V rings (`kv-stages`): 1 (V's copy overlaps
  /// Q K^T, the next K's P V), 2 or 3 (rings in dynamic shared memory
  /// where they fit, the next block's copies overlapping the current one).
  int64_t kvStages = 1;
  /// S = Q K^T and P V as wgmma.mma_async where the tiles allow it
  /// (`wgmma`; sm_90a kernels).
  bool wgmma = false;
  /// A block's P V issued at the next block's Q K^T, running during its
  /// softmax, with one more V slot (`wgmma-overlap`; wgmma, 2 or 3 slots).
  bool wgmmaOverlap = false;
  /// The rings' K and V blocks loaded by TMA (tensor maps made on the host
  /// before the launch), completing an mbarrier per K slot (`tma`; wgmma
  /// for both products, 2 or 3 slots).
  bool tma = false;
  /// With TMA: a producer warpgroup issues the loads into the rings and
  /// the consumer warpgroups release each slot through an "empty"
  /// mbarrier once their wgmmas have read it; `setmaxnreg` moves
  /// registers from the producer to the consumers (`warp-specialize`;
  /// FlashAttention-3's warp specialization).
  bool warpSpecialize = false;
  /// With warp specialization and the deferred P V, two consumer
  /// warpgroups take turns issuing their products (named barriers), so
  /// that one's softmax runs during the other's wgmmas (`ping-pong`;
  /// FlashAttention-3's inter-warpgroup overlap; block_q 128).
  bool pingPong = false;
};

} // namespace attic

#endif // ATTIC_CONVERSION_ATTICTOGPU_TENSORCOREOPTIONS_H

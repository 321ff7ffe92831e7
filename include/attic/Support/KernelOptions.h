//===- KernelOptions.h - ranges of the CPU kernels' options -----*- C++ -*-===//
//
// The tile sizes and register tiling of attic's CPU kernels are options of
// attic-cpu-pipeline, of the passes it is made of (attic-decompose,
// attic-report-block-classes, attic-cpu-map-tiles) and of the tools
// (attic-run, attic-compile). Each checks them with these functions, so a
// value is refused in the same words wherever it is given.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_SUPPORT_KERNELOPTIONS_H
#define ATTIC_SUPPORT_KERNELOPTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <string>

namespace attic {

// Each returns "" when its options are in range, else the message, which
// names the options as `prefix` + name ("--" on a command line).

/// block-q and block-k: the tile sizes, in [1, 1024].
inline std::string blockSizesError(int64_t blockQ, int64_t blockK,
                                   llvm::StringRef prefix = "") {
  if (blockQ >= 1 && blockK >= 1 && blockQ <= 1024 && blockK <= 1024)
    return "";
  return (prefix + "block-q and " + prefix +
          "block-k must be in [1, 1024], got " + llvm::Twine(blockQ) + " and " +
          llvm::Twine(blockK))
      .str();
}

/// vector-width: 0 (the target CPU's own) or a power of two up to 64.
inline std::string vectorWidthError(int64_t width,
                                    llvm::StringRef prefix = "") {
  if (width >= 0 && width <= 64 && (width & (width - 1)) == 0)
    return "";
  return (prefix +
          "vector-width must be 0 (the target CPU's own) or a power of two "
          "up to 64, got " +
          llvm::Twine(width))
      .str();
}

/// register-rows and register-chunks: in [0, 16] (0: derived from the
/// vector width).
inline std::string registerTileError(int64_t rows, int64_t chunks,
                                     llvm::StringRef prefix = "") {
  if (rows >= 0 && rows <= 16 && chunks >= 0 && chunks <= 16)
    return "";
  return (prefix + "register-rows and " + prefix +
          "register-chunks must be in [0, 16] (0: derived from the vector "
          "width), got " +
          llvm::Twine(rows) + " and " + llvm::Twine(chunks))
      .str();
}

} // namespace attic

#endif // ATTIC_SUPPORT_KERNELOPTIONS_H

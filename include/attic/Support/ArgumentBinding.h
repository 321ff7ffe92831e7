//===- ArgumentBinding.h - per-argument options of the tools ----*- C++ -*-===//
//
// How attic-run and attic-compile bind their per-argument options to an
// entry's arguments: `--shape=I:AxBxC` (the sizes of argument I, needed where
// its type has dynamic dims) and `--mask-keep-arg=I:P` (the probability of
// true of generated i1 argument I). Plain C++17 with no MLIR or LLVM, so
// that the libFuzzer target test/fuzz/ArgumentBindingFuzzer.cpp exercises
// exactly what the tools run, under the sanitizers of scripts/sanitize.sh.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_SUPPORT_ARGUMENTBINDING_H
#define ATTIC_SUPPORT_ARGUMENTBINDING_H

#include "attic/runtime/Runtime.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace attic {

/// A dynamic dim in ArgumentType::shape (the value of mlir's
/// ShapedType::kDynamic).
constexpr int64_t kDynamicDim = std::numeric_limits<int64_t>::min();

/// An entry argument's dtype and shape (kDynamicDim where unknown).
struct ArgumentType {
  attic_dtype dtype;
  std::vector<int64_t> shape;
};

struct ArgumentOptionTexts {
  /// The values of --shape and --mask-keep-arg, in command-line order.
  std::vector<std::string> shapes, maskKeep;
  /// The --input files: arguments [0, inputFiles.size()) come from them
  /// (the files give their shapes and data); the others are generated.
  std::vector<std::string> inputFiles;
  /// Whether the tool takes --input (attic-run): its messages say so.
  bool takesInputFiles = false;
  /// --mask-keep: the probability of true of generated i1 arguments
  /// without a --mask-keep-arg.
  double defaultMaskKeep = 0.9;
};

/// What the options say about each argument.
struct ArgumentBinding {
  /// Per argument: its shape when generated (the --shape, or its static
  /// type), nullopt for an argument read from a file.
  std::vector<std::optional<std::vector<int64_t>>> generatedShapes;
  /// Per argument: the probability of true when it is a generated i1.
  std::vector<double> maskKeep;
  /// Whether a --shape was given (the entry then needs specializing).
  bool anyShapeGiven = false;
};

/// Parses "AxBxC" (non-negative decimal sizes that fit in int64_t; "" is
/// not a shape).
std::optional<std::vector<int64_t>> parseShapeText(const std::string &text);

/// Binds `texts` to the arguments `types` of @`entry`. Each option must be
/// INDEX:VALUE naming an argument of the entry at most once, never one read
/// from a file; a --shape must have the argument's rank and agree with its
/// static dims; a --mask-keep-arg must name an i1 argument and give a
/// probability in [0, 1]; every generated argument with dynamic dims needs a
/// --shape. Returns false with a one-line message in `error` (starting with
/// the offending option) otherwise.
bool bindArgumentOptions(const std::vector<ArgumentType> &types,
                         const std::string &entry,
                         const ArgumentOptionTexts &texts,
                         ArgumentBinding &binding, std::string &error);

} // namespace attic

#endif // ATTIC_SUPPORT_ARGUMENTBINDING_H

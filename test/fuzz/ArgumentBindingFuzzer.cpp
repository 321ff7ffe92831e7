//===- ArgumentBindingFuzzer.cpp - libFuzzer target of option binding -----===//
//
// attic-run's and attic-compile's per-argument options (--shape=I:AxBxC,
// --mask-keep-arg=I:P) bound to an entry's arguments
// (attic/Support/ArgumentBinding.h), the code the tools run. The input
// encodes an entry signature and option texts:
//
//   byte 0        number of arguments (mod 7)
//   per argument  dtype (mod 8), rank (mod 5), one byte per dim
//                 (255: dynamic, 254: 2^62, else the byte mod 17)
//   1 byte        number of --input files (mod arguments + 1)
//   1 byte        --mask-keep, byte / 255
//   the rest      lines: "s<text>" is a --shape, "m<text>" a
//                 --mask-keep-arg, others are shape texts for
//                 parseShapeText alone
//
// and the target checks what the binding promises: a failure is one
// non-empty line naming the option or the argument; a success gives every
// generated argument a shape of its rank that agrees with its static dims
// and has no dynamic dim, every file argument none, and probabilities in
// [0, 1]; parseShapeText's shapes print back to text that parses to the
// same shape. Built with ASan and UBSan by scripts/sanitize.sh; the seed
// corpus is test/fuzz/corpus/binding.
//
//===----------------------------------------------------------------------===//

#include "attic/Support/ArgumentBinding.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

[[noreturn]] void violated(const char *what, const std::string &detail) {
  std::fprintf(stderr, "ArgumentBindingFuzzer: %s: %s\n", what, detail.c_str());
  std::abort();
}

struct Reader {
  const uint8_t *data;
  size_t size, at = 0;
  uint8_t byte() { return at < size ? data[at++] : 0; }
};

void checkShapeText(const std::string &text) {
  std::optional<std::vector<int64_t>> shape = attic::parseShapeText(text);
  if (!shape)
    return;
  if (shape->empty())
    violated("parseShapeText returned an empty shape", text);
  std::string printed;
  for (size_t d = 0; d < shape->size(); ++d) {
    if ((*shape)[d] < 0)
      violated("parseShapeText returned a negative size", text);
    printed += (d ? "x" : "") + std::to_string((*shape)[d]);
  }
  if (attic::parseShapeText(printed) != shape)
    violated("a parsed shape does not parse back", text + " -> " + printed);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Reader in{data, size};
  static const attic_dtype dtypes[] = {ATTIC_F32, ATTIC_F16, ATTIC_BF16,
                                       ATTIC_F64, ATTIC_I1,  ATTIC_I8,
                                       ATTIC_I32, ATTIC_I64};
  std::vector<attic::ArgumentType> types(in.byte() % 7);
  for (attic::ArgumentType &type : types) {
    type.dtype = dtypes[in.byte() % 8];
    type.shape.resize(in.byte() % 5);
    for (int64_t &size : type.shape) {
      uint8_t b = in.byte();
      size = b == 255   ? attic::kDynamicDim
             : b == 254 ? int64_t(1) << 62
                        : int64_t(b % 17);
    }
  }
  attic::ArgumentOptionTexts texts;
  texts.inputFiles.assign(in.byte() % (types.size() + 1), "input.npy");
  texts.takesInputFiles = true;
  texts.defaultMaskKeep = in.byte() / 255.0;
  std::string rest(reinterpret_cast<const char *>(data) + in.at, size - in.at);
  size_t start = 0;
  while (start <= rest.size()) {
    size_t end = rest.find('\n', start);
    std::string line = rest.substr(
        start, end == std::string::npos ? std::string::npos : end - start);
    if (!line.empty() && line[0] == 's')
      texts.shapes.push_back(line.substr(1));
    else if (!line.empty() && line[0] == 'm')
      texts.maskKeep.push_back(line.substr(1));
    else
      checkShapeText(line);
    if (end == std::string::npos)
      break;
    start = end + 1;
  }

  attic::ArgumentBinding binding;
  std::string error;
  if (!attic::bindArgumentOptions(types, "f", texts, binding, error)) {
    if (error.empty() || error.find('\n') != std::string::npos ||
        !(error.rfind("--shape=", 0) == 0 ||
          error.rfind("--mask-keep-arg=", 0) == 0 ||
          error.rfind("argument #", 0) == 0))
      violated("a failure is not one line naming the option or argument",
               error);
    return 0;
  }
  if (binding.generatedShapes.size() != types.size() ||
      binding.maskKeep.size() != types.size())
    violated("a binding without one entry per argument", "");
  for (size_t i = 0; i < types.size(); ++i) {
    const auto &shape = binding.generatedShapes[i];
    if (i < texts.inputFiles.size()) {
      if (shape)
        violated("an argument read from a file got a shape", std::to_string(i));
      continue;
    }
    if (!shape || shape->size() != types[i].shape.size())
      violated("a generated argument without a shape of its rank",
               std::to_string(i));
    for (size_t d = 0; d < shape->size(); ++d)
      if ((*shape)[d] < 0 || (types[i].shape[d] != attic::kDynamicDim &&
                              types[i].shape[d] != (*shape)[d]))
        violated("a generated shape that does not fit its type",
                 std::to_string(i));
    if (!(binding.maskKeep[i] >= 0 && binding.maskKeep[i] <= 1))
      violated("a probability outside [0, 1]", std::to_string(i));
  }
  if (binding.anyShapeGiven != !texts.shapes.empty())
    violated("anyShapeGiven does not say whether --shape was given", "");
  return 0;
}

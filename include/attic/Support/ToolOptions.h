//===- ToolOptions.h - checks of the tools' command lines -------*- C++ -*-===//
//
// LLVM's cl::opt keeps the last of repeated occurrences without a word:
// `attic-compile --entry=a --entry=b` compiled only @b, and `-o a.so -o
// b.so` wrote only b.so (a 2026-11-30 audit). attic's tools refuse an
// option given more than once instead (lists, such as --shape, take
// several by design).
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_SUPPORT_TOOLOPTIONS_H
#define ATTIC_SUPPORT_TOOLOPTIONS_H

#include "llvm/Support/CommandLine.h"

#include <string>

namespace attic {

/// "--NAME is given N times; give it once", for the single-valued option
/// of the command line just parsed that occurs more than once (the first
/// by name when there are several), or "" when there is none.
inline std::string repeatedOptionError() {
  llvm::cl::Option *repeated = nullptr;
  for (auto &entry : llvm::cl::getRegisteredOptions()) {
    llvm::cl::Option *option = entry.second;
    if (option->getNumOccurrencesFlag() != llvm::cl::Optional ||
        option->getNumOccurrences() <= 1 || option->isPositional())
      continue;
    if (!repeated || option->ArgStr < repeated->ArgStr)
      repeated = option;
  }
  if (!repeated)
    return "";
  return (llvm::Twine(repeated->ArgStr.size() == 1 ? "-" : "--") +
          repeated->ArgStr + " is given " +
          llvm::Twine(repeated->getNumOccurrences()) +
          " times; give it once (a later value would silently replace the "
          "earlier)")
      .str();
}

} // namespace attic

#endif // ATTIC_SUPPORT_TOOLOPTIONS_H

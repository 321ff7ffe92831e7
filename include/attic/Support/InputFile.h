//===- InputFile.h - checks on the files attic's tools read -----*- C++ -*-===//
//
// attic-opt and attic-run read a whole input file into memory before they
// parse it. A path that names something other than a regular file (a
// device such as /dev/zero, a FIFO, a directory) would make them read
// without end or block forever, so it is refused first with one line.
// Standard input ("-") is read as it is.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_SUPPORT_INPUTFILE_H
#define ATTIC_SUPPORT_INPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"

#include <string>

namespace attic {

/// Inputs larger than this are refused (an .mlir file of 4 GiB is not
/// something attic's tools are meant to read whole).
constexpr uint64_t kMaxInputFileBytes = uint64_t(4) << 30;

/// Empty when `path` may be read: "-" or an existing regular file of at
/// most kMaxInputFileBytes; otherwise the reason, starting with the path.
inline std::string checkInputFile(llvm::StringRef path) {
  if (path == "-")
    return "";
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status))
    return (path + ": cannot open: " + ec.message()).str();
  switch (status.type()) {
  case llvm::sys::fs::file_type::regular_file:
    break;
  case llvm::sys::fs::file_type::directory_file:
    return (path + ": is a directory, not a file").str();
  default:
    return (path + ": not a regular file (a device, FIFO or socket would be "
                   "read without end)")
        .str();
  }
  if (status.getSize() > kMaxInputFileBytes)
    return (path + ": larger than 4 GiB").str();
  return "";
}

/// How deep brackets ((), [], {}, <>) may nest in an input. MLIR's parser
/// recurses per level: 10000 nested arrays, or 3000 brackets of nested
/// regions, overflowed its stack ("internal error", exit 70; an audit).
/// 1500 nested regions (3000 brackets) parse; real IR nests a few dozen.
constexpr unsigned kMaxInputNesting = 2000;

/// Empty when brackets in `text` (MLIR's syntax: strings and `//` comments
/// skipped, the `>` of `->` and `>=` not a bracket) nest at most
/// `limit` levels; otherwise "<name>:<line>:<column>: ..." at the first
/// bracket past that depth.
inline std::string checkInputNesting(llvm::StringRef text, llvm::StringRef name,
                                     unsigned limit = kMaxInputNesting) {
  unsigned depth = 0, line = 1;
  size_t lineStart = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    switch (c) {
    case '\n':
      ++line;
      lineStart = i + 1;
      break;
    case '"':
      // A string: to its closing quote (escapes skipped), never past a
      // newline (MLIR's strings do not hold one; the parser reports it).
      for (++i; i < e && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      if (i < e && text[i] == '\n') {
        ++line;
        lineStart = i + 1;
      }
      break;
    case '/':
      if (i + 1 < e && text[i + 1] == '/')
        while (i + 1 < e && text[i + 1] != '\n')
          ++i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > limit)
        return (name + ":" + llvm::Twine(line) + ":" +
                llvm::Twine(i - lineStart + 1) + ": brackets nest more than " +
                llvm::Twine(limit) +
                " levels deep here; attic's tools refuse such input (MLIR's "
                "parser recurses per level and would overflow its stack)")
            .str();
      break;
    case '>':
      if ((i > 0 && text[i - 1] == '-') || (i + 1 < e && text[i + 1] == '='))
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return "";
}

} // namespace attic

#endif // ATTIC_SUPPORT_INPUTFILE_H

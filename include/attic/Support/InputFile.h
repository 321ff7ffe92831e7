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

} // namespace attic

#endif // ATTIC_SUPPORT_INPUTFILE_H

//===- OutputFile.h - finishing the files attic's tools write ---*- C++ -*-===//
//
// A write that fails (a full disk) shows up when the output is flushed.
// llvm::ToolOutputFile's stream reports such an error fatally from its
// destructor ("LLVM ERROR: IO failure", status 70), and a tool that exits
// with one line instead skips the destructor that removes the partial
// file. finishOutput clears the error and removes the file itself.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_SUPPORT_OUTPUTFILE_H
#define ATTIC_SUPPORT_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <string>

namespace attic {

/// Empty when the folder `path` names (its parent; none for a bare name) is
/// one; otherwise "<folder> does not exist" or "<folder> is not a folder".
/// The tools check their output names with it before compiling: a missing
/// folder was reported only after the whole compilation (by the linker, or
/// when the results were written).
inline std::string outputFolderProblem(llvm::StringRef path) {
  llvm::StringRef folder = llvm::sys::path::parent_path(path);
  if (folder.empty() || llvm::sys::fs::is_directory(folder))
    return "";
  return (folder + (llvm::sys::fs::exists(folder) ? " is not a folder"
                                                  : " does not exist"))
      .str();
}

/// Flushes `out` (written to `path`, or to `written` on its way there).
/// Empty when everything was written; otherwise "<path>: cannot write:
/// <reason>", the stream's error cleared and the partial file removed
/// (llvm::sys::fs::remove leaves devices such as /dev/full alone; "-" is
/// standard output). The caller keeps `out` on success and reports the
/// message otherwise.
inline std::string finishOutput(llvm::ToolOutputFile &out, llvm::StringRef path,
                                llvm::StringRef written = "") {
  out.os().flush();
  std::error_code error = out.os().error();
  if (!error)
    return "";
  out.os().clear_error();
  llvm::StringRef file = written.empty() ? path : written;
  if (file != "-")
    llvm::sys::fs::remove(file);
  return (path + ": cannot write: " + error.message()).str();
}

} // namespace attic

#endif // ATTIC_SUPPORT_OUTPUTFILE_H

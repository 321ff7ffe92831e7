//===- MlirPipelineFuzzer.cpp - libFuzzer target of the compiler ----------===//
//
// Arbitrary text through what attic-opt and attic-run do with a file: parse
// (attic's dialect and every upstream one), verify, then each pipeline on
// a copy of the module: attic-cpu-pipeline, its emulated CUDA mapping
// (attic-run --target=cuda-emulated) and attic-cuda-pipeline to PTX
// (format=isa: no ptxas; kv-stages=2 for inputs of odd length, chip=sm_90a
// wgmma=true for lengths 2 mod 4). Errors are
// diagnostics and are fine; what the
// target finds is what the tools must never do: crash, abort, hang (the
// -timeout of libFuzzer) or grow without bound (-rss_limit_mb).
//
// Seeded with attic's test files and examples, split at `// -----`
// (test/fuzz/split_mlir_seeds.py). Built in the regular build (clang,
// -fsanitize=fuzzer on this file only: attic's and MLIR's libraries are the
// regular uninstrumented ones, so libFuzzer steers by the extra counters
// below; scripts/fuzz.sh runs it).
//
//===----------------------------------------------------------------------===//

#include "attic/Execution/CpuExecutable.h"
#include "attic/InitAttic.h"
#include "attic/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstdint>
#include <string>

using namespace mlir;

namespace {

/// What libFuzzer steers by besides this file's own edges (attic's
/// libraries are not instrumented): extra counters (libFuzzer's
/// __libfuzzer_extra_counters section) for each distinct diagnostic text
/// (digits dropped, so "dim 3" and "dim 4" count once), each op name parsed
/// and each pipeline's success or failure. An input that reaches a new
/// error message, a new op or a pipeline's other outcome is kept.
constexpr size_t kMessageSlots = 4096, kOpSlots = 1024, kOutcomeSlots = 64;
__attribute__((used, section("__libfuzzer_extra_counters")))
uint8_t extraCounters[kMessageSlots + kOpSlots + kOutcomeSlots];

void count(size_t slot) {
  uint8_t &counter = extraCounters[slot];
  if (counter < 255)
    ++counter;
}

size_t hashText(llvm::StringRef text, bool dropDigits) {
  size_t h = 1469598103934665603ull;
  for (char c : text)
    if (!dropDigits || c < '0' || c > '9')
      h = (h ^ uint8_t(c)) * 1099511628211ull;
  return h;
}

/// Whether `text` may reach MLIR 22's crash in linalg's parsers of dense
/// i64 array attributes: after a malformed `permutation = [...]`
/// (linalg.transpose) or `dimensions = [...]` (linalg.reduce,
/// linalg.broadcast) they store a null attribute and crash (upstream's bug;
/// attic-opt and attic-run turn it into one line and exit 70,
/// test/Integration/bad-input.test). Such inputs are skipped so that the
/// fuzzer looks for attic's failures rather than stopping at this known one
/// again: after `permutation` or `dimensions`, an `=` must be followed by a
/// list of integers, `[]` or `[i, j, ...]`.
/// What MLIR's lexer skips between tokens: whitespace, NUL bytes and `//`
/// comments (`dimensions \0\0 = ...` reached the crash past a filter that
/// skipped whitespace only).
llvm::StringRef skipTrivia(llvm::StringRef text) {
  while (true) {
    text = text.ltrim(llvm::StringRef(" \t\n\v\f\r\0", 7));
    if (!text.starts_with("//"))
      return text;
    size_t eol = text.find('\n');
    text =
        eol == llvm::StringRef::npos ? llvm::StringRef() : text.drop_front(eol);
  }
}

/// Whether `text` nests brackets deeper than MLIR 22's recursive-descent
/// parser's stack allows: 26952 `(` in a function type overflowed the
/// stack in Parser::parseFunctionType (found by the MLIR fuzzer,
/// 2026-11-26; attic-opt turns it into one line and exit 70,
/// test/Integration/bad-input.test). 1000 is far below the overflow and
/// far above any real input.
bool nestsTooDeep(llvm::StringRef text) {
  int depth = 0;
  for (char c : text) {
    if (c == '(' || c == '[' || c == '{' || c == '<')
      ++depth;
    else if (c == ')' || c == ']' || c == '}' || c == '>')
      depth = std::max(0, depth - 1);
    if (depth > 1000)
      return true;
  }
  return false;
}

bool reachesUpstreamArrayCrash(llvm::StringRef text) {
  for (llvm::StringRef key : {"permutation", "dimensions"})
    for (size_t at = text.find(key); at != llvm::StringRef::npos;
         at = text.find(key, at + 1)) {
      llvm::StringRef rest = skipTrivia(text.drop_front(at + key.size()));
      if (!rest.consume_front("="))
        continue;
      rest = skipTrivia(rest);
      if (!rest.consume_front("["))
        return true;
      size_t end = rest.find(']');
      if (end == llvm::StringRef::npos)
        return true;
      // Only `[]` or `[int (, int)*]` with spaces, each int of at most 18
      // digits: a float, a sign, an empty element (`[1,,0]`, `[1, 0,]`,
      // `[,1]`) or an integer beyond int64 (`[99999999999999999999, 0]`)
      // crashes the parsers.
      llvm::StringRef list = rest.take_front(end).trim(' ');
      if (list.empty())
        continue;
      llvm::SmallVector<llvm::StringRef> items;
      list.split(items, ',');
      for (llvm::StringRef item : items) {
        item = item.trim(' ');
        if (item.empty() || item.size() > 18 ||
            !llvm::all_of(item, llvm::isDigit))
          return true;
      }
    }
  return false;
}

MLIRContext &context() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    attic::registerExecutionDialects(registry);
    auto *c = new MLIRContext(registry);
    c->loadAllAvailableDialects();
    c->disableMultithreading();
    c->printOpOnDiagnostic(false);
    return c;
  }();
  return *ctx;
}

/// The tensor-core kernel's variant: one slot (0), the two-slot K/V ring
/// (1), wgmma on sm_90a (2).
void runPipeline(ModuleOp module, int which, int variant) {
  OwningOpRef<ModuleOp> copy(module.clone());
  PassManager pm(copy->getContext());
  if (which < 2) {
    attic::CpuPipelineOptions options;
    options.emulateCuda = which == 1;
    attic::buildCpuPipeline(pm, options);
  } else {
    attic::CudaPipelineOptions options;
    options.format = "isa";
    options.kvStages = variant == 1 ? 2 : 1;
    if (variant == 2) {
      options.chip = "sm_90a";
      options.wgmma = true;
    }
    attic::buildCudaPipeline(pm, options);
  }
  count(kMessageSlots + kOpSlots + 2 * which + (succeeded(pm.run(*copy))));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Larger inputs only slow the search down (attic's largest example is
  // 40 KiB).
  if (size > 64 * 1024)
    return 0;
  MLIRContext &ctx = context();
  ScopedDiagnosticHandler silence(&ctx, [](Diagnostic &diagnostic) {
    count(hashText(diagnostic.str(), /*dropDigits=*/true) % kMessageSlots);
    return success();
  });
  std::string text(reinterpret_cast<const char *>(data), size);
  if (reachesUpstreamArrayCrash(text) || nestsTooDeep(text))
    return 0;
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  if (!module)
    return 0;
  module->walk([](Operation *op) {
    count(kMessageSlots + hashText(op->getName().getStringRef(),
                                   /*dropDigits=*/false) %
                              kOpSlots);
  });
  if (failed(verify(*module)))
    return 0;
  for (int which = 0; which < 3; ++which)
    runPipeline(*module, which,
                /*variant=*/size % 2 == 1 ? 1 : (size % 4 == 2 ? 2 : 0));
  return 0;
}

//===- MlirPipelineFuzzer.cpp - libFuzzer target of the compiler ----------===//
//
// Arbitrary text through what attic-opt and attic-run do with a file: parse
// (attic's dialect and every upstream one), verify, then each pipeline on
// a copy of the module: attic-cpu-pipeline, its emulated CUDA mapping
// (attic-run --target=cuda-emulated) and attic-cuda-pipeline to PTX
// (format=isa: no ptxas; by the input's length mod 10: one slot (0),
// kv-stages=2 (1), chip=sm_90a wgmma=true (2), chip=sm_90a wgmma=true
// kv-stages=2 wgmma-overlap=true (3), kv-stages=3 (4), chip=sm_90a
// wgmma=true kv-stages=3 wgmma-overlap=true (5), variants 1 and 5 with
// TMA loads (6, 7), variant 6 warp-specialized (8), and FlashAttention-3's
// schedule: variant 3 with TMA, warp-specialize and ping-pong (9)). Errors
// are
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
#include "attic/Support/InputFile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <malloc.h>
#include <string>
#include <vector>

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
/// 2026-11-26). The tools refuse more than 2000 levels (InputFile.h); the
/// pipelines run here too, so 1000, far above any real input.
bool nestsTooDeep(llvm::StringRef text) {
  return !attic::checkInputNesting(text, "input", /*limit=*/1000).empty();
}

/// Whether `text` uses an SSA name before a definition of it that comes
/// later (a forward reference that gets resolved). MLIR 22's parser
/// resolves a forward reference with a later definition even inside a
/// nested region, and the parsers that ODS generates for ops with a region
/// in their assembly format (tensor.generate, for one) free that region on
/// a parse error while the outside use still points into it: the heap is
/// corrupted, and a later input aborts in malloc (found by the MLIR fuzzer,
/// 2026-11-26). attic's own modifier regions reject such references
/// (parseModifierRegion, test/Integration/parse-error-memory.test); the
/// upstream ops cannot be fixed here, so such inputs are skipped. Valid IR
/// almost never has forward references (graph regions and unusual block
/// orders do). The scan is lexical and errs on the side of skipping:
///  - a definition is `%a =`, `%a:2 =`, `%a, %b =`, or `%a:` inside the
///    parentheses after `^bb` or `@name` (block and function arguments);
///    everything else is a use;
///  - definitions are visible until the `}` that closes their braces
///    (function arguments: until the end of the next braces), and not
///    inside braces opened right after a function's signature, `module` or
///    `@name` (isolated from above, as func.func, gpu.module);
///  - comments and strings are skipped.
bool hasResolvedForwardReference(llvm::StringRef text) {
  auto isIdChar = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
  };
  size_t n = text.size(), i = 0;
  auto charAt = [&](size_t k) { return k < n ? text[k] : '\0'; };
  // The offset of the next token at or after `k` (skipTrivia's rules).
  auto skipSpace = [&](size_t k) {
    return k >= n ? k : n - skipTrivia(text.drop_front(k)).size();
  };
  auto nameEnd = [&](size_t k) {
    while (k < n && isIdChar(text[k]))
      ++k;
    return k;
  };
  // Definitions per open brace; the outermost is the file's. A scope
  // opened after a function's signature, `module` or `@name` is isolated:
  // the names of the scopes around it are not visible in it.
  struct Scope {
    llvm::StringSet<> names;
    bool isolated = false;
  };
  std::vector<Scope> scopes(1);
  llvm::StringSet<> pendingArguments, forwardUses;
  bool isolateNext = false;
  // For each open parenthesis: whether it holds block or function
  // arguments (1: block, 2: function).
  std::vector<int> parens;
  int lastWasLabel = 0; // 1 after `^bb`, 2 after `@name`
  auto isDefined = [&](llvm::StringRef name) {
    for (const Scope &scope : llvm::reverse(scopes)) {
      if (scope.names.contains(name))
        return true;
      if (scope.isolated)
        return false;
    }
    return false;
  };
  auto define = [&](llvm::StringRef name, bool functionArgument) {
    if (forwardUses.contains(name))
      return true;
    (functionArgument ? pendingArguments : scopes.back().names).insert(name);
    return false;
  };
  while ((i = skipSpace(i)) < n) {
    char c = text[i];
    int label = 0;
    if (c == '"') {
      for (++i; i < n && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      ++i;
    } else if (c == '{') {
      llvm::StringRef before = text.take_front(i).rtrim(" \t\n\r\v\f");
      scopes.emplace_back();
      scopes.back().isolated =
          isolateNext || lastWasLabel == 2 || before.ends_with("module");
      isolateNext = false;
      for (const auto &argument : pendingArguments)
        scopes.back().names.insert(argument.getKey());
      pendingArguments.clear();
      ++i;
    } else if (c == '}') {
      if (scopes.size() > 1)
        scopes.pop_back();
      ++i;
    } else if (c == '(') {
      // After `^bb`: a block's arguments only if `:` follows the closing
      // parenthesis (a branch's operands otherwise); looked for within 4096
      // characters, so that the scan stays linear.
      int kind = lastWasLabel;
      if (kind == 1) {
        size_t k = i + 1;
        long depth = 1;
        for (; k < n && k < i + 4096 && depth > 0; ++k)
          depth += text[k] == '(' ? 1 : text[k] == ')' ? -1 : 0;
        if (depth != 0 || charAt(skipSpace(k)) != ':')
          kind = 0;
      }
      if (kind == 2)
        pendingArguments.clear();
      parens.push_back(kind);
      ++i;
    } else if (c == ')') {
      if (!parens.empty()) {
        isolateNext = parens.back() == 2;
        parens.pop_back();
      }
      ++i;
    } else if (c == '^' || c == '@') {
      i = nameEnd(i + 1);
      label = c == '^' ? 1 : 2;
    } else if (c == '%') {
      isolateNext = false; // a call's operands, not a signature
      size_t end = nameEnd(i + 1);
      llvm::StringRef name = text.slice(i + 1, end);
      // A result list: %a(:N)? (, %b(:N)?)* =
      llvm::SmallVector<llvm::StringRef> names{name};
      size_t k = end;
      while (true) {
        k = skipSpace(k);
        if (charAt(k) == ':' && llvm::isDigit(charAt(skipSpace(k + 1))))
          k = skipSpace(k + 1);
        while (llvm::isDigit(charAt(k)))
          ++k;
        k = skipSpace(k);
        if (charAt(k) == ',' && charAt(skipSpace(k + 1)) == '%') {
          k = skipSpace(k + 1);
          size_t e = nameEnd(k + 1);
          names.push_back(text.slice(k + 1, e));
          k = e;
          continue;
        }
        break;
      }
      bool isResultList = charAt(k) == '=';
      bool isArgument = !parens.empty() && parens.back() != 0 &&
                        charAt(skipSpace(end)) == ':';
      if (isResultList) {
        for (llvm::StringRef defined : names)
          if (define(defined, false))
            return true;
        i = k + 1;
        lastWasLabel = 0;
        continue;
      }
      if (isArgument) {
        if (define(name, parens.back() == 2))
          return true;
      } else if (!isDefined(name) && !pendingArguments.contains(name)) {
        forwardUses.insert(name);
      }
      i = end;
    } else {
      ++i;
    }
    lastWasLabel = label;
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
/// (1), wgmma on sm_90a (2), wgmma with the ring and the deferred P V (3),
/// the three-slot ring (4), wgmma with it and the deferred P V (5),
/// variants 1 and 5 with wgmma's TMA loads (6, 7), variant 6 with a
/// producer warpgroup (8), and variant 3 with TMA, the producer warpgroup
/// and ping-pong between the consumers (9).
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
    bool threeSlots = variant == 4 || variant == 5 || variant == 7;
    options.kvStages = variant == 0 || variant == 2 ? 1 : threeSlots ? 3 : 2;
    if (variant == 2 || variant == 3 || variant >= 5) {
      options.chip = "sm_90a";
      options.wgmma = true;
    }
    options.wgmmaOverlap =
        variant == 3 || variant == 5 || variant == 7 || variant == 9;
    options.tma = variant >= 6;
    options.warpSpecialize = variant >= 8;
    options.pingPong = variant == 9;
    attic::buildCudaPipeline(pm, options);
  }
  count(kMessageSlots + kOpSlots + 2 * which + (succeeded(pm.run(*copy))));
}

/// A hunting aid for heap corruption in the uninstrumented libraries:
/// with ATTIC_FUZZ_LAST_INPUT=<file>, each input is written to <file>
/// before it runs, and malloc_trim(0) after it consolidates glibc's free
/// lists, which aborts ("malloc_consolidate(): unaligned fastbin chunk
/// detected") in the input that wrote into freed memory rather than in a
/// later one. libFuzzer's own crash file is not written then (its crash
/// handler deadlocks on the heap lock that the abort holds); <file> is.
class LastInput {
public:
  LastInput(const uint8_t *data, size_t size) {
    static const char *path = std::getenv("ATTIC_FUZZ_LAST_INPUT");
    if (!path)
      return;
    active = true;
    if (std::FILE *file = std::fopen(path, "wb")) {
      std::fwrite(data, 1, size, file);
      std::fclose(file);
    }
  }
  ~LastInput() {
    if (active)
      malloc_trim(0);
  }

private:
  bool active = false;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  LastInput lastInput(data, size);
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
  if (reachesUpstreamArrayCrash(text) || nestsTooDeep(text) ||
      hasResolvedForwardReference(text))
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
                /*variant=*/static_cast<int>(size % 10));
  return 0;
}

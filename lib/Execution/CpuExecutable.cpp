//===- CpuExecutable.cpp - JIT-compile and run attic functions --*- C++ -*-===//

#include "attic/Execution/CpuExecutable.h"
#include "attic/InitAttic.h"
#include "attic/Support/CrashHandler.h"
#include "attic/Support/InputFile.h"
#include "attic/runtime/Aot.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <vector>

#include <unistd.h>

using namespace mlir;

// libomp's API (linked; see lib/Execution/CMakeLists.txt).
extern "C" void omp_set_num_threads(int);
extern "C" int omp_get_max_threads(void);

int attic::setCpuThreads(int n) {
  if (n > 0)
    omp_set_num_threads(n);
  // OpenBLAS (attic_rt_sgemm) runs on as many threads as the loops.
  int threads = omp_get_max_threads();
  attic_rt_set_blas_threads(threads);
  return threads;
}

std::optional<attic_dtype> attic::dtypeOf(Type type) {
  if (type.isF32())
    return ATTIC_F32;
  if (type.isF16())
    return ATTIC_F16;
  if (type.isBF16())
    return ATTIC_BF16;
  if (type.isF64())
    return ATTIC_F64;
  if (type.isSignlessInteger(1))
    return ATTIC_I1;
  if (type.isSignlessInteger(8))
    return ATTIC_I8;
  if (type.isSignlessInteger(32))
    return ATTIC_I32;
  if (type.isSignlessInteger(64))
    return ATTIC_I64;
  return std::nullopt;
}

void attic::registerExecutionDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAtticDialect(registry);
}

void attic::appendLoweringRegistry(MLIRContext &ctx) {
  DialectRegistry registry;
  registerAtticDialect(registry);
  ctx.appendDialectRegistry(registry);
}

/// The first option given twice within one pass's braces of a textual
/// pipeline ("attic-cpu-pipeline{block-q=64 block-q=32}"), as "block-q in
/// attic-cpu-pipeline{...}"; empty if none. MLIR's parser takes the last
/// one without a word (a 2026-11-30 audit), as attic's tools refuse an
/// option given twice on their command lines.
static std::string repeatedPassOption(StringRef pipeline) {
  // One group per open brace: its pass, the start of the option being
  // read and the parentheses open within it (a value may hold a nested
  // pipeline: "op-pipelines=func.func(cse, canonicalize{a=1 b=2})").
  struct Group {
    StringRef pass;
    size_t tokenStart;
    int parens = 0;
    llvm::StringSet<> keys;
  };
  SmallVector<Group> groups;
  char quote = 0;
  // The option from the group's token start to `end`: its key must be new.
  auto endOption = [&](size_t end) -> std::string {
    Group &group = groups.back();
    StringRef key =
        pipeline.slice(group.tokenStart, end).split('=').first.trim();
    group.tokenStart = end + 1;
    if (key.empty() || group.keys.insert(key).second)
      return "";
    return (key + " in " + group.pass + "{...}").str();
  };
  for (size_t i = 0; i < pipeline.size(); ++i) {
    char c = pipeline[i];
    if (quote) {
      quote = c == quote ? 0 : quote;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{') {
      size_t nameStart = i ? pipeline.find_last_of(",( {", i - 1) : 0;
      nameStart = nameStart == StringRef::npos || !i ? 0 : nameStart + 1;
      groups.push_back({pipeline.slice(nameStart, i).trim(), i + 1, 0, {}});
    } else if (groups.empty()) {
      continue;
    } else if (c == '(') {
      ++groups.back().parens;
    } else if (c == ')') {
      --groups.back().parens;
    } else if (c == '}') {
      if (std::string repeated = endOption(i); !repeated.empty())
        return repeated;
      groups.pop_back();
    } else if (c == ' ' && groups.back().parens == 0) {
      if (std::string repeated = endOption(i); !repeated.empty())
        return repeated;
    }
  }
  return "";
}

/// The passes inside `pipeline` when it is one top-level anchor on the
/// module, "builtin.module(P)" or "any(P)", whose parenthesis closes at
/// its end; else `pipeline`.
static StringRef anchoredPasses(StringRef pipeline) {
  for (StringRef anchor : {"builtin.module(", "any("}) {
    if (!pipeline.starts_with(anchor) || !pipeline.ends_with(")"))
      continue;
    StringRef inner = pipeline.drop_front(anchor.size()).drop_back();
    // The anchor's parenthesis must be the one that closes at the end
    // ("any(a),any(b)" is two anchors).
    int depth = 0;
    char quote = 0;
    for (char c : inner) {
      if (quote) {
        quote = c == quote ? 0 : quote;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '(') {
        ++depth;
      } else if (c == ')' && --depth < 0) {
        return pipeline;
      }
    }
    return inner;
  }
  return pipeline;
}

LogicalResult attic::addTextualPipeline(OpPassManager &pm, StringRef pipeline,
                                        StringRef what, std::string &error) {
  if (std::string repeated = repeatedPassOption(pipeline); !repeated.empty()) {
    error = ("bad " + what + " pass pipeline '" + pipeline + "': option " +
             repeated +
             " is given twice (MLIR's parser would take the last one "
             "silently; a list option takes its values as a=x,y)")
                .str();
    return failure();
  }
  // The anchored form, as --pass-pipeline takes it (builtin.module(...),
  // or any(...), which attic-opt anchors on the module too): its passes go
  // into `pm` itself (parsed as they are, they would nest on the ops inside
  // it, where a module pass is skipped without a word; a 2026-12-02
  // audit).
  StringRef passes = anchoredPasses(pipeline.trim());
  std::string parseError;
  llvm::raw_string_ostream parseStream(parseError);
  if (succeeded(parsePassPipeline(passes, pm, parseStream)))
    return success();
  error = ("bad " + what + " pass pipeline '" + pipeline +
           "': " + StringRef(parseError).trim())
              .str();
  std::replace(error.begin(), error.end(), '\n', ' ');
  return failure();
}

LogicalResult attic::checkFullyLowered(ModuleOp lowered, std::string &error) {
  Operation *left = nullptr;
  lowered.walk<WalkOrder::PreOrder>([&](Operation *op) {
    StringRef dialect = op->getName().getDialectNamespace();
    if (dialect == "llvm" || dialect == "omp" || dialect == "gpu" ||
        dialect == "builtin")
      return WalkResult::advance();
    left = op;
    return WalkResult::interrupt();
  });
  if (!left)
    return success();
  std::string where;
  llvm::raw_string_ostream os(where);
  left->getLoc().print(os);
  error =
      ("the pipeline left '" + left->getName().getStringRef() + "' (" + where +
       ") unlowered; LLVM's translation cannot take it (a pipeline given "
       "as text must lower everything to the LLVM dialect: end it in "
       "attic-cpu-pipeline or attic-cuda-pipeline, on the module)")
          .str();
  return failure();
}

LogicalResult attic::checkLibraryNameClashes(ModuleOp lowered,
                                             std::string &error) {
  static constexpr llvm::StringLiteral kLibrary[] = {
      "malloc", "calloc", "aligned_alloc", "realloc", "free", "memcpy",
      "memmove", "memset", "memrefCopy", "abort"};
  // libm functions behind LLVM's math intrinsics and MathToLibm, each with
  // its f32 form (suffix f) as well.
  static constexpr llvm::StringLiteral kMath[] = {
      "pow",   "powi",  "exp",   "exp2",  "exp10", "expm1",  "log",
      "log2",  "log10", "log1p", "sin",   "cos",   "tan",    "asin",
      "acos",  "atan",  "atan2", "sinh",  "cosh",  "tanh",   "asinh",
      "acosh", "atanh", "erf",   "erfc",  "cbrt",  "sqrt",   "fma",
      "fmod",  "floor", "ceil",  "trunc", "round", "rint",   "nearbyint",
      "roundeven", "fabs", "copysign", "ldexp", "frexp", "sincos", "fmin",
      "fmax"};
  // Whether the module computes f64 math (intrinsics or calls with f64
  // results), found once, on the first f64 name.
  std::optional<bool> f64Math;
  auto compilesF64Math = [&] {
    if (!f64Math) {
      f64Math = false;
      lowered.walk([&](Operation *op) {
        if (op->getName().getStringRef().starts_with("llvm.intr.") ||
            isa<LLVM::CallOp>(op))
          for (Type type : op->getResultTypes())
            *f64Math |= getElementTypeOrSelf(type).isF64();
      });
    }
    return *f64Math;
  };
  for (auto func : lowered.getOps<LLVM::LLVMFuncOp>()) {
    if (func.isExternal())
      continue;
    StringRef name = func.getName();
    bool clash = llvm::is_contained(kLibrary, name);
    for (StringRef math : kMath)
      clash |= name == math || (name.size() == math.size() + 1 &&
                                name.starts_with(math) && name.back() == 'f');
    // f64 names (exp, log, sin, ...) clash only where f64 math is compiled;
    // the f32 forms and the rest always.
    if (clash && llvm::is_contained(kMath, name))
      clash = compilesF64Math();
    if (!clash)
      continue;
    error = ("the module defines @" + name +
             ", the name of a C library function that compiled code may call "
             "(math ops become libm calls, copies memcpy); rename it")
                .str();
    return failure();
  }
  return success();
}

std::string attic::formatLocation(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
  else
    os << loc;
  return text;
}

std::string attic::formatDiagnostic(Diagnostic &diagnostic) {
  std::string text;
  llvm::raw_string_ostream os(text);
  Location loc = diagnostic.getLocation();
  if (!isa<UnknownLoc>(loc))
    os << formatLocation(loc) << ": ";
  os << diagnostic;
  return text;
}

OwningOpRef<ModuleOp> attic::parseModuleForTool(llvm::SourceMgr &sourceMgr,
                                                MLIRContext *context,
                                                StringRef tool) {
  bool noted = false;
  ScopedDiagnosticHandler noteForCrash(context, [&](Diagnostic &d) {
    if (noted || d.getSeverity() != DiagnosticSeverity::Error)
      return failure();
    noted = true;
    setCrashNote((tool + ": error: " + formatDiagnostic(d)).str());
    return failure(); // the caller's handlers still get it
  });
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, context);
  setCrashNote("");
  return module;
}

OwningOpRef<ModuleOp> attic::loadModuleForTool(StringRef path,
                                               llvm::SourceMgr &sourceMgr,
                                               MLIRContext *context,
                                               StringRef tool,
                                               std::string &error) {
  if (std::string why = checkInputFile(path); !why.empty()) {
    error = why;
    return nullptr;
  }
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (!buffer) {
    error = (path + ": cannot open: " + buffer.getError().message()).str();
    return nullptr;
  }
  if (std::string why = checkInputNesting((*buffer)->getBuffer(),
                                          (*buffer)->getBufferIdentifier());
      !why.empty()) {
    error = why;
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  ErrorCollector parseErrors(context);
  OwningOpRef<ModuleOp> module = parseModuleForTool(sourceMgr, context, tool);
  if (!module)
    error = parseErrors.text().empty() ? (path + ": cannot parse").str()
                                       : parseErrors.text();
  return module;
}

/// Where `module` is already lowered to the LLVM dialect (an llvm.func,
/// `entry` if named, and no func.func with a body): a sentence that says so,
/// else "".
static std::string alreadyLowered(ModuleOp module, StringRef entry) {
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      return "";
  LLVM::LLVMFuncOp lowered;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    if (!func.isExternal() && (entry.empty() || func.getName() == entry)) {
      lowered = func;
      break;
    }
  if (!lowered)
    return "";
  return ("; the module is already lowered to the LLVM dialect (llvm.func @" +
          lowered.getName() +
          "): the tools take functions on tensors (func.func), the input of "
          "attic-opt's pipelines")
      .str();
}

/// Where a function with a body (named `entry`, or any where `entry` is
/// empty) is in a module nested in `module` and not at its top level: a
/// sentence that says so, else "". The tools run the top-level module's
/// functions, as attic's pipelines lower them.
static std::string inNestedModule(ModuleOp module, StringRef entry) {
  func::FuncOp found;
  module.walk([&](func::FuncOp func) {
    if (func->getParentOp() == module.getOperation() || func.isExternal() ||
        (!entry.empty() && func.getSymName() != entry))
      return WalkResult::advance();
    found = func;
    return WalkResult::interrupt();
  });
  if (!found)
    return "";
  auto inner = found->getParentOfType<ModuleOp>();
  std::string name = inner.getSymName() ? ("@" + *inner.getSymName()).str()
                                        : std::string("without a name");
  return ("; @" + found.getSymName() + " (" +
          attic::formatLocation(found.getLoc()) + ") is in the nested module " +
          name +
          ", and the tools run the functions at the top level of the file's "
          "module: move it there")
      .str();
}

std::string attic::chooseEntry(ModuleOp module, StringRef name, StringRef path,
                               std::string &error) {
  if (!name.empty())
    return name.str();
  SmallVector<func::FuncOp> funcs;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && !func.isPrivate())
      funcs.push_back(func);
  if (funcs.empty()) {
    error = (path + ": no public function with a body at the top level of "
                    "the module")
                .str() +
            alreadyLowered(module, "") + inNestedModule(module, "");
    return "";
  }
  if (funcs.size() == 1 && funcs.front().getSymName().empty()) {
    // An empty name is "no entry" to every caller (and no C symbol).
    error = (path + ": the module's function has an empty name (@\"\"); "
                    "name it")
                .str();
    return "";
  }
  if (funcs.size() != 1) {
    error = (path + ": " + Twine(funcs.size()) + " functions (").str();
    for (auto [i, func] : llvm::enumerate(funcs)) {
      if (i == 4) {
        error += ", ...";
        break;
      }
      error += (i ? ", @" : "@") + func.getSymName().str();
    }
    error += "); choose one with --entry";
    return "";
  }
  return funcs.front().getSymName().str();
}

attic::ErrorCollector::ErrorCollector(MLIRContext *context)
    : handler_(context, [this](Diagnostic &diag) {
        if (diag.getSeverity() == DiagnosticSeverity::Error) {
          if (!text_.empty())
            text_ += "; ";
          text_ += formatDiagnostic(diag);
          // Its notes too, but for the IR that "see current operation"
          // prints.
          for (Diagnostic &note : diag.getNotes())
            if (!StringRef(note.str()).starts_with("see current operation"))
              text_ += " (note: " + formatDiagnostic(note) + ")";
        }
        return success();
      }) {}

LogicalResult attic::runLowering(PassManager &pm, ModuleOp module,
                                 StringRef what, std::string &error) {
  ErrorCollector errors(module.getContext());
  if (succeeded(pm.run(module)) && errors.text().empty())
    return success();
  error = (what + ": " +
           (errors.text().empty() ? StringRef("unknown error")
                                  : StringRef(errors.text())))
              .str();
  return failure();
}

FailureOr<attic::EntrySignature>
attic::getEntrySignature(ModuleOp module, StringRef entry, std::string &error) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal()) {
    error = ("no function '" + entry + "' with a body in the module").str() +
            alreadyLowered(module, entry) + inNestedModule(module, entry);
    return failure();
  }
  // A private function is the module's own: the lowering neither exports
  // it nor gives it a C interface (attic-run failed with "Symbols not
  // found: [ _mlir_f ]", attic-compile with "no LLVM function").
  if (func.isPrivate()) {
    error = ("@" + entry +
             " is private, a helper of its module that the lowering does not "
             "export: drop 'private' to run or compile it")
                .str();
    return failure();
  }
  EntrySignature signature;
  auto convert = [&](Type type, const char *what, unsigned index,
                     SmallVectorImpl<TensorSpec> &into) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    std::optional<attic_dtype> dtype =
        tensor ? dtypeOf(tensor.getElementType()) : std::nullopt;
    if (!tensor || !dtype || tensor.getRank() > ATTIC_MAX_RANK) {
      std::string typeText;
      llvm::raw_string_ostream os(typeText);
      os << type;
      error = (Twine("@") + entry + " " + what + " #" + Twine(index) +
               " has type " + typeText +
               "; entry points take ranked tensors of f32, f16, bf16, f64, i1, "
               "i8, i32 or i64 (rank <= 8)")
                  .str();
      return failure();
    }
    into.push_back({*dtype, SmallVector<int64_t>(tensor.getShape())});
    return success();
  };
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
    if (failed(convert(type, "argument", i, signature.inputs)))
      return failure();
  for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
    if (failed(convert(type, "result", i, signature.results)))
      return failure();
  return signature;
}

attic::CpuExecutable::~CpuExecutable() = default;

std::unique_ptr<attic::CpuExecutable>
attic::CpuExecutable::compile(ModuleOp module, StringRef entry,
                              const CpuPipelineOptions &options,
                              std::string &error) {
  return compileWith(
      module, entry,
      [&](OpPassManager &pm, std::string &) {
        buildCpuPipeline(pm, options);
        return success();
      },
      error);
}

std::unique_ptr<attic::CpuExecutable>
attic::CpuExecutable::compile(ModuleOp module, StringRef entry,
                              StringRef pipeline, std::string &error) {
  return compileWith(
      module, entry,
      [&](OpPassManager &pm, std::string &message) {
        return addTextualPipeline(pm, pipeline, "CPU", message);
      },
      error);
}

std::unique_ptr<attic::CpuExecutable> attic::CpuExecutable::compileWith(
    ModuleOp module, StringRef entry,
    function_ref<LogicalResult(OpPassManager &, std::string &)> buildPipeline,
    std::string &error) {
  FailureOr<EntrySignature> signature =
      getEntrySignature(module, entry, error);
  if (failed(signature))
    return nullptr;

  OwningOpRef<ModuleOp> lowered(module.clone());
  MLIRContext *ctx = lowered->getContext();
  // Only @entry runs.
  eraseFunctionsBesides(*lowered, entry);
  appendLoweringRegistry(*ctx);
  {
    PassManager pm(ctx);
    if (failed(buildPipeline(pm, error)) ||
        failed(runLowering(pm, *lowered, "lowering failed", error)))
      return nullptr;
  }

  if (failed(checkFullyLowered(*lowered, error)) ||
      failed(checkLibraryNameClashes(*lowered, error)))
    return nullptr;
  initializeJit();
  // Every function the compiled code calls must be one attic binds below
  // or one the process provides (libc, libm, libomp, MLIR's runner
  // utilities); otherwise the JIT fails with ORC's multi-line message.
  for (auto func : lowered->getOps<LLVM::LLVMFuncOp>()) {
    StringRef name = func.getName();
    if (!func.isExternal() || name.starts_with("llvm.") ||
        SymbolTable::symbolKnownUseEmpty(func, *lowered))
      continue;
    static constexpr llvm::StringLiteral kBound[] = {
        "malloc", "calloc", "aligned_alloc", "realloc", "free",
        "attic_rt_report_error", "attic_rt_sgemm"};
    if (llvm::is_contained(kBound, name) ||
        llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(name.str().c_str()))
      continue;
    // attic's runtime has attic_rt_malloc and others, but binds them to
    // the names compiled code calls (malloc): "neither attic's runtime nor
    // the process provides" read wrong for them (a 2026-11-30 audit).
    if (name.starts_with("attic_"))
      error = ("the compiled code calls @" + name +
               ", a name of attic's runtime that the JIT does not bind "
               "(compiled code calls malloc, free, attic_rt_report_error "
               "and attic_rt_sgemm, which attic binds); call those or "
               "rename the function")
                  .str();
    else
      error = ("the compiled code calls @" + name +
               ", which neither attic's runtime nor the process provides")
                  .str();
    return nullptr;
  }
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  ctx->appendDialectRegistry(registry);

  // Optimize for the host CPU so that LLVM's vectorizer uses its widest
  // vector units (AVX-512 where present).
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) {
    error = "cannot detect the host CPU: " + llvm::toString(builder.takeError());
    return nullptr;
  }
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto targetMachine = builder->createTargetMachine();
  if (!targetMachine) {
    error = "cannot create a target machine: " +
            llvm::toString(targetMachine.takeError());
    return nullptr;
  }
  auto transformer =
      makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0,
                                targetMachine->get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.enablePerfNotificationListener = attic::perfJitDumpWanted();
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine =
      ExecutionEngine::create(*lowered, engineOptions, std::move(*targetMachine));
  if (!engine) {
    error = "JIT compilation failed: " + llvm::toString(engine.takeError());
    return nullptr;
  }
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    auto bind = [&](const char *name, void *address) {
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                 llvm::JITSymbolFlags::Exported};
    };
    // The runtime's allocator (runtime/lib/Alloc.cpp): counted, large
    // blocks reused across calls, never null.
    bind("malloc", reinterpret_cast<void *>(&attic_rt_malloc));
    bind("calloc", reinterpret_cast<void *>(&attic_rt_calloc));
    bind("aligned_alloc", reinterpret_cast<void *>(&attic_rt_aligned_alloc));
    bind("realloc", reinterpret_cast<void *>(&attic_rt_realloc));
    bind("free", reinterpret_cast<void *>(&attic_rt_free));
    // Data-dependent errors found by compiled code (Runtime.h).
    bind("attic_rt_report_error",
         reinterpret_cast<void *>(&attic_rt_report_error));
    // Dense f32 GEMMs of attic-linalg-to-blas (OpenBLAS).
    bind("attic_rt_sgemm", reinterpret_cast<void *>(&attic_rt_sgemm));
    return symbols;
  });
  (*engine)->initialize();

  std::unique_ptr<CpuExecutable> executable(new CpuExecutable());
  executable->engine_ = std::move(*engine);
  executable->entry_ = entry.str();
  executable->signature_ = std::move(*signature);
  return executable;
}

LogicalResult
attic::CpuExecutable::run(ArrayRef<const attic_tensor *> inputs,
                          SmallVectorImpl<attic_tensor> &outputs,
                          std::string &error) {
  PackedCall call;
  if (failed(call.pack(entry_, signature_, inputs, error)))
    return failure();
  attic_rt_heap_reset();
  attic_rt_take_error(nullptr, 0); // drop a report left by an earlier run
  size_t firstOutput = outputs.size();
  {
    // A stack overflow from here is the compiled code's (CrashHandler.h).
    // Every thread of the OpenMP team gets an alternate signal stack, so
    // that a stack overflow in a compiled parallel loop's worker reaches
    // the crash handler (one line, status 3) instead of killing the
    // process without a word.
    if (attic::crashHandlerInstalled())
      attic_rt_prepare_signal_stacks();
    attic::CompiledCodeScope compiled;
    if (llvm::Error err = engine_->invokePacked(entry_, call.pointerList())) {
      error =
          "invoking @" + entry_ + " failed: " + llvm::toString(std::move(err));
      return failure();
    }
  }

  // Copy each result into a runtime tensor, then release the compiled
  // code's buffers, once each and never one of the inputs (a function may
  // return one). The frees wait until every result is copied: two results
  // may share one buffer (`return %o, %o`, or a reshape of %o), and freeing
  // it after the first copy made the second read freed memory (a
  // 2026-11-30 audit).
  SmallVector<void *> released;
  for (size_t i = 0; i < signature_.results.size(); ++i) {
    void *allocated = call.result(i).allocated;
    bool isInput = llvm::any_of(inputs, [&](const attic_tensor *input) {
      return input->data == allocated;
    });
    if (!isInput && !llvm::is_contained(released, allocated))
      released.push_back(allocated);
  }
  llvm::scope_exit releaseAll([&] {
    for (void *allocated : released)
      attic_rt_free(allocated);
  });
  for (auto [i, spec] : llvm::enumerate(signature_.results)) {
    attic_tensor out{};
    if (failed(copyResult(call.result(i), spec.dtype, out, error)))
      return failure();
    outputs.push_back(out);
  }
  // A data-dependent error reported by the compiled code (e.g. more VIP
  // tokens than num_vip) makes the run fail; its results are not valid.
  char message[512];
  if (attic_rt_take_error(message, sizeof(message)) != ATTIC_OK) {
    for (size_t i = firstOutput; i < outputs.size(); ++i)
      attic_tensor_free(&outputs[i]);
    outputs.truncate(firstOutput);
    error = message;
    return failure();
  }
  return success();
}

attic::HeapStats attic::CpuExecutable::lastHeapStats() const {
  HeapStats stats;
  attic_rt_heap_stats(&stats.peakBytes, &stats.allocations);
  return stats;
}

std::string attic::shapeString(ArrayRef<int64_t> shape) {
  std::string text;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      text += "x";
    text += ShapedType::isDynamic(shape[i]) ? "?" : std::to_string(shape[i]);
  }
  return text;
}

LogicalResult attic::checkInputStorage(StringRef entry, size_t index,
                                       const attic_tensor &input,
                                       std::string &error) {
  std::string what =
      "argument #" + std::to_string(index) + " of @" + entry.str();
  char message[512];
  if (attic_tensor_check(&input, what.c_str(), message, sizeof(message)) ==
      ATTIC_OK)
    return success();
  error = message;
  return failure();
}

LogicalResult attic::PackedCall::pack(StringRef entry,
                                      const EntrySignature &signature,
                                      ArrayRef<const attic_tensor *> inputs,
                                      std::string &error) {
  if (inputs.size() != signature.inputs.size()) {
    error = "@" + entry.str() + " takes " +
            std::to_string(signature.inputs.size()) + " arguments, got " +
            std::to_string(inputs.size());
    return failure();
  }
  arguments_.clear();
  pointers_.clear();
  for (auto [i, input] : llvm::enumerate(inputs)) {
    const TensorSpec &spec = signature.inputs[i];
    if (!input) {
      error =
          "argument #" + std::to_string(i) + " of @" + entry.str() + " is NULL";
      return failure();
    }
    if (input->dtype != spec.dtype ||
        input->rank != static_cast<int32_t>(spec.shape.size())) {
      error = "argument #" + std::to_string(i) + " of @" + entry.str() +
              " must be " + attic_dtype_name(spec.dtype) + " of shape " +
              shapeString(spec.shape) + ", got " +
              attic_dtype_name(input->dtype) + " of rank " +
              std::to_string(input->rank);
      return failure();
    }
    SmallVector<int64_t> actual(input->shape, input->shape + input->rank);
    for (auto [d, size] : llvm::enumerate(spec.shape)) {
      if (!ShapedType::isDynamic(size) && size != actual[d]) {
        error = "argument #" + std::to_string(i) + " of @" + entry.str() +
                " must have shape " + shapeString(spec.shape) + ", got " +
                shapeString(actual);
        return failure();
      }
    }
    if (failed(checkInputStorage(entry, i, *input, error)))
      return failure();
    int64_t rank = input->rank;
    std::vector<int64_t> words(3 + 2 * rank);
    std::memcpy(&words[0], &input->data, sizeof(void *));
    std::memcpy(&words[1], &input->data, sizeof(void *));
    words[2] = 0;
    for (int64_t d = rank - 1, stride = 1; d >= 0; --d) {
      words[3 + d] = input->shape[d];
      words[3 + rank + d] = stride;
      stride *= input->shape[d];
    }
    arguments_.push_back(std::move(words));
  }
  for (std::vector<int64_t> &words : arguments_)
    for (int64_t &word : words)
      pointers_.push_back(&word);
  size_t resultWords = 0;
  for (const TensorSpec &spec : signature.results)
    resultWords += 3 + 2 * spec.shape.size();
  results_.assign(std::max<size_t>(resultWords, 1), 0);
  resultStart_.clear();
  resultRank_.clear();
  size_t word = 0;
  for (const TensorSpec &spec : signature.results) {
    resultStart_.push_back(word);
    resultRank_.push_back(spec.shape.size());
    word += 3 + 2 * spec.shape.size();
  }
  if (!signature.results.empty())
    pointers_.push_back(results_.data());
  return success();
}

/// `path` with its symbolic links followed, dangling ones too (realpath
/// and fs::equivalent need the file to exist: `ln -s libx.so x.h` let
/// attic-compile write the header over the library it had just written;
/// an audit), absolute, without dots.
static SmallString<256> followLinks(StringRef path) {
  SmallString<256> current(path);
  for (int hops = 0; hops < 40; ++hops) {
    char target[4096];
    ssize_t n = ::readlink(current.c_str(), target, sizeof(target) - 1);
    if (n <= 0)
      break;
    StringRef link(target, size_t(n));
    if (llvm::sys::path::is_absolute(link)) {
      current = link;
      continue;
    }
    SmallString<256> next(llvm::sys::path::parent_path(current));
    llvm::sys::path::append(next, link);
    current = next;
  }
  SmallString<256> dir(llvm::sys::path::parent_path(current)), real;
  if (dir.empty())
    dir = ".";
  if (!llvm::sys::fs::real_path(dir, real)) {
    llvm::sys::path::append(real, llvm::sys::path::filename(current));
    return real;
  }
  if (llvm::sys::fs::make_absolute(current))
    return SmallString<256>(path);
  llvm::sys::path::remove_dots(current, /*remove_dot_dot=*/true);
  return current;
}

bool attic::namesSameFile(StringRef a, StringRef b) {
  bool same = false;
  if (!llvm::sys::fs::equivalent(a, b, same) && same)
    return true;
  return followLinks(a) == followLinks(b);
}

bool attic::perfJitDumpWanted() {
  const char *wanted = std::getenv("ATTIC_PERF_JITDUMP");
  return wanted && *wanted && StringRef(wanted) != "0";
}

void attic::initializeJit() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // The process itself (libc's malloc/free, libm), so that lookups through
    // llvm::sys::DynamicLibrary (the CUDA host code's check of the functions
    // it calls) see what the JIT will link against, whatever other libraries
    // happen to be loaded.
    llvm::sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
#ifdef ATTIC_MLIR_C_RUNNER_UTILS
    // MLIR's C runner utilities, for the functions that upstream lowerings
    // call from compiled code: memrefCopy (a memref.copy between buffers
    // that are not both contiguous, e.g. tensor.concat into strided
    // subviews). Loaded into the process, the JIT finds them there. A library
    // that is there but does not load (a dependency missing) is worth a
    // warning: code that needs memrefCopy would fail to link later.
    std::string message;
    if (llvm::sys::fs::exists(ATTIC_MLIR_C_RUNNER_UTILS) &&
        llvm::sys::DynamicLibrary::LoadLibraryPermanently(
            ATTIC_MLIR_C_RUNNER_UTILS, &message))
      llvm::errs() << "attic: warning: cannot load " ATTIC_MLIR_C_RUNNER_UTILS
                   << ": " << message << "\n";
#endif
  });
}

attic::PackedCall::Result attic::PackedCall::result(size_t index) const {
  const int64_t *words = results_.data() + resultStart_[index];
  size_t rank = resultRank_[index];
  Result r;
  std::memcpy(&r.allocated, &words[0], sizeof(void *));
  std::memcpy(&r.aligned, &words[1], sizeof(void *));
  r.offset = words[2];
  r.sizes = ArrayRef<int64_t>(words + 3, rank);
  r.strides = ArrayRef<int64_t>(words + 3 + rank, rank);
  return r;
}

LogicalResult attic::copyResult(const PackedCall::Result &result,
                                attic_dtype dtype, attic_tensor &out,
                                std::string &error) {
  int64_t rank = result.sizes.size();
  char message[256];
  if (attic_tensor_alloc(&out, dtype, rank, result.sizes.data(), message,
                         sizeof(message)) != ATTIC_OK) {
    error = message;
    return failure();
  }
  size_t elementSize = attic_dtype_size(dtype);
  int64_t numel = attic_tensor_numel(&out);
  const char *base = static_cast<const char *>(result.aligned);
  bool contiguous = true;
  for (int64_t d = rank - 1, stride = 1; d >= 0; --d) {
    contiguous &= result.sizes[d] == 1 || result.strides[d] == stride;
    stride *= result.sizes[d];
  }
  if (contiguous && numel > 0)
    std::memcpy(out.data, base + result.offset * elementSize,
                numel * elementSize);
  for (int64_t flat = 0; !contiguous && flat < numel; ++flat) {
    int64_t rest = flat, at = result.offset;
    for (int64_t d = rank - 1; d >= 0; --d) {
      at += (rest % result.sizes[d]) * result.strides[d];
      rest /= result.sizes[d];
    }
    std::memcpy(static_cast<char *>(out.data) + flat * elementSize,
                base + at * elementSize, elementSize);
  }
  return success();
}

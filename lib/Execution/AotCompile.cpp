//===- AotCompile.cpp - ahead-of-time compilation of attic functions ------===//
//
// See include/attic/Execution/AotCompile.h and docs/aot.md. The steps:
// lower a clone with attic-cpu-pipeline or attic-cuda-pipeline (lower), bind
// the external calls to libattic_rt.so (bindRuntimeCalls), add the C ABI
// around the entry (addEntryPoint), then translate (for CUDA, the gpu.binary
// becomes an embedded kernel image that a library constructor loads),
// optimize and emit for the chosen CPU.
//
//===----------------------------------------------------------------------===//

#include "attic/Execution/AotCompile.h"
#include "attic/Conversion/AtticToGPU/AtticToGPU.h"
#include "attic/Execution/CpuExecutable.h"
#include "attic/Execution/CudaExecutable.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

#include <dlfcn.h>

using namespace mlir;

const char *attic::cTypeOf(attic_dtype dtype) {
  switch (dtype) {
  case ATTIC_F32:
    return "float";
  case ATTIC_F64:
    return "double";
  case ATTIC_F16:
  case ATTIC_BF16:
    return "uint16_t";
  case ATTIC_I1:
    return "uint8_t";
  case ATTIC_I8:
    return "int8_t";
  case ATTIC_I32:
    return "int32_t";
  case ATTIC_I64:
    return "int64_t";
  default:
    return "void";
  }
}

namespace {

/// The CPU features attic_aot_check knows how to test on the machine that
/// loads the library (runtime/lib/Aot.cpp): the ones that select the
/// instructions of attic's kernels, and the scalar ones that x86-64-v3 and
/// later CPUs imply and LLVM uses for ordinary integer code (mulx, shlx,
/// lzcnt: a VM that offers AVX2 without BMI2 would otherwise get SIGILL).
constexpr llvm::StringLiteral kCheckedFeatures[] = {"sse4.1",
                                                    "sse4.2",
                                                    "avx",
                                                    "avx2",
                                                    "fma",
                                                    "f16c",
                                                    "avx512f",
                                                    "avx512bw",
                                                    "avx512vl",
                                                    "avx512dq",
                                                    "avx512cd",
                                                    "avx512vnni",
                                                    "avx512bf16",
                                                    "avx512fp16",
                                                    "bmi",
                                                    "bmi2",
                                                    "popcnt",
                                                    "lzcnt",
                                                    "sse4a",
                                                    "fma4",
                                                    "xop",
                                                    "tbm",
                                                    "avx512vbmi",
                                                    "avx512vbmi2",
                                                    "avx512vpopcntdq",
                                                    "avx512bitalg",
                                                    "avx512ifma",
                                                    "gfni",
                                                    "vaes",
                                                    "vpclmulqdq",
                                                    "egpr",
                                                    "push2pop2",
                                                    "ppx",
                                                    "ndd",
                                                    "ccmp",
                                                    "nf",
                                                    "cf",
                                                    "zu",
                                                    "avx10.1",
                                                    "avx10.1-512",
                                                    "avx10.2",
                                                    "avx10.2-512"};

/// Functions of libattic_rt.so that compiled code may call, and the
/// upstream names attic-compile renames to them.
constexpr std::pair<llvm::StringLiteral, llvm::StringLiteral> kRenamed[] = {
    {"malloc", "attic_rt_malloc"},
    {"calloc", "attic_rt_calloc"},
    {"aligned_alloc", "attic_rt_aligned_alloc"},
    {"realloc", "attic_rt_realloc"},
    {"free", "attic_rt_free"},
    {"memrefCopy", "attic_rt_memref_copy"}};
constexpr llvm::StringLiteral kRuntimeFunctions[] = {
    "attic_rt_malloc",  "attic_rt_calloc",       "attic_rt_aligned_alloc",
    "attic_rt_realloc", "attic_rt_free",         "attic_rt_memref_copy",
    "attic_rt_sgemm",   "attic_rt_report_error", "attic_aot_call"};

struct TargetChoice {
  std::unique_ptr<llvm::TargetMachine> machine;
  std::string triple, cpu, features; // features: the checked ones, "+a,+b"
};

FailureOr<TargetChoice> chooseTarget(const attic::AotOptions &options,
                                     std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  TargetChoice choice;
  choice.triple = llvm::sys::getProcessTriple();
  llvm::Triple triple(choice.triple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return failure();
  std::string featureString;
  if (options.cpu == "host") {
    choice.cpu = llvm::sys::getHostCPUName().str();
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      featureString += (featureString.empty() ? "" : ",") +
                       std::string(feature.second ? "+" : "-") +
                       feature.first().str();
  } else {
    choice.cpu = options.cpu;
    // Checked before the target machine is made, which would print LLVM's
    // "not a recognized processor" warning (twice) before this error.
    std::unique_ptr<llvm::MCSubtargetInfo> probe(
        target->createMCSubtargetInfo(triple, "", ""));
    if (probe && !probe->isCPUStringValid(choice.cpu)) {
      error = "unknown CPU '" + choice.cpu + "' for " + choice.triple +
              " (try x86-64-v3, skylake-avx512 or host)";
      return failure();
    }
    // A 32-bit x86 CPU (i686, pentium4, ...): LLVM's code generation
    // stopped with "LLVM ERROR: 64-bit code requested on a subtarget that
    // doesn't support it!" (an audit).
    std::unique_ptr<llvm::MCSubtargetInfo> cpuInfo(
        target->createMCSubtargetInfo(triple, choice.cpu, ""));
    if (triple.getArch() == llvm::Triple::x86_64 && cpuInfo &&
        !cpuInfo->checkFeatures("+64bit")) {
      error = "CPU '" + choice.cpu + "' cannot run x86-64 code (a 32-bit " +
              "CPU; try x86-64-v3, skylake-avx512 or host)";
      return failure();
    }
  }
  llvm::TargetOptions targetOptions;
  choice.machine.reset(target->createTargetMachine(
      triple, choice.cpu, featureString, targetOptions, llvm::Reloc::PIC_,
      std::nullopt,
      options.optLevel >= 3 ? llvm::CodeGenOptLevel::Aggressive
                            : llvm::CodeGenOptLevel::Default));
  if (!choice.machine) {
    error = "cannot create a target machine for " + choice.triple;
    return failure();
  }
  const llvm::MCSubtargetInfo *subtarget = choice.machine->getMCSubtargetInfo();
  if (!subtarget->isCPUStringValid(choice.cpu)) {
    error = "unknown CPU '" + choice.cpu + "' for " + choice.triple +
            " (try x86-64-v3, skylake-avx512 or host)";
    return failure();
  }
  for (llvm::StringRef feature : kCheckedFeatures)
    if (subtarget->checkFeatures(("+" + feature).str()))
      choice.features += (choice.features.empty() ? "+" : ",+") + feature.str();
  return choice;
}

/// The first of `libraries` that exports `name`, or "". Only libraries
/// this process has loaded already are searched (RTLD_NOLOAD: loading
/// OpenBLAS would start its threads; the tools and the Python module link
/// them all), and only they, not the libraries loaded beside them, which
/// include libMLIR.
std::string libraryProviding(llvm::StringRef name,
                             llvm::ArrayRef<const char *> libraries) {
  std::string symbol = name.str();
  for (const char *library : libraries)
    if (void *handle = dlopen(library, RTLD_LAZY | RTLD_NOLOAD)) {
      // dlsym searches the library's dependencies too: the file that holds
      // the symbol is named (sinq is libquadmath's, found through
      // OpenBLAS's handle; an audit).
      std::string found;
      Dl_info info;
      if (void *address = dlsym(handle, symbol.c_str())) {
        found = library;
        if (dladdr(address, &info) && info.dli_fname)
          found = llvm::sys::path::filename(info.dli_fname).str();
      }
      dlclose(handle);
      if (!found.empty())
        return found;
    }
  return "";
}

/// Whether libc or libm provide `name`.
bool libcProvides(llvm::StringRef name) {
  return !libraryProviding(name, {"libc.so.6", "libm.so.6"}).empty();
}

/// The library that exports `name` among those that libattic_rt.so links
/// besides libc and libm (OpenBLAS and its Fortran runtime, libomp, the C++
/// runtime), or "".
std::string linkedLibraryProviding(llvm::StringRef name) {
  return libraryProviding(name, {"libopenblas.so.0", "libomp.so.5",
                                 "libstdc++.so.6", "libgcc_s.so.1",
                                 "libgfortran.so.5", "libquadmath.so.0"});
}

/// Whether the header's own includes (stddef.h, stdint.h) declare `name`:
/// their types and macros, which an entry of that name would clash with.
bool declaredByHeaderIncludes(llvm::StringRef name) {
  static const llvm::StringSet<> kNames = {
      "size_t", "ptrdiff_t", "max_align_t", "NULL", "offsetof", "intptr_t",
      "uintptr_t", "intmax_t", "uintmax_t", "SIZE_MAX", "PTRDIFF_MIN",
      "PTRDIFF_MAX", "SIG_ATOMIC_MIN", "SIG_ATOMIC_MAX", "WCHAR_MIN",
      "WCHAR_MAX", "WINT_MIN", "WINT_MAX", "INTPTR_MIN", "INTPTR_MAX",
      "UINTPTR_MAX", "INTMAX_MIN", "INTMAX_MAX", "UINTMAX_MAX", "INTMAX_C",
      "UINTMAX_C", "wint_t", "nullptr_t", "unreachable",
      // C23's widths (glibc defines them in GNU mode, g++'s default), and
      // C++'s namespace std (declared by them in C++): accepted, they
      // gave a header that did not compile (a 2026-11-30 audit).
      "INTPTR_WIDTH", "UINTPTR_WIDTH", "INTMAX_WIDTH", "UINTMAX_WIDTH",
      "PTRDIFF_WIDTH", "SIG_ATOMIC_WIDTH", "SIZE_WIDTH", "WCHAR_WIDTH",
      "WINT_WIDTH", "std"};
  if (kNames.contains(name))
    return true;
  // [u]int{8,16,32,64}_t, [u]int_least/fast..._t and their _MIN, _MAX, _C.
  llvm::StringRef rest = name;
  bool macro;
  if (rest.consume_front("UINT") || rest.consume_front("INT"))
    macro = true;
  else if (rest.consume_front("uint") || rest.consume_front("int"))
    macro = false;
  else
    return false;
  if (!rest.consume_front(macro ? "_LEAST" : "_least"))
    (void)rest.consume_front(macro ? "_FAST" : "_fast");
  for (llvm::StringRef bits : {"8", "16", "32", "64"})
    if (rest.consume_front(bits))
      return macro ? (rest == "_MIN" || rest == "_MAX" || rest == "_C" ||
                      rest == "_WIDTH")
                   : rest == "_t";
  return false;
}

/// C and C++ keywords (and main): the generated header cannot declare a
/// function of that name.
// clang-format off
constexpr llvm::StringLiteral kKeywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
    "bool", "break", "case", "catch", "char", "char8_t", "char16_t",
    "char32_t", "class", "compl", "concept", "const", "consteval",
    "constexpr", "constinit", "const_cast", "continue", "co_await",
    "co_return", "co_yield", "decltype", "default", "delete", "do", "double",
    "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false",
    "float", "for", "friend", "goto", "if", "inline", "int", "long",
    "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
    "operator", "or", "or_eq", "private", "protected", "public", "register",
    "reinterpret_cast", "requires", "restrict", "return", "short", "signed",
    "sizeof", "static", "static_assert", "static_cast", "struct", "switch",
    "template", "this", "thread_local", "throw", "true", "try", "typedef",
    "typeid", "typename", "union", "unsigned", "using", "virtual", "void",
    "volatile", "wchar_t", "while", "xor", "xor_eq", "_Alignas", "_Alignof",
    "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
    "_Static_assert", "_Thread_local", "typeof", "typeof_unqual", "main"};
// clang-format on

/// The error for an entry name the library cannot export, or "". The
/// library exports the entry under its own name, so it must be a C
/// identifier the header can declare, and must not be a name of what the
/// library links: libc/libm, libattic_rt.so, libomp, OpenBLAS, the CUDA
/// layer. Exported, such a name replaces that function in every program
/// that loads the library (an entry named omp_get_max_threads made the
/// runtime's first call jump into the entry).
} // namespace

std::string attic::aotEntryNameError(llvm::StringRef entry) {
  auto named = [&](const llvm::Twine &why) {
    return ("@" + entry + ": the entry's name " + why).str();
  };
  if (entry.empty() || llvm::isDigit(entry.front()) ||
      !llvm::all_of(entry, [](char c) { return llvm::isAlnum(c) || c == '_'; }))
    return ("@" + entry +
            ": the entry's name must be a C identifier, it names the "
            "library's function")
        .str();
  // attic-compile writes the header as ENTRY.h by default, and a file
  // name has at most 255 bytes (300 characters failed there: an audit).
  if (entry.size() > 200)
    return named("has " + llvm::Twine(entry.size()) +
                 " characters; at most 200 (attic-compile names the header "
                 "after it, and file names have at most 255)");
  if (llvm::is_contained(kKeywords, entry))
    return named("is a C or C++ keyword (or main), which the generated "
                 "header cannot declare as a function; rename the function");
  if (declaredByHeaderIncludes(entry))
    return named("is declared by stddef.h or stdint.h, which the generated "
                 "header includes; rename the function");
  // Reserved in C and C++: _Pragma, _Bool, and the C++ runtime's mangled
  // names (_Znwm is operator new: an entry of that name made every
  // allocation of the program call the entry).
  if (entry.size() > 1 && entry[0] == '_' && llvm::isUpper(entry[1]))
    return named("starts with '_' and a capital, which C and C++ reserve "
                 "(the C++ runtime's mangled names start with _Z); rename the "
                 "function");
  for (llvm::StringRef prefix :
       {"attic_", "ATTIC_", "omp_", "ompt_", "ompc_", "kmp_", "kmpc_",
        "__kmpc_", "GOMP_", "cblas_", "openblas_", "goto_", "LAPACKE_", "mgpu",
        "_mlir_", "__"})
    if (entry.starts_with(prefix))
      return named("starts with '" + prefix +
                   "', a prefix of the functions that attic's libraries "
                   "export (libattic_rt.so, libomp, OpenBLAS, the CUDA "
                   "layer) or of reserved names; rename the function");
  // Reserved in C at file scope (_foo), and in C++ anywhere (a__b); the
  // library also exports F__attic_entry for each entry F, and an entry
  // named g__attic_entry replaced g's descriptor in a program linking both
  // (the call crashed; a 2026-11-30 audit).
  if (entry.starts_with("_"))
    return named("starts with '_', which C reserves for names at file "
                 "scope; rename the function");
  if (entry.contains("__"))
    return named("contains '__', which C++ reserves (and attic-compile "
                 "names the library's own symbols F__attic_entry and "
                 "F__attic_packed); rename the function");
  // GCC and Clang predefine these as 1 in their default (GNU) modes: the
  // generated header did not compile (a 2026-11-30 audit).
  if (entry == "linux" || entry == "unix" || entry == "i386")
    return named("is a macro that GCC and Clang predefine in their default "
                 "GNU modes, so the generated header would not compile; "
                 "rename the function");
  // The CUDA driver's cuInit, cuMemAlloc_v2, ... (cube and cumsum are fine).
  if (entry.size() > 2 && entry.starts_with("cu") && llvm::isUpper(entry[2]))
    return named("starts with 'cu' and a capital, the CUDA driver's "
                 "functions' names; rename the function");
  if (libcProvides(entry))
    return ("the entry @" + entry +
            " would be exported under the name of a C library function; "
            "rename it")
        .str();
  if (std::string library = linkedLibraryProviding(entry); !library.empty())
    return named("is a function of " + library +
                 ", which libattic_rt.so links: exported, the entry would "
                 "replace it; rename the function");
  return "";
}

namespace {

/// Renames the allocation functions and memrefCopy that the lowering
/// declares to libattic_rt.so's, and checks that everything else the code
/// calls is in libattic_rt.so, libomp, libc or libm.
LogicalResult bindRuntimeCalls(ModuleOp module, bool cuda,
                               std::string &error) {
  // A function of the module's own with a runtime function's name would
  // take the compiled code's calls (a private @attic_rt_malloc received
  // the calls of malloc, and the wrapped module did not verify).
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    StringRef name = func.getName();
    if (func.isExternal() || name == "attic_aot_call" ||
        !(llvm::is_contained(kRuntimeFunctions, name) ||
          (cuda && attic::isCudaRuntimeFunction(name))))
      continue;
    error = ("the module defines @" + name +
             ", the name of a libattic_rt.so function that compiled code "
             "calls; rename it")
                .str();
    return failure();
  }
  for (auto [from, to] : kRenamed) {
    auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(from);
    if (!func || !func.isExternal())
      continue;
    if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(to)) {
      // A declaration of the module's own, with another type: the calls
      // would not verify.
      if (existing.getFunctionType() != func.getFunctionType()) {
        std::string expected;
        llvm::raw_string_ostream os(expected);
        os << func.getFunctionType();
        error = ("the module declares @" + to +
                 ", a libattic_rt.so function that compiled code calls, "
                 "with a type other than " +
                 expected + "; rename it")
                    .str();
        return failure();
      }
      if (failed(SymbolTable::replaceAllSymbolUses(
              func, existing.getSymNameAttr(), module)))
        return error = "cannot rebind @" + from.str(), failure();
      func.erase();
      continue;
    }
    if (failed(SymbolTable::replaceAllSymbolUses(
            func, StringAttr::get(module.getContext(), to), module)))
      return error = "cannot rebind @" + from.str(), failure();
    func.setSymName(to);
  }
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    StringRef name = func.getName();
    if (!func.isExternal() || name.starts_with("llvm.") ||
        SymbolTable::symbolKnownUseEmpty(func, module))
      continue;
    if (llvm::is_contained(kRuntimeFunctions, name) ||
        (cuda && attic::isCudaRuntimeFunction(name)) ||
        name.starts_with("__kmpc_") || name.starts_with("omp_") ||
        libcProvides(name))
      continue;
    error = ("the compiled code calls @" + name +
             ", which neither libattic_rt.so, libomp nor libc/libm provide")
                .str();
    return failure();
  }
  return success();
}

/// A constant, internal, NUL-terminated string global.
LLVM::GlobalOp addString(OpBuilder &b, Location loc, StringRef name,
                         StringRef value) {
  std::string text = value.str();
  text.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), text.size());
  return LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                LLVM::Linkage::Internal, name,
                                b.getStringAttr(text));
}

/// Adds, next to the lowered entry (renamed F__attic_impl, internal):
///  - F__attic_packed(ptr): the packed-call wrapper attic_aot_call calls;
///  - F__attic_specs, the strings, and the constant F__attic_entry
///    (attic_aot_entry of attic/runtime/Aot.h);
///  - F(ptr arg0, ..., ptr result0, ...) -> i32: the typed entry, which
///    calls attic_aot_call(&F__attic_entry, inputs, results).
/// Every other defined function becomes internal, so the library exports
/// these two symbols only.
LogicalResult addEntryPoint(ModuleOp module, StringRef entry,
                            const attic::EntrySignature &signature,
                            const TargetChoice &target, StringRef targetName,
                            std::string &error) {
  MLIRContext *ctx = module.getContext();
  auto impl = module.lookupSymbol<LLVM::LLVMFuncOp>(entry);
  if (!impl || impl.isExternal()) {
    error = ("the lowered module has no LLVM function @" + entry).str();
    return failure();
  }
  std::string implName = (entry + "__attic_impl").str();
  // The names of the wrapper's symbols, and the runtime's entry point.
  for (StringRef suffix : {"__attic_impl", "__attic_entry", "__attic_packed",
                           "__attic_specs", "__attic_name"}) {
    std::string name = (entry + suffix).str();
    if (module.lookupSymbol(name)) {
      error = ("the module defines @" + name +
               ", a name attic-compile gives to the wrapper of @" + entry +
               "; rename that function")
                  .str();
      return failure();
    }
  }
  if (auto call = module.lookupSymbol<LLVM::LLVMFuncOp>("attic_aot_call");
      call && !call.isExternal()) {
    error = "the module defines @attic_aot_call, libattic_rt.so's function "
            "that the library's entry calls; rename that function";
    return failure();
  }
  if (failed(SymbolTable::replaceAllSymbolUses(
          impl, StringAttr::get(ctx, implName), module)))
    return error = "cannot rename the entry", failure();
  impl.setSymName(implName);
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    if (!func.isExternal())
      func.setLinkage(LLVM::Linkage::Internal);

  Location loc = impl.getLoc();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i32 = b.getI32Type(), i64 = b.getI64Type();

  // F__attic_packed(ptr args): args[i] points to scalar i of the lowered
  // signature; args[n] to where the result struct goes.
  LLVM::LLVMFunctionType implType = impl.getFunctionType();
  auto packed = LLVM::LLVMFuncOp::create(
      b, loc, (entry + "__attic_packed").str(),
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr}),
      LLVM::Linkage::Internal);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = packed.addEntryBlock(b);
    b.setInsertionPointToStart(body);
    Value args = body->getArgument(0);
    auto slot = [&](int64_t i) -> Value {
      Value at = LLVM::GEPOp::create(b, loc, ptr, ptr, args,
                                     ArrayRef<LLVM::GEPArg>{int32_t(i)});
      return LLVM::LoadOp::create(b, loc, ptr, at);
    };
    SmallVector<Value> operands;
    for (auto [i, type] : llvm::enumerate(implType.getParams()))
      operands.push_back(LLVM::LoadOp::create(b, loc, type, slot(i)));
    auto call = LLVM::CallOp::create(b, loc, impl, operands);
    if (!isa<LLVM::LLVMVoidType>(implType.getReturnType()))
      LLVM::StoreOp::create(b, loc, call.getResult(),
                            slot(implType.getNumParams()));
    LLVM::ReturnOp::create(b, loc, ValueRange{});
  }

  // The signature: dtype, rank, sizes for each input, then each result.
  SmallVector<int64_t> specs;
  for (const auto *list : {&signature.inputs, &signature.results})
    for (const attic::TensorSpec &spec : *list) {
      specs.push_back(spec.dtype);
      specs.push_back(int64_t(spec.shape.size()));
      llvm::append_range(specs, spec.shape);
    }
  auto specsType = LLVM::LLVMArrayType::get(i64, specs.size());
  auto specsGlobal = LLVM::GlobalOp::create(
      b, loc, specsType, /*isConstant=*/true, LLVM::Linkage::Internal,
      (entry + "__attic_specs").str(),
      DenseElementsAttr::get(
          RankedTensorType::get({int64_t(specs.size())}, i64),
          ArrayRef<int64_t>(specs)));
  LLVM::GlobalOp strings[] = {
      addString(b, loc, (entry + "__attic_name").str(), entry),
      addString(b, loc, (entry + "__attic_target").str(), targetName),
      addString(b, loc, (entry + "__attic_triple").str(), target.triple),
      addString(b, loc, (entry + "__attic_cpu").str(), target.cpu),
      addString(b, loc, (entry + "__attic_features").str(), target.features)};

  // F__attic_entry: {abi, name, target, triple, cpu, features, num_inputs,
  // num_results, specs, packed}, as struct attic_aot_entry lays it out.
  auto entryType = LLVM::LLVMStructType::getLiteral(
      ctx, {i64, ptr, ptr, ptr, ptr, ptr, i64, i64, ptr, ptr});
  auto entryGlobal = LLVM::GlobalOp::create(
      b, loc, entryType, /*isConstant=*/true, LLVM::Linkage::External,
      (entry + "__attic_entry").str(), Attribute());
  // Exported (the header declares it) but referenced within the library:
  // without dso_local the typed entry read its address from the GOT, and a
  // same-named entry of another library loaded first took its place.
  entryGlobal.setDsoLocal(true);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *init = b.createBlock(&entryGlobal.getInitializerRegion());
    b.setInsertionPointToStart(init);
    Value value = LLVM::UndefOp::create(b, loc, entryType);
    auto field = [&](int64_t index, Value v) {
      value = LLVM::InsertValueOp::create(b, loc, value, v, index);
    };
    auto constant = [&](int64_t v) -> Value {
      return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
    };
    field(0, constant(1)); // ATTIC_AOT_ABI_VERSION
    for (auto [i, global] : llvm::enumerate(strings))
      field(1 + i, LLVM::AddressOfOp::create(b, loc, global));
    field(6, constant(signature.inputs.size()));
    field(7, constant(signature.results.size()));
    field(8, LLVM::AddressOfOp::create(b, loc, specsGlobal));
    field(9, LLVM::AddressOfOp::create(b, loc, ptr, packed.getSymName()));
    LLVM::ReturnOp::create(b, loc, value);
  }

  // attic_aot_call(ptr entry, ptr inputs, ptr results) -> i32.
  auto callType = LLVM::LLVMFunctionType::get(i32, {ptr, ptr, ptr});
  auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>("attic_aot_call");
  if (callee && callee.getFunctionType() != callType) {
    error = "the module declares @attic_aot_call, libattic_rt.so's function "
            "that the library's entry points call, with another type; "
            "rename it";
    return failure();
  }
  if (!callee)
    callee = LLVM::LLVMFuncOp::create(b, loc, "attic_aot_call", callType);

  // F(ptr, ..., ptr) -> i32.
  size_t numInputs = signature.inputs.size(),
         numResults = signature.results.size();
  SmallVector<Type> params(numInputs + numResults, ptr);
  auto typed = LLVM::LLVMFuncOp::create(
      b, loc, entry, LLVM::LLVMFunctionType::get(i32, params));
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = typed.addEntryBlock(b);
    b.setInsertionPointToStart(body);
    Value one = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(1));
    auto array = [&](size_t first, size_t count) -> Value {
      auto type = LLVM::LLVMArrayType::get(ptr, std::max<size_t>(count, 1));
      Value base = LLVM::AllocaOp::create(b, loc, ptr, type, one);
      for (size_t i = 0; i < count; ++i) {
        Value at = LLVM::GEPOp::create(b, loc, ptr, ptr, base,
                                       ArrayRef<LLVM::GEPArg>{int32_t(i)});
        LLVM::StoreOp::create(b, loc, body->getArgument(first + i), at);
      }
      return base;
    };
    Value inputs = array(0, numInputs);
    Value results = array(numInputs, numResults);
    Value entryAddress = LLVM::AddressOfOp::create(b, loc, entryGlobal);
    auto status = LLVM::CallOp::create(
        b, loc, callee, ValueRange{entryAddress, inputs, results});
    LLVM::ReturnOp::create(b, loc, status.getResult());
  }
  return success();
}

} // namespace

LogicalResult attic::compileAheadOfTime(ModuleOp module, StringRef entry,
                                        CpuPipelineOptions &pipeline,
                                        const AotOptions &options,
                                        AotArtifact &artifact,
                                        std::string &error) {
  FailureOr<EntrySignature> signature = getEntrySignature(module, entry, error);
  if (failed(signature))
    return failure();
  // Static shapes (the C ABI's) of at most 2^63 bytes (the runtime's
  // element count wrapped to 0 for 65536^4 and the call did nothing).
  for (const auto *list : {&signature->inputs, &signature->results})
    for (auto [i, spec] : llvm::enumerate(*list)) {
      std::string which =
          ("@" + entry + " " +
           (list == &signature->inputs ? "argument" : "result") + " #" +
           Twine(i))
              .str();
      if (llvm::any_of(spec.shape, ShapedType::isDynamic)) {
        error = which + " has shape " + shapeString(spec.shape) +
                (list == &signature->inputs
                     ? "; the C ABI of attic-compile takes static shapes "
                       "(give the dynamic sizes with --shape=I:AxBxC)"
                     : "; the C ABI of attic-compile takes static shapes: "
                       "give the result a static type (the argument shapes "
                       "of --shape do not reach it)");
        return failure();
      }
      uint64_t bytes = attic_dtype_size(spec.dtype);
      for (int64_t size : spec.shape) {
        if (size != 0 && bytes > uint64_t(INT64_MAX) / uint64_t(size)) {
          error = which + " of shape " + shapeString(spec.shape) +
                  " has 2^63 bytes or more";
          return failure();
        }
        bytes *= uint64_t(size);
      }
    }
  if (options.optLevel > 3) {
    error = "the optimization level must be 0-3";
    return failure();
  }
  if (std::string message = aotEntryNameError(entry); !message.empty()) {
    error = message;
    return failure();
  }
  bool cuda = options.target == "cuda";
  if (!cuda && options.target != "cpu") {
    error = "unknown target '" + options.target + "' (expected cpu or cuda)";
    return failure();
  }
  FailureOr<TargetChoice> target = chooseTarget(options, error);
  if (failed(target))
    return failure();
  // The kernels' vector width follows the target CPU (the pipeline's
  // default, 0, is the host's).
  if (!cuda && pipeline.vectorWidth == 0 && options.cpu != "host")
    pipeline.vectorWidth = StringRef(target->features).contains("+avx512f") ? 16
                           : StringRef(target->features).contains("+avx")   ? 8
                                                                            : 4;

  OwningOpRef<ModuleOp> lowered(module.clone());
  MLIRContext *ctx = lowered->getContext();
  // Only @entry is compiled (as attic-run does).
  eraseFunctionsBesides(*lowered, entry);
  appendLoweringRegistry(*ctx);
  // --target=cuda: the target string of the entry names the kernels' chip
  // and format, which attic_aot_check compares with the device.
  std::string targetName = "cpu";
  CudaPipelineOptions cudaPipeline;
  std::string chip = options.cudaChip;
  if (cuda) {
    if (options.kernel.wgmma) {
      if (chip != "sm_90") {
        error = "wgmma kernels need --cuda-chip=sm_90 (they are compiled for "
                "sm_90a), got " +
                chip;
        return failure();
      }
      chip = "sm_90a";
    }
    if (std::string message = checkTensorCoreOptions(options.kernel, "--");
        !message.empty()) {
      error = message;
      return failure();
    }
    cudaPipeline.chip = chip;
    cudaPipeline.format = options.cudaFormat;
    cudaPipeline.blockQ = int64_t(pipeline.blockQ);
    cudaPipeline.blockK = int64_t(pipeline.blockK);
    cudaPipeline.asyncCopies = options.kernel.asyncCopies;
    cudaPipeline.kvStages = options.kernel.kvStages;
    cudaPipeline.wgmma = options.kernel.wgmma;
    cudaPipeline.wgmmaOverlap = options.kernel.wgmmaOverlap;
    cudaPipeline.tma = options.kernel.tma;
    cudaPipeline.warpSpecialize = options.kernel.warpSpecialize;
    cudaPipeline.pingPong = options.kernel.pingPong;
    std::string format = options.cudaFormat;
    if (format.empty())
      format = resolveCudaToolkit(cudaPipeline).empty() ? "isa" : "bin";
    targetName = "cuda:" + chip + ":" + format;
    DialectRegistry registry;
    registerCudaHostTranslations(registry);
    ctx->appendDialectRegistry(registry);
  }
  {
    PassManager pm(ctx);
    if (cuda)
      buildCudaPipeline(pm, cudaPipeline);
    else
      buildCpuPipeline(pm, pipeline);
    if (failed(runLowering(pm, *lowered, "lowering failed", error)))
      return failure();
  }
  if (failed(checkFullyLowered(*lowered, error)) ||
      failed(checkLibraryNameClashes(*lowered, error)) ||
      failed(bindRuntimeCalls(*lowered, cuda, error)) ||
      failed(addEntryPoint(*lowered, entry, *signature, *target, targetName,
                           error)))
    return failure();
  if (std::getenv("ATTIC_AOT_DUMP"))
    lowered->print(llvm::errs(), OpPrintingFlags().assumeVerified());
  {
    ErrorCollector errors(ctx);
    if (failed(verify(*lowered))) {
      error = "the wrapped module does not verify: " + errors.text();
      return failure();
    }
  }

  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  ctx->appendDialectRegistry(registry);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*lowered, llvmContext, entry);
  if (!llvmModule) {
    error = "translation to LLVM IR failed";
    return failure();
  }
  llvm::TargetMachine &machine = *target->machine;
  llvmModule->setTargetTriple(machine.getTargetTriple());
  llvmModule->setDataLayout(machine.createDataLayout());
  auto optimize =
      makeOptimizingTransformer(options.optLevel, /*sizeLevel=*/0, &machine);
  if (llvm::Error err = optimize(llvmModule.get())) {
    error = "LLVM optimization failed: " + llvm::toString(std::move(err));
    return failure();
  }
  {
    llvm::raw_string_ostream os(artifact.llvmIR);
    llvmModule->print(os, nullptr);
  }
  llvm::SmallVector<char, 0> object;
  {
    llvm::raw_svector_ostream os(object);
    llvm::legacy::PassManager codegen;
    if (machine.addPassesToEmitFile(codegen, os, nullptr,
                                    llvm::CodeGenFileType::ObjectFile)) {
      error = "the target cannot emit object files";
      return failure();
    }
    codegen.run(*llvmModule);
  }
  artifact.object.assign(object.begin(), object.end());

  // The C header.
  std::string header;
  llvm::raw_string_ostream h(header);
  // The name as it is (entries attn and ATTN are two headers).
  std::string guard = ("ATTIC_AOT_" + entry + "_H").str();
  for (char &c : guard)
    if (!llvm::isAlnum(c))
      c = '_';
  h << "/* " << entry << ": generated by attic-compile; do not edit.\n"
    << " * Compiled for " << target->triple << ", CPU " << target->cpu
    << (cuda ? ", kernels for CUDA " + chip + " (" +
                   targetName.substr(targetName.rfind(':') + 1) + ")"
             : std::string())
    << ".\n"
    << " * Buffers are row-major and contiguous; results are written into\n"
    << " * caller-provided buffers of their shapes. Returns 0, or nonzero\n"
    << " * with the message in attic_aot_last_error(). f16/bf16 elements are\n"
    << " * their 16-bit patterns, i1 elements one byte (0 or 1).\n"
    << " * Link with -lattic_rt (libattic_rt.so)."
    << (cuda ? "\n * Runs on a CUDA device through the driver (libcuda.so.1,\n"
               " * or the library ATTIC_CUDA_DRIVER names), loaded at run "
               "time;\n * the kernels load when this library is loaded."
             : "")
    << " */\n"
    << "#ifndef " << guard << "\n#define " << guard << "\n\n"
    << "#include <stdint.h>\n\n#include \"attic/runtime/Aot.h\"\n\n"
    << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  auto describe = [&](const TensorSpec &spec) {
    std::string text = attic_dtype_name(spec.dtype);
    text += "[" + shapeString(spec.shape) + "]";
    return text;
  };
  h << "int32_t " << entry << "(";
  size_t index = 0;
  for (auto [i, spec] : llvm::enumerate(signature->inputs))
    h << (index++ ? ",\n    " : "\n    ") << "const " << cTypeOf(spec.dtype)
      << " *arg" << i << " /* " << describe(spec) << " */";
  for (auto [i, spec] : llvm::enumerate(signature->results))
    h << (index++ ? ",\n    " : "\n    ") << cTypeOf(spec.dtype) << " *result"
      << i << " /* " << describe(spec) << " */";
  if (!index)
    h << "void";
  h << ");\n\n"
    << "/* The signature and target of " << entry
    << ", for attic_aot_call. */\n"
    << "extern const attic_aot_entry " << entry << "__attic_entry;\n\n"
    << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* " << guard
    << " */\n";
  artifact.header = std::move(header);
  return success();
}

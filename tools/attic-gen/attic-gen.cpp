//===- attic-gen.cpp - whole models from a few numbers -----------*- C++ -*-//
//
//   attic-gen vcc-encoder [--layers=N] [--batch=B] [--tokens=n] [--dim=d]
//             [--heads=H] [--ffn-dim=f] [--num-vip=n_p]
//             [--fanouts=f1,f2,...] [--budgets=h1,h2,...] [--gelu]
//             [--vip-votes]
//             [--ln-eps=E] [--mean-eps=E] [--bias-eps=E] [--name=F]
//             [-o FILE]
//
// Prints a module with one function built by attic's C++ builders
// (include/attic/Builders): today the VCC encoder of
// attic::buildVccEncoder, N layers in one loop. The output is ordinary
// attic IR: attic-opt, attic-run --check and attic-compile take it as it is.
// Every failure is one line on stderr and exit status 1.
//
//===----------------------------------------------------------------------===//

#include "attic/Builders/VccEncoder.h"
#include "attic/Execution/AotCompile.h"
#include "attic/Execution/CpuExecutable.h"
#include "attic/Support/CrashHandler.h"
#include "attic/Support/OutputFile.h"
#include "attic/Support/ToolOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
namespace cl = llvm::cl;

/// The tool's own options: --help lists these (and the generic ones), not
/// the hundreds of LLVM backend options linked in with the JIT and the
/// code generators (they still parse; --help-hidden does not list them).
static cl::OptionCategory toolOptions("attic-gen options");

static cl::opt<std::string> model(cl::Positional, cl::cat(toolOptions),
                                  cl::Required,
                                  cl::desc("<model: vcc-encoder>"));
static cl::opt<std::string> outputFile("o", cl::cat(toolOptions), cl::init("-"),
                                       cl::desc("Output file (default: -)"),
                                       cl::value_desc("path"));
static cl::opt<std::string>
    funcName("name", cl::cat(toolOptions), cl::init("vcc_encoder"),
             cl::desc("Name of the function (default vcc_encoder)"));
static cl::opt<int64_t> layers("layers", cl::cat(toolOptions), cl::init(3),
                               cl::desc("Layers N (default 3)"));
static cl::opt<int64_t> batch("batch", cl::cat(toolOptions), cl::init(2),
                              cl::desc("Sequences B (default 2)"));
static cl::opt<int64_t>
    tokens("tokens", cl::cat(toolOptions), cl::init(128),
           cl::desc("Tokens n of a sequence (default 128)"));
static cl::opt<int64_t> dim("dim", cl::cat(toolOptions), cl::init(32),
                            cl::desc("Features d (default 32)"));
static cl::opt<int64_t>
    heads("heads", cl::cat(toolOptions), cl::init(2),
          cl::desc("Attention heads, dividing d (default 2)"));
static cl::opt<int64_t>
    ffnDim("ffn-dim", cl::cat(toolOptions), cl::init(64),
           cl::desc("Hidden features of the FFN (default 64)"));
static cl::opt<int64_t>
    numVip("num-vip", cl::cat(toolOptions), cl::init(8),
           cl::desc("Rows n_p kept exact, the VIP tokens (default 8)"));
static cl::list<int64_t>
    fanouts("fanouts", cl::cat(toolOptions), cl::CommaSeparated,
            cl::desc("Tree fanouts from the leaves up; their product is "
                     "n - n_p (default 8,15)"));
static cl::list<int64_t>
    budgets("budgets", cl::cat(toolOptions), cl::CommaSeparated,
            cl::desc("tree_select budgets, one per level (default 4,1)"));
static cl::opt<bool> gelu("gelu", cl::cat(toolOptions), cl::init(false),
                          cl::desc("Exact GELU in the FFN (default: ReLU)"));
static cl::opt<bool>
    vipVotes("vip-votes", cl::cat(toolOptions), cl::init(false),
             cl::desc("Only VIP tokens vote in tree_select (the authors' "
                      "importance mask); default: every P row"));
static cl::opt<double> lnEps("ln-eps", cl::cat(toolOptions), cl::init(1e-5),
                             cl::desc("LayerNorm epsilon (default 1e-5)"));
static cl::opt<double>
    meanEps("mean-eps", cl::cat(toolOptions), cl::init(0.0),
            cl::desc("The VCC authors' node-mean epsilon "
                     "(tree_build/tree_update mean_eps; default 0)"));
static cl::opt<double> biasEps("bias-eps", cl::cat(toolOptions), cl::init(0.0),
                               cl::desc("The VCC authors' key-bias epsilon "
                                        "(vcc_compress bias_eps; default 0)"));

namespace {
[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::errs() << "attic-gen: error: " << message << "\n";
  std::exit(1);
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // After InitLLVM: a crash is one line and exit 70 (CrashHandler.h).
  attic::installCrashHandler("attic-gen");
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(argc, argv,
                              "attic-gen: attic IR of a whole model from a "
                              "few numbers\n");
  if (std::string repeated = attic::repeatedOptionError(); !repeated.empty())
    fail(repeated);
  // The comma-separated lists are single values too: a second --budgets
  // was appended to the first (an audit). Each occurrence's values share
  // one position on the command line.
  for (cl::list<int64_t> *list :
       {std::addressof(fanouts), std::addressof(budgets)}) {
    llvm::SmallSet<unsigned, 2> positions;
    for (size_t i = 0; i < list->size(); ++i)
      positions.insert(list->getPosition(i));
    if (positions.size() > 1)
      fail("--" + list->ArgStr.str() + " is given " +
           std::to_string(positions.size()) +
           " times; give the whole list once (--" + list->ArgStr.str() +
           "=1,2,...)");
  }
  if (model != "vcc-encoder")
    fail("unknown model '" + model + "' (expected vcc-encoder)");
  attic::VccEncoderSpec spec;
  spec.layers = layers;
  spec.batch = batch;
  spec.tokens = tokens;
  spec.dim = dim;
  spec.heads = heads;
  spec.ffnDim = ffnDim;
  spec.numVip = numVip;
  if (!fanouts.empty())
    spec.fanouts.assign(fanouts.begin(), fanouts.end());
  if (!budgets.empty())
    spec.budgets.assign(budgets.begin(), budgets.end());
  spec.gelu = gelu;
  spec.vipVotes = vipVotes;
  spec.lnEps = lnEps;
  spec.meanEps = meanEps;
  spec.biasEps = biasEps;
  // The name attic-compile will export (a C identifier the header can
  // declare, no name of a linked library's function): checked here, so
  // that the generated model compiles as it is.
  if (std::string why = attic::aotEntryNameError(funcName); !why.empty())
    fail("--name=" + funcName + ": " + why);

  DialectRegistry registry;
  attic::registerExecutionDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  OpBuilder builder(&context);
  Location loc = UnknownLoc::get(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  std::string error;
  if (!attic::buildVccEncoder(builder, loc, funcName, spec, error))
    fail(error);

  std::string errorMessage;
  auto output = openOutputFile(outputFile, &errorMessage);
  if (!output)
    fail(errorMessage);
  output->os() << "// Generated by: attic-gen vcc-encoder --layers=" << layers
               << " --batch=" << batch << " --tokens=" << tokens
               << " --dim=" << dim << " --heads=" << heads
               << " --ffn-dim=" << ffnDim << " --num-vip=" << numVip
               << " --fanouts=";
  llvm::interleave(spec.fanouts, output->os(), ",");
  output->os() << " --budgets=";
  llvm::interleave(spec.budgets, output->os(), ",");
  if (gelu)
    output->os() << " --gelu";
  if (vipVotes)
    output->os() << " --vip-votes";
  // Every digit of the epsilons (%e kept six, and the line made another
  // constant), and the name: the line makes the same file again.
  output->os() << llvm::format(" --ln-eps=%.17g --mean-eps=%.17g "
                               "--bias-eps=%.17g",
                               double(lnEps), double(meanEps), double(biasEps))
               << " --name=" << funcName << "\n";
  module->print(output->os());
  if (std::string message = attic::finishOutput(*output, outputFile);
      !message.empty())
    fail(message);
  output->keep();
  return 0;
}

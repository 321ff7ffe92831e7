//===- RegistrationTest.cpp - attic in a tool with a lean registry
//---------===//
//
// A downstream tool registers the dialects of its input and calls
// attic::registerAtticDialect and attic::registerAtticPassesAndPipelines
// (docs/install.md); it must lower every example exactly as attic-opt does
// with every upstream dialect and extension registered. Before 2026-11-30
// such a tool left calls uninlined in attic-cpu-pipeline and failed in
// attic-cuda-pipeline with an internal type-mismatch error, and the
// compile functions stopped at "op was not bufferized" in a context that
// held only the func and attic dialects.
//
//===----------------------------------------------------------------------===//

#include "CompiledHarness.h"

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Execution/AotCompile.h"
#include "attic/Execution/CpuExecutable.h"
#include "attic/Execution/GpuSimulator.h"
#include "attic/InitAttic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <string>
#include <vector>

namespace {

/// The dialects the examples are written in, and nothing else upstream.
void registerInputDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::tensor::TensorDialect,
                  mlir::linalg::LinalgDialect, mlir::scf::SCFDialect>();
}

/// `path` lowered by the textual `pipeline` (passes on the module, not
/// anchored: an anchored one would run on nested modules) in a context with a
/// lean registry (the input's dialects and attic's) or attic-opt's (every
/// upstream dialect and extension); the printed module, or "error: ...".
std::string lower(const std::string &path, const std::string &pipeline,
                  bool lean) {
  mlir::DialectRegistry registry;
  if (lean) {
    registerInputDialects(registry);
  } else {
    mlir::registerAllDialects(registry);
    mlir::registerAllExtensions(registry);
  }
  attic::registerAtticDialect(registry);
  mlir::MLIRContext ctx(registry);
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(path, &ctx);
  if (!module)
    return "error: cannot parse: " + diagnostics;
  mlir::PassManager pm(&ctx);
  std::string parseError;
  llvm::raw_string_ostream parseStream(parseError);
  if (failed(mlir::parsePassPipeline(pipeline, pm, parseStream)))
    return "error: bad pipeline: " + parseError;
  if (failed(pm.run(*module)))
    return "error: " + diagnostics;
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  // Lowered to the LLVM dialect, not left as it was.
  if (text.find("llvm.func") == std::string::npos ||
      text.find("attic.") != std::string::npos)
    return "error: not lowered:\n" + text;
  return text;
}

std::vector<std::string> examples() {
  std::vector<std::string> paths;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(ATTIC_SOURCE_DIR "/examples", ec),
       end;
       it != end && !ec; it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".mlir")
      paths.push_back(it->path());
  std::sort(paths.begin(), paths.end());
  return paths;
}

class LeanRegistry : public ::testing::Test {
protected:
  static void SetUpTestSuite() { attic::registerAtticPassesAndPipelines(); }
};

TEST_F(LeanRegistry, LowersEveryExampleForTheCpuAsAtticOpt) {
  std::vector<std::string> paths = examples();
  ASSERT_GE(paths.size(), 20u) << "examples not found";
  for (const std::string &path : paths) {
    std::string lean = lower(path, "attic-cpu-pipeline", true);
    EXPECT_EQ(lean.rfind("error: ", 0), std::string::npos)
        << path << ": " << lean.substr(0, 2000);
    EXPECT_TRUE(lean == lower(path, "attic-cpu-pipeline", false))
        << path << ": the lean registry lowered it differently";
  }
}

TEST_F(LeanRegistry, LowersForCudaAsAtticOpt) {
  if (!mlir::PassPipelineInfo::lookup("attic-cuda-pipeline"))
    GTEST_SKIP() << "built without the CUDA compiler";
  const std::string pipeline = "attic-cuda-pipeline{chip=sm_80 format=isa}";
  for (const char *name : {"attention.mlir", "modifiers.mlir", "gqa.mlir"}) {
    std::string path = std::string(ATTIC_SOURCE_DIR "/examples/") + name;
    std::string lean = lower(path, pipeline, true);
    EXPECT_EQ(lean.rfind("error: ", 0), std::string::npos)
        << path << ": " << lean.substr(0, 2000);
    EXPECT_TRUE(lean == lower(path, pipeline, false))
        << path << ": the lean registry lowered it differently";
  }
}

const char *kSource = R"mlir(
func.func @f(%q: tensor<1x2x8x4xf32>, %k: tensor<1x2x8x4xf32>, %v: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %o = attic.attention %q, %k, %v causal : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
  return %o : tensor<1x2x8x4xf32>
}
)mlir";

/// A context that knows the func and attic dialects and nothing else: no
/// interface models, no extensions.
std::unique_ptr<mlir::MLIRContext> bareContext() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, attic::AtticDialect>();
  return std::make_unique<mlir::MLIRContext>(registry);
}

TEST_F(LeanRegistry, CompileFunctionsNeedOnlyTheInputsDialects) {
  using attic::testing::Tensor;
  Tensor q{ATTIC_F32, {1, 2, 8, 4}}, k{ATTIC_F32, {1, 2, 8, 4}},
      v{ATTIC_F32, {1, 2, 8, 4}};
  for (Tensor *t : {&q, &k, &v})
    for (int64_t i = 0; i < t->numel(); ++i)
      t->set(i, std::cos(0.3 * double(i) + double(t == &k)));
  std::vector<const Tensor *> args = {&q, &k, &v};
  // The same function compiled in attic-run's context.
  attic::testing::Compiled expected(kSource, "f");
  std::vector<Tensor> want = expected.run(args);
  ASSERT_EQ(want.size(), 1u);

  std::string error;
  {
    auto ctx = bareContext();
    auto module = mlir::parseSourceString<mlir::ModuleOp>(kSource, ctx.get());
    ASSERT_TRUE(module);
    auto exe = attic::CpuExecutable::compile(
        *module, "f", attic::CpuPipelineOptions(), error);
    ASSERT_TRUE(exe) << error;
    std::vector<Tensor> got = attic::testing::runExecutable(*exe, args, error);
    ASSERT_EQ(got.size(), 1u) << error;
    for (int64_t i = 0; i < want[0].numel(); ++i)
      EXPECT_EQ(got[0][i], want[0][i]) << "element " << i;
  }
  {
    auto ctx = bareContext();
    auto module = mlir::parseSourceString<mlir::ModuleOp>(kSource, ctx.get());
    ASSERT_TRUE(module);
    auto exe =
        attic::SimulatedCudaExecutable::compile(*module, "f", 16, 16, error);
    ASSERT_TRUE(exe) << error;
    std::vector<Tensor> got = attic::testing::runExecutable(*exe, args, error);
    ASSERT_EQ(got.size(), 1u) << error;
    for (int64_t i = 0; i < want[0].numel(); ++i)
      EXPECT_NEAR(got[0][i], want[0][i], 1e-5) << "element " << i;
  }
  {
    auto ctx = bareContext();
    auto module = mlir::parseSourceString<mlir::ModuleOp>(kSource, ctx.get());
    ASSERT_TRUE(module);
    attic::CpuPipelineOptions pipeline;
    attic::AotOptions options;
    attic::AotArtifact artifact;
    EXPECT_TRUE(succeeded(attic::compileAheadOfTime(*module, "f", pipeline,
                                                    options, artifact, error)))
        << error;
  }
}

} // namespace

//===- LayoutPropertyTest.cpp - layouts' IR against brute force -----------===//
//
// Property tests of the IR that layout attributes emit (the element
// predicate, the block visibility and the key range), compiled and run: for
// random layouts (every static kind, with random parameters, and random
// intersections and unions of them) and random shapes and block sizes, every
// block pair's visibility is compared with the brute-force classification
// of the reference semantics (lib/Reference/Layout.cpp, plain C++ that shares
// no code with the IR), and sampled elements with the reference predicate:
//
//   - atomic layouts: `any` and `all` equal brute force exactly;
//   - compositions: sound (`any` false only if nothing is visible, `all`
//     true only if everything is), and their predicate exact;
//   - every visible key of a query block lies in the key range.
//
// Each layout's four functions are JIT-compiled once and asked thousands
// of questions; the total count is printed.
//
//===----------------------------------------------------------------------===//

#include "attic/Reference/Evaluator.h"

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Reference/Layout.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/TargetSelect.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir;

namespace {

/// A layout's IR, compiled: the four questions with index arguments.
class CompiledLayout {
public:
  CompiledLayout(MLIRContext &ctx, attic::LayoutAttrInterface layout) {
    OpBuilder b(&ctx);
    Location loc = b.getUnknownLoc();
    module = ModuleOp::create(loc);
    b.setInsertionPointToEnd(module->getBody());
    Type index = b.getIndexType();
    // @name(nq, nk, h, extra...) -> index
    auto define = [&](StringRef name, int extra,
                      function_ref<Value(attic::LayoutEnv &, ValueRange)> body) {
      SmallVector<Type> args(3 + extra, index);
      auto func = func::FuncOp::create(b, loc, name,
                                       b.getFunctionType(args, {index}));
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    b.getUnitAttr());
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(func.addEntryBlock());
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      attic::LayoutEnv env{b, loc, func.getArgument(0), func.getArgument(1),
                           zero, func.getArgument(2), ValueRange{}};
      Value result = body(env, func.getArguments().drop_front(3));
      func::ReturnOp::create(b, loc, result);
    };
    auto asIndex = [&](OpBuilder &bb, Value flag) -> Value {
      return arith::IndexCastUIOp::create(bb, loc, bb.getIndexType(),
                                          arith::ExtUIOp::create(
                                              bb, loc, bb.getI64Type(), flag));
    };
    define("vis", 4, [&](attic::LayoutEnv &env, ValueRange a) {
      attic::BlockVisibility v =
          layout.buildBlockVisibility(env, a[0], a[1], a[2], a[3]);
      Value any = asIndex(b, v.any), all = asIndex(b, v.all);
      Value two = arith::ConstantIndexOp::create(b, loc, 2);
      return arith::AddIOp::create(b, loc, any,
                                   arith::MulIOp::create(b, loc, all, two))
          .getResult();
    });
    define("lo", 2, [&](attic::LayoutEnv &env, ValueRange a) {
      return layout.buildKeyRange(env, a[0], a[1]).lo;
    });
    define("hi", 2, [&](attic::LayoutEnv &env, ValueRange a) {
      return layout.buildKeyRange(env, a[0], a[1]).hi;
    });
    define("pred", 2, [&](attic::LayoutEnv &env, ValueRange a) {
      return asIndex(b, layout.buildElementPredicate(env, a[0], a[1]));
    });
    if (failed(verify(*module))) {
      ADD_FAILURE() << "the emitted IR does not verify";
      return;
    }
    PassManager pm(&ctx);
    pm.addPass(createSCFToControlFlowPass());
    pm.addPass(arith::createArithExpandOpsPass());
    pm.addPass(createArithToLLVMConversionPass());
    pm.addPass(createConvertIndexToLLVMPass());
    pm.addPass(createConvertControlFlowToLLVMPass());
    pm.addPass(createConvertFuncToLLVMPass());
    pm.addPass(createReconcileUnrealizedCastsPass());
    if (failed(pm.run(*module))) {
      ADD_FAILURE() << "the emitted IR does not lower to LLVM";
      return;
    }
    // options.transformer is a function_ref: the function must outlive it.
    auto transformer = makeOptimizingTransformer(1, 0, nullptr);
    ExecutionEngineOptions options;
    options.transformer = transformer;
    auto created = ExecutionEngine::create(*module, options);
    if (!created) {
      ADD_FAILURE() << "JIT: " << llvm::toString(created.takeError());
      return;
    }
    engine = std::move(*created);
  }

  bool ok() const { return static_cast<bool>(engine); }

  int64_t call(StringRef name, std::initializer_list<int64_t> args) {
    int64_t result = -1;
    SmallVector<int64_t> values(args);
    SmallVector<void *> packed;
    for (int64_t &v : values)
      packed.push_back(&v);
    packed.push_back(&result);
    llvm::Error error = engine->invokePacked(name, packed);
    if (error) {
      ADD_FAILURE() << llvm::toString(std::move(error));
      return -1;
    }
    return result;
  }

private:
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<ExecutionEngine> engine;
};

/// Random layouts with parameters that make every case occur at the sizes
/// tested (sequences of up to 160).
class LayoutGenerator {
public:
  explicit LayoutGenerator(MLIRContext &ctx, uint64_t seed)
      : ctx(ctx), rng(seed) {}

  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }
  attic::Alignment align() {
    return uniform(0, 1) ? attic::Alignment::BottomRight
                         : attic::Alignment::TopLeft;
  }

  Attribute atomic() {
    switch (uniform(0, 9)) {
    case 0:
      return attic::DenseLayoutAttr::get(&ctx);
    case 1:
      return attic::CausalLayoutAttr::get(&ctx, align());
    case 2:
      return attic::WindowLayoutAttr::get(&ctx, uniform(0, 40), uniform(0, 40),
                                          align());
    case 3:
      return attic::DilatedLayoutAttr::get(&ctx, uniform(0, 60), uniform(0, 60),
                                           uniform(1, 6), align());
    case 4:
      return attic::SparseStridedLayoutAttr::get(&ctx, uniform(1, 24), align());
    case 5: {
      int64_t block = uniform(1, 32);
      return attic::FixedLayoutAttr::get(&ctx, block, uniform(0, block));
    }
    case 6: {
      SmallVector<int64_t> tokens;
      int64_t t = uniform(0, 20);
      for (int64_t n = uniform(1, 5); n > 0; --n) {
        tokens.push_back(t);
        t += uniform(1, 40);
      }
      return attic::GlobalLayoutAttr::get(&ctx, tokens);
    }
    case 7:
      return attic::SinksLayoutAttr::get(&ctx, uniform(0, 30));
    case 8:
      return attic::BlockDiagonalLayoutAttr::get(&ctx, uniform(1, 24),
                                                 uniform(1, 40), uniform(0, 1));
    default:
      return attic::RandomLayoutAttr::get(&ctx, uniform(1, 24), uniform(1, 5),
                                          uniform(0, 1000));
    }
  }

  /// An atomic layout on blocks of random size.
  Attribute blocked() {
    return attic::BlockedLayoutAttr::get(
        &ctx, uniform(1, 12), cast<attic::LayoutAttrInterface>(atomic()));
  }

  Attribute composite() {
    SmallVector<Attribute> parts;
    for (int64_t n = uniform(2, 3); n > 0; --n)
      parts.push_back(uniform(0, 4) == 0 ? composite() : atomic());
    ArrayAttr array = ArrayAttr::get(&ctx, parts);
    if (uniform(0, 1))
      return attic::IntersectLayoutAttr::get(&ctx, array);
    return attic::UnionLayoutAttr::get(&ctx, array);
  }

  MLIRContext &ctx;
  std::mt19937_64 rng;
};

class LayoutProperty : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  }
  void SetUp() override {
    DialectRegistry registry;
    registry.insert<attic::AtticDialect, arith::ArithDialect, func::FuncDialect,
                    memref::MemRefDialect, scf::SCFDialect, LLVM::LLVMDialect>();
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    ctx = std::make_unique<MLIRContext>(registry);
    ctx->loadAllAvailableDialects();
  }

  /// Checks one layout on `shapes` random (Nq, Nk, bq, bk, h); returns the
  /// number of block pairs checked.
  void check(Attribute attr, LayoutGenerator &gen, int shapes, bool exact,
             int64_t &blocks) {
    auto layout = cast<attic::LayoutAttrInterface>(attr);
    std::string error;
    FailureOr<attic::ref::Layout> ref = attic::toReferenceLayout(
        attr, [](int64_t) -> const attic::RefTensor * { return nullptr; },
        error);
    EXPECT_TRUE(succeeded(ref)) << error;
    CompiledLayout compiled(*ctx, layout);
    if (!compiled.ok() || failed(ref))
      return;
    std::string text;
    llvm::raw_string_ostream os(text);
    os << attr;
    for (int s = 0; s < shapes; ++s) {
      int64_t nq = gen.uniform(1, 160), nk = gen.uniform(1, 160);
      int64_t bq = gen.uniform(1, 48), bk = gen.uniform(1, 48);
      int64_t h = gen.uniform(0, 3);
      for (int64_t q0 = 0; q0 < nq; q0 += bq) {
        int64_t q1 = std::min(q0 + bq, nq);
        int64_t lo = compiled.call("lo", {nq, nk, h, q0, q1});
        int64_t hi = compiled.call("hi", {nq, nk, h, q0, q1});
        for (int64_t k0 = 0; k0 < nk; k0 += bk) {
          int64_t k1 = std::min(k0 + bk, nk);
          attic::ref::BlockClass truth =
              attic::ref::classifyBlock(*ref, 0, h, q0, q1, k0, k1, nq, nk);
          int64_t vis =
              compiled.call("vis", {nq, nk, h, q0, q1, k0, k1});
          bool any = vis & 1, all = vis & 2;
          ++blocks;
          std::string where = text + " Nq=" + std::to_string(nq) +
                              " Nk=" + std::to_string(nk) + " queries [" +
                              std::to_string(q0) + "," + std::to_string(q1) +
                              ") keys [" + std::to_string(k0) + "," +
                              std::to_string(k1) + ") h=" + std::to_string(h);
          if (exact) {
            ASSERT_EQ(any, truth.any) << where;
            ASSERT_EQ(all, truth.all) << where;
          } else {
            ASSERT_TRUE(any || !truth.any) << "unsound any: " << where;
            ASSERT_TRUE(!all || truth.all) << "unsound all: " << where;
          }
          // Every visible key of the block lies in the key range.
          for (int64_t q = q0; q < q1; ++q)
            for (int64_t k = k0; k < k1; ++k)
              if (ref->visible(0, h, q, k, nq, nk))
                ASSERT_TRUE(lo <= k && k < hi)
                    << "key " << k << " of query " << q
                    << " outside the key range [" << lo << "," << hi
                    << "): " << where;
          // A sample of the predicate.
          int64_t q = gen.uniform(q0, q1 - 1), k = gen.uniform(k0, k1 - 1);
          ASSERT_EQ(compiled.call("pred", {nq, nk, h, q, k}),
                    int64_t(ref->visible(0, h, q, k, nq, nk)))
              << "predicate at (" << q << "," << k << "): " << where;
        }
      }
    }
  }

  std::unique_ptr<MLIRContext> ctx;
};

TEST_F(LayoutProperty, AtomicLayoutsClassifyExactly) {
  LayoutGenerator gen(*ctx, 12345);
  int64_t blocks = 0;
  for (int i = 0; i < 80; ++i) {
    check(i < 60 ? gen.atomic() : gen.blocked(), gen, 12, /*exact=*/true,
          blocks);
    if (HasFatalFailure())
      return;
  }
  std::printf("atomic layouts: 60 layouts and 20 blocked ones, %lld block "
              "pairs equal to brute "
              "force\n",
              static_cast<long long>(blocks));
  EXPECT_GT(blocks, 5000);
}

TEST_F(LayoutProperty, CompositionsClassifySoundly) {
  LayoutGenerator gen(*ctx, 67890);
  int64_t blocks = 0;
  for (int i = 0; i < 40; ++i) {
    check(gen.composite(), gen, 8, /*exact=*/false, blocks);
    if (HasFatalFailure())
      return;
  }
  std::printf("compositions: 40 layouts, %lld block pairs sound\n",
              static_cast<long long>(blocks));
  EXPECT_GT(blocks, 2000);
}

TEST_F(LayoutProperty, ConstantInputsClassifyAtCompileTime) {
  // A layout asked about constants folds to constants: nothing is left to
  // run. Causal, top-left, block (q 0..63, k 64..127): skip.
  OpBuilder b(ctx.get());
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(b, loc, "f", b.getFunctionType({}, {}));
  b.setInsertionPointToStart(func.addEntryBlock());
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  attic::LayoutEnv env{b, loc, c(256), c(256), c(0), c(0), ValueRange{}};
  auto causal = attic::CausalLayoutAttr::get(ctx.get(),
                                             attic::Alignment::TopLeft);
  attic::BlockVisibility above =
      causal.buildBlockVisibility(env, c(0), c(64), c(64), c(128));
  attic::BlockVisibility below =
      causal.buildBlockVisibility(env, c(64), c(128), c(0), c(64));
  attic::BlockVisibility diagonal =
      causal.buildBlockVisibility(env, c(0), c(64), c(0), c(64));
  auto constant = [](Value v) -> int {
    APInt x;
    if (!matchPattern(v, m_ConstantInt(&x)))
      return -1;
    return static_cast<int>(x.getZExtValue());
  };
  EXPECT_EQ(constant(above.any), 0);
  EXPECT_EQ(constant(below.all), 1);
  EXPECT_EQ(constant(diagonal.any), 1);
  EXPECT_EQ(constant(diagonal.all), 0);
}

} // namespace

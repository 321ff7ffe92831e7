//===- EvaluatorTest.cpp - the reference evaluator on odd upstream ops ----===//
//
// The evaluator (lib/Reference/Evaluator.cpp) on tensor reshapes whose sizes
// come from the data: compiled code checks them at run time (attic-guard-
// tensor-indices), so attic-run --check never reaches the reference with a
// mismatch; these call it directly.
//
//===----------------------------------------------------------------------===//

#include "attic/Reference/Evaluator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace mlir;

namespace {

/// An expand of a 1-D tensor into [n[0], n[1]], and a collapse back.
constexpr const char *kReshapes = R"mlir(
func.func @expand(%a: tensor<?xf32>, %n: tensor<2xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = tensor.extract %n[%c0] : tensor<2xi64>
  %y = tensor.extract %n[%c1] : tensor<2xi64>
  %ix = arith.index_cast %x : i64 to index
  %iy = arith.index_cast %y : i64 to index
  %e = tensor.expand_shape %a [[0, 1]] output_shape [%ix, %iy]
      : tensor<?xf32> into tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}
func.func @collapse(%a: tensor<?x?x?xf32>) -> tensor<?x?xf32> {
  %c = tensor.collapse_shape %a [[0, 1], [2]]
      : tensor<?x?x?xf32> into tensor<?x?xf32>
  return %c : tensor<?x?xf32>
}
)mlir";

struct Tensor {
  attic_tensor t{};
  Tensor(attic_dtype dtype, std::vector<int64_t> shape,
         std::vector<double> values) {
    char err[256];
    EXPECT_EQ(attic_tensor_alloc(&t, dtype, int32_t(shape.size()),
                                 shape.data(), err, sizeof(err)),
              ATTIC_OK)
        << err;
    for (size_t i = 0; i < values.size(); ++i)
      attic_tensor_set(&t, int64_t(i), values[i]);
  }
  ~Tensor() { attic_tensor_free(&t); }
};

class EvaluatorReshape : public ::testing::Test {
protected:
  void SetUp() override {
    context.loadDialect<arith::ArithDialect, func::FuncDialect,
                        tensor::TensorDialect>();
    module = parseSourceString<ModuleOp>(kReshapes, &context);
    ASSERT_TRUE(module);
  }
  FailureOr<attic::ReferenceResult>
  run(StringRef entry, std::vector<const attic_tensor *> inputs) {
    error.clear();
    return attic::evaluateReference(*module, entry, inputs, error);
  }
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::string error;
};

TEST_F(EvaluatorReshape, ExpandTakesItsSizesFromTheData) {
  std::vector<double> iota(12);
  std::iota(iota.begin(), iota.end(), 0.0);
  Tensor a(ATTIC_F32, {12}, iota), n(ATTIC_I64, {2}, {3, 4});
  auto result = run("expand", {&a.t, &n.t});
  ASSERT_TRUE(succeeded(result)) << error;
  ASSERT_EQ(result->results.size(), 1u);
  EXPECT_EQ(result->results[0].shape, (SmallVector<int64_t>{3, 4}));
  EXPECT_EQ(result->results[0].data, iota);
}

TEST_F(EvaluatorReshape, ExpandWhoseSizesAreNotTheOperandsFails) {
  Tensor a(ATTIC_F32, {12}, {}), n(ATTIC_I64, {2}, {3, 5});
  EXPECT_TRUE(failed(run("expand", {&a.t, &n.t})));
  EXPECT_EQ(error, "reference: tensor.expand_shape: group 0 of the operand "
                   "has size 12, but its output sizes multiply to 15");
}

TEST_F(EvaluatorReshape, ExpandWithANegativeOrHugeSizeFails) {
  Tensor a(ATTIC_F32, {8}, {}), negative(ATTIC_I64, {2}, {-2, -4});
  EXPECT_TRUE(failed(run("expand", {&a.t, &negative.t})));
  EXPECT_EQ(error, "reference: tensor.expand_shape: group 0 of the operand "
                   "has size 8, but its output sizes are negative or their "
                   "product overflows");
  // 2^62 + 2 times 4 wraps to 8 in int64: not a match.
  Tensor huge(ATTIC_I64, {2}, {0x1p62 + 2, 4});
  EXPECT_TRUE(failed(run("expand", {&a.t, &huge.t})));
  EXPECT_EQ(error, "reference: tensor.expand_shape: group 0 of the operand "
                   "has size 8, but its output sizes are negative or their "
                   "product overflows");
}

TEST_F(EvaluatorReshape, CollapseMultipliesEachGroup) {
  std::vector<double> iota(24);
  std::iota(iota.begin(), iota.end(), 0.0);
  Tensor a(ATTIC_F32, {2, 3, 4}, iota);
  auto result = run("collapse", {&a.t});
  ASSERT_TRUE(succeeded(result)) << error;
  EXPECT_EQ(result->results[0].shape, (SmallVector<int64_t>{6, 4}));
  EXPECT_EQ(result->results[0].data, iota);
}

} // namespace

//===- TopKeysTest.cpp - largestIndices in both forms against a reference -===//
//
// detail::largestIndices (lib/Transforms/TensorBuilders.h) picks the
// indices of the `count` largest keys of each row, in decreasing order, the
// lower index first on ties, never a NaN. LSH, clustered, Skeinformer and
// Informer attention select with it; their outputs do not show the order
// of the picks (a set of keys), so these tests run the builder alone: a
// function built with it (sequential, as on the CPU, and parallel, as on
// the GPU: pairwise ranks for rows of at most kPairwiseRankLimit keys, the
// radix select above), compiled by attic-cpu-pipeline and run, against a
// stable sort in C++. Keys come from a small set with many ties, -0 and +0
// (equal), infinities and NaN.
//
//===----------------------------------------------------------------------===//

#include "CompiledHarness.h"
#include "TensorBuilders.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using attic::testing::Compiled;
using attic::testing::Tensor;

namespace {

/// func.func @k(%keys: tensor<rows x n x f32>) -> tensor<rows x count x i64>
/// whose body is largestIndices(keys, count, parallel), as text.
std::string topKeysSource(int64_t rows, int64_t n, int64_t count,
                          bool parallel) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<mlir::func::FuncDialect, mlir::tensor::TensorDialect,
                  mlir::linalg::LinalgDialect, mlir::scf::SCFDialect,
                  mlir::arith::ArithDialect>();
  mlir::Location loc = mlir::UnknownLoc::get(&ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::ModuleOp::create(loc);
  mlir::ImplicitLocOpBuilder b(loc, &ctx);
  b.setInsertionPointToEnd(module->getBody());
  auto in = mlir::RankedTensorType::get({rows, n}, b.getF32Type());
  auto out = mlir::RankedTensorType::get({rows, count}, b.getI64Type());
  auto func = mlir::func::FuncOp::create(b, "k", b.getFunctionType(in, out));
  b.setInsertionPointToStart(func.addEntryBlock());
  mlir::Value picks =
      attic::detail::largestIndices(b, func.getArgument(0), count, parallel);
  mlir::func::ReturnOp::create(b, picks);
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}

/// The picks by a stable sort: keys that are not NaN, greater first, the
/// lower index first on ties (-0 == +0); -1 past the keys there are.
std::vector<int64_t> reference(const std::vector<float> &row, int64_t count) {
  std::vector<int64_t> order;
  for (int64_t j = 0; j < int64_t(row.size()); ++j)
    if (!std::isnan(row[size_t(j)]))
      order.push_back(j);
  std::sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
    float rx = row[size_t(x)], ry = row[size_t(y)];
    return rx > ry || (rx == ry && x < y);
  });
  order.resize(size_t(count), -1);
  return order;
}

struct Case {
  int64_t rows, n, count;
  /// NaNs in row 0 that leave it fewer than `count` other keys.
  bool sparseRow;
};

void check(const Case &c, bool parallel, unsigned seed) {
  SCOPED_TRACE(::testing::Message()
               << "n " << c.n << " count " << c.count
               << (parallel ? " parallel" : " sequential"));
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float values[] = {3.5f, -1.0f, 0.0f,  -0.0f,  2.0f,   -inf,
                          inf,  nan,   7.25f, -7.25f, 1e-30f, -1e-30f};
  std::mt19937 rng(seed);
  Tensor keys(ATTIC_F32, {c.rows, c.n});
  std::vector<std::vector<float>> rows(size_t(c.rows));
  for (int64_t r = 0; r < c.rows; ++r)
    for (int64_t j = 0; j < c.n; ++j) {
      float v = values[rng() % (sizeof(values) / sizeof(values[0]))];
      // Row 0 of a sparse case: NaN but for count / 2 keys.
      if (c.sparseRow && r == 0)
        v = j % (2 * c.n / c.count + 1) == 1 ? 1.5f : nan;
      keys.set(r * c.n + j, double(v));
      rows[size_t(r)].push_back(v);
    }
  Compiled compiled(topKeysSource(c.rows, c.n, c.count, parallel), "k");
  std::vector<Tensor> out = compiled.run({&keys});
  ASSERT_EQ(out.size(), 1u);
  for (int64_t r = 0; r < c.rows; ++r) {
    std::vector<int64_t> want = reference(rows[size_t(r)], c.count);
    bool full = want.back() >= 0;
    // The sequential form repeats keys past the last one there is; only
    // the parallel forms give -1 there (documented on largestIndices).
    if (!full && !parallel)
      continue;
    for (int64_t t = 0; t < c.count; ++t)
      ASSERT_EQ(int64_t(out[0][r * c.count + t]), want[size_t(t)])
          << "row " << r << " pick " << t;
  }
}

TEST(TopKeys, BothFormsPickAsAStableSort) {
  // 100 keys: pairwise ranks; 4160 (> kPairwiseRankLimit, a partial last
  // chunk of 64): the radix select. Few picks, picks down through the
  // zeros and -inf (about 3800 of 4160 keys are not NaN), more picks than
  // keys that are not NaN (-1 at the end), and a row of NaN but 32 keys.
  for (Case c : {Case{3, 100, 9, false}, Case{3, 100, 80, false},
                 Case{3, 4160, 9, false}, Case{2, 4160, 3000, false},
                 Case{1, 4160, 4100, false}, Case{2, 4160, 64, true},
                 Case{2, 100, 20, true}})
    for (bool parallel : {false, true})
      check(c, parallel, unsigned(c.n + c.count));
}

} // namespace

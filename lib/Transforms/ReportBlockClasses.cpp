//===- ReportBlockClasses.cpp - the compile-time classification -*- C++ -*-===//
//
// attic-report-block-classes: the classification that the tile loop's IR
// decides at compile time, printed as a grid (see AtticPasses.td). The
// layout and the mask region emit their block visibility with constant
// block bounds into a scratch block, where it folds to constants (or does
// not: then '?').
//
//===----------------------------------------------------------------------===//

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Dialect/Attic/Modifiers.h"
#include "attic/Support/Diagnostics.h"
#include "attic/Support/KernelOptions.h"
#include "attic/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OwningOpRef.h"

#include <limits>
#include <string>

namespace attic {
#define GEN_PASS_DEF_ATTICREPORTBLOCKCLASSES
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;
using namespace attic;

FailureOr<std::vector<std::string>> attic::classifyBlocksStatically(
    LayoutAttrInterface layout, Region *mask, int64_t queryLen,
    int64_t keyLen, int64_t blockQ, int64_t blockK, int64_t batch,
    int64_t head) {
  if (queryLen < 0 || keyLen < 0 || blockQ <= 0 || blockK <= 0)
    return failure();
  if (!layout)
    return failure();
  MLIRContext *ctx = layout.getContext();
  // A scratch module: whatever the IR does not fold is dropped with it.
  Location loc = UnknownLoc::get(ctx);
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(loc);
  OpBuilder b = OpBuilder::atBlockEnd(scratch->getBody());
  IndexMath m(b, loc);
  Value nq = m.c(queryLen), nk = m.c(keyLen);
  LayoutEnv env{b, loc, nq, nk, m.c(batch), m.c(head), ValueRange{},
                ValueRange{}};
  bool runtime = layout.needsBlockMask() ||
                 (mask && !isIntervalClassifiable(*mask));
  std::vector<std::string> rows;
  // What each pair builds is erased after it: memory stays that of one
  // pair whatever the grid (it grew by about 2 KB a pair).
  Operation *mark = &scratch->getBody()->back();
  auto dropSince = [&] {
    while (&scratch->getBody()->back() != mark)
      scratch->getBody()->back().erase();
  };
  for (int64_t q0 = 0; q0 < queryLen; q0 += blockQ) {
    int64_t q1 = std::min(q0 + blockQ, queryLen);
    std::string row;
    for (int64_t k0 = 0; k0 < keyLen; k0 += blockK, dropSince()) {
      int64_t k1 = std::min(k0 + blockK, keyLen);
      BlockVisibility vis{m.boolean(true), m.boolean(true)};
      if (!layout.needsBlockMask())
        vis = layout.buildBlockVisibility(env, m.c(q0), m.c(q1), m.c(k0),
                                          m.c(k1));
      vis = intersectMaskVisibility(env, vis, mask, m.c(q0), m.c(q1), m.c(k0),
                                    m.c(k1));
      APInt any, all;
      bool anyKnown = matchPattern(vis.any, m_ConstantInt(&any));
      bool allKnown = matchPattern(vis.all, m_ConstantInt(&all));
      char c = '?';
      if (anyKnown && any.isZero())
        c = '.';
      else if (runtime)
        c = '?';
      else if (allKnown && !all.isZero())
        c = 'F';
      else if (anyKnown && allKnown)
        c = 'P';
      row.push_back(c);
    }
    rows.push_back(row);
  }
  return rows;
}

namespace {
struct AtticReportBlockClassesPass
    : public attic::impl::AtticReportBlockClassesBase<
          AtticReportBlockClassesPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    // The bounds of attic-decompose, whose tiling this pass reports.
    if (std::string bad = attic::blockSizesError(blockQ, blockK); !bad.empty())
      return attic::optionError(context, "attic-report-block-classes: " + bad);
    return success();
  }

  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      LayoutAttrInterface layout;
      Region *mask = nullptr;
      int64_t bq = blockQ, bk = blockK;
      Value query, key;
      if (auto a = dyn_cast<AttentionOp>(op)) {
        layout = a.getEffectiveLayout();
        mask = a.getMaskRegion().empty() ? nullptr : &a.getMaskRegion();
        query = a.getQuery();
        key = a.getKey();
        // The op's own tile sizes, as attic-decompose takes them.
        std::tie(bq, bk) = a.getTileSizesOr(blockQ, blockK);
      } else if (auto ba = dyn_cast<BlockAttentionOp>(op)) {
        layout = ba.getLayout();
        mask = ba.getMaskModifier();
        bq = ba.getBlockQ();
        bk = ba.getBlockK();
        query = ba.getQuery();
        key = ba.getKey();
      } else {
        return;
      }
      int64_t nq = cast<ShapedType>(query.getType()).getDimSize(2);
      int64_t nk = cast<ShapedType>(key.getType()).getDimSize(2);
      if (ShapedType::isDynamic(nq) || ShapedType::isDynamic(nk)) {
        emitRemark(op->getLoc(),
                   "block classes: not reported (dynamic lengths)");
        return;
      }
      // A grid is a character per block pair: beyond 2^20 pairs (1024 x
      // 1024 blocks) it is neither readable nor quick to build.
      // The product in 128 bits: in 64 it wrapped (2^64 pairs for 2^39
      // tokens of blocks of 128 were 0) and the pass built the grid
      // without end (a 2026-11-30 audit).
      __int128 pairs =
          __int128(llvm::divideCeil(nq, std::max<int64_t>(bq, 1))) *
          llvm::divideCeil(nk, std::max<int64_t>(bk, 1));
      if (bq > 0 && bk > 0 && pairs > (int64_t(1) << 20)) {
        std::string count = pairs > std::numeric_limits<int64_t>::max()
                                ? std::string("more than 2^63")
                                : std::to_string(static_cast<int64_t>(pairs));
        emitRemark(op->getLoc())
            << "block classes: not reported (" << bq << "x" << bk
            << " blocks of " << nq << " queries and " << nk << " keys are "
            << count << " block pairs, above 2^20; report larger blocks)";
        return;
      }
      FailureOr<std::vector<std::string>> rows = classifyBlocksStatically(
          layout, mask, nq, nk, bq, bk, /*batch=*/0, /*head=*/0);
      if (failed(rows)) {
        emitRemark(op->getLoc(),
                   "block classes: not reported (bad block sizes)");
        return;
      }
      int64_t counts[4] = {0, 0, 0, 0};
      std::string grid;
      for (const std::string &row : *rows) {
        grid += "\n  " + row;
        for (char c : row)
          ++counts[c == 'F' ? 0 : c == 'P' ? 1 : c == '.' ? 2 : 3];
      }
      // mlir::emitRemark, not op->emitRemark: the report is the grid, without
      // a dump of the op (and of its regions) attached as a note.
      emitRemark(op->getLoc())
          << "block classes (" << bq << "x" << bk
          << ", b = 0, h = 0): " << counts[0] << " full, " << counts[1]
          << " partial, " << counts[2] << " skipped, " << counts[3]
          << " decided at run time" << grid;
    });
  }
};
} // namespace

//===- MapTilesToGPU.cpp - tile loops -> GPU kernels ------------*- C++ -*-===//
//
// attic-gpu-map-tiles: every tile grid of attic-tile-block-attention (on the
// device buffers that attic-gpu-offload made) becomes one gpu.launch. Two
// patterns of one rewrite, chosen by benefit:
//
//   TensorCoreTiles (benefit 2, TensorCoreTiles.cpp): f16/bf16, head dims
//     multiples of 16 up to 128: a warp per 16 query rows, tiles in mma.sync
//     fragments, K and V staged in shared memory.
//   SimtTiles (benefit 1, here): anything else, and everything when
//     `tensor-cores=false` (attic-gpu-emulate runs its kernels on the CPU).
//
// SIMT mapping: blocks (B * Hq, nQB), a thread per query row i of the block.
// A thread's row of each scratch tile is private memory: an R x C tile is C
// floats, a row tile 1 float, a column tile C floats (each thread computes
// its own copy). Each tile op becomes a loop over the columns with the op's
// region cloned per element (attic.tile.pool: after a barrier, the block's
// threads share the columns and read back the rows the block stored; with
// tensor-cores=false, whose kernels attic-gpu-emulate must be able to run,
// it is a second kernel launched after the grid's); the loops over key blocks, the classification
// and everything else in the grid body are cloned as they are. Nothing here
// knows what the regions compute.
//
//===----------------------------------------------------------------------===//

#include "attic/Conversion/AtticToGPU/AtticToGPU.h"
#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Support/Diagnostics.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

namespace attic {
#define GEN_PASS_DEF_ATTICGPUMAPTILES
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;
using namespace attic;

//===----------------------------------------------------------------------===//
// Shared
//===----------------------------------------------------------------------===//

/// The operands of a tile op that must be scratch tiles of its grid (its
/// Attic_Tile1D/2D/Any operands in AtticTileOps.td).
static SmallVector<Value> tileOperandsOf(Operation *op) {
  SmallVector<Value> tiles;
  if (auto qk = dyn_cast<TileQKOp>(op)) {
    tiles.push_back(qk.getOut());
  } else if (auto pv = dyn_cast<TilePVOp>(op)) {
    tiles.append({pv.getProbs(), pv.getRescale(), pv.getAcc()});
  } else if (auto map = dyn_cast<TileMapOp>(op)) {
    for (ValueRange group :
         {map.getInputs(), map.getRows(), map.getCols(), map.getOutputs()})
      llvm::append_range(tiles, group);
  } else if (auto rows = dyn_cast<TileMapRowsOp>(op)) {
    llvm::append_range(tiles, rows.getInputs());
    llvm::append_range(tiles, rows.getOutputs());
  } else if (auto cols = dyn_cast<TileMapColsOp>(op)) {
    llvm::append_range(tiles, cols.getInputs());
    llvm::append_range(tiles, cols.getOutputs());
  } else if (auto reduce = dyn_cast<TileReduceOp>(op)) {
    tiles.append({reduce.getInput(), reduce.getOut()});
  } else if (auto store = dyn_cast<TileStoreOp>(op)) {
    tiles.push_back(store.getTile());
  } else if (auto pool = dyn_cast<TilePoolOp>(op)) {
    tiles.push_back(pool.getTile());
  }
  return tiles;
}

FailureOr<TileGridInfo> attic::analyzeTileGrid(scf::ParallelOp grid,
                                               bool report) {
  auto fail = [&](Operation *op, const Twine &message) {
    if (report)
      attic::opError(op, message);
    return failure();
  };
  TileGridInfo info;
  info.grid = grid;
  Block *body = grid.getBody();
  if (grid.getNumLoops() != 3)
    return fail(grid, "is a tile grid with " + Twine(grid.getNumLoops()) +
                          " loops; (batch, head, query block) expected");
  llvm::SmallPtrSet<Value, 16> scratch;
  for (Operation &op : *body) {
    auto alloc = dyn_cast<memref::AllocOp>(op);
    if (!alloc)
      continue;
    TileGridInfo::Tile tile;
    tile.alloc = alloc;
    MemRefType type = alloc.getType();
    if (type.getRank() == 2) {
      tile.kind = TileGridInfo::TileKind::Matrix;
      info.rows = type.getDimSize(0);
    } else {
      tile.kind = TileGridInfo::TileKind::Rows;
      for (Operation *user : alloc->getUsers()) {
        if (auto cols = dyn_cast<TileMapColsOp>(user))
          if (llvm::is_contained(cols.getOutputs(), alloc.getResult()) ||
              llvm::is_contained(cols.getInputs(), alloc.getResult()))
            tile.kind = TileGridInfo::TileKind::Cols;
        if (auto map = dyn_cast<TileMapOp>(user))
          if (llvm::is_contained(map.getCols(), alloc.getResult()))
            tile.kind = TileGridInfo::TileKind::Cols;
      }
    }
    for (Operation *user : alloc->getUsers())
      if (!isa<memref::DeallocOp>(user) &&
          !isa_and_nonnull<AtticDialect>(user->getDialect()))
        return fail(user, "uses a scratch tile of a tile grid; only "
                          "attic.tile ops may");
    info.tiles.push_back(tile);
    scratch.insert(alloc.getResult());
  }
  if (info.rows <= 0)
    return fail(grid, "is a tile grid without an R x C scratch tile");
  WalkResult foreign = body->walk([&](Operation *op) {
    for (Value tile : tileOperandsOf(op))
      if (!scratch.contains(tile)) {
        if (report)
          op->emitOpError("operand #")
              << llvm::find(op->getOperands(), tile) - op->operand_begin()
              << " is not a scratch tile of its grid (a memref.alloc at the "
                 "top of the grid's body)";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (foreign.wasInterrupted())
    return failure();
  return info;
}

void attic::eraseBuiltInFront(RewriterBase &rewriter, Operation *grid,
                              Operation *before) {
  Block *block = grid->getBlock();
  SmallVector<Operation *> built;
  for (auto it = before ? std::next(before->getIterator()) : block->begin();
       &*it != grid; ++it)
    built.push_back(&*it);
  for (Operation *op : llvm::reverse(built))
    rewriter.eraseOp(op);
}

Value attic::launchDims(ImplicitLocOpBuilder &b, scf::ParallelOp grid,
                        Value &gridX, Value &gridY) {
  Value batches = grid.getUpperBound()[0], heads = grid.getUpperBound()[1];
  gridX = arith::MulIOp::create(b, batches, heads);
  gridY = grid.getUpperBound()[2];
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value one = arith::ConstantIndexOp::create(b, 1);
  Value nonEmpty = arith::AndIOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::sgt, gridX, zero),
      arith::CmpIOp::create(b, arith::CmpIPredicate::sgt, gridY, zero));
  gridX = arith::MaxSIOp::create(b, gridX, one);
  gridY = arith::MaxSIOp::create(b, gridY, one);
  return nonEmpty;
}

void attic::guardLaunchBody(gpu::LaunchOp launch, Value cond) {
  Block &body = launch.getBody().front();
  Operation *terminator = body.getTerminator();
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  auto guard = scf::IfOp::create(b, launch.getLoc(), cond,
                                 /*withElseRegion=*/false);
  Operation *yield = guard.thenBlock()->getTerminator();
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (&op == guard.getOperation() || &op == terminator)
      continue;
    op.moveBefore(yield);
  }
}

namespace {

/// Columns of a dynamic-width tile a SIMT thread holds at a time.
constexpr int64_t kChunk = 64;

//===----------------------------------------------------------------------===//
// SIMT
//===----------------------------------------------------------------------===//

/// attic.tile.pool of query blocks of R rows by the R threads of a block
/// (this one is `tid`): columns `tid, tid + R, ...` of `count` (starting
/// at `first` when given), each summing the block's stored rows in
/// ascending order. The rows must be visible: written before a barrier or
/// by an earlier launch.
void emitPoolColumns(OpBuilder &b, Location loc, TilePoolOp pool, int64_t R,
                     Value tid, Value batch, Value head, Value block,
                     Value first, Value count) {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value stored = pool.getStored();
  Value q0 = arith::MulIOp::create(b, loc, block, c(R));
  Value rows = arith::MinSIOp::create(
      b, loc, c(R),
      arith::SubIOp::create(b, loc, memref::DimOp::create(b, loc, stored, 2),
                            q0));
  auto columns = scf::ForOp::create(b, loc, tid, count, c(R));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(columns.getBody()->getTerminator());
  Value col = columns.getInductionVar();
  if (first)
    col = arith::AddIOp::create(b, loc, first, col);
  Value zero =
      arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(0.0f));
  auto sum = scf::ForOp::create(
      b, loc, c(0), rows, c(1), ValueRange{zero},
      [&](OpBuilder &nb, Location at, Value i, ValueRange acc) {
        Value q = arith::AddIOp::create(nb, at, q0, i);
        Value w = memref::LoadOp::create(nb, at, pool.getWeights(),
                                         ValueRange{batch, q});
        Value x = memref::LoadOp::create(nb, at, stored,
                                         ValueRange{batch, head, q, col});
        if (!x.getType().isF32())
          x = arith::ExtFOp::create(nb, at, nb.getF32Type(), x);
        scf::YieldOp::create(
            nb, at,
            ValueRange{arith::AddFOp::create(
                nb, at, acc[0], arith::MulFOp::create(nb, at, w, x))});
      });
  memref::StoreOp::create(b, loc, sum.getResult(0), pool.getPooled(),
                          ValueRange{batch, head, block, col});
}

/// The SIMT form of the tile ops of one thread (query row `row` of its
/// block): tiles are its private rows. With `barriers`, attic.tile.pool
/// is done by the block's threads behind a barrier; without, it is
/// dropped here and SimtTiles launches it as a kernel of its own.
class SimtThread {
public:
  SimtThread(OpBuilder &b, Value row, DenseMap<Value, MemRefType> tileTypes,
             bool barriers)
      : b(b), row(row), tileTypes(std::move(tileTypes)), barriers(barriers) {}

  /// Tiles of dynamic width are processed in chunks of kChunk columns:
  /// `start` is the chunk's first column and `len` its columns.
  void setChunk(Value start, Value len) {
    chunkStart = start;
    chunkLen = len;
  }
  bool isChunked(Value tile) {
    return ShapedType::isDynamic(tileTypes.lookup(tile).getDimSize(1));
  }

  LogicalResult rewrite(Operation *op);

private:
  Value c(int64_t v, Location loc) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  /// for j in [0, n): body(j)
  void loop(Location loc, Value n, function_ref<void(Value)> body) {
    auto forOp = scf::ForOp::create(b, loc, c(0, loc), n, c(1, loc));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forOp.getBody()->getTerminator());
    body(forOp.getInductionVar());
  }
  /// Clones `body` with its arguments bound to `args`; returns the yields.
  SmallVector<Value> inlineBody(Block &body, ArrayRef<Value> args) {
    IRMapping map;
    for (auto [arg, v] : llvm::zip(body.getArguments(), args))
      map.map(arg, v);
    for (Operation &op : body.without_terminator())
      b.clone(op, map);
    SmallVector<Value> results;
    for (Value v : body.getTerminator()->getOperands())
      results.push_back(map.lookupOrDefault(v));
    return results;
  }
  Value load(Location loc, Value memref, ValueRange idx) {
    return memref::LoadOp::create(b, loc, memref, idx);
  }
  Value loadF32(Location loc, Value memref, ValueRange idx) {
    Value v = load(loc, memref, idx);
    return v.getType().isF32() ? v
                               : arith::ExtFOp::create(b, loc, b.getF32Type(), v);
  }
  /// The columns of `tile` this thread holds (a chunk's for chunked ones).
  Value cols(Value tile) {
    if (tileTypes.count(tile) && isChunked(tile))
      return chunkLen;
    return c(cast<MemRefType>(tile.getType()).getDimSize(0), tile.getLoc());
  }
  /// The tile column of element j of this thread's row.
  Value colOf(Value tile, Value j, Location loc) {
    if (tileTypes.count(tile) && isChunked(tile))
      return arith::AddIOp::create(b, loc, chunkStart, j);
    return j;
  }

  /// R x C of a tile (its private row has C elements).
  int64_t rowsOf(Value tile) { return tileTypes.lookup(tile).getDimSize(0); }
  int64_t colsOf(Value tile) { return tileTypes.lookup(tile).getDimSize(1); }

  OpBuilder &b;
  Value row;
  Value chunkStart, chunkLen;
  /// Private buffer -> the scratch tile's type in the grid.
  DenseMap<Value, MemRefType> tileTypes;
  bool barriers;
};

LogicalResult SimtThread::rewrite(Operation *op) {
  Location loc = op->getLoc();
  b.setInsertionPoint(op);
  Value zero = c(0, loc);
  auto minI = [&](Value x, Value y) {
    return arith::MinSIOp::create(b, loc, x, y).getResult();
  };
  auto lt = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y)
        .getResult();
  };
  auto add = [&](Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y).getResult();
  };
  auto mul = [&](Value x, int64_t y) {
    return arith::MulIOp::create(b, loc, x, c(y, loc)).getResult();
  };
  auto sub1 = [&](Value x) {
    return arith::SubIOp::create(b, loc, x, c(1, loc)).getResult();
  };

  if (auto qk = dyn_cast<TileQKOp>(op)) {
    // s[j] = q[row] . k[k0 + j], 0 outside the sequences (reads clamped).
    int64_t R = rowsOf(qk.getOut()), C = colsOf(qk.getOut());
    Value query = qk.getQuery(), key = qk.getKey(), out = qk.getOut();
    Value nq = memref::DimOp::create(b, loc, query, 2);
    Value nk = memref::DimOp::create(b, loc, key, 2);
    Value d = memref::DimOp::create(b, loc, query, 3);
    Value q = add(mul(qk.getQueryBlock(), R), row);
    Value qc = minI(q, sub1(nq));
    Value k0 = mul(qk.getKeyBlock(), C);
    std::optional<APFloat> queryScale = qk.getQueryScale();
    loop(loc, c(C, loc), [&](Value j) {
      Value k = add(k0, j);
      Value kc = minI(k, sub1(nk));
      Value f0 = arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                                APFloat(0.0f));
      auto dot = scf::ForOp::create(
          b, loc, zero, d, c(1, loc), ValueRange{f0},
          [&](OpBuilder &nb, Location at, Value di, ValueRange acc) {
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPointToEnd(nb.getInsertionBlock());
            Value x = loadF32(at, query, {qk.getQueryBatch(),
                                          qk.getQueryHead(), qc, di});
            // A power of two: exact in f32 (see attic.tile.qk).
            if (queryScale)
              x = arith::MulFOp::create(
                  b, at, x,
                  arith::ConstantFloatOp::create(b, at, b.getF32Type(),
                                                 *queryScale));
            Value y = loadF32(at, key,
                              {qk.getKeyBatch(), qk.getKeyHead(), kc, di});
            Value sum = arith::AddFOp::create(
                b, at, acc[0], arith::MulFOp::create(b, at, x, y));
            scf::YieldOp::create(b, at, sum);
          });
      Value inside = arith::AndIOp::create(b, loc, lt(q, nq), lt(k, nk));
      Value s = arith::SelectOp::create(b, loc, inside, dot.getResult(0), f0);
      memref::StoreOp::create(b, loc, s, out, ValueRange{j});
    });
  } else if (auto pv = dyn_cast<TilePVOp>(op)) {
    // acc[c] = alpha * acc[c] + sum_j p[j] v[k0 + j, c], keys < Nk.
    int64_t C = colsOf(pv.getProbs());
    Value value = pv.getValue(), acc = pv.getAcc(), probs = pv.getProbs();
    Value nk = memref::DimOp::create(b, loc, value, 2);
    Value k0 = mul(pv.getValueBlock(), C);
    Value keys = minI(c(C, loc), arith::SubIOp::create(b, loc, nk, k0));
    Value alpha = load(loc, pv.getRescale(), {zero});
    loop(loc, cols(acc), [&](Value col) {
      Value init = arith::MulFOp::create(b, loc, alpha, load(loc, acc, {col}));
      auto sum = scf::ForOp::create(
          b, loc, zero, keys, c(1, loc), ValueRange{init},
          [&](OpBuilder &nb, Location at, Value j, ValueRange a) {
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPointToEnd(nb.getInsertionBlock());
            Value p = load(at, probs, {j});
            Value v = loadF32(at, value,
                              {pv.getValueBatch(), pv.getValueHead(),
                               add(k0, j), colOf(acc, col, at)});
            scf::YieldOp::create(b, at,
                                 ValueRange{arith::AddFOp::create(
                                     b, at, a[0], arith::MulFOp::create(b, at, p, v))});
          });
      memref::StoreOp::create(b, loc, sum.getResult(0), acc, ValueRange{col});
    });
  } else if (auto map = dyn_cast<TileMapOp>(op)) {
    Value q = add(map.getRowOffset(), row);
    Value first = map.getOutputs().front();
    for (Value v : map.getInputs())
      if (isChunked(v) != isChunked(first))
        return op->emitOpError("mixes chunked and whole tiles (SIMT)");
    loop(loc, cols(first), [&](Value j) {
      SmallVector<Value> args = {q, add(map.getColOffset(), colOf(first, j, loc))};
      for (Value v : map.getInputs())
        args.push_back(load(loc, v, {j}));
      for (Value v : map.getRows())
        args.push_back(load(loc, v, {zero}));
      for (Value v : map.getCols())
        args.push_back(load(loc, v, {j}));
      for (Value v : map.getOutputs())
        args.push_back(load(loc, v, {j}));
      for (auto [out, v] : llvm::zip(map.getOutputs(),
                                     inlineBody(map.getBody().front(), args)))
        memref::StoreOp::create(b, loc, v, out, ValueRange{j});
    });
  } else if (auto rows = dyn_cast<TileMapRowsOp>(op)) {
    SmallVector<Value> args = {add(rows.getRowOffset(), row)};
    for (Value v : rows.getInputs())
      args.push_back(load(loc, v, {zero}));
    for (Value v : rows.getOutputs())
      args.push_back(load(loc, v, {zero}));
    for (auto [out, v] : llvm::zip(rows.getOutputs(),
                                   inlineBody(rows.getBody().front(), args)))
      memref::StoreOp::create(b, loc, v, out, ValueRange{zero});
  } else if (auto colsOp = dyn_cast<TileMapColsOp>(op)) {
    Value first = colsOp.getOutputs().front();
    loop(loc, cols(first), [&](Value j) {
      SmallVector<Value> args = {add(colsOp.getColOffset(), j)};
      for (Value v : colsOp.getInputs())
        args.push_back(load(loc, v, {j}));
      for (Value v : colsOp.getOutputs())
        args.push_back(load(loc, v, {j}));
      for (auto [out, v] : llvm::zip(colsOp.getOutputs(),
                                     inlineBody(colsOp.getBody().front(), args)))
        memref::StoreOp::create(b, loc, v, out, ValueRange{j});
    });
  } else if (auto reduce = dyn_cast<TileReduceOp>(op)) {
    if (isChunked(reduce.getInput()))
      return op->emitOpError("reduces a tile of dynamic width (SIMT)");
    bool isMax = reduce.getKind() == TileReduceKind::Max;
    float identity = isMax ? -std::numeric_limits<float>::infinity() : 0.0f;
    Value init = arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                                APFloat(identity));
    auto fold = scf::ForOp::create(
        b, loc, zero, cols(reduce.getInput()), c(1, loc), ValueRange{init},
        [&](OpBuilder &nb, Location at, Value j, ValueRange acc) {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToEnd(nb.getInsertionBlock());
          Value x = load(at, reduce.getInput(), {j});
          Value next;
          if (isMax) {
            // max.f32 (a NaN is dropped: the tile op leaves it open).
            next = arith::MaxNumFOp::create(b, at, x, acc[0]);
          } else {
            next = arith::AddFOp::create(b, at, acc[0], x);
          }
          scf::YieldOp::create(b, at, next);
        });
    memref::StoreOp::create(b, loc, fold.getResult(0), reduce.getOut(),
                            ValueRange{zero});
  } else if (auto store = dyn_cast<TileStoreOp>(op);
             store && store.getOut().getType().getRank() == 3) {
    // One value per row (the log-sum-exp) into out[b, h, q].
    int64_t R = rowsOf(store.getTile());
    Value out = store.getOut();
    Value q = add(mul(store.getQueryBlock(), R), row);
    Value nq = memref::DimOp::create(b, loc, out, 2);
    Value v = load(loc, store.getTile(), {zero});
    auto ifRow = scf::IfOp::create(b, loc, lt(q, nq), /*withElse=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(ifRow.thenBlock()->getTerminator());
    memref::StoreOp::create(
        b, loc, v, out, ValueRange{store.getBatch(), store.getHead(), q});
  } else if (auto store = dyn_cast<TileStoreOp>(op)) {
    int64_t R = rowsOf(store.getTile());
    Value out = store.getOut();
    Value q = add(mul(store.getQueryBlock(), R), row);
    Value nq = memref::DimOp::create(b, loc, out, 2);
    Type elem = cast<MemRefType>(out.getType()).getElementType();
    auto ifRow = scf::IfOp::create(b, loc, lt(q, nq), /*withElse=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(ifRow.thenBlock()->getTerminator());
    loop(loc, cols(store.getTile()), [&](Value col) {
      Value v = load(loc, store.getTile(), {col});
      if (!elem.isF32())
        v = arith::TruncFOp::create(b, loc, elem, v);
      memref::StoreOp::create(b, loc, v, out,
                              ValueRange{store.getBatch(), store.getHead(), q,
                                         colOf(store.getTile(), col, loc)});
    });
  } else if (auto pool = dyn_cast<TilePoolOp>(op)) {
    if (barriers) {
      // Every thread has stored its row; the block's threads then share
      // the columns (of this chunk, for tiles of dynamic width).
      gpu::BarrierOp::create(b, loc);
      Value count = isChunked(pool.getTile())
                        ? chunkLen
                        : memref::DimOp::create(b, loc, pool.getStored(), 3)
                              .getResult();
      emitPoolColumns(b, loc, pool, rowsOf(pool.getTile()), row,
                      pool.getBatch(), pool.getHead(),
                      pool.getQueryBlock(),
                      isChunked(pool.getTile()) ? chunkStart : Value(), count);
    }
  } else {
    return op->emitOpError("has no SIMT mapping");
  }
  op->erase();
  return success();
}

struct SimtTiles : OpRewritePattern<scf::ParallelOp> {
  SimtTiles(MLIRContext *ctx, bool barriers)
      : OpRewritePattern(ctx, /*benefit=*/1), barriers(barriers) {}
  /// Whether kernels may synchronize their threads (false: every kernel
  /// must be one that attic-gpu-emulate can run).
  bool barriers;

  LogicalResult matchAndRewrite(scf::ParallelOp grid,
                                PatternRewriter &rewriter) const override {
    if (!grid->hasAttr(kTileGridAttrName))
      return failure();
    FailureOr<TileGridInfo> info = analyzeTileGrid(grid);
    if (failed(info))
      return failure();
    MLIRContext *ctx = getContext();
    Value chunkedWidth;
    auto privateSpace =
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Private);
    SmallVector<Type> privates;
    for (TileGridInfo::Tile tile : info->tiles) {
      MemRefType type = tile.alloc.getType();
      int64_t n = tile.kind == TileGridInfo::TileKind::Matrix
                      ? type.getDimSize(1)
                  : tile.kind == TileGridInfo::TileKind::Cols
                      ? type.getDimSize(0)
                      : 1;
      if (ShapedType::isDynamic(n)) {
        // The value columns: in chunks, the thread's program once per chunk.
        if (tile.kind != TileGridInfo::TileKind::Matrix ||
            tile.alloc.getDynamicSizes().size() != 1 ||
            grid->isAncestor(tile.alloc.getDynamicSizes()[0].getParentRegion()
                                 ->getParentOp()))
          return attic::opError(
              grid, "has a scratch tile of dynamic width whose width is not "
                    "known in front of the grid (SIMT)");
        if (chunkedWidth && chunkedWidth != tile.alloc.getDynamicSizes()[0])
          return attic::opError(
              grid, "has scratch tiles of different dynamic widths (SIMT)");
        chunkedWidth = tile.alloc.getDynamicSizes()[0];
        n = kChunk;
      }
      privates.push_back(
          MemRefType::get({n}, rewriter.getF32Type(), nullptr, privateSpace));
    }
    if (info->rows > 1024)
      return attic::opError(grid, "has tiles of ")
             << info->rows
             << " query rows; a thread per row allows at most 1024 (SIMT)";
    // Pooled epilogues at the grid's top level, on its own query blocks
    // (what attic-tile-block-attention makes): without barriers they are
    // launched after the grid's kernel.
    SmallVector<TilePoolOp> pools;
    WalkResult nested = grid.walk([&](TilePoolOp pool) {
      if (pool->getParentOp() != grid || pool.getBatch() != grid.getInductionVars()[0] ||
          pool.getHead() != grid.getInductionVars()[1] ||
          pool.getQueryBlock() != grid.getInductionVars()[2])
        return WalkResult::interrupt();
      pools.push_back(pool);
      return WalkResult::advance();
    });
    if (nested.wasInterrupted())
      return attic::opError(
          grid, "has an attic.tile.pool that is not in the grid's body or does "
                "not pool the grid's own (batch, head, query block) (SIMT)");

    // Everything built from here on is in front of the grid, which is
    // left as it is until the end: a failure erases what was built.
    Operation *before = grid->getPrevNode();
    ImplicitLocOpBuilder b(grid.getLoc(), rewriter);
    b.setInsertionPoint(grid);
    Value gridX, gridY;
    Value nonEmpty = launchDims(b, grid, gridX, gridY);
    Type tokenType = gpu::AsyncTokenType::get(ctx);
    Value token =
        gpu::WaitOp::create(b, tokenType, ValueRange{}).getAsyncToken();
    Value c1 = arith::ConstantIndexOp::create(b, 1);
    Value threads = arith::ConstantIndexOp::create(b, info->rows);
    auto launch = gpu::LaunchOp::create(b, gridX, gridY, c1, threads, c1, c1,
                                        /*dynamicSharedMemorySize=*/nullptr,
                                        tokenType, ValueRange{token},
                                        /*workgroup=*/TypeRange{}, privates);
    gpu::WaitOp::create(b, Type(), ValueRange{launch.getAsyncToken()});
    if (!barriers) {
      // The pooled epilogues as a kernel of their own, same blocks and
      // threads, reading the rows the first kernel stored.
      for (TilePoolOp pool : pools) {
        Value after =
            gpu::WaitOp::create(b, tokenType, ValueRange{}).getAsyncToken();
        auto poolLaunch = gpu::LaunchOp::create(
            b, gridX, gridY, c1, threads, c1, c1,
            /*dynamicSharedMemorySize=*/nullptr, tokenType, ValueRange{after});
        gpu::WaitOp::create(b, Type(), ValueRange{poolLaunch.getAsyncToken()});
        OpBuilder p = OpBuilder::atBlockBegin(&poolLaunch.getBody().front());
        Location at = pool.getLoc();
        Value bx = poolLaunch.getBlockIds().x;
        Value heads = grid.getUpperBound()[1];
        emitPoolColumns(p, at, pool, info->rows, poolLaunch.getThreadIds().x,
                        arith::DivUIOp::create(p, at, bx, heads),
                        arith::RemUIOp::create(p, at, bx, heads),
                        poolLaunch.getBlockIds().y, Value(),
                        memref::DimOp::create(p, at, pool.getStored(), 3));
        gpu::TerminatorOp::create(p, at);
        guardLaunchBody(poolLaunch, nonEmpty);
      }
    }

    // The body: the grid's, with (b, h, qb) from the block ids and the
    // tiles in private memory.
    Block &body = launch.getBody().front();
    OpBuilder k = OpBuilder::atBlockBegin(&body);
    Location loc = grid.getLoc();
    Value heads = grid.getUpperBound()[1];
    Value bx = launch.getBlockIds().x;
    IRMapping map;
    map.map(grid.getInductionVars()[0],
            arith::DivUIOp::create(k, loc, bx, heads).getResult());
    map.map(grid.getInductionVars()[1],
            arith::RemUIOp::create(k, loc, bx, heads).getResult());
    map.map(grid.getInductionVars()[2], launch.getBlockIds().y);
    llvm::DenseSet<Operation *> tileAllocs;
    DenseMap<Value, MemRefType> tileTypes;
    for (auto [tile, arg] :
         llvm::zip(info->tiles, launch.getPrivateAttributions())) {
      map.map(tile.alloc.getResult(), arg);
      tileAllocs.insert(tile.alloc);
      tileTypes[arg] = tile.alloc.getType();
    }
    // With a tile of dynamic width, the whole program runs once per chunk
    // of its columns (the rest is recomputed: SIMT is the fallback).
    Value chunkStart, chunkLen;
    if (chunkedWidth) {
      Value step = arith::ConstantIndexOp::create(k, loc, kChunk);
      auto chunks = scf::ForOp::create(
          k, loc, arith::ConstantIndexOp::create(k, loc, 0), chunkedWidth,
          step);
      k.setInsertionPoint(chunks.getBody()->getTerminator());
      chunkStart = chunks.getInductionVar();
      chunkLen = arith::MinSIOp::create(
          k, loc, step, arith::SubIOp::create(k, loc, chunkedWidth, chunkStart));
    }
    for (Operation &op : grid.getBody()->without_terminator()) {
      if (tileAllocs.count(&op))
        continue;
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
        if (tileAllocs.count(dealloc.getMemref().getDefiningOp()))
          continue;
      k.clone(op, map);
    }
    k.setInsertionPointToEnd(&body);
    gpu::TerminatorOp::create(k, loc);

    SmallVector<Operation *> tileOps;
    body.walk([&](Operation *op) {
      if (isa_and_nonnull<AtticDialect>(op->getDialect()) &&
          !isa<TileYieldOp>(op))
        tileOps.push_back(op);
    });
    OpBuilder t(ctx);
    SimtThread thread(t, launch.getThreadIds().x, std::move(tileTypes),
                      barriers);
    thread.setChunk(chunkStart, chunkLen);
    for (Operation *op : tileOps)
      if (failed(thread.rewrite(op))) {
        eraseBuiltInFront(rewriter, grid, before);
        return failure();
      }
    guardLaunchBody(launch, nonEmpty);
    rewriter.eraseOp(grid);
    return success();
  }
};

struct AtticGpuMapTilesPass
    : public attic::impl::AtticGpuMapTilesBase<AtticGpuMapTilesPass> {
  using Base::Base;

  TensorCoreOptions tensorCoreOptions() const {
    TensorCoreOptions options;
    options.asyncCopies = asyncCopies;
    options.kvStages = kvStages;
    options.wgmma = wgmma;
    options.wgmmaOverlap = wgmmaOverlap;
    options.tma = tma;
    options.warpSpecialize = warpSpecialize;
    options.pingPong = pingPong;
    return options;
  }

  LogicalResult initialize(MLIRContext *context) override {
    if (std::string message = checkTensorCoreOptions(tensorCoreOptions());
        !message.empty())
      return attic::optionError(context, "attic-gpu-map-tiles: " + message);
    // The tensor-core kernel's options with tensor-cores=false were
    // accepted and ignored (a 2026-12-02 audit).
    if (!tensorCores) {
      TensorCoreOptions defaults;
      std::string set = !asyncCopies != !defaults.asyncCopies
                            ? "async-copies=false"
                        : kvStages != defaults.kvStages
                            ? "kv-stages=" + std::to_string(kvStages)
                        : wgmma          ? "wgmma"
                        : wgmmaOverlap   ? "wgmma-overlap"
                        : tma            ? "tma"
                        : warpSpecialize ? "warp-specialize"
                        : pingPong       ? "ping-pong"
                                         : "";
      if (!set.empty())
        return attic::optionError(
            context, "attic-gpu-map-tiles: " + set +
                         " is an option of the tensor-core kernel, which "
                         "tensor-cores=false does not use");
    }
    return success();
  }

  void runOnOperation() override {
    expandTileGrids(getOperation());
    SmallVector<Operation *> grids;
    getOperation()->walk([&](scf::ParallelOp op) {
      if (op->hasAttr(kTileGridAttrName))
        grids.push_back(op);
    });
    TensorCoreOptions options = tensorCoreOptions();
    RewritePatternSet patterns(&getContext());
    populateGpuMapTilesPatterns(patterns, tensorCores, options);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    (void)applyOpPatternsGreedily(grids, std::move(patterns), config);
    bool failed = false;
    // Pre-order, so that a grid left unmapped is reported once, not its
    // tile ops as well.
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<scf::ParallelOp>(op) && op->hasAttr(kTileGridAttrName)) {
        attic::opError(op, "is a tile grid that attic-gpu-map-tiles could not "
                           "map onto the GPU (the errors above say why)");
        failed = true;
        return WalkResult::skip();
      }
      if (isa_and_nonnull<AtticDialect>(op->getDialect()) &&
          !isa<TileYieldOp>(op) &&
          op->getParentOfType<gpu::LaunchOp>() == nullptr) {
        // Other attic ops (attic.attention, attic.block_attention, ...)
        // were called "outside a tile grid" as if they were tile ops (a
        // 2026-11-30 audit): named as attic-cpu-map-tiles names them.
        if (op->getName().getStringRef().starts_with("attic.tile."))
          op->emitOpError("is outside a tile grid (attic.tile.grid); "
                          "attic-gpu-map-tiles maps tile ops of grids only");
        else
          op->emitOpError("is not lowered to a tile grid; "
                          "attic-gpu-map-tiles runs on device buffers after "
                          "attic-tile-block-attention and attic-gpu-offload "
                          "(attic-cuda-pipeline runs every step)");
        failed = true;
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    if (failed)
      return signalPassFailure();
    // Launches need a container module; a module without tile grids is
    // left as it is.
    if (grids.empty())
      return;
    if (auto module = dyn_cast<ModuleOp>(getOperation()))
      module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      UnitAttr::get(&getContext()));
  }
};

} // namespace

std::string attic::checkTensorCoreOptions(const TensorCoreOptions &options,
                                          StringRef dashes) {
  std::string d = dashes.str();
  auto [asyncCopies, kvStages, wgmma, wgmmaOverlap, tma, warpSpecialize,
        pingPong] = options;
  if (kvStages < 1 || kvStages > 3)
    return d + "kv-stages must be 1, 2 or 3, got " + std::to_string(kvStages);
  if (kvStages >= 2 && !asyncCopies)
    return d + "kv-stages=" + std::to_string(kvStages) + " needs " + d +
           "async-copies (the ring is filled by cp.async)";
  if (wgmma && !asyncCopies)
    return d + "wgmma needs " + d +
           "async-copies (the swizzled K and V tiles are filled by cp.async)";
  if (wgmmaOverlap && (!wgmma || kvStages < 2))
    return d + "wgmma-overlap needs " + d + "wgmma and " + d +
           "kv-stages=2 or 3 (the deferred P V is a wgmma that reads one more "
           "V slot of the ring)";
  if (tma && (!wgmma || kvStages < 2))
    return d + "tma needs " + d + "wgmma and " + d +
           "kv-stages=2 or 3 (TMA fills the rings' swizzled tiles that wgmma "
           "reads)";
  if (warpSpecialize && !tma)
    return d + "warp-specialize needs " + d +
           "tma (the producer warpgroup issues the rings' TMA loads)";
  if (pingPong && (!warpSpecialize || !wgmmaOverlap))
    return d + "ping-pong needs " + d + "warp-specialize and " + d +
           "wgmma-overlap (each consumer warpgroup's turn issues a block's "
           "Q K^T and the deferred P V)";
  return "";
}

void attic::populateGpuMapTilesPatterns(RewritePatternSet &patterns,
                                        bool tensorCores,
                                        const TensorCoreOptions &options) {
  // Without tensor cores the kernels are those attic-gpu-emulate runs:
  // no barriers.
  patterns.add<SimtTiles>(patterns.getContext(), /*barriers=*/tensorCores);
  if (tensorCores)
    populateTensorCoreTilesPatterns(patterns, options);
}

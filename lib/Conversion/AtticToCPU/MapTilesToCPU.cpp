//===- MapTilesToCPU.cpp - tile loop -> vector micro-kernels ----*- C++ -*-===//
//
// attic-cpu-map-tiles maps the tile loop of attic-tile-block-attention onto
// the CPU. It only decides where tiles live and how their elements are
// computed; what they compute (the masking, the softmax, the NaN policy) is
// the tile loop's IR, unchanged. W is the vector width (16 f32 lanes with
// AVX-512, 8 with AVX2), R x C the register tile of the micro-kernels.
//
// Tiles. Every scratch tile of a grid (memref.alloc in its body) becomes a
// heap buffer with rows padded to whole register tiles and columns padded
// to whole vectors (value columns: to whole column groups). Padded elements
// are computed like the others but never reach a result: reductions mask
// the padded lanes, attic.tile.pv reads only the keys of the block and
// attic.tile.store only the real rows.
//
// Keys and values are packed once per (batch, kv head, key block), in an
// scf.parallel in front of the grid, into f32 panels that the
// micro-kernels stream contiguously:
//
//   kt[p] = K[k0:k0+C, :]^T   [D][Cpad]     (keys along the lanes)
//   vp[p] = V[k0:k0+C, :]     [Cpad][DvPad]
//
// with p = (b * Hkv + hk) * nKB + kb; keys past Nk are zeros. Packing is
// O(N*D) per kv head, never O(N^2). The query block is converted to an f32
// scratch [Rpad][D] once per grid iteration.
//
// Ops:
//   attic.tile.qk     S = Q K^T as register tiles of R rows x C vectors,
//                     FMA over D, stored to the scores tile;
//   attic.tile.pv     acc = alpha * acc + P V, same register tiles, FMA over
//                     the keys of the block;
//   attic.tile.map_cols  one vectorized pass over the columns;
//   attic.tile.pool   the weighted sum of the result tile's rows, a vector
//                     of columns at a time, right after the rows are stored;
//   the row-local ops (attic.tile.map, .map_rows, .reduce, .store) that
//   follow each other are fused into ONE loop over the rows: a row's
//   chunks stay in vector registers from one op to the next, and only the
//   tiles that are read after the group are stored.
//
// The regions of the maps are vectorized generically: values that depend
// on the column (the key index, column elements) become vector<W x T>,
// the others stay scalars; loads with a varying last index become gathers.
// Nothing here knows which region computes a softmax.
//
// The grid's query blocks are visited in zig-zag order (0, n-1, 1, n-2,
// ...), so that any contiguous share of the parallel iteration space, which
// is what a static OpenMP schedule hands each thread, carries about the
// same work whatever the layout (causal, windows at the ends).
//
//===----------------------------------------------------------------------===//

#include "attic/Conversion/AtticToCPU/AtticToCPU.h"
#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Support/Diagnostics.h"
#include "attic/Support/KernelOptions.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/TargetParser/Host.h"

#include <limits>

namespace attic {
#define GEN_PASS_DEF_ATTICCPUMAPTILES
#include "AtticPasses.h.inc"
} // namespace attic

using namespace mlir;
using namespace attic;

int64_t attic::hostVectorWidth() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  if (features.lookup("avx512f"))
    return 16;
  if (features.lookup("avx2") || features.lookup("avx"))
    return 8;
  return 4; // SSE, NEON and anything else with 128-bit vectors
}

/// The most vectors of a key block the micro-kernels unroll.
constexpr int64_t kMaxKeyVectors = 256;
/// The widest head dim (D or Dv) the micro-kernels take: their code grows
/// with it (D = 16384 lowers in about 0.4 s, 65536 in 7 s).
constexpr int64_t kMaxHeadDim = 16384;

/// The most ops a tile.map region may have in all once it is unrolled
/// over a row's chunks (region ops times chunks). A longer region (a long
/// modifier region) is evaluated by a loop over the chunks, on memory: one
/// copy of it instead of one per chunk, because LLVM's code generation
/// time grows faster than linearly with the size of the kernel (a mask
/// region of 1200 ops unrolled over 16 chunks: 7 s, 4000 ops: 122 s).
constexpr int64_t kMaxUnrolledMapOps = 4096;

CpuMapTilesOptions attic::resolveCpuMapTilesOptions(CpuMapTilesOptions options) {
  if (options.vectorWidth <= 0)
    options.vectorWidth = hostVectorWidth();
  // 32 registers (AVX-512) hold a 4x4 tile plus operands; 16 (AVX2, SSE)
  // hold 2x4.
  if (options.registerRows <= 0)
    options.registerRows = options.vectorWidth >= 16 ? 4 : 2;
  if (options.registerChunks <= 0)
    options.registerChunks = 4;
  return options;
}

namespace {

int64_t roundUp(int64_t x, int64_t multiple) {
  return (x + multiple - 1) / multiple * multiple;
}

//===----------------------------------------------------------------------===//
// Builder helpers
//===----------------------------------------------------------------------===//

/// Small helpers over an ImplicitLocOpBuilder, so that the kernels below
/// read like their pseudo-code.
class KernelBuilder {
public:
  KernelBuilder(ImplicitLocOpBuilder &b, int64_t width)
      : b(b), width(width), vectorType(VectorType::get({width}, b.getF32Type())) {}

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, v); }
  Value f32(float v) {
    return arith::ConstantFloatOp::create(b, b.getF32Type(), APFloat(v));
  }
  Value dim(Value memref, int64_t d) {
    return b.createOrFold<memref::DimOp>(memref, d);
  }
  Value minIdx(Value x, Value y) { return b.createOrFold<arith::MinSIOp>(x, y); }
  Value add(Value x, Value y) { return b.createOrFold<arith::AddIOp>(x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, index(y)) : x; }
  Value sub(Value x, Value y) { return b.createOrFold<arith::SubIOp>(x, y); }
  Value mul(Value x, Value y) { return b.createOrFold<arith::MulIOp>(x, y); }
  Value ceilDiv(Value x, Value y) {
    return b.createOrFold<arith::CeilDivSIOp>(x, y);
  }
  Value lessThan(Value x, Value y) {
    return b.createOrFold<arith::CmpIOp>(arith::CmpIPredicate::slt, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, c, x, y);
  }
  Value load(Value memref, ValueRange indices) {
    return memref::LoadOp::create(b, memref, indices);
  }
  /// Loads memref[indices] and extends it to f32.
  Value loadF32(Value memref, ValueRange indices) {
    Value v = load(memref, indices);
    if (v.getType().isF32())
      return v;
    return arith::ExtFOp::create(b, b.getF32Type(), v);
  }
  void store(Value v, Value memref, ValueRange indices) {
    memref::StoreOp::create(b, v, memref, indices);
  }
  Value vload(Value memref, ValueRange indices) {
    return vector::LoadOp::create(b, vectorType, memref, indices);
  }
  void vstore(Value v, Value memref, ValueRange indices) {
    vector::StoreOp::create(b, v, memref, indices);
  }
  /// Stores the lanes of `v` at memref[leading..., col + l] for the l with
  /// col + l < cols (the memref's last dim): a masked vector store when that
  /// dim is contiguous, else one guarded scalar store per lane.
  void storeLanes(Value v, Value memref, ValueRange leading, Value col,
                  Value cols) {
    auto type = cast<MemRefType>(memref.getType());
    int64_t offset = 0;
    SmallVector<int64_t> strides;
    SmallVector<Value> at(leading);
    if (succeeded(type.getStridesAndOffset(strides, offset)) &&
        strides.back() == 1) {
      at.push_back(col);
      Value limit = arith::SubIOp::create(b, cols, col);
      Value mask = vector::CreateMaskOp::create(
          b, VectorType::get({width}, b.getI1Type()), ValueRange{limit});
      vector::MaskedStoreOp::create(b, memref, at, mask, v);
      return;
    }
    at.push_back(Value());
    for (int64_t l = 0; l < width; ++l) {
      at.back() = add(col, l);
      auto ifCol = scf::IfOp::create(b, lessThan(at.back(), cols),
                                     /*withElseRegion=*/false);
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPoint(ifCol.thenBlock()->getTerminator());
      store(vector::ExtractOp::create(b, v, ArrayRef<int64_t>{l}), memref, at);
    }
  }
  Value splat(Value scalar) {
    return vector::BroadcastOp::create(
        b, VectorType::get({width}, scalar.getType()), scalar);
  }
  Value vzero() {
    return arith::ConstantOp::create(b, vectorType,
                                     DenseElementsAttr::get(vectorType, 0.0f));
  }
  Value fma(Value x, Value y, Value acc) {
    return vector::FMAOp::create(b, x, y, acc);
  }
  /// An f32 heap buffer, 64-byte aligned; static sizes stay static.
  Value alloc(ArrayRef<OpFoldResult> dims) {
    SmallVector<int64_t> shape;
    SmallVector<Value> dynamic;
    for (OpFoldResult d : dims) {
      if (std::optional<int64_t> c = getConstantIntValue(d)) {
        shape.push_back(*c);
      } else {
        shape.push_back(ShapedType::kDynamic);
        dynamic.push_back(cast<Value>(d));
      }
    }
    auto type = MemRefType::get(shape, b.getF32Type());
    return memref::AllocOp::create(b, type, dynamic, b.getI64IntegerAttr(64));
  }
  /// for (iv = lower; iv < upper; iv += step) body(iv)
  void loop(Value lower, Value upper, Value step,
            function_ref<void(Value)> body) {
    auto forOp = scf::ForOp::create(b, lower, upper, step);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forOp.getBody()->getTerminator());
    body(forOp.getInductionVar());
  }
  void loop(Value upper, function_ref<void(Value)> body) {
    loop(index(0), upper, index(1), body);
  }
  /// iter = init; for (iv = 0; iv < upper; ++iv) iter = body(iv, iter)
  SmallVector<Value>
  loopCarried(Value upper, ValueRange init,
              function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    auto forOp = scf::ForOp::create(
        b, index(0), upper, index(1), init,
        [&](OpBuilder &nested, Location, Value iv, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToEnd(nested.getInsertionBlock());
          scf::YieldOp::create(b, body(iv, args));
        });
    return SmallVector<Value>(forOp.getResults());
  }
  /// A register tile of `rows` x `chunks` vectors accumulated over
  /// [0, steps): acc[r * chunks + c] += splat(scalar(r, s)) * vec(c, s),
  /// the chunks' vectors loaded once per step. Returns the final tile.
  SmallVector<Value> outerProducts(Value steps, int64_t rows, int64_t chunks,
                                   ValueRange init,
                                   function_ref<Value(int64_t, Value)> scalar,
                                   function_ref<Value(int64_t, Value)> vec) {
    return loopCarried(steps, init, [&](Value s, ValueRange accs) {
      SmallVector<Value> vectors, next(accs);
      for (int64_t c = 0; c < chunks; ++c)
        vectors.push_back(vec(c, s));
      for (int64_t r = 0; r < rows; ++r) {
        Value x = splat(scalar(r, s));
        for (int64_t c = 0; c < chunks; ++c)
          next[r * chunks + c] = fma(x, vectors[c], next[r * chunks + c]);
      }
      return next;
    });
  }
  void parallel(ValueRange uppers, function_ref<void(ValueRange)> body) {
    SmallVector<Value> zeros(uppers.size(), index(0));
    SmallVector<Value> ones(uppers.size(), index(1));
    auto op = scf::ParallelOp::create(b, zeros, uppers, ones);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(op.getBody()->getTerminator());
    body(op.getInductionVars());
  }

  ImplicitLocOpBuilder &b;
  int64_t width;
  VectorType vectorType;
};

/// Column groups of a register tile: `chunks` vectors of W lanes in groups
/// of at most `perGroup`. Returns (first column, chunks).
SmallVector<std::pair<int64_t, int64_t>>
columnGroups(int64_t chunks, int64_t perGroup, int64_t width) {
  SmallVector<std::pair<int64_t, int64_t>> groups;
  for (int64_t c = 0; c < chunks; c += perGroup)
    groups.push_back({c * width, std::min(perGroup, chunks - c)});
  return groups;
}

//===----------------------------------------------------------------------===//
// Region vectorization
//===----------------------------------------------------------------------===//

/// Evaluates a map's region for W consecutive columns at once: argument
/// values that are vectors vary along the lanes, scalars are uniform.
/// Elementwise ops with a varying operand become vector ops (uniform
/// operands broadcast), loads with a varying index become gathers, and the
/// rest is cloned as scalars.
class RegionVectorizer {
public:
  RegionVectorizer(ImplicitLocOpBuilder &b, int64_t width)
      : b(b), width(width) {}

  FailureOr<SmallVector<Value>> run(Block &body, ArrayRef<Value> args) {
    IRMapping map;
    for (auto [arg, v] : llvm::zip(body.getArguments(), args))
      map.map(arg, v);
    for (Operation &op : body.without_terminator())
      if (failed(vectorize(op, map)))
        return failure();
    SmallVector<Value> results;
    for (Value v : body.getTerminator()->getOperands())
      results.push_back(map.lookupOrDefault(v));
    return results;
  }

  bool varies(Value v) { return isa<VectorType>(v.getType()); }

  /// `v` as a vector (broadcast when uniform).
  Value widen(Value v) {
    if (varies(v))
      return v;
    return vector::BroadcastOp::create(
        b, VectorType::get({width}, v.getType()), v);
  }

private:
  LogicalResult vectorize(Operation &op, IRMapping &map) {
    SmallVector<Value> operands;
    for (Value v : op.getOperands())
      operands.push_back(map.lookupOrDefault(v));
    bool anyVaries = llvm::any_of(operands, [&](Value v) { return varies(v); });
    if (!anyVaries && op.getNumRegions() == 0) {
      Operation *clone = b.clone(op, map);
      (void)clone;
      return success();
    }
    if (op.getNumRegions() != 0)
      return op.emitOpError("in a tile map region cannot be vectorized by "
                            "attic-cpu-map-tiles (ops with regions are not "
                            "supported there)");
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      map.map(load.getResult(), gather(load, operands));
      return success();
    }
    if (!op.hasTrait<OpTrait::Elementwise>())
      return op.emitOpError("in a tile map region is not elementwise, so "
                            "attic-cpu-map-tiles cannot vectorize it along "
                            "the columns");
    OperationState state(op.getLoc(), op.getName());
    for (Value v : operands)
      state.addOperands(widen(v));
    for (Type t : op.getResultTypes())
      state.addTypes(VectorType::get({width}, t));
    state.addAttributes(llvm::to_vector(op.getDiscardableAttrs()));
    state.propertiesAttr = op.getPropertiesAsAttribute();
    Operation *vectorOp = b.create(state);
    map.map(op.getResults(), vectorOp->getResults());
    return success();
  }

  /// memref[indices] with varying indices: a gather when only the last
  /// index varies and the innermost stride is 1, else one scalar load per
  /// lane. (vector-to-llvm lowers no gather from another stride: a key
  /// bias sliced to a size from the data, whose strides are dynamic, left
  /// 'vector.gather' unlowered; an audit.)
  Value gather(memref::LoadOp load, ArrayRef<Value> operands) {
    Value memref = operands[0];
    ArrayRef<Value> indices = operands.drop_front();
    Type elem = load.getType();
    auto resultType = VectorType::get({width}, elem);
    bool lastOnly = llvm::all_of(indices.drop_back(),
                                 [&](Value v) { return !varies(v); }) &&
                    !indices.empty();
    SmallVector<int64_t> strides;
    int64_t offset;
    bool unitInner = succeeded(cast<MemRefType>(memref.getType())
                                   .getStridesAndOffset(strides, offset)) &&
                     !strides.empty() && strides.back() == 1;
    // i1 elements are bytes in memory; LLVM gathers of i1 do not read them
    // as such, so they are loaded lane by lane.
    if (lastOnly && unitInner && !elem.isInteger(1)) {
      SmallVector<Value> base(indices.drop_back());
      base.push_back(arith::ConstantIndexOp::create(b, 0));
      auto maskType = VectorType::get({width}, b.getI1Type());
      Value mask = arith::ConstantOp::create(
          b, maskType, DenseElementsAttr::get(maskType, true));
      Value pass = arith::ConstantOp::create(
          b, resultType, DenseElementsAttr::get(resultType, b.getZeroAttr(elem)));
      return vector::GatherOp::create(b, resultType, memref, base,
                                      indices.back(), mask, pass);
    }
    Value result = arith::ConstantOp::create(
        b, resultType, DenseElementsAttr::get(resultType, b.getZeroAttr(elem)));
    for (int64_t lane = 0; lane < width; ++lane) {
      SmallVector<Value> at;
      for (Value v : indices)
        at.push_back(varies(v) ? vector::ExtractOp::create(
                                     b, v, ArrayRef<int64_t>{lane})
                                     .getResult()
                               : v);
      Value x = memref::LoadOp::create(b, memref, at);
      result = vector::InsertOp::create(b, x, result, ArrayRef<int64_t>{lane});
    }
    return result;
  }

  ImplicitLocOpBuilder &b;
  int64_t width;
};

//===----------------------------------------------------------------------===//
// One grid
//===----------------------------------------------------------------------===//

/// A scratch tile of the grid and its padded buffer.
struct Tile {
  Value buffer;
  int64_t rank;
  int64_t rows;     // logical rows (2-D) or elements (1-D)
  int64_t cols;     // logical columns (2-D; kDynamic allowed), else 0
  int64_t colsPad;  // static padded columns, kDynamic when dynamic
  Value colsPadValue;
};

/// Packed panels of one key or value source.
struct Panels {
  Value buffer;
  Value numKeyBlocks, heads;
};

class GridMapper {
public:
  GridMapper(scf::ParallelOp grid, const CpuMapTilesOptions &options)
      : grid(grid), options(options) {}

  LogicalResult run();

private:
  bool isRowLocal(Operation *op) {
    return isa<TileMapOp, TileMapRowsOp, TileReduceOp, TileStoreOp>(op);
  }
  LogicalResult packPanels();
  LogicalResult replaceScratch();
  LogicalResult mapBlock(Block &block);
  LogicalResult mapRowGroup(ArrayRef<Operation *> ops);
  LogicalResult mapQK(TileQKOp op);
  LogicalResult mapPV(TilePVOp op);
  LogicalResult mapCols(TileMapColsOp op);
  LogicalResult mapPool(TilePoolOp op);
  Value queryScratch(TileQKOp op, ImplicitLocOpBuilder &b);
  Value panelIndex(KernelBuilder &kb, const Panels &panels, Value batch,
                   Value head, Value block);
  Tile *tileOf(Value v) {
    auto it = tiles.find(v);
    return it == tiles.end() ? nullptr : &it->second;
  }

  scf::ParallelOp grid;
  CpuMapTilesOptions options;
  /// Old scratch alloc -> its padded replacement.
  llvm::MapVector<Value, Tile> tiles;
  /// (source memref, block size) -> panels.
  DenseMap<std::pair<Value, int64_t>, Panels> keyPanels, valuePanels;
  /// The hoisted f32 query scratch of each (query, batch, head, query block):
  /// keyed by the values, not by the tile.qk ops, which are erased as they
  /// are mapped.
  struct QueryScratch {
    Value query, batch, head, block;
    float scale; // query_scale, 1 without
    Value scratch;
  };
  SmallVector<QueryScratch> queryScratchOf;
  /// The tile ops of each scratch tile (pointers compared only: they are
  /// erased as they are mapped).
  DenseMap<Value, SmallPtrSet<Operation *, 8>> usersOf;
};

/// The padded columns of a tile with `cols` columns: whole vectors, or, for
/// wide or dynamic value tiles, whole column groups.
int64_t paddedCols(int64_t cols, const CpuMapTilesOptions &o) {
  int64_t width = o.vectorWidth;
  if (ShapedType::isDynamic(cols))
    return ShapedType::kDynamic;
  if (roundUp(cols, width) / width <= 4 * o.registerChunks)
    return roundUp(cols, width);
  return roundUp(cols, o.registerChunks * width);
}

LogicalResult GridMapper::run() {
  if (grid.getNumLoops() != 3)
    return attic::opError(grid, "is a tile grid with ")
           << grid.getNumLoops()
           << " loops; (batch, head, query block) expected";
  Block *body = grid.getBody();
  ImplicitLocOpBuilder b(grid.getLoc(), grid);
  KernelBuilder kb(b, options.vectorWidth);

  // Zig-zag over the query blocks: t -> t/2 for even t, n-1-t/2 for odd t.
  {
    Value qbIv = grid.getInductionVars()[2];
    Value n = grid.getUpperBound()[2];
    b.setInsertionPointToStart(body);
    Value two = kb.index(2);
    auto half = arith::DivUIOp::create(b, qbIv, two);
    auto rem = arith::RemUIOp::create(b, qbIv, two);
    Value odd = arith::CmpIOp::create(b, arith::CmpIPredicate::ne, rem,
                                      kb.index(0));
    Value zigzag = kb.select(
        odd, arith::SubIOp::create(b, arith::SubIOp::create(b, n, kb.index(1)),
                                   half),
        half);
    qbIv.replaceAllUsesExcept(
        zigzag, SmallPtrSet<Operation *, 2>{half.getOperation(),
                                            rem.getOperation()});
  }

  // Who uses each scratch tile, before any op is mapped (and erased).
  for (Operation &op : *body)
    if (auto alloc = dyn_cast<memref::AllocOp>(op))
      for (Operation *user : alloc->getUsers())
        if (!isa<memref::DeallocOp>(user))
          usersOf[alloc.getResult()].insert(user);

  if (failed(packPanels()) || failed(replaceScratch()))
    return failure();
  if (failed(mapBlock(*body)))
    return failure();
  for (auto &[old, tile] : tiles)
    old.getDefiningOp()->erase();
  grid->removeAttr(kTileGridAttrName);
  return success();
}

/// K and V panels for every source the grid's tile ops read, packed by a
/// parallel loop in front of the grid.
LogicalResult GridMapper::packPanels() {
  const int64_t width = options.vectorWidth;
  SmallVector<Operation *> users;
  grid.walk([&](Operation *op) {
    if (isa<TileQKOp, TilePVOp>(op))
      users.push_back(op);
  });
  ImplicitLocOpBuilder b(grid.getLoc(), grid);
  KernelBuilder kb(b, width);
  Value zero = kb.f32(0.0f);
  for (Operation *user : users) {
    bool isKey = isa<TileQKOp>(user);
    Value source = isKey ? cast<TileQKOp>(user).getKey()
                         : cast<TilePVOp>(user).getValue();
    int64_t blockK = isKey ? cast<TileQKOp>(user).getOut().getType().getDimSize(1)
                           : cast<TilePVOp>(user).getProbs().getType().getDimSize(1);
    auto &cache = isKey ? keyPanels : valuePanels;
    if (cache.count({source, blockK}))
      continue;
    // The source must be available in front of the grid.
    if (Operation *def = source.getDefiningOp())
      if (grid->isAncestor(def))
        return user->emitOpError("reads a key/value source defined inside "
                                 "the tile grid; attic-cpu-map-tiles packs "
                                 "sources in front of the grid");
    auto type = cast<MemRefType>(source.getType());
    Value batches = kb.dim(source, 0), heads = kb.dim(source, 1);
    Value len = kb.dim(source, 2);
    Value cols = kb.dim(source, 3);
    OpFoldResult colsOfr = type.isDynamicDim(3)
                               ? OpFoldResult(cols)
                               : OpFoldResult(b.getIndexAttr(type.getDimSize(3)));
    int64_t blockKPad = roundUp(blockK, width);
    Value blockKVal = kb.index(blockK);
    Value numKeyBlocks = kb.ceilDiv(len, blockKVal);
    Value count = kb.mul(kb.mul(batches, heads), numKeyBlocks);
    OpFoldResult bkPad = b.getIndexAttr(blockKPad);
    Value lastKey = kb.sub(len, kb.index(1));
    Value panels;
    if (isKey) {
      panels = kb.alloc({count, colsOfr, bkPad});
    } else {
      int64_t pad = paddedCols(type.getDimSize(3), options);
      OpFoldResult colsPad;
      if (!ShapedType::isDynamic(pad)) {
        colsPad = b.getIndexAttr(pad);
      } else {
        Value group = kb.index(options.registerChunks * width);
        colsPad = kb.mul(kb.ceilDiv(cols, group), group);
      }
      panels = kb.alloc({count, bkPad, colsPad});
    }
    kb.parallel({batches, heads, numKeyBlocks}, [&](ValueRange ivs) {
      Value p = kb.add(kb.mul(kb.add(kb.mul(ivs[0], heads), ivs[1]),
                              numKeyBlocks),
                       ivs[2]);
      Value k0 = kb.mul(ivs[2], blockKVal);
      Value keysInBlock = kb.minIdx(blockKVal, kb.sub(len, k0));
      kb.loop(kb.index(blockKPad), [&](Value j) {
        // Keys past the block or the sequence read the last key (in
        // bounds) and are stored as zeros.
        Value valid = kb.lessThan(j, keysInBlock);
        Value row = kb.minIdx(kb.add(k0, j), lastKey);
        if (isKey) {
          kb.loop(cols, [&](Value d) {
            Value k = kb.loadF32(source, {ivs[0], ivs[1], row, d});
            kb.store(kb.select(valid, k, zero), panels, {p, d, j});
          });
        } else {
          Value colsPad = kb.dim(panels, 2);
          kb.loop(colsPad, [&](Value c) {
            Value inside = kb.lessThan(c, cols);
            Value col = kb.minIdx(c, kb.sub(cols, kb.index(1)));
            Value v = kb.loadF32(source, {ivs[0], ivs[1], row, col});
            Value keep = arith::AndIOp::create(b, valid, inside);
            kb.store(kb.select(keep, v, zero), panels, {p, j, c});
          });
        }
      });
    });
    cache[{source, blockK}] = Panels{panels, numKeyBlocks, heads};
    b.setInsertionPointAfter(grid);
    memref::DeallocOp::create(b, panels);
    b.setInsertionPoint(grid);
  }
  return success();
}

/// Every memref.alloc in the grid's body whose users are tile ops becomes
/// a padded buffer; its dealloc follows.
LogicalResult GridMapper::replaceScratch() {
  const int64_t width = options.vectorWidth;
  const int64_t rowsPad = options.registerRows;
  SmallVector<memref::AllocOp> allocs;
  for (Operation &op : *grid.getBody())
    if (auto alloc = dyn_cast<memref::AllocOp>(op))
      allocs.push_back(alloc);
  for (memref::AllocOp alloc : allocs) {
    MemRefType type = alloc.getType();
    ImplicitLocOpBuilder b(alloc.getLoc(), alloc);
    KernelBuilder kb(b, width);
    Tile tile;
    tile.rank = type.getRank();
    if (tile.rank == 1) {
      tile.rows = type.getDimSize(0);
      tile.cols = 0;
      tile.colsPad = 0;
      // Whole vectors (a key tile, the term, is read and written as the
      // score tile's chunks) and whole register tiles (row tiles, per
      // register tile of rows): with widths that do not divide each other
      // (3 register rows, 2 lanes) one multiple of the larger is not
      // enough.
      int64_t pad =
          std::max(roundUp(tile.rows, width), roundUp(tile.rows, rowsPad));
      tile.buffer = kb.alloc({b.getIndexAttr(pad)});
    } else {
      tile.rows = type.getDimSize(0);
      tile.cols = type.getDimSize(1);
      // A score tile (written by tile.qk; its columns are the block's
      // keys) has whole vectors only, as the key panels it is computed
      // from and the 1-D key tiles (the term) it is combined with: wider
      // padding would read past them, and its reductions would see the
      // extra columns.
      bool keyColumns = llvm::any_of(alloc->getUses(), [](OpOperand &use) {
        auto qk = dyn_cast<TileQKOp>(use.getOwner());
        return qk && use.get() == qk.getOut();
      });
      tile.colsPad = keyColumns && !ShapedType::isDynamic(tile.cols)
                         ? roundUp(tile.cols, width)
                         : paddedCols(tile.cols, options);
      OpFoldResult colsPad;
      if (!ShapedType::isDynamic(tile.colsPad)) {
        colsPad = b.getIndexAttr(tile.colsPad);
      } else {
        Value group = kb.index(options.registerChunks * width);
        colsPad = kb.mul(kb.ceilDiv(alloc.getDynamicSizes().front(), group),
                         group);
      }
      tile.colsPadValue = getValueOrCreateConstantIndexOp(b, b.getLoc(), colsPad);
      tile.buffer =
          kb.alloc({b.getIndexAttr(roundUp(tile.rows, rowsPad)), colsPad});
    }
    tiles[alloc.getResult()] = tile;
    // Uses: tile ops (and the regions' captured reads are not allowed to
    // touch scratch), and one dealloc.
    for (OpOperand &use : llvm::make_early_inc_range(alloc->getUses())) {
      Operation *user = use.getOwner();
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        dealloc.getMemrefMutable().assign(tile.buffer);
        continue;
      }
      if (!isa<AtticDialect>(user->getDialect()))
        return user->emitOpError("uses a scratch tile of the tile grid; "
                                 "attic-cpu-map-tiles supports only attic.tile "
                                 "ops on scratch tiles");
    }
  }
  return success();
}

/// The f32 query block of a tile.qk, computed once per grid iteration when
/// its coordinates allow it (else in front of the op).
Value GridMapper::queryScratch(TileQKOp op, ImplicitLocOpBuilder &b) {
  std::optional<APFloat> queryScale = op.getQueryScale();
  float scale = queryScale ? queryScale->convertToFloat() : 1.0f;
  for (const QueryScratch &known : queryScratchOf)
    if (known.query == op.getQuery() && known.batch == op.getQueryBatch() &&
        known.head == op.getQueryHead() && known.block == op.getQueryBlock() &&
        known.scale == scale)
      return known.scratch;
  // Once per grid iteration: in front of the op's ancestor in the grid
  // body, when the coordinates are defined before it; else at the op.
  Block *body = grid.getBody();
  Operation *anchor = body->findAncestorOpInBlock(*op);
  bool hoistable = true;
  for (Value v : {op.getQueryBatch(), op.getQueryHead(), op.getQueryBlock()}) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      hoistable &= arg.getOwner() == body ||
                   !grid->isAncestor(arg.getOwner()->getParentOp());
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (grid->isAncestor(def))
      hoistable &= def->getBlock() == body && def->isBeforeInBlock(anchor);
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(hoistable ? anchor : op.getOperation());
  KernelBuilder kb(b, options.vectorWidth);
  Value query = op.getQuery();
  auto type = cast<MemRefType>(query.getType());
  int64_t rows = op.getOut().getType().getDimSize(0);
  int64_t rowsPad = roundUp(rows, options.registerRows);
  OpFoldResult headDim = type.isDynamicDim(3)
                             ? OpFoldResult(kb.dim(query, 3))
                             : OpFoldResult(b.getIndexAttr(type.getDimSize(3)));
  Value scratch = kb.alloc({b.getIndexAttr(rowsPad), headDim});
  Value queryLen = kb.dim(query, 2);
  Value q0 = kb.mul(op.getQueryBlock(), kb.index(rows));
  Value rowsInBlock = kb.minIdx(kb.index(rows), kb.sub(queryLen, q0));
  Value lastRow = kb.sub(queryLen, kb.index(1));
  Value zero = kb.f32(0.0f);
  kb.loop(kb.index(rowsPad), [&](Value i) {
    Value valid = kb.lessThan(i, rowsInBlock);
    Value row = kb.minIdx(kb.add(q0, i), lastRow);
    kb.loop(kb.dim(query, 3), [&](Value d) {
      Value q = kb.loadF32(query, {op.getQueryBatch(), op.getQueryHead(), row, d});
      // A power of two: exact in f32 (see attic.tile.qk).
      if (queryScale)
        q = arith::MulFOp::create(b, q, kb.f32(scale));
      kb.store(kb.select(valid, q, zero), scratch, {i, d});
    });
  });
  if (hoistable)
    queryScratchOf.push_back({op.getQuery(), op.getQueryBatch(),
                              op.getQueryHead(), op.getQueryBlock(), scale,
                              scratch});
  // Freed at the end of the grid body.
  b.setInsertionPoint(grid.getBody()->getTerminator());
  memref::DeallocOp::create(b, scratch);
  return scratch;
}

Value GridMapper::panelIndex(KernelBuilder &kb, const Panels &panels,
                             Value batch, Value head, Value block) {
  return kb.add(kb.mul(kb.add(kb.mul(batch, panels.heads), head),
                       panels.numKeyBlocks),
                block);
}

/// S = Q K^T: register tiles of R rows x up to C vectors, FMA over D.
LogicalResult GridMapper::mapQK(TileQKOp op) {
  const int64_t width = options.vectorWidth;
  const int64_t tileRows = options.registerRows;
  const int64_t tileChunks = options.registerChunks;
  ImplicitLocOpBuilder b(op.getLoc(), op);
  KernelBuilder kb(b, width);
  Tile *out = tileOf(op.getOut());
  if (!out)
    return op.emitOpError("writes a tile that is not a scratch tile of its "
                          "grid");
  int64_t blockK = out->cols;
  const Panels &panels = keyPanels[{op.getKey(), blockK}];
  Value qs = queryScratch(op, b);
  Value p = panelIndex(kb, panels, op.getKeyBatch(), op.getKeyHead(),
                       op.getKeyBlock());
  Value headDim = kb.dim(qs, 1);
  int64_t rowsPad = roundUp(out->rows, tileRows);
  int64_t keyChunks = out->colsPad / width;
  Value scores = out->buffer;
  // One register tile of `chunks` vectors from column col0: a loop over D.
  auto product = [&](Value r0, Value col0, int64_t chunks) {
    SmallVector<Value> init(tileRows * chunks, kb.vzero());
    SmallVector<Value> tile = kb.outerProducts(
        headDim, tileRows, chunks, init,
        [&](int64_t r, Value d) {
          return kb.load(qs, {kb.add(r0, r), d});
        },
        [&](int64_t c, Value d) {
          return kb.vload(panels.buffer, {p, d, kb.add(col0, c * width)});
        });
    for (int64_t r = 0; r < tileRows; ++r)
      for (int64_t c = 0; c < chunks; ++c)
        kb.vstore(tile[r * chunks + c], scores,
                  {kb.add(r0, r), kb.add(col0, c * width)});
  };
  // Up to 4 register tiles across the block are unrolled; more are a loop
  // (and the remainder tile): one D loop per tile, each of which LLVM
  // unrolls, made compile time grow with the key block (one-lane vectors,
  // one per tile: 128 keys compiled in 30 s, 256 in 74 s).
  const int64_t groupWidth = tileChunks * width;
  kb.loop(kb.index(0), kb.index(rowsPad), kb.index(tileRows), [&](Value r0) {
    if (keyChunks <= 4 * tileChunks) {
      for (auto [col0, chunks] : columnGroups(keyChunks, tileChunks, width))
        product(r0, kb.index(col0), chunks);
      return;
    }
    int64_t whole = keyChunks / tileChunks;
    kb.loop(kb.index(0), kb.index(whole * groupWidth), kb.index(groupWidth),
            [&](Value col0) { product(r0, col0, tileChunks); });
    if (int64_t rest = keyChunks % tileChunks)
      product(r0, kb.index(whole * groupWidth), rest);
  });
  op.erase();
  return success();
}

/// acc = alpha * acc + P V: register tiles over V's columns, FMA over the
/// keys of the block.
LogicalResult GridMapper::mapPV(TilePVOp op) {
  const int64_t width = options.vectorWidth;
  const int64_t tileRows = options.registerRows;
  const int64_t tileChunks = options.registerChunks;
  ImplicitLocOpBuilder b(op.getLoc(), op);
  KernelBuilder kb(b, width);
  Tile *probs = tileOf(op.getProbs()), *acc = tileOf(op.getAcc());
  Tile *rescale = tileOf(op.getRescale());
  if (!probs || !acc || !rescale)
    return op.emitOpError("uses a tile that is not a scratch tile of its grid");
  int64_t blockK = probs->cols;
  const Panels &panels = valuePanels[{op.getValue(), blockK}];
  Value p = panelIndex(kb, panels, op.getValueBatch(), op.getValueHead(),
                       op.getValueBlock());
  Value keyLen = kb.dim(op.getValue(), 2);
  Value k0 = kb.mul(op.getValueBlock(), kb.index(blockK));
  Value keysInBlock = kb.minIdx(kb.index(blockK), kb.sub(keyLen, k0));
  int64_t rowsPad = roundUp(acc->rows, tileRows);
  const int64_t groupWidth = tileChunks * width;
  bool unrolled = !ShapedType::isDynamic(acc->colsPad) &&
                  acc->colsPad / width <= 4 * tileChunks;

  auto accumulate = [&](Value r0, Value col0, int64_t chunks) {
    SmallVector<Value> init;
    for (int64_t r = 0; r < tileRows; ++r) {
      Value row = kb.add(r0, r);
      Value alpha = kb.splat(kb.load(rescale->buffer, {row}));
      for (int64_t c = 0; c < chunks; ++c)
        init.push_back(arith::MulFOp::create(
            b, kb.vload(acc->buffer, {row, kb.add(col0, c * width)}), alpha));
    }
    SmallVector<Value> tile = kb.outerProducts(
        keysInBlock, tileRows, chunks, init,
        [&](int64_t r, Value j) {
          return kb.load(probs->buffer, {kb.add(r0, r), j});
        },
        [&](int64_t c, Value j) {
          return kb.vload(panels.buffer, {p, j, kb.add(col0, c * width)});
        });
    for (int64_t r = 0; r < tileRows; ++r)
      for (int64_t c = 0; c < chunks; ++c)
        kb.vstore(tile[r * chunks + c], acc->buffer,
                  {kb.add(r0, r), kb.add(col0, c * width)});
  };
  kb.loop(kb.index(0), kb.index(rowsPad), kb.index(tileRows), [&](Value r0) {
    if (unrolled) {
      for (auto [col0, chunks] :
           columnGroups(acc->colsPad / width, tileChunks, width))
        accumulate(r0, kb.index(col0), chunks);
    } else {
      kb.loop(kb.index(0), acc->colsPadValue, kb.index(groupWidth),
              [&](Value col0) { accumulate(r0, col0, tileChunks); });
    }
  });
  op.erase();
  return success();
}

/// The pooled epilogue from the result tile, while it is in cache: per
/// chunk of W columns, the rows of the block in ascending order, each
/// rounded to the stored element type as attic.tile.store wrote it.
LogicalResult GridMapper::mapPool(TilePoolOp op) {
  const int64_t width = options.vectorWidth;
  ImplicitLocOpBuilder b(op.getLoc(), op);
  KernelBuilder kb(b, width);
  Tile *tile = tileOf(op.getTile());
  if (!tile)
    return op.emitOpError("uses a tile that is not a scratch tile of its grid");
  Value stored = op.getStored(), pooled = op.getPooled();
  Type elem = cast<MemRefType>(stored.getType()).getElementType();
  Value q0 = kb.mul(op.getQueryBlock(), kb.index(tile->rows));
  Value rows = kb.minIdx(kb.index(tile->rows), kb.sub(kb.dim(stored, 2), q0));
  Value cols = kb.dim(pooled, 3);
  auto roundedType = VectorType::get({width}, elem);
  kb.loop(kb.index(0), tile->colsPadValue, kb.index(width), [&](Value col) {
    Value sum = kb.loopCarried(rows, kb.vzero(), [&](Value i, ValueRange acc) {
      Value w = kb.splat(kb.load(op.getWeights(),
                                 {op.getBatch(), kb.add(q0, i)}));
      Value x = kb.vload(tile->buffer, {i, col});
      if (!elem.isF32())
        x = arith::ExtFOp::create(b, kb.vectorType,
                                  arith::TruncFOp::create(b, roundedType, x).getResult());
      return SmallVector<Value>{kb.fma(w, x, acc[0])};
    })[0];
    kb.storeLanes(sum, pooled,
                  {op.getBatch(), op.getHead(), op.getQueryBlock()}, col, cols);
  });
  op.erase();
  return success();
}

/// One vectorized pass over the (padded) columns.
LogicalResult GridMapper::mapCols(TileMapColsOp op) {
  const int64_t width = options.vectorWidth;
  ImplicitLocOpBuilder b(op.getLoc(), op);
  KernelBuilder kb(b, width);
  SmallVector<Tile *> ins, outs;
  for (Value v : op.getInputs())
    ins.push_back(tileOf(v));
  for (Value v : op.getOutputs())
    outs.push_back(tileOf(v));
  if (llvm::is_contained(ins, nullptr) || llvm::is_contained(outs, nullptr))
    return op.emitOpError("uses a tile that is not a scratch tile of its grid");
  int64_t padded = cast<MemRefType>(outs.front()->buffer.getType()).getDimSize(0);
  SmallVector<int64_t> lanes(width);
  for (int64_t i = 0; i < width; ++i)
    lanes[i] = i;
  auto laneType = VectorType::get({width}, b.getIndexType());
  Value iota = arith::ConstantOp::create(
      b, laneType, DenseElementsAttr::get(laneType, ArrayRef(lanes)));
  RegionVectorizer vectorizer(b, width);
  for (int64_t c = 0; c < padded / width; ++c) {
    Value col = kb.index(c * width);
    SmallVector<Value> args = {arith::AddIOp::create(
        b, kb.splat(kb.add(op.getColOffset(), c * width)), iota)};
    for (Tile *t : ins)
      args.push_back(kb.vload(t->buffer, {col}));
    for (Tile *t : outs)
      args.push_back(kb.vload(t->buffer, {col}));
    FailureOr<SmallVector<Value>> results =
        vectorizer.run(op.getBody().front(), args);
    if (failed(results))
      return failure();
    for (auto [t, v] : llvm::zip(outs, *results))
      kb.vstore(vectorizer.widen(v), t->buffer, {col});
  }
  op.erase();
  return success();
}

/// Consecutive row-local ops as one loop over the rows: per row, the
/// chunks of the tiles stay in registers from one op to the next; tiles
/// that no op outside the group reads are not stored.
LogicalResult GridMapper::mapRowGroup(ArrayRef<Operation *> ops) {
  const int64_t width = options.vectorWidth;
  Operation *first = ops.front();
  ImplicitLocOpBuilder b(first->getLoc(), first);
  KernelBuilder kb(b, width);

  // Tiles this group touches, and whether something outside reads them.
  llvm::DenseSet<Operation *> inGroup(ops.begin(), ops.end());
  auto readOutside = [&](Value oldTile) {
    for (Operation *user : usersOf[oldTile])
      if (!inGroup.count(user))
        return true;
    return false;
  };
  // A tile whose first access in the group is a read keeps its value from
  // before: it is live on entry, so it is also stored (it may be read by
  // the group's next run, e.g. m and l across key blocks).
  llvm::DenseSet<Value> written, readFirst;
  auto noteRead = [&](Value t) {
    if (!written.count(t))
      readFirst.insert(t);
  };
  for (Operation *op : ops) {
    if (auto map = dyn_cast<TileMapOp>(op)) {
      for (Value v : map.getInputs()) noteRead(v);
      for (Value v : map.getRows()) noteRead(v);
      for (Value v : map.getCols()) noteRead(v);
      // The region may read the old value of an output.
      for (auto [i, v] : llvm::enumerate(map.getOutputs()))
        if (!map.getBody().front().getArgument(2 + map.getInputs().size() +
                                               map.getRows().size() +
                                               map.getCols().size() + i)
                 .use_empty())
          noteRead(v);
      for (Value v : map.getOutputs()) written.insert(v);
    } else if (auto rows = dyn_cast<TileMapRowsOp>(op)) {
      for (Value v : rows.getInputs()) noteRead(v);
      for (auto [i, v] : llvm::enumerate(rows.getOutputs()))
        if (!rows.getBody().front().getArgument(1 + rows.getInputs().size() + i)
                 .use_empty())
          noteRead(v);
      for (Value v : rows.getOutputs()) written.insert(v);
    } else if (auto reduce = dyn_cast<TileReduceOp>(op)) {
      noteRead(reduce.getInput());
      written.insert(reduce.getOut());
    } else if (auto store = dyn_cast<TileStoreOp>(op)) {
      noteRead(store.getTile());
    }
  }
  for (Value t : written)
    if (!tileOf(t))
      return first->emitOpError("writes a tile that is not a scratch tile of "
                                "its grid");
  for (Value t : readFirst)
    if (!tileOf(t))
      return first->emitOpError("reads a tile that is not a scratch tile of "
                                "its grid");

  // Rows: R of the group's row-indexed tiles (they all have the same).
  int64_t rows = 0;
  for (Operation *op : ops) {
    Value t;
    if (auto map = dyn_cast<TileMapOp>(op))
      t = map.getOutputs().front();
    else if (auto m = dyn_cast<TileMapRowsOp>(op))
      t = m.getOutputs().front();
    else if (auto reduce = dyn_cast<TileReduceOp>(op))
      t = reduce.getInput();
    else
      t = cast<TileStoreOp>(op).getTile();
    rows = std::max(rows, tileOf(t)->rows);
  }
  int64_t rowsPad = roundUp(rows, options.registerRows);

  SmallVector<int64_t> lanes(width);
  for (int64_t i = 0; i < width; ++i)
    lanes[i] = i;
  auto laneType = VectorType::get({width}, b.getIndexType());
  Value iota = arith::ConstantOp::create(
      b, laneType, DenseElementsAttr::get(laneType, ArrayRef(lanes)));
  Value negInf = kb.f32(-std::numeric_limits<float>::infinity());
  Value zero = kb.f32(0.0f);

  LogicalResult status = success();
  kb.loop(kb.index(rowsPad), [&](Value i) {
    RegionVectorizer vectorizer(b, width);
    // (tile, chunk) -> vector; (tile, -1) -> scalar of a 1-D tile.
    DenseMap<std::pair<Value, int64_t>, Value> cache;
    llvm::SetVector<std::pair<Value, int64_t>> dirty;
    auto chunkOf = [&](Value t, int64_t c) -> Value {
      auto key = std::make_pair(t, c);
      if (Value v = cache.lookup(key))
        return v;
      Tile *tile = tileOf(t);
      Value v = tile->rank == 2
                    ? kb.vload(tile->buffer, {i, kb.index(c * width)})
                    : kb.vload(tile->buffer, {kb.index(c * width)});
      cache[key] = v;
      return v;
    };
    auto scalarOf = [&](Value t) -> Value {
      auto key = std::make_pair(t, int64_t(-1));
      if (Value v = cache.lookup(key))
        return v;
      Value v = kb.load(tileOf(t)->buffer, {i});
      cache[key] = v;
      return v;
    };
    auto setChunk = [&](Value t, int64_t c, Value v) {
      cache[{t, c}] = v;
      dirty.insert({t, c});
    };
    auto setScalar = [&](Value t, Value v) {
      cache[{t, -1}] = v;
      dirty.insert({t, -1});
    };
    auto chunks = [&](Value t) { return tileOf(t)->colsPad / width; };
    // `map` over columns [0, end) of this row in a loop over its chunks,
    // on the tiles' memory (none of its chunks may be held in registers).
    auto mapOnMemory = [&](TileMapOp map, Value end) {
      SmallVector<Value> rowValues;
      for (Value v : map.getRows())
        rowValues.push_back(scalarOf(v));
      Value q = kb.add(map.getRowOffset(), i);
      kb.loop(kb.index(0), end, kb.index(width), [&](Value col) {
        SmallVector<Value> args = {
            q, arith::AddIOp::create(
                   b, kb.splat(kb.add(map.getColOffset(), col)), iota)};
        for (Value v : map.getInputs())
          args.push_back(kb.vload(tileOf(v)->buffer, {i, col}));
        llvm::append_range(args, rowValues);
        for (Value v : map.getCols())
          args.push_back(kb.vload(tileOf(v)->buffer, {col}));
        for (Value v : map.getOutputs())
          args.push_back(kb.vload(tileOf(v)->buffer, {i, col}));
        FailureOr<SmallVector<Value>> results =
            vectorizer.run(map.getBody().front(), args);
        if (failed(results)) {
          status = failure();
          return;
        }
        for (auto [t, v] : llvm::zip(map.getOutputs(), *results))
          kb.vstore(vectorizer.widen(v), tileOf(t)->buffer, {i, col});
      });
    };
    for (Operation *op : ops) {
      if (failed(status))
        return;
      auto isDynamic = [&](Value t) {
        return ShapedType::isDynamic(tileOf(t)->colsPad);
      };
      if (auto map = dyn_cast<TileMapOp>(op);
          map && isDynamic(map.getOutputs().front())) {
        // A tile of dynamic width (the value columns): a loop over its
        // chunks, on memory (its chunks are never cached).
        mapOnMemory(map, tileOf(map.getOutputs().front())->colsPadValue);
      } else if (auto store = dyn_cast<TileStoreOp>(op);
                 store && tileOf(store.getTile())->rank == 1) {
        // One value per row (the log-sum-exp) into out[b, h, q].
        Tile *tile = tileOf(store.getTile());
        Value out = store.getOut();
        Value q0 = kb.mul(store.getQueryBlock(), kb.index(tile->rows));
        Value row = kb.add(q0, i);
        Value inside = kb.lessThan(
            row, kb.minIdx(kb.dim(out, 2), kb.add(q0, tile->rows)));
        Value v = scalarOf(store.getTile());
        auto ifRow = scf::IfOp::create(b, inside, /*withElseRegion=*/false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(ifRow.thenBlock()->getTerminator());
        kb.store(v, out, {store.getBatch(), store.getHead(), row});
      } else if (auto store = dyn_cast<TileStoreOp>(op);
                 store && isDynamic(store.getTile())) {
        Tile *tile = tileOf(store.getTile());
        Value out = store.getOut();
        Value q0 = kb.mul(store.getQueryBlock(), kb.index(tile->rows));
        Value row = kb.add(q0, i);
        Value inside = kb.lessThan(
            row, kb.minIdx(kb.dim(out, 2), kb.add(q0, tile->rows)));
        auto ifRow = scf::IfOp::create(b, inside, /*withElseRegion=*/false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(ifRow.thenBlock()->getTerminator());
        Type elem = cast<MemRefType>(out.getType()).getElementType();
        kb.loop(kb.dim(out, 3), [&](Value col) {
          Value v = kb.load(tile->buffer, {i, col});
          if (!elem.isF32())
            v = arith::TruncFOp::create(b, elem, v);
          kb.store(v, out, {store.getBatch(), store.getHead(), row, col});
        });
      } else if (auto map = dyn_cast<TileMapOp>(op);
                 map && chunks(map.getOutputs().front()) > 1 &&
                 (static_cast<int64_t>(
                      map.getBody().front().getOperations().size()) -
                  1) * chunks(map.getOutputs().front()) >
                     kMaxUnrolledMapOps) {
        // A long region: one loop over the chunks, on memory. The chunks
        // of its tiles that the group holds in registers are stored first;
        // its outputs are then read back from memory by the ops after it.
        for (Value t : llvm::concat<Value>(map.getInputs(), map.getOutputs()))
          for (int64_t c = 0, e = chunks(t); c < e; ++c) {
            auto key = std::make_pair(t, c);
            if (!dirty.contains(key))
              continue;
            kb.vstore(cache[key], tileOf(t)->buffer, {i, kb.index(c * width)});
            dirty.remove(key);
          }
        for (Value t : map.getOutputs())
          for (int64_t c = 0, e = chunks(t); c < e; ++c)
            cache.erase({t, c});
        mapOnMemory(map, kb.index(chunks(map.getOutputs().front()) * width));
      } else if (auto map = dyn_cast<TileMapOp>(op)) {
        Value q = kb.add(map.getRowOffset(), i);
        int64_t n = chunks(map.getOutputs().front());
        for (int64_t c = 0; c < n; ++c) {
          SmallVector<Value> args = {
              q, arith::AddIOp::create(
                     b, kb.splat(kb.add(map.getColOffset(), c * width)), iota)};
          for (Value v : map.getInputs())
            args.push_back(chunkOf(v, c));
          for (Value v : map.getRows())
            args.push_back(scalarOf(v));
          for (Value v : map.getCols())
            args.push_back(kb.vload(tileOf(v)->buffer, {kb.index(c * width)}));
          for (Value v : map.getOutputs())
            args.push_back(chunkOf(v, c));
          FailureOr<SmallVector<Value>> results =
              vectorizer.run(map.getBody().front(), args);
          if (failed(results)) {
            status = failure();
            return;
          }
          for (auto [t, v] : llvm::zip(map.getOutputs(), *results))
            setChunk(t, c, vectorizer.widen(v));
        }
      } else if (auto rowsOp = dyn_cast<TileMapRowsOp>(op)) {
        SmallVector<Value> args = {kb.add(rowsOp.getRowOffset(), i)};
        for (Value v : rowsOp.getInputs())
          args.push_back(scalarOf(v));
        for (Value v : rowsOp.getOutputs())
          args.push_back(scalarOf(v));
        IRMapping map;
        Block &body = rowsOp.getBody().front();
        for (auto [arg, v] : llvm::zip(body.getArguments(), args))
          map.map(arg, v);
        for (Operation &inner : body.without_terminator())
          b.clone(inner, map);
        for (auto [t, v] : llvm::zip(rowsOp.getOutputs(),
                                     body.getTerminator()->getOperands()))
          setScalar(t, map.lookupOrDefault(v));
      } else if (auto reduce = dyn_cast<TileReduceOp>(op)) {
        Tile *in = tileOf(reduce.getInput());
        if (ShapedType::isDynamic(in->colsPad)) {
          status = reduce.emitOpError(
              "reduces a tile of dynamic width; attic-cpu-map-tiles needs "
              "static reduced tiles (the key block)");
          return;
        }
        bool isMax = reduce.getKind() == TileReduceKind::Max;
        Value identity = isMax ? negInf : zero;
        int64_t n = chunks(reduce.getInput());
        int64_t realLanes = in->cols - (n - 1) * width; // in the last chunk
        Value total;
        for (int64_t c = 0; c < n; ++c) {
          Value v = chunkOf(reduce.getInput(), c);
          if (c == n - 1 && realLanes < width) {
            SmallVector<bool> keep(width);
            for (int64_t l = 0; l < width; ++l)
              keep[l] = l < realLanes;
            auto maskType = VectorType::get({width}, b.getI1Type());
            Value mask = arith::ConstantOp::create(
                b, maskType, DenseElementsAttr::get(maskType, ArrayRef(keep)));
            v = kb.select(mask, v, kb.splat(identity));
          }
          if (!total) {
            total = v;
          } else if (isMax) {
            // x > m ? x : m: a maxps, no NaN fix-ups (the tile op leaves a
            // NaN row's maximum unspecified).
            Value greater = arith::CmpFOp::create(b, arith::CmpFPredicate::OGT,
                                                  v, total);
            total = kb.select(greater, v, total);
          } else {
            total = arith::AddFOp::create(b, total, v,
                                          arith::FastMathFlags::reassoc);
          }
        }
        // Across the lanes: halve the vector until one lane is left.
        for (int64_t half = width / 2; half >= 1; half /= 2) {
          SmallVector<int64_t> mask(width);
          for (int64_t l = 0; l < width; ++l)
            mask[l] = (l + half) % width;
          Value other = vector::ShuffleOp::create(b, total, total, mask);
          if (isMax) {
            Value greater = arith::CmpFOp::create(
                b, arith::CmpFPredicate::OGT, other, total);
            total = kb.select(greater, other, total);
          } else {
            total = arith::AddFOp::create(b, total, other,
                                          arith::FastMathFlags::reassoc);
          }
        }
        setScalar(reduce.getOut(),
                  vector::ExtractOp::create(b, total, ArrayRef<int64_t>{0}));
      } else if (auto store = dyn_cast<TileStoreOp>(op)) {
        Tile *tile = tileOf(store.getTile());
        Value out = store.getOut();
        auto outType = cast<MemRefType>(out.getType());
        Value queryLen = kb.dim(out, 2);
        Value q0 = kb.mul(store.getQueryBlock(), kb.index(tile->rows));
        Value row = kb.add(q0, i);
        Value inside =
            kb.lessThan(row, kb.minIdx(queryLen, kb.add(q0, tile->rows)));
        // Chunks are taken (from registers when the group computed them)
        // in front of the branch, so that the cache stays valid after it.
        int64_t n = chunks(store.getTile());
        SmallVector<Value> values;
        for (int64_t c = 0; c < n; ++c)
          values.push_back(chunkOf(store.getTile(), c));
        auto ifRow = scf::IfOp::create(b, inside, /*withElseRegion=*/false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(ifRow.thenBlock()->getTerminator());
        Type elem = outType.getElementType();
        Value cols = kb.dim(out, 3);
        for (int64_t c = 0; c < n; ++c) {
          Value v = values[c];
          if (!elem.isF32())
            v = arith::TruncFOp::create(b, VectorType::get({width}, elem), v);
          kb.storeLanes(v, out, {store.getBatch(), store.getHead(), row},
                        kb.index(c * width), cols);
        }
      }
    }
    // Store what outlives the group.
    for (auto [t, c] : dirty) {
      if (!readOutside(t) && !readFirst.count(t))
        continue;
      Value v = cache[{t, c}];
      Tile *tile = tileOf(t);
      if (c < 0)
        kb.store(v, tile->buffer, {i});
      else
        kb.vstore(v, tile->buffer, {i, kb.index(c * width)});
    }
  });
  if (failed(status))
    return failure();
  for (Operation *op : ops)
    op->erase();
  return success();
}

LogicalResult GridMapper::mapBlock(Block &block) {
  SmallVector<Operation *> group;
  auto flush = [&]() -> LogicalResult {
    if (group.empty())
      return success();
    LogicalResult result = mapRowGroup(group);
    group.clear();
    return result;
  };
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (isRowLocal(&op)) {
      // Value tiles of dynamic width are mapped alone (a loop over chunks).
      group.push_back(&op);
      continue;
    }
    if (failed(flush()))
      return failure();
    if (auto qk = dyn_cast<TileQKOp>(op)) {
      if (failed(mapQK(qk)))
        return failure();
    } else if (auto pv = dyn_cast<TilePVOp>(op)) {
      if (failed(mapPV(pv)))
        return failure();
    } else if (auto cols = dyn_cast<TileMapColsOp>(op)) {
      if (failed(mapCols(cols)))
        return failure();
    } else if (auto pool = dyn_cast<TilePoolOp>(op)) {
      if (failed(mapPool(pool)))
        return failure();
    } else {
      for (Region &region : op.getRegions())
        for (Block &inner : region)
          if (failed(mapBlock(inner)))
            return failure();
    }
  }
  return flush();
}

struct AtticCpuMapTilesPass
    : public attic::impl::AtticCpuMapTilesBase<AtticCpuMapTilesPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    std::string bad = attic::vectorWidthError(vectorWidth);
    if (bad.empty())
      bad = attic::registerTileError(registerRows, registerChunks);
    if (!bad.empty())
      return attic::optionError(context, "attic-cpu-map-tiles: " + bad);
    return success();
  }

  void runOnOperation() override {
    CpuMapTilesOptions options;
    options.vectorWidth = vectorWidth;
    options.registerRows = registerRows;
    options.registerChunks = registerChunks;
    if (failed(mapTilesToCpu(getOperation(), options)))
      return signalPassFailure();
  }
};

} // namespace

LogicalResult attic::mapTilesToCpu(Operation *root,
                                   const CpuMapTilesOptions &rawOptions) {
  CpuMapTilesOptions options = resolveCpuMapTilesOptions(rawOptions);
  expandTileGrids(root);
  SmallVector<scf::ParallelOp> grids;
  root->walk([&](scf::ParallelOp op) {
    if (op->hasAttr(kTileGridAttrName))
      grids.push_back(op);
  });
  for (scf::ParallelOp grid : grids) {
    // The micro-kernels unroll over the vectors of a key block; compile
    // time grows faster than linearly with their number (with one-lane
    // vectors: 128 of them compile in about 2 s, 256 in 6 s, 512 in 29 s),
    // so it is bounded.
    int64_t keys = 0;
    grid.walk([&](TileQKOp qk) {
      keys = std::max<int64_t>(keys, qk.getOut().getType().getDimSize(1));
    });
    int64_t vectors = (keys + options.vectorWidth - 1) / options.vectorWidth;
    if (!ShapedType::isDynamic(keys) && vectors > kMaxKeyVectors)
      return attic::locError(grid)
             << "attic-cpu-map-tiles: a key block of " << keys << " columns is "
             << vectors << " vectors of " << options.vectorWidth
             << " lanes; at most " << kMaxKeyVectors
             << " are unrolled (compile time grows with them): use a smaller "
                "block-k or a wider vector-width";
    // The micro-kernels' code grows with the head dims too (linearly, about
    // 150 bytes of IR each): D = 2^20 did not compile in 2 minutes, and
    // 2^40 ran out of memory (a 2026-11-30 audit). Bounded like the key
    // block.
    int64_t widest = 0;
    grid.walk([&](TileQKOp qk) {
      widest = std::max<int64_t>(widest, qk.getQuery().getType().getDimSize(3));
    });
    grid.walk([&](TilePVOp pv) {
      widest = std::max<int64_t>(widest, pv.getValue().getType().getDimSize(3));
    });
    if (!ShapedType::isDynamic(widest) && widest > kMaxHeadDim)
      return attic::locError(grid)
             << "attic-cpu-map-tiles: a head dim (D or Dv) of " << widest
             << " is above " << kMaxHeadDim
             << ", the most its micro-kernels are unrolled over (compile "
                "time and code size grow with it)";
    if (failed(GridMapper(grid, options).run()))
      return failure();
  }
  // Tile ops outside a grid have no mapping, and other attic ops (still
  // attic.attention, attic.block_attention, ...) none here: they were
  // left as they were, without a word.
  WalkResult stray = root->walk<WalkOrder::PreOrder>([](Operation *op) {
    if (isa<TileQKOp, TilePVOp, TileMapOp, TileMapRowsOp, TileMapColsOp,
            TileReduceOp, TileStoreOp, TilePoolOp>(op)) {
      op->emitOpError("is outside a tile grid (attic.tile.grid); "
                      "attic-cpu-map-tiles maps tile ops of grids only");
      return WalkResult::interrupt();
    }
    if (isa_and_nonnull<AtticDialect>(op->getDialect())) {
      op->emitOpError("is not lowered to a tile grid; attic-cpu-map-tiles "
                      "runs on buffers after attic-tile-block-attention "
                      "(attic-cpu-pipeline runs every step)");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(stray.wasInterrupted());
}

//===- Layout.h - what iteration layouts emit -------------------*- C++ -*-===//
//
// The types that LayoutAttrInterface's methods take and return, and the
// folding index arithmetic every layout emits its IR with. See
// dialects/AtticLayouts.td.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_DIALECT_ATTIC_LAYOUT_H
#define ATTIC_DIALECT_ATTIC_LAYOUT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace attic {

/// Where a layout emits IR and what it may read. All values are `index`
/// except the operands (the op's layout operands, in memref form).
struct LayoutEnv {
  mlir::OpBuilder &builder;
  mlir::Location loc;
  mlir::Value queryLen, keyLen;
  /// The batch and query-head indices of the pair being asked about.
  mlir::Value batch, head;
  mlir::ValueRange operands;
  /// The op's captures (memref form), read by its mask and score regions.
  mlir::ValueRange captures = {};
};

/// Two i1 values: `any` is false only if no element of the block is
/// visible; `all` is true only if every element is.
struct BlockVisibility {
  mlir::Value any, all;
};

/// Keys [lo, hi) (index); empty when lo >= hi.
struct KeyRange {
  mlir::Value lo, hi;
};

/// What a layout's verifier checks against: static sizes (kDynamic when
/// unknown; blockQ/blockK 0 when the op has no tiles yet) and the types of
/// the op's layout operands.
struct LayoutShapeInfo {
  int64_t batch, queryHeads, queryLen, keyLen;
  int64_t blockQ = 0, blockK = 0;
  llvm::ArrayRef<mlir::Type> operandTypes;
};

/// Index (or i1) arithmetic that folds constants as it goes: a layout asked
/// about constant positions produces constants, so static classification
/// is decided while the IR is built.
class IndexMath {
public:
  explicit IndexMath(LayoutEnv &env) : b(env.builder), loc(env.loc) {}
  IndexMath(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}

  mlir::Value c(int64_t v);
  mlir::Value boolean(bool v);
  mlir::Value add(mlir::Value x, mlir::Value y);
  mlir::Value add(mlir::Value x, int64_t y) { return add(x, c(y)); }
  mlir::Value sub(mlir::Value x, mlir::Value y);
  mlir::Value sub(mlir::Value x, int64_t y) { return sub(x, c(y)); }
  mlir::Value mul(mlir::Value x, int64_t y);
  mlir::Value mul(mlir::Value x, mlir::Value y);
  /// Floor division and the non-negative remainder, by a positive constant.
  mlir::Value floorDiv(mlir::Value x, int64_t y);
  mlir::Value floorMod(mlir::Value x, int64_t y);
  mlir::Value ceilDiv(mlir::Value x, mlir::Value y);
  mlir::Value min(mlir::Value x, mlir::Value y);
  mlir::Value max(mlir::Value x, mlir::Value y);
  mlir::Value lt(mlir::Value x, mlir::Value y);
  mlir::Value le(mlir::Value x, mlir::Value y);
  mlir::Value eq(mlir::Value x, mlir::Value y);
  mlir::Value ne(mlir::Value x, mlir::Value y);
  mlir::Value ge(mlir::Value x, mlir::Value y) { return le(y, x); }
  mlir::Value gt(mlir::Value x, mlir::Value y) { return lt(y, x); }
  mlir::Value andI(mlir::Value x, mlir::Value y);
  mlir::Value orI(mlir::Value x, mlir::Value y);
  mlir::Value notI(mlir::Value x);
  mlir::Value select(mlir::Value cond, mlir::Value x, mlir::Value y);

  mlir::OpBuilder &b;
  mlir::Location loc;
};

/// Emits Philox4x32-10 with `key` on the four i32 counter words (low to
/// high), as the runtime's attic_philox4x32(key, c2 | c3 << 32, c0 | c1 <<
/// 32): `out` receives the four i32 output words.
void buildPhilox4x32(mlir::OpBuilder &b, mlir::Location loc, uint64_t key,
                     llvm::ArrayRef<mlir::Value> counter,
                     llvm::SmallVectorImpl<mlir::Value> &out);

} // namespace attic

#endif // ATTIC_DIALECT_ATTIC_LAYOUT_H

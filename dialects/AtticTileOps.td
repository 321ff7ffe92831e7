//===- AtticTileOps.td - the tile loop's ops ---------------*- tablegen -*-===//
//
// The target-independent form of block attention that
// attic-tile-block-attention produces: per (batch, head, query block) a loop
// over the visited key blocks whose body is written with these ops on
// scratch tiles (f32 memrefs allocated in the loop). The online softmax,
// the masking and the fully-masked-row rule are ordinary arith/math ops in
// the regions of attic.tile.map*, written once; targets map the tiles
// (attic-cpu-map-tiles: vector micro-kernels; attic-gpu-map-tiles: mma
// fragments or a thread per row) and never re-derive any of it.
//
// A tile is a memref of f32 with R rows (the query block) and C columns
// (the key block or the value columns); a row tile has R elements, a
// column tile C. Rows are queries q0 + i, columns keys k0 + j.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_TILE_OPS_TD
#define ATTIC_TILE_OPS_TD

include "AtticDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Attic_Tile2D : MemRefRankOf<[F32], [2]>;
def Attic_Tile1D : MemRefRankOf<[F32], [1]>;
def Attic_TileAny : MemRefRankOf<[F32], [1, 2]>;
def Attic_Source4D : MemRefRankOf<[F32, F16, BF16], [4]>;

class Attic_TileOp<string mnemonic, list<Trait> traits = []>
    : Attic_Op<"tile." # mnemonic, traits>;

def Attic_TileQKOp : Attic_TileOp<"qk"> {
  let summary = "S = Q K^T of one query block and one key block";
  let description = [{
    Writes the dot products of query block `query_block` (rows
    `q0 = query_block * R` to `q0 + R - 1` of `query[query_batch,
    query_head]`) and key block `key_block` (`k0 = key_block * C`) into
    `out`, `R x C` of f32:

    ```
    out[i, j] = sum_d query[qb, qh, q0 + i, d] * key[kb, kh, k0 + j, d]
    ```

    in f32 (inputs extended to f32; the order of the sum is the target's),
    0 where `k0 + j >= Nk`, and unspecified (but finite for finite inputs)
    in rows `q0 + i >= Nq`, which no result reads. Targets read only this
    key block: skipped blocks are never loaded.

    With `query_scale`, a power of two 2^e with e <= 0, each query element
    is multiplied by it before the products:

    ```
    out[i, j] = sum_d (query_scale * query[qb, qh, q0 + i, d]) * key[kb, kh, k0 + j, d]
    ```

    The multiplication is exact (in f32, after the extension) except where
    a scaled element falls below f32's normal range (2^-126).
    attic-tile-block-attention sets it for f32 queries where the scale of
    the logits is below 1, so that the sum overflows f32 only where the
    scaled logits would: Q K^T formed unscaled overflowed for finite
    logits (at D = 64 with scale 1/8, inputs around 2.6e18). The
    tensor-core kernels take no `query_scale` (they would scale f16 or bf16
    fragments, whose subnormals are coarser); the thread-per-row mapping
    does.

    ```mlir
    attic.tile.qk %q[%b, %h, %qb], %k[%b, %hk, %kb] into %s
        : memref<1x4x256x64xf16>, memref<1x2x256x64xf16> into memref<64x64xf32>
    attic.tile.qk %q[%b, %h, %qb], %k[%b, %hk, %kb] into %s
        {query_scale = 1.250000e-01 : f32}
        : memref<1x4x256x64xf32>, memref<1x2x256x64xf32> into memref<64x64xf32>
    ```
  }];
  let arguments = (ins Arg<Attic_Source4D, "", [MemRead]>:$query,
                       Index:$query_batch, Index:$query_head,
                       Index:$query_block,
                       Arg<Attic_Source4D, "", [MemRead]>:$key,
                       Index:$key_batch, Index:$key_head, Index:$key_block,
                       Arg<Attic_Tile2D, "", [MemWrite]>:$out,
                       OptionalAttr<F32Attr>:$query_scale);
  let assemblyFormat = [{
    $query `[` $query_batch `,` $query_head `,` $query_block `]` `,`
    $key `[` $key_batch `,` $key_head `,` $key_block `]` `into` $out attr-dict
    `:` type($query) `,` type($key) `into` type($out)
  }];
  let hasVerifier = 1;
}

def Attic_TilePVOp : Attic_TileOp<"pv"> {
  let summary = "acc = alpha * acc + P V over one key block";
  let description = [{
    With `P` the `R x C` tile `probs` and `V` key block `value_block` of
    `value[value_batch, value_head]` (`k0 = value_block * C`):

    ```
    acc[i, c] = rescale[i] * acc[i, c] + sum_j probs[i, j] * value[vb, vh, k0 + j, c]
    ```

    in f32, where keys `k0 + j >= Nk` contribute nothing. `acc` is
    `R x Dv`.

    ```mlir
    attic.tile.pv %p, %v[%b, %hk, %kb] rescale(%alpha) into %acc
        : memref<64x64xf32>, memref<1x2x256x32xf16>, memref<64xf32>
          into memref<64x32xf32>
    ```
  }];
  let arguments = (ins Arg<Attic_Tile2D, "", [MemRead]>:$probs,
                       Arg<Attic_Source4D, "", [MemRead]>:$value,
                       Index:$value_batch, Index:$value_head,
                       Index:$value_block,
                       Arg<Attic_Tile1D, "", [MemRead]>:$rescale,
                       Arg<Attic_Tile2D, "", [MemRead, MemWrite]>:$acc);
  let assemblyFormat = [{
    $probs `,` $value `[` $value_batch `,` $value_head `,` $value_block `]`
    `rescale` `(` $rescale `)` `into` $acc attr-dict `:` type($probs) `,`
    type($value) `,` type($rescale) `into` type($acc)
  }];
  let hasVerifier = 1;
}

def Attic_TileYieldOp : Attic_TileOp<"yield", [Pure, Terminator,
    ParentOneOf<["TileMapOp", "TileMapRowsOp", "TileMapColsOp",
                 "TileGridOp"]>]> {
  let summary = "the elements a tile map writes (none: the end of a grid)";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  // The implicit terminator of attic.tile.grid.
  let builders = [OpBuilder<(ins), [{
    build($_builder, $_state, ::mlir::ValueRange());
  }]>];
}

def Attic_TileGridOp : Attic_TileOp<"grid", [RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"TileYieldOp">]> {
  let summary = "the parallel (batch, head, query block) loop of the tile ops";
  let description = [{
    Runs its body once for every batch `b < batches`, head `h < heads` and
    query block `qb < query_blocks`, in any order and in parallel: the
    iterations must be independent (each writes its own query block's
    rows). The body is the tile loop of one query block, written with the
    other `attic.tile` ops on scratch tiles that it allocates; it is what
    `attic-tile-block-attention` makes of an `attic.block_attention`, and
    what `attic-cpu-map-tiles` (an OpenMP loop of vector micro-kernels) and
    `attic-gpu-map-tiles` (a kernel with a thread block per iteration) map
    onto a target. `attic.tile` ops outside a grid have no mapping.

    A grid is an op of its own rather than an `scf.parallel` so that the
    IR between tiling and mapping is stable under canonicalization: an
    `scf.parallel` with single-iteration dimensions (one batch, one query
    block) is collapsed or dissolved by upstream's canonicalizer, and the
    tile loop's structure would be lost. The mapping passes first rewrite
    each grid to the `scf.parallel` it stands for, marked
    `attic.tile_grid` (they accept that form as input too).

    ```mlir
    attic.tile.grid (%b, %h, %qb) in (%nb, %nh, %nqb) {
      %s = memref.alloc() : memref<64x64xf32>
      attic.tile.qk %q[%b, %h, %qb], %k[%b, %h, %c0] into %s
          : memref<1x4x256x64xf32>, memref<1x4x256x64xf32> into memref<64x64xf32>
      ...
      memref.dealloc %s : memref<64x64xf32>
    }
    ```
  }];
  let arguments = (ins Index:$batches, Index:$heads, Index:$query_blocks);
  let regions = (region SizedRegion<1>:$region);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$batches, "::mlir::Value":$heads,
      "::mlir::Value":$queryBlocks)>
  ];
  let extraClassDeclaration = [{
    /// The body's arguments: (batch, head, query block).
    ::mlir::Block::BlockArgListType getInductionVars() {
      return getBody()->getArguments();
    }
  }];
}

def Attic_TileMapOp : Attic_TileOp<"map", [AttrSizedOperandSegments,
    SingleBlock, RecursiveMemoryEffects]> {
  let summary = "elementwise over an R x C tile, with row and column operands";
  let description = [{
    For every element (i, j) of the `R x C` `outs` tiles, runs the region
    on `(q0 + i, k0 + j, ins[i, j]..., rows[i]..., cols[j]..., outs[i, j]...)`
    and writes the yielded values to `outs[i, j]`. `q0` and `k0` are the
    `at` offsets (the absolute query and key of element (0, 0)), so the
    region can evaluate a layout's element predicate. `ins` are `R x C`,
    `rows` have R elements, `cols` C. The region holds arith and math ops
    and reads of memrefs defined above; elements are independent, so
    targets evaluate it per element, per lane or vectorized, in any order.
    An `outs` tile may also be an input (in-place update).

    ```mlir
    attic.tile.map at(%q0, %k0) ins(%s : memref<64x64xf32>)
        cols(%term : memref<64xf32>) outs(%s : memref<64x64xf32>) {
    ^bb0(%q: index, %k: index, %x: f32, %t: f32, %old: f32):
      %y = arith.addf %x, %t : f32
      attic.tile.yield %y : f32
    }
    ```
  }];
  let arguments = (ins Index:$row_offset, Index:$col_offset,
                       Arg<Variadic<Attic_Tile2D>, "", [MemRead]>:$inputs,
                       Arg<Variadic<Attic_Tile1D>, "", [MemRead]>:$rows,
                       Arg<Variadic<Attic_Tile1D>, "", [MemRead]>:$cols,
                       Arg<Variadic<Attic_Tile2D>, "",
                           [MemRead, MemWrite]>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `at` `(` $row_offset `,` $col_offset `)`
    (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    (`rows` `(` $rows^ `:` type($rows) `)`)?
    (`cols` `(` $cols^ `:` type($cols) `)`)?
    `outs` `(` $outputs `:` type($outputs) `)` attr-dict-with-keyword
    `` custom<KeywordAttrs>(ref(attr-dict), "{}") $body
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$rowOffset, "::mlir::Value":$colOffset,
      "::mlir::ValueRange":$inputs, "::mlir::ValueRange":$rows,
      "::mlir::ValueRange":$cols, "::mlir::ValueRange":$outputs,
      "::llvm::function_ref<::llvm::SmallVector<::mlir::Value>(::mlir::OpBuilder &, ::mlir::Location, ::mlir::ValueRange)>":$body)>
  ];
}

def Attic_TileMapRowsOp : Attic_TileOp<"map_rows", [AttrSizedOperandSegments,
    SingleBlock, RecursiveMemoryEffects]> {
  let summary = "elementwise over row tiles (one value per query row)";
  let description = [{
    For every row i of the `outs` row tiles (R elements), runs the region on
    `(q0 + i, ins[i]..., outs[i]...)` and writes the yielded values to
    `outs[i]`. Used for the softmax statistics.

    ```mlir
    attic.tile.map_rows at(%q0) ins(%m, %bm : memref<64xf32>, memref<64xf32>)
        outs(%m : memref<64xf32>) {
    ^bb0(%q: index, %old: f32, %blk: f32, %cur: f32):
      %n = arith.maxnumf %old, %blk : f32
      attic.tile.yield %n : f32
    }
    ```
  }];
  let arguments = (ins Index:$row_offset,
                       Arg<Variadic<Attic_Tile1D>, "", [MemRead]>:$inputs,
                       Arg<Variadic<Attic_Tile1D>, "",
                           [MemRead, MemWrite]>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `at` `(` $row_offset `)` (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    `outs` `(` $outputs `:` type($outputs) `)` attr-dict-with-keyword
    `` custom<KeywordAttrs>(ref(attr-dict), "{}") $body
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$rowOffset, "::mlir::ValueRange":$inputs,
      "::mlir::ValueRange":$outputs,
      "::llvm::function_ref<::llvm::SmallVector<::mlir::Value>(::mlir::OpBuilder &, ::mlir::Location, ::mlir::ValueRange)>":$body)>
  ];
}

def Attic_TileMapColsOp : Attic_TileOp<"map_cols", [AttrSizedOperandSegments,
    SingleBlock, RecursiveMemoryEffects]> {
  let summary = "elementwise over column tiles (one value per key)";
  let description = [{
    For every column j of the `outs` column tiles (C elements), runs the
    region on `(k0 + j, ins[j]..., outs[j]...)` and writes the yielded
    values to `outs[j]`. Used for the per-key logit term (key bias, key
    mask, keys past the sequence).

    ```mlir
    attic.tile.map_cols at(%k0) outs(%term : memref<64xf32>) {
    ^bb0(%k: index, %old: f32):
      %t = memref.load %bias[%b, %k] : memref<1x256xf32>
      attic.tile.yield %t : f32
    }
    ```
  }];
  let arguments = (ins Index:$col_offset,
                       Arg<Variadic<Attic_Tile1D>, "", [MemRead]>:$inputs,
                       Arg<Variadic<Attic_Tile1D>, "",
                           [MemRead, MemWrite]>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `at` `(` $col_offset `)` (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    `outs` `(` $outputs `:` type($outputs) `)` attr-dict-with-keyword
    `` custom<KeywordAttrs>(ref(attr-dict), "{}") $body
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$colOffset, "::mlir::ValueRange":$inputs,
      "::mlir::ValueRange":$outputs,
      "::llvm::function_ref<::llvm::SmallVector<::mlir::Value>(::mlir::OpBuilder &, ::mlir::Location, ::mlir::ValueRange)>":$body)>
  ];
}

def Attic_TileReduceKind : I32EnumAttr<"TileReduceKind",
    "how attic.tile.reduce combines a row", [
      I32EnumAttrCase<"Max", 0, "max">,
      I32EnumAttrCase<"Add", 1, "add">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::attic";
}
def Attic_TileReduceKindAttr : EnumAttr<Attic_Dialect, Attic_TileReduceKind,
                                        "tile_reduce">;

def Attic_TileReduceOp : Attic_TileOp<"reduce"> {
  let summary = "per row, the maximum or the sum of an R x C tile";
  let description = [{
    `out[i]` is the maximum (`max`: of the non-NaN elements, `-inf` when
    there is none; with a NaN in the row the result is unspecified) or the
    sum (`add`, in an unspecified order) of `input[i, :]`.

    ```mlir
    attic.tile.reduce max %s into %bm : memref<64x64xf32> into memref<64xf32>
    ```
  }];
  let arguments = (ins Attic_TileReduceKindAttr:$kind,
                       Arg<Attic_Tile2D, "", [MemRead]>:$input,
                       Arg<Attic_Tile1D, "", [MemWrite]>:$out);
  let assemblyFormat = [{
    $kind $input `into` $out attr-dict `` custom<KeywordAttrs>(ref(attr-dict), "kKeywordAttrNames")
    `:` type($input) `into` type($out)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The attributes written with keywords (custom<KeywordAttrs>).
    static constexpr ::llvm::StringLiteral kKeywordAttrNames[] = {"kind"};
  }];
}

def Attic_TileStoreOp : Attic_TileOp<"store"> {
  let summary = "write a query block's rows of the result (or of a row statistic)";
  let description = [{
    `out[batch, head, q0 + i, :] = tile[i, :]` for the rows `q0 + i < Nq`
    (`q0 = query_block * R`), converted to `out`'s element type. A 1-D tile
    (one value per row, e.g. the log-sum-exp) goes into a `[B,H,Nq]` f32
    `out`: `out[batch, head, q0 + i] = tile[i]`.

    ```mlir
    attic.tile.store %acc into %o[%b, %h, %qb]
        : memref<64x32xf32> into memref<1x4x256x32xf16>
    attic.tile.store %lse into %l[%b, %h, %qb]
        : memref<64xf32> into memref<1x4x256xf32>
    ```
  }];
  let arguments = (ins Arg<Attic_TileAny, "", [MemRead]>:$tile,
                       Arg<MemRefRankOf<[F32, F16, BF16], [3, 4]>, "",
                           [MemWrite]>:$out,
                       Index:$batch, Index:$head, Index:$query_block);
  let assemblyFormat = [{
    $tile `into` $out `[` $batch `,` $head `,` $query_block `]` attr-dict
    `:` type($tile) `into` type($out)
  }];
  let hasVerifier = 1;
}

def Attic_TilePoolOp : Attic_TileOp<"pool"> {
  let summary = "weighted sum of a query block's stored rows (a pooled epilogue)";
  let description = [{
    The epilogue that pools a finished query block into one row: with
    `q0 = query_block * R` (R the rows of `tile`), `Nq` the length of
    `stored` and `r(x)` the rounding of `x` to `stored`'s element type
    (identity for f32),

    ```
    pooled[batch, head, query_block, c] =
        sum_{i < R, q0 + i < Nq} weights[batch, q0 + i] * r(tile[i, c])
    ```

    in f32, summed in ascending `i` on every target. `tile` holds the
    block's result rows as `attic.tile.store` wrote them into `stored`
    (`[B,H,Nq,Dv]`), so a target may read either: the CPU pools the tile
    while it is in cache, the GPU's thread-per-row mapping reads back the
    rows that the block's threads stored. `weights` is `[B,Nq]` of f32 and
    `pooled` `[B,H,ceil(Nq/R),Dv]` of f32. It is what
    `attic.block_attention`'s `pool` destination lowers to (the masked
    slice means of `attic.slice_attention`).

    ```mlir
    attic.tile.pool %acc stored(%o) weights(%w) into %p[%b, %h, %qb]
        : memref<32x64xf32>, memref<2x4x512x64xf32>, memref<2x512xf32>
          into memref<2x4x16x64xf32>
    ```
  }];
  let arguments = (ins Arg<Attic_Tile2D, "", [MemRead]>:$tile,
                       Arg<MemRefRankOf<[F32, F16, BF16], [4]>, "",
                           [MemRead]>:$stored,
                       Arg<MemRefRankOf<[F32], [2]>, "", [MemRead]>:$weights,
                       Arg<MemRefRankOf<[F32], [4]>, "", [MemWrite]>:$pooled,
                       Index:$batch, Index:$head, Index:$query_block);
  let assemblyFormat = [{
    $tile `stored` `(` $stored `)` `weights` `(` $weights `)` `into`
    $pooled `[` $batch `,` $head `,` $query_block `]` attr-dict
    `:` type($tile) `,` type($stored) `,` type($weights) `into` type($pooled)
  }];
  let hasVerifier = 1;
}

#endif // ATTIC_TILE_OPS_TD

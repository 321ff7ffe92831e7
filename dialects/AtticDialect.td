//===- AtticDialect.td - the attic dialect -----------------*- tablegen -*-===//
//
// attic expresses efficient attention variants as IR. Layer L1 holds one op
// per method on tensors (attic.attention, ...); layer L2 holds the core op
// attic.block_attention, a tiled online-softmax over an iteration layout,
// that every softmax-shaped method decomposes into. See docs/ and DESIGN.md.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_DIALECT_TD
#define ATTIC_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Attic_Dialect : Dialect {
  let name = "attic";
  let cppNamespace = "::attic";
  let summary = "Efficient attention: pattern ops (L1) and the block-attention core (L2)";
  let description = [{
    The attic dialect expresses attention variants from the efficient-attention
    literature. Pattern ops (layer L1) say *what* is computed, one op per
    method; `attic-decompose` rewrites them into `attic.block_attention`
    (layer L2), which says *which* (query block, key block) pairs are visited
    and with which score modifiers, and is lowered by
    `attic-lower-block-attention` into loops.

    Conventions: queries, keys and values are `[B, H, N, D]`; softmax
    statistics and accumulators are f32 whatever the element type (f32, f16,
    bf16); a query row whose keys are all excluded yields 0, never NaN.
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

class Attic_Op<string mnemonic, list<Trait> traits = []>
    : Op<Attic_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def Attic_BlockLayoutKind : I32EnumAttr<"BlockLayout",
    "which (query block, key block) pairs block attention visits", [
      I32EnumAttrCase<"Dense", 0, "dense">,
      I32EnumAttrCase<"Causal", 1, "causal">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::attic";
}

def Attic_BlockLayoutAttr : EnumAttr<Attic_Dialect, Attic_BlockLayoutKind, "layout"> {
  let summary = "iteration layout of attic.block_attention";
  let description = [{
    `dense` visits every (query block, key block) pair. `causal` visits, for a
    query block, only the key blocks at or before its diagonal; key `j` is
    visible to query `i` iff `j <= i` (top-left aligned, as
    `torch.nn.functional.scaled_dot_product_attention(is_causal=True)`), so
    blocks above the diagonal are skipped and the diagonal block is clipped
    row by row.
  }];
  let assemblyFormat = "`<` $value `>`";
}

#endif // ATTIC_DIALECT_TD

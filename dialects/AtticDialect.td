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
    and with which score modifiers; `attic-tile-block-attention` turns it
    into the target-independent tile loop, which `attic-cpu-map-tiles` or
    `attic-gpu-map-tiles` maps onto the CPU or the GPU.

    Conventions: queries, keys and values are `[B, H, N, D]`; softmax
    statistics and accumulators are f32 whatever the element type (f32, f16,
    bf16); a query row whose keys are all excluded yields 0, never NaN.

    Custom forms: an attribute that an op's form writes with a keyword
    (`scale 0.5`, `layout(...)`, `causal`, a feature map's or reduction's
    name) is refused in its attribute dictionary, and so is
    `operandSegmentSizes`, which the form derives from the operands
    (`custom<KeywordAttrs>` in the syntax below). Integer parameters of
    attributes and types refuse `true` and `false`.

    VIP-token-centric compression (VCC, docs/vcc.md) adds the tree state
    type `!attic.tree` and the ops that reorder a sequence, build, select
    from, compress with, update and materialize that tree.
  }];
  // AtticDialect.cpp: the generated ones, with a bound on the nesting.
  let useDefaultAttributePrinterParser = 0;
  let extraClassDeclaration = [{
    ::mlir::Attribute parseAttribute(::mlir::DialectAsmParser &parser,
                                     ::mlir::Type type) const override;
    void printAttribute(::mlir::Attribute attr,
                        ::mlir::DialectAsmPrinter &printer) const override;
  }];
  let useDefaultTypePrinterParser = 1;
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

// Every attic op refuses attributes without a dialect prefix that are not
// its own (verifyNoUnknownAttributes in AtticDialect.cpp).
def Attic_NoUnknownAttributes : NativeOpTrait<"NoUnknownAttributes"> {
  let cppNamespace = "::attic";
}

class Attic_Op<string mnemonic, list<Trait> traits = []>
    : Op<Attic_Dialect, mnemonic, !listconcat(traits, [Attic_NoUnknownAttributes])>;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

// The iteration layouts and their interface: AtticLayouts.td.

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class Attic_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Attic_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Attic_TreeType : Attic_Type<"Tree", "tree"> {
  let summary = "VCC tree state T(C) of a batch of sequences";
  let description = [{
    The state T(C) of VIP-token-centric compression (docs/vcc.md) for a
    batch of `batch` (B) sequences of `rows` (n_c) non-VIP tokens with `dim`
    (d) features each.

    The tree is k-ary per level, described by `fanouts` = [f_1, ..., f_L]
    from the leaves up: level 0 are the n_c tokens, a level-j node covers
    the s_j = f_1 * ... * f_j consecutive tokens [x * s_j, (x + 1) * s_j),
    and level L is the root (s_L = n_c: the fanouts multiply to `rows`).
    Every fanout is at least 2. Level j has n_c / s_j nodes; the children
    of node (j, x) are (j - 1, f_j * x + i) for i in [0, f_j), and its
    parent is (j + 1, x / f_{j+1}) (integer division).

    Node means are mask-aware: the mean of the node's valid tokens, 0 when
    it has none; a node's count is its number of valid tokens. The state
    holds the root mean [B, d], per level j < L the deltas (parent mean
    minus node mean) [B, n_c / s_j, d], per level the counts
    [B, n_c / s_j], and the token validity [B, n_c]; their layout is the
    lowering's choice. The element type is f32: deltas are small
    differences of similar numbers.

    Index tensors name a node by its **global id**: the level-0 nodes are
    ids [0, n_c), the level-1 nodes follow, and so on; node (j, x) has id
    offset(j) + x with offset(j) = sum over i < j of n_c / s_i. The tree has
    offset(L + 1) nodes. Ascending ids are the canonical order of a node
    set: level ascending, then index ascending.

    Example: two sequences of n_c = 128 tokens with d = 64, in 8 blocks of
    16 tokens under one root (level offsets 0, 128, 136; 137 nodes):

    ```mlir
    !attic.tree<2x128x64xf32, fanouts = [16, 8]>
    ```
  }];
  let parameters = (ins
    AttrOrTypeParameter<"int64_t", "B, the number of sequences">:$batch,
    AttrOrTypeParameter<"int64_t", "n_c, the tokens of a sequence">:$rows,
    AttrOrTypeParameter<"int64_t", "d, the features of a token">:$dim,
    AttrOrTypeParameter<"::mlir::Type", "element type (f32)">:$elementType,
    ArrayRefParameter<"int64_t", "[f_1, ..., f_L], from the leaves up">
        :$fanouts
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// L: the number of levels above the tokens; level L is the root.
    int64_t getLevels() const { return getFanouts().size(); }
    /// s_level, the tokens a node of `level` (0..L) covers.
    int64_t getNodeSize(int64_t level) const;
    /// n_c / s_level, the nodes of `level` (0..L).
    int64_t getNodesAt(int64_t level) const;
    /// Global id of node (level, 0), for `level` in 0..L+1 (offset(L + 1) is
    /// the number of nodes).
    int64_t getNodeOffset(int64_t level) const;
    /// All nodes of all levels.
    int64_t getNumNodes() const { return getNodeOffset(getLevels() + 1); }
    /// The number of nodes per level 0..L in the J that Algorithm 1 selects
    /// with `budgets` = [h_1, ..., h_L] (h_j level-j nodes split):
    /// f_{j+1} * h_{j+1} - h_j for j < L (h_0 = 0) and 1 - h_L at the root.
    /// Meaningful for budgets that pass attic.tree_select's verifier.
    ::llvm::SmallVector<int64_t>
    getSelectedNodesPerLevel(::llvm::ArrayRef<int64_t> budgets) const;
  }];
}

#endif // ATTIC_DIALECT_TD

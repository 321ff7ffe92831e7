//===- AtticOps.td - attic operations ----------------------*- tablegen -*-===//

#ifndef ATTIC_OPS_TD
#define ATTIC_OPS_TD

include "AtticDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"

def Attic_AttentionElement : AnyTypeOf<[F32, F16, BF16]>;
def Attic_Tensor4D : RankedTensorOf<[F32, F16, BF16]>;
def Attic_KeyBias : RankedTensorOf<[F32, F16, BF16]>;
def Attic_KeyMask : RankedTensorOf<[I1]>;

//===----------------------------------------------------------------------===//
// L1: attic.attention
//===----------------------------------------------------------------------===//

def Attic_AttentionOp : Attic_Op<"attention", [Pure, AttrSizedOperandSegments]> {
  let summary = "dense softmax attention (scaled dot product)";
  let description = [{
    Computes, for every batch `b`, head `h` and query `i`,

    ```
    logit[j] = scale * dot(query[b,h,i,:], key[b,h,j,:]) + key_bias[b,(h,)j]
    result[b,h,i,:] = sum_j softmax(logit)[j] * value[b,h,j,:]
    ```

    over the keys `j` that are admissible: `key_mask[b,j]` is true (when the
    mask is given), `j <= i` (when `causal` is set; top-left aligned, as
    PyTorch SDPA's `is_causal`), and the bias is not `-inf`. A query row with
    no admissible key yields 0, never NaN.

    Operands: `query` is `[B,H,Nq,D]`, `key` is `[B,H,Nk,D]`, `value` is
    `[B,H,Nk,Dv]`; the query and key lengths may differ and so may `D` and
    `Dv`. Query, key and value share one element type (f32, f16 or bf16),
    which is also the result's; the result is `[B,H,Nq,Dv]`. The optional
    additive key bias is `[B,Nk]` or `[B,H,Nk]` of f32, f16 or bf16; the
    optional key padding mask is `[B,Nk]` of i1. `scale` defaults to
    `1/sqrt(D)`. Logits, the softmax statistics and the accumulation are f32
    whatever the element type. Dimensions may be dynamic; those that are
    static must agree.

    Example:

    ```mlir
    %o = attic.attention %q, %k, %v causal scale 0.125
        bias(%b : tensor<1x4096xf32>) mask(%m : tensor<1x4096xi1>)
        : tensor<1x4x4096x64xf16>, tensor<1x4x4096x64xf16>,
          tensor<1x4x4096x64xf16> -> tensor<1x4x4096x64xf16>
    ```

    Lowering: `attic-decompose` rewrites it into `attic.block_attention`
    (flash-style tiled online softmax; an Nq x Nk matrix is never built).
  }];
  let arguments = (ins
    Attic_Tensor4D:$query,
    Attic_Tensor4D:$key,
    Attic_Tensor4D:$value,
    Optional<Attic_KeyBias>:$key_bias,
    Optional<Attic_KeyMask>:$key_mask,
    UnitAttr:$causal,
    OptionalAttr<F32Attr>:$scale
  );
  let results = (outs Attic_Tensor4D:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`causal` $causal^)? (`scale` $scale^)?
    (`bias` `(` $key_bias^ `:` type($key_bias) `)`)?
    (`mask` `(` $key_mask^ `:` type($key_mask) `)`)?
    attr-dict `:` type($query) `,` type($key) `,` type($value) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// The scale in effect: the attribute, or 1/sqrt(D) when it is absent.
    /// Fails when it is absent and D is dynamic.
    ::mlir::FailureOr<float> getEffectiveScale();
  }];
}

//===----------------------------------------------------------------------===//
// L2: attic.block_attention
//===----------------------------------------------------------------------===//

def Attic_ShapedOperand : AnyTypeOf<[RankedTensorOf<[AnyType]>, MemRefOf<[AnyType]>]>;

def Attic_BlockAttentionOp : Attic_Op<"block_attention", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DestinationStyleOpInterface]> {
  let summary = "tiled online-softmax attention over an iteration layout";
  let description = [{
    The core op of layer L2. It has the semantics of `attic.attention` with an
    explicit `scale`, and it says how the work is tiled: queries are taken in
    blocks of `block_q` rows and keys in blocks of `block_k` rows, each
    (query block, key block) pair that the `layout` visits is processed with
    an online (flash-style) softmax whose running maximum, running sum and
    accumulator are f32, so no `Nq x Nk` matrix is ever materialized.

    The op is in destination-passing style: `init` (`[B,H,Nq,Dv]`, element
    type of `value`) is the destination. On tensors it returns the result; on
    memrefs (after one-shot bufferization) it writes `init` and has no
    result. The additive `key_bias` (`[B,Nk]` or `[B,H,Nk]`) and the i1
    `key_mask` (`[B,Nk]`) are optional score modifiers applied per key.

    Example:

    ```mlir
    %r = attic.block_attention
        ins(%q, %k, %v : tensor<1x4x256x64xf32>, tensor<1x4x256x64xf32>,
                         tensor<1x4x256x64xf32>)
        outs(%init : tensor<1x4x256x64xf32>)
        {layout = #attic.layout<causal>, scale = 0.125 : f32,
         block_q = 64 : i64, block_k = 64 : i64} -> tensor<1x4x256x64xf32>
    ```

    Lowering: `attic-lower-block-attention` turns the memref form into
    `scf.parallel` over (batch, head, query block) and `scf.for` loops over
    key blocks with f32 scratch tiles.
  }];
  let arguments = (ins
    Attic_ShapedOperand:$query,
    Attic_ShapedOperand:$key,
    Attic_ShapedOperand:$value,
    Optional<Attic_ShapedOperand>:$key_bias,
    Optional<Attic_ShapedOperand>:$key_mask,
    Attic_ShapedOperand:$init,
    Attic_BlockLayoutAttr:$layout,
    F32Attr:$scale,
    ConfinedAttr<I64Attr, [IntPositive]>:$block_q,
    ConfinedAttr<I64Attr, [IntPositive]>:$block_k
  );
  let results = (outs Variadic<RankedTensorOf<[AnyType]>>:$result);
  let assemblyFormat = [{
    `ins` `(` $query `,` $key `,` $value `:` type($query) `,` type($key) `,` type($value) `)`
    (`bias` `(` $key_bias^ `:` type($key_bias) `)`)?
    (`mask` `(` $key_mask^ `:` type($key_mask) `)`)?
    `outs` `(` $init `:` type($init) `)`
    attr-dict (`->` type($result)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getInitMutable(); }
    bool isCausal() { return getLayout() == ::attic::BlockLayout::Causal; }
  }];
}

include "AtticVccOps.td"

#endif // ATTIC_OPS_TD

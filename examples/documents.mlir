// Document masking over packed sequences: each of the 2 sequences of 1024
// tokens packs 5 documents (lengths 100, 300, 37, 200, 387 in the first,
// shifted by 64 in the second), and a token attends only to the tokens of
// its own document; causal within the document, as in LLM pre-training on
// packed batches. The document ids are [B, N] integers (a layout operand);
// here they are computed from the document boundaries.
//
//   attic-run examples/documents.mlir --entry=documents --check
//   attic-run examples/documents.mlir --entry=documents_causal --check --target=cuda-emulated
//
// The blocks cannot be classified without the ids: attic-decompose puts an
// attic.block_mask in front (per-block id ranges: a block pair of one
// document is full, pairs of different documents are skipped), so the
// attention visits only the blocks near the diagonal. B=2, H=4, N=1024, D=64.
//
// The ids: with boundaries 100, 400, 437, 637 (shifted by 64 * b), token i
// of sequence b is in document (i >= b0) + (i >= b1) + (i >= b2) + (i >= b3).

func.func @documents(%q: tensor<2x4x1024x64xf32>, %k: tensor<2x4x1024x64xf32>, %v: tensor<2x4x1024x64xf32>) -> tensor<2x4x1024x64xf32> {
  %ids = tensor.generate {
  ^bb0(%b: index, %i: index):
    // Boundaries 100, 400, 437, 637, shifted by 64 * b.
    %c64 = arith.constant 64 : index
    %shift = arith.muli %b, %c64 : index
    %c100 = arith.constant 100 : index
    %c400 = arith.constant 400 : index
    %c437 = arith.constant 437 : index
    %c637 = arith.constant 637 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %b0 = arith.addi %c100, %shift : index
    %b1 = arith.addi %c400, %shift : index
    %b2 = arith.addi %c437, %shift : index
    %b3 = arith.addi %c637, %shift : index
    %p0 = arith.cmpi sge, %i, %b0 : index
    %p1 = arith.cmpi sge, %i, %b1 : index
    %p2 = arith.cmpi sge, %i, %b2 : index
    %p3 = arith.cmpi sge, %i, %b3 : index
    %s0 = arith.select %p0, %one, %zero : i32
    %s1 = arith.select %p1, %one, %zero : i32
    %s2 = arith.select %p2, %one, %zero : i32
    %s3 = arith.select %p3, %one, %zero : i32
    %a = arith.addi %s0, %s1 : i32
    %c = arith.addi %s2, %s3 : i32
    %id = arith.addi %a, %c : i32
    tensor.yield %id : i32
  } : tensor<2x1024xi32>
  %o = attic.attention %q, %k, %v
      layout(#attic.documents<query_ids = 0, key_ids = 0>)
      layout_operands(%ids : tensor<2x1024xi32>)
      : tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32> -> tensor<2x4x1024x64xf32>
  return %o : tensor<2x4x1024x64xf32>
}

func.func @documents_causal(%q: tensor<2x4x1024x64xf32>, %k: tensor<2x4x1024x64xf32>, %v: tensor<2x4x1024x64xf32>) -> tensor<2x4x1024x64xf32> {
  %ids = tensor.generate {
  ^bb0(%b: index, %i: index):
    // Boundaries 100, 400, 437, 637, shifted by 64 * b.
    %c64 = arith.constant 64 : index
    %shift = arith.muli %b, %c64 : index
    %c100 = arith.constant 100 : index
    %c400 = arith.constant 400 : index
    %c437 = arith.constant 437 : index
    %c637 = arith.constant 637 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %b0 = arith.addi %c100, %shift : index
    %b1 = arith.addi %c400, %shift : index
    %b2 = arith.addi %c437, %shift : index
    %b3 = arith.addi %c637, %shift : index
    %p0 = arith.cmpi sge, %i, %b0 : index
    %p1 = arith.cmpi sge, %i, %b1 : index
    %p2 = arith.cmpi sge, %i, %b2 : index
    %p3 = arith.cmpi sge, %i, %b3 : index
    %s0 = arith.select %p0, %one, %zero : i32
    %s1 = arith.select %p1, %one, %zero : i32
    %s2 = arith.select %p2, %one, %zero : i32
    %s3 = arith.select %p3, %one, %zero : i32
    %a = arith.addi %s0, %s1 : i32
    %c = arith.addi %s2, %s3 : i32
    %id = arith.addi %a, %c : i32
    tensor.yield %id : i32
  } : tensor<2x1024xi32>
  %o = attic.attention %q, %k, %v causal
      layout(#attic.documents<query_ids = 0, key_ids = 0>)
      layout_operands(%ids : tensor<2x1024xi32>)
      : tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32>, tensor<2x4x1024x64xf32> -> tensor<2x4x1024x64xf32>
  return %o : tensor<2x4x1024x64xf32>
}

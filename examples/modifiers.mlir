// Attention patterns written as mask and score regions (FlexAttention's
// mask_mod and score_mod; docs/patterns.md): each function is runnable with
//
//   attic-run examples/modifiers.mlir --entry=<name> --check
//   attic-run examples/modifiers.mlir --entry=<name> --check --target=cuda-emulated
//
// and its regions are interpreted in double by the reference behind --check.
//
//   alibi             causal + ALiBi: score + slope[h] * (k - q), slopes a
//                     captured [H] tensor (2^(-8 (h+1) / H))        (+ f16)
//   softcap           Gemma 2's tanh soft-capping: 20 * tanh(score / 20),
//                     causal                                       (+ bf16)
//   t5_bias           relative position bias from a captured [H, 32] table,
//                     bucket = clamp(k - q + 16, 0, 31) (T5-style, clipped
//                     linear buckets)
//   documents         document masking: doc[b, q] == doc[b, k] and causal,
//                     ids a captured [B, N] tensor: not affine, so the
//                     blocks are classified at run time (attic.block_mask)
//   prefix_lm         prefix-LM: k <= q or k < 96 (affine: classified by the
//                     compiler)
//   sliding_window    q - 255 <= k <= q: classified exactly like the
//                     built-in #attic.window<left = 255, right = 0> (see
//                     bench/cpu/modifiers.sh and test/Transforms)
//
// B = 1 or 2, H = 4, N = 512, D = 64.

func.func @alibi(%q: tensor<1x4x512x64xf32>, %k: tensor<1x4x512x64xf32>, %v: tensor<1x4x512x64xf32>) -> tensor<1x4x512x64xf32> {
  %slopes = tensor.generate {
  ^bb0(%h: index):
    // 2^(-8 (h + 1) / H) with H = 4.
    %one = arith.constant 1 : index
    %h1 = arith.addi %h, %one : index
    %hi = arith.index_cast %h1 : index to i64
    %hf = arith.sitofp %hi : i64 to f32
    %c = arith.constant -2.0 : f32
    %e = arith.mulf %hf, %c : f32
    %s = math.exp2 %e : f32
    tensor.yield %s : f32
  } : tensor<4xf32>
  %o = attic.attention %q, %k, %v causal captures(%slopes : tensor<4xf32>)
      score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %sl: tensor<4xf32>):
        %slope = tensor.extract %sl[%h] : tensor<4xf32>
        %d = arith.subi %ki, %qi : index
        %di = arith.index_cast %d : index to i64
        %df = arith.sitofp %di : i64 to f32
        %bias = arith.mulf %slope, %df : f32
        %r = arith.addf %s, %bias : f32
        attic.yield %r : f32
      }
      : tensor<1x4x512x64xf32>, tensor<1x4x512x64xf32>, tensor<1x4x512x64xf32> -> tensor<1x4x512x64xf32>
  return %o : tensor<1x4x512x64xf32>
}

func.func @alibi_f16(%q: tensor<1x4x512x64xf16>, %k: tensor<1x4x512x64xf16>, %v: tensor<1x4x512x64xf16>, %slopes: tensor<4xf32>) -> tensor<1x4x512x64xf16> {
  %o = attic.attention %q, %k, %v causal captures(%slopes : tensor<4xf32>)
      score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %sl: tensor<4xf32>):
        %slope = tensor.extract %sl[%h] : tensor<4xf32>
        %d = arith.subi %ki, %qi : index
        %di = arith.index_cast %d : index to i64
        %df = arith.sitofp %di : i64 to f32
        %bias = arith.mulf %slope, %df : f32
        %r = arith.addf %s, %bias : f32
        attic.yield %r : f32
      }
      : tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16>, tensor<1x4x512x64xf16> -> tensor<1x4x512x64xf16>
  return %o : tensor<1x4x512x64xf16>
}

func.func @softcap(%q: tensor<1x4x512x64xf32>, %k: tensor<1x4x512x64xf32>, %v: tensor<1x4x512x64xf32>) -> tensor<1x4x512x64xf32> {
  // A large scale, so that the cap matters.
  %o = attic.attention %q, %k, %v causal scale 4.0
      score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
        %cap = arith.constant 20.0 : f32
        %x = arith.divf %s, %cap : f32
        %t = math.tanh %x : f32
        %r = arith.mulf %t, %cap : f32
        attic.yield %r : f32
      }
      : tensor<1x4x512x64xf32>, tensor<1x4x512x64xf32>, tensor<1x4x512x64xf32> -> tensor<1x4x512x64xf32>
  return %o : tensor<1x4x512x64xf32>
}

func.func @softcap_bf16(%q: tensor<1x4x512x64xbf16>, %k: tensor<1x4x512x64xbf16>, %v: tensor<1x4x512x64xbf16>) -> tensor<1x4x512x64xbf16> {
  %o = attic.attention %q, %k, %v causal scale 4.0
      score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
        %cap = arith.constant 20.0 : f32
        %x = arith.divf %s, %cap : f32
        %t = math.tanh %x : f32
        %r = arith.mulf %t, %cap : f32
        attic.yield %r : f32
      }
      : tensor<1x4x512x64xbf16>, tensor<1x4x512x64xbf16>, tensor<1x4x512x64xbf16> -> tensor<1x4x512x64xbf16>
  return %o : tensor<1x4x512x64xbf16>
}

func.func @t5_bias(%q: tensor<1x4x512x64xf32>, %k: tensor<1x4x512x64xf32>, %v: tensor<1x4x512x64xf32>) -> tensor<1x4x512x64xf32> {
  // A learned table in a model; here sin(h + 0.3 bucket).
  %table = tensor.generate {
  ^bb0(%h: index, %bucket: index):
    %hi = arith.index_cast %h : index to i64
    %bi = arith.index_cast %bucket : index to i64
    %hf = arith.sitofp %hi : i64 to f32
    %bf = arith.sitofp %bi : i64 to f32
    %c = arith.constant 0.3 : f32
    %x = arith.mulf %bf, %c : f32
    %y = arith.addf %x, %hf : f32
    %s = math.sin %y : f32
    tensor.yield %s : f32
  } : tensor<4x32xf32>
  %o = attic.attention %q, %k, %v captures(%table : tensor<4x32xf32>)
      score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %t: tensor<4x32xf32>):
        %c16 = arith.constant 16 : index
        %c0 = arith.constant 0 : index
        %c31 = arith.constant 31 : index
        %d = arith.subi %ki, %qi : index
        %shifted = arith.addi %d, %c16 : index
        %lo = arith.maxsi %shifted, %c0 : index
        %bucket = arith.minsi %lo, %c31 : index
        %bias = tensor.extract %t[%h, %bucket] : tensor<4x32xf32>
        %r = arith.addf %s, %bias : f32
        attic.yield %r : f32
      }
      : tensor<1x4x512x64xf32>, tensor<1x4x512x64xf32>, tensor<1x4x512x64xf32> -> tensor<1x4x512x64xf32>
  return %o : tensor<1x4x512x64xf32>
}

func.func @documents(%q: tensor<2x4x512x64xf32>, %k: tensor<2x4x512x64xf32>, %v: tensor<2x4x512x64xf32>) -> tensor<2x4x512x64xf32> {
  // Documents of 100, 150, 37 and 225 tokens, shifted by 64 * b.
  %ids = tensor.generate {
  ^bb0(%b: index, %i: index):
    %c64 = arith.constant 64 : index
    %shift = arith.muli %b, %c64 : index
    %c100 = arith.constant 100 : index
    %c250 = arith.constant 250 : index
    %c287 = arith.constant 287 : index
    %b0 = arith.addi %c100, %shift : index
    %b1 = arith.addi %c250, %shift : index
    %b2 = arith.addi %c287, %shift : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %p0 = arith.cmpi sge, %i, %b0 : index
    %p1 = arith.cmpi sge, %i, %b1 : index
    %p2 = arith.cmpi sge, %i, %b2 : index
    %x0 = arith.select %p0, %one, %zero : i32
    %x1 = arith.select %p1, %one, %zero : i32
    %x2 = arith.select %p2, %one, %zero : i32
    %s0 = arith.addi %x0, %x1 : i32
    %s1 = arith.addi %s0, %x2 : i32
    tensor.yield %s1 : i32
  } : tensor<2x512xi32>
  %o = attic.attention %q, %k, %v captures(%ids : tensor<2x512xi32>)
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index, %doc: tensor<2x512xi32>):
        %dq = tensor.extract %doc[%b, %qi] : tensor<2x512xi32>
        %dkv = tensor.extract %doc[%b, %ki] : tensor<2x512xi32>
        %same = arith.cmpi eq, %dq, %dkv : i32
        %causal = arith.cmpi sle, %ki, %qi : index
        %p = arith.andi %same, %causal : i1
        attic.yield %p : i1
      }
      : tensor<2x4x512x64xf32>, tensor<2x4x512x64xf32>, tensor<2x4x512x64xf32> -> tensor<2x4x512x64xf32>
  return %o : tensor<2x4x512x64xf32>
}

func.func @prefix_lm(%q: tensor<1x4x512x64xf32>, %k: tensor<1x4x512x64xf32>, %v: tensor<1x4x512x64xf32>) -> tensor<1x4x512x64xf32> {
  %o = attic.attention %q, %k, %v
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %prefix = arith.constant 96 : index
        %causal = arith.cmpi sle, %ki, %qi : index
        %inPrefix = arith.cmpi slt, %ki, %prefix : index
        %p = arith.ori %causal, %inPrefix : i1
        attic.yield %p : i1
      }
      : tensor<1x4x512x64xf32>, tensor<1x4x512x64xf32>, tensor<1x4x512x64xf32> -> tensor<1x4x512x64xf32>
  return %o : tensor<1x4x512x64xf32>
}

func.func @sliding_window(%q: tensor<1x4x512x64xf32>, %k: tensor<1x4x512x64xf32>, %v: tensor<1x4x512x64xf32>) -> tensor<1x4x512x64xf32> {
  %o = attic.attention %q, %k, %v
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %w = arith.constant 255 : index
        %d = arith.subi %qi, %ki : index
        %zero = arith.constant 0 : index
        %notFuture = arith.cmpi sge, %d, %zero : index
        %inWindow = arith.cmpi sle, %d, %w : index
        %p = arith.andi %notFuture, %inWindow : i1
        attic.yield %p : i1
      }
      : tensor<1x4x512x64xf32>, tensor<1x4x512x64xf32>, tensor<1x4x512x64xf32> -> tensor<1x4x512x64xf32>
  return %o : tensor<1x4x512x64xf32>
}

// The built-in layout that @sliding_window writes as a region.
func.func @sliding_window_builtin(%q: tensor<1x4x512x64xf32>, %k: tensor<1x4x512x64xf32>, %v: tensor<1x4x512x64xf32>) -> tensor<1x4x512x64xf32> {
  %o = attic.attention %q, %k, %v layout(#attic.window<left = 255, right = 0>)
      : tensor<1x4x512x64xf32>, tensor<1x4x512x64xf32>, tensor<1x4x512x64xf32> -> tensor<1x4x512x64xf32>
  return %o : tensor<1x4x512x64xf32>
}

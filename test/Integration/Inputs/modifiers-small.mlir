// Small modifier-region cases for the simulator and for bad input.

// ALiBi in f16 (the tensor-core kernel in the simulator).
func.func @alibi_f16(%q: tensor<1x2x64x64xf16>, %k: tensor<1x2x64x64xf16>, %v: tensor<1x2x64x64xf16>, %slopes: tensor<2xf32>) -> tensor<1x2x64x64xf16> {
  %o = attic.attention %q, %k, %v causal captures(%slopes : tensor<2xf32>)
      score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %sl: tensor<2xf32>):
        %slope = tensor.extract %sl[%h] : tensor<2xf32>
        %d = arith.subi %ki, %qi : index
        %di = arith.index_cast %d : index to i64
        %df = arith.sitofp %di : i64 to f32
        %bias = arith.mulf %slope, %df : f32
        %r = arith.addf %s, %bias : f32
        attic.yield %r : f32
      }
      : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16> -> tensor<1x2x64x64xf16>
  return %o : tensor<1x2x64x64xf16>
}

// A window written as a region, with soft-capping, in f16.
func.func @window_softcap_f16(%q: tensor<1x2x96x64xf16>, %k: tensor<1x2x96x64xf16>, %v: tensor<1x2x96x64xf16>) -> tensor<1x2x96x64xf16> {
  %o = attic.attention %q, %k, %v scale 2.0
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index):
        %w = arith.constant 40 : index
        %d = arith.subi %qi, %ki : index
        %zero = arith.constant 0 : index
        %a = arith.cmpi sge, %d, %zero : index
        %c = arith.cmpi sle, %d, %w : index
        %p = arith.andi %a, %c : i1
        attic.yield %p : i1
      } score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index):
        %cap = arith.constant 5.0 : f32
        %x = arith.divf %s, %cap : f32
        %t = math.tanh %x : f32
        %r = arith.mulf %t, %cap : f32
        attic.yield %r : f32
      }
      : tensor<1x2x96x64xf16>, tensor<1x2x96x64xf16>, tensor<1x2x96x64xf16> -> tensor<1x2x96x64xf16>
  return %o : tensor<1x2x96x64xf16>
}

// The mask reads group[doc[q]]: doc ids 0..7 but only 4 groups, so reads
// past the table happen (a run-time error, never an out-of-bounds read).
func.func @group_out_of_range(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %doc = tensor.generate {
  ^bb0(%b: index, %i: index):
    %c8 = arith.constant 8 : index
    %d = arith.divui %i, %c8 : index
    %di = arith.index_cast %d : index to i32
    tensor.yield %di : i32
  } : tensor<1x64xi32>
  %group = arith.constant dense<[0, 0, 1, 1]> : tensor<4xi32>
  %o = attic.attention %q, %k, %v captures(%doc, %group : tensor<1x64xi32>, tensor<4xi32>)
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index, %d: tensor<1x64xi32>, %g: tensor<4xi32>):
        %x = tensor.extract %d[%b, %qi] : tensor<1x64xi32>
        %xi = arith.index_cast %x : i32 to index
        %gx = tensor.extract %g[%xi] : tensor<4xi32>
        %y = tensor.extract %d[%b, %ki] : tensor<1x64xi32>
        %yi = arith.index_cast %y : i32 to index
        %gy = tensor.extract %g[%yi] : tensor<4xi32>
        %p = arith.cmpi eq, %gx, %gy : i32
        attic.yield %p : i1
      }
      : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// Per-head slopes of the wrong shape: 2 slopes for 4 heads.
func.func @slopes_too_short(%q: tensor<1x4x64x16xf32>, %k: tensor<1x4x64x16xf32>, %v: tensor<1x4x64x16xf32>, %slopes: tensor<2xf32>) -> tensor<1x4x64x16xf32> {
  %o = attic.attention %q, %k, %v captures(%slopes : tensor<2xf32>)
      score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %sl: tensor<2xf32>):
        %slope = tensor.extract %sl[%h] : tensor<2xf32>
        %r = arith.addf %s, %slope : f32
        attic.yield %r : f32
      }
      : tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32> -> tensor<1x4x64x16xf32>
  return %o : tensor<1x4x64x16xf32>
}

// Empty captures (an audit: the check read index 0 of the empty capture, a
// device-buffer overrun in the GPU simulator, and the lists of the mask
// were left as their destinations held them, whose check then named those
// contents on the CPU instead of the read).
func.func @mask_reads_empty(%q: tensor<1x2x37x8xf32>, %k: tensor<1x2x37x8xf32>, %v: tensor<1x2x37x8xf32>, %ids: tensor<0xi32>) -> tensor<1x2x37x8xf32> {
  %o = attic.attention %q, %k, %v layout(#attic.window<left = 3, right = 3>) captures(%ids : tensor<0xi32>)
      mask_mod {
      ^bb0(%b: index, %h: index, %qi: index, %ki: index, %c: tensor<0xi32>):
        %z = arith.constant 0 : index
        %x = tensor.extract %c[%z] : tensor<0xi32>
        %zero = arith.constant 0 : i32
        %p = arith.cmpi eq, %x, %zero : i32
        attic.yield %p : i1
      }
      : tensor<1x2x37x8xf32>, tensor<1x2x37x8xf32>, tensor<1x2x37x8xf32> -> tensor<1x2x37x8xf32>
  return %o : tensor<1x2x37x8xf32>
}

func.func @score_reads_empty(%q: tensor<1x2x32x16xf16>, %k: tensor<1x2x32x16xf16>, %v: tensor<1x2x32x16xf16>, %t: tensor<?x4xf32>) -> tensor<1x2x32x16xf16> {
  %o = attic.attention %q, %k, %v captures(%t : tensor<?x4xf32>)
      score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %qi: index, %ki: index, %c: tensor<?x4xf32>):
        %x = tensor.extract %c[%h, %h] : tensor<?x4xf32>
        %r = arith.addf %s, %x : f32
        attic.yield %r : f32
      }
      : tensor<1x2x32x16xf16>, tensor<1x2x32x16xf16>, tensor<1x2x32x16xf16> -> tensor<1x2x32x16xf16>
  return %o : tensor<1x2x32x16xf16>
}

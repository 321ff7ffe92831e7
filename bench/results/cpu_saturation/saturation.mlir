// The cost of the saturating selects of 2026-11-30 (bench/results/cpu_saturation):
// @masked has a key mask (a logit term), @softcap a score region, @dense neither
// (the control: no change there).
func.func @masked(%q: tensor<1x8x4096x64xf32>, %k: tensor<1x8x4096x64xf32>, %v: tensor<1x8x4096x64xf32>, %m: tensor<1x4096xi1>) -> tensor<1x8x4096x64xf32> {
  %o = attic.attention %q, %k, %v mask(%m : tensor<1x4096xi1>) : tensor<1x8x4096x64xf32>, tensor<1x8x4096x64xf32>, tensor<1x8x4096x64xf32> -> tensor<1x8x4096x64xf32>
  return %o : tensor<1x8x4096x64xf32>
}

func.func @softcap(%q: tensor<1x8x4096x64xf32>, %k: tensor<1x8x4096x64xf32>, %v: tensor<1x8x4096x64xf32>) -> tensor<1x8x4096x64xf32> {
  %o = attic.attention %q, %k, %v score_mod {
  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
    %cap = arith.constant 50.0 : f32
    %x = arith.divf %s, %cap : f32
    %t = math.tanh %x : f32
    %y = arith.mulf %t, %cap : f32
    attic.yield %y : f32
  } : tensor<1x8x4096x64xf32>, tensor<1x8x4096x64xf32>, tensor<1x8x4096x64xf32> -> tensor<1x8x4096x64xf32>
  return %o : tensor<1x8x4096x64xf32>
}

func.func @dense(%q: tensor<1x8x4096x64xf32>, %k: tensor<1x8x4096x64xf32>, %v: tensor<1x8x4096x64xf32>) -> tensor<1x8x4096x64xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x8x4096x64xf32>, tensor<1x8x4096x64xf32>, tensor<1x8x4096x64xf32> -> tensor<1x8x4096x64xf32>
  return %o : tensor<1x8x4096x64xf32>
}

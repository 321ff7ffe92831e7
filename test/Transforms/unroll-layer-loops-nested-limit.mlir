// Nested loops over attic ops multiply their trip counts: three loops of
// 256 made 2^24 copies of the body until memory ran out. The whole run
// makes at most 65536 copies; this nest fails after 256 + 255 * 256.
// RUN: attic-opt %s --verify-diagnostics --attic-unroll-layer-loops -o /dev/null

func.func @layers(%x: tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 256 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x) -> (tensor<1x2x8x4xf32>) {
    // expected-error @+1 {{'scf.for' op loops over attic ops 256 times after 65536 copies of loop bodies: attic-unroll-layer-loops makes at most 65536 in all (the copies of every loop add up, and a nested loop's are made once per copy of the loop around it)}}
    %r2 = scf.for %j = %c0 to %n step %c1 iter_args(%h2 = %h) -> (tensor<1x2x8x4xf32>) {
      %r3 = scf.for %k = %c0 to %n step %c1 iter_args(%h3 = %h2) -> (tensor<1x2x8x4xf32>) {
        %a = attic.attention %h3, %h3, %h3 : tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32> -> tensor<1x2x8x4xf32>
        scf.yield %a : tensor<1x2x8x4xf32>
      }
      scf.yield %r3 : tensor<1x2x8x4xf32>
    }
    scf.yield %r2 : tensor<1x2x8x4xf32>
  }
  return %r : tensor<1x2x8x4xf32>
}

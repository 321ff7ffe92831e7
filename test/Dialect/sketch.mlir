// RUN: attic-opt %s --split-input-file | FileCheck %s
// RUN: attic-opt %s --split-input-file | attic-opt --split-input-file | FileCheck %s

// Round trip of the sketched and low-rank ops (dialects/AtticSketchOps.td):
// defaults are not printed, the ablation keywords are.

// CHECK-LABEL: func.func @skeinformer
// CHECK: attic.skeinformer_attention %{{.*}}, %{{.*}}, %{{.*}} {samples = 16 : i64, seed = 7 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>
// CHECK: attic.skeinformer_attention %{{.*}}, %{{.*}}, %{{.*}} sampling uniform normalization simple {pilot_reuse = false, samples = 16 : i64, scale = 5.000000e-01 : f32, seed = 7 : i64}
func.func @skeinformer(%q: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x8xf32>) -> (tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>) {
  %a = attic.skeinformer_attention %q, %q, %v {samples = 16 : i64, seed = 7 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>
  %b = attic.skeinformer_attention %q, %q, %v sampling uniform normalization simple {samples = 16 : i64, seed = 7 : i64, pilot_reuse = false, scale = 0.5 : f32} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>
  return %a, %b : tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>
}

// -----

// CHECK-LABEL: func.func @skeinformer_exact
// CHECK: attic.skeinformer_attention %{{.*}}, %{{.*}}, %{{.*}} {samples = 64 : i64}
func.func @skeinformer_exact(%q: tensor<1x2x64x16xf32>) -> tensor<1x2x64x16xf32> {
  %o = attic.skeinformer_attention %q, %q, %q {samples = 64 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32> -> tensor<1x2x64x16xf32>
  return %o : tensor<1x2x64x16xf32>
}

// -----

// CHECK-LABEL: func.func @informer
// CHECK: attic.informer_attention %{{.*}}, %{{.*}}, %{{.*}} {seed = 3 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x8xf32> -> tensor<1x2x64x8xf32>
// CHECK: attic.informer_attention %{{.*}}, %{{.*}}, %{{.*}} {active = 8 : i64, factor = 2 : i64, seed = 3 : i64}
func.func @informer(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x128x16xf32>, %v: tensor<1x2x128x8xf32>) -> (tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>) {
  %a = attic.informer_attention %q, %k, %v {seed = 3 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x8xf32> -> tensor<1x2x64x8xf32>
  %b = attic.informer_attention %q, %k, %v {factor = 2 : i64, active = 8 : i64, seed = 3 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x8xf32> -> tensor<1x2x64x8xf32>
  return %a, %b : tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>
}

// -----

// CHECK-LABEL: func.func @linformer
// CHECK: attic.linformer_attention %{{.*}}, %{{.*}}, %{{.*}} projection(%{{.*}} : tensor<1x32x128xf32>) : tensor<1x2x64x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x8xf32> -> tensor<1x2x64x8xf32>
// CHECK: attic.linformer_attention %{{.*}}, %{{.*}}, %{{.*}} projection(%{{.*}} : tensor<2x32x128xf32>) value_projection(%{{.*}} : tensor<2x32x128xf32>) mask(%{{.*}} : tensor<1x128xi1>) {scale = 2.500000e-01 : f32}
func.func @linformer(%q: tensor<1x2x64x16xf32>, %k: tensor<1x2x128x16xf32>, %v: tensor<1x2x128x8xf32>, %e: tensor<1x32x128xf32>, %e2: tensor<2x32x128xf32>, %f2: tensor<2x32x128xf32>, %m: tensor<1x128xi1>) -> (tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>) {
  %a = attic.linformer_attention %q, %k, %v projection(%e : tensor<1x32x128xf32>) : tensor<1x2x64x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x8xf32> -> tensor<1x2x64x8xf32>
  %b = attic.linformer_attention %q, %k, %v projection(%e2 : tensor<2x32x128xf32>) value_projection(%f2 : tensor<2x32x128xf32>) mask(%m : tensor<1x128xi1>) {scale = 0.25 : f32} : tensor<1x2x64x16xf32>, tensor<1x2x128x16xf32>, tensor<1x2x128x8xf32> -> tensor<1x2x64x8xf32>
  return %a, %b : tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>
}

// -----

// CHECK-LABEL: func.func @nystrom
// CHECK: attic.nystrom_attention %{{.*}}, %{{.*}}, %{{.*}} {landmarks = 8 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>
// CHECK: attic.nystrom_attention %{{.*}}, %{{.*}}, %{{.*}} conv(%{{.*}} : tensor<2x5xf32>) {iterations = 10 : i64, landmarks = 16 : i64}
func.func @nystrom(%q: tensor<1x2x64x16xf32>, %v: tensor<1x2x64x8xf32>, %w: tensor<2x5xf32>) -> (tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>) {
  %a = attic.nystrom_attention %q, %q, %v {landmarks = 8 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>
  %b = attic.nystrom_attention %q, %q, %v conv(%w : tensor<2x5xf32>) {landmarks = 16 : i64, iterations = 10 : i64} : tensor<1x2x64x16xf32>, tensor<1x2x64x16xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>
  return %a, %b : tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>
}

// -----

// CHECK-LABEL: func.func @synthesizer
// CHECK: attic.synthesizer_attention %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x64x8xf32>, tensor<2x32x8xf32>, tensor<3x2x32x16xf32> -> tensor<3x2x64x16xf32>
// CHECK: attic.synthesizer_attention %{{.*}}, %{{.*}}, %{{.*}} mask(%{{.*}} : tensor<3x32xi1>) {causal, scale = 5.000000e-01 : f32}
func.func @synthesizer(%r1: tensor<2x64x8xf32>, %r2: tensor<2x32x8xf32>, %v: tensor<3x2x32x16xf32>, %m: tensor<3x32xi1>) -> (tensor<3x2x64x16xf32>, tensor<3x2x64x16xf32>) {
  %a = attic.synthesizer_attention %r1, %r2, %v : tensor<2x64x8xf32>, tensor<2x32x8xf32>, tensor<3x2x32x16xf32> -> tensor<3x2x64x16xf32>
  %b = attic.synthesizer_attention %r1, %r2, %v mask(%m : tensor<3x32xi1>) {causal, scale = 0.5 : f32} : tensor<2x64x8xf32>, tensor<2x32x8xf32>, tensor<3x2x32x16xf32> -> tensor<3x2x64x16xf32>
  return %a, %b : tensor<3x2x64x16xf32>, tensor<3x2x64x16xf32>
}

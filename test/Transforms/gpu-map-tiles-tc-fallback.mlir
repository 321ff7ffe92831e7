// RUN: attic-opt %s --split-input-file --attic-gpu-map-tiles | FileCheck %s

// The tensor-core kernel maps tile ops at the grid's top level and inside
// scf.for and scf.if. A hand-written grid with its tile loop inside another
// construct (here scf.execute_region) falls back to the SIMT mapping, like
// the configurations the tensor-core kernel declines, instead of failing;
// the pattern that declines leaves the grid as it was.
// Both grids: the f16 tile loop attic-tile-block-attention makes of a
// 1x1x64x64 block_attention (block 64 x 64).

// CHECK-LABEL: func.func @tile_loop_in_grid
// CHECK: gpu.launch
// CHECK: nvgpu.mma.sync

func.func @tile_loop_in_grid(%arg0: memref<1x1x64x64xf16>, %arg1: memref<1x1x64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_0 = arith.constant 1 : index
  %c1_1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c1_2 = arith.constant 1 : index
  %c1_3 = arith.constant 1 : index
  %c2_4 = arith.constant 2 : index
  %c64_5 = arith.constant 64 : index
  %c3 = arith.constant 3 : index
  %c64_6 = arith.constant 64 : index
  %c64_7 = arith.constant 64 : index
  %c1_8 = arith.constant 1 : index
  %c64_9 = arith.constant 64 : index
  %c1_10 = arith.constant 1 : index
  %c1_11 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %c0_12 = arith.constant 0 : index
  %c0_13 = arith.constant 0 : index
  %c0_14 = arith.constant 0 : index
  %c1_15 = arith.constant 1 : index
  %c1_16 = arith.constant 1 : index
  %c1_17 = arith.constant 1 : index
  scf.parallel (%arg2, %arg3, %arg4) = (%c0_12, %c0_13, %c0_14) to (%c1, %c1_1, %c1_8) step (%c1_15, %c1_16, %c1_17) {
    %c64_18 = arith.constant 64 : index
    %0 = arith.muli %arg4, %c64_18 : index
    %c64_19 = arith.constant 64 : index
    %1 = arith.addi %0, %c64_19 : index
    %2 = arith.minsi %1, %c64 : index
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<64x64xf32>
    %alloc_20 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
    %alloc_21 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
    %alloc_22 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
    %alloc_23 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
    %alloc_24 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
    %alloc_25 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
    %alloc_26 = memref.alloc() {alignment = 64 : i64} : memref<64x64xf32>
    attic.tile.map_rows at(%0) outs(%alloc_20, %alloc_21 : memref<64xf32>, memref<64xf32>) {
    ^bb0(%arg5: index, %arg6: f32, %arg7: f32):
      %cst = arith.constant 0xFF800000 : f32
      %cst_35 = arith.constant 0.000000e+00 : f32
      attic.tile.yield %cst, %cst_35 : f32, f32
    }
    %c0_27 = arith.constant 0 : index
    attic.tile.map at(%0, %c0_27) outs(%alloc_26 : memref<64x64xf32>) {
    ^bb0(%arg5: index, %arg6: index, %arg7: f32):
      %cst = arith.constant 0.000000e+00 : f32
      attic.tile.yield %cst : f32
    }
    %c0_28 = arith.constant 0 : index
    %c64_29 = arith.constant 64 : index
    %c0_30 = arith.constant 0 : index
    %c64_31 = arith.constant 64 : index
    %c1_32 = arith.constant 1 : index
    %c1_33 = arith.constant 1 : index
    scf.for %arg5 = %c0_30 to %c1_32 step %c1_33 {
      %c64_35 = arith.constant 64 : index
      %3 = arith.muli %arg5, %c64_35 : index
      %c64_36 = arith.constant 64 : index
      %4 = arith.addi %3, %c64_36 : index
      %5 = arith.minsi %4, %c64_5 : index
      %true = arith.constant true
      %true_37 = arith.constant true
      %c64_38 = arith.constant 64 : index
      %6 = arith.muli %arg5, %c64_38 : index
      attic.tile.qk %arg0[%arg2, %arg3, %arg4], %arg0[%arg2, %arg3, %arg5] into %alloc : memref<1x1x64x64xf16>, memref<1x1x64x64xf16> into memref<64x64xf32>
      attic.tile.reduce  max %alloc into %alloc_22 : memref<64x64xf32> into memref<64xf32>
      attic.tile.map_rows at(%0) ins(%alloc_20, %alloc_22 : memref<64xf32>, memref<64xf32>) outs(%alloc_20, %alloc_23, %alloc_24 : memref<64xf32>, memref<64xf32>, memref<64xf32>) {
      ^bb0(%arg6: index, %arg7: f32, %arg8: f32, %arg9: f32, %arg10: f32, %arg11: f32):
        %cst = arith.constant 0.180336878 : f32
        %7 = arith.mulf %arg8, %cst : f32
        %cst_39 = arith.constant -3.40282347E+38 : f32
        %8 = arith.maxnumf %7, %cst_39 : f32
        %9 = arith.maxnumf %arg7, %8 : f32
        %cst_40 = arith.constant 0x7F800000 : f32
        %cst_41 = arith.constant -3.40282347E+38 : f32
        %10 = arith.cmpf ole, %9, %cst_41 : f32
        %11 = arith.select %10, %cst_40, %9 : f32
        %12 = arith.subf %arg7, %11 : f32
        %13 = math.exp2 %12 : f32
        attic.tile.yield %9, %11, %13 : f32, f32, f32
      }
      attic.tile.map at(%0, %6) ins(%alloc : memref<64x64xf32>) rows(%alloc_23 : memref<64xf32>) outs(%alloc : memref<64x64xf32>) {
      ^bb0(%arg6: index, %arg7: index, %arg8: f32, %arg9: f32, %arg10: f32):
        %cst = arith.constant 0.180336878 : f32
        %7 = arith.mulf %arg8, %cst : f32
        %8 = arith.subf %7, %arg9 : f32
        %9 = math.exp2 %8 : f32
        attic.tile.yield %9 : f32
      }
      attic.tile.reduce  add %alloc into %alloc_25 : memref<64x64xf32> into memref<64xf32>
      attic.tile.map_rows at(%0) ins(%alloc_21, %alloc_24, %alloc_25 : memref<64xf32>, memref<64xf32>, memref<64xf32>) outs(%alloc_21 : memref<64xf32>) {
      ^bb0(%arg6: index, %arg7: f32, %arg8: f32, %arg9: f32, %arg10: f32):
        %7 = arith.mulf %arg8, %arg7 : f32
        %8 = arith.addf %7, %arg9 : f32
        attic.tile.yield %8 : f32
      }
      attic.tile.pv %alloc, %arg0[%arg2, %arg3, %arg5] rescale(%alloc_24) into %alloc_26 : memref<64x64xf32>, memref<1x1x64x64xf16>, memref<64xf32> into memref<64x64xf32>
    }
    attic.tile.map_rows at(%0) ins(%alloc_21, %alloc_20 : memref<64xf32>, memref<64xf32>) outs(%alloc_25 : memref<64xf32>) {
    ^bb0(%arg5: index, %arg6: f32, %arg7: f32, %arg8: f32):
      %cst = arith.constant 0.000000e+00 : f32
      %cst_35 = arith.constant 1.000000e+00 : f32
      %3 = arith.cmpf oeq, %arg6, %cst : f32
      %cst_36 = arith.constant 0xFF800000 : f32
      %cst_37 = arith.constant 0x7FC00000 : f32
      %4 = arith.cmpf oeq, %arg7, %cst_36 : f32
      %5 = arith.select %4, %cst, %cst_37 : f32
      %6 = arith.divf %cst_35, %arg6 : f32
      %7 = arith.select %3, %5, %6 : f32
      attic.tile.yield %7 : f32
    }
    %c0_34 = arith.constant 0 : index
    attic.tile.map at(%0, %c0_34) ins(%alloc_26 : memref<64x64xf32>) rows(%alloc_25 : memref<64xf32>) outs(%alloc_26 : memref<64x64xf32>) {
    ^bb0(%arg5: index, %arg6: index, %arg7: f32, %arg8: f32, %arg9: f32):
      %cst = arith.constant 0.000000e+00 : f32
      %3 = arith.cmpf oeq, %arg8, %cst : f32
      %4 = arith.mulf %arg7, %arg8 : f32
      %5 = arith.select %3, %cst, %4 : f32
      attic.tile.yield %5 : f32
    }
    attic.tile.store %alloc_26 into %arg1[%arg2, %arg3, %arg4] : memref<64x64xf32> into memref<1x1x64x64xf16>
    memref.dealloc %alloc : memref<64x64xf32>
    memref.dealloc %alloc_20 : memref<64xf32>
    memref.dealloc %alloc_21 : memref<64xf32>
    memref.dealloc %alloc_22 : memref<64xf32>
    memref.dealloc %alloc_23 : memref<64xf32>
    memref.dealloc %alloc_24 : memref<64xf32>
    memref.dealloc %alloc_25 : memref<64xf32>
    memref.dealloc %alloc_26 : memref<64x64xf32>
    scf.reduce 
  } {attic.tile_grid}
  return
}

// -----

// CHECK-LABEL: func.func @tile_ops_in_execute_region
// CHECK: gpu.launch async {{.*}} private(
// CHECK-NOT: nvgpu.mma.sync
// CHECK-NOT: attic.tile
// CHECK: return

func.func @tile_ops_in_execute_region(%arg0: memref<1x1x64x64xf16>, %arg1: memref<1x1x64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_0 = arith.constant 1 : index
  %c1_1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c1_2 = arith.constant 1 : index
  %c1_3 = arith.constant 1 : index
  %c2_4 = arith.constant 2 : index
  %c64_5 = arith.constant 64 : index
  %c3 = arith.constant 3 : index
  %c64_6 = arith.constant 64 : index
  %c64_7 = arith.constant 64 : index
  %c1_8 = arith.constant 1 : index
  %c64_9 = arith.constant 64 : index
  %c1_10 = arith.constant 1 : index
  %c1_11 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %c0_12 = arith.constant 0 : index
  %c0_13 = arith.constant 0 : index
  %c0_14 = arith.constant 0 : index
  %c1_15 = arith.constant 1 : index
  %c1_16 = arith.constant 1 : index
  %c1_17 = arith.constant 1 : index
  scf.parallel (%arg2, %arg3, %arg4) = (%c0_12, %c0_13, %c0_14) to (%c1, %c1_1, %c1_8) step (%c1_15, %c1_16, %c1_17) {
    %c64_18 = arith.constant 64 : index
    %0 = arith.muli %arg4, %c64_18 : index
    %c64_19 = arith.constant 64 : index
    %1 = arith.addi %0, %c64_19 : index
    %2 = arith.minsi %1, %c64 : index
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<64x64xf32>
    %alloc_20 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
    %alloc_21 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
    %alloc_22 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
    %alloc_23 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
    %alloc_24 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
    %alloc_25 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
    %alloc_26 = memref.alloc() {alignment = 64 : i64} : memref<64x64xf32>
    attic.tile.map_rows at(%0) outs(%alloc_20, %alloc_21 : memref<64xf32>, memref<64xf32>) {
    ^bb0(%arg5: index, %arg6: f32, %arg7: f32):
      %cst = arith.constant 0xFF800000 : f32
      %cst_35 = arith.constant 0.000000e+00 : f32
      attic.tile.yield %cst, %cst_35 : f32, f32
    }
    %c0_27 = arith.constant 0 : index
    attic.tile.map at(%0, %c0_27) outs(%alloc_26 : memref<64x64xf32>) {
    ^bb0(%arg5: index, %arg6: index, %arg7: f32):
      %cst = arith.constant 0.000000e+00 : f32
      attic.tile.yield %cst : f32
    }
    %c0_28 = arith.constant 0 : index
    %c64_29 = arith.constant 64 : index
    %c0_30 = arith.constant 0 : index
    %c64_31 = arith.constant 64 : index
    %c1_32 = arith.constant 1 : index
    %c1_33 = arith.constant 1 : index
    scf.execute_region {
    scf.for %arg5 = %c0_30 to %c1_32 step %c1_33 {
      %c64_35 = arith.constant 64 : index
      %3 = arith.muli %arg5, %c64_35 : index
      %c64_36 = arith.constant 64 : index
      %4 = arith.addi %3, %c64_36 : index
      %5 = arith.minsi %4, %c64_5 : index
      %true = arith.constant true
      %true_37 = arith.constant true
      %c64_38 = arith.constant 64 : index
      %6 = arith.muli %arg5, %c64_38 : index
      attic.tile.qk %arg0[%arg2, %arg3, %arg4], %arg0[%arg2, %arg3, %arg5] into %alloc : memref<1x1x64x64xf16>, memref<1x1x64x64xf16> into memref<64x64xf32>
      attic.tile.reduce  max %alloc into %alloc_22 : memref<64x64xf32> into memref<64xf32>
      attic.tile.map_rows at(%0) ins(%alloc_20, %alloc_22 : memref<64xf32>, memref<64xf32>) outs(%alloc_20, %alloc_23, %alloc_24 : memref<64xf32>, memref<64xf32>, memref<64xf32>) {
      ^bb0(%arg6: index, %arg7: f32, %arg8: f32, %arg9: f32, %arg10: f32, %arg11: f32):
        %cst = arith.constant 0.180336878 : f32
        %7 = arith.mulf %arg8, %cst : f32
        %cst_39 = arith.constant -3.40282347E+38 : f32
        %8 = arith.maxnumf %7, %cst_39 : f32
        %9 = arith.maxnumf %arg7, %8 : f32
        %cst_40 = arith.constant 0x7F800000 : f32
        %cst_41 = arith.constant -3.40282347E+38 : f32
        %10 = arith.cmpf ole, %9, %cst_41 : f32
        %11 = arith.select %10, %cst_40, %9 : f32
        %12 = arith.subf %arg7, %11 : f32
        %13 = math.exp2 %12 : f32
        attic.tile.yield %9, %11, %13 : f32, f32, f32
      }
      attic.tile.map at(%0, %6) ins(%alloc : memref<64x64xf32>) rows(%alloc_23 : memref<64xf32>) outs(%alloc : memref<64x64xf32>) {
      ^bb0(%arg6: index, %arg7: index, %arg8: f32, %arg9: f32, %arg10: f32):
        %cst = arith.constant 0.180336878 : f32
        %7 = arith.mulf %arg8, %cst : f32
        %8 = arith.subf %7, %arg9 : f32
        %9 = math.exp2 %8 : f32
        attic.tile.yield %9 : f32
      }
      attic.tile.reduce  add %alloc into %alloc_25 : memref<64x64xf32> into memref<64xf32>
      attic.tile.map_rows at(%0) ins(%alloc_21, %alloc_24, %alloc_25 : memref<64xf32>, memref<64xf32>, memref<64xf32>) outs(%alloc_21 : memref<64xf32>) {
      ^bb0(%arg6: index, %arg7: f32, %arg8: f32, %arg9: f32, %arg10: f32):
        %7 = arith.mulf %arg8, %arg7 : f32
        %8 = arith.addf %7, %arg9 : f32
        attic.tile.yield %8 : f32
      }
      attic.tile.pv %alloc, %arg0[%arg2, %arg3, %arg5] rescale(%alloc_24) into %alloc_26 : memref<64x64xf32>, memref<1x1x64x64xf16>, memref<64xf32> into memref<64x64xf32>
    }
      scf.yield
    }
    attic.tile.map_rows at(%0) ins(%alloc_21, %alloc_20 : memref<64xf32>, memref<64xf32>) outs(%alloc_25 : memref<64xf32>) {
    ^bb0(%arg5: index, %arg6: f32, %arg7: f32, %arg8: f32):
      %cst = arith.constant 0.000000e+00 : f32
      %cst_35 = arith.constant 1.000000e+00 : f32
      %3 = arith.cmpf oeq, %arg6, %cst : f32
      %cst_36 = arith.constant 0xFF800000 : f32
      %cst_37 = arith.constant 0x7FC00000 : f32
      %4 = arith.cmpf oeq, %arg7, %cst_36 : f32
      %5 = arith.select %4, %cst, %cst_37 : f32
      %6 = arith.divf %cst_35, %arg6 : f32
      %7 = arith.select %3, %5, %6 : f32
      attic.tile.yield %7 : f32
    }
    %c0_34 = arith.constant 0 : index
    attic.tile.map at(%0, %c0_34) ins(%alloc_26 : memref<64x64xf32>) rows(%alloc_25 : memref<64xf32>) outs(%alloc_26 : memref<64x64xf32>) {
    ^bb0(%arg5: index, %arg6: index, %arg7: f32, %arg8: f32, %arg9: f32):
      %cst = arith.constant 0.000000e+00 : f32
      %3 = arith.cmpf oeq, %arg8, %cst : f32
      %4 = arith.mulf %arg7, %arg8 : f32
      %5 = arith.select %3, %cst, %4 : f32
      attic.tile.yield %5 : f32
    }
    attic.tile.store %alloc_26 into %arg1[%arg2, %arg3, %arg4] : memref<64x64xf32> into memref<1x1x64x64xf16>
    memref.dealloc %alloc : memref<64x64xf32>
    memref.dealloc %alloc_20 : memref<64xf32>
    memref.dealloc %alloc_21 : memref<64xf32>
    memref.dealloc %alloc_22 : memref<64xf32>
    memref.dealloc %alloc_23 : memref<64xf32>
    memref.dealloc %alloc_24 : memref<64xf32>
    memref.dealloc %alloc_25 : memref<64xf32>
    memref.dealloc %alloc_26 : memref<64x64xf32>
    scf.reduce 
  } {attic.tile_grid}
  return
}

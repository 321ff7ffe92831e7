// RUN: attic-opt %s --split-input-file --attic-gpu-map-tiles="wgmma=true kv-stages=2 tma=true warp-specialize=true" | FileCheck %s

// Which tile grids get the warp-specialized kernel: the producer follows
// the tile loop without its tile ops, so every other op of the grid must
// only read memory (or allocate a tile). The tile loop of a causal f16
// attention (attic-tile-block-attention's output for block_q 64, block_k
// 32) gets it.
// CHECK-LABEL: func.func @follows
// CHECK: gpu.launch
// CHECK-SAME: in (%{{.*}} = %c256,
// CHECK: "setmaxnreg.inc.sync.aligned.u32 240;"
// CHECK: } {attic.warp_roles}

// -----

// The same with a store into the output in the grid, outside its tile ops
// (what the producer cannot leave out or repeat): the TMA kernel without a
// producer (128 threads, thread 0 issuing the loads), no error.
// CHECK-LABEL: func.func @writes
// CHECK: gpu.launch
// CHECK-SAME: in (%{{.*}} = %c128,
// CHECK-NOT: setmaxnreg
// CHECK-NOT: attic.warp_roles
// CHECK: memref.store %{{.*}}, %arg3
// CHECK-NOT: attic.warp_roles
// CHECK: nvgpu.tma.async.load
// CHECK-NOT: attic.warp_roles
// CHECK: gpu.terminator

module {
  func.func @follows(%arg0: memref<1x2x100x64xf16>, %arg1: memref<1x2x100x64xf16>, %arg2: memref<1x2x100x64xf16>, %arg3: memref<1x2x100x64xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1_0 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c2_1 = arith.constant 2 : index
    %c100 = arith.constant 100 : index
    %c1_2 = arith.constant 1 : index
    %c2_3 = arith.constant 2 : index
    %c2_4 = arith.constant 2 : index
    %c100_5 = arith.constant 100 : index
    %c3 = arith.constant 3 : index
    %c64 = arith.constant 64 : index
    %c64_6 = arith.constant 64 : index
    %c2_7 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c4 = arith.constant 4 : index
    %c0_8 = arith.constant 0 : index
    %c0_9 = arith.constant 0 : index
    %c0_10 = arith.constant 0 : index
    %c1_11 = arith.constant 1 : index
    %c1_12 = arith.constant 1 : index
    %c1_13 = arith.constant 1 : index
    scf.parallel (%arg4, %arg5, %arg6) = (%c0_8, %c0_9, %c0_10) to (%c1, %c2, %c2_7) step (%c1_11, %c1_12, %c1_13) {
      %c1_14 = arith.constant 1 : index
      %c64_15 = arith.constant 64 : index
      %0 = arith.muli %arg6, %c64_15 : index
      %c64_16 = arith.constant 64 : index
      %1 = arith.addi %0, %c64_16 : index
      %2 = arith.minsi %1, %c100 : index
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<64x32xf32>
      %alloc_17 = memref.alloc() {alignment = 64 : i64} : memref<32xf32>
      %alloc_18 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
      %alloc_19 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
      %alloc_20 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
      %alloc_21 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
      %alloc_22 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
      %alloc_23 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
      %alloc_24 = memref.alloc() {alignment = 64 : i64} : memref<64x64xf32>
      attic.tile.map_rows at(%0) outs(%alloc_18, %alloc_19 : memref<64xf32>, memref<64xf32>) {
      ^bb0(%arg7: index, %arg8: f32, %arg9: f32):
        %cst = arith.constant 0xFF800000 : f32
        %cst_37 = arith.constant 0.000000e+00 : f32
        attic.tile.yield %cst, %cst_37 : f32, f32
      }
      %c0_25 = arith.constant 0 : index
      attic.tile.map at(%0, %c0_25) outs(%alloc_24 : memref<64x64xf32>) {
      ^bb0(%arg7: index, %arg8: index, %arg9: f32):
        %cst = arith.constant 0.000000e+00 : f32
        attic.tile.yield %cst : f32
      }
      %c0_26 = arith.constant 0 : index
      %c0_27 = arith.constant 0 : index
      %c1_28 = arith.constant 1 : index
      %3 = arith.subi %2, %c1_28 : index
      %c1_29 = arith.constant 1 : index
      %4 = arith.addi %3, %c1_29 : index
      %c0_30 = arith.constant 0 : index
      %c0_31 = arith.constant 0 : index
      %5 = arith.minsi %4, %c100_5 : index
      %6 = arith.cmpi sle, %5, %c0_31 : index
      %7 = arith.select %6, %c100_5, %c0_31 : index
      %c0_32 = arith.constant 0 : index
      %8 = arith.select %6, %c0_32, %5 : index
      %c32_33 = arith.constant 32 : index
      %9 = arith.floordivsi %7, %c32_33 : index
      %c32_34 = arith.constant 32 : index
      %10 = arith.ceildivsi %8, %c32_34 : index
      %c1_35 = arith.constant 1 : index
      scf.for %arg7 = %9 to %10 step %c1_35 {
        %c32_37 = arith.constant 32 : index
        %11 = arith.muli %arg7, %c32_37 : index
        %c32_38 = arith.constant 32 : index
        %12 = arith.addi %11, %c32_38 : index
        %13 = arith.minsi %12, %c100_5 : index
        %c0_39 = arith.constant 0 : index
        %c1_40 = arith.constant 1 : index
        %14 = arith.subi %2, %c1_40 : index
        %15 = arith.subi %11, %14 : index
        %c1_41 = arith.constant 1 : index
        %16 = arith.subi %13, %c1_41 : index
        %17 = arith.subi %16, %0 : index
        %c0_42 = arith.constant 0 : index
        %18 = arith.minsi %17, %c0_42 : index
        %19 = arith.cmpi sle, %15, %18 : index
        %true = arith.constant true
        %c0_43 = arith.constant 0 : index
        %20 = arith.cmpi sle, %17, %c0_43 : index
        scf.if %19 {
          scf.if %20 {
            %c32_44 = arith.constant 32 : index
            %21 = arith.muli %arg7, %c32_44 : index
            %c1_45 = arith.constant 1 : index
            %c99 = arith.constant 99 : index
            attic.tile.map_cols at(%21) outs(%alloc_17 : memref<32xf32>) {
            ^bb0(%arg8: index, %arg9: f32):
              %22 = arith.minsi %arg8, %c99 : index
              %23 = arith.cmpi slt, %arg8, %c100_5 : index
              %cst = arith.constant 0.000000e+00 : f32
              %cst_46 = arith.constant 0xFF800000 : f32
              %24 = arith.select %23, %cst, %cst_46 : f32
              attic.tile.yield %24 : f32
            }
            attic.tile.qk %arg0[%arg4, %arg5, %arg6], %arg1[%arg4, %arg5, %arg7] into %alloc : memref<1x2x100x64xf16>, memref<1x2x100x64xf16> into memref<64x32xf32>
            attic.tile.map at(%0, %21) ins(%alloc : memref<64x32xf32>) cols(%alloc_17 : memref<32xf32>) outs(%alloc : memref<64x32xf32>) {
            ^bb0(%arg8: index, %arg9: index, %arg10: f32, %arg11: f32, %arg12: f32):
              %c1_46 = arith.constant 1 : index
              %c99_47 = arith.constant 99 : index
              %22 = arith.minsi %arg8, %c99_47 : index
              %23 = arith.minsi %arg9, %c99 : index
              %cst = arith.constant 0.180336878 : f32
              %24 = arith.mulf %arg10, %cst : f32
              %25 = arith.addf %24, %arg11 : f32
              attic.tile.yield %25 : f32
            }
            attic.tile.reduce  max %alloc into %alloc_20 : memref<64x32xf32> into memref<64xf32>
            attic.tile.map_rows at(%0) ins(%alloc_18, %alloc_20 : memref<64xf32>, memref<64xf32>) outs(%alloc_18, %alloc_21, %alloc_22 : memref<64xf32>, memref<64xf32>, memref<64xf32>) {
            ^bb0(%arg8: index, %arg9: f32, %arg10: f32, %arg11: f32, %arg12: f32, %arg13: f32):
              %22 = arith.maxnumf %arg9, %arg10 : f32
              %cst = arith.constant 0xFF800000 : f32
              %cst_46 = arith.constant 0.000000e+00 : f32
              %23 = arith.cmpf oeq, %22, %cst : f32
              %24 = arith.select %23, %cst_46, %22 : f32
              %25 = arith.subf %arg9, %24 : f32
              %26 = math.exp2 %25 : f32
              attic.tile.yield %22, %24, %26 : f32, f32, f32
            }
            attic.tile.map at(%0, %21) ins(%alloc : memref<64x32xf32>) rows(%alloc_21 : memref<64xf32>) outs(%alloc : memref<64x32xf32>) {
            ^bb0(%arg8: index, %arg9: index, %arg10: f32, %arg11: f32, %arg12: f32):
              %22 = arith.subf %arg10, %arg11 : f32
              %23 = math.exp2 %22 : f32
              attic.tile.yield %23 : f32
            }
            attic.tile.reduce  add %alloc into %alloc_23 : memref<64x32xf32> into memref<64xf32>
            attic.tile.map_rows at(%0) ins(%alloc_19, %alloc_22, %alloc_23 : memref<64xf32>, memref<64xf32>, memref<64xf32>) outs(%alloc_19 : memref<64xf32>) {
            ^bb0(%arg8: index, %arg9: f32, %arg10: f32, %arg11: f32, %arg12: f32):
              %22 = arith.mulf %arg10, %arg9 : f32
              %23 = arith.addf %22, %arg11 : f32
              attic.tile.yield %23 : f32
            }
            attic.tile.pv %alloc, %arg2[%arg4, %arg5, %arg7] rescale(%alloc_22) into %alloc_24 : memref<64x32xf32>, memref<1x2x100x64xf16>, memref<64xf32> into memref<64x64xf32>
          } else {
            %c32_44 = arith.constant 32 : index
            %21 = arith.muli %arg7, %c32_44 : index
            %c1_45 = arith.constant 1 : index
            %c99 = arith.constant 99 : index
            attic.tile.map_cols at(%21) outs(%alloc_17 : memref<32xf32>) {
            ^bb0(%arg8: index, %arg9: f32):
              %22 = arith.minsi %arg8, %c99 : index
              %23 = arith.cmpi slt, %arg8, %c100_5 : index
              %cst = arith.constant 0.000000e+00 : f32
              %cst_46 = arith.constant 0xFF800000 : f32
              %24 = arith.select %23, %cst, %cst_46 : f32
              attic.tile.yield %24 : f32
            }
            attic.tile.qk %arg0[%arg4, %arg5, %arg6], %arg1[%arg4, %arg5, %arg7] into %alloc : memref<1x2x100x64xf16>, memref<1x2x100x64xf16> into memref<64x32xf32>
            attic.tile.map at(%0, %21) ins(%alloc : memref<64x32xf32>) cols(%alloc_17 : memref<32xf32>) outs(%alloc : memref<64x32xf32>) {
            ^bb0(%arg8: index, %arg9: index, %arg10: f32, %arg11: f32, %arg12: f32):
              %c1_46 = arith.constant 1 : index
              %c99_47 = arith.constant 99 : index
              %22 = arith.minsi %arg8, %c99_47 : index
              %23 = arith.minsi %arg9, %c99 : index
              %cst = arith.constant 0.180336878 : f32
              %24 = arith.mulf %arg10, %cst : f32
              %25 = arith.addf %24, %arg11 : f32
              %c0_48 = arith.constant 0 : index
              %26 = arith.subi %23, %22 : index
              %true_49 = arith.constant true
              %c0_50 = arith.constant 0 : index
              %27 = arith.cmpi sle, %26, %c0_50 : index
              %cst_51 = arith.constant 0xFF800000 : f32
              %28 = arith.select %27, %25, %cst_51 : f32
              attic.tile.yield %28 : f32
            }
            attic.tile.reduce  max %alloc into %alloc_20 : memref<64x32xf32> into memref<64xf32>
            attic.tile.map_rows at(%0) ins(%alloc_18, %alloc_20 : memref<64xf32>, memref<64xf32>) outs(%alloc_18, %alloc_21, %alloc_22 : memref<64xf32>, memref<64xf32>, memref<64xf32>) {
            ^bb0(%arg8: index, %arg9: f32, %arg10: f32, %arg11: f32, %arg12: f32, %arg13: f32):
              %22 = arith.maxnumf %arg9, %arg10 : f32
              %cst = arith.constant 0xFF800000 : f32
              %cst_46 = arith.constant 0.000000e+00 : f32
              %23 = arith.cmpf oeq, %22, %cst : f32
              %24 = arith.select %23, %cst_46, %22 : f32
              %25 = arith.subf %arg9, %24 : f32
              %26 = math.exp2 %25 : f32
              attic.tile.yield %22, %24, %26 : f32, f32, f32
            }
            attic.tile.map at(%0, %21) ins(%alloc : memref<64x32xf32>) rows(%alloc_21 : memref<64xf32>) outs(%alloc : memref<64x32xf32>) {
            ^bb0(%arg8: index, %arg9: index, %arg10: f32, %arg11: f32, %arg12: f32):
              %22 = arith.subf %arg10, %arg11 : f32
              %23 = math.exp2 %22 : f32
              attic.tile.yield %23 : f32
            }
            attic.tile.reduce  add %alloc into %alloc_23 : memref<64x32xf32> into memref<64xf32>
            attic.tile.map_rows at(%0) ins(%alloc_19, %alloc_22, %alloc_23 : memref<64xf32>, memref<64xf32>, memref<64xf32>) outs(%alloc_19 : memref<64xf32>) {
            ^bb0(%arg8: index, %arg9: f32, %arg10: f32, %arg11: f32, %arg12: f32):
              %22 = arith.mulf %arg10, %arg9 : f32
              %23 = arith.addf %22, %arg11 : f32
              attic.tile.yield %23 : f32
            }
            attic.tile.pv %alloc, %arg2[%arg4, %arg5, %arg7] rescale(%alloc_22) into %alloc_24 : memref<64x32xf32>, memref<1x2x100x64xf16>, memref<64xf32> into memref<64x64xf32>
          }
        }
      }
      %c0_36 = arith.constant 0 : index
      attic.tile.map at(%0, %c0_36) ins(%alloc_24 : memref<64x64xf32>) rows(%alloc_19 : memref<64xf32>) outs(%alloc_24 : memref<64x64xf32>) {
      ^bb0(%arg7: index, %arg8: index, %arg9: f32, %arg10: f32, %arg11: f32):
        %cst = arith.constant 0.000000e+00 : f32
        %11 = arith.cmpf oeq, %arg10, %cst : f32
        %12 = arith.divf %arg9, %arg10 : f32
        %13 = arith.select %11, %cst, %12 : f32
        attic.tile.yield %13 : f32
      }
      attic.tile.store %alloc_24 into %arg3[%arg4, %arg5, %arg6] : memref<64x64xf32> into memref<1x2x100x64xf16>
      memref.dealloc %alloc : memref<64x32xf32>
      memref.dealloc %alloc_17 : memref<32xf32>
      memref.dealloc %alloc_18 : memref<64xf32>
      memref.dealloc %alloc_19 : memref<64xf32>
      memref.dealloc %alloc_20 : memref<64xf32>
      memref.dealloc %alloc_21 : memref<64xf32>
      memref.dealloc %alloc_22 : memref<64xf32>
      memref.dealloc %alloc_23 : memref<64xf32>
      memref.dealloc %alloc_24 : memref<64x64xf32>
      scf.reduce 
    } {attic.tile_grid}
    return
  }
}

// -----

module {
  func.func @writes(%arg0: memref<1x2x100x64xf16>, %arg1: memref<1x2x100x64xf16>, %arg2: memref<1x2x100x64xf16>, %arg3: memref<1x2x100x64xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1_0 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c2_1 = arith.constant 2 : index
    %c100 = arith.constant 100 : index
    %c1_2 = arith.constant 1 : index
    %c2_3 = arith.constant 2 : index
    %c2_4 = arith.constant 2 : index
    %c100_5 = arith.constant 100 : index
    %c3 = arith.constant 3 : index
    %c64 = arith.constant 64 : index
    %c64_6 = arith.constant 64 : index
    %c2_7 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c4 = arith.constant 4 : index
    %c0_8 = arith.constant 0 : index
    %c0_9 = arith.constant 0 : index
    %c0_10 = arith.constant 0 : index
    %c1_11 = arith.constant 1 : index
    %c1_12 = arith.constant 1 : index
    %c1_13 = arith.constant 1 : index
    scf.parallel (%arg4, %arg5, %arg6) = (%c0_8, %c0_9, %c0_10) to (%c1, %c2, %c2_7) step (%c1_11, %c1_12, %c1_13) {
      %marker = arith.constant 1.0 : f16
      memref.store %marker, %arg3[%arg4, %arg5, %c0_8, %c0_8] : memref<1x2x100x64xf16>
      %c1_14 = arith.constant 1 : index
      %c64_15 = arith.constant 64 : index
      %0 = arith.muli %arg6, %c64_15 : index
      %c64_16 = arith.constant 64 : index
      %1 = arith.addi %0, %c64_16 : index
      %2 = arith.minsi %1, %c100 : index
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<64x32xf32>
      %alloc_17 = memref.alloc() {alignment = 64 : i64} : memref<32xf32>
      %alloc_18 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
      %alloc_19 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
      %alloc_20 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
      %alloc_21 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
      %alloc_22 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
      %alloc_23 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
      %alloc_24 = memref.alloc() {alignment = 64 : i64} : memref<64x64xf32>
      attic.tile.map_rows at(%0) outs(%alloc_18, %alloc_19 : memref<64xf32>, memref<64xf32>) {
      ^bb0(%arg7: index, %arg8: f32, %arg9: f32):
        %cst = arith.constant 0xFF800000 : f32
        %cst_37 = arith.constant 0.000000e+00 : f32
        attic.tile.yield %cst, %cst_37 : f32, f32
      }
      %c0_25 = arith.constant 0 : index
      attic.tile.map at(%0, %c0_25) outs(%alloc_24 : memref<64x64xf32>) {
      ^bb0(%arg7: index, %arg8: index, %arg9: f32):
        %cst = arith.constant 0.000000e+00 : f32
        attic.tile.yield %cst : f32
      }
      %c0_26 = arith.constant 0 : index
      %c0_27 = arith.constant 0 : index
      %c1_28 = arith.constant 1 : index
      %3 = arith.subi %2, %c1_28 : index
      %c1_29 = arith.constant 1 : index
      %4 = arith.addi %3, %c1_29 : index
      %c0_30 = arith.constant 0 : index
      %c0_31 = arith.constant 0 : index
      %5 = arith.minsi %4, %c100_5 : index
      %6 = arith.cmpi sle, %5, %c0_31 : index
      %7 = arith.select %6, %c100_5, %c0_31 : index
      %c0_32 = arith.constant 0 : index
      %8 = arith.select %6, %c0_32, %5 : index
      %c32_33 = arith.constant 32 : index
      %9 = arith.floordivsi %7, %c32_33 : index
      %c32_34 = arith.constant 32 : index
      %10 = arith.ceildivsi %8, %c32_34 : index
      %c1_35 = arith.constant 1 : index
      scf.for %arg7 = %9 to %10 step %c1_35 {
        %c32_37 = arith.constant 32 : index
        %11 = arith.muli %arg7, %c32_37 : index
        %c32_38 = arith.constant 32 : index
        %12 = arith.addi %11, %c32_38 : index
        %13 = arith.minsi %12, %c100_5 : index
        %c0_39 = arith.constant 0 : index
        %c1_40 = arith.constant 1 : index
        %14 = arith.subi %2, %c1_40 : index
        %15 = arith.subi %11, %14 : index
        %c1_41 = arith.constant 1 : index
        %16 = arith.subi %13, %c1_41 : index
        %17 = arith.subi %16, %0 : index
        %c0_42 = arith.constant 0 : index
        %18 = arith.minsi %17, %c0_42 : index
        %19 = arith.cmpi sle, %15, %18 : index
        %true = arith.constant true
        %c0_43 = arith.constant 0 : index
        %20 = arith.cmpi sle, %17, %c0_43 : index
        scf.if %19 {
          scf.if %20 {
            %c32_44 = arith.constant 32 : index
            %21 = arith.muli %arg7, %c32_44 : index
            %c1_45 = arith.constant 1 : index
            %c99 = arith.constant 99 : index
            attic.tile.map_cols at(%21) outs(%alloc_17 : memref<32xf32>) {
            ^bb0(%arg8: index, %arg9: f32):
              %22 = arith.minsi %arg8, %c99 : index
              %23 = arith.cmpi slt, %arg8, %c100_5 : index
              %cst = arith.constant 0.000000e+00 : f32
              %cst_46 = arith.constant 0xFF800000 : f32
              %24 = arith.select %23, %cst, %cst_46 : f32
              attic.tile.yield %24 : f32
            }
            attic.tile.qk %arg0[%arg4, %arg5, %arg6], %arg1[%arg4, %arg5, %arg7] into %alloc : memref<1x2x100x64xf16>, memref<1x2x100x64xf16> into memref<64x32xf32>
            attic.tile.map at(%0, %21) ins(%alloc : memref<64x32xf32>) cols(%alloc_17 : memref<32xf32>) outs(%alloc : memref<64x32xf32>) {
            ^bb0(%arg8: index, %arg9: index, %arg10: f32, %arg11: f32, %arg12: f32):
              %c1_46 = arith.constant 1 : index
              %c99_47 = arith.constant 99 : index
              %22 = arith.minsi %arg8, %c99_47 : index
              %23 = arith.minsi %arg9, %c99 : index
              %cst = arith.constant 0.180336878 : f32
              %24 = arith.mulf %arg10, %cst : f32
              %25 = arith.addf %24, %arg11 : f32
              attic.tile.yield %25 : f32
            }
            attic.tile.reduce  max %alloc into %alloc_20 : memref<64x32xf32> into memref<64xf32>
            attic.tile.map_rows at(%0) ins(%alloc_18, %alloc_20 : memref<64xf32>, memref<64xf32>) outs(%alloc_18, %alloc_21, %alloc_22 : memref<64xf32>, memref<64xf32>, memref<64xf32>) {
            ^bb0(%arg8: index, %arg9: f32, %arg10: f32, %arg11: f32, %arg12: f32, %arg13: f32):
              %22 = arith.maxnumf %arg9, %arg10 : f32
              %cst = arith.constant 0xFF800000 : f32
              %cst_46 = arith.constant 0.000000e+00 : f32
              %23 = arith.cmpf oeq, %22, %cst : f32
              %24 = arith.select %23, %cst_46, %22 : f32
              %25 = arith.subf %arg9, %24 : f32
              %26 = math.exp2 %25 : f32
              attic.tile.yield %22, %24, %26 : f32, f32, f32
            }
            attic.tile.map at(%0, %21) ins(%alloc : memref<64x32xf32>) rows(%alloc_21 : memref<64xf32>) outs(%alloc : memref<64x32xf32>) {
            ^bb0(%arg8: index, %arg9: index, %arg10: f32, %arg11: f32, %arg12: f32):
              %22 = arith.subf %arg10, %arg11 : f32
              %23 = math.exp2 %22 : f32
              attic.tile.yield %23 : f32
            }
            attic.tile.reduce  add %alloc into %alloc_23 : memref<64x32xf32> into memref<64xf32>
            attic.tile.map_rows at(%0) ins(%alloc_19, %alloc_22, %alloc_23 : memref<64xf32>, memref<64xf32>, memref<64xf32>) outs(%alloc_19 : memref<64xf32>) {
            ^bb0(%arg8: index, %arg9: f32, %arg10: f32, %arg11: f32, %arg12: f32):
              %22 = arith.mulf %arg10, %arg9 : f32
              %23 = arith.addf %22, %arg11 : f32
              attic.tile.yield %23 : f32
            }
            attic.tile.pv %alloc, %arg2[%arg4, %arg5, %arg7] rescale(%alloc_22) into %alloc_24 : memref<64x32xf32>, memref<1x2x100x64xf16>, memref<64xf32> into memref<64x64xf32>
          } else {
            %c32_44 = arith.constant 32 : index
            %21 = arith.muli %arg7, %c32_44 : index
            %c1_45 = arith.constant 1 : index
            %c99 = arith.constant 99 : index
            attic.tile.map_cols at(%21) outs(%alloc_17 : memref<32xf32>) {
            ^bb0(%arg8: index, %arg9: f32):
              %22 = arith.minsi %arg8, %c99 : index
              %23 = arith.cmpi slt, %arg8, %c100_5 : index
              %cst = arith.constant 0.000000e+00 : f32
              %cst_46 = arith.constant 0xFF800000 : f32
              %24 = arith.select %23, %cst, %cst_46 : f32
              attic.tile.yield %24 : f32
            }
            attic.tile.qk %arg0[%arg4, %arg5, %arg6], %arg1[%arg4, %arg5, %arg7] into %alloc : memref<1x2x100x64xf16>, memref<1x2x100x64xf16> into memref<64x32xf32>
            attic.tile.map at(%0, %21) ins(%alloc : memref<64x32xf32>) cols(%alloc_17 : memref<32xf32>) outs(%alloc : memref<64x32xf32>) {
            ^bb0(%arg8: index, %arg9: index, %arg10: f32, %arg11: f32, %arg12: f32):
              %c1_46 = arith.constant 1 : index
              %c99_47 = arith.constant 99 : index
              %22 = arith.minsi %arg8, %c99_47 : index
              %23 = arith.minsi %arg9, %c99 : index
              %cst = arith.constant 0.180336878 : f32
              %24 = arith.mulf %arg10, %cst : f32
              %25 = arith.addf %24, %arg11 : f32
              %c0_48 = arith.constant 0 : index
              %26 = arith.subi %23, %22 : index
              %true_49 = arith.constant true
              %c0_50 = arith.constant 0 : index
              %27 = arith.cmpi sle, %26, %c0_50 : index
              %cst_51 = arith.constant 0xFF800000 : f32
              %28 = arith.select %27, %25, %cst_51 : f32
              attic.tile.yield %28 : f32
            }
            attic.tile.reduce  max %alloc into %alloc_20 : memref<64x32xf32> into memref<64xf32>
            attic.tile.map_rows at(%0) ins(%alloc_18, %alloc_20 : memref<64xf32>, memref<64xf32>) outs(%alloc_18, %alloc_21, %alloc_22 : memref<64xf32>, memref<64xf32>, memref<64xf32>) {
            ^bb0(%arg8: index, %arg9: f32, %arg10: f32, %arg11: f32, %arg12: f32, %arg13: f32):
              %22 = arith.maxnumf %arg9, %arg10 : f32
              %cst = arith.constant 0xFF800000 : f32
              %cst_46 = arith.constant 0.000000e+00 : f32
              %23 = arith.cmpf oeq, %22, %cst : f32
              %24 = arith.select %23, %cst_46, %22 : f32
              %25 = arith.subf %arg9, %24 : f32
              %26 = math.exp2 %25 : f32
              attic.tile.yield %22, %24, %26 : f32, f32, f32
            }
            attic.tile.map at(%0, %21) ins(%alloc : memref<64x32xf32>) rows(%alloc_21 : memref<64xf32>) outs(%alloc : memref<64x32xf32>) {
            ^bb0(%arg8: index, %arg9: index, %arg10: f32, %arg11: f32, %arg12: f32):
              %22 = arith.subf %arg10, %arg11 : f32
              %23 = math.exp2 %22 : f32
              attic.tile.yield %23 : f32
            }
            attic.tile.reduce  add %alloc into %alloc_23 : memref<64x32xf32> into memref<64xf32>
            attic.tile.map_rows at(%0) ins(%alloc_19, %alloc_22, %alloc_23 : memref<64xf32>, memref<64xf32>, memref<64xf32>) outs(%alloc_19 : memref<64xf32>) {
            ^bb0(%arg8: index, %arg9: f32, %arg10: f32, %arg11: f32, %arg12: f32):
              %22 = arith.mulf %arg10, %arg9 : f32
              %23 = arith.addf %22, %arg11 : f32
              attic.tile.yield %23 : f32
            }
            attic.tile.pv %alloc, %arg2[%arg4, %arg5, %arg7] rescale(%alloc_22) into %alloc_24 : memref<64x32xf32>, memref<1x2x100x64xf16>, memref<64xf32> into memref<64x64xf32>
          }
        }
      }
      %c0_36 = arith.constant 0 : index
      attic.tile.map at(%0, %c0_36) ins(%alloc_24 : memref<64x64xf32>) rows(%alloc_19 : memref<64xf32>) outs(%alloc_24 : memref<64x64xf32>) {
      ^bb0(%arg7: index, %arg8: index, %arg9: f32, %arg10: f32, %arg11: f32):
        %cst = arith.constant 0.000000e+00 : f32
        %11 = arith.cmpf oeq, %arg10, %cst : f32
        %12 = arith.divf %arg9, %arg10 : f32
        %13 = arith.select %11, %cst, %12 : f32
        attic.tile.yield %13 : f32
      }
      attic.tile.store %alloc_24 into %arg3[%arg4, %arg5, %arg6] : memref<64x64xf32> into memref<1x2x100x64xf16>
      memref.dealloc %alloc : memref<64x32xf32>
      memref.dealloc %alloc_17 : memref<32xf32>
      memref.dealloc %alloc_18 : memref<64xf32>
      memref.dealloc %alloc_19 : memref<64xf32>
      memref.dealloc %alloc_20 : memref<64xf32>
      memref.dealloc %alloc_21 : memref<64xf32>
      memref.dealloc %alloc_22 : memref<64xf32>
      memref.dealloc %alloc_23 : memref<64xf32>
      memref.dealloc %alloc_24 : memref<64x64xf32>
      scf.reduce 
    } {attic.tile_grid}
    return
  }
}

// RUN: attic-opt %s --attic-gpu-map-tiles="kv-stages=2" | FileCheck %s

// A tile loop (the output of attic-tile-block-attention for a causal f16
// attention, block_q 32, block_k 16) edited so that the first branch's
// attic.tile.pv reads a value block computed inside the loop
// (%value_block), which the ring cannot prefetch. That branch's K and V
// are then staged as the kernel without a ring stages them, each in its
// own group: everything in flight is waited for, the block is copied into
// the current slot, waited for, and a barrier follows; the tag becomes -1
// (nothing is prefetched) and the slot stays. The other branch keeps the
// ring (prefetch into the other slot, wait for all but the newest group).
// CHECK-LABEL: func.func @tc
// CHECK: scf.for %[[KB:.*]] = {{.*}} iter_args({{.*}}, %[[TAG:.*]] = %c-1, %[[SLOT:.*]] = %c0{{[_0-9]*}}) -> ({{.*}}, index, index)
// CHECK: gpu.barrier
// CHECK: %[[KOFF:.*]] = arith.muli %[[SLOT]], %c384
// CHECK: arith.muli %[[SLOT]], %c384
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK: nvgpu.device_async_copy %arg1
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.ldmatrix
// CHECK: %[[VALUE_BLOCK:.*]] = arith.addi %[[KB]], %{{.*}} : index
// CHECK: gpu.barrier
// CHECK: arith.muli %[[SLOT]], %c384
// CHECK: arith.muli %[[SLOT]], %c384
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK: nvgpu.device_async_copy %arg2
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK: scf.yield {{.*}}, %c-1{{[_0-9]*}}, %[[SLOT]] : {{.*}}, index, index
// CHECK: } else {
// CHECK: gpu.barrier
// CHECK: arith.cmpi ne, %[[TAG]], %[[KB]] : index
// CHECK: arith.subi %c1{{[_0-9]*}}, %[[SLOT]] : index
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
  func.func @tc(%arg0: memref<1x2x40x16xf16>, %arg1: memref<1x2x40x16xf16>, %arg2: memref<1x2x40x16xf16>, %arg3: memref<1x2x40x16xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1_0 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c2_1 = arith.constant 2 : index
    %c40 = arith.constant 40 : index
    %c1_2 = arith.constant 1 : index
    %c2_3 = arith.constant 2 : index
    %c2_4 = arith.constant 2 : index
    %c40_5 = arith.constant 40 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c2_6 = arith.constant 2 : index
    %c16_7 = arith.constant 16 : index
    %c3_8 = arith.constant 3 : index
    %c0_9 = arith.constant 0 : index
    %c0_10 = arith.constant 0 : index
    %c0_11 = arith.constant 0 : index
    %c1_12 = arith.constant 1 : index
    %c1_13 = arith.constant 1 : index
    %c1_14 = arith.constant 1 : index
    scf.parallel (%arg4, %arg5, %arg6) = (%c0_9, %c0_10, %c0_11) to (%c1, %c2, %c2_6) step (%c1_12, %c1_13, %c1_14) {
      %c1_15 = arith.constant 1 : index
      %c32_16 = arith.constant 32 : index
      %0 = arith.muli %arg6, %c32_16 : index
      %c32_17 = arith.constant 32 : index
      %1 = arith.addi %0, %c32_17 : index
      %2 = arith.minsi %1, %c40 : index
      %alloc = memref.alloc() {alignment = 64 : i64} : memref<32x16xf32>
      %alloc_18 = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
      %alloc_19 = memref.alloc() {alignment = 64 : i64} : memref<32xf32>
      %alloc_20 = memref.alloc() {alignment = 64 : i64} : memref<32xf32>
      %alloc_21 = memref.alloc() {alignment = 64 : i64} : memref<32xf32>
      %alloc_22 = memref.alloc() {alignment = 64 : i64} : memref<32xf32>
      %alloc_23 = memref.alloc() {alignment = 64 : i64} : memref<32xf32>
      %alloc_24 = memref.alloc() {alignment = 64 : i64} : memref<32xf32>
      %alloc_25 = memref.alloc() {alignment = 64 : i64} : memref<32x16xf32>
      attic.tile.map_rows at(%0) outs(%alloc_19, %alloc_20 : memref<32xf32>, memref<32xf32>) {
      ^bb0(%arg7: index, %arg8: f32, %arg9: f32):
        %cst = arith.constant 0xFF800000 : f32
        %cst_38 = arith.constant 0.000000e+00 : f32
        attic.tile.yield %cst, %cst_38 : f32, f32
      }
      %c0_26 = arith.constant 0 : index
      attic.tile.map at(%0, %c0_26) outs(%alloc_25 : memref<32x16xf32>) {
      ^bb0(%arg7: index, %arg8: index, %arg9: f32):
        %cst = arith.constant 0.000000e+00 : f32
        attic.tile.yield %cst : f32
      }
      %c0_27 = arith.constant 0 : index
      %c0_28 = arith.constant 0 : index
      %c1_29 = arith.constant 1 : index
      %3 = arith.subi %2, %c1_29 : index
      %c1_30 = arith.constant 1 : index
      %4 = arith.addi %3, %c1_30 : index
      %c0_31 = arith.constant 0 : index
      %c0_32 = arith.constant 0 : index
      %5 = arith.minsi %4, %c40_5 : index
      %6 = arith.cmpi sle, %5, %c0_32 : index
      %7 = arith.select %6, %c40_5, %c0_32 : index
      %c0_33 = arith.constant 0 : index
      %8 = arith.select %6, %c0_33, %5 : index
      %c16_34 = arith.constant 16 : index
      %9 = arith.floordivsi %7, %c16_34 : index
      %c16_35 = arith.constant 16 : index
      %10 = arith.ceildivsi %8, %c16_35 : index
      %c1_36 = arith.constant 1 : index
      scf.for %arg7 = %9 to %10 step %c1_36 {
        %c16_38 = arith.constant 16 : index
        %11 = arith.muli %arg7, %c16_38 : index
        %c16_39 = arith.constant 16 : index
        %12 = arith.addi %11, %c16_39 : index
        %13 = arith.minsi %12, %c40_5 : index
        %c0_40 = arith.constant 0 : index
        %c1_41 = arith.constant 1 : index
        %14 = arith.subi %2, %c1_41 : index
        %15 = arith.subi %11, %14 : index
        %c1_42 = arith.constant 1 : index
        %16 = arith.subi %13, %c1_42 : index
        %17 = arith.subi %16, %0 : index
        %c0_43 = arith.constant 0 : index
        %18 = arith.minsi %17, %c0_43 : index
        %19 = arith.cmpi sle, %15, %18 : index
        %true = arith.constant true
        %c0_44 = arith.constant 0 : index
        %20 = arith.cmpi sle, %17, %c0_44 : index
        scf.if %19 {
          scf.if %20 {
            %c16_45 = arith.constant 16 : index
            %21 = arith.muli %arg7, %c16_45 : index
            %c1_46 = arith.constant 1 : index
            %c39 = arith.constant 39 : index
            attic.tile.map_cols at(%21) outs(%alloc_18 : memref<16xf32>) {
            ^bb0(%arg8: index, %arg9: f32):
              %22 = arith.minsi %arg8, %c39 : index
              %23 = arith.cmpi slt, %arg8, %c40_5 : index
              %cst = arith.constant 0.000000e+00 : f32
              %cst_47 = arith.constant 0xFF800000 : f32
              %24 = arith.select %23, %cst, %cst_47 : f32
              attic.tile.yield %24 : f32
            }
            attic.tile.qk %arg0[%arg4, %arg5, %arg6], %arg1[%arg4, %arg5, %arg7] into %alloc : memref<1x2x40x16xf16>, memref<1x2x40x16xf16> into memref<32x16xf32>
            attic.tile.map at(%0, %21) ins(%alloc : memref<32x16xf32>) cols(%alloc_18 : memref<16xf32>) outs(%alloc : memref<32x16xf32>) {
            ^bb0(%arg8: index, %arg9: index, %arg10: f32, %arg11: f32, %arg12: f32):
              %c1_47 = arith.constant 1 : index
              %c39_48 = arith.constant 39 : index
              %22 = arith.minsi %arg8, %c39_48 : index
              %23 = arith.minsi %arg9, %c39 : index
              %cst = arith.constant 0.360673755 : f32
              %24 = arith.mulf %arg10, %cst : f32
              %25 = arith.addf %24, %arg11 : f32
              attic.tile.yield %25 : f32
            }
            attic.tile.reduce  max %alloc into %alloc_21 : memref<32x16xf32> into memref<32xf32>
            attic.tile.map_rows at(%0) ins(%alloc_19, %alloc_21 : memref<32xf32>, memref<32xf32>) outs(%alloc_19, %alloc_22, %alloc_23 : memref<32xf32>, memref<32xf32>, memref<32xf32>) {
            ^bb0(%arg8: index, %arg9: f32, %arg10: f32, %arg11: f32, %arg12: f32, %arg13: f32):
              %22 = arith.maxnumf %arg9, %arg10 : f32
              %cst = arith.constant 0xFF800000 : f32
              %cst_47 = arith.constant 0.000000e+00 : f32
              %23 = arith.cmpf oeq, %22, %cst : f32
              %24 = arith.select %23, %cst_47, %22 : f32
              %25 = arith.subf %arg9, %24 : f32
              %26 = math.exp2 %25 : f32
              attic.tile.yield %22, %24, %26 : f32, f32, f32
            }
            attic.tile.map at(%0, %21) ins(%alloc : memref<32x16xf32>) rows(%alloc_22 : memref<32xf32>) outs(%alloc : memref<32x16xf32>) {
            ^bb0(%arg8: index, %arg9: index, %arg10: f32, %arg11: f32, %arg12: f32):
              %22 = arith.subf %arg10, %arg11 : f32
              %23 = math.exp2 %22 : f32
              attic.tile.yield %23 : f32
            }
            attic.tile.reduce  add %alloc into %alloc_24 : memref<32x16xf32> into memref<32xf32>
            attic.tile.map_rows at(%0) ins(%alloc_20, %alloc_23, %alloc_24 : memref<32xf32>, memref<32xf32>, memref<32xf32>) outs(%alloc_20 : memref<32xf32>) {
            ^bb0(%arg8: index, %arg9: f32, %arg10: f32, %arg11: f32, %arg12: f32):
              %22 = arith.mulf %arg10, %arg9 : f32
              %23 = arith.addf %22, %arg11 : f32
              attic.tile.yield %23 : f32
            }
            %c0_vb = arith.constant 0 : index
            %value_block = arith.addi %arg7, %c0_vb : index
            attic.tile.pv %alloc, %arg2[%arg4, %arg5, %value_block] rescale(%alloc_23) into %alloc_25 : memref<32x16xf32>, memref<1x2x40x16xf16>, memref<32xf32> into memref<32x16xf32>
          } else {
            %c16_45 = arith.constant 16 : index
            %21 = arith.muli %arg7, %c16_45 : index
            %c1_46 = arith.constant 1 : index
            %c39 = arith.constant 39 : index
            attic.tile.map_cols at(%21) outs(%alloc_18 : memref<16xf32>) {
            ^bb0(%arg8: index, %arg9: f32):
              %22 = arith.minsi %arg8, %c39 : index
              %23 = arith.cmpi slt, %arg8, %c40_5 : index
              %cst = arith.constant 0.000000e+00 : f32
              %cst_47 = arith.constant 0xFF800000 : f32
              %24 = arith.select %23, %cst, %cst_47 : f32
              attic.tile.yield %24 : f32
            }
            attic.tile.qk %arg0[%arg4, %arg5, %arg6], %arg1[%arg4, %arg5, %arg7] into %alloc : memref<1x2x40x16xf16>, memref<1x2x40x16xf16> into memref<32x16xf32>
            attic.tile.map at(%0, %21) ins(%alloc : memref<32x16xf32>) cols(%alloc_18 : memref<16xf32>) outs(%alloc : memref<32x16xf32>) {
            ^bb0(%arg8: index, %arg9: index, %arg10: f32, %arg11: f32, %arg12: f32):
              %c1_47 = arith.constant 1 : index
              %c39_48 = arith.constant 39 : index
              %22 = arith.minsi %arg8, %c39_48 : index
              %23 = arith.minsi %arg9, %c39 : index
              %cst = arith.constant 0.360673755 : f32
              %24 = arith.mulf %arg10, %cst : f32
              %25 = arith.addf %24, %arg11 : f32
              %c0_49 = arith.constant 0 : index
              %26 = arith.subi %23, %22 : index
              %true_50 = arith.constant true
              %c0_51 = arith.constant 0 : index
              %27 = arith.cmpi sle, %26, %c0_51 : index
              %cst_52 = arith.constant 0xFF800000 : f32
              %28 = arith.select %27, %25, %cst_52 : f32
              attic.tile.yield %28 : f32
            }
            attic.tile.reduce  max %alloc into %alloc_21 : memref<32x16xf32> into memref<32xf32>
            attic.tile.map_rows at(%0) ins(%alloc_19, %alloc_21 : memref<32xf32>, memref<32xf32>) outs(%alloc_19, %alloc_22, %alloc_23 : memref<32xf32>, memref<32xf32>, memref<32xf32>) {
            ^bb0(%arg8: index, %arg9: f32, %arg10: f32, %arg11: f32, %arg12: f32, %arg13: f32):
              %22 = arith.maxnumf %arg9, %arg10 : f32
              %cst = arith.constant 0xFF800000 : f32
              %cst_47 = arith.constant 0.000000e+00 : f32
              %23 = arith.cmpf oeq, %22, %cst : f32
              %24 = arith.select %23, %cst_47, %22 : f32
              %25 = arith.subf %arg9, %24 : f32
              %26 = math.exp2 %25 : f32
              attic.tile.yield %22, %24, %26 : f32, f32, f32
            }
            attic.tile.map at(%0, %21) ins(%alloc : memref<32x16xf32>) rows(%alloc_22 : memref<32xf32>) outs(%alloc : memref<32x16xf32>) {
            ^bb0(%arg8: index, %arg9: index, %arg10: f32, %arg11: f32, %arg12: f32):
              %22 = arith.subf %arg10, %arg11 : f32
              %23 = math.exp2 %22 : f32
              attic.tile.yield %23 : f32
            }
            attic.tile.reduce  add %alloc into %alloc_24 : memref<32x16xf32> into memref<32xf32>
            attic.tile.map_rows at(%0) ins(%alloc_20, %alloc_23, %alloc_24 : memref<32xf32>, memref<32xf32>, memref<32xf32>) outs(%alloc_20 : memref<32xf32>) {
            ^bb0(%arg8: index, %arg9: f32, %arg10: f32, %arg11: f32, %arg12: f32):
              %22 = arith.mulf %arg10, %arg9 : f32
              %23 = arith.addf %22, %arg11 : f32
              attic.tile.yield %23 : f32
            }
            attic.tile.pv %alloc, %arg2[%arg4, %arg5, %arg7] rescale(%alloc_23) into %alloc_25 : memref<32x16xf32>, memref<1x2x40x16xf16>, memref<32xf32> into memref<32x16xf32>
          }
        }
      }
      %c0_37 = arith.constant 0 : index
      attic.tile.map at(%0, %c0_37) ins(%alloc_25 : memref<32x16xf32>) rows(%alloc_20 : memref<32xf32>) outs(%alloc_25 : memref<32x16xf32>) {
      ^bb0(%arg7: index, %arg8: index, %arg9: f32, %arg10: f32, %arg11: f32):
        %cst = arith.constant 0.000000e+00 : f32
        %11 = arith.cmpf oeq, %arg10, %cst : f32
        %12 = arith.divf %arg9, %arg10 : f32
        %13 = arith.select %11, %cst, %12 : f32
        attic.tile.yield %13 : f32
      }
      attic.tile.store %alloc_25 into %arg3[%arg4, %arg5, %arg6] : memref<32x16xf32> into memref<1x2x40x16xf16>
      memref.dealloc %alloc : memref<32x16xf32>
      memref.dealloc %alloc_18 : memref<16xf32>
      memref.dealloc %alloc_19 : memref<32xf32>
      memref.dealloc %alloc_20 : memref<32xf32>
      memref.dealloc %alloc_21 : memref<32xf32>
      memref.dealloc %alloc_22 : memref<32xf32>
      memref.dealloc %alloc_23 : memref<32xf32>
      memref.dealloc %alloc_24 : memref<32xf32>
      memref.dealloc %alloc_25 : memref<32x16xf32>
      scf.reduce 
    } {attic.tile_grid}
    return
  }

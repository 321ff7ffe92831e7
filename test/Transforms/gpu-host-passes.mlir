// RUN: attic-opt %s --split-input-file --attic-gpu-annotate-kernels | FileCheck %s --check-prefix=ANNOTATE
// RUN: attic-opt %s --split-input-file --attic-gpu-check-host | FileCheck %s --check-prefix=HOST
// RUN: attic-opt %s --split-input-file --attic-gpu-annotate-kernels=inline-constants=false | FileCheck %s --check-prefix=KEEP
// RUN: not attic-opt %s '--attic-fail=message="bad option x"' 2>&1 | FileCheck %s --check-prefix=FAIL

// FAIL: error: bad option x
// An empty message printed a bare "error: ".
// RUN: not attic-opt %s '--attic-fail=message=' 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: attic-fail{{$}}

// The host moves data and launches kernels: accepted. Kernels get
// nvvm.minctasm = 1 unless they have their own, and their shared memory
// (workgroup attributions) llvm.align = 16 unless it has its own. @k0's
// launch has a grid of constants (known_grid_size) and a block size that
// is not one (a memref.dim out of range: no known_block_size).

// HOST-LABEL: func.func @host
// HOST: gpu.launch_func

// ANNOTATE-LABEL: gpu.module @kernels
// ANNOTATE: gpu.func @k0(%{{.*}}: memref<16xf32>) kernel attributes {known_grid_size = array<i32: 1, 1, 1>, nvvm.minctasm = 1 : i32}
// ANNOTATE: gpu.func @k1() kernel attributes {nvvm.minctasm = 4 : i32}
// ANNOTATE: gpu.func @helper() {
// ANNOTATE: gpu.func @k2() workgroup(%{{.*}} : memref<8xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<4xf32, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}) kernel attributes {nvvm.minctasm = 1 : i32}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k0(%m: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %m[%c0] : memref<16xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %m[%c0] : memref<16xf32>
      gpu.return
    }
    gpu.func @k1() kernel attributes {nvvm.minctasm = 4 : i32} {
      gpu.return
    }
    gpu.func @helper() {
      gpu.return
    }
    gpu.func @k2() workgroup(%a : memref<8xf16, #gpu.address_space<workgroup>>, %b : memref<4xf32, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}) kernel {
      gpu.return
    }
  }
  func.func @host(%arg: memref<16xf32>) -> memref<16xf32> {
    %c1 = arith.constant 1 : index
    %n = memref.dim %arg, %c1 : memref<16xf32>
    %two = arith.muli %n, %c1 : index
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
    %t2 = gpu.memcpy async [%t1] %dev, %arg : memref<16xf32>, memref<16xf32>
    %t3 = gpu.launch_func async [%t2] @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%two, %c1, %c1) args(%dev : memref<16xf32>)
    %host = memref.alloc() : memref<16xf32>
    %t4 = gpu.memcpy async [%t3] %host, %dev : memref<16xf32>, memref<16xf32>
    %t5 = gpu.dealloc async [%t4] %dev : memref<16xf32>
    gpu.wait [%t5]
    return %host : memref<16xf32>
  }
}


// -----

// A TMA tensor map that a kernel takes as an argument (canonicalization
// before outlining folded the tensor-core kernel's own casts) becomes the
// pointer convert-nvgpu-to-nvvm makes of it: cast back at the kernel's
// entry, cast to at the launch.
// ANNOTATE-LABEL: gpu.module @tma_kernels
// ANNOTATE: gpu.func @tma(%{{.*}}: index, %[[P:.*]]: !llvm.ptr) kernel
// ANNOTATE-NEXT: %[[MAP:.*]] = builtin.unrealized_conversion_cast %[[P]] : !llvm.ptr to !nvgpu.tensormap.descriptor
// ANNOTATE-NEXT: nvgpu.tma.prefetch.descriptor %[[MAP]]
// ANNOTATE-LABEL: func.func @launch_tma
// ANNOTATE: %[[HOSTP:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !nvgpu.tensormap.descriptor{{.*}} to !llvm.ptr
// ANNOTATE-NEXT: gpu.launch_func @tma_kernels::@tma {{.*}} args(%{{.*}} : index, %[[HOSTP]] : !llvm.ptr)
!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
module attributes {gpu.container_module} {
  gpu.module @tma_kernels {
    gpu.func @tma(%n: index, %m: !map) kernel {
      nvgpu.tma.prefetch.descriptor %m : !map
      gpu.return
    }
  }
  func.func @launch_tma(%buf: memref<*xf16>, %n: index) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %m = nvgpu.tma.create.descriptor %buf box[%c64, %c64] : memref<*xf16> -> !map
    gpu.launch_func @tma_kernels::@tma blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index, %m : !map)
    return
  }
}

// -----

// A kernel argument that every launch passes the same constant becomes the
// constant in the kernel (a canonicalization before outlining hoists the
// kernel's constants into the host function, and outlining passes each as
// an argument); one that the launches pass different constants or a
// value that is not a constant stays an argument.
// ANNOTATE-LABEL: gpu.module @constant_kernels
// ANNOTATE: gpu.func @k(%[[DIFF:.*]]: index, %[[VAL:.*]]: memref<4xf32>, %[[X:.*]]: f32) kernel
// ANNOTATE-DAG: %[[FOUR:.*]] = arith.constant 4 : index
// ANNOTATE-DAG: %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// ANNOTATE-DAG: %[[SPLAT:.*]] = arith.constant dense<1.000000e+00> : vector<2xf32>
// ANNOTATE: scf.for %{{.*}} = %[[DIFF]] to %[[FOUR]]
// ANNOTATE: arith.mulf %[[HALF]], %[[X]] : f32
// ANNOTATE: vector.store %[[SPLAT]]
// With inline-constants=false (attic-cuda-pipeline's
// inline-kernel-constants=false, for A/B timing) they stay arguments.
// KEEP-LABEL: gpu.module @constant_kernels
// KEEP: gpu.func @k(%{{.*}}: index, %{{.*}}: index, %{{.*}}: memref<4xf32>, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: vector<2xf32>) kernel
// ANNOTATE-LABEL: gpu.module @unlaunched
// ANNOTATE: gpu.func @u(%{{.*}}: index) kernel
// ANNOTATE-LABEL: func.func @launch_constants
// ANNOTATE: gpu.launch_func @constant_kernels::@k {{.*}} args(%{{.*}} : index, %{{.*}} : memref<4xf32>, %{{.*}} : f32)
// ANNOTATE-NEXT: gpu.launch_func @constant_kernels::@k {{.*}} args(%{{.*}} : index, %{{.*}} : memref<4xf32>, %{{.*}} : f32)
module attributes {gpu.container_module} {
  gpu.module @constant_kernels {
    gpu.func @k(%lo: index, %hi: index, %m: memref<4xf32>, %half: f32, %x: f32, %ones: vector<2xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %lo to %hi step %c1 {
        %y = arith.mulf %half, %x : f32
        memref.store %y, %m[%i] : memref<4xf32>
      }
      vector.store %ones, %m[%c0] : memref<4xf32>, vector<2xf32>
      gpu.return
    }
  }
  gpu.module @unlaunched {
    gpu.func @u(%n: index) kernel {
      gpu.return
    }
  }
  func.func @launch_constants(%m: memref<4xf32>, %x: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %half = arith.constant 0.5 : f32
    %ones = arith.constant dense<1.0> : vector<2xf32>
    gpu.launch_func @constant_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%c0 : index, %c4 : index, %m : memref<4xf32>, %half : f32, %x : f32, %ones : vector<2xf32>)
    gpu.launch_func @constant_kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%c1 : index, %c4 : index, %m : memref<4xf32>, %half : f32, %x : f32, %ones : vector<2xf32>)
    return
  }
}

// -----

// Sizes and flags that the host computes from constants without folding
// them (the mapping passes build a grid's size and the check that it is
// not empty so, and outlining passes them on as they are): folded here,
// the flag becomes a constant in the kernel, and the launches' common
// grid and block sizes the kernel's known sizes, its gpu.grid_dim and
// gpu.block_dim constants. A value the host does not know stays an
// argument; launches with different grid sizes leave the grid unknown.
// ANNOTATE-LABEL: gpu.module @computed_kernels
// ANNOTATE: gpu.func @k(%[[N:.*]]: index, %[[M:.*]]: memref<8x3xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 8, 3, 1>, nvvm.minctasm = 1 : i32}
// ANNOTATE-DAG: %[[TRUE:.*]] = arith.constant true
// ANNOTATE-DAG: %[[C8:.*]] = arith.constant 8 : index
// ANNOTATE-DAG: %[[C3:.*]] = arith.constant 3 : index
// ANNOTATE-DAG: %[[C128:.*]] = arith.constant 128 : index
// ANNOTATE-NOT: gpu.grid_dim
// ANNOTATE-NOT: gpu.block_dim
// ANNOTATE: scf.if %[[TRUE]]
// ANNOTATE: %[[D:.*]] = arith.subi %[[C3]], %[[C8]] : index
// ANNOTATE: arith.addi %[[D]], %[[C128]] : index
// ANNOTATE: gpu.func @other(%{{.*}}: index) kernel attributes {known_block_size = array<i32: 1, 1, 1>, nvvm.minctasm = 1 : i32}
// ANNOTATE: gpu.grid_dim x
// ANNOTATE-LABEL: func.func @launch_computed
// ANNOTATE: gpu.launch_func @computed_kernels::@k {{.*}} args(%{{.*}} : index, %{{.*}} : memref<8x3xf32>)
// KEEP-LABEL: gpu.module @computed_kernels
// KEEP: gpu.func @k(%{{.*}}: i1, %{{.*}}: index, %{{.*}}: memref<8x3xf32>) kernel attributes {nvvm.minctasm = 1 : i32}
// KEEP: gpu.grid_dim x
module attributes {gpu.container_module} {
  gpu.module @computed_kernels {
    gpu.func @k(%nonempty: i1, %n: index, %m: memref<8x3xf32>) kernel {
      %gx = gpu.grid_dim x
      %gy = gpu.grid_dim y
      %bx = gpu.block_dim x
      scf.if %nonempty {
        %d = arith.subi %gy, %gx : index
        %e = arith.addi %d, %bx : index
        %i = arith.addi %e, %n : index
        %f = arith.index_cast %i : index to i32
        %x = arith.sitofp %f : i32 to f32
        %c0 = arith.constant 0 : index
        memref.store %x, %m[%c0, %c0] : memref<8x3xf32>
      }
      gpu.return
    }
    gpu.func @other(%n: index) kernel {
      %gx = gpu.grid_dim x
      %i = arith.addi %gx, %n : index
      %f = arith.index_cast %i : index to i32
      gpu.return
    }
  }
  func.func @launch_computed(%m: memref<8x3xf32>, %dyn: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %bh = arith.muli %c2, %c4 : index
    %rows = memref.dim %m, %c1 : memref<8x3xf32>
    %ne0 = arith.cmpi sgt, %bh, %c0 : index
    %ne1 = arith.cmpi sgt, %rows, %c0 : index
    %nonempty = arith.andi %ne0, %ne1 : i1
    %gx = arith.maxsi %bh, %c1 : index
    %gy = arith.maxsi %rows, %c1 : index
    %threads = arith.muli %c4, %c32 : index
    %n = memref.dim %dyn, %c0 : memref<?xf32>
    gpu.launch_func @computed_kernels::@k blocks in (%gx, %gy, %c1) threads in (%threads, %c1, %c1) args(%nonempty : i1, %n : index, %m : memref<8x3xf32>)
    gpu.launch_func @computed_kernels::@other blocks in (%gx, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index)
    gpu.launch_func @computed_kernels::@other blocks in (%gy, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index)
    return
  }
}

// RUN: attic-opt %s --split-input-file --attic-gpu-annotate-kernels | FileCheck %s --check-prefix=ANNOTATE
// RUN: attic-opt %s --split-input-file --attic-gpu-check-host | FileCheck %s --check-prefix=HOST
// RUN: attic-opt %s --split-input-file --attic-gpu-annotate-kernels=inline-constants=false | FileCheck %s --check-prefix=KEEP
// RUN: not attic-opt %s '--attic-fail=message="bad option x"' 2>&1 | FileCheck %s --check-prefix=FAIL

// FAIL: error: bad option x

// The host moves data and launches kernels: accepted. Kernels get
// nvvm.minctasm = 1 unless they have their own, and their shared memory
// (workgroup attributions) llvm.align = 16 unless it has its own.

// HOST-LABEL: func.func @host
// HOST: gpu.launch_func

// ANNOTATE-LABEL: gpu.module @kernels
// ANNOTATE: gpu.func @k0(%{{.*}}: memref<16xf32>) kernel attributes {nvvm.minctasm = 1 : i32}
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

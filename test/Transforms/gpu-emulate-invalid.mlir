// RUN: attic-opt %s --split-input-file --attic-gpu-emulate -verify-diagnostics

// Threads of a block that meet at a barrier cannot run as independent loop
// iterations.
func.func @barrier(%m: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'gpu.barrier' op cannot be emulated on the CPU: threads of the gpu.launch would communicate}}
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// Also inside nested regions.
func.func @shuffle(%m: memref<32xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c1_i32 = arith.constant 1 : i32
  %c32_i32 = arith.constant 32 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    scf.for %i = %c0 to %c32 step %c1 {
      // expected-error @+1 {{'gpu.shuffle' op cannot be emulated on the CPU: threads of the gpu.launch would communicate}}
      %r, %valid = gpu.shuffle xor %x, %c1_i32, %c32_i32 : f32
      memref.store %r, %m[%i] : memref<32xf32>
    }
    gpu.terminator
  }
  return
}

// -----

func.func @subgroup_reduce(%x: f32) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'gpu.subgroup_reduce' op cannot be emulated on the CPU: threads of the gpu.launch would communicate}}
    %r = gpu.subgroup_reduce add %x : (f32) -> f32
    gpu.terminator
  }
  return
}

// -----

func.func @nvvm() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'nvvm.barrier0' op cannot be emulated on the CPU: threads of the gpu.launch would communicate}}
    nvvm.barrier0
    gpu.terminator
  }
  return
}

// -----

// Shared memory, declared as a workgroup attribution...
func.func @workgroup_attribution() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  // expected-error @+1 {{'gpu.launch' op cannot be emulated on the CPU: it has 1 workgroup memory attribution(s), through which threads would communicate}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
             workgroup(%shared : memref<32xf32, #gpu.address_space<workgroup>>) {
    gpu.terminator
  }
  return
}

// -----

// ... or allocated in the workgroup address space...
func.func @workgroup_alloca() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'memref.alloca' op cannot be emulated on the CPU: threads of the gpu.launch would communicate}}
    %shared = memref.alloca() : memref<32xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// ... or dynamic.
func.func @dynamic_shared_memory(%bytes: i32) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  // expected-error @+1 {{'gpu.launch' op cannot be emulated on the CPU: it has a dynamic shared memory size, through which threads would communicate}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    gpu.terminator
  }
  return
}

// -----

func.func @private_attribution_cast() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             private(%scratch : memref<4xf32, #gpu.address_space<private>>) {
    // expected-error @+1 {{'memref.cast' op uses a private attribution of a gpu.launch; attic-gpu-emulate emulates private memory for memref.load and memref.store only}}
    %c = memref.cast %scratch : memref<4xf32, #gpu.address_space<private>> to memref<?xf32, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}

// -----

// scf.parallel takes a single block.
func.func @several_blocks(%c: i1) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op cannot be emulated on the CPU: its body has more than one block}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    cf.cond_br %c, ^a, ^b
  ^a:
    gpu.terminator
  ^b:
    gpu.terminator
  }
  return
}

// -----

func.func @inline_asm(%x: f32) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'llvm.inline_asm' op cannot be emulated on the CPU: inline assembly is for the GPU}}
    %y = llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %x : (f32) -> f32
    gpu.terminator
  }
  return
}

// -----

func.func @printf() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'gpu.printf' op has no CPU emulation in attic-gpu-emulate}}
    gpu.printf "hello\n"
    gpu.terminator
  }
  return
}

// -----

// Host-side gpu ops other than alloc/dealloc/memcpy/memset/wait/launch.
func.func @host_register(%m: memref<*xf32>) {
  // expected-error @+1 {{'gpu.host_register' op has no CPU emulation in attic-gpu-emulate}}
  gpu.host_register %m : memref<*xf32>
  return
}

// -----

// Tokens are dropped, so nothing else may consume one.
func.func private @consume(!gpu.async.token)

func.func @token_escapes() {
  %t = gpu.wait async
  // expected-error @+1 {{'func.call' op uses the async token of 'gpu.wait', which attic-gpu-emulate removes}}
  func.call @consume(%t) : (!gpu.async.token) -> ()
  return
}

// -----

// Outlined kernels are not emulated.
module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.module' op run attic-gpu-emulate before gpu-kernel-outlining}}
  gpu.module @kernels {
    gpu.func @kernel(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }

  func.func @launch_func(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op run attic-gpu-emulate before gpu-kernel-outlining}}
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
}

// -----

func.func @private_attribution_dynamic() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op cannot be emulated on the CPU: private attribution 'memref<?xf32, #gpu.address_space<private>>' has a dynamic shape}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             private(%scratch : memref<?xf32, #gpu.address_space<private>>) {
    gpu.terminator
  }
  return
}

// -----

func.func @clusters() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op cannot be emulated on the CPU: thread block clusters are not emulated}}
  gpu.launch clusters(%cx, %cy, %cz) in (%ncx = %c1, %ncy = %c1, %ncz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

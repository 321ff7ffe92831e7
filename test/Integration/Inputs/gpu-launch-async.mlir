// A gpu.launch with an async token nobody waits for (gpu-launch.test).
func.func @async(%x: tensor<16xf32>) -> tensor<16xf32> {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %m = bufferization.to_buffer %x read_only : tensor<16xf32> to memref<16xf32>
  %o = memref.alloc() : memref<16xf32>
  %tok = gpu.launch async blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %v = memref.load %m[%tx] : memref<16xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %o[%tx] : memref<16xf32>
    gpu.terminator
  }
  %t = bufferization.to_tensor %o restrict : memref<16xf32> to tensor<16xf32>
  return %t : tensor<16xf32>
}

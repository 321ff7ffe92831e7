// A gpu.launch inside host control flow (gpu-launch.test): refused.
func.func @loop(%x: tensor<16xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %m = bufferization.to_buffer %x read_only : tensor<16xf32> to memref<16xf32>
  %o = memref.alloc() : memref<16xf32>
  memref.copy %m, %o : memref<16xf32> to memref<16xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
      %v = memref.load %o[%tx] : memref<16xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %o[%tx] : memref<16xf32>
      gpu.terminator
    }
  }
  %t = bufferization.to_tensor %o restrict : memref<16xf32> to tensor<16xf32>
  return %t : tensor<16xf32>
}

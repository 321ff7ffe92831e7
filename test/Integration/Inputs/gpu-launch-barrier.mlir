// A gpu.launch with a barrier and workgroup memory (gpu-launch.test).
func.func @barrier(%x: tensor<16xf32>) -> tensor<16xf32> {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c15 = arith.constant 15 : index
  %m = bufferization.to_buffer %x read_only : tensor<16xf32> to memref<16xf32>
  %o = memref.alloc() : memref<16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) workgroup(%sh : memref<16xf32, #gpu.address_space<workgroup>>) {
    %v = memref.load %m[%tx] : memref<16xf32>
    memref.store %v, %sh[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %c15, %tx : index
    %w = memref.load %sh[%r] : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %w, %o[%tx] : memref<16xf32>
    gpu.terminator
  }
  %t = bufferization.to_tensor %o restrict : memref<16xf32> to tensor<16xf32>
  return %t : tensor<16xf32>
}

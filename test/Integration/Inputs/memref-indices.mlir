// memref.load and memref.store at indices from the data
// (memref-indices.test): host code, and a gpu.launch's kernel.
func.func @gather(%table: tensor<8xf32>, %ids: tensor<4xi64>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %m = bufferization.to_buffer %table read_only : tensor<8xf32> to memref<8xf32>
  %o = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %id = tensor.extract %ids[%i] : tensor<4xi64>
    %j = arith.index_cast %id : i64 to index
    %x = memref.load %m[%j] : memref<8xf32>
    memref.store %x, %o[%i] : memref<4xf32>
  }
  %r = bufferization.to_tensor %o restrict : memref<4xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @scatter(%ids: tensor<4xi64>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %o = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%o : memref<8xf32>)
  scf.for %i = %c0 to %c4 step %c1 {
    %id = tensor.extract %ids[%i] : tensor<4xi64>
    %j = arith.index_cast %id : i64 to index
    memref.store %one, %o[%j] : memref<8xf32>
  }
  %r = bufferization.to_tensor %o restrict : memref<8xf32> to tensor<8xf32>
  return %r : tensor<8xf32>
}

// Each thread reads the element its own value names.
func.func @kernel_gather(%x: tensor<16xf32>) -> tensor<16xf32> {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %m = bufferization.to_buffer %x read_only : tensor<16xf32> to memref<16xf32>
  %o = memref.alloc() : memref<16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %v = memref.load %m[%tx] : memref<16xf32>
    %k = arith.fptosi %v : f32 to i32
    %j = arith.index_cast %k : i32 to index
    %w = memref.load %m[%j] : memref<16xf32>
    memref.store %w, %o[%tx] : memref<16xf32>
    gpu.terminator
  }
  %t = bufferization.to_tensor %o restrict : memref<16xf32> to tensor<16xf32>
  return %t : tensor<16xf32>
}

// A scatter-add with memref.atomic_rmw in an scf.forall.
func.func @atomic_scatter(%ids: tensor<4xi64>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %o = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%o : memref<8xf32>)
  scf.forall (%i) in (4) {
    %id = tensor.extract %ids[%i] : tensor<4xi64>
    %j = arith.index_cast %id : i64 to index
    %old = memref.atomic_rmw addf %one, %o[%j] : (f32, memref<8xf32>) -> f32
  }
  %r = bufferization.to_tensor %o restrict : memref<8xf32> to tensor<8xf32>
  return %r : tensor<8xf32>
}

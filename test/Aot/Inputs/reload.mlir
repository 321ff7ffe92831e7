// Dense attention whose buffers the runtime's allocator caches (each at
// least 64 KiB): test/Aot/aot-reload.test.
func.func @reload(%q: tensor<1x2x256x32xf32>, %k: tensor<1x2x256x32xf32>, %v: tensor<1x2x256x32xf32>) -> tensor<1x2x256x32xf32> {
  %o = attic.attention %q, %k, %v : tensor<1x2x256x32xf32>, tensor<1x2x256x32xf32>, tensor<1x2x256x32xf32> -> tensor<1x2x256x32xf32>
  return %o : tensor<1x2x256x32xf32>
}

// Dense f32 matmuls through attic_rt_sgemm (OpenBLAS) against the loop
// lowering (blas=false) and a float64 reference (numpy), on odd shapes,
// slices with offsets and leading strides, accumulation into a nonzero C
// and transposing indexing maps.
// REQUIRES: numpy
// RUN: rm -rf %t && split-file %s %t
// RUN: %python %t/compare.py inputs %t
// RUN: attic-opt %t/gemms.mlir --attic-cpu-pipeline | FileCheck %s --check-prefix=BLAS
// RUN: attic-opt %t/gemms.mlir --attic-cpu-pipeline=blas=false | FileCheck %s --check-prefix=LOOPS
// RUN: attic-run %t/gemms.mlir --input=%t/a.npy --input=%t/b.npy --input=%t/c.npy --input=%t/w.npy --input=%t/x.npy --input=%t/y.npy --input=%t/z.npy \
// RUN:   --output=%t/blas0.npy --output=%t/blas1.npy --output=%t/blas2.npy --output=%t/blas3.npy
// RUN: attic-run %t/gemms.mlir --blas=false --input=%t/a.npy --input=%t/b.npy --input=%t/c.npy --input=%t/w.npy --input=%t/x.npy --input=%t/y.npy --input=%t/z.npy \
// RUN:   --output=%t/loops0.npy --output=%t/loops1.npy --output=%t/loops2.npy --output=%t/loops3.npy
// RUN: attic-run %t/gemms.mlir --cpu-threads=1 --input=%t/a.npy --input=%t/b.npy --input=%t/c.npy --input=%t/w.npy --input=%t/x.npy --input=%t/y.npy --input=%t/z.npy \
// RUN:   --output=%t/one0.npy --output=%t/one1.npy --output=%t/one2.npy --output=%t/one3.npy
// RUN: %python %t/compare.py compare %t | FileCheck %s --check-prefix=CMP

// Four matmuls, each a call of the runtime's sgemm; none without BLAS.
// BLAS-COUNT-4: llvm.call @attic_rt_sgemm
// BLAS-NOT: llvm.call @attic_rt_sgemm
// LOOPS-NOT: attic_rt_sgemm

// CMP: result 0 (37, 23): blas vs reference ok, loops vs reference ok, 1 thread vs reference ok
// CMP: result 1 (30, 40): blas vs reference ok, loops vs reference ok, 1 thread vs reference ok
// CMP: result 2 (48, 33): blas vs reference ok, loops vs reference ok, 1 thread vs reference ok
// CMP: result 3 (129, 67): blas vs reference ok, loops vs reference ok, 1 thread vs reference ok

//--- gemms.mlir
#a_t = affine_map<(m, n, k) -> (k, m)>
#b_t = affine_map<(m, n, k) -> (n, k)>
#c_map = affine_map<(m, n, k) -> (m, n)>
func.func @gemms(%a: tensor<37x19xf32>, %b: tensor<19x23xf32>, %c: tensor<50x40xf32>,
                 %w: tensor<64x48xf32>, %x: tensor<33x64xf32>,
                 %y: tensor<129x257xf32>, %z: tensor<257x67xf32>)
    -> (tensor<37x23xf32>, tensor<30x40xf32>, tensor<48x33xf32>, tensor<129x67xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  // Odd sizes, zero-initialized C.
  %e0 = tensor.empty() : tensor<37x23xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x23xf32>) -> tensor<37x23xf32>
  %r0 = linalg.matmul ins(%a, %b : tensor<37x19xf32>, tensor<19x23xf32>) outs(%f0 : tensor<37x23xf32>) -> tensor<37x23xf32>
  // Slices: A = a[5:25, 3:14], B = c[7:18, 2:31], accumulated into the
  // window [4:24, 6:35] of a C of ones.
  %sa = tensor.extract_slice %a[5, 3] [20, 11] [1, 1] : tensor<37x19xf32> to tensor<20x11xf32>
  %sb = tensor.extract_slice %c[7, 2] [11, 29] [1, 1] : tensor<50x40xf32> to tensor<11x29xf32>
  %e1 = tensor.empty() : tensor<30x40xf32>
  %f1 = linalg.fill ins(%one : f32) outs(%e1 : tensor<30x40xf32>) -> tensor<30x40xf32>
  %sc = tensor.extract_slice %f1[4, 6] [20, 29] [1, 1] : tensor<30x40xf32> to tensor<20x29xf32>
  %m1 = linalg.matmul ins(%sa, %sb : tensor<20x11xf32>, tensor<11x29xf32>) outs(%sc : tensor<20x29xf32>) -> tensor<20x29xf32>
  %r1 = tensor.insert_slice %m1 into %f1[4, 6] [20, 29] [1, 1] : tensor<20x29xf32> into tensor<30x40xf32>
  // Transposing maps: w^T x^T.
  %e2 = tensor.empty() : tensor<48x33xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<48x33xf32>) -> tensor<48x33xf32>
  %r2 = linalg.matmul indexing_maps = [#a_t, #b_t, #c_map]
      ins(%w, %x : tensor<64x48xf32>, tensor<33x64xf32>) outs(%f2 : tensor<48x33xf32>) -> tensor<48x33xf32>
  // Larger odd sizes (BLAS's blocked kernels and their edges).
  %e3 = tensor.empty() : tensor<129x67xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<129x67xf32>) -> tensor<129x67xf32>
  %r3 = linalg.matmul ins(%y, %z : tensor<129x257xf32>, tensor<257x67xf32>) outs(%f3 : tensor<129x67xf32>) -> tensor<129x67xf32>
  return %r0, %r1, %r2, %r3 : tensor<37x23xf32>, tensor<30x40xf32>, tensor<48x33xf32>, tensor<129x67xf32>
}

//--- compare.py
import sys
import numpy as np

mode, d = sys.argv[1], sys.argv[2]
shapes = dict(a=(37, 19), b=(19, 23), c=(50, 40), w=(64, 48), x=(33, 64),
              y=(129, 257), z=(257, 67))
if mode == "inputs":
    rng = np.random.default_rng(7)
    for name, shape in shapes.items():
        np.save(f"{d}/{name}.npy", rng.uniform(-1, 1, shape).astype(np.float32))
    sys.exit(0)

t = {n: np.load(f"{d}/{n}.npy").astype(np.float64) for n in shapes}


def matmul(p, q):
    # Plain triple loop over float64 rows (no BLAS in the reference).
    out = np.zeros((p.shape[0], q.shape[1]))
    for i in range(p.shape[0]):
        for kk in range(p.shape[1]):
            out[i] += p[i, kk] * q[kk]
    return out


r1 = np.ones((30, 40))
r1[4:24, 6:35] += matmul(t["a"][5:25, 3:14], t["c"][7:18, 2:31])
refs = [matmul(t["a"], t["b"]), r1, matmul(t["w"].T, t["x"].T),
        matmul(t["y"], t["z"])]
failed = False
for i, ref in enumerate(refs):
    words = []
    for label, prefix in (("blas", "blas"), ("loops", "loops"), ("1 thread", "one")):
        got = np.load(f"{d}/{prefix}{i}.npy")
        assert got.shape == ref.shape, (prefix, i, got.shape, ref.shape)
        err = np.abs(got - ref).max() / max(np.abs(ref).max(), 1e-30)
        ok = np.isfinite(got).all() and err <= 1e-5
        failed |= not ok
        words.append(f"{label} vs reference {'ok' if ok else f'FAIL ({err:.2e})'}")
    print(f"result {i} {ref.shape}: " + ", ".join(words))
sys.exit(1 if failed else 0)

"""Regenerates NpyFixtures.h: byte-exact numpy.save output embedded in the
runtime tests, so they need no NumPy at test time.

    /usr/bin/python3 NpyFixtures.py > NpyFixtures.h
"""
import numpy as np, io
def npy(arr, version=None):
    b = io.BytesIO()
    if version is None:
        np.save(b, arr)
    else:
        np.lib.format.write_array(b, arr, version=version)
    return b.getvalue()
fixtures = [
  ('kF32_2x3', npy(np.arange(6, dtype='<f4').reshape(2, 3))),
  ('kF64Scalar', npy(np.array(3.5, dtype='<f8'))),
  ('kBool3', npy(np.array([True, False, True]))),
  ('kF16Empty2x0x3', npy(np.zeros((2, 0, 3), dtype='<f2'))),
  ('kF16Values', npy(np.array([1.0, -2.5, 65504.0], dtype='<f2'))),
  ('kI8Values', npy(np.array([-1, 2, -128, 127], dtype='i1'))),
  ('kI32V2', npy(np.arange(3, dtype='<i4'), version=(2, 0))),
  ('kI32V3', npy(np.arange(3, dtype='<i4'), version=(3, 0))),
  ('kI64Values', npy(np.array([[-5], [1 << 40]], dtype='<i8'))),
  ('kU2Values', npy(np.array([0x3f80, 0xc020], dtype='<u2'))),
  ('kBigEndianF4', npy(np.arange(2, dtype='>f4'))),
  ('kFortran2x2', npy(np.asfortranarray(np.arange(4, dtype='<f4').reshape(2, 2)))),
]
print('// Generated with NumPy %s by the script in NpyFixtures.py; do not edit.' % np.__version__)
print('// Each array is the exact output of numpy.save for the array named in the')
print('// script.')
print('#ifndef ATTIC_UNITTESTS_RUNTIME_NPYFIXTURES_H')
print('#define ATTIC_UNITTESTS_RUNTIME_NPYFIXTURES_H')
print()
print('namespace npyfixtures {')
for name, data in fixtures:
    print()
    print('static const unsigned char %s[] = {' % name)
    for i in range(0, len(data), 12):
        print('    ' + ' '.join('0x%02x,' % c for c in data[i:i + 12]))
    print('};')
print()
print('} // namespace npyfixtures')
print()
print('#endif // ATTIC_UNITTESTS_RUNTIME_NPYFIXTURES_H')

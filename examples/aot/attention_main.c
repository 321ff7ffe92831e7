/* attention_main.c: calls an ahead-of-time compiled attention from C.
 *
 *   attic-compile examples/attention.mlir --entry=attention_f32 \
 *       -o libattention_f32.so            # also writes attention_f32.h
 *   cc -O2 -I. -Iruntime/include examples/aot/attention_main.c \
 *       -L. -lattention_f32 -Lbuild/lib -lattic_rt -lm \
 *       -Wl,-rpath,$PWD -Wl,-rpath,$PWD/build/lib -o attention_main
 *   ./attention_main
 *
 * Fills Q, K, V [1,4,4096,64] with a fixed formula, calls attention_f32,
 * and compares 64 rows per head with softmax(Q K^T / 8) V computed here in
 * double. Prints the largest error relative to the largest expected value
 * (attic's measure) and exits 1 above 1e-5. The
 * library needs libattic_rt.so (OpenBLAS, libomp) and nothing of MLIR. */
#include "attention_f32.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { B = 1, H = 4, N = 4096, D = 64 };

static float value(int which, long i) {
  /* A deterministic pattern in [-1, 1). */
  unsigned long x = (unsigned long)i * 2654435761ul + (unsigned long)which * 97u;
  return (float)((x >> 7) % 2000) / 1000.0f - 1.0f;
}

int main(void) {
  long count = (long)B * H * N * D;
  float *q = malloc(sizeof(float) * count), *k = malloc(sizeof(float) * count),
        *v = malloc(sizeof(float) * count), *o = malloc(sizeof(float) * count);
  double *logits = malloc(sizeof(double) * N);
  if (!q || !k || !v || !o || !logits) {
    fprintf(stderr, "attention_main: out of memory\n");
    return 1;
  }
  for (long i = 0; i < count; ++i) {
    q[i] = value(0, i);
    k[i] = value(1, i);
    v[i] = value(2, i);
  }
  if (attention_f32(q, k, v, o) != 0) {
    fprintf(stderr, "attention_main: %s\n", attic_aot_last_error());
    return 1;
  }
  /* attic's measure: max |error| / max |expected|. */
  double maxAbs = 0, maxExpected = 0, scale = 1.0 / sqrt((double)D);
  for (int h = 0; h < H; ++h)
    for (int r = 0; r < 64; ++r) {
      int row = (r * 997 + h * 31) % N;
      const float *qi = q + ((long)h * N + row) * D;
      double max = -INFINITY, sum = 0;
      for (int j = 0; j < N; ++j) {
        const float *kj = k + ((long)h * N + j) * D;
        double s = 0;
        for (int d = 0; d < D; ++d)
          s += (double)qi[d] * kj[d];
        logits[j] = s * scale;
        if (logits[j] > max)
          max = logits[j];
      }
      for (int j = 0; j < N; ++j)
        sum += logits[j] = exp(logits[j] - max);
      for (int d = 0; d < D; ++d) {
        double expect = 0;
        for (int j = 0; j < N; ++j)
          expect += logits[j] * v[((long)h * N + j) * D + d];
        expect /= sum;
        double got = o[((long)h * N + row) * D + d];
        double err = fabs(got - expect);
        if (!(err <= maxAbs))
          maxAbs = isnan(err) ? INFINITY : err;
        if (fabs(expect) > maxExpected)
          maxExpected = fabs(expect);
      }
    }
  double worst = maxAbs / fmax(maxExpected, 1e-30);
  printf("attention_f32 from C: 256 rows checked, max relative error %.2e\n",
         worst);
  free(q), free(k), free(v), free(o), free(logits);
  return worst <= 1e-5 ? 0 : 1;
}

/* consumer-aot.c: a downstream C program that calls an attic-compile
 * library through the installed runtime (attic::attic_rt):
 *   consumer-aot LIB.so ENTRY
 * Calls ENTRY with every input element 1 and prints the first element of
 * each result (attention of all-ones inputs gives 1). */
#include "attic/runtime/Aot.h"
#include "attic/runtime/Runtime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  char symbol[256];
  if (argc != 3) {
    fprintf(stderr, "usage: consumer-aot LIB.so ENTRY\n");
    return 1;
  }
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "consumer-aot: %s\n", dlerror());
    return 1;
  }
  snprintf(symbol, sizeof(symbol), "%s__attic_entry", argv[2]);
  const attic_aot_entry *entry = dlsym(lib, symbol);
  if (!entry || attic_aot_check(entry)) {
    fprintf(stderr, "consumer-aot: %s\n",
            entry ? attic_aot_last_error() : "no such entry");
    return 1;
  }
  int64_t n = entry->num_inputs + entry->num_results;
  void **buffers = calloc((size_t)n, sizeof(void *));
  const int64_t *spec = entry->specs;
  for (int64_t i = 0; i < n; ++i) {
    int64_t numel = attic_aot_numel(entry, i);
    size_t size = attic_dtype_size((attic_dtype)spec[0]);
    buffers[i] = calloc((size_t)(numel ? numel : 1), size);
    if (i < entry->num_inputs && spec[0] == ATTIC_F32)
      for (int64_t j = 0; j < numel; ++j)
        ((float *)buffers[i])[j] = 1.0f;
    spec += 2 + spec[1];
  }
  if (attic_aot_call(entry, (const void *const *)buffers,
                     buffers + entry->num_inputs)) {
    fprintf(stderr, "consumer-aot: %s\n", attic_aot_last_error());
    return 1;
  }
  for (int64_t r = 0; r < entry->num_results; ++r)
    printf("result #%lld [0] = %g\n", (long long)r,
           (double)((float *)buffers[entry->num_inputs + r])[0]);
  for (int64_t i = 0; i < n; ++i)
    free(buffers[i]);
  free(buffers);
  return 0;
}

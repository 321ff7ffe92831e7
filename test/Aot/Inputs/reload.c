/* dlopen, call and dlclose an AOT library in a loop, from a program that
 * does not link libattic_rt.so itself (test/Aot/aot-reload.test): the
 * runtime must stay loaded after the library is closed (-z nodelete), and
 * the resident memory must not grow with the cycles. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef int32_t (*entry_fn)(const float *, const float *, const float *,
                            float *);

static long residentKiB(void) {
  long pages = 0, resident = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f || fscanf(f, "%ld %ld", &pages, &resident) != 2)
    return -1;
  fclose(f);
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  size_t n = 2 * 256 * 32;
  float *q = malloc(n * sizeof(float)), *o = malloc(n * sizeof(float));
  for (size_t i = 0; i < n; ++i)
    q[i] = (float)((i * 7919) % 101) / 101.0f - 0.5f;
  long before = 0;
  for (int cycle = 0; cycle < 60; ++cycle) {
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      printf("dlopen failed: %s\n", dlerror());
      return 1;
    }
    entry_fn f = (entry_fn)dlsym(lib, argv[2]);
    if (!f || f(q, q, q, o) != 0) {
      printf("the call failed\n");
      return 1;
    }
    dlclose(lib);
    if (cycle == 9)
      before = residentKiB();
  }
  long growth = residentKiB() - before;
  void *rt = dlopen("libattic_rt.so", RTLD_NOW | RTLD_NOLOAD);
  printf("runtime loaded after dlclose: %s\n", rt ? "yes" : "no");
  printf("growth over 50 cycles: %s (%ld KiB)\n",
         growth < 4096 ? "small" : "large", growth);
  return 0;
}

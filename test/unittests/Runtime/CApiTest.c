/*===- CApiTest.c - Runtime.h compiles and works as C ---------------------===*
 *
 * Compiled as C so the header's C compatibility is checked at build time;
 * the test in TensorTest.cpp calls this function.
 *
 *===----------------------------------------------------------------------===*/

#include "attic/runtime/Runtime.h"

int atticCApiSmokeTest(void);

int atticCApiSmokeTest(void) {
  int64_t shape[2] = {2, 3};
  attic_tensor t = {0};
  char err[128];
  if (attic_tensor_alloc(&t, ATTIC_F32, 2, shape, err, sizeof(err)) !=
      ATTIC_OK)
    return 1;
  attic_tensor_set(&t, 5, 2.5);
  int ok = attic_tensor_numel(&t) == 6 && attic_tensor_get(&t, 5) == 2.5 &&
           attic_dtype_size(ATTIC_BF16) == 2;
  attic_tensor_free(&t);
  attic_tensor_free(&t);
  return ok && t.data == NULL ? 0 : 2;
}

// fuzz-seed: skip (ends inside a region on purpose)
// A forward reference (%d) resolved by a definition inside a modifier
// region, then a parse error in that region (the end of the file): the
// MLIR fuzzer found that the region was freed with the outside use still
// pointing into it (heap corruption; test/Integration/parse-error-memory.test).
%o = scf.execute_region -> i64 {
  %di = arith.index_cast %d : index to i64
  %a = attic.attention %q, %k, %v mask_mod {
    %d = arith.subi %qi, %ki : index
  ^bb0(%s: f32, %qi: index, %ki: index):
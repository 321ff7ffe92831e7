// Mask regions whose integer arithmetic wraps, as the hardware's two's
// complement does (test/Integration/modifiers-wrapping.test), each beside a
// region without wrapping that keeps the same keys.

func.func @cut_i8(%q: tensor<1x1x256x16xf32>, %k: tensor<1x1x256x16xf32>, %v: tensor<1x1x256x16xf32>) -> tensor<1x1x256x16xf32> {
  %o = attic.attention %q, %k, %v mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %k8 = arith.index_cast %ki : index to i8
    %z = arith.constant 0 : i8
    %p = arith.cmpi sge, %k8, %z : i8
    attic.yield %p : i1
  } : tensor<1x1x256x16xf32>, tensor<1x1x256x16xf32>, tensor<1x1x256x16xf32> -> tensor<1x1x256x16xf32>
  return %o : tensor<1x1x256x16xf32>
}

// Keys below 128 (i8(k) >= 0 for k in [0, 256)).
func.func @cut_i8_plain(%q: tensor<1x1x256x16xf32>, %k: tensor<1x1x256x16xf32>, %v: tensor<1x1x256x16xf32>) -> tensor<1x1x256x16xf32> {
  %o = attic.attention %q, %k, %v mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c = arith.constant 128 : index
    %p = arith.cmpi slt, %ki, %c : index
    attic.yield %p : i1
  } : tensor<1x1x256x16xf32>, tensor<1x1x256x16xf32>, tensor<1x1x256x16xf32> -> tensor<1x1x256x16xf32>
  return %o : tensor<1x1x256x16xf32>
}

// k + (2^63 - 108) wraps to a negative value from k = 108 on.
func.func @add_wraps(%q: tensor<1x1x200x16xf32>, %k: tensor<1x1x200x16xf32>, %v: tensor<1x1x200x16xf32>) -> tensor<1x1x200x16xf32> {
  %o = attic.attention %q, %k, %v mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %big = arith.constant 9223372036854775700 : index
    %m = arith.addi %ki, %big : index
    %z = arith.constant 0 : index
    %p = arith.cmpi sge, %m, %z : index
    attic.yield %p : i1
  } : tensor<1x1x200x16xf32>, tensor<1x1x200x16xf32>, tensor<1x1x200x16xf32> -> tensor<1x1x200x16xf32>
  return %o : tensor<1x1x200x16xf32>
}

func.func @add_wraps_plain(%q: tensor<1x1x200x16xf32>, %k: tensor<1x1x200x16xf32>, %v: tensor<1x1x200x16xf32>) -> tensor<1x1x200x16xf32> {
  %o = attic.attention %q, %k, %v mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c = arith.constant 108 : index
    %p = arith.cmpi slt, %ki, %c : index
    attic.yield %p : i1
  } : tensor<1x1x200x16xf32>, tensor<1x1x200x16xf32>, tensor<1x1x200x16xf32> -> tensor<1x1x200x16xf32>
  return %o : tensor<1x1x200x16xf32>
}

// k * 2^62 is k's two low bits times 2^62: not negative for k mod 4 < 2.
func.func @mul_wraps(%q: tensor<1x1x200x16xf32>, %k: tensor<1x1x200x16xf32>, %v: tensor<1x1x200x16xf32>) -> tensor<1x1x200x16xf32> {
  %o = attic.attention %q, %k, %v mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %big = arith.constant 4611686018427387904 : index
    %m = arith.muli %ki, %big : index
    %z = arith.constant 0 : index
    %p = arith.cmpi sge, %m, %z : index
    attic.yield %p : i1
  } : tensor<1x1x200x16xf32>, tensor<1x1x200x16xf32>, tensor<1x1x200x16xf32> -> tensor<1x1x200x16xf32>
  return %o : tensor<1x1x200x16xf32>
}

func.func @mul_wraps_plain(%q: tensor<1x1x200x16xf32>, %k: tensor<1x1x200x16xf32>, %v: tensor<1x1x200x16xf32>) -> tensor<1x1x200x16xf32> {
  %o = attic.attention %q, %k, %v mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %c4 = arith.constant 4 : index
    %c2 = arith.constant 2 : index
    %r = arith.remsi %ki, %c4 : index
    %p = arith.cmpi slt, %r, %c2 : index
    attic.yield %p : i1
  } : tensor<1x1x200x16xf32>, tensor<1x1x200x16xf32>, tensor<1x1x200x16xf32> -> tensor<1x1x200x16xf32>
  return %o : tensor<1x1x200x16xf32>
}

// (k - q) cut to i8, then an i8 addition that wraps again.
func.func @sub_cut_add_i8(%q: tensor<1x1x200x16xf32>, %k: tensor<1x1x200x16xf32>, %v: tensor<1x1x200x16xf32>) -> tensor<1x1x200x16xf32> {
  %o = attic.attention %q, %k, %v mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %d = arith.subi %ki, %qi : index
    %d8 = arith.index_cast %d : index to i8
    %c = arith.constant 100 : i8
    %s = arith.addi %d8, %c : i8
    %z = arith.constant 0 : i8
    %p = arith.cmpi sge, %s, %z : i8
    attic.yield %p : i1
  } : tensor<1x1x200x16xf32>, tensor<1x1x200x16xf32>, tensor<1x1x200x16xf32> -> tensor<1x1x200x16xf32>
  return %o : tensor<1x1x200x16xf32>
}

// i8(k) back to index: the same keys as cut_i8. Upstream's canonicalization
// folded the two index_casts to k itself (every key visible, on every
// target, where --check's reference followed the casts; an audit).
func.func @round_trip_i8(%q: tensor<1x1x256x16xf32>, %k: tensor<1x1x256x16xf32>, %v: tensor<1x1x256x16xf32>) -> tensor<1x1x256x16xf32> {
  %o = attic.attention %q, %k, %v mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %k8 = arith.index_cast %ki : index to i8
    %back = arith.index_cast %k8 : i8 to index
    %z = arith.constant 0 : index
    %p = arith.cmpi sge, %back, %z : index
    attic.yield %p : i1
  } : tensor<1x1x256x16xf32>, tensor<1x1x256x16xf32>, tensor<1x1x256x16xf32> -> tensor<1x1x256x16xf32>
  return %o : tensor<1x1x256x16xf32>
}

// The unsigned pair: ui8(k) back to index is below 128 where cut_i8 keeps
// the key.
func.func @round_trip_ui8(%q: tensor<1x1x256x16xf32>, %k: tensor<1x1x256x16xf32>, %v: tensor<1x1x256x16xf32>) -> tensor<1x1x256x16xf32> {
  %o = attic.attention %q, %k, %v mask_mod {
  ^bb0(%b: index, %h: index, %qi: index, %ki: index):
    %k8 = arith.index_castui %ki : index to i8
    %back = arith.index_castui %k8 : i8 to index
    %c = arith.constant 128 : index
    %p = arith.cmpi ult, %back, %c : index
    attic.yield %p : i1
  } : tensor<1x1x256x16xf32>, tensor<1x1x256x16xf32>, tensor<1x1x256x16xf32> -> tensor<1x1x256x16xf32>
  return %o : tensor<1x1x256x16xf32>
}

// RUN: attic-opt %s --split-input-file --verify-diagnostics --attic-expand-vcc
// Trees that attic-expand-vcc cannot replace by their components are
// rejected with an error, not left behind.

// expected-error @below {{argument #0 has type '!attic.tree<1x8x4xf32, fanouts = [2, 4]>': attic-expand-vcc replaces !attic.tree values only inside a function body}}
func.func @tree_argument(%t: !attic.tree<1x8x4xf32, fanouts = [2, 4]>) -> tensor<1x8x4xf32> {
  %m = attic.tree_materialize %t : !attic.tree<1x8x4xf32, fanouts = [2, 4]> -> tensor<1x8x4xf32>
  return %m : tensor<1x8x4xf32>
}

// -----

// expected-error @below {{result #0 has type '!attic.tree<1x8x4xf32, fanouts = [2, 4]>'}}
func.func @tree_result(%c: tensor<1x8x4xf32>, %valid: tensor<1x8xi1>) -> !attic.tree<1x8x4xf32, fanouts = [2, 4]> {
  %t = attic.tree_build %c, %valid : tensor<1x8x4xf32>, tensor<1x8xi1> -> !attic.tree<1x8x4xf32, fanouts = [2, 4]>
  return %t : !attic.tree<1x8x4xf32, fanouts = [2, 4]>
}

// -----

// A tree may be used inside nested regions (scf.if, scf.for, ...; see
// expand-vcc.mlir), but not carried out of an op that upstream's structural
// conversion does not handle.
func.func @tree_out_of_execute_region(%c: tensor<1x8x4xf32>, %valid: tensor<1x8xi1>) -> tensor<1x8x4xf32> {
  // expected-error @below {{'scf.execute_region' op uses or defines an !attic.tree value: attic-expand-vcc replaces trees only where attic.tree_build, attic.tree_select, attic.vcc_compress, attic.tree_update, attic.tree_materialize and scf.for/if/while/yield/condition/index_switch use them}}
  %t = scf.execute_region -> !attic.tree<1x8x4xf32, fanouts = [2, 4]> {
    %b = attic.tree_build %c, %valid : tensor<1x8x4xf32>, tensor<1x8xi1> -> !attic.tree<1x8x4xf32, fanouts = [2, 4]>
    scf.yield %b : !attic.tree<1x8x4xf32, fanouts = [2, 4]>
  }
  %m = attic.tree_materialize %t : !attic.tree<1x8x4xf32, fanouts = [2, 4]> -> tensor<1x8x4xf32>
  return %m : tensor<1x8x4xf32>
}

// -----

func.func @block_argument(%c: tensor<1x8x4xf32>, %valid: tensor<1x8xi1>) -> tensor<1x8x4xf32> {
  %t = attic.tree_build %c, %valid : tensor<1x8x4xf32>, tensor<1x8xi1> -> !attic.tree<1x8x4xf32, fanouts = [2, 4]>
  // expected-error @below {{'cf.br' op uses or defines an !attic.tree value: attic-expand-vcc replaces trees only where attic.tree_build, attic.tree_select, attic.vcc_compress, attic.tree_update, attic.tree_materialize and scf.for/if/while/yield/condition/index_switch use them}}
  cf.br ^next(%t : !attic.tree<1x8x4xf32, fanouts = [2, 4]>)
^next(%u: !attic.tree<1x8x4xf32, fanouts = [2, 4]>):
  %m = attic.tree_materialize %u : !attic.tree<1x8x4xf32, fanouts = [2, 4]> -> tensor<1x8x4xf32>
  return %m : tensor<1x8x4xf32>
}

// -----

func.func @other_user(%c: tensor<1x8x4xf32>, %valid: tensor<1x8xi1>) -> tensor<1x8x4xf32> {
  %t = attic.tree_build %c, %valid : tensor<1x8x4xf32>, tensor<1x8xi1> -> !attic.tree<1x8x4xf32, fanouts = [2, 4]>
  // expected-error @below {{'builtin.unrealized_conversion_cast' op uses or defines an !attic.tree value}}
  %u = builtin.unrealized_conversion_cast %t : !attic.tree<1x8x4xf32, fanouts = [2, 4]> to !attic.tree<1x8x4xf32, fanouts = [2, 4]>
  %m = attic.tree_materialize %u : !attic.tree<1x8x4xf32, fanouts = [2, 4]> -> tensor<1x8x4xf32>
  return %m : tensor<1x8x4xf32>
}

// -----

// The runtime's error hook has a fixed signature; a module that declares it
// otherwise cannot host attic.vip_order's report.
func.func private @attic_rt_report_error(i32)

func.func @vip_order_bad_hook(%vip: tensor<1x8xi1>) -> tensor<1x8xi64> {
  // expected-error @below {{needs the runtime's @attic_rt_report_error, but the module declares it as '(i32) -> ()', not '(i32, i64, i64, i64) -> ()'; the name is reserved for attic's runtime}}
  %perm, %inverse = attic.vip_order %vip {num_vip = 2 : i64} : tensor<1x8xi1> -> tensor<1x8xi64>, tensor<1x8xi64>
  return %perm : tensor<1x8xi64>
}

// -----

func.func @tree_block_argument_of_execute_region(%c: tensor<1x8x4xf32>) -> tensor<1x8x4xf32> {
  %r = scf.execute_region -> tensor<1x8x4xf32> {
    scf.yield %c : tensor<1x8x4xf32>
  // expected-error @+1 {{block argument #0 of 'scf.execute_region' has type '!attic.tree<1x8x4xf32, fanouts = [2, 4]>': attic-expand-vcc replaces !attic.tree block arguments only in scf.for and scf.while}}
  ^bb1(%u: !attic.tree<1x8x4xf32, fanouts = [2, 4]>):
    scf.yield %c : tensor<1x8x4xf32>
  }
  return %r : tensor<1x8x4xf32>
}

// -----

func.func @tree_block_argument_of_function(%c: tensor<1x8x4xf32>) -> tensor<1x8x4xf32> {
  return %c : tensor<1x8x4xf32>
// expected-error @+1 {{block argument #0 has type '!attic.tree<1x8x4xf32, fanouts = [2, 4]>': attic-expand-vcc does not replace !attic.tree arguments of a function's blocks}}
^bb1(%u: !attic.tree<1x8x4xf32, fanouts = [2, 4]>):
  return %c : tensor<1x8x4xf32>
}

// -----

%vip = arith.constant dense<true> : tensor<1x8xi1>
// expected-error @+1 {{'attic.vip_order' op is outside a func.func body: attic-expand-vcc lowers VCC ops only in functions}}
%perm, %inverse = attic.vip_order %vip {num_vip = 2 : i64} : tensor<1x8xi1> -> tensor<1x8xi64>, tensor<1x8xi64>

// Passes that run on any op, nested below the module: they may not add
// @attic_rt_report_error to the module (the pass manager runs functions in
// parallel, and two threads inserted it at once: "redefinition of symbol",
// about one run in 30 with 64 functions); with the declaration there they
// run. (nested-passes-self-invalid.mlir: nested in any(...).)
// RUN: attic-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(attic-expand-vcc))'

func.func @undeclared(%vip: tensor<2x128xi1>) -> tensor<2x128xi64> {
  // expected-error @+1 {{'attic.vip_order' op needs @attic_rt_report_error(i32, i64, i64, i64), which the module does not declare: the pass runs on 'func.func', below the module, where it may not add the declaration (nested passes run in parallel); run the pass on the module, or declare `func.func private @attic_rt_report_error(i32, i64, i64, i64)`}}
  %perm, %inverse = attic.vip_order %vip {num_vip = 8 : i64} : tensor<2x128xi1> -> tensor<2x128xi64>, tensor<2x128xi64>
  return %perm : tensor<2x128xi64>
}

// -----

func.func private @attic_rt_report_error(i32, i64, i64, i64)
func.func @declared(%vip: tensor<2x128xi1>) -> tensor<2x128xi64> {
  %perm, %inverse = attic.vip_order %vip {num_vip = 8 : i64} : tensor<2x128xi1> -> tensor<2x128xi64>, tensor<2x128xi64>
  return %perm : tensor<2x128xi64>
}

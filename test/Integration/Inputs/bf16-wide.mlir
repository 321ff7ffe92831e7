// An integer wider than attic-exact-bf16-conversions rounds once.
func.func @too_wide(%x: i1001) -> bf16 {
  %b = arith.sitofp %x : i1001 to bf16
  return %b : bf16
}

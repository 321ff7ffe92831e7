// i64 results judged by --check (check-i64.test).
func.func @plus1(%x: tensor<4xi64>) -> tensor<4xi64> {
  %one = arith.constant dense<1> : tensor<4xi64>
  %r = arith.addi %x, %one : tensor<4xi64>
  return %r : tensor<4xi64>
}

func.func @scale(%x: tensor<4xi64>) -> tensor<4xi64> {
  %big = arith.constant dense<1099511627776> : tensor<4xi64>
  %r = arith.muli %x, %big : tensor<4xi64>
  return %r : tensor<4xi64>
}

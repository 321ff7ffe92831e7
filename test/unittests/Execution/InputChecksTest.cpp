//===- InputChecksTest.cpp - Bad tensors given to compiled functions ------===//
//
// CpuExecutable::run and SimulatedCudaExecutable::run with a NULL input, a
// freed tensor (data NULL, its shape kept), too little storage or a
// negative size: a one-line error, never a read through the pointer (a
// NULL input segfaulted in PackedCall::pack; an audit of the library).
//
//===----------------------------------------------------------------------===//

#include "CompiledHarness.h"

#include <string>

namespace {

using attic::testing::Tensor;

constexpr const char *kSource = R"mlir(
func.func @add(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %s = arith.addf %a, %b : tensor<?xf32>
  return %s : tensor<?xf32>
}
)mlir";

/// The error of running `exe` on `inputs`, or "ok".
template <typename Executable>
std::string runError(Executable &exe,
                     llvm::ArrayRef<const attic_tensor *> inputs) {
  llvm::SmallVector<attic_tensor> outputs;
  std::string error;
  if (mlir::succeeded(exe.run(inputs, outputs, error))) {
    for (attic_tensor &t : outputs)
      attic_tensor_free(&t);
    return "ok";
  }
  return error;
}

template <typename Executable> void checkBadInputs(Executable &exe) {
  Tensor a(ATTIC_F32, {4}), b(ATTIC_F32, {4});
  EXPECT_EQ(runError(exe, {&a.t, &b.t}), "ok");
  EXPECT_EQ(runError(exe, {&a.t, nullptr}), "argument #1 of @add is NULL");

  Tensor freed(ATTIC_F32, {4});
  attic_tensor_free(&freed.t);
  freed.t.dtype = ATTIC_F32;
  freed.t.rank = 1;
  freed.t.shape[0] = 4;
  EXPECT_EQ(runError(exe, {&freed.t, &b.t}),
            "argument #0 of @add has no storage");

  attic_tensor shortStorage = b.t;
  shortStorage.nbytes = 8;
  EXPECT_EQ(runError(exe, {&a.t, &shortStorage}),
            "argument #1 of @add holds 8 bytes but its shape needs 16");

  attic_tensor negative = b.t;
  negative.shape[0] = -4;
  EXPECT_EQ(runError(exe, {&a.t, &negative}),
            "argument #1 of @add has a negative size: -4");

  attic_tensor huge = b.t;
  huge.shape[0] = int64_t(1) << 62;
  EXPECT_EQ(runError(exe, {&a.t, &huge}),
            "argument #1 of @add has a shape of 2^63 bytes or more: "
            "4611686018427387904");

  // No elements: no storage needed.
  Tensor emptyA(ATTIC_F32, {0}), emptyB(ATTIC_F32, {0});
  attic_tensor noData = emptyB.t;
  noData.data = nullptr;
  noData.nbytes = 0;
  EXPECT_EQ(runError(exe, {&emptyA.t, &noData}), "ok");
}

TEST(InputChecks, CpuExecutable) {
  attic::testing::Compiled compiled(kSource, "add");
  ASSERT_TRUE(compiled.exe);
  checkBadInputs(*compiled.exe);
}

TEST(InputChecks, SimulatedCudaExecutable) {
  attic::testing::Simulated simulated(kSource, "add", 16, 16);
  ASSERT_TRUE(simulated.exe) << simulated.error;
  checkBadInputs(*simulated.exe);
}

} // namespace

//===- CompiledHarness.h - Run compiled attic functions in GoogleTests ----===//
//
// Shared by the GoogleTests that JIT-compile MLIR with attic-cpu-pipeline
// (CpuExecutable) or run it in the GPU simulator, and check the results: a
// self-freeing host tensor and a compiled entry function that runs on them.
// Compiled reports failures with ADD_FAILURE, so a test goes on to its next
// check; Simulated leaves them to the test (some expect them).
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_TEST_UNITTESTS_COMMON_COMPILEDHARNESS_H
#define ATTIC_TEST_UNITTESTS_COMMON_COMPILEDHARNESS_H

#include "attic/Execution/CpuExecutable.h"
#include "attic/Execution/GpuSimulator.h"
#include "attic/runtime/Runtime.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace attic::testing {

/// A host tensor that frees itself.
struct Tensor {
  attic_tensor t{};
  Tensor() = default;
  Tensor(attic_dtype dtype, std::vector<int64_t> shape) {
    char err[256];
    if (attic_tensor_alloc(&t, dtype, static_cast<int32_t>(shape.size()),
                           shape.data(), err, sizeof(err)) != ATTIC_OK)
      ADD_FAILURE() << err;
  }
  Tensor(const Tensor &) = delete;
  Tensor(Tensor &&o) noexcept : t(o.t) { o.t = attic_tensor{}; }
  Tensor &operator=(Tensor &&o) noexcept {
    std::swap(t, o.t);
    return *this;
  }
  ~Tensor() { attic_tensor_free(&t); }
  double operator[](int64_t i) const { return attic_tensor_get(&t, i); }
  void set(int64_t i, double v) { attic_tensor_set(&t, i, v); }
  int64_t numel() const { return attic_tensor_numel(&t); }
  int64_t dim(int i) const { return t.shape[i]; }
};

/// Runs `exe` (a CpuExecutable or a SimulatedCudaExecutable) on host
/// tensors. On failure returns no results and sets `error`.
template <typename Executable>
std::vector<Tensor> runExecutable(Executable &exe,
                                  const std::vector<const Tensor *> &inputs,
                                  std::string &error) {
  std::vector<Tensor> results;
  llvm::SmallVector<const attic_tensor *> in;
  for (const Tensor *t : inputs)
    in.push_back(&t->t);
  llvm::SmallVector<attic_tensor> out;
  error.clear();
  if (mlir::failed(exe.run(in, out, error)))
    return results;
  for (attic_tensor &o : out) {
    Tensor t;
    t.t = o;
    results.push_back(std::move(t));
  }
  return results;
}

/// One entry function compiled with attic-cpu-pipeline (default options
/// unless given).
class Compiled {
public:
  Compiled(const std::string &source, const std::string &entry,
           const attic::CpuPipelineOptions *given = nullptr) {
    attic::CpuPipelineOptions defaults;
    const attic::CpuPipelineOptions &options = given ? *given : defaults;
    mlir::DialectRegistry registry;
    attic::registerExecutionDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(registry);
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(source, context.get());
    if (!module) {
      ADD_FAILURE() << "cannot parse @" << entry;
      return;
    }
    std::string error;
    exe = attic::CpuExecutable::compile(*module, entry, options, error);
    if (!exe)
      ADD_FAILURE() << "cannot compile @" << entry << ": " << error;
  }

  std::vector<Tensor> run(const std::vector<const Tensor *> &inputs) {
    if (!exe)
      return {};
    std::string error;
    std::vector<Tensor> results = runExecutable(*exe, inputs, error);
    if (!error.empty())
      ADD_FAILURE() << error;
    return results;
  }

  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<attic::CpuExecutable> exe;
};

/// One entry function in the GPU simulator: compiled with the CUDA mapping
/// (blockQ, blockK), or, with `lowered`, taken as it is (a function on
/// memrefs with gpu.launch kernels). Failures are left to the caller:
/// `error` says why `exe` is null or why the last run failed.
class Simulated {
public:
  Simulated(const std::string &source, const std::string &entry,
            int64_t blockQ, int64_t blockK, bool lowered = false) {
    mlir::DialectRegistry registry;
    attic::registerExecutionDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(registry);
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(source, context.get());
    if (!module)
      error = "cannot parse @" + entry;
    else if (lowered)
      exe = attic::SimulatedCudaExecutable::fromLowered(std::move(module),
                                                        entry, error);
    else
      exe = attic::SimulatedCudaExecutable::compile(*module, entry, blockQ,
                                                    blockK, error);
  }

  std::vector<Tensor> run(const std::vector<const Tensor *> &inputs) {
    return exe ? runExecutable(*exe, inputs, error) : std::vector<Tensor>();
  }

  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<attic::SimulatedCudaExecutable> exe;
  std::string error;
};

/// "tensor<2x3xf32>" for dims {2, 3} and elem "f32" (MLIR sources built in
/// tests).
inline std::string tensorType(std::initializer_list<int64_t> dims,
                              const char *elem) {
  std::ostringstream os;
  os << "tensor<";
  for (int64_t d : dims)
    os << d << "x";
  os << elem << ">";
  return os.str();
}

/// An f32 tensor of `dims` with values uniform in [-scale, scale).
inline Tensor uniformTensor(std::mt19937 &rng, std::vector<int64_t> dims,
                            double scale) {
  Tensor t(ATTIC_F32, dims);
  std::uniform_real_distribution<double> dist(-scale, scale);
  for (int64_t i = 0; i < t.numel(); ++i)
    t.set(i, dist(rng));
  return t;
}

/// The elements of `t` as doubles, in order.
inline std::vector<double> tensorValues(const Tensor &t) {
  std::vector<double> v(t.numel());
  for (int64_t i = 0; i < t.numel(); ++i)
    v[i] = t[i];
  return v;
}

} // namespace attic::testing

#endif // ATTIC_TEST_UNITTESTS_COMMON_COMPILEDHARNESS_H

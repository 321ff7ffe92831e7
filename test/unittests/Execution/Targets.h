//===- Targets.h - the targets an execution test runs on --------*- C++ -*-===//
//
// The four ways the execution tests run one function: the CPU mapping, the
// CUDA pipeline's mapping run as CPU loops (attic-gpu-emulate), and the
// CUDA mapping's kernels in the GPU simulator, the SIMT kernel (f32) and
// the tensor-core kernel (the same function in f16).
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_TEST_UNITTESTS_EXECUTION_TARGETS_H
#define ATTIC_TEST_UNITTESTS_EXECUTION_TARGETS_H

#include "CompiledHarness.h"

#include <ostream>
#include <string>
#include <vector>

namespace attic::testing {

enum class Target { Cpu, CudaEmulated, SimulatedSimt, SimulatedTensorCores };

inline const char *name(Target t) {
  switch (t) {
  case Target::Cpu:
    return "Cpu";
  case Target::CudaEmulated:
    return "CudaEmulated";
  case Target::SimulatedSimt:
    return "SimulatedSimt";
  case Target::SimulatedTensorCores:
    return "SimulatedTensorCores";
  }
  return "Unknown";
}

// For gtest's messages and test listing.
inline void PrintTo(Target t, std::ostream *os) { *os << name(t); }

/// The tensor-core kernel needs f16 or bf16: the tests run it in f16.
inline bool halves(Target t) { return t == Target::SimulatedTensorCores; }

/// Compiles @`entry` of `source` for `target` (blocks of 16 x 16) and runs
/// it on `inputs`; on the simulator, also checks that the kernel that ran
/// is the one `target` names. Empty (with a test failure) when it fails.
inline std::vector<Tensor> runOn(Target target, const std::string &source,
                                 const std::string &entry,
                                 const std::vector<const Tensor *> &inputs) {
  if (target == Target::Cpu || target == Target::CudaEmulated) {
    attic::CpuPipelineOptions options;
    options.blockQ = 16;
    options.blockK = 16;
    options.emulateCuda = target == Target::CudaEmulated;
    Compiled compiled(source, entry, &options);
    return compiled.run(inputs);
  }
  Simulated simulated(source, entry, 16, 16);
  std::vector<Tensor> out = simulated.run(inputs);
  if (out.empty())
    ADD_FAILURE() << simulated.error;
  else
    EXPECT_EQ(simulated.exe->lastRunStats().mmas > 0, halves(target));
  return out;
}

} // namespace attic::testing

#endif // ATTIC_TEST_UNITTESTS_EXECUTION_TARGETS_H

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

#include <ostream>

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

} // namespace attic::testing

#endif // ATTIC_TEST_UNITTESTS_EXECUTION_TARGETS_H

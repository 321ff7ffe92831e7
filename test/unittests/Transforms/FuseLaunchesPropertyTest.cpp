//===- FuseLaunchesPropertyTest.cpp - attic-gpu-fuse-launches on random steps
//===//
//
// Property test of attic-gpu-fuse-launches (the moves to the levels of the
// dependence graph, then the joining): random sequences of kernels in
// attic-gpu-offload's form, each reading and writing random device
// buffers, with host ops between them (a store to host memory, a copy of a
// device buffer to the host, a call of unknown effect). After the pass:
//
//   - the IR verifies, and every kernel body is in exactly one launch;
//   - every pair of operations that do not commute (one writes a buffer
//     that the other touches; a call conflicts with everything) keeps its
//     order, and such a pair never shares a launch;
//   - kernels of different block sizes never share a launch;
//   - the launches are at least the longest chain of dependent kernels,
//     and at most those of `levels=false` (neighbours in program order
//     only), which are at most the kernels.
//
// The dependences are computed here from the generator's choices, not
// from the pass's analysis.
//
//===----------------------------------------------------------------------===//

#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <iostream>
#include <random>
#include <set>

using namespace mlir;

namespace {

/// One generated operation in program order: a kernel or a host op.
struct Event {
  enum Kind { Kernel, HostStore, CopyOut, Call } kind;
  std::set<int> reads, writes; // device buffers
  int64_t blockSize = 0;
};

bool conflict(const Event &a, const Event &b) {
  if (a.kind == Event::Call || b.kind == Event::Call)
    return true;
  auto meets = [](const std::set<int> &x, const std::set<int> &y) {
    for (int v : x)
      if (y.count(v))
        return true;
    return false;
  };
  return meets(a.writes, b.reads) || meets(a.writes, b.writes) ||
         meets(a.reads, b.writes);
}

struct Program {
  std::vector<Event> events;
  std::string text;
};

Program generate(unsigned seed) {
  std::mt19937 rng(seed);
  auto uniform = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  Program p;
  int buffers = uniform(2, 6);
  int count = uniform(1, 14);
  std::string body;
  body += "  %c0 = arith.constant 0 : index\n"
          "  %c1 = arith.constant 1 : index\n"
          "  %c64 = arith.constant 64 : index\n"
          "  %c128 = arith.constant 128 : index\n"
          "  %f = arith.constant 1.0 : f32\n"
          "  %host = memref.alloca() : memref<1xf32>\n"
          "  %w = gpu.wait async\n";
  std::string token = "%w";
  for (int b = 0; b < buffers; ++b) {
    body += llvm::formatv("  %b{0}, %t{0} = gpu.alloc async [{1}] () : "
                          "memref<128xf32>\n",
                          b, token);
    token = "%t" + std::to_string(b);
  }
  body += "  gpu.wait [" + token + "]\n";
  for (int i = 0; i < count; ++i) {
    Event e;
    int what = uniform(0, 9);
    if (what <= 6) {
      e.kind = Event::Kernel;
      e.blockSize = uniform(0, 4) ? 64 : 128;
      int reads = uniform(0, 2);
      for (int r = 0; r < reads; ++r)
        e.reads.insert(uniform(0, buffers - 1));
      e.writes.insert(uniform(0, buffers - 1));
      if (!uniform(0, 3))
        e.writes.insert(uniform(0, buffers - 1));
      std::string kernel;
      std::string value = "%f";
      int n = 0;
      for (int r : e.reads) {
        kernel += llvm::formatv("    %v{0} = memref.load %b{1}[%tx] : "
                                "memref<128xf32>\n",
                                n, r);
        kernel += llvm::formatv("    %acc{0} = arith.addf {1}, %v{0} : f32\n",
                                n, value);
        value = "%acc" + std::to_string(n++);
      }
      for (int w : e.writes)
        kernel += llvm::formatv("    memref.store {0}, %b{1}[%tx] "
                                "{{event = {2} : i64} : memref<128xf32>\n",
                                value, w, i);
      body += llvm::formatv(
          "  %s{0} = gpu.wait async\n"
          "  %l{0} = gpu.launch async [%s{0}] blocks(%bx, %by, %bz) in "
          "(%gx = %c{1}, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in "
          "(%sx = %c{2}, %sy = %c1, %sz = %c1) {{\n{3}    gpu.terminator\n"
          "  }\n  gpu.wait [%l{0}]\n",
          i, uniform(0, 1) ? 1 : 64, e.blockSize, kernel);
    } else if (what == 7) {
      e.kind = Event::HostStore;
      body += llvm::formatv("  memref.store %f, %host[%c0] {{event = {0} : "
                            "i64} : memref<1xf32>\n",
                            i);
    } else if (what == 8) {
      e.kind = Event::CopyOut;
      int b = uniform(0, buffers - 1);
      e.reads.insert(b);
      body += llvm::formatv(
          "  %cs{0} = gpu.wait async\n"
          "  %cp{0} = gpu.memcpy async [%cs{0}] %out, %b{1} : memref<128xf32>, "
          "memref<128xf32> {{event = {0} : i64}\n"
          "  gpu.wait [%cp{0}]\n",
          i, b);
    } else {
      e.kind = Event::Call;
      body += llvm::formatv("  func.call @opaque() {{event = {0} : i64} : "
                            "() -> ()\n",
                            i);
    }
    p.events.push_back(e);
  }
  p.text = "func.func private @opaque()\n"
           "func.func @f(%out: memref<128xf32>) {\n" +
           body + "  return\n}\n";
  return p;
}

TEST(FuseLaunchesProperty, RandomStepsKeepTheirDependences) {
  DialectRegistry registry;
  registry.insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                  memref::MemRefDialect, scf::SCFDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  int64_t kernels = 0, launches = 0, plainLaunches = 0, moved = 0;
  for (unsigned seed = 0; seed < 300; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Program p = generate(seed);
    // The launches with the moves and with neighbours in program order.
    auto fuse = [&](bool levels) {
      OwningOpRef<ModuleOp> module =
          parseSourceString<ModuleOp>(p.text, &context);
      EXPECT_TRUE(module) << p.text;
      if (!module)
        return module;
      PassManager pm(&context);
      attic::AtticGpuFuseLaunchesOptions options;
      options.levels = levels;
      pm.addPass(attic::createAtticGpuFuseLaunches(options));
      EXPECT_TRUE(succeeded(pm.run(*module))) << p.text;
      EXPECT_TRUE(succeeded(verify(*module))) << p.text;
      return module;
    };
    OwningOpRef<ModuleOp> module = fuse(true), plain = fuse(false);
    ASSERT_TRUE(module && plain);
    int64_t plainCount = 0;
    plain->walk([&](gpu::LaunchOp) { ++plainCount; });

    auto func = module->lookupSymbol<func::FuncOp>("f");
    // The top-level op that holds each event, and its index.
    DenseMap<Operation *, int64_t> position;
    int64_t index = 0, launchCount = 0;
    for (Operation &op : func.getBody().front()) {
      position[&op] = index++;
      launchCount += isa<gpu::LaunchOp>(op);
    }
    std::vector<int64_t> where(p.events.size(), -1);
    std::vector<Operation *> holder(p.events.size(), nullptr);
    bool consistent = true;
    func.walk([&](Operation *op) {
      auto tag = op->getAttrOfType<IntegerAttr>("event");
      if (!tag)
        return;
      Operation *top = op;
      while (top->getParentOp() != func)
        top = top->getParentOp();
      int64_t e = tag.getInt();
      if (holder[e] && holder[e] != top)
        consistent = false; // one kernel's stores in two launches
      holder[e] = top;
      where[e] = position[top];
    });
    ASSERT_TRUE(consistent) << p.text;
    int64_t kernelCount = 0;
    std::vector<int64_t> chain(p.events.size(), 0);
    int64_t longest = 0;
    for (size_t i = 0; i < p.events.size(); ++i) {
      ASSERT_GE(where[i], 0) << "event " << i << " lost\n" << p.text;
      if (p.events[i].kind != Event::Kernel)
        continue;
      ++kernelCount;
      chain[i] = 1;
      for (size_t j = 0; j < i; ++j) {
        if (p.events[j].kind == Event::Kernel &&
            conflict(p.events[j], p.events[i]))
          chain[i] = std::max(chain[i], chain[j] + 1);
      }
      longest = std::max(longest, chain[i]);
    }
    for (size_t i = 0; i < p.events.size(); ++i)
      for (size_t j = i + 1; j < p.events.size(); ++j) {
        if (conflict(p.events[i], p.events[j])) {
          EXPECT_LT(where[i], where[j])
              << "events " << i << " and " << j << " conflict\n"
              << p.text;
        }
        if (p.events[i].kind == Event::Kernel &&
            p.events[j].kind == Event::Kernel && where[i] == where[j]) {
          EXPECT_EQ(p.events[i].blockSize, p.events[j].blockSize)
              << "events " << i << " and " << j << "\n"
              << p.text;
        }
        if (where[i] > where[j])
          ++moved;
      }
    EXPECT_LE(launchCount, plainCount) << p.text;
    EXPECT_LE(plainCount, kernelCount) << p.text;
    EXPECT_GE(launchCount, longest) << p.text;
    kernels += kernelCount;
    launches += launchCount;
    plainLaunches += plainCount;
  }
  // The random programs do interleave independent work: some kernels move
  // and share launches (a check that the test exercises the moves).
  EXPECT_GT(moved, 0);
  EXPECT_LT(launches, plainLaunches);
  std::cout << kernels << " kernels became " << launches << " launches ("
            << plainLaunches << " joining neighbours in program order only); "
            << moved << " pairs of events changed order\n";
}

} // namespace

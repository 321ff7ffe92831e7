//===- GpuSimulator.cpp - a lockstep interpreter for the CUDA mapping -*- C++ -*-===//
//
// See include/attic/Execution/GpuSimulator.h for what it checks. The
// interpreter walks the IR of the CUDA mapping's output directly:
//
//   Frame     the values of one scope: the host function (1 thread) or a
//             thread block (T threads, each SSA value T copies); a kernel's
//             frame falls back to the host frame for values defined outside
//             gpu.launch (uniform);
//   Mask      the threads that execute a region (scf.if, scf.for and
//             scf.while narrow it where threads diverge);
//   Val       one thread's copy of a value: its scalars (a vector or an LLVM
//             struct flattened, floats as doubles holding a value of the
//             element type exactly, integers as their bits), or a memref
//             view;
//   Buffer    bytes in the layout the GPU would have (f16 as 2 bytes, ...),
//             so that loads of vectors and bitcasts see real bit patterns.
//
// The mma.sync fragment layouts below are transcribed from the PTX ISA
// ("Matrix Fragments for mma.m16n8k16 with floating point type"), not from
// attic's kernel code, so that the simulator checks the kernel against the
// hardware's definition.
//
//===----------------------------------------------------------------------===//

#include "attic/Execution/GpuSimulator.h"

#include "attic/InitAttic.h"
#include "attic/Pipelines/Pipelines.h"
#include "attic/runtime/Runtime.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <limits>
#include <mutex>
#include <thread>
#include <unordered_map>

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

/// One scalar: floats as a double that holds a value of the element type
/// exactly, integers (and index) as their bits, zero-extended from their
/// width.
union Elem {
  double f;
  uint64_t i;
};

/// Where a buffer lives: host code may touch only host memory, kernels only
/// device, shared and private memory (gpu.memcpy and gpu.memset move data
/// between the two); globals are cloned into the kernels' module.
enum class Space { Host, Device, Shared, Private, Global };

struct Buffer {
  std::vector<uint8_t> bytes;
  std::string what; // "a device buffer", "shared memory", ...
  Space space = Space::Host;
  bool freed = false;
  /// Shared memory: who read and wrote each byte since the last barrier.
  struct Access {
    uint64_t writeEpoch = 0, readEpoch = 0;
    /// reader -2: several threads, within the thread ranges of `readers`
    /// (a superset of them: wgmma reads name their warpgroup's 128
    /// threads), each with the latest release clock of its readers: one
    /// range per warpgroup read from, the second taking all others.
    int32_t writer = -1, reader = -1;
    struct Readers {
      int32_t lo = 0, hi = -1; // empty when hi < lo
      uint64_t clock = 0;
      bool operator==(const Readers &o) const {
        return lo == o.lo && hi == o.hi && clock == o.clock;
      }
    };
    Readers readers[2];
    /// The thread whose cp.async into this byte has not completed (-1:
    /// none): until its cp.async.wait_group the byte is not to be touched.
    int32_t asyncWriter = -1;
    /// When the byte was last written (Interpreter::writes, a count of
    /// writes): a wgmma reads it only after its writer's
    /// fence.proxy.async.
    uint64_t writeSeq = 0;
    /// Written by a TMA load (the async proxy) whose completion is phase
    /// tmaPhase of the block's mbarrier tmaBarrier (-1: none): a thread
    /// reads the byte only after it has waited for that phase.
    int32_t tmaBarrier = -1;
    uint64_t tmaPhase = 0;
    /// The writer's and the reader's release clocks at the access
    /// (BlockContext::clock; with several readers, the latest of theirs): a
    /// later access by a thread that has acquired a later release of theirs
    /// through an mbarrier (of each reader) is ordered after it.
    uint64_t writeClock = 0, readClock = 0;
  };
  std::vector<Access> access;
  /// Shared memory: its simulated address in the block's shared window
  /// (what memref.extract_aligned_pointer_as_index and wgmma descriptors
  /// see).
  uint64_t sharedAddr = 0;
  bool shared() const { return !access.empty(); }
};

/// A memref view: element offset, sizes and strides (in elements of
/// `elemType`, which may itself be a vector type) into a buffer.
struct MemRefVal {
  Buffer *buffer = nullptr;
  Type elemType;
  int64_t elemBytes = 0;
  int64_t offset = 0;
  SmallVector<int64_t, 4> sizes, strides;
};

struct Val {
  SmallVector<Elem, 4> e;
  MemRefVal *memref = nullptr;
};

using Mask = SmallVector<int32_t>;

unsigned intWidth(Type t) {
  if (t.isIndex())
    return 64;
  return cast<IntegerType>(t).getWidth();
}

uint64_t truncBits(uint64_t v, unsigned w) {
  return w >= 64 ? v : v & ((uint64_t(1) << w) - 1);
}

int64_t signedOf(uint64_t v, unsigned w) {
  if (w >= 64)
    return static_cast<int64_t>(v);
  uint64_t m = uint64_t(1) << (w - 1);
  return static_cast<int64_t>((truncBits(v, w) ^ m) - m);
}

/// `x` rounded to the float type `t` (to nearest even).
double roundTo(Type t, double x) {
  if (t.isF64())
    return x;
  if (t.isF32())
    return static_cast<double>(static_cast<float>(x));
  if (t.isF16())
    return attic_f16_to_f32(attic_f64_to_f16(x));
  if (t.isBF16())
    return attic_bf16_to_f32(attic_f64_to_bf16(x));
  return x;
}

/// Scalar element type of a scalar, vector or (the first field of an) LLVM
/// struct or array type.
Type scalarType(Type t, int64_t index = 0) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getElementType();
  if (auto s = dyn_cast<LLVM::LLVMStructType>(t)) {
    for (Type field : s.getBody()) {
      int64_t n = 1;
      if (auto a = dyn_cast<LLVM::LLVMArrayType>(field))
        n = a.getNumElements();
      if (index < n)
        return scalarType(field, index);
      index -= n;
    }
    return Type();
  }
  if (auto a = dyn_cast<LLVM::LLVMArrayType>(t))
    return scalarType(a.getElementType());
  return t;
}

/// Number of scalars of a value of type `t`.
int64_t scalarCount(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements();
  if (auto s = dyn_cast<LLVM::LLVMStructType>(t)) {
    int64_t n = 0;
    for (Type field : s.getBody())
      n += scalarCount(field);
    return n;
  }
  if (auto a = dyn_cast<LLVM::LLVMArrayType>(t))
    return a.getNumElements() * scalarCount(a.getElementType());
  return 1;
}

/// Bytes of one scalar of type `t` in memory (i1: one byte).
int64_t scalarBytes(Type t) {
  if (auto f = dyn_cast<FloatType>(t))
    return f.getWidth() / 8;
  if (t.isIndex())
    return 8;
  if (auto i = dyn_cast<IntegerType>(t))
    return (i.getWidth() + 7) / 8;
  return 0;
}

/// Bytes of one memref element (a scalar or a vector of scalars).
int64_t elementBytes(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements() * scalarBytes(v.getElementType());
  return scalarBytes(t);
}

void storeScalar(Type t, Elem e, uint8_t *p) {
  if (t.isF64()) {
    std::memcpy(p, &e.f, 8);
  } else if (t.isF32()) {
    float f = static_cast<float>(e.f);
    std::memcpy(p, &f, 4);
  } else if (t.isF16()) {
    uint16_t h = attic_f64_to_f16(e.f);
    std::memcpy(p, &h, 2);
  } else if (t.isBF16()) {
    uint16_t h = attic_f64_to_bf16(e.f);
    std::memcpy(p, &h, 2);
  } else {
    std::memcpy(p, &e.i, scalarBytes(t)); // little endian
  }
}

Elem loadScalar(Type t, const uint8_t *p) {
  Elem e;
  e.i = 0;
  if (t.isF64()) {
    std::memcpy(&e.f, p, 8);
  } else if (t.isF32()) {
    float f;
    std::memcpy(&f, p, 4);
    e.f = f;
  } else if (t.isF16()) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    e.f = attic_f16_to_f32(h);
  } else if (t.isBF16()) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    e.f = attic_bf16_to_f32(h);
  } else {
    std::memcpy(&e.i, p, scalarBytes(t));
    e.i = truncBits(e.i, intWidth(t));
  }
  return e;
}

/// The bytes of a value's scalars (each of its own type), for bitcasts.
SmallVector<uint8_t> toBytes(Type t, const Val &v) {
  SmallVector<uint8_t> bytes;
  for (int64_t i = 0, n = scalarCount(t); i < n; ++i) {
    Type s = scalarType(t, i);
    size_t at = bytes.size();
    bytes.resize(at + scalarBytes(s));
    storeScalar(s, v.e[i], bytes.data() + at);
  }
  return bytes;
}

Val fromBytes(Type t, ArrayRef<uint8_t> bytes) {
  Val v;
  size_t at = 0;
  for (int64_t i = 0, n = scalarCount(t); i < n; ++i) {
    Type s = scalarType(t, i);
    v.e.push_back(loadScalar(s, bytes.data() + at));
    at += scalarBytes(s);
  }
  return v;
}

Elem floatElem(double f) {
  Elem e;
  e.f = f;
  return e;
}
Elem intElem(uint64_t i) {
  Elem e;
  e.i = i;
  return e;
}

//===----------------------------------------------------------------------===//
// Frames
//===----------------------------------------------------------------------===//

struct Frame {
  Frame *parent = nullptr;
  int32_t threads = 1;
  struct ValueHash {
    size_t operator()(Value v) const { return hash_value(v); }
  };
  /// Node-based, so that a reference from `slot` stays valid when a later
  /// `slot` adds a value (ops that write two results, such as gpu.shuffle,
  /// hold both; a DenseMap may move its entries when it grows).
  std::unordered_map<Value, std::vector<Val>, ValueHash> values;

  /// Thread t's copy of `v` (the only copy where it is uniform), or null.
  const Val *find(Value v, int32_t t) const {
    for (const Frame *f = this; f; f = f->parent) {
      auto it = f->values.find(v);
      if (it != f->values.end())
        return &it->second[f->threads == 1 ? 0 : t];
    }
    return nullptr;
  }
  /// The copies of `v` in this frame, for writing (existing copies of
  /// threads outside the mask are kept).
  std::vector<Val> &slot(Value v) {
    std::vector<Val> &s = values[v];
    if (s.size() != static_cast<size_t>(threads))
      s.resize(threads);
    return s;
  }
};

/// One cp.async in flight: the bytes it will write (read from global
/// memory when it was issued) and where.
struct AsyncCopy {
  Operation *op;
  Buffer *dst;
  size_t byte;
  SmallVector<uint8_t, 16> data;
};

/// A thread's cp.async copies: those not yet committed, then its committed
/// groups, oldest first (PTX ISA, "cp.async.commit_group",
/// "cp.async.wait_group").
struct AsyncState {
  std::vector<AsyncCopy> open;
  std::deque<std::vector<AsyncCopy>> groups;
};

/// Thread block context of a kernel.
struct BlockContext {
  int64_t blockId[3] = {0, 0, 0};
  int64_t blockDim[3] = {1, 1, 1};
  int64_t gridDim[3] = {1, 1, 1};
  uint64_t epoch = 1; // shared-memory epoch: barriers passed + 1
  /// Shared memory of the block (static, dynamic and mbarriers), bytes.
  int64_t sharedBytes = 0;
  std::vector<AsyncState> async; // per thread
  /// The launch's dynamic shared memory (bytes), null without any.
  MemRefVal *dynamicShared = nullptr;
  /// The block's shared memory buffers, by simulated address.
  std::vector<Buffer *> shared;
  /// Per thread: Interpreter::writes at its last fence.proxy.async.
  std::vector<uint64_t> proxyFence;
  /// Per warpgroup (128 threads): wgmma state (PTX ISA, "Asynchronous
  /// Warpgroup Level Matrix Multiply-Accumulate Operation").
  struct Warpgroup {
    /// A wgmma.fence since the last wgmma.wait_group (or the start).
    bool fenced = false;
    /// Groups committed and groups known complete; a wgmma issued while
    /// `committed` groups were closed belongs to group `committed`.
    uint64_t committed = 0, completed = 0;
    /// The group of each wgmma.mma_async op's latest issue.
    llvm::DenseMap<Operation *, uint64_t> issuedIn;
    /// Shared bytes that uncompleted wgmmas read (buffer, first, count,
    /// group, Interpreter::writes at the issue).
    struct Read {
      Buffer *buffer;
      size_t first, count;
      uint64_t group, seq;
    };
    std::vector<Read> reads;
    /// The count of the warpgroup's last setmaxnreg (0: none yet, the
    /// kernel's entry count, which ptxas decides) and that op.
    int64_t maxnreg = 0;
    Operation *setmaxnreg = nullptr;
  };
  std::vector<Warpgroup> warpgroups;
  /// The block's mbarriers (nvgpu.mbarrier.create; PTX ISA, "Parallel
  /// Synchronization and Communication Instructions: mbarrier"): the
  /// arrival count of a phase, the arrivals and transaction bytes it still
  /// waits for, and the phases completed so far. A TMA load completes its
  /// bytes when it is issued (the data is written then), so a phase
  /// completes at its last arrival or load.
  struct MBarrier {
    bool initialized = false;
    int64_t expected = 0, pending = 0, tx = 0;
    uint64_t phase = 0;
    uint64_t initEpoch = 0;
    int32_t initThread = -1;
    /// The last TMA load signalling this barrier, and its phase.
    Operation *lastLoad = nullptr;
    uint64_t lastLoadPhase = 0;
    /// The arrivals (thread, its clock after the arrival) of the current
    /// phase and of the last completed one, which a wait acquires.
    std::vector<std::pair<int32_t, uint64_t>> arrivals, completedArrivals;
  };
  std::vector<MBarrier> mbarriers;
  /// Per mbarrier, per thread: the phases the thread has seen complete
  /// (by mbarrier.try_wait.parity).
  std::vector<std::vector<uint64_t>> seenPhases;
  /// Ordering through mbarriers (release at an arrival, acquire at a
  /// completed wait), besides barriers: clock[t] counts thread t's
  /// arrivals; known[u][t] is the latest arrival of t that u has acquired
  /// (empty until a kernel waits on an mbarrier). An access of t at clock c
  /// is ordered before an access of u when known[u][t] > c. Direct only
  /// (what u learned from t's own arrivals, not what t had learned): a
  /// chain through a third thread is reported as a race, never missed.
  std::vector<uint64_t> clock;
  std::vector<std::vector<uint64_t>> known;
  /// The latest release clock of warpgroup w's threads.
  uint64_t warpgroupClock(int32_t w) const {
    uint64_t c = 0;
    for (int32_t t = 128 * w; t < 128 * w + 128; ++t)
      c = std::max(c, clock[t]);
    return c;
  }
  bool orderedAfter(int32_t u, int32_t t, uint64_t c) const {
    return t >= 0 && !known.empty() && known[u][t] > c;
  }
  /// u acquires t's release at clock c.
  void acquire(int32_t u, int32_t t, uint64_t c) {
    if (known.empty())
      known.assign(clock.size(), std::vector<uint64_t>(clock.size(), 0));
    if (c > known[u][t]) {
      known[u][t] = c;
      ++knownVersion;
    }
  }
  /// Whether an access of u is ordered after the reads of `a` since the
  /// last barrier: u read it itself, or has acquired a release of the
  /// reader after its read; with several readers, for each range of
  /// readers a release of every thread of the range but u after the
  /// range's latest clock (a superset of the readers, and the latest clock
  /// of any: what a named barrier or an mbarrier that all of them arrive
  /// on gives; anything less is reported as a race, never missed). The
  /// last answer is kept: a TMA load or a row of stores asks the same
  /// question per byte.
  bool orderedAfterReads(int32_t u, const Buffer::Access &a) {
    if (a.reader != -2)
      return a.reader < 0 || a.reader == u ||
             orderedAfter(u, a.reader, a.readClock);
    if (known.empty())
      return false;
    if (memo.valid && memo.version == knownVersion && memo.u == u &&
        memo.readers[0] == a.readers[0] && memo.readers[1] == a.readers[1])
      return memo.result;
    bool ordered = true;
    for (const Buffer::Access::Readers &r : a.readers)
      for (int32_t t = r.lo; t <= r.hi && ordered; ++t)
        ordered = t == u || known[u][t] > r.clock;
    memo = {true, knownVersion, u, {a.readers[0], a.readers[1]}, ordered};
    return ordered;
  }
  /// Records a read of `a` by threads lo..hi (one thread, or a wgmma's
  /// warpgroup) at release clock c, in barrier epoch `now`.
  void noteRead(Buffer::Access &a, uint64_t now, int32_t lo, int32_t hi,
                uint64_t c) {
    using Readers = Buffer::Access::Readers;
    if (a.readEpoch != now || (lo == hi && orderedAfterReads(lo, a))) {
      // The first read since the barrier, or one after every earlier
      // reader's release: a later writer must be ordered after this one.
      a.readEpoch = now;
      a.reader = lo == hi ? lo : -2;
      a.readClock = c;
      a.readers[0] = {lo, hi, c};
      a.readers[1] = Readers();
      return;
    }
    if (a.reader >= 0) {
      a.readers[0] = {a.reader, a.reader, a.readClock};
      a.readers[1] = Readers();
      a.reader = -2;
    }
    // Into the range of the same warpgroup (whose threads' clocks move
    // together), else the free second one, else the second one.
    auto merge = [&](Readers &r) {
      r.lo = std::min(r.lo, lo);
      r.hi = std::max(r.hi, hi);
      r.clock = std::max(r.clock, c);
    };
    for (Readers &r : a.readers)
      if (r.hi >= r.lo && r.lo / 128 == lo / 128 && r.hi / 128 == hi / 128)
        return merge(r);
    if (a.readers[1].hi < a.readers[1].lo) {
      a.readers[1] = {lo, hi, c};
      return;
    }
    merge(a.readers[1]);
  }
  /// Named barriers 0-15 reached across warp roles: the count of the
  /// current phase, the arrivals so far (thread, its clock after arriving)
  /// and those of each completed phase, which its bar.sync threads acquire.
  struct NamedBarrier {
    int64_t count = 0;
    uint64_t generation = 0;
    std::vector<std::pair<int32_t, uint64_t>> arrivals;
    std::vector<std::vector<std::pair<int32_t, uint64_t>>> completed;
  };
  NamedBarrier namedBarriers[16];
  uint64_t knownVersion = 0;
  struct {
    bool valid = false;
    uint64_t version = 0;
    int32_t u = 0;
    Buffer::Access::Readers readers[2];
    bool result = false;
  } memo;
};

/// Shared memory per block, static and dynamic together, at most: the
/// opt-in maximum of sm_90 (227 KiB; sm_80 has 163 KiB, sm_86/89 99 KiB).
constexpr int64_t kMaxSharedBytes = 227 * 1024;

//===----------------------------------------------------------------------===//
// The interpreter
//===----------------------------------------------------------------------===//

class Interpreter {
public:
  Interpreter(ModuleOp module, attic::SimulationStats &stats)
      : module(module), stats(stats) {}

  LogicalResult call(func::FuncOp func, ArrayRef<MemRefVal *> args,
                     SmallVectorImpl<MemRefVal *> &results);
  MemRefVal *newBuffer(Type elemType, ArrayRef<int64_t> sizes,
                       StringRef what, Space space);
  std::string error;

private:
  ModuleOp module;
  attic::SimulationStats &stats;
  std::deque<std::unique_ptr<Buffer>> buffers;
  std::deque<MemRefVal> views;
  llvm::DenseMap<Operation *, MemRefVal *> globals;
  BlockContext *block = nullptr; // set while a kernel runs
  bool transfer = false;         // set while gpu.memcpy/memset run
  /// Writes to shared memory so far (Buffer::Access::writeSeq).
  uint64_t writes = 0;
  /// Budget of thread-ops per run: a kernel that never ends is an error,
  /// not a hang.
  int64_t budget = int64_t(1) << 36;

  // Errors ----------------------------------------------------------------
  LogicalResult fail(Operation *op, const Twine &message, int32_t thread = -1);

  // Streams --------------------------------------------------------------
  // Host code's async tokens as gpu-to-llvm lowers them: `gpu.wait async`
  // without dependencies creates a stream (mgpuStreamCreate), an async op
  // with one dependency runs on that token's stream and its token names the
  // same stream, a blocking `gpu.wait` synchronizes and destroys the streams
  // of its dependencies. Steps run when they are issued (one stream keeps
  // program order); what the host may not do before the wait is checked.
  /// Whether stream i (a token's value) is live (created, not destroyed).
  std::vector<bool> liveStreams;
  /// Host memory that an async gpu.memcpy/memset reads or writes, until a
  /// blocking gpu.wait synchronizes its stream.
  struct PendingHostAccess {
    Buffer *buffer;
    int64_t stream;
    bool write;
    Operation *op;
  };
  SmallVector<PendingHostAccess> pendingHost;
  /// The stream `op` runs on: -1 when it is synchronous (no token, no
  /// dependencies), the stream of its one dependency when async. Errors for
  /// the forms gpu-to-llvm does not lower and for destroyed streams.
  FailureOr<int64_t> streamOf(Operation *op, Frame &f, ValueRange deps,
                              bool async);
  Val streamToken(int64_t stream) {
    Val v;
    v.e.push_back(Elem{});
    v.e[0].i = static_cast<uint64_t>(stream);
    return v;
  }
  /// Host code (or a step on `stream`, ordered after that stream's earlier
  /// steps) touches `buffer`, writing it when `write`: an error while an
  /// async copy on another stream or before the host's access that writes
  /// it (or, for a write, reads it) is in flight.
  LogicalResult checkHostAccess(Operation *op, Buffer *buffer, bool write,
                                int64_t stream = -1);

  // Values ----------------------------------------------------------------
  const Val &get(Frame &f, Value v, int32_t t) {
    const Val *val = f.find(v, t);
    assert(val && "value used before its definition");
    return *val;
  }
  int64_t getIndex(Frame &f, Value v, int32_t t) {
    return signedOf(get(f, v, t).e[0].i, intWidth(v.getType()));
  }
  int64_t foldIndex(Frame &f, OpFoldResult r, int32_t t) {
    if (auto attr = dyn_cast<Attribute>(r))
      return cast<IntegerAttr>(attr).getInt();
    return getIndex(f, cast<Value>(r), t);
  }
  MemRefVal *newView(const MemRefVal &v) {
    views.push_back(v);
    return &views.back();
  }

  // Execution ------------------------------------------------------------
  LogicalResult execBlock(Block &b, Frame &f, const Mask &m,
                          Operation *&terminator);
  LogicalResult execOp(Operation *op, Frame &f, const Mask &m);
  LogicalResult execFor(scf::ForOp op, Frame &f, const Mask &m);
  LogicalResult execIf(scf::IfOp op, Frame &f, const Mask &m);

  // Warp roles -------------------------------------------------------------
  // The branches of an scf.if marked `attic.warp_roles` (a producer and a
  // consumer, say) run as roles that make progress independently, as warps
  // do on a GPU, where lockstep would run one branch to its end first (and
  // deadlock on a producer that waits for the consumers' arrivals). Each
  // role is an OS thread; one runs at a time (the baton), and the baton
  // passes only where a role waits for an mbarrier phase that has not
  // completed, so the interpreter's state is never touched by two at once
  // and a run is deterministic. When no role can go on (each waits, with
  // nothing executed since, or is done), the wait is a deadlock.
  struct Roles {
    std::mutex mutex;
    std::condition_variable turn;
    int32_t current = -1; // the role holding the baton; -1: the caller
    std::vector<char> done;
    /// Per role: `progress` + 1 when it began to wait, 0 when it runs.
    std::vector<uint64_t> waitingSince;
    uint64_t progress = 0; // ops executed in roles
    bool aborted = false;  // a role failed: the others stop
  };
  Roles *roles = nullptr;
  LogicalResult execRoles(scf::IfOp op, Frame &f, const Mask &thenMask,
                          const Mask &elseMask);
  /// From the running role, where it waits: hands the baton to the next
  /// role that can go on and returns when this one has it again; fails
  /// (a deadlock, or another role failed) when none can.
  LogicalResult yieldRole();
  /// nvvm.barrier (bar.sync) and nvvm.barrier.arrive (bar.arrive):
  /// without a thread count, gpu.barrier's semantics; with one, a named
  /// barrier of that many threads (whole warps). Outside warp roles they
  /// all reach it together; across roles each role's threads arrive, and
  /// bar.sync waits (the other roles run) until the count is complete.
  LogicalResult execNamedBarrier(Operation *op, Value idValue, Value countValue,
                                 bool arriveOnly, Frame &f, const Mask &m);
  /// A barrier of the whole block (gpu.barrier, bar.sync 0 without a
  /// count): every thread must reach it; it starts a new epoch.
  LogicalResult blockBarrier(Operation *op, Frame &f, const Mask &m) {
    if (static_cast<int32_t>(m.size()) != f.threads)
      return fail(op, "reached by " + Twine(m.size()) + " of the " +
                          Twine(f.threads) +
                          " threads of the block (a barrier in divergent "
                          "control flow)");
    ++stats.barriers;
    ++block->epoch;
    return success();
  }
  LogicalResult execWhile(scf::WhileOp op, Frame &f, const Mask &m);
  LogicalResult execLaunch(gpu::LaunchOp op, Frame &f);
  LogicalResult execLaunchFunc(gpu::LaunchFuncOp op, Frame &f);
  /// A launch's grid and block sizes and dynamic shared memory bytes.
  struct LaunchShape {
    int64_t grid[3];
    int64_t dims[3];
    int64_t dynamicBytes = 0;
  };
  /// The shape of `op` (gpu.launch or gpu.launch_func) from the host's
  /// values; thread block clusters are not simulated.
  template <typename LaunchT>
  FailureOr<LaunchShape> launchShape(LaunchT op, Frame &host) {
    if (op.hasClusterSize())
      return fail(op, "thread block clusters are not simulated");
    gpu::KernelDim3 grid = op.getGridSizeOperandValues();
    gpu::KernelDim3 block = op.getBlockSizeOperandValues();
    LaunchShape shape{{getIndex(host, grid.x, 0), getIndex(host, grid.y, 0),
                       getIndex(host, grid.z, 0)},
                      {getIndex(host, block.x, 0), getIndex(host, block.y, 0),
                       getIndex(host, block.z, 0)}};
    if (Value size = op.getDynamicSharedMemorySize())
      shape.dynamicBytes = getIndex(host, size, 0);
    return shape;
  }
  /// The grid of a launch (`op`, gpu.launch or gpu.launch_func): every
  /// block runs `body` in a frame of its own (whose parent is `parent`,
  /// null for an outlined kernel, which sees nothing of the host), with
  /// its shared and private memory; `bind` gives the body's arguments
  /// their values in that frame.
  LogicalResult runGrid(Operation *op, Frame &host, ValueRange deps,
                        Value asyncToken, const LaunchShape &shape, Block &body,
                        ArrayRef<BlockArgument> workgroup,
                        ArrayRef<BlockArgument> privates, Frame *parent,
                        function_ref<void(Frame &, const int64_t (&)[3])> bind);
  LogicalResult execArith(Operation *op, Frame &f, const Mask &m);
  LogicalResult execMath(Operation *op, Frame &f, const Mask &m);
  LogicalResult execVector(Operation *op, Frame &f, const Mask &m);
  LogicalResult execMemRef(Operation *op, Frame &f, const Mask &m);
  LogicalResult execGpu(Operation *op, Frame &f, const Mask &m);
  LogicalResult execLLVM(Operation *op, Frame &f, const Mask &m);
  LogicalResult execMma(Operation *op, Frame &f, const Mask &m);
  /// The inline asm of the wgmma family (wgmma.fence, .mma_async with A in
  /// registers, .commit_group, .wait_group) and fence.proxy.async.
  LogicalResult execWgmma(LLVM::InlineAsmOp op, Frame &f, const Mask &m);
  LogicalResult execLdMatrix(nvgpu::LdMatrixOp op, Frame &f, const Mask &m);
  LogicalResult execAsyncCopy(nvgpu::DeviceAsyncCopyOp op, Frame &f,
                              const Mask &m);
  LogicalResult execAsyncGroup(Operation *op, const Mask &m);
  /// nvgpu's mbarrier and TMA ops (and, on the host,
  /// nvgpu.tma.create.descriptor).
  LogicalResult execTma(Operation *op, Frame &f, const Mask &m);
  /// Thread t may read the TMA-written bytes of `a` (byte i of `buffer`).
  LogicalResult checkTmaRead(Operation *op, Buffer *buffer, size_t i,
                             const Buffer::Access &a, int32_t t);
  /// Tensor maps made by nvgpu.tma.create.descriptor (a descriptor's value
  /// is its index here): the tensor, the box (outermost first) and the
  /// swizzle and out-of-bounds fill of the descriptor's type.
  struct TensorMap {
    MemRefVal tensor;
    SmallVector<int64_t, 5> box;
    nvgpu::TensorMapSwizzleKind swizzle;
    nvgpu::TensorMapOOBKind oob;
  };
  std::deque<TensorMap> tensorMaps;
  /// Writes the bytes of `copy` (thread t's cp.async, now complete).
  LogicalResult completeAsync(AsyncCopy &copy, int32_t t);
  /// Runs `body` once per warp of `m` (in order), after checking that all
  /// 32 lanes of the warp are in `m`: `what` (a shuffle, mma.sync, ...)
  /// needs the whole warp.
  LogicalResult forEachFullWarp(Operation *op, const Mask &m, StringRef what,
                                function_ref<LogicalResult(int32_t)> body) {
    return forEachFullGroup(op, m, 32, "lanes", "warp", what, body);
  }
  /// The same per warpgroup (128 threads): wgmma's .sync.aligned.
  LogicalResult
  forEachFullWarpgroup(Operation *op, const Mask &m, StringRef what,
                       function_ref<LogicalResult(int32_t)> body) {
    return forEachFullGroup(op, m, 128, "threads", "warpgroup", what, body);
  }
  /// Runs `body` once per group of `size` consecutive threads of `m` (in
  /// order), after checking that all of them are in `m`.
  LogicalResult forEachFullGroup(Operation *op, const Mask &m, int32_t size,
                                 StringRef members, StringRef group,
                                 StringRef what,
                                 function_ref<LogicalResult(int32_t)> body);
  LogicalResult execShuffle(gpu::ShuffleOp op, Frame &f, const Mask &m);
  LogicalResult execAffine(Operation *op, Frame &f, const Mask &m);

  // Memory ---------------------------------------------------------------
  /// Byte address of element `indices` of `view` (bounds-checked); `count`
  /// consecutive elements along the last dim.
  FailureOr<uint8_t *> address(Operation *op, const MemRefVal &view,
                               ArrayRef<int64_t> indices, int64_t count,
                               int32_t t);
  LogicalResult track(Operation *op, Buffer *buffer, uint8_t *p, int64_t n,
                      bool write, int32_t t);
  /// Thread t's values of index operands.
  SmallVector<int64_t> indicesOf(Frame &f, ValueRange values, int32_t t) {
    SmallVector<int64_t> idx;
    for (Value v : values)
      idx.push_back(getIndex(f, v, t));
    return idx;
  }
  /// address() and track() of one read or write of `count` elements.
  FailureOr<uint8_t *> access(Operation *op, const MemRefVal &view,
                              ArrayRef<int64_t> indices, int64_t count,
                              bool write, int32_t t) {
    FailureOr<uint8_t *> p = address(op, view, indices, count, t);
    if (failed(p) ||
        failed(track(op, view.buffer, *p, count * view.elemBytes, write, t)))
      return failure();
    if (!block && !transfer && failed(checkHostAccess(op, view.buffer, write)))
      return failure();
    return p;
  }
  /// A vector load or store that claims `alignment` bytes (LLVM emits a
  /// wide access for it) must have its address at a multiple of it
  /// (buffers start aligned, as GPU allocations do).
  LogicalResult checkAlignment(Operation *op, std::optional<uint64_t> alignment,
                               const MemRefVal &view, uint8_t *p, int32_t t) {
    if (!alignment)
      return success();
    int64_t byte = p - view.buffer->bytes.data();
    if (byte % static_cast<int64_t>(*alignment) == 0)
      return success();
    return fail(op,
                "accesses byte " + Twine(byte) + " of " + view.buffer->what +
                    ", which is not a multiple of its alignment " +
                    Twine(*alignment),
                t);
  }
  /// Elements a vector load or store of `type` moves from `view`: 1 when
  /// the memref holds vectors of that type, else the vector's size.
  FailureOr<int64_t> vectorCount(Operation *op, const MemRefVal &view,
                                 VectorType type, int32_t t) {
    if (view.elemType == Type(type))
      return 1;
    if (view.elemType != type.getElementType())
      return fail(op, "vector access of another element type", t);
    return type.getNumElements();
  }
  Val loadElements(const MemRefVal &view, uint8_t *p, int64_t count);
  void storeElements(const MemRefVal &view, uint8_t *p, const Val &v);
  FailureOr<MemRefVal *> allocate(Operation *op, MemRefType type,
                                  ValueRange dynamicSizes, Frame &f,
                                  int32_t t, StringRef what, Space space);
  LogicalResult copy(Operation *op, const MemRefVal &dst,
                     const MemRefVal &src);
};

LogicalResult Interpreter::fail(Operation *op, const Twine &message,
                                int32_t thread) {
  if (!error.empty()) // the first error is the one reported
    return failure();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << op->getName() << "' at " << op->getLoc() << ": " << message;
  if (block) {
    os << " (block (" << block->blockId[0] << ", " << block->blockId[1] << ", "
       << block->blockId[2] << ")";
    if (thread >= 0)
      os << ", thread " << thread;
    os << ")";
  }
  if (error.empty())
    error = text;
  return failure();
}

MemRefVal *Interpreter::newBuffer(Type elemType, ArrayRef<int64_t> sizes,
                                  StringRef what, Space space) {
  auto buffer = std::make_unique<Buffer>();
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  int64_t bytes = n * elementBytes(elemType);
  // Uninitialized memory reads as NaN (0xff bytes) in every float type.
  buffer->bytes.assign(bytes, 0xff);
  if (space == Space::Shared)
    buffer->access.resize(bytes);
  buffer->what = what.str();
  buffer->space = space;
  MemRefVal view;
  view.buffer = buffer.get();
  view.elemType = elemType;
  view.elemBytes = elementBytes(elemType);
  view.sizes.assign(sizes.begin(), sizes.end());
  view.strides.resize(sizes.size());
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    view.strides[d] = stride;
    stride *= sizes[d];
  }
  buffers.push_back(std::move(buffer));
  return newView(view);
}

FailureOr<uint8_t *> Interpreter::address(Operation *op, const MemRefVal &view,
                                          ArrayRef<int64_t> indices,
                                          int64_t count, int32_t t) {
  if (view.buffer->freed)
    return fail(op, "accesses " + view.buffer->what + " after it was freed",
                t);
  if (indices.size() != view.sizes.size())
    return fail(op, "index count does not match the memref rank", t);
  Space space = view.buffer->space;
  if (!transfer && block && space == Space::Host)
    return fail(op,
                "a kernel accesses " + view.buffer->what +
                    ", which is host memory (copy it with gpu.memcpy)",
                t);
  if (!transfer && !block && space != Space::Host && space != Space::Global)
    return fail(op,
                "host code accesses " + view.buffer->what +
                    ", which is device memory (copy it with gpu.memcpy)",
                t);
  int64_t offset = view.offset;
  for (size_t d = 0; d < indices.size(); ++d) {
    int64_t extent = d + 1 == indices.size() ? count : 1;
    if (indices[d] < 0 || indices[d] + extent > view.sizes[d]) {
      std::string where;
      llvm::raw_string_ostream os(where);
      os << "index " << indices[d];
      if (extent > 1)
        os << " (+" << extent << " elements)";
      os << " of dim " << d << " is out of bounds [0, " << view.sizes[d]
         << ") of " << view.buffer->what;
      return fail(op, where, t);
    }
    offset += indices[d] * view.strides[d];
  }
  if (count > 1 && !view.sizes.empty() && view.strides.back() != 1)
    return fail(op, "vector access of a memref with a non-unit inner stride",
                t);
  int64_t byte = offset * view.elemBytes;
  if (byte < 0 ||
      byte + count * view.elemBytes >
          static_cast<int64_t>(view.buffer->bytes.size()))
    return fail(op, "access outside " + view.buffer->what, t);
  return view.buffer->bytes.data() + byte;
}

LogicalResult Interpreter::track(Operation *op, Buffer *buffer, uint8_t *p,
                                 int64_t n, bool write, int32_t t) {
  if (!buffer->shared() || !block)
    return success();
  uint64_t epoch = block->epoch;
  uint64_t seq = write ? ++writes : 0;
  size_t first = p - buffer->bytes.data();
  for (size_t i = first; i < first + n; ++i) {
    Buffer::Access &a = buffer->access[i];
    if (a.tmaBarrier >= 0) {
      if (failed(checkTmaRead(op, buffer, i, a, t)))
        return failure();
      if (write)
        a.tmaBarrier = -1;
    }
    if (a.asyncWriter >= 0)
      return fail(op,
                  Twine(write ? "writes" : "reads") + " byte " + Twine(i) +
                      " of " + buffer->what + ", which a cp.async of thread " +
                      Twine(a.asyncWriter) +
                      " has not completed yet (no cp.async.wait_group "
                      "covers it)",
                  t);
    if (a.writeEpoch == epoch && a.writer != t &&
        !block->orderedAfter(t, a.writer, a.writeClock))
      return fail(op,
                  Twine(write ? "writes" : "reads") + " byte " + Twine(i) +
                      " of " + buffer->what + " that thread " +
                      Twine(a.writer) +
                      " wrote since the last barrier (a race)",
                  t);
    if (write) {
      if (a.readEpoch == epoch && !block->orderedAfterReads(t, a))
        return fail(op,
                    "writes byte " + Twine(i) + " of " + buffer->what +
                        " that " +
                        (a.reader == -2 ? Twine("other threads")
                                        : "thread " + Twine(a.reader)) +
                        " read since the last barrier (a race)",
                    t);
      a.writeEpoch = epoch;
      a.writer = t;
      a.writeSeq = seq;
      a.writeClock = block->clock[t];
      // Reads before this write are ordered before it (checked above).
      a.readEpoch = 0;
      a.reader = -1;
    } else {
      block->noteRead(a, epoch, t, t, block->clock[t]);
    }
  }
  return success();
}

Val Interpreter::loadElements(const MemRefVal &view, uint8_t *p,
                              int64_t count) {
  Val v;
  Type s = scalarType(view.elemType);
  int64_t perElement = scalarCount(view.elemType);
  int64_t bytes = scalarBytes(s);
  for (int64_t i = 0; i < count * perElement; ++i)
    v.e.push_back(loadScalar(s, p + i * bytes));
  return v;
}

void Interpreter::storeElements(const MemRefVal &view, uint8_t *p,
                                const Val &v) {
  Type s = scalarType(view.elemType);
  int64_t bytes = scalarBytes(s);
  for (size_t i = 0; i < v.e.size(); ++i)
    storeScalar(s, v.e[i], p + i * bytes);
}

FailureOr<MemRefVal *> Interpreter::allocate(Operation *op, MemRefType type,
                                             ValueRange dynamicSizes, Frame &f,
                                             int32_t t, StringRef what,
                                             Space space) {
  if (!type.getLayout().isIdentity())
    return fail(op, "allocations with a non-identity layout are not simulated");
  SmallVector<int64_t> sizes;
  unsigned next = 0;
  for (int64_t s : type.getShape()) {
    if (ShapedType::isDynamic(s))
      s = getIndex(f, dynamicSizes[next++], t);
    if (s < 0)
      return fail(op, "negative allocation size " + Twine(s), t);
    sizes.push_back(s);
  }
  int64_t n = elementBytes(type.getElementType());
  for (int64_t s : sizes)
    if (s && n > (int64_t(1) << 34) / s)
      return fail(op, "allocation larger than 16 GiB", t);
    else
      n *= s;
  if (!elementBytes(type.getElementType()))
    return fail(op, "element type is not simulated", t);
  return newBuffer(type.getElementType(), sizes, what, space);
}

LogicalResult Interpreter::copy(Operation *op, const MemRefVal &dst,
                                const MemRefVal &src) {
  if (dst.sizes != src.sizes || dst.elemBytes != src.elemBytes)
    return fail(op, "copy between memrefs of different shapes");
  if (dst.buffer->freed || src.buffer->freed)
    return fail(op, "copies a buffer after it was freed");
  int64_t rank = dst.sizes.size();
  int64_t n = 1;
  for (int64_t s : dst.sizes)
    n *= s;
  SmallVector<int64_t> index(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    FailureOr<uint8_t *> d = address(op, dst, index, 1, -1);
    FailureOr<uint8_t *> s = address(op, src, index, 1, -1);
    if (failed(d) || failed(s))
      return failure();
    std::memmove(*d, *s, dst.elemBytes);
    for (int64_t k = rank - 1; k >= 0; --k) {
      if (++index[k] < dst.sizes[k])
        break;
      index[k] = 0;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::execBlock(Block &b, Frame &f, const Mask &m,
                                     Operation *&terminator) {
  terminator = nullptr;
  for (Operation &op : b) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      terminator = &op;
      return success();
    }
    if (failed(execOp(&op, f, m)))
      return failure();
  }
  return success();
}

LogicalResult Interpreter::execFor(scf::ForOp op, Frame &f, const Mask &m) {
  Block &body = *op.getBody();
  unsigned n = op.getNumRegionIterArgs();
  unsigned w = intWidth(op.getInductionVar().getType());
  bool isUnsigned = op.getUnsignedCmp();
  int32_t T = f.threads;
  std::vector<Val> iv(T);
  std::vector<SmallVector<Val, 4>> carried(T);
  for (int32_t t : m) {
    iv[t] = get(f, op.getLowerBound(), t);
    for (Value init : op.getInitArgs())
      carried[t].push_back(get(f, init, t));
    int64_t step = signedOf(get(f, op.getStep(), t).e[0].i, w);
    if (step <= 0)
      return fail(op, "step " + Twine(step) + " is not positive", t);
  }
  Mask active = m;
  while (true) {
    Mask next;
    for (int32_t t : active) {
      uint64_t i = iv[t].e[0].i;
      uint64_t ub = get(f, op.getUpperBound(), t).e[0].i;
      bool more = isUnsigned ? truncBits(i, w) < truncBits(ub, w)
                             : signedOf(i, w) < signedOf(ub, w);
      if (more)
        next.push_back(t);
    }
    if (next.empty())
      break;
    active = std::move(next);
    {
      std::vector<Val> &ivSlot = f.slot(op.getInductionVar());
      for (int32_t t : active)
        ivSlot[t] = iv[t];
    }
    for (unsigned a = 0; a < n; ++a) {
      std::vector<Val> &s = f.slot(op.getRegionIterArgs()[a]);
      for (int32_t t : active)
        s[t] = carried[t][a];
    }
    Operation *terminator;
    if (failed(execBlock(body, f, active, terminator)))
      return failure();
    for (int32_t t : active) {
      for (unsigned a = 0; a < n; ++a)
        carried[t][a] = get(f, terminator->getOperand(a), t);
      uint64_t step = get(f, op.getStep(), t).e[0].i;
      iv[t].e[0].i = truncBits(iv[t].e[0].i + step, w);
    }
  }
  for (unsigned a = 0; a < n; ++a) {
    std::vector<Val> &s = f.slot(op.getResult(a));
    for (int32_t t : m)
      s[t] = carried[t][a];
  }
  return success();
}

LogicalResult Interpreter::execIf(scf::IfOp op, Frame &f, const Mask &m) {
  Mask thenMask, elseMask;
  for (int32_t t : m)
    (get(f, op.getCondition(), t).e[0].i ? thenMask : elseMask).push_back(t);
  // A split into roles: the two branches, or with kWarpgroupRolesAttrName
  // the then-branch's warpgroups (and the else-branch, if it has threads).
  if (op->hasAttr(attic::kWarpRolesAttr) && block && !thenMask.empty() &&
      (!elseMask.empty() || op->hasAttr(attic::kWarpgroupRolesAttrName)))
    return execRoles(op, f, thenMask, elseMask);
  unsigned n = op.getNumResults();
  std::vector<SmallVector<Val, 4>> results(f.threads);
  for (auto [region, mask] :
       {std::make_pair(&op.getThenRegion(), &thenMask),
        std::make_pair(&op.getElseRegion(), &elseMask)}) {
    if (mask->empty() || region->empty())
      continue;
    Operation *terminator;
    if (failed(execBlock(region->front(), f, *mask, terminator)))
      return failure();
    for (int32_t t : *mask)
      for (unsigned r = 0; r < n; ++r)
        results[t].push_back(get(f, terminator->getOperand(r), t));
  }
  for (unsigned r = 0; r < n; ++r) {
    std::vector<Val> &s = f.slot(op.getResult(r));
    for (int32_t t : m)
      s[t] = results[t][r];
  }
  return success();
}

/// The role (index into Roles) that this OS thread runs.
thread_local int32_t currentRole = -1;

LogicalResult Interpreter::execRoles(scf::IfOp op, Frame &f,
                                     const Mask &thenMask,
                                     const Mask &elseMask) {
  if (roles)
    return fail(op, "a warp role split inside another one is not simulated");
  if (op.getNumResults())
    return fail(op, "a warp role split with results is not simulated");
  Roles state;
  ++stats.roleSplits;
  // The roles: the then-branch (one per warpgroup of its threads with
  // kWarpgroupRolesAttrName), then the else-branch.
  std::vector<std::pair<Region *, Mask>> branches;
  if (op->hasAttr(attic::kWarpgroupRolesAttrName)) {
    for (int32_t t : thenMask) {
      if (branches.empty() || branches.back().second.back() / 128 != t / 128)
        branches.push_back({&op.getThenRegion(), Mask()});
      branches.back().second.push_back(t);
    }
  } else {
    branches.push_back({&op.getThenRegion(), thenMask});
  }
  if (!elseMask.empty())
    branches.push_back({&op.getElseRegion(), elseMask});
  const int32_t n = static_cast<int32_t>(branches.size());
  state.done.assign(n, 0);
  state.waitingSince.assign(n, 0);
  roles = &state;
  llvm::scope_exit leave([&] { roles = nullptr; });
  std::vector<LogicalResult> results(n, failure());
  // Hands the baton to the next role that is not done, or back to the
  // caller when all are.
  auto pass = [&](int32_t from) {
    state.current = -1;
    for (int32_t k = 1; k <= n; ++k)
      if (!state.done[(from + k) % n]) {
        state.current = (from + k) % n;
        break;
      }
    state.turn.notify_all();
  };
  std::vector<std::thread> workers;
  for (int32_t r = 0; r < n; ++r)
    workers.emplace_back([&, r] {
      currentRole = r;
      {
        std::unique_lock<std::mutex> lock(state.mutex);
        state.turn.wait(lock,
                        [&] { return state.current == r || state.aborted; });
      }
      auto &[region, mask] = branches[r];
      if (!state.aborted && !region->empty()) {
        Operation *terminator;
        results[r] = execBlock(region->front(), f, mask, terminator);
      } else if (!state.aborted) {
        results[r] = success();
      }
      std::unique_lock<std::mutex> lock(state.mutex);
      state.done[r] = true;
      if (failed(results[r]))
        state.aborted = true;
      pass(r);
    });
  {
    std::unique_lock<std::mutex> lock(state.mutex);
    state.current = 0;
    state.turn.notify_all();
    state.turn.wait(lock, [&] {
      return llvm::all_of(state.done, [](char d) { return d != 0; });
    });
  }
  for (std::thread &w : workers)
    w.join();
  return success(llvm::all_of(results, succeeded));
}

LogicalResult Interpreter::yieldRole() {
  Roles &state = *roles;
  int32_t me = currentRole;
  std::unique_lock<std::mutex> lock(state.mutex);
  if (state.aborted)
    return failure();
  state.waitingSince[me] = state.progress + 1;
  // Another role can go on if it is not done and has not been waiting
  // since before the last op executed (what it waits for may be there now):
  // the next one in order.
  const int32_t n = static_cast<int32_t>(state.done.size());
  int32_t other = -1;
  for (int32_t k = 1; k < n && other < 0; ++k) {
    int32_t r = (me + k) % n;
    if (!state.done[r] && state.waitingSince[r] != state.progress + 1)
      other = r;
  }
  if (other < 0)
    return failure();
  state.current = other;
  state.turn.notify_all();
  state.turn.wait(lock, [&] { return state.current == me || state.aborted; });
  state.waitingSince[me] = 0;
  return state.aborted ? failure() : success();
}

LogicalResult Interpreter::execNamedBarrier(Operation *op, Value idValue,
                                            Value countValue, bool arriveOnly,
                                            Frame &f, const Mask &m) {
  if (!block)
    return fail(op, "a barrier outside a kernel");
  int64_t id = 0;
  if (Value v = idValue) {
    id = static_cast<int64_t>(get(f, v, m.front()).e[0].i);
    for (int32_t t : m)
      if (static_cast<int64_t>(get(f, v, t).e[0].i) != id)
        return fail(op, "threads of one bar.sync name different barriers", t);
  }
  if (id < 0 || id > 15)
    return fail(op, "barrier " + Twine(id) + " (the ids are 0 to 15)");
  if (!countValue)
    return blockBarrier(op, f, m); // all threads of the block
  int64_t count = static_cast<int64_t>(get(f, countValue, m.front()).e[0].i);
  if (count <= 0 || count % 32 || count > f.threads)
    return fail(op, "a named barrier of " + Twine(count) +
                        " threads (a multiple of 32, at most the block's " +
                        Twine(f.threads) + ")");
  // Whole warps, all of them here together: lockstep within a role does
  // not model threads of one barrier arriving at different times.
  for (int32_t t : m)
    if (static_cast<int64_t>(get(f, countValue, t).e[0].i) != count)
      return fail(op,
                  "threads of barrier " + Twine(id) +
                      " give different thread counts",
                  t);
  std::vector<int32_t> lanes(f.threads / 32 + 1, 0);
  for (int32_t t : m)
    ++lanes[t / 32];
  for (int32_t t : m)
    if (lanes[t / 32] != 32)
      return fail(op,
                  "reached by part of a warp (named barriers count "
                  "whole warps)",
                  t);
  BlockContext::NamedBarrier &bar = block->namedBarriers[id];
  if (!roles) {
    // In lockstep nothing else can arrive later.
    if (static_cast<int64_t>(m.size()) != count || arriveOnly ||
        !bar.arrivals.empty())
      return fail(op, "named barrier " + Twine(id) + " of " + Twine(count) +
                          " threads reached by " + Twine(m.size()) +
                          " together (outside warp roles the threads of a "
                          "named barrier reach it together, with bar.sync)");
    ++stats.barriers;
    // Ordered among its threads only: each releases and each acquires all.
    for (int32_t t : m)
      ++block->clock[t];
    for (int32_t u : m)
      for (int32_t t : m)
        block->acquire(u, t, block->clock[t]);
    return success();
  }
  // Across warp roles: this role's threads arrive (releasing); the phase
  // completes at the count; bar.sync waits for that, the other roles
  // running meanwhile, and acquires every arrival of the phase.
  if (!bar.arrivals.empty() && bar.count != count)
    return fail(op,
                "barrier " + Twine(id) + " counts " + Twine(count) +
                    " threads where its phase began with " + Twine(bar.count),
                m.front());
  bar.count = count;
  for (int32_t t : m)
    bar.arrivals.push_back({t, ++block->clock[t]});
  if (static_cast<int64_t>(bar.arrivals.size()) > count)
    return fail(op, "named barrier " + Twine(id) + " of " + Twine(count) +
                        " threads reached by " + Twine(bar.arrivals.size()) +
                        " in one phase");
  uint64_t phase = bar.generation;
  if (static_cast<int64_t>(bar.arrivals.size()) == count) {
    bar.completed.push_back(std::move(bar.arrivals));
    bar.arrivals.clear();
    ++bar.generation;
    ++stats.barriers;
  }
  if (arriveOnly)
    return success();
  while (bar.generation == phase) {
    if (succeeded(yieldRole()))
      continue;
    if (roles->aborted)
      return failure();
    return fail(op,
                "waits at named barrier " + Twine(id) + " (" +
                    Twine(bar.arrivals.size()) + " of " + Twine(count) +
                    " threads arrived), which never completes: a deadlock "
                    "(every other warp role waits too, or is done)",
                m.front());
  }
  for (int32_t u : m)
    for (auto [t, c] : bar.completed[phase])
      block->acquire(u, t, c);
  return success();
}

LogicalResult Interpreter::execWhile(scf::WhileOp op, Frame &f, const Mask &m) {
  Block &before = op.getBefore().front();
  Block &after = op.getAfter().front();
  std::vector<SmallVector<Val, 4>> args(f.threads), results(f.threads);
  for (int32_t t : m)
    for (Value init : op.getInits())
      args[t].push_back(get(f, init, t));
  Mask active = m;
  while (!active.empty()) {
    for (unsigned a = 0; a < before.getNumArguments(); ++a) {
      std::vector<Val> &s = f.slot(before.getArgument(a));
      for (int32_t t : active)
        s[t] = args[t][a];
    }
    Operation *terminator;
    if (failed(execBlock(before, f, active, terminator)))
      return failure();
    auto condition = cast<scf::ConditionOp>(terminator);
    Mask next;
    for (int32_t t : active) {
      SmallVector<Val, 4> forwarded;
      for (Value v : condition.getArgs())
        forwarded.push_back(get(f, v, t));
      if (get(f, condition.getCondition(), t).e[0].i) {
        args[t] = std::move(forwarded);
        next.push_back(t);
      } else {
        results[t] = std::move(forwarded);
      }
    }
    if (next.empty())
      break;
    for (unsigned a = 0; a < after.getNumArguments(); ++a) {
      std::vector<Val> &s = f.slot(after.getArgument(a));
      for (int32_t t : next)
        s[t] = args[t][a];
    }
    if (failed(execBlock(after, f, next, terminator)))
      return failure();
    for (int32_t t : next) {
      args[t].clear();
      for (Value v : terminator->getOperands())
        args[t].push_back(get(f, v, t));
    }
    active = std::move(next);
  }
  for (unsigned r = 0; r < op.getNumResults(); ++r) {
    std::vector<Val> &s = f.slot(op.getResult(r));
    for (int32_t t : m)
      s[t] = results[t][r];
  }
  return success();
}

LogicalResult Interpreter::execLaunch(gpu::LaunchOp op, Frame &host) {
  if (block)
    return fail(op, "gpu.launch inside a kernel");
  FailureOr<LaunchShape> shape = launchShape(op, host);
  if (failed(shape))
    return failure();
  const int64_t(&grid)[3] = shape->grid;
  const int64_t(&dims)[3] = shape->dims;
  return runGrid(op, host, op.getAsyncDependencies(), op.getAsyncToken(),
                 *shape, op.getBody().front(), op.getWorkgroupAttributions(),
                 op.getPrivateAttributions(), &host,
                 [&](Frame &kernel, const int64_t(&blockId)[3]) {
                   int32_t T = kernel.threads;
                   auto setUniform = [&](Value v, int64_t x) {
                     std::vector<Val> &s = kernel.slot(v);
                     for (Val &val : s)
                       val.e.assign(1, intElem(static_cast<uint64_t>(x)));
                   };
                   gpu::KernelDim3 ids = op.getBlockIds();
                   setUniform(ids.x, blockId[0]);
                   setUniform(ids.y, blockId[1]);
                   setUniform(ids.z, blockId[2]);
                   gpu::KernelDim3 gridSize = op.getGridSize();
                   setUniform(gridSize.x, grid[0]);
                   setUniform(gridSize.y, grid[1]);
                   setUniform(gridSize.z, grid[2]);
                   gpu::KernelDim3 blockSize = op.getBlockSize();
                   setUniform(blockSize.x, dims[0]);
                   setUniform(blockSize.y, dims[1]);
                   setUniform(blockSize.z, dims[2]);
                   gpu::KernelDim3 tids = op.getThreadIds();
                   int64_t tid[3] = {0, 0, 0};
                   // A named array: an ArrayRef of a braced list would point
                   // into a temporary that dies before the loop runs (ASan:
                   // stack-use-after-scope, scripts/sanitize-compiler.sh).
                   Value threadIds[3] = {tids.x, tids.y, tids.z};
                   for (auto [d, v] : llvm::enumerate(threadIds)) {
                     std::vector<Val> &s = kernel.slot(v);
                     for (int32_t t = 0; t < T; ++t) {
                       tid[0] = t % dims[0];
                       tid[1] = (t / dims[0]) % dims[1];
                       tid[2] = t / (dims[0] * dims[1]);
                       s[t].e.assign(1, intElem(static_cast<uint64_t>(tid[d])));
                     }
                   }
                 });
}

LogicalResult Interpreter::execLaunchFunc(gpu::LaunchFuncOp op, Frame &host) {
  if (block)
    return fail(op, "gpu.launch_func inside a kernel");
  auto kernel =
      SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(op, op.getKernel());
  if (!kernel || !kernel.isKernel() || kernel.getBody().empty())
    return fail(op, "launches a symbol that is not a kernel with a body");
  if (!kernel.getBody().hasOneBlock())
    return fail(op, "launches a kernel of several blocks (not simulated)");
  if (op.getAsyncObject())
    return fail(op, "launches on a stream object (the LLVM dialect's form), "
                    "which is not simulated");
  FailureOr<LaunchShape> shape = launchShape(op, host);
  if (failed(shape))
    return failure();
  // The sizes the kernel was compiled for (known_grid_size and
  // known_block_size: the NVPTX back end takes them as facts).
  auto checkKnown = [&](std::optional<ArrayRef<int32_t>> known,
                        const int64_t(&sizes)[3], StringRef what) {
    if (!known || known->size() != 3 ||
        ((*known)[0] == sizes[0] && (*known)[1] == sizes[1] &&
         (*known)[2] == sizes[2]))
      return success();
    return fail(op, "launches @" + kernel.getName() + " with " + what +
                        " sizes " + Twine(sizes[0]) + "x" + Twine(sizes[1]) +
                        "x" + Twine(sizes[2]) + ", but it was compiled for " +
                        Twine((*known)[0]) + "x" + Twine((*known)[1]) + "x" +
                        Twine((*known)[2]) + " (known_" + what + "_size)");
  };
  if (failed(checkKnown(kernel.getKnownGridSize(), shape->grid, "grid")) ||
      failed(checkKnown(kernel.getKnownBlockSize(), shape->dims, "block")))
    return failure();
  // The arguments' host values (the verifier matched them to the kernel's
  // arguments), one copy per thread.
  Block &body = kernel.getBody().front();
  SmallVector<Val> values;
  for (Value v : op.getKernelOperands())
    values.push_back(get(host, v, 0));
  return runGrid(op, host, op.getAsyncDependencies(), op.getAsyncToken(),
                 *shape, body, kernel.getWorkgroupAttributions(),
                 kernel.getPrivateAttributions(), /*parent=*/nullptr,
                 [&](Frame &frame, const int64_t(&)[3]) {
                   for (auto [i, value] : llvm::enumerate(values)) {
                     std::vector<Val> &s = frame.slot(body.getArgument(i));
                     for (Val &copy : s)
                       copy = value;
                   }
                 });
}

LogicalResult
Interpreter::runGrid(Operation *op, Frame &host, ValueRange deps,
                     Value asyncToken, const LaunchShape &shape, Block &body,
                     ArrayRef<BlockArgument> workgroup,
                     ArrayRef<BlockArgument> privates, Frame *parent,
                     function_ref<void(Frame &, const int64_t (&)[3])> bind) {
  const int64_t(&grid)[3] = shape.grid;
  const int64_t(&dims)[3] = shape.dims;
  int64_t dynamicBytes = shape.dynamicBytes;
  FailureOr<int64_t> stream =
      streamOf(op, host, deps, static_cast<bool>(asyncToken));
  if (failed(stream))
    return failure();
  llvm::scope_exit leaveKernel([&] { block = nullptr; });
  ++stats.launches;
  for (int d = 0; d < 3; ++d)
    if (grid[d] < 1 || dims[d] < 1)
      return fail(op, "empty grid or block (" + Twine(grid[0]) + "x" +
                          Twine(grid[1]) + "x" + Twine(grid[2]) + " blocks of " +
                          Twine(dims[0]) + "x" + Twine(dims[1]) + "x" +
                          Twine(dims[2]) + " threads)");
  int64_t T = dims[0] * dims[1] * dims[2];
  if (T > 1024)
    return fail(op, "blocks of " + Twine(T) + " threads (at most 1024)");
  int64_t sharedBytes = dynamicBytes;
  for (BlockArgument arg : workgroup) {
    auto type = cast<MemRefType>(arg.getType());
    if (type.hasStaticShape())
      sharedBytes +=
          type.getNumElements() * elementBytes(type.getElementType());
  }
  if (dynamicBytes < 0 || sharedBytes > kMaxSharedBytes)
    return fail(op, "uses " + Twine(sharedBytes) + " bytes of shared memory (" +
                        Twine(dynamicBytes) + " dynamic) per block, at most " +
                        Twine(kMaxSharedBytes));
  Mask all;
  for (int32_t t = 0; t < T; ++t)
    all.push_back(t);
  for (int64_t bz = 0; bz < grid[2]; ++bz)
    for (int64_t by = 0; by < grid[1]; ++by)
      for (int64_t bx = 0; bx < grid[0]; ++bx) {
        ++stats.blocks;
        BlockContext context;
        context.blockId[0] = bx;
        context.blockId[1] = by;
        context.blockId[2] = bz;
        for (int d = 0; d < 3; ++d) {
          context.blockDim[d] = dims[d];
          context.gridDim[d] = grid[d];
        }
        context.async.resize(T);
        context.sharedBytes = sharedBytes;
        context.proxyFence.assign(T, 0);
        context.clock.assign(T, 1);
        context.warpgroups.resize((T + 127) / 128);
        block = &context;
        Frame kernel;
        kernel.parent = parent;
        kernel.threads = T;
        int64_t blockId[3] = {bx, by, bz};
        bind(kernel, blockId);
        std::vector<Buffer *> local; // this block's shared and private memory
        if (dynamicBytes > 0) {
          context.dynamicShared =
              newBuffer(IntegerType::get(op->getContext(), 8), {dynamicBytes},
                        "dynamic shared memory", Space::Shared);
          local.push_back(context.dynamicShared->buffer);
        }
        for (auto [index, arg] : llvm::enumerate(workgroup)) {
          auto type = cast<MemRefType>(arg.getType());
          if (!type.hasStaticShape())
            return fail(op, "shared memory with a dynamic shape");
          MemRefVal *view = newBuffer(type.getElementType(), type.getShape(),
                                      "shared memory (workgroup attribution #" +
                                          std::to_string(index) + ")",
                                      Space::Shared);
          local.push_back(view->buffer);
          std::vector<Val> &s = kernel.slot(arg);
          for (Val &v : s)
            v.memref = view;
        }
        for (BlockArgument arg : privates) {
          auto type = cast<MemRefType>(arg.getType());
          if (!type.hasStaticShape())
            return fail(op, "private memory with a dynamic shape");
          std::vector<Val> &s = kernel.slot(arg);
          for (int32_t t = 0; t < T; ++t) {
            s[t].memref = newBuffer(type.getElementType(), type.getShape(),
                                    "private memory of thread " +
                                        std::to_string(t),
                                    Space::Private);
            local.push_back(s[t].memref->buffer);
          }
        }
        // Simulated shared addresses: the static buffers in order, then
        // the dynamic one (where the driver puts it), each 16-byte aligned
        // and none 1024-byte aligned, so that code which needs more
        // alignment than 16 bytes (a 128-byte swizzle) must align itself.
        uint64_t cursor = 16;
        auto place = [&](Buffer *buffer) {
          cursor = (cursor + 15) / 16 * 16;
          if (cursor % 1024 == 0)
            cursor += 16;
          buffer->sharedAddr = cursor;
          cursor += buffer->bytes.size();
          context.shared.push_back(buffer);
        };
        for (Buffer *buffer : local)
          if (buffer->space == Space::Shared &&
              (!context.dynamicShared ||
               buffer != context.dynamicShared->buffer))
            place(buffer);
        if (context.dynamicShared)
          place(context.dynamicShared->buffer);
        Operation *terminator;
        if (failed(execBlock(body, kernel, all, terminator)))
          return failure();
        for (const BlockContext::Warpgroup &wg : context.warpgroups)
          for (auto [mma, group] : wg.issuedIn)
            if (group >= wg.completed)
              return fail(mma, "is still in flight when the kernel ends (no "
                               "wgmma.wait_group after it)");
        // setmaxnreg moves registers between the warpgroups within the
        // block's pool: the entry count E times T threads, where E (ptxas's,
        // a multiple of 8) is at most 65536 / T. Warpgroups that end above
        // that pool on average would wait forever in an inc on a GPU (an
        // inc blocks until the pool has the registers).
        {
          int64_t sum = 0, count = 0;
          Operation *last = nullptr;
          for (const BlockContext::Warpgroup &wg : context.warpgroups)
            if (wg.maxnreg) {
              sum += wg.maxnreg;
              ++count;
              last = wg.setmaxnreg;
            }
          int64_t entry = std::min<int64_t>(256, 65536 / T / 8 * 8);
          if (count && sum > entry * count)
            return fail(last,
                        "leaves " + Twine(count) + " warpgroups with " +
                            Twine(sum) + " registers per thread in all, " +
                            "more than the block's pool allows (at most " +
                            Twine(entry) + " each for " + Twine(T) +
                            " threads): an inc waits forever on a GPU");
        }
        for (auto [id, bar] : llvm::enumerate(context.mbarriers)) {
          if (!bar.initialized)
            continue;
          if (bar.pending != bar.expected || bar.tx != 0)
            return fail(op, "the kernel ends with phase " + Twine(bar.phase) +
                                " of mbarrier " + Twine(id) + " incomplete (" +
                                Twine(bar.pending) + " arrivals and " +
                                Twine(bar.tx) +
                                " transaction bytes outstanding)");
          if (bar.lastLoad) {
            uint64_t seen = 0;
            for (uint64_t p : context.seenPhases[id])
              seen = std::max(seen, p);
            if (seen <= bar.lastLoadPhase)
              return fail(bar.lastLoad,
                          "may still write the block's shared memory when "
                          "the kernel ends: no thread waited for phase " +
                              Twine(bar.lastLoadPhase) + " of mbarrier " +
                              Twine(id) + ", which completes it");
          }
        }
        for (int32_t t = 0; t < T; ++t) {
          const AsyncState &a = context.async[t];
          Operation *inFlight = a.open.empty() ? nullptr : a.open.front().op;
          for (const std::vector<AsyncCopy> &group : a.groups)
            if (!inFlight && !group.empty())
              inFlight = group.front().op;
          if (inFlight)
            return fail(inFlight,
                        "is still in flight when the kernel ends (no "
                        "cp.async.wait_group 0 after it)",
                        t);
        }
        block = nullptr;
        // This block's shared and private memory is gone (views into it
        // stay, marked freed).
        for (Buffer *b : local) {
          b->freed = true;
          std::vector<uint8_t>().swap(b->bytes);
          std::vector<Buffer::Access>().swap(b->access);
        }
      }
  if (asyncToken)
    host.slot(asyncToken)[0] = streamToken(*stream);
  return success();
}

//===----------------------------------------------------------------------===//
// Op dispatch
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::execOp(Operation *op, Frame &f, const Mask &m) {
  stats.threadOps += m.size();
  if (roles && !isa<nvgpu::MBarrierTryWaitParityOp>(op))
    ++roles->progress;
  if ((budget -= static_cast<int64_t>(m.size())) < 0)
    return fail(op, "the simulation ran out of its budget of 2^36 thread-ops "
                    "(a loop that does not end?)");
  Dialect *dialect = op->getDialect();
  StringRef ns = dialect ? dialect->getNamespace() : StringRef();
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return execFor(forOp, f, m);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return execIf(ifOp, f, m);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return execWhile(whileOp, f, m);
  if (auto launch = dyn_cast<gpu::LaunchOp>(op))
    return execLaunch(launch, f);
  if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op))
    return execLaunchFunc(launch, f);
  if (ns == "arith")
    return execArith(op, f, m);
  if (ns == "math")
    return execMath(op, f, m);
  if (ns == "vector")
    return execVector(op, f, m);
  if (ns == "memref")
    return execMemRef(op, f, m);
  if (ns == "gpu")
    return execGpu(op, f, m);
  if (ns == "llvm")
    return execLLVM(op, f, m);
  if (isa<nvgpu::MmaSyncOp, NVVM::MmaOp>(op))
    return execMma(op, f, m);
  if (auto ld = dyn_cast<nvgpu::LdMatrixOp>(op))
    return execLdMatrix(ld, f, m);
  if (auto cp = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op))
    return execAsyncCopy(cp, f, m);
  if (isa<NVVM::CpAsyncCommitGroupOp, NVVM::CpAsyncWaitGroupOp>(op))
    return execAsyncGroup(op, m);
  if (isa<nvgpu::MBarrierCreateOp, nvgpu::MBarrierInitOp,
          nvgpu::MBarrierArriveExpectTxOp, nvgpu::MBarrierTryWaitParityOp,
          nvgpu::TmaAsyncLoadOp, nvgpu::TmaCreateDescriptorOp>(op))
    return execTma(op, f, m);
  if (auto arrive = dyn_cast<NVVM::BarrierArriveOp>(op))
    return execNamedBarrier(op, arrive.getBarrierId(),
                            arrive.getNumberOfThreads(), /*arriveOnly=*/true, f,
                            m);
  if (auto bar = dyn_cast<NVVM::BarrierOp>(op)) {
    if (bar.getReductionOp() || bar.getReductionPredicate())
      return fail(op, "barrier reductions are not simulated");
    return execNamedBarrier(op, bar.getBarrierId(), bar.getNumberOfThreads(),
                            /*arriveOnly=*/false, f, m);
  }
  if (isa<NVVM::FenceMbarrierInitOp>(op)) {
    // Orders the inits before the barrier that publishes them; the
    // simulator checks that barrier (execTma).
    if (!block)
      return fail(op, "fence.mbarrier_init outside a kernel");
    return success();
  }
  if (ns == "affine")
    return execAffine(op, f, m);
  // A value seen as another type (the tensor maps' descriptors as the
  // pointers the kernel takes): the same value.
  if (auto cast = dyn_cast<UnrealizedConversionCastOp>(op)) {
    if (cast.getNumOperands() != 1 || cast.getNumResults() != 1)
      return fail(op, "only one-to-one casts are simulated");
    std::vector<Val> &s = f.slot(cast.getResult(0));
    for (int32_t t : m)
      s[t] = get(f, cast.getOperand(0), t);
    return success();
  }
  if (auto poison = dyn_cast<ub::PoisonOp>(op)) {
    std::vector<Val> &s = f.slot(poison.getResult());
    for (int32_t t : m)
      s[t].e.assign(scalarCount(poison.getType()), intElem(0));
    return success();
  }
  if (auto callOp = dyn_cast<func::CallOp>(op)) {
    if (block)
      return fail(op, "function calls in kernels are not simulated");
    if (callOp.getCallee() != "attic_rt_report_error" ||
        callOp.getNumOperands() != 4 || callOp.getNumResults() != 0)
      return fail(op, "only attic_rt_report_error(i32, i64, i64, i64) is "
                      "simulated among calls");
    int64_t a[4];
    for (int i = 0; i < 4; ++i)
      a[i] = getIndex(f, callOp.getOperand(i), 0);
    attic_rt_report_error(static_cast<int32_t>(a[0]), a[1], a[2], a[3]);
    return success();
  }
  return fail(op, "this op is not simulated");
}

//===----------------------------------------------------------------------===//
// arith
//===----------------------------------------------------------------------===//

bool compareInt(arith::CmpIPredicate p, uint64_t a, uint64_t b, unsigned w) {
  int64_t sa = signedOf(a, w), sb = signedOf(b, w);
  a = truncBits(a, w);
  b = truncBits(b, w);
  switch (p) {
  case arith::CmpIPredicate::eq:
    return a == b;
  case arith::CmpIPredicate::ne:
    return a != b;
  case arith::CmpIPredicate::slt:
    return sa < sb;
  case arith::CmpIPredicate::sle:
    return sa <= sb;
  case arith::CmpIPredicate::sgt:
    return sa > sb;
  case arith::CmpIPredicate::sge:
    return sa >= sb;
  case arith::CmpIPredicate::ult:
    return a < b;
  case arith::CmpIPredicate::ule:
    return a <= b;
  case arith::CmpIPredicate::ugt:
    return a > b;
  case arith::CmpIPredicate::uge:
    return a >= b;
  }
  return false;
}

bool compareFloat(arith::CmpFPredicate p, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (p) {
  case arith::CmpFPredicate::AlwaysFalse:
    return false;
  case arith::CmpFPredicate::OEQ:
    return !unordered && a == b;
  case arith::CmpFPredicate::OGT:
    return !unordered && a > b;
  case arith::CmpFPredicate::OGE:
    return !unordered && a >= b;
  case arith::CmpFPredicate::OLT:
    return !unordered && a < b;
  case arith::CmpFPredicate::OLE:
    return !unordered && a <= b;
  case arith::CmpFPredicate::ONE:
    return !unordered && a != b;
  case arith::CmpFPredicate::ORD:
    return !unordered;
  case arith::CmpFPredicate::UEQ:
    return unordered || a == b;
  case arith::CmpFPredicate::UGT:
    return unordered || a > b;
  case arith::CmpFPredicate::UGE:
    return unordered || a >= b;
  case arith::CmpFPredicate::ULT:
    return unordered || a < b;
  case arith::CmpFPredicate::ULE:
    return unordered || a <= b;
  case arith::CmpFPredicate::UNE:
    return unordered || a != b;
  case arith::CmpFPredicate::UNO:
    return unordered;
  case arith::CmpFPredicate::AlwaysTrue:
    return true;
  }
  return false;
}

/// IEEE maximum/minimum (NaN-propagating, -0 < +0) and maxNum/minNum
/// (a NaN operand yields the other one).
double maximumOf(double a, double b, bool max, bool propagateNaN) {
  if (std::isnan(a) || std::isnan(b)) {
    if (propagateNaN)
      return std::numeric_limits<double>::quiet_NaN();
    return std::isnan(a) ? b : a;
  }
  if (a == b && a == 0)
    return (std::signbit(a) != max) ? a : b;
  return max ? std::max(a, b) : std::min(a, b);
}

/// Constants of an attribute as the scalars of `type`.
Val constantOf(Attribute attr, Type type) {
  Val v;
  auto push = [&](Attribute a) {
    if (auto f = dyn_cast<FloatAttr>(a))
      v.e.push_back(floatElem(f.getValue().convertToDouble()));
    else if (auto i = dyn_cast<IntegerAttr>(a))
      v.e.push_back(intElem(truncBits(i.getValue().getZExtValue(),
                                      intWidth(i.getType()))));
  };
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    for (Attribute a : dense.getValues<Attribute>())
      push(a);
  } else {
    push(attr);
  }
  (void)type;
  return v;
}

/// Applies `fn` to each scalar of the operands (broadcasting scalar
/// operands over vector results) for every thread in `m`.
template <typename Fn>
void elementwise(Interpreter &, Operation *op, Frame &f, const Mask &m,
                 Fn fn) {
  Value result = op->getResult(0);
  int64_t n = scalarCount(result.getType());
  unsigned numOperands = op->getNumOperands();
  std::vector<Val> &out = f.slot(result);
  SmallVector<const Val *, 3> in(numOperands);
  SmallVector<Elem, 3> args(numOperands);
  for (int32_t t : m) {
    for (unsigned o = 0; o < numOperands; ++o)
      in[o] = f.find(op->getOperand(o), t);
    Val r;
    r.e.resize(n);
    for (int64_t i = 0; i < n; ++i) {
      for (unsigned o = 0; o < numOperands; ++o)
        args[o] = in[o]->e.size() == 1 ? in[o]->e[0] : in[o]->e[i];
      r.e[i] = fn(args);
    }
    out[t] = std::move(r);
  }
}

LogicalResult Interpreter::execArith(Operation *op, Frame &f, const Mask &m) {
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    Val v = constantOf(c.getValue(), c.getType());
    if (static_cast<int64_t>(v.e.size()) == 1 &&
        scalarCount(c.getType()) > 1)
      v.e.assign(scalarCount(c.getType()), v.e[0]);
    if (static_cast<int64_t>(v.e.size()) != scalarCount(c.getType()))
      return fail(op, "constant kind is not simulated");
    std::vector<Val> &s = f.slot(c.getResult());
    for (int32_t t : m)
      s[t] = v;
    return success();
  }
  Type resultType = op->getNumResults() ? op->getResult(0).getType() : Type();
  Type rs = resultType ? scalarType(resultType) : Type();
  Type os = op->getNumOperands() ? scalarType(op->getOperand(0).getType())
                                 : Type();
  auto floatOp = [&](auto fn) {
    elementwise(*this, op, f, m, [&](ArrayRef<Elem> a) {
      return floatElem(roundTo(rs, fn(a)));
    });
    return success();
  };
  auto intOp = [&](auto fn) {
    unsigned w = intWidth(rs);
    elementwise(*this, op, f, m, [&](ArrayRef<Elem> a) {
      return intElem(truncBits(fn(a, w), w));
    });
    return success();
  };
  // Integer division by zero (and INT_MIN / -1) is undefined: an error.
  auto checkDivisor = [&](bool isSigned) -> LogicalResult {
    unsigned w = intWidth(rs);
    for (int32_t t : m) {
      const Val &lhs = get(f, op->getOperand(0), t);
      const Val &rhs = get(f, op->getOperand(1), t);
      for (size_t i = 0; i < rhs.e.size(); ++i) {
        if (truncBits(rhs.e[i].i, w) == 0)
          return fail(op, "division by zero", t);
        if (isSigned && signedOf(rhs.e[i].i, w) == -1 && w > 0 &&
            truncBits(lhs.e[lhs.e.size() == 1 ? 0 : i].i, w) ==
                (uint64_t(1) << (w - 1)))
          return fail(op, "signed division overflow", t);
      }
    }
    return success();
  };
  auto floorDiv = [](int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  };
  auto ceilDiv = [](int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
  };

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<arith::AddFOp>([&](auto) {
        return floatOp([](ArrayRef<Elem> a) { return a[0].f + a[1].f; });
      })
      .Case<arith::SubFOp>([&](auto) {
        return floatOp([](ArrayRef<Elem> a) { return a[0].f - a[1].f; });
      })
      .Case<arith::MulFOp>([&](auto) {
        return floatOp([](ArrayRef<Elem> a) { return a[0].f * a[1].f; });
      })
      .Case<arith::DivFOp>([&](auto) {
        return floatOp([](ArrayRef<Elem> a) { return a[0].f / a[1].f; });
      })
      .Case<arith::RemFOp>([&](auto) {
        return floatOp(
            [](ArrayRef<Elem> a) { return std::fmod(a[0].f, a[1].f); });
      })
      .Case<arith::NegFOp>([&](auto) {
        return floatOp([](ArrayRef<Elem> a) { return -a[0].f; });
      })
      .Case<arith::MaximumFOp>([&](auto) {
        return floatOp([](ArrayRef<Elem> a) {
          return maximumOf(a[0].f, a[1].f, true, true);
        });
      })
      .Case<arith::MinimumFOp>([&](auto) {
        return floatOp([](ArrayRef<Elem> a) {
          return maximumOf(a[0].f, a[1].f, false, true);
        });
      })
      .Case<arith::MaxNumFOp>([&](auto) {
        return floatOp([](ArrayRef<Elem> a) {
          return maximumOf(a[0].f, a[1].f, true, false);
        });
      })
      .Case<arith::MinNumFOp>([&](auto) {
        return floatOp([](ArrayRef<Elem> a) {
          return maximumOf(a[0].f, a[1].f, false, false);
        });
      })
      .Case<arith::TruncFOp, arith::ExtFOp>([&](auto) {
        return floatOp([](ArrayRef<Elem> a) { return a[0].f; });
      })
      .Case<arith::SIToFPOp>([&](auto) {
        unsigned w = intWidth(os);
        return floatOp([w](ArrayRef<Elem> a) {
          return static_cast<double>(signedOf(a[0].i, w));
        });
      })
      .Case<arith::UIToFPOp>([&](auto) {
        return floatOp(
            [](ArrayRef<Elem> a) { return static_cast<double>(a[0].i); });
      })
      .Case<arith::FPToSIOp, arith::FPToUIOp>([&](auto) {
        // Saturating, NaN -> 0, as PTX's cvt.rzi.
        bool isSigned = isa<arith::FPToSIOp>(op);
        return intOp([isSigned](ArrayRef<Elem> a, unsigned w) -> uint64_t {
          double x = std::trunc(a[0].f);
          if (std::isnan(x))
            return 0;
          double lo = isSigned ? -std::ldexp(1.0, w - 1) : 0.0;
          double hi = isSigned ? std::ldexp(1.0, w - 1) - 1
                               : std::ldexp(1.0, w) - 1;
          x = std::min(std::max(x, lo), hi);
          return isSigned ? static_cast<uint64_t>(static_cast<int64_t>(x))
                          : static_cast<uint64_t>(x);
        });
      })
      .Case<arith::CmpFOp>([&](arith::CmpFOp cmp) {
        auto p = cmp.getPredicate();
        elementwise(*this, op, f, m, [p](ArrayRef<Elem> a) {
          return intElem(compareFloat(p, a[0].f, a[1].f) ? 1 : 0);
        });
        return success();
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp cmp) {
        auto p = cmp.getPredicate();
        unsigned w = intWidth(os);
        elementwise(*this, op, f, m, [p, w](ArrayRef<Elem> a) {
          return intElem(compareInt(p, a[0].i, a[1].i, w) ? 1 : 0);
        });
        return success();
      })
      .Case<arith::SelectOp>([&](auto) {
        elementwise(*this, op, f, m, [](ArrayRef<Elem> a) {
          return (a[0].i & 1) ? a[1] : a[2];
        });
        return success();
      })
      .Case<arith::AddIOp>([&](auto) {
        return intOp([](ArrayRef<Elem> a, unsigned) { return a[0].i + a[1].i; });
      })
      .Case<arith::SubIOp>([&](auto) {
        return intOp([](ArrayRef<Elem> a, unsigned) { return a[0].i - a[1].i; });
      })
      .Case<arith::MulIOp>([&](auto) {
        return intOp([](ArrayRef<Elem> a, unsigned) { return a[0].i * a[1].i; });
      })
      .Case<arith::AndIOp>([&](auto) {
        return intOp([](ArrayRef<Elem> a, unsigned) { return a[0].i & a[1].i; });
      })
      .Case<arith::OrIOp>([&](auto) {
        return intOp([](ArrayRef<Elem> a, unsigned) { return a[0].i | a[1].i; });
      })
      .Case<arith::XOrIOp>([&](auto) {
        return intOp([](ArrayRef<Elem> a, unsigned) { return a[0].i ^ a[1].i; });
      })
      .Case<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>([&](auto) {
        unsigned w = intWidth(rs);
        for (int32_t t : m)
          for (const Elem &e : get(f, op->getOperand(1), t).e)
            if (e.i >= w)
              return fail(op, "shift by " + Twine(e.i) + " of a " + Twine(w) +
                                  "-bit value",
                          t);
        if (isa<arith::ShLIOp>(op))
          return intOp(
              [](ArrayRef<Elem> a, unsigned) { return a[0].i << a[1].i; });
        if (isa<arith::ShRUIOp>(op))
          return intOp(
              [](ArrayRef<Elem> a, unsigned) { return a[0].i >> a[1].i; });
        return intOp([](ArrayRef<Elem> a, unsigned w) {
          return static_cast<uint64_t>(signedOf(a[0].i, w) >>
                                       static_cast<int64_t>(a[1].i));
        });
      })
      .Case<arith::MaxSIOp, arith::MinSIOp>([&](auto) {
        bool max = isa<arith::MaxSIOp>(op);
        return intOp([max](ArrayRef<Elem> a, unsigned w) {
          int64_t x = signedOf(a[0].i, w), y = signedOf(a[1].i, w);
          return static_cast<uint64_t>(max ? std::max(x, y) : std::min(x, y));
        });
      })
      .Case<arith::MaxUIOp, arith::MinUIOp>([&](auto) {
        bool max = isa<arith::MaxUIOp>(op);
        return intOp([max](ArrayRef<Elem> a, unsigned) {
          return max ? std::max(a[0].i, a[1].i) : std::min(a[0].i, a[1].i);
        });
      })
      .Case<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp>([&](auto) {
        if (failed(checkDivisor(false)))
          return failure();
        if (isa<arith::DivUIOp>(op))
          return intOp(
              [](ArrayRef<Elem> a, unsigned) { return a[0].i / a[1].i; });
        if (isa<arith::RemUIOp>(op))
          return intOp(
              [](ArrayRef<Elem> a, unsigned) { return a[0].i % a[1].i; });
        return intOp([](ArrayRef<Elem> a, unsigned) {
          return a[0].i / a[1].i + (a[0].i % a[1].i != 0);
        });
      })
      .Case<arith::DivSIOp, arith::RemSIOp, arith::FloorDivSIOp,
            arith::CeilDivSIOp>([&](auto) {
        if (failed(checkDivisor(true)))
          return failure();
        int kind = isa<arith::DivSIOp>(op)        ? 0
                   : isa<arith::RemSIOp>(op)      ? 1
                   : isa<arith::FloorDivSIOp>(op) ? 2
                                                  : 3;
        return intOp([=](ArrayRef<Elem> a, unsigned w) {
          int64_t x = signedOf(a[0].i, w), y = signedOf(a[1].i, w);
          int64_t r = kind == 0   ? x / y
                      : kind == 1 ? x % y
                      : kind == 2 ? floorDiv(x, y)
                                  : ceilDiv(x, y);
          return static_cast<uint64_t>(r);
        });
      })
      .Case<arith::ExtSIOp>([&](auto) {
        unsigned w = intWidth(os);
        return intOp([w](ArrayRef<Elem> a, unsigned) {
          return static_cast<uint64_t>(signedOf(a[0].i, w));
        });
      })
      .Case<arith::ExtUIOp, arith::TruncIOp, arith::IndexCastUIOp>([&](auto) {
        return intOp([](ArrayRef<Elem> a, unsigned) { return a[0].i; });
      })
      .Case<arith::IndexCastOp>([&](auto) {
        unsigned w = intWidth(os);
        return intOp([w](ArrayRef<Elem> a, unsigned) {
          return static_cast<uint64_t>(signedOf(a[0].i, w));
        });
      })
      .Case<arith::MulUIExtendedOp, arith::MulSIExtendedOp>([&](auto) {
        bool isSigned = isa<arith::MulSIExtendedOp>(op);
        unsigned w = intWidth(rs);
        if (w > 64)
          return fail(op, "wider than 64 bits");
        int64_t n = scalarCount(resultType);
        f.slot(op->getResult(0));
        f.slot(op->getResult(1));
        std::vector<Val> &lo = f.values[op->getResult(0)];
        std::vector<Val> &hi = f.values[op->getResult(1)];
        for (int32_t t : m) {
          const Val &a = get(f, op->getOperand(0), t);
          const Val &b = get(f, op->getOperand(1), t);
          Val l, h;
          for (int64_t i = 0; i < n; ++i) {
            __int128 x = isSigned ? (__int128)signedOf(a.e[i].i, w)
                                  : (__int128)truncBits(a.e[i].i, w);
            __int128 y = isSigned ? (__int128)signedOf(b.e[i].i, w)
                                  : (__int128)truncBits(b.e[i].i, w);
            unsigned __int128 p = static_cast<unsigned __int128>(x * y);
            l.e.push_back(intElem(truncBits(static_cast<uint64_t>(p), w)));
            h.e.push_back(
                intElem(truncBits(static_cast<uint64_t>(p >> w), w)));
          }
          lo[t] = std::move(l);
          hi[t] = std::move(h);
        }
        return success();
      })
      .Case<arith::BitcastOp>([&](auto) {
        std::vector<Val> &s = f.slot(op->getResult(0));
        for (int32_t t : m)
          s[t] = fromBytes(resultType,
                           toBytes(op->getOperand(0).getType(),
                                   get(f, op->getOperand(0), t)));
        return success();
      })
      .Default([&](Operation *) { return fail(op, "this op is not simulated"); });
}

//===----------------------------------------------------------------------===//
// math
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::execMath(Operation *op, Frame &f, const Mask &m) {
  Type rs = scalarType(op->getResult(0).getType());
  auto unary = [&](double (*fn)(double)) {
    elementwise(*this, op, f, m, [&](ArrayRef<Elem> a) {
      return floatElem(roundTo(rs, fn(a[0].f)));
    });
    return success();
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<math::ExpOp>([&](auto) { return unary(std::exp); })
      .Case<math::Exp2Op>([&](auto) { return unary(std::exp2); })
      .Case<math::ExpM1Op>([&](auto) { return unary(std::expm1); })
      .Case<math::LogOp>([&](auto) { return unary(std::log); })
      .Case<math::Log2Op>([&](auto) { return unary(std::log2); })
      .Case<math::Log1pOp>([&](auto) { return unary(std::log1p); })
      .Case<math::SqrtOp>([&](auto) { return unary(std::sqrt); })
      .Case<math::RsqrtOp>([&](auto) {
        return unary([](double x) { return 1.0 / std::sqrt(x); });
      })
      .Case<math::AbsFOp>([&](auto) { return unary(std::fabs); })
      .Case<math::TanhOp>([&](auto) { return unary(std::tanh); })
      .Case<math::ErfOp>([&](auto) { return unary(std::erf); })
      .Case<math::SinOp>([&](auto) { return unary(std::sin); })
      .Case<math::CosOp>([&](auto) { return unary(std::cos); })
      .Case<math::FloorOp>([&](auto) { return unary(std::floor); })
      .Case<math::CeilOp>([&](auto) { return unary(std::ceil); })
      .Case<math::ErfcOp>([&](auto) { return unary(std::erfc); })
      .Case<math::Log10Op>([&](auto) { return unary(std::log10); })
      .Case<math::CbrtOp>([&](auto) { return unary(std::cbrt); })
      .Case<math::TanOp>([&](auto) { return unary(std::tan); })
      .Case<math::AsinOp>([&](auto) { return unary(std::asin); })
      .Case<math::AcosOp>([&](auto) { return unary(std::acos); })
      .Case<math::AtanOp>([&](auto) { return unary(std::atan); })
      .Case<math::SinhOp>([&](auto) { return unary(std::sinh); })
      .Case<math::CoshOp>([&](auto) { return unary(std::cosh); })
      .Case<math::AsinhOp>([&](auto) { return unary(std::asinh); })
      .Case<math::AcoshOp>([&](auto) { return unary(std::acosh); })
      .Case<math::AtanhOp>([&](auto) { return unary(std::atanh); })
      .Case<math::TruncOp>([&](auto) { return unary(std::trunc); })
      // Half-way cases away from zero (math.round), to even (roundeven).
      .Case<math::RoundOp>([&](auto) { return unary(std::round); })
      .Case<math::RoundEvenOp>([&](auto) {
        return unary([](double x) {
          double r = std::round(x);
          if (std::fabs(x - std::trunc(x)) == 0.5)
            r = 2.0 * std::round(x / 2.0);
          return r;
        });
      })
      .Case<math::Atan2Op>([&](auto) {
        elementwise(*this, op, f, m, [&](ArrayRef<Elem> a) {
          return floatElem(roundTo(rs, std::atan2(a[0].f, a[1].f)));
        });
        return success();
      })
      .Case<math::FmaOp>([&](auto) {
        elementwise(*this, op, f, m, [&](ArrayRef<Elem> a) {
          return floatElem(roundTo(rs, std::fma(a[0].f, a[1].f, a[2].f)));
        });
        return success();
      })
      .Case<math::PowFOp>([&](auto) {
        elementwise(*this, op, f, m, [&](ArrayRef<Elem> a) {
          return floatElem(roundTo(rs, std::pow(a[0].f, a[1].f)));
        });
        return success();
      })
      .Case<math::CopySignOp>([&](auto) {
        elementwise(*this, op, f, m, [&](ArrayRef<Elem> a) {
          return floatElem(std::copysign(a[0].f, a[1].f));
        });
        return success();
      })
      .Default(
          [&](Operation *) { return fail(op, "this op is not simulated"); });
}

//===----------------------------------------------------------------------===//
// vector
//===----------------------------------------------------------------------===//

/// Row-major offset and length of the sub-vector at `position` (a prefix of
/// the indices) of a vector of `shape`.
std::pair<int64_t, int64_t> subVector(ArrayRef<int64_t> shape,
                                      ArrayRef<int64_t> position) {
  int64_t length = 1;
  for (size_t d = position.size(); d < shape.size(); ++d)
    length *= shape[d];
  int64_t offset = 0, stride = length;
  for (int64_t d = static_cast<int64_t>(position.size()) - 1; d >= 0; --d) {
    offset += position[d] * stride;
    stride *= shape[d];
  }
  return {offset, length};
}

LogicalResult Interpreter::execVector(Operation *op, Frame &f, const Mask &m) {
  auto positions = [&](SmallVector<OpFoldResult> mixed, ArrayRef<int64_t> shape,
                       int32_t t) -> FailureOr<SmallVector<int64_t>> {
    SmallVector<int64_t> pos;
    for (auto [d, r] : llvm::enumerate(mixed)) {
      int64_t p = foldIndex(f, r, t);
      if (p < 0 || p >= shape[d])
        return fail(op, "position " + Twine(p) + " out of [0, " +
                            Twine(shape[d]) + ")",
                    t);
      pos.push_back(p);
    }
    return pos;
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<vector::ExtractOp>([&](vector::ExtractOp x) -> LogicalResult {
        ArrayRef<int64_t> shape = x.getSourceVectorType().getShape();
        std::vector<Val> &s = f.slot(x.getResult());
        for (int32_t t : m) {
          FailureOr<SmallVector<int64_t>> pos =
              positions(x.getMixedPosition(), shape, t);
          if (failed(pos))
            return failure();
          auto [offset, length] = subVector(shape, *pos);
          const Val &src = get(f, x.getSource(), t);
          Val r;
          r.e.assign(src.e.begin() + offset, src.e.begin() + offset + length);
          s[t] = std::move(r);
        }
        return success();
      })
      .Case<vector::InsertOp>([&](vector::InsertOp x) -> LogicalResult {
        ArrayRef<int64_t> shape = x.getDestVectorType().getShape();
        std::vector<Val> &s = f.slot(x.getResult());
        for (int32_t t : m) {
          FailureOr<SmallVector<int64_t>> pos =
              positions(x.getMixedPosition(), shape, t);
          if (failed(pos))
            return failure();
          auto [offset, length] = subVector(shape, *pos);
          Val r = get(f, x.getDest(), t);
          const Val &v = get(f, x.getValueToStore(), t);
          for (int64_t i = 0; i < length; ++i)
            r.e[offset + i] = v.e[i];
          s[t] = std::move(r);
        }
        return success();
      })
      .Case<vector::FromElementsOp>([&](vector::FromElementsOp x) {
        std::vector<Val> &s = f.slot(x.getResult());
        for (int32_t t : m) {
          Val r;
          for (Value e : x.getElements())
            r.e.push_back(get(f, e, t).e[0]);
          s[t] = std::move(r);
        }
        return success();
      })
      // The canonicalizer's form of a run of vector.extract ops that take
      // every element (row-major order), e.g. between attic's passes.
      .Case<vector::ToElementsOp>([&](vector::ToElementsOp x) {
        for (auto [i, result] : llvm::enumerate(x.getElements())) {
          std::vector<Val> &s = f.slot(result);
          for (int32_t t : m) {
            Val r;
            r.e.push_back(get(f, x.getSource(), t).e[i]);
            s[t] = std::move(r);
          }
        }
        return success();
      })
      .Case<vector::BroadcastOp>([&](vector::BroadcastOp x) {
        ArrayRef<int64_t> shape = x.getResultVectorType().getShape();
        auto sourceVector = dyn_cast<VectorType>(x.getSourceType());
        SmallVector<int64_t> sourceShape =
            sourceVector ? SmallVector<int64_t>(sourceVector.getShape())
                         : SmallVector<int64_t>();
        int64_t n = x.getResultVectorType().getNumElements();
        size_t lead = shape.size() - sourceShape.size();
        std::vector<Val> &s = f.slot(x.getResult());
        for (int32_t t : m) {
          const Val &src = get(f, x.getSource(), t);
          Val r;
          r.e.resize(n);
          for (int64_t i = 0; i < n; ++i) {
            // Result index -> source index (dims of size 1 stretch).
            int64_t rest = i, srcIndex = 0, srcStride = 1;
            for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0;
                 --d) {
              int64_t c = rest % shape[d];
              rest /= shape[d];
              if (static_cast<size_t>(d) >= lead) {
                int64_t sd = sourceShape[d - lead];
                srcIndex += (sd == 1 ? 0 : c) * srcStride;
                srcStride *= sd;
              }
            }
            r.e[i] = src.e[srcIndex];
          }
          s[t] = std::move(r);
        }
        return success();
      })
      .Case<vector::BitCastOp>([&](vector::BitCastOp x) {
        std::vector<Val> &s = f.slot(x.getResult());
        for (int32_t t : m)
          s[t] = fromBytes(x.getResultVectorType(),
                           toBytes(x.getSourceVectorType(),
                                   get(f, x.getSource(), t)));
        return success();
      })
      .Case<vector::ShuffleOp>([&](vector::ShuffleOp x) {
        ArrayRef<int64_t> mask = x.getMask();
        auto v1 = x.getV1VectorType();
        int64_t lead1 = v1.getRank() ? v1.getShape()[0] : 1;
        int64_t sub = v1.getRank() ? v1.getNumElements() / lead1 : 1;
        std::vector<Val> &s = f.slot(x.getResult());
        for (int32_t t : m) {
          const Val &a = get(f, x.getV1(), t);
          const Val &b = get(f, x.getV2(), t);
          Val r;
          for (int64_t k : mask) {
            if (k < 0) { // poison lane
              r.e.append(sub, intElem(0));
              continue;
            }
            const Val &from = k < lead1 ? a : b;
            int64_t at = (k < lead1 ? k : k - lead1) * sub;
            r.e.append(from.e.begin() + at, from.e.begin() + at + sub);
          }
          s[t] = std::move(r);
        }
        return success();
      })
      .Case<vector::FMAOp>([&](vector::FMAOp x) {
        Type rs = scalarType(x.getType());
        elementwise(*this, op, f, m, [&](ArrayRef<Elem> a) {
          return floatElem(roundTo(rs, std::fma(a[0].f, a[1].f, a[2].f)));
        });
        return success();
      })
      .Case<vector::LoadOp>([&](vector::LoadOp x) -> LogicalResult {
        VectorType type = x.getVectorType();
        if (type.getRank() > 1)
          return fail(op, "vector loads of rank > 1 are not simulated");
        std::vector<Val> &s = f.slot(x.getResult());
        for (int32_t t : m) {
          const MemRefVal &view = *get(f, x.getBase(), t).memref;
          FailureOr<int64_t> count = vectorCount(op, view, type, t);
          if (failed(count))
            return failure();
          FailureOr<uint8_t *> p = access(
              op, view, indicesOf(f, x.getIndices(), t), *count, false, t);
          if (failed(p) ||
              failed(checkAlignment(op, x.getAlignment(), view, *p, t)))
            return failure();
          s[t] = loadElements(view, *p, *count);
        }
        return success();
      })
      .Case<vector::StoreOp>([&](vector::StoreOp x) -> LogicalResult {
        VectorType type = x.getVectorType();
        if (type.getRank() > 1)
          return fail(op, "vector stores of rank > 1 are not simulated");
        for (int32_t t : m) {
          const MemRefVal &view = *get(f, x.getBase(), t).memref;
          FailureOr<int64_t> count = vectorCount(op, view, type, t);
          if (failed(count))
            return failure();
          FailureOr<uint8_t *> p = access(
              op, view, indicesOf(f, x.getIndices(), t), *count, true, t);
          if (failed(p) ||
              failed(checkAlignment(op, x.getAlignment(), view, *p, t)))
            return failure();
          storeElements(view, *p, get(f, x.getValueToStore(), t));
        }
        return success();
      })
      .Case<vector::ReductionOp>([&](vector::ReductionOp x) -> LogicalResult {
        Type rs = x.getType();
        bool isFloat = isa<FloatType>(rs);
        vector::CombiningKind kind = x.getKind();
        std::vector<Val> &s = f.slot(x.getResult());
        for (int32_t t : m) {
          const Val &v = get(f, x.getVector(), t);
          SmallVector<Elem> items(v.e.begin(), v.e.end());
          if (x.getAcc())
            items.insert(items.begin(), get(f, x.getAcc(), t).e[0]);
          Elem acc = items[0];
          for (size_t i = 1; i < items.size(); ++i) {
            Elem b = items[i];
            switch (kind) {
            case vector::CombiningKind::ADD:
              if (isFloat)
                acc.f = roundTo(rs, acc.f + b.f);
              else
                acc.i = truncBits(acc.i + b.i, intWidth(rs));
              break;
            case vector::CombiningKind::MUL:
              if (isFloat)
                acc.f = roundTo(rs, acc.f * b.f);
              else
                acc.i = truncBits(acc.i * b.i, intWidth(rs));
              break;
            case vector::CombiningKind::MAXNUMF:
              acc.f = maximumOf(acc.f, b.f, true, false);
              break;
            case vector::CombiningKind::MINNUMF:
              acc.f = maximumOf(acc.f, b.f, false, false);
              break;
            case vector::CombiningKind::MAXIMUMF:
              acc.f = maximumOf(acc.f, b.f, true, true);
              break;
            case vector::CombiningKind::MINIMUMF:
              acc.f = maximumOf(acc.f, b.f, false, true);
              break;
            default:
              return fail(op, "this combining kind is not simulated", t);
            }
          }
          Val r;
          r.e.push_back(acc);
          s[t] = std::move(r);
        }
        return success();
      })
      .Default(
          [&](Operation *) { return fail(op, "this op is not simulated"); });
}

//===----------------------------------------------------------------------===//
// memref
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::execMemRef(Operation *op, Frame &f, const Mask &m) {
  auto indices = [&](ValueRange values, int32_t t) {
    return indicesOf(f, values, t);
  };
  auto setView = [&](Value result, int32_t t, const MemRefVal &view) {
    f.slot(result)[t].memref = newView(view);
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<memref::LoadOp>([&](memref::LoadOp x) -> LogicalResult {
        std::vector<Val> &s = f.slot(x.getResult());
        for (int32_t t : m) {
          const MemRefVal &view = *get(f, x.getMemref(), t).memref;
          FailureOr<uint8_t *> p =
              access(op, view, indices(x.getIndices(), t), 1, false, t);
          if (failed(p))
            return failure();
          s[t] = loadElements(view, *p, 1);
        }
        return success();
      })
      .Case<memref::ExtractAlignedPointerAsIndexOp>(
          [&](memref::ExtractAlignedPointerAsIndexOp x) -> LogicalResult {
            // The simulated shared address of the view's first element
            // (memref.view moves the aligned pointer; a layout offset would
            // not, so those are refused).
            auto type = cast<MemRefType>(x.getSource().getType());
            if (!type.getLayout().isIdentity())
              return fail(op, "of a memref with a non-identity layout is "
                              "not simulated");
            std::vector<Val> &s = f.slot(x.getResult());
            for (int32_t t : m) {
              const MemRefVal &view = *get(f, x.getSource(), t).memref;
              if (view.buffer->space != Space::Shared || !block)
                return fail(op,
                            "of " + view.buffer->what +
                                " (simulated only for shared memory)",
                            t);
              s[t].e.assign(1, intElem(view.buffer->sharedAddr +
                                       view.offset * view.elemBytes));
            }
            return success();
          })
      .Case<memref::StoreOp>([&](memref::StoreOp x) -> LogicalResult {
        for (int32_t t : m) {
          const MemRefVal &view = *get(f, x.getMemref(), t).memref;
          FailureOr<uint8_t *> p =
              access(op, view, indices(x.getIndices(), t), 1, true, t);
          if (failed(p))
            return failure();
          storeElements(view, *p, get(f, x.getValueToStore(), t));
        }
        return success();
      })
      .Case<memref::AtomicRMWOp>([&](memref::AtomicRMWOp x) -> LogicalResult {
        // One thread after the other, in thread order.
        Type type = x.getType();
        bool isFloat = isa<FloatType>(type);
        std::vector<Val> &s = f.slot(x.getResult());
        for (int32_t t : m) {
          const MemRefVal &view = *get(f, x.getMemref(), t).memref;
          FailureOr<uint8_t *> p =
              address(op, view, indices(x.getIndices(), t), 1, t);
          if (failed(p))
            return failure();
          Val old = loadElements(view, *p, 1);
          Elem a = old.e[0], b = get(f, x.getValue(), t).e[0], r;
          unsigned w = isFloat ? 0 : intWidth(type);
          switch (x.getKind()) {
          case arith::AtomicRMWKind::addf:
            r.f = roundTo(type, a.f + b.f);
            break;
          case arith::AtomicRMWKind::addi:
            r.i = truncBits(a.i + b.i, w);
            break;
          case arith::AtomicRMWKind::assign:
            r = b;
            break;
          case arith::AtomicRMWKind::maxs:
            r.i = signedOf(a.i, w) >= signedOf(b.i, w) ? a.i : b.i;
            break;
          case arith::AtomicRMWKind::mins:
            r.i = signedOf(a.i, w) <= signedOf(b.i, w) ? a.i : b.i;
            break;
          case arith::AtomicRMWKind::maxu:
            r.i = std::max(a.i, b.i);
            break;
          case arith::AtomicRMWKind::minu:
            r.i = std::min(a.i, b.i);
            break;
          case arith::AtomicRMWKind::ori:
            r.i = a.i | b.i;
            break;
          case arith::AtomicRMWKind::andi:
            r.i = a.i & b.i;
            break;
          case arith::AtomicRMWKind::maximumf:
            r.f = maximumOf(a.f, b.f, true, true);
            break;
          case arith::AtomicRMWKind::minimumf:
            r.f = maximumOf(a.f, b.f, false, true);
            break;
          default:
            return fail(op, "this atomic kind is not simulated", t);
          }
          Val nv;
          nv.e.push_back(r);
          storeElements(view, *p, nv);
          s[t] = std::move(old);
        }
        return success();
      })
      .Case<memref::AllocOp, memref::AllocaOp>([&](auto x) -> LogicalResult {
        for (int32_t t : m) {
          FailureOr<MemRefVal *> view =
              allocate(op, x.getType(), x.getDynamicSizes(), f, t,
                       block ? "a kernel's local buffer" : "a host buffer",
                       block ? Space::Private : Space::Host);
          if (failed(view))
            return failure();
          f.slot(x.getResult())[t].memref = *view;
        }
        return success();
      })
      .Case<memref::DeallocOp>([&](memref::DeallocOp x) -> LogicalResult {
        for (int32_t t : m) {
          Buffer *b = get(f, x.getMemref(), t).memref->buffer;
          if (b->freed)
            return fail(op, "frees " + b->what + " twice", t);
          if (!block && failed(checkHostAccess(op, b, /*write=*/true)))
            return failure();
          b->freed = true;
        }
        return success();
      })
      .Case<memref::DimOp>([&](memref::DimOp x) -> LogicalResult {
        std::vector<Val> &s = f.slot(x.getResult());
        for (int32_t t : m) {
          const MemRefVal &view = *get(f, x.getSource(), t).memref;
          int64_t d = getIndex(f, x.getIndex(), t);
          if (d < 0 || d >= static_cast<int64_t>(view.sizes.size()))
            return fail(op, "dim " + Twine(d) + " out of range", t);
          Val v;
          v.e.push_back(intElem(static_cast<uint64_t>(view.sizes[d])));
          s[t] = std::move(v);
        }
        return success();
      })
      .Case<memref::CastOp>([&](memref::CastOp x) {
        for (int32_t t : m)
          f.slot(x.getResult())[t].memref = get(f, x.getSource(), t).memref;
        return success();
      })
      .Case<memref::ViewOp>([&](memref::ViewOp x) -> LogicalResult {
        MemRefType type = x.getType();
        int64_t elemBytes = elementBytes(type.getElementType());
        for (int32_t t : m) {
          const MemRefVal &src = *get(f, x.getSource(), t).memref;
          int64_t shift = getIndex(f, x.getByteShift(), t);
          int64_t start = src.offset * src.elemBytes + shift;
          MemRefVal view;
          view.buffer = src.buffer;
          view.elemType = type.getElementType();
          view.elemBytes = elemBytes;
          auto dynamicSizes = x.getSizes().begin();
          for (int64_t size : type.getShape())
            view.sizes.push_back(ShapedType::isDynamic(size)
                                     ? getIndex(f, *dynamicSizes++, t)
                                     : size);
          view.strides.resize(view.sizes.size());
          int64_t count = 1;
          for (int64_t d = static_cast<int64_t>(view.sizes.size()) - 1; d >= 0;
               --d) {
            view.strides[d] = count;
            count *= view.sizes[d];
          }
          int64_t srcBytes =
              src.sizes.empty() ? 0 : src.sizes[0] * src.elemBytes;
          if (shift < 0 || count < 0 || shift + count * elemBytes > srcBytes)
            return fail(op,
                        "views bytes [" + Twine(shift) + ", " +
                            Twine(shift + count * elemBytes) + ") of a " +
                            Twine(srcBytes) + "-byte buffer",
                        t);
          if (start % elemBytes)
            return fail(op,
                        "views at byte " + Twine(start) +
                            ", not a multiple of its element size " +
                            Twine(elemBytes),
                        t);
          view.offset = start / elemBytes;
          setView(x.getResult(), t, view);
        }
        return success();
      })
      .Case<memref::SubViewOp>([&](memref::SubViewOp x) -> LogicalResult {
        llvm::SmallBitVector dropped = x.getDroppedDims();
        for (int32_t t : m) {
          const MemRefVal &src = *get(f, x.getSource(), t).memref;
          MemRefVal view = src;
          view.sizes.clear();
          view.strides.clear();
          auto offsets = x.getMixedOffsets();
          auto sizes = x.getMixedSizes();
          auto strides = x.getMixedStrides();
          for (size_t d = 0; d < src.sizes.size(); ++d) {
            int64_t o = foldIndex(f, offsets[d], t);
            int64_t n = foldIndex(f, sizes[d], t);
            int64_t st = foldIndex(f, strides[d], t);
            if (o < 0 || n < 0 || (n > 0 && o + (n - 1) * st >= src.sizes[d]))
              return fail(op, "subview out of bounds in dim " + Twine(d), t);
            view.offset += o * src.strides[d];
            if (dropped.test(d))
              continue;
            view.sizes.push_back(n);
            view.strides.push_back(st * src.strides[d]);
          }
          setView(x.getResult(), t, view);
        }
        return success();
      })
      .Case<memref::ReinterpretCastOp>(
          [&](memref::ReinterpretCastOp x) -> LogicalResult {
            // The new offset counts from the source's aligned pointer, which
            // is the view's first element for an identity layout (a
            // memref.view's shift moves the aligned pointer) and that less
            // the layout's offset for a strided one.
            auto sourceType = cast<MemRefType>(x.getSource().getType());
            int64_t layoutOffset = 0;
            if (!sourceType.getLayout().isIdentity()) {
              auto strided =
                  dyn_cast<StridedLayoutAttr>(sourceType.getLayout());
              if (!strided || ShapedType::isDynamic(strided.getOffset()))
                return fail(op, "of a memref whose layout offset is not "
                                "static is not simulated");
              layoutOffset = strided.getOffset();
            }
            for (int32_t t : m) {
              MemRefVal view = *get(f, x.getSource(), t).memref;
              view.offset = view.offset - layoutOffset +
                            foldIndex(f, x.getMixedOffsets()[0], t);
              view.sizes.clear();
              view.strides.clear();
              for (OpFoldResult r : x.getMixedSizes())
                view.sizes.push_back(foldIndex(f, r, t));
              for (OpFoldResult r : x.getMixedStrides())
                view.strides.push_back(foldIndex(f, r, t));
              setView(x.getResult(), t, view);
            }
            return success();
          })
      .Case<memref::CollapseShapeOp>(
          [&](memref::CollapseShapeOp x) -> LogicalResult {
            for (int32_t t : m) {
              const MemRefVal &src = *get(f, x.getSrc(), t).memref;
              MemRefVal view = src;
              view.sizes.clear();
              view.strides.clear();
              for (const ReassociationIndices &group :
                   x.getReassociationIndices()) {
                int64_t size = 1;
                for (int64_t d : group)
                  size *= src.sizes[d];
                // The group must be contiguous: each stride the next's
                // times its size (unit dims excepted).
                for (size_t k = 0; k + 1 < group.size(); ++k)
                  if (src.sizes[group[k + 1]] != 1 && src.sizes[group[k]] != 1 &&
                      src.strides[group[k]] !=
                          src.strides[group[k + 1]] * src.sizes[group[k + 1]])
                    return fail(op, "collapses non-contiguous dims", t);
                view.sizes.push_back(size);
                view.strides.push_back(group.empty()
                                           ? 1
                                           : src.strides[group.back()]);
              }
              setView(x.getResult(), t, view);
            }
            return success();
          })
      .Case<memref::ExpandShapeOp>(
          [&](memref::ExpandShapeOp x) -> LogicalResult {
            for (int32_t t : m) {
              const MemRefVal &src = *get(f, x.getSrc(), t).memref;
              MemRefVal view = src;
              SmallVector<OpFoldResult> shape = x.getMixedOutputShape();
              int64_t rank = shape.size();
              view.sizes.assign(rank, 0);
              view.strides.assign(rank, 0);
              // A rank-0 source has no groups: its one element as sizes 1
              // (the sizes were left 0, and every read of the result was
              // out of bounds).
              if (x.getReassociationIndices().empty())
                for (int64_t d = 0; d < rank; ++d) {
                  view.sizes[d] = foldIndex(f, shape[d], t);
                  view.strides[d] = 1;
                }
              for (auto [d, group] :
                   llvm::enumerate(x.getReassociationIndices())) {
                int64_t stride = src.strides[d];
                for (int64_t k = static_cast<int64_t>(group.size()) - 1; k >= 0;
                     --k) {
                  int64_t size = foldIndex(f, shape[group[k]], t);
                  view.sizes[group[k]] = size;
                  view.strides[group[k]] = stride;
                  stride *= size;
                }
              }
              setView(x.getResult(), t, view);
            }
            return success();
          })
      .Case<memref::GetGlobalOp>([&](memref::GetGlobalOp x) -> LogicalResult {
        auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
            op, x.getNameAttr());
        if (!global)
          return fail(op, "global not found");
        MemRefVal *&view = globals[global];
        if (!view) {
          MemRefType type = global.getType();
          view = newBuffer(type.getElementType(), type.getShape(),
                           ("global @" + global.getSymName()).str(),
                           Space::Global);
          auto init = dyn_cast_or_null<DenseElementsAttr>(
              global.getInitialValueAttr());
          if (!init)
            return fail(op, "globals without a dense initial value are not "
                            "simulated");
          Val v = constantOf(init, type.getElementType());
          if (init.isSplat())
            v.e.assign(type.getNumElements(), v.e[0]);
          storeElements(*view, view->buffer->bytes.data(), v);
        }
        for (int32_t t : m)
          f.slot(x.getResult())[t].memref = view;
        return success();
      })
      .Case<memref::CopyOp>([&](memref::CopyOp x) -> LogicalResult {
        for (int32_t t : m)
          if (failed(copy(op, *get(f, x.getTarget(), t).memref,
                          *get(f, x.getSource(), t).memref)))
            return failure();
        return success();
      })
      .Default(
          [&](Operation *) { return fail(op, "this op is not simulated"); });
}

//===----------------------------------------------------------------------===//
// gpu
//===----------------------------------------------------------------------===//

LogicalResult
Interpreter::forEachFullGroup(Operation *op, const Mask &m, int32_t size,
                              StringRef members, StringRef group,
                              StringRef what,
                              function_ref<LogicalResult(int32_t)> body) {
  for (size_t i = 0; i < m.size();) {
    int32_t index = m[i] / size;
    size_t j = i;
    while (j < m.size() && m[j] / size == index)
      ++j;
    if (j - i != static_cast<size_t>(size))
      return fail(op,
                  "reached by " + Twine(j - i) + " of the " + Twine(size) +
                      " " + members + " of " + group + " " + Twine(index) +
                      " (" + what + " needs the whole " + group + ")",
                  m[i]);
    if (failed(body(index)))
      return failure();
    i = j;
  }
  return success();
}

LogicalResult Interpreter::execShuffle(gpu::ShuffleOp op, Frame &f,
                                       const Mask &m) {
  constexpr int32_t kWarp = 32;
  std::vector<Val> &result = f.slot(op.getShuffleResult());
  std::vector<Val> &valid = f.slot(op.getValid());
  return forEachFullWarp(op, m, "a shuffle", [&](int32_t warp) {
    // Read all sources first (results are written after).
    SmallVector<Val> values(kWarp);
    SmallVector<bool> ok(kWarp);
    for (int32_t lane = 0; lane < kWarp; ++lane) {
      int32_t t = warp * kWarp + lane;
      int64_t offset = getIndex(f, op.getOffset(), t);
      int64_t width = getIndex(f, op.getWidth(), t);
      if (width < 1 || width > kWarp || (width & (width - 1)))
        return fail(op, "width " + Twine(width) + " is not a power of two "
                            "in [1, 32]", t);
      int64_t base = lane & ~(width - 1), inSegment = lane - base, src = -1;
      switch (op.getMode()) {
      case gpu::ShuffleMode::XOR:
        src = inSegment ^ offset;
        break;
      case gpu::ShuffleMode::UP:
        src = inSegment - offset;
        break;
      case gpu::ShuffleMode::DOWN:
        src = inSegment + offset;
        break;
      case gpu::ShuffleMode::IDX:
        src = offset;
        break;
      }
      ok[lane] = src >= 0 && src < width;
      int32_t from = ok[lane] ? warp * kWarp + base + src : t;
      values[lane] = get(f, op.getValue(), from);
    }
    for (int32_t lane = 0; lane < kWarp; ++lane) {
      int32_t t = warp * kWarp + lane;
      result[t] = values[lane];
      valid[t].e.assign(1, intElem(ok[lane] ? 1 : 0));
    }
    return success();
  });
}

LogicalResult Interpreter::execGpu(Operation *op, Frame &f, const Mask &m) {
  // The stream of a host step (gpu.wait manages streams itself).
  int64_t stream = -1;
  auto asyncOp = dyn_cast<gpu::AsyncOpInterface>(op);
  if (asyncOp && !isa<gpu::WaitOp>(op)) {
    if (block)
      return fail(op, "a host step (" + op->getName().getStringRef() +
                          ") in a kernel");
    FailureOr<int64_t> s = streamOf(op, f, asyncOp.getAsyncDependencies(),
                                    static_cast<bool>(asyncOp.getAsyncToken()));
    if (failed(s))
      return failure();
    stream = *s;
  }
  auto token = [&](Value t) {
    if (t)
      f.slot(t)[0] = streamToken(stream);
  };
  // Host memory an async copy reads or writes stays off limits to the host
  // until the copy's stream is synchronized.
  auto pending = [&](const MemRefVal &view, bool write) {
    if (stream >= 0 && view.buffer->space == Space::Host)
      pendingHost.push_back({view.buffer, stream, write, op});
  };
  auto dimension = [&](gpu::Dimension d) { return static_cast<int>(d); };
  auto uniformIndex = [&](Value result, int64_t x) {
    std::vector<Val> &s = f.slot(result);
    for (int32_t t : m)
      s[t].e.assign(1, intElem(static_cast<uint64_t>(x)));
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<gpu::WaitOp>([&](gpu::WaitOp x) -> LogicalResult {
        if (block)
          return fail(op, "gpu.wait in a kernel");
        if (x.getAsyncToken()) {
          if (!x.getAsyncDependencies().empty())
            return fail(op, "gpu.wait async with dependencies (a stream "
                            "joining others) is not simulated");
          // mgpuStreamCreate.
          stream = static_cast<int64_t>(liveStreams.size());
          liveStreams.push_back(true);
          token(x.getAsyncToken());
          return success();
        }
        // mgpuStreamSynchronize and mgpuStreamDestroy of each dependency's
        // stream.
        for (Value dep : x.getAsyncDependencies()) {
          FailureOr<int64_t> s = streamOf(op, f, dep, /*async=*/true);
          if (failed(s))
            return failure();
          liveStreams[*s] = false;
          llvm::erase_if(pendingHost, [&](const PendingHostAccess &p) {
            return p.stream == *s;
          });
        }
        return success();
      })
      .Case<gpu::AllocOp>([&](gpu::AllocOp x) -> LogicalResult {
        if (block)
          return fail(op, "gpu.alloc in a kernel");
        if (x.getHostShared())
          return fail(op, "host-shared allocations are not simulated");
        FailureOr<MemRefVal *> view = allocate(
            op, x.getType(), x.getDynamicSizes(), f, 0, "a device buffer",
            Space::Device);
        if (failed(view))
          return failure();
        f.slot(x.getMemref())[0].memref = *view;
        token(x.getAsyncToken());
        return success();
      })
      .Case<gpu::DeallocOp>([&](gpu::DeallocOp x) -> LogicalResult {
        Buffer *b = get(f, x.getMemref(), 0).memref->buffer;
        if (b->freed)
          return fail(op, "frees " + b->what + " twice");
        b->freed = true;
        token(x.getAsyncToken());
        return success();
      })
      .Case<gpu::MemcpyOp>([&](gpu::MemcpyOp x) -> LogicalResult {
        if (block)
          return fail(op, "gpu.memcpy in a kernel");
        const MemRefVal &dst = *get(f, x.getDst(), 0).memref;
        const MemRefVal &src = *get(f, x.getSrc(), 0).memref;
        // The host's own pending accesses: a copy into host memory that
        // another copy still reads or writes, or out of host memory that
        // another copy still writes.
        if (dst.buffer->space == Space::Host &&
            failed(checkHostAccess(op, dst.buffer, /*write=*/true, stream)))
          return failure();
        if (src.buffer->space == Space::Host &&
            failed(checkHostAccess(op, src.buffer, /*write=*/false, stream)))
          return failure();
        transfer = true;
        LogicalResult copied = copy(op, dst, src);
        transfer = false;
        if (failed(copied))
          return failure();
        pending(dst, /*write=*/true);
        pending(src, /*write=*/false);
        token(x.getAsyncToken());
        return success();
      })
      .Case<gpu::MemsetOp>([&](gpu::MemsetOp x) -> LogicalResult {
        if (block)
          return fail(op, "gpu.memset in a kernel");
        const MemRefVal &view = *get(f, x.getDst(), 0).memref;
        const Val &value = get(f, x.getValue(), 0);
        if (view.buffer->space == Space::Host &&
            failed(checkHostAccess(op, view.buffer, /*write=*/true, stream)))
          return failure();
        pending(view, /*write=*/true);
        int64_t n = 1;
        for (int64_t s : view.sizes)
          n *= s;
        SmallVector<int64_t> index(view.sizes.size(), 0);
        for (int64_t i = 0; i < n; ++i) {
          transfer = true;
          FailureOr<uint8_t *> p = address(op, view, index, 1, -1);
          transfer = false;
          if (failed(p))
            return failure();
          storeElements(view, *p, value);
          for (int64_t k = static_cast<int64_t>(index.size()) - 1; k >= 0;
               --k) {
            if (++index[k] < view.sizes[k])
              break;
            index[k] = 0;
          }
        }
        token(x.getAsyncToken());
        return success();
      })
      .Case<gpu::DynamicSharedMemoryOp>(
          [&](gpu::DynamicSharedMemoryOp x) -> LogicalResult {
            if (!block || !block->dynamicShared)
              return fail(op, "has no dynamic shared memory to return (the "
                              "launch sets no size, or it is 0)");
            for (int32_t t : m)
              f.slot(x.getResult())[t].memref = block->dynamicShared;
            return success();
          })
      .Case<gpu::BarrierOp>([&](gpu::BarrierOp) -> LogicalResult {
        if (!block)
          return fail(op, "gpu.barrier outside a kernel");
        return blockBarrier(op, f, m);
      })
      .Case<gpu::ShuffleOp>(
          [&](gpu::ShuffleOp x) { return execShuffle(x, f, m); })
      .Case<gpu::ThreadIdOp>([&](gpu::ThreadIdOp x) -> LogicalResult {
        if (!block)
          return fail(op, "outside a kernel");
        int d = dimension(x.getDimension());
        std::vector<Val> &s = f.slot(x.getResult());
        for (int32_t t : m) {
          int64_t id = d == 0   ? t % block->blockDim[0]
                       : d == 1 ? (t / block->blockDim[0]) % block->blockDim[1]
                                : t / (block->blockDim[0] * block->blockDim[1]);
          s[t].e.assign(1, intElem(id));
        }
        return success();
      })
      .Case<gpu::LaneIdOp>([&](gpu::LaneIdOp x) -> LogicalResult {
        if (!block)
          return fail(op, "outside a kernel");
        std::vector<Val> &s = f.slot(x.getResult());
        for (int32_t t : m)
          s[t].e.assign(1, intElem(t % 32));
        return success();
      })
      .Case<gpu::BlockIdOp>([&](gpu::BlockIdOp x) -> LogicalResult {
        if (!block)
          return fail(op, "outside a kernel");
        uniformIndex(x.getResult(), block->blockId[dimension(x.getDimension())]);
        return success();
      })
      .Case<gpu::BlockDimOp>([&](gpu::BlockDimOp x) -> LogicalResult {
        if (!block)
          return fail(op, "outside a kernel");
        uniformIndex(x.getResult(),
                     block->blockDim[dimension(x.getDimension())]);
        return success();
      })
      .Case<gpu::GridDimOp>([&](gpu::GridDimOp x) -> LogicalResult {
        if (!block)
          return fail(op, "outside a kernel");
        uniformIndex(x.getResult(), block->gridDim[dimension(x.getDimension())]);
        return success();
      })
      .Default(
          [&](Operation *) { return fail(op, "this op is not simulated"); });
}

//===----------------------------------------------------------------------===//
// llvm (what the tensor-core kernel uses of it)
//===----------------------------------------------------------------------===//

/// Flattened scalar offset of `position` in an LLVM aggregate type.
int64_t aggregateOffset(Type type, ArrayRef<int64_t> position, Type &leaf) {
  int64_t offset = 0;
  for (int64_t p : position) {
    if (auto s = dyn_cast<LLVM::LLVMStructType>(type)) {
      ArrayRef<Type> body = s.getBody();
      for (int64_t k = 0; k < p; ++k)
        offset += scalarCount(body[k]);
      type = body[p];
    } else if (auto a = dyn_cast<LLVM::LLVMArrayType>(type)) {
      offset += p * scalarCount(a.getElementType());
      type = a.getElementType();
    }
  }
  leaf = type;
  return offset;
}

LogicalResult Interpreter::execLLVM(Operation *op, Frame &f, const Mask &m) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<LLVM::InlineAsmOp>([&](LLVM::InlineAsmOp x) -> LogicalResult {
        if (x.getAsmString().contains("wgmma.") ||
            x.getAsmString().contains("fence.proxy.async") ||
            x.getAsmString().contains("setmaxnreg."))
          return execWgmma(x, f, m);
        // The other inline asm of attic's kernels: ex2.approx.ftz.f32,
        // exp2 with subnormal inputs and outputs flushed to zero.
        if (x.getAsmString() != "ex2.approx.ftz.f32 $0, $1;" ||
            op->getNumOperands() != 1 || op->getNumResults() != 1)
          return fail(op, "inline asm '" + x.getAsmString() +
                              "' is not simulated");
        std::vector<Val> &s = f.slot(op->getResult(0));
        constexpr double kMinNormal = 1.17549435082228750797e-38;
        for (int32_t t : m) {
          double in = get(f, op->getOperand(0), t).e[0].f;
          if (std::fabs(in) < kMinNormal)
            in = 0;
          double out = roundTo(Float32Type::get(op->getContext()),
                               std::exp2(in));
          if (out != 0 && std::fabs(out) < kMinNormal)
            out = 0;
          Val v;
          v.e.push_back(floatElem(out));
          s[t] = std::move(v);
        }
        return success();
      })
      .Case<LLVM::ExtractValueOp>([&](LLVM::ExtractValueOp x) {
        Type leaf;
        int64_t offset =
            aggregateOffset(x.getContainer().getType(), x.getPosition(), leaf);
        int64_t n = scalarCount(leaf);
        std::vector<Val> &s = f.slot(x.getResult());
        for (int32_t t : m) {
          const Val &c = get(f, x.getContainer(), t);
          Val v;
          v.e.assign(c.e.begin() + offset, c.e.begin() + offset + n);
          s[t] = std::move(v);
        }
        return success();
      })
      .Case<LLVM::InsertValueOp>([&](LLVM::InsertValueOp x) {
        Type leaf;
        int64_t offset =
            aggregateOffset(x.getContainer().getType(), x.getPosition(), leaf);
        std::vector<Val> &s = f.slot(x.getResult());
        for (int32_t t : m) {
          Val v = get(f, x.getContainer(), t);
          const Val &in = get(f, x.getValue(), t);
          for (size_t i = 0; i < in.e.size(); ++i)
            v.e[offset + i] = in.e[i];
          s[t] = std::move(v);
        }
        return success();
      })
      .Case<LLVM::UndefOp, LLVM::PoisonOp, LLVM::ZeroOp>([&](Operation *) {
        Value r = op->getResult(0);
        std::vector<Val> &s = f.slot(r);
        for (int32_t t : m)
          s[t].e.assign(scalarCount(r.getType()), intElem(0));
        return success();
      })
      .Case<LLVM::BitcastOp>([&](LLVM::BitcastOp x) {
        std::vector<Val> &s = f.slot(x.getResult());
        for (int32_t t : m)
          s[t] = fromBytes(x.getType(), toBytes(x.getArg().getType(),
                                                get(f, x.getArg(), t)));
        return success();
      })
      .Default(
          [&](Operation *) { return fail(op, "this op is not simulated"); });
}

//===----------------------------------------------------------------------===//
// mma.sync m16n8k16 (PTX ISA fragment layouts)
//===----------------------------------------------------------------------===//

// Lane = 4 * groupID + threadID_in_group (g, t):
//   A (16x16, row): a0,a1: (g, 2t + {0,1})     a2,a3: (g + 8, 2t + {0,1})
//                   a4,a5: (g, 2t + 8 + {0,1}) a6,a7: (g + 8, 2t + 8 + {0,1})
//   B (16x8, col):  b0,b1: (2t + {0,1}, g)     b2,b3: (2t + 8 + {0,1}, g)
//   C, D (16x8):    c0,c1: (g, 2t + {0,1})     c2,c3: (g + 8, 2t + {0,1})
void fragmentA(int g, int t, int i, int &row, int &col) {
  row = g + ((i / 2) % 2) * 8;
  col = 2 * t + (i % 2) + (i / 4) * 8;
}
void fragmentB(int g, int t, int i, int &row, int &col) {
  row = 2 * t + (i % 2) + (i / 2) * 8;
  col = g;
}
void fragmentC(int g, int t, int i, int &row, int &col) {
  row = g + (i / 2) * 8;
  col = 2 * t + (i % 2);
}

LogicalResult Interpreter::execMma(Operation *op, Frame &f, const Mask &m) {
  // Per lane: 8 A values, 4 B values, 4 C values (as doubles).
  auto getLane = [&](int32_t lane, SmallVectorImpl<double> &a,
                     SmallVectorImpl<double> &b,
                     SmallVectorImpl<double> &c) -> LogicalResult {
    if (auto x = dyn_cast<nvgpu::MmaSyncOp>(op)) {
      auto shape = x.getMmaShapeAsArray();
      if (shape[0] != 16 || shape[1] != 8 || shape[2] != 16)
        return fail(op, "only m16n8k16 is simulated");
      for (Elem e : get(f, x.getMatrixA(), lane).e)
        a.push_back(e.f);
      for (Elem e : get(f, x.getMatrixB(), lane).e)
        b.push_back(e.f);
      for (Elem e : get(f, x.getMatrixC(), lane).e)
        c.push_back(e.f);
      return success();
    }
    auto x = cast<NVVM::MmaOp>(op);
    NVVM::MMAShapeAttr shape = x.getShape();
    if (shape.getM() != 16 || shape.getN() != 8 || shape.getK() != 16)
      return fail(op, "only m16n8k16 is simulated");
    std::optional<NVVM::MMATypes> ptx = x.getMultiplicandAPtxType();
    bool bf16 = ptx && *ptx == NVVM::MMATypes::bf16;
    if (ptx && !bf16 && *ptx != NVVM::MMATypes::f16)
      return fail(op, "only f16 and bf16 multiplicands are simulated");
    auto unpack = [&](ValueRange values, SmallVectorImpl<double> &into) {
      for (Value v : values) {
        const Val &val = get(f, v, lane);
        Type type = v.getType();
        if (type.isInteger(32)) {
          uint32_t bits = static_cast<uint32_t>(val.e[0].i);
          for (int half = 0; half < 2; ++half) {
            uint16_t h = static_cast<uint16_t>(bits >> (16 * half));
            into.push_back(bf16 ? attic_bf16_to_f32(h) : attic_f16_to_f32(h));
          }
        } else {
          for (Elem e : val.e)
            into.push_back(e.f);
        }
      }
    };
    unpack(x.getOperandA(), a);
    unpack(x.getOperandB(), b);
    for (Value v : x.getOperandC())
      for (Elem e : get(f, v, lane).e)
        c.push_back(e.f);
    return success();
  };

  constexpr int32_t kWarp = 32;
  Value result = op->getResult(0);
  std::vector<Val> &out = f.slot(result);
  return forEachFullWarp(op, m, "mma.sync", [&](int32_t warp) {
    double A[16][16], B[16][8], C[16][8];
    for (int32_t lane = 0; lane < kWarp; ++lane) {
      SmallVector<double, 8> a, b, c;
      if (failed(getLane(warp * kWarp + lane, a, b, c)))
        return failure();
      if (a.size() != 8 || b.size() != 4 || c.size() != 4)
        return fail(op, "fragment sizes are not those of m16n8k16 with f16 "
                        "or bf16 multiplicands and f32 accumulators",
                    warp * kWarp + lane);
      int g = lane / 4, t = lane % 4, row, col;
      for (int k = 0; k < 8; ++k) {
        fragmentA(g, t, k, row, col);
        A[row][col] = a[k];
      }
      for (int k = 0; k < 4; ++k) {
        fragmentB(g, t, k, row, col);
        B[row][col] = b[k];
        fragmentC(g, t, k, row, col);
        C[row][col] = c[k];
      }
    }
    ++stats.mmas;
    for (int32_t lane = 0; lane < kWarp; ++lane) {
      int g = lane / 4, t = lane % 4, row, col;
      Val v;
      for (int k = 0; k < 4; ++k) {
        fragmentC(g, t, k, row, col);
        double sum = C[row][col];
        for (int kk = 0; kk < 16; ++kk)
          sum += A[row][kk] * B[kk][col];
        v.e.push_back(floatElem(static_cast<float>(sum)));
      }
      out[warp * kWarp + lane] = std::move(v);
    }
    return success();
  });
}

/// nvgpu.ldmatrix: ldmatrix.sync.aligned.m8n8.xN(.trans).shared.b16 (PTX
/// ISA, "Warp-level matrix load instruction: ldmatrix"). Lanes 8i .. 8i+7
/// give the addresses of the 8 rows of matrix i (8 contiguous 16-bit
/// elements, 16-byte aligned, in shared memory); lane l = 4g + t receives
/// of each matrix i the pair M_i[g][2t..2t+1], with .trans the pair
/// M_i[2t][g], M_i[2t+1][g]. The result row i is matrix i's pair.
LogicalResult Interpreter::execLdMatrix(nvgpu::LdMatrixOp op, Frame &f,
                                        const Mask &m) {
  constexpr int32_t kWarp = 32;
  const int64_t tiles = op.getNumTiles();
  const bool transpose = op.getTranspose();
  auto resultType = cast<VectorType>(op.getRes().getType());
  if (tiles != 1 && tiles != 2 && tiles != 4)
    return fail(op, "numTiles must be 1, 2 or 4 (ldmatrix .x1/.x2/.x4)");
  if (resultType.getNumElements() != 2 * tiles)
    return fail(op, "the result must hold one pair per matrix");
  std::vector<Val> &out = f.slot(op.getRes());
  return forEachFullWarp(op, m, "ldmatrix", [&](int32_t warp) -> LogicalResult {
    double mat[4][8][8];
    for (int64_t tile = 0; tile < tiles; ++tile)
      for (int64_t row = 0; row < 8; ++row) {
        int32_t lane = warp * kWarp + static_cast<int32_t>(8 * tile + row);
        const MemRefVal &view = *get(f, op.getSrcMemref(), lane).memref;
        if (view.buffer->space != Space::Shared)
          return fail(op,
                      "reads " + view.buffer->what +
                          " (ldmatrix reads shared memory only)",
                      lane);
        if (view.elemBytes != 2)
          return fail(op,
                      "reads elements of " + Twine(view.elemBytes) +
                          " bytes (ldmatrix reads 16-bit elements)",
                      lane);
        FailureOr<uint8_t *> p = access(
            op, view, indicesOf(f, op.getIndices(), lane), 8, false, lane);
        if (failed(p))
          return failure();
        int64_t byte = *p - view.buffer->bytes.data();
        if (byte % 16 != 0)
          return fail(op,
                      "row " + Twine(row) + " of matrix " + Twine(tile) +
                          " starts at byte " + Twine(byte) + " of " +
                          view.buffer->what + ", which is not 16-byte aligned",
                      lane);
        Val elems = loadElements(view, *p, 8);
        for (int64_t c = 0; c < 8; ++c)
          mat[tile][row][c] = elems.e[c].f;
      }
    for (int32_t lane = 0; lane < kWarp; ++lane) {
      int g = lane / 4, t = lane % 4;
      Val v;
      for (int64_t tile = 0; tile < tiles; ++tile)
        for (int e = 0; e < 2; ++e)
          v.e.push_back(floatElem(transpose ? mat[tile][2 * t + e][g]
                                            : mat[tile][g][2 * t + e]));
      out[warp * kWarp + lane] = std::move(v);
    }
    return success();
  });
}

//===----------------------------------------------------------------------===//
// wgmma (inline asm: wgmma.fence, wgmma.mma_async with A in registers,
// wgmma.commit_group, wgmma.wait_group) and fence.proxy.async
//===----------------------------------------------------------------------===//

// PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate
// Operation using wgmma.mma_async": a warpgroup (4 consecutive warps, 128
// threads) computes D (64 x N, f32) = A (64 x 16) * B (16 x N) + D, A from
// registers (each warp's 16 rows in the layout of mma.sync m16n8k16's A),
// B from shared memory through a matrix descriptor, in the async proxy:
//   - wgmma.fence before the first wgmma.mma_async that touches registers
//     written since the warpgroup's last wait (the simulator asks for one
//     after every wgmma.wait_group);
//   - shared memory written through the generic proxy (st.shared, cp.async)
//     is read only after the writer's fence.proxy.async and a barrier (the
//     warps of a warpgroup are not in step);
//   - the accumulators are read only through a wgmma.wait_group that
//     completes their group (here: passed through it as tied operands, so
//     that LLVM cannot move a read above the wait), and the shared bytes are
//     not written until then.
// The descriptor (PTX ISA, "Matrix Descriptor Format"): bits 0-13 start
// address >> 4, 16-29 leading byte offset >> 4, 32-45 stride byte offset >>
// 4, 49-51 base offset, 62-63 swizzle (0 none, 1 128-byte). With the
// 128-byte swizzle, bits 4-6 of every address are XORed with its bits 7-9
// (so the 8 rows of 128 bytes of a 1024-byte aligned atom are swizzled by
// their row index). B (K x N, 16-bit elements) is read at byte
//   K-major (imm-trans-b = 0), no swizzle:
//     start + (n % 8) 16 + (n / 8) SBO + (k / 8) LBO + 2 (k % 8);
//   K-major, 128-byte swizzle:
//     start + (n % 8) 128 + (n / 8) SBO + 2 k;
//   N-major (imm-trans-b = 1), 128-byte swizzle:
//     start + 2 (n % 64) + (n / 64) LBO + (k % 8) 128 + (k / 8) SBO
// (CUTLASS's canonical GMMA layouts, cute/atom/mma_traits_sm90_gmma.hpp;
// the interleaved N-major form, where the two offsets trade places, is
// not simulated).
// The simulator accepts the mma in one form, the one attic emits:
//   { .reg .pred p; setp.ne.b32 p, $S, 0;
//     wgmma.mma_async.sync.aligned.m64nNk16.f32.T.T {$0, .., $(N/2-1)},
//       {$a0, $a1, $a2, $a3}, $desc, p, 1, 1, TRANS_B; }
// with T f16 or bf16, outputs "=f", accumulator inputs tied to them ("0",
// ...) when the mma accumulates, A as four "r" (two T each), the
// descriptor "l" and scale-d "r".

namespace {
/// The text of `s` with runs of whitespace removed.
std::string squeeze(StringRef s) {
  std::string out;
  for (char c : s)
    if (!isspace(static_cast<unsigned char>(c)))
      out += c;
  return out;
}

/// "$i" -> i, or -1.
int64_t operandNumber(StringRef token) {
  int64_t n;
  if (!token.consume_front("$") || token.getAsInteger(10, n))
    return -1;
  return n;
}

bool isWgmmaMma(Operation *op) {
  auto x = dyn_cast_or_null<LLVM::InlineAsmOp>(op);
  return x && x.getAsmString().contains("wgmma.mma_async");
}
bool isWgmmaAsm(Operation *op) {
  auto x = dyn_cast_or_null<LLVM::InlineAsmOp>(op);
  return x && x.getAsmString().contains("wgmma.");
}
/// Whether `v` is read only by wgmma asm, directly or through
/// llvm.extractvalue.
bool onlyFeedsWgmma(Value v) {
  for (Operation *user : v.getUsers()) {
    if (isWgmmaAsm(user))
      continue;
    if (auto extract = dyn_cast<LLVM::ExtractValueOp>(user))
      if (onlyFeedsWgmma(extract.getResult()))
        continue;
    return false;
  }
  return true;
}
} // namespace

LogicalResult Interpreter::execWgmma(LLVM::InlineAsmOp op, Frame &f,
                                     const Mask &m) {
  if (!block)
    return fail(op, "outside a kernel");
  std::string text = squeeze(op.getAsmString());
  SmallVector<StringRef> constraints;
  op.getConstraints().split(constraints, ',', -1, /*KeepEmpty=*/false);
  unsigned outputs = 0;
  for (StringRef c : constraints)
    outputs += c.starts_with("=");
  auto isCompletedBy = [&](BlockContext::Warpgroup &wg, Operation *mma) {
    auto it = wg.issuedIn.find(mma);
    return it == wg.issuedIn.end() || it->second < wg.completed;
  };

  if (text == "fence.proxy.async.shared::cta;") {
    for (int32_t t : m)
      block->proxyFence[t] = writes;
    return success();
  }
  // setmaxnreg.{inc,dec}.sync.aligned.u32 N: a warpgroup's register
  // budget (sm_90a), nothing to compute; N is a multiple of 8 in 24..256,
  // and the warpgroup's four warps execute it together.
  StringRef maxnreg(text);
  if (maxnreg.consume_front("setmaxnreg.")) {
    int64_t n;
    if (!(maxnreg.consume_front("inc.") || maxnreg.consume_front("dec.")) ||
        !maxnreg.consume_front("sync.aligned.u32") ||
        !maxnreg.consume_back(";") || maxnreg.getAsInteger(10, n))
      return fail(op,
                  "inline asm '" + op.getAsmString() + "' is not simulated");
    if (n < 24 || n > 256 || n % 8)
      return fail(op, "setmaxnreg " + Twine(n) +
                          " (a multiple of 8 from 24 to 256 registers)");
    bool inc = StringRef(text).starts_with("setmaxnreg.inc");
    return forEachFullWarpgroup(op, m, "setmaxnreg", [&](int32_t w) {
      BlockContext::Warpgroup &wg = block->warpgroups[w];
      // PTX ISA (setmaxnreg): an inc below the current count, or a dec
      // above it, is undefined. The entry count is ptxas's, unknown here:
      // checked from the warpgroup's second setmaxnreg on.
      if (wg.maxnreg && (inc ? n < wg.maxnreg : n > wg.maxnreg))
        return fail(op,
                    Twine(inc ? "setmaxnreg.inc " : "setmaxnreg.dec ") +
                        Twine(n) + " after the warpgroup's setmaxnreg " +
                        Twine(wg.maxnreg) + " (an inc may not lower the " +
                        "count, nor a dec raise it)",
                    128 * w);
      wg.maxnreg = n;
      wg.setmaxnreg = op;
      return success();
    });
  }
  if (text == "wgmma.fence.sync.aligned;")
    return forEachFullWarpgroup(op, m, "wgmma.fence", [&](int32_t w) {
      block->warpgroups[w].fenced = true;
      return success();
    });
  if (text == "wgmma.commit_group.sync.aligned;")
    return forEachFullWarpgroup(op, m, "wgmma.commit_group", [&](int32_t w) {
      ++block->warpgroups[w].committed;
      return success();
    });

  StringRef rest(text);
  if (rest.consume_front("wgmma.wait_group.sync.aligned")) {
    int64_t n;
    if (!rest.consume_back(";") || rest.getAsInteger(10, n) || n < 0)
      return fail(op,
                  "inline asm '" + op.getAsmString() + "' is not simulated");
    // Operands pass through, tied to the outputs in order.
    if (outputs != op.getNumOperands() ||
        (outputs > 0 && op.getNumResults() != 1))
      return fail(op, "wgmma.wait_group must pass its operands through as "
                      "tied outputs");
    for (unsigned i = 0; i < outputs; ++i)
      if (constraints[outputs + i] != std::to_string(i))
        return fail(op, "wgmma.wait_group's input " + Twine(i) +
                            " is not tied to output " + Twine(i));
    return forEachFullWarpgroup(op, m, "wgmma.wait_group", [&](int32_t w) {
      BlockContext::Warpgroup &wg = block->warpgroups[w];
      if (wg.committed >= static_cast<uint64_t>(n))
        wg.completed = std::max(wg.completed, wg.committed - n);
      wg.fenced = false;
      // The completed wgmmas' shared bytes were not written meanwhile;
      // their reads last until now: a write of another thread must be
      // ordered after a release of the warpgroup made after this wait (a
      // release between the wgmma and the wait does not order it, and the
      // schedule may run such a write after the wait).
      uint64_t waitClock = block->warpgroupClock(w);
      for (auto it = wg.reads.begin(); it != wg.reads.end();) {
        if (it->group >= wg.completed) {
          ++it;
          continue;
        }
        for (size_t i = it->first; i < it->first + it->count; ++i) {
          Buffer::Access &a = it->buffer->access[i];
          if (a.writeSeq > it->seq)
            return fail(op,
                        "completes a wgmma.mma_async whose operand byte " +
                            Twine(i) + " of " + it->buffer->what +
                            " was written while it was in flight",
                        128 * w);
          block->noteRead(a, block->epoch, 128 * w, 128 * w + 127, waitClock);
        }
        it = wg.reads.erase(it);
      }
      for (Value v : op.getOperands()) {
        Operation *def = v.getDefiningOp();
        while (auto extract = dyn_cast_or_null<LLVM::ExtractValueOp>(def))
          def = extract.getContainer().getDefiningOp();
        if (isWgmmaMma(def) && !isCompletedBy(wg, def))
          return fail(op,
                      "passes on an accumulator of a wgmma.mma_async that it "
                      "does not complete (wait_group " +
                          Twine(n) + " leaves the newest " + Twine(n) +
                          " groups, and uncommitted wgmmas, in flight)",
                      128 * w);
      }
      for (int32_t t = 128 * w; outputs > 0 && t < 128 * (w + 1); ++t) {
        Val out;
        for (Value v : op.getOperands())
          out.e.append(get(f, v, t).e.begin(), get(f, v, t).e.end());
        f.slot(op.getResult(0))[t] = std::move(out);
      }
      return success();
    });
  }

  // The mma.
  auto notSimulated = [&] {
    return fail(op, "inline asm '" + op.getAsmString() +
                        "' is not simulated (see execWgmma for the wgmma "
                        "forms the simulator runs)");
  };
  if (!rest.consume_front("{.reg.predp;setp.ne.b32p,") ||
      !rest.consume_back(";}"))
    return notSimulated();
  auto [scaleToken, mmaText] = rest.split(",0;");
  int64_t scaleOperand = operandNumber(scaleToken);
  StringRef mmaRest = mmaText;
  if (scaleOperand < 0 ||
      !mmaRest.consume_front("wgmma.mma_async.sync.aligned.m64n"))
    return notSimulated();
  int64_t n;
  auto [nText, afterN] = mmaRest.split("k16.f32.");
  if (nText.getAsInteger(10, n) || n < 8 || n > 256 || n % 8)
    return notSimulated();
  bool bf16;
  StringRef operands = afterN;
  if (operands.consume_front("bf16.bf16"))
    bf16 = true;
  else if (operands.consume_front("f16.f16"))
    bf16 = false;
  else
    return notSimulated();
  bool transB;
  if (operands.consume_back(",p,1,1,0"))
    transB = false;
  else if (operands.consume_back(",p,1,1,1"))
    transB = true;
  else
    return notSimulated();
  // {D list},{A list},$desc
  auto list = [&](StringRef &s, SmallVectorImpl<int64_t> &out) {
    if (!s.consume_front("{"))
      return false;
    auto [inner, tail] = s.split("}");
    SmallVector<StringRef> items;
    inner.split(items, ',');
    for (StringRef item : items)
      out.push_back(operandNumber(item));
    s = tail;
    return s.consume_front(",");
  };
  SmallVector<int64_t> dList, aList;
  if (!list(operands, dList) || !list(operands, aList))
    return notSimulated();
  int64_t descOperand = operandNumber(operands);
  const int64_t perThread = n / 2;
  if (static_cast<int64_t>(dList.size()) != perThread || aList.size() != 4 ||
      descOperand < 0 || outputs != perThread || op.getNumResults() != 1 ||
      scalarCount(op.getResult(0).getType()) != perThread)
    return notSimulated();
  for (int64_t i = 0; i < perThread; ++i)
    if (dList[i] != i)
      return notSimulated();
  // Inputs: "$k" (k >= outputs) is operand k - outputs.
  auto input = [&](int64_t number) -> Value {
    if (number < static_cast<int64_t>(outputs) ||
        number - outputs >= op.getNumOperands())
      return Value();
    return op.getOperand(number - outputs);
  };
  Value desc = input(descOperand), scale = input(scaleOperand);
  SmallVector<Value> aRegs;
  for (int64_t a : aList)
    aRegs.push_back(input(a));
  if (!desc || !desc.getType().isInteger(64) || !scale ||
      !scale.getType().isInteger(32) || llvm::any_of(aRegs, [](Value v) {
        return !v || !v.getType().isInteger(32);
      }))
    return notSimulated();
  // Accumulator inputs: the operand tied to output i.
  SmallVector<Value> accIn(perThread);
  for (size_t c = outputs; c < constraints.size(); ++c) {
    int64_t tied;
    if (!constraints[c].getAsInteger(10, tied) && tied >= 0 && tied < perThread)
      accIn[tied] = op.getOperand(c - outputs);
  }
  if (!onlyFeedsWgmma(op.getResult(0)))
    return fail(op, "its accumulators are read by an op other than wgmma "
                    "(through wgmma.wait_group only: reading them before the "
                    "wait is undefined)");
  Type halfType = bf16 ? Type(BFloat16Type::get(op.getContext()))
                       : Type(Float16Type::get(op.getContext()));
  std::vector<Val> &out = f.slot(op.getResult(0));
  return forEachFullWarpgroup(
      op, m, "wgmma.mma_async", [&](int32_t w) -> LogicalResult {
        BlockContext::Warpgroup &wg = block->warpgroups[w];
        const int32_t t0 = 128 * w;
        if (!wg.fenced)
          return fail(op,
                      "runs without a wgmma.fence since the warpgroup's last "
                      "wgmma.wait_group (registers written in between are not "
                      "ordered before it)",
                      t0);
        // All threads of a warpgroup give the same descriptor and scale-d.
        uint64_t d = get(f, desc, t0).e[0].i;
        bool scaleD = get(f, scale, t0).e[0].i != 0;
        for (int32_t t = t0; t < t0 + 128; ++t)
          if (get(f, desc, t).e[0].i != d ||
              (get(f, scale, t).e[0].i != 0) != scaleD)
            return fail(op,
                        "the threads of warpgroup " + Twine(w) +
                            " give different descriptors or scale-d",
                        t);
        if (scaleD && llvm::any_of(accIn, [](Value v) { return !v; }))
          return fail(op,
                      "accumulates (scale-d) into outputs with no tied "
                      "accumulator input",
                      t0);
        uint64_t start = (d & 0x3fff) << 4, lbo = ((d >> 16) & 0x3fff) << 4,
                 sbo = ((d >> 32) & 0x3fff) << 4, baseOffset = (d >> 49) & 7,
                 swizzle = d >> 62;
        const uint64_t used = 0x3fffull | (0x3fffull << 16) |
                              (0x3fffull << 32) | (7ull << 49) | (3ull << 62);
        if (d & ~used)
          return fail(
              op, "descriptor 0x" + Twine::utohexstr(d) + " sets reserved bits",
              t0);
        if (baseOffset != 0 || (swizzle != 0 && swizzle != 1) ||
            (transB && swizzle != 1))
          return fail(op,
                      "descriptor 0x" + Twine::utohexstr(d) +
                          ": only base offset 0, and no or 128-byte swizzle "
                          "(N-major: 128-byte) are simulated",
                      t0);
        // The 128-byte swizzle repeats every 1024 bytes. With base offset
        // 0 the hardware takes the matrix to start a repetition (PTX ISA,
        // "Matrix Descriptor Format": the base offset is (start >> 7) & 7
        // when it does not); the simulator swizzles absolute addresses, so
        // it asks for the start's row within the pattern to be 0 instead.
        if (swizzle == 1 && ((start >> 7) & 7) != 0)
          return fail(op,
                      "descriptor 0x" + Twine::utohexstr(d) +
                          ": a 128-byte-swizzled matrix starting at shared "
                          "address " +
                          Twine(start) + ", row " + Twine((start >> 7) & 7) +
                          " of its 1024-byte pattern, with base offset 0 "
                          "(align the tile to 1024 bytes)",
                      t0);
        // B from shared memory.
        struct {
          bool valid = false;
          int32_t writer = -1;
          uint64_t clock = 0;
          bool result = false;
        } memo;
        auto warpgroupAfterWrite = [&](int32_t writer, uint64_t clock) {
          if (memo.valid && memo.writer == writer && memo.clock == clock)
            return memo.result;
          bool ordered = true;
          for (int32_t t = t0; t < t0 + 128 && ordered; ++t)
            ordered = t == writer || block->orderedAfter(t, writer, clock);
          memo = {true, writer, clock, ordered};
          return ordered;
        };
        // A TMA load's bytes are read once every thread of the warpgroup
        // has waited for the load's phase (the warps issue their parts of
        // the wgmma independently).
        struct {
          int32_t barrier = -1;
          uint64_t phase = 0;
        } tmaMemo;
        auto warpgroupWaitedForTma = [&](Buffer *buffer, size_t i,
                                         const Buffer::Access &a) {
          if (tmaMemo.barrier == a.tmaBarrier && tmaMemo.phase == a.tmaPhase)
            return success();
          for (int32_t t = t0; t < t0 + 128; ++t)
            if (failed(checkTmaRead(op, buffer, i, a, t)))
              return failure();
          tmaMemo = {a.tmaBarrier, a.tmaPhase};
          return success();
        };
        uint64_t wgClock = block->warpgroupClock(w);
        std::vector<double> B(16 * n);
        for (int64_t k = 0; k < 16; ++k)
          for (int64_t col = 0; col < n; ++col) {
            uint64_t addr;
            if (!transB && swizzle == 1)
              addr = start + (col % 8) * 128 + (col / 8) * sbo + 2 * k;
            else if (!transB)
              addr = start + (col % 8) * 16 + (col / 8) * sbo + (k / 8) * lbo +
                     2 * (k % 8);
            else
              addr = start + 2 * (col % 64) + (col / 64) * lbo + (k % 8) * 128 +
                     (k / 8) * sbo;
            if (swizzle == 1)
              addr ^= ((addr >> 7) & 7) << 4;
            Buffer *buffer = nullptr;
            for (Buffer *candidate : block->shared)
              if (candidate->sharedAddr <= addr &&
                  addr + 2 <= candidate->sharedAddr + candidate->bytes.size())
                buffer = candidate;
            if (!buffer)
              return fail(op,
                          "descriptor 0x" + Twine::utohexstr(d) + " reads B(" +
                              Twine(k) + ", " + Twine(col) +
                              ") at shared address " + Twine(addr) +
                              ", outside every shared buffer of the block",
                          t0);
            size_t byte = addr - buffer->sharedAddr;
            for (size_t i = byte; i < byte + 2; ++i) {
              Buffer::Access &a = buffer->access[i];
              if (a.tmaBarrier >= 0 &&
                  failed(warpgroupWaitedForTma(buffer, i, a)))
                return failure();
              if (a.asyncWriter >= 0)
                return fail(op,
                            "reads byte " + Twine(i) + " of " + buffer->what +
                                ", which a cp.async of thread " +
                                Twine(a.asyncWriter) + " has not completed yet",
                            t0);
              // The warps of a warpgroup are not in step: the simulator asks
              // for a barrier after every write that a wgmma reads (or an
              // ordering of the write before each of the warpgroup's
              // threads: a named barrier, an mbarrier).
              if (a.writeEpoch == block->epoch &&
                  !warpgroupAfterWrite(a.writer, a.writeClock))
                return fail(op,
                            "reads byte " + Twine(i) + " of " + buffer->what +
                                " that thread " + Twine(a.writer) +
                                " wrote since the last barrier (a race)",
                            t0);
              if (a.writer >= 0 && a.writeSeq > block->proxyFence[a.writer])
                return fail(op,
                            "reads byte " + Twine(i) + " of " + buffer->what +
                                " that thread " + Twine(a.writer) +
                                " wrote through the generic proxy with no "
                                "fence.proxy.async after the write",
                            t0);
              // Read by the warpgroup's threads (any of them may release
              // it after its wgmma.wait_group).
              block->noteRead(a, block->epoch, t0, t0 + 127, wgClock);
            }
            wg.reads.push_back({buffer, byte, 2, wg.committed, writes});
            B[k * n + col] =
                loadScalar(halfType, buffer->bytes.data() + byte).f;
          }
        // A from the registers of the warpgroup's four warps.
        std::vector<double> A(64 * 16);
        for (int32_t t = t0; t < t0 + 128; ++t) {
          int32_t lane = t % 32, warp = (t - t0) / 32;
          int g = lane / 4, q = lane % 4, row, col;
          for (int r = 0; r < 4; ++r) {
            uint32_t bits = static_cast<uint32_t>(get(f, aRegs[r], t).e[0].i);
            for (int half = 0; half < 2; ++half) {
              uint16_t h = static_cast<uint16_t>(bits >> (16 * half));
              fragmentA(g, q, 2 * r + half, row, col);
              A[(16 * warp + row) * 16 + col] =
                  bf16 ? attic_bf16_to_f32(h) : attic_f16_to_f32(h);
            }
          }
        }
        ++stats.wgmmas;
        wg.issuedIn[op] = wg.committed;
        for (int32_t t = t0; t < t0 + 128; ++t) {
          int32_t lane = t % 32, warp = (t - t0) / 32;
          int g = lane / 4, q = lane % 4;
          Val v;
          for (int64_t i = 0; i < perThread; ++i) {
            int64_t row = 16 * warp + g + 8 * ((i / 2) % 2);
            int64_t col = 8 * (i / 4) + 2 * q + (i % 2);
            double sum = scaleD ? get(f, accIn[i], t).e[0].f : 0.0;
            for (int64_t k = 0; k < 16; ++k)
              sum += A[row * 16 + k] * B[k * n + col];
            v.e.push_back(floatElem(static_cast<float>(sum)));
          }
          out[t] = std::move(v);
        }
        return success();
      });
}

//===----------------------------------------------------------------------===//
// cp.async (nvgpu.device_async_copy, nvvm.cp.async.commit.group / wait.group)
//===----------------------------------------------------------------------===//

// PTX ISA, "cp.async": a thread's copy from global to shared memory runs
// in the background; cp.async.commit_group closes the thread's open copies
// into a group, and cp.async.wait_group N returns once all but the N most
// recent groups of the thread are complete. Then the bytes are visible to
// that thread; other threads need a barrier after the wait, as for a plain
// store. The simulator reads the source when the copy is issued and writes
// the destination at the wait; in between, any access to the destination
// bytes (a second copy into them included) is an error, and so is a copy
// still in flight when the kernel ends.
LogicalResult Interpreter::checkTmaRead(Operation *op, Buffer *buffer, size_t i,
                                        const Buffer::Access &a, int32_t t) {
  uint64_t seen = block->seenPhases[a.tmaBarrier][t];
  if (seen > a.tmaPhase)
    return success();
  return fail(op,
              "touches byte " + Twine(i) + " of " + buffer->what +
                  ", which a TMA load completing phase " + Twine(a.tmaPhase) +
                  " of mbarrier " + Twine(a.tmaBarrier) +
                  " writes, before this thread waited for that phase",
              t);
}

LogicalResult Interpreter::execTma(Operation *op, Frame &f, const Mask &m) {
  if (auto create = dyn_cast<nvgpu::TmaCreateDescriptorOp>(op)) {
    if (block)
      return fail(op, "creates a tensor map in a kernel (host code makes "
                      "them)");
    const MemRefVal &tensor = *get(f, create.getTensor(), 0).memref;
    nvgpu::TensorMapDescriptorType type = create.getTensorMap().getType();
    int64_t rank = tensor.sizes.size();
    if (tensor.buffer->space != Space::Device)
      return fail(op, "describes " + tensor.buffer->what +
                          " (a tensor map describes device memory)");
    if (rank < 1 || rank > 5 ||
        static_cast<int64_t>(create.getBoxDimensions().size()) != rank)
      return fail(op, "a tensor map of rank " + Twine(rank) + " with " +
                          Twine(create.getBoxDimensions().size()) +
                          " box sizes (rank 1 to 5, a size per dimension)");
    if (tensor.strides.back() != 1)
      return fail(op, "the tensor's innermost stride is not 1");
    if ((tensor.offset * tensor.elemBytes) % 16 != 0)
      return fail(op, "the tensor starts at byte " +
                          Twine(tensor.offset * tensor.elemBytes) +
                          " of its buffer, not 16-byte aligned");
    for (int64_t d = 0; d + 1 < rank; ++d)
      if ((tensor.strides[d] * tensor.elemBytes) % 16 != 0)
        return fail(
            op, "stride " + Twine(tensor.strides[d] * tensor.elemBytes) +
                    " bytes of dim " + Twine(d) + " is not a multiple of 16");
    TensorMap map{tensor, {}, type.getSwizzle(), type.getOob()};
    ArrayRef<int64_t> typeBox = type.getTensor().getShape();
    for (auto [d, v] : llvm::enumerate(create.getBoxDimensions())) {
      int64_t size = getIndex(f, v, 0);
      if (size < 1 || size > 256 || size != typeBox[d])
        return fail(op, "box size " + Twine(size) + " of dim " + Twine(d) +
                            " (in [1, 256], and the descriptor type's " +
                            Twine(typeBox[d]) + ")");
      map.box.push_back(size);
    }
    if (type.getTensor().getElementType() != tensor.elemType)
      return fail(op, "the descriptor's element type is not the tensor's");
    tensorMaps.push_back(std::move(map));
    Val v;
    v.e.push_back(intElem(tensorMaps.size() - 1));
    f.slot(create.getTensorMap())[0] = std::move(v);
    return success();
  }
  if (!block)
    return fail(op, "an mbarrier or TMA op outside a kernel");
  auto barrierOf = [&](Value group, Value index,
                       int32_t t) -> FailureOr<int64_t> {
    int64_t base = static_cast<int64_t>(get(f, group, t).e[0].i);
    int64_t n =
        cast<nvgpu::MBarrierGroupType>(group.getType()).getNumBarriers();
    int64_t i = getIndex(f, index, t);
    if (i < 0 || i >= n)
      return fail(op, "mbarrier " + Twine(i) + " of a group of " + Twine(n), t);
    BlockContext::MBarrier &bar = block->mbarriers[base + i];
    if (!isa<nvgpu::MBarrierInitOp>(op)) {
      if (!bar.initialized)
        return fail(op,
                    "uses mbarrier " + Twine(base + i) +
                        " before its mbarrier.init",
                    t);
      if (bar.initThread != t && bar.initEpoch == block->epoch)
        return fail(op,
                    "uses mbarrier " + Twine(base + i) + ", which thread " +
                        Twine(bar.initThread) +
                        " initialized, with no barrier after the init",
                    t);
    }
    return base + i;
  };
  auto complete = [&](int64_t id) {
    BlockContext::MBarrier &bar = block->mbarriers[id];
    if (bar.pending == 0 && bar.tx == 0) {
      ++bar.phase;
      bar.pending = bar.expected;
      bar.completedArrivals = std::move(bar.arrivals);
      bar.arrivals.clear();
    }
  };
  if (auto create = dyn_cast<nvgpu::MBarrierCreateOp>(op)) {
    int64_t n = create.getBarriers().getType().getNumBarriers();
    // Each mbarrier is 8 bytes of the block's shared memory.
    block->sharedBytes += 8 * n;
    if (block->sharedBytes > kMaxSharedBytes)
      return fail(op, "brings the block's shared memory to " +
                          Twine(block->sharedBytes) + " bytes, at most " +
                          Twine(kMaxSharedBytes));
    int64_t base = block->mbarriers.size();
    block->mbarriers.resize(base + n);
    block->seenPhases.resize(base + n,
                             std::vector<uint64_t>(block->async.size(), 0));
    std::vector<Val> &s = f.slot(create.getBarriers());
    for (int32_t t : m)
      s[t].e.assign(1, intElem(static_cast<uint64_t>(base)));
    return success();
  }
  if (auto init = dyn_cast<nvgpu::MBarrierInitOp>(op)) {
    for (int32_t t : m) {
      if (Value p = init.getPredicate())
        if (!get(f, p, t).e[0].i)
          continue;
      FailureOr<int64_t> id =
          barrierOf(init.getBarriers(), init.getMbarId(), t);
      if (failed(id))
        return failure();
      BlockContext::MBarrier &bar = block->mbarriers[*id];
      if (bar.initialized && (bar.pending != bar.expected || bar.tx != 0))
        return fail(op,
                    "initializes mbarrier " + Twine(*id) + " while its phase " +
                        Twine(bar.phase) + " is in progress",
                    t);
      int64_t count = getIndex(f, init.getCount(), t);
      if (count < 1 || count > (int64_t(1) << 20) - 1)
        return fail(op, "an arrival count of " + Twine(count), t);
      bar = BlockContext::MBarrier();
      bar.initialized = true;
      bar.expected = bar.pending = count;
      bar.initEpoch = block->epoch;
      bar.initThread = t;
      std::fill(block->seenPhases[*id].begin(), block->seenPhases[*id].end(),
                0);
    }
    return success();
  }
  if (auto arrive = dyn_cast<nvgpu::MBarrierArriveExpectTxOp>(op)) {
    for (int32_t t : m) {
      if (Value p = arrive.getPredicate())
        if (!get(f, p, t).e[0].i)
          continue;
      FailureOr<int64_t> id =
          barrierOf(arrive.getBarriers(), arrive.getMbarId(), t);
      if (failed(id))
        return failure();
      BlockContext::MBarrier &bar = block->mbarriers[*id];
      bar.tx += getIndex(f, arrive.getTxcount(), t);
      --bar.pending;
      bar.arrivals.push_back({t, ++block->clock[t]});
      complete(*id);
    }
    return success();
  }
  if (auto wait = dyn_cast<nvgpu::MBarrierTryWaitParityOp>(op)) {
    // The phase of that parity has completed when the current one has the
    // other parity. Else the current phase must complete first: in
    // lockstep every arrival and load it needs has been issued before, so
    // it never will (a deadlock); in a warp role split (execRoles) the
    // other roles run until it does or until none can go on.
    auto pendingThread = [&]() -> FailureOr<int32_t> {
      for (int32_t t : m) {
        FailureOr<int64_t> id =
            barrierOf(wait.getBarriers(), wait.getMbarId(), t);
        if (failed(id))
          return failure();
        uint64_t parity = get(f, wait.getPhaseParity(), t).e[0].i & 1;
        if ((block->mbarriers[*id].phase & 1) == parity)
          return t;
      }
      return -1;
    };
    while (true) {
      FailureOr<int32_t> t = pendingThread();
      if (failed(t))
        return failure();
      if (*t < 0)
        break;
      if (roles && succeeded(yieldRole()))
        continue;
      if (roles && roles->aborted)
        return failure();
      int64_t id = *barrierOf(wait.getBarriers(), wait.getMbarId(), *t);
      BlockContext::MBarrier &bar = block->mbarriers[id];
      uint64_t parity = get(f, wait.getPhaseParity(), *t).e[0].i & 1;
      return fail(op,
                  "waits for phase " + Twine(bar.phase) + " (parity " +
                      Twine(parity) + ") of mbarrier " + Twine(id) +
                      ", which never completes (" + Twine(bar.pending) +
                      " arrivals and " + Twine(bar.tx) +
                      " transaction bytes outstanding): a deadlock" +
                      (roles ? " (every other warp role waits too, or is "
                               "done)"
                             : ""),
                  *t);
    }
    for (int32_t t : m) {
      int64_t id = *barrierOf(wait.getBarriers(), wait.getMbarId(), t);
      BlockContext::MBarrier &bar = block->mbarriers[id];
      block->seenPhases[id][t] = bar.phase;
      // Acquire: what the arrivals of the completed phase did before
      // arriving is ordered before what t does next.
      for (auto [r, c] : bar.completedArrivals)
        block->acquire(t, r, c);
    }
    return success();
  }
  auto load = cast<nvgpu::TmaAsyncLoadOp>(op);
  if (load.getMulticastMask())
    return fail(op, "multicast TMA loads are not simulated");
  for (int32_t t : m) {
    if (Value p = load.getPredicate())
      if (!get(f, p, t).e[0].i)
        continue;
    FailureOr<int64_t> id = barrierOf(load.getBarriers(), load.getMbarId(), t);
    if (failed(id))
      return failure();
    const TensorMap &map =
        tensorMaps[get(f, load.getTensorMapDescriptor(), t).e[0].i];
    const MemRefVal &src = map.tensor;
    const MemRefVal &dst = *get(f, load.getDst(), t).memref;
    if (dst.buffer->space != Space::Shared)
      return fail(op,
                  "writes " + dst.buffer->what +
                      " (a TMA load writes shared memory)",
                  t);
    if (src.buffer->freed)
      return fail(op, "reads " + src.buffer->what + " after it was freed", t);
    int64_t rank = map.box.size();
    if (dst.elemBytes != src.elemBytes ||
        static_cast<int64_t>(dst.sizes.size()) != rank)
      return fail(op, "the destination is not a box of the tensor map", t);
    // The box lands densely (row-major, outermost first) from the
    // destination's address; the destination view must say so.
    int64_t stride = 1, total = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (dst.sizes[d] != map.box[d] ||
          (dst.sizes[d] != 1 && dst.strides[d] != stride))
        return fail(op, "the destination view is not the dense box", t);
      stride *= map.box[d];
      total *= map.box[d];
    }
    uint64_t start = dst.buffer->sharedAddr + dst.offset * dst.elemBytes;
    if (start % 128 != 0)
      return fail(op,
                  "writes shared address " + Twine(start) +
                      ", not 128-byte aligned",
                  t);
    // The 128-byte swizzle's pattern repeats every 1024 bytes, and CUDA
    // asks for a destination aligned to it (CUTLASS's SW128 atoms are
    // 1024-byte aligned too); the simulator swizzles absolute addresses.
    if (map.swizzle == nvgpu::TensorMapSwizzleKind::SWIZZLE_128B &&
        start % 1024 != 0)
      return fail(op,
                  "writes shared address " + Twine(start) +
                      " with the 128-byte swizzle, not 1024-byte aligned",
                  t);
    uint64_t rowBytes = map.box[rank - 1] * src.elemBytes;
    if (map.swizzle == nvgpu::TensorMapSwizzleKind::SWIZZLE_128B &&
        rowBytes != 128)
      return fail(
          op, "a 128-byte swizzle with rows of " + Twine(rowBytes) + " bytes",
          t);
    if (map.swizzle != nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE &&
        map.swizzle != nvgpu::TensorMapSwizzleKind::SWIZZLE_128B)
      return fail(op,
                  "only no swizzle and the 128-byte swizzle are "
                  "simulated",
                  t);
    SmallVector<int64_t, 5> coord;
    for (Value c : load.getCoordinates()) {
      int64_t v = getIndex(f, c, t);
      if (v < INT32_MIN || v > INT32_MAX)
        return fail(op, "coordinate " + Twine(v) + " does not fit in 32 bits",
                    t);
      coord.push_back(v);
    }
    BlockContext::MBarrier &bar = block->mbarriers[*id];
    SmallVector<int64_t, 5> e(rank, 0);
    for (int64_t n = 0; n < total; ++n) {
      // Element n of the box: e (outermost first); coordinates are
      // innermost first (PTX's tensor coordinates).
      int64_t rest = n;
      for (int64_t d = rank - 1; d >= 0; --d) {
        e[d] = rest % map.box[d];
        rest /= map.box[d];
      }
      bool inBounds = true;
      int64_t at = src.offset;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t g = coord[rank - 1 - d] + e[d];
        if (g < 0 || g >= src.sizes[d])
          inBounds = false;
        else
          at += g * src.strides[d];
      }
      uint64_t addr = start + n * src.elemBytes;
      if (map.swizzle == nvgpu::TensorMapSwizzleKind::SWIZZLE_128B)
        addr ^= ((addr >> 7) & 7) << 4;
      size_t byte = addr - dst.buffer->sharedAddr;
      if (byte + src.elemBytes > dst.buffer->bytes.size())
        return fail(op, "writes past the end of " + dst.buffer->what, t);
      for (int64_t k = 0; k < src.elemBytes; ++k) {
        Buffer::Access &a = dst.buffer->access[byte + k];
        if (a.tmaBarrier >= 0 &&
            block->mbarriers[a.tmaBarrier].phase <= a.tmaPhase)
          return fail(
              op,
              "writes byte " + Twine(byte + k) + " of " + dst.buffer->what +
                  ", which an earlier TMA load (phase " + Twine(a.tmaPhase) +
                  " of mbarrier " + Twine(a.tmaBarrier) + ") still writes",
              t);
        if (a.asyncWriter >= 0)
          return fail(op,
                      "writes byte " + Twine(byte + k) + " of " +
                          dst.buffer->what +
                          ", which a cp.async has not completed yet",
                      t);
        if (a.readEpoch == block->epoch && !block->orderedAfterReads(t, a))
          return fail(op,
                      "writes byte " + Twine(byte + k) + " of " +
                          dst.buffer->what + " that " +
                          (a.reader == -2 ? Twine("other threads")
                                          : "thread " + Twine(a.reader)) +
                          " read since the last barrier (a race)",
                      t);
        if (a.writeEpoch == block->epoch && a.writer != t &&
            !block->orderedAfter(t, a.writer, a.writeClock))
          return fail(op,
                      "writes byte " + Twine(byte + k) + " of " +
                          dst.buffer->what + " that thread " + Twine(a.writer) +
                          " wrote since the last barrier (a race)",
                      t);
        // A write through another proxy: the generic write is ordered
        // before the async proxy's only by its writer's fence.proxy.async.
        if (a.writer >= 0 && a.writeSeq > block->proxyFence[a.writer])
          return fail(op,
                      "writes byte " + Twine(byte + k) + " of " +
                          dst.buffer->what + " that thread " + Twine(a.writer) +
                          " wrote through the generic proxy with no "
                          "fence.proxy.async after the write",
                      t);
        // The async proxy's write: no thread's generic write (no proxy
        // fence is needed before wgmma reads it), ordered by the phase.
        a.writeEpoch = 0;
        a.writer = -1;
        a.writeSeq = ++writes;
        a.tmaBarrier = static_cast<int32_t>(*id);
        a.tmaPhase = bar.phase;
      }
      uint8_t *p = dst.buffer->bytes.data() + byte;
      if (inBounds)
        std::memcpy(p, src.buffer->bytes.data() + at * src.elemBytes,
                    src.elemBytes);
      else if (map.oob == nvgpu::TensorMapOOBKind::OOB_ZERO)
        std::memset(p, 0, src.elemBytes);
      else
        return fail(op, "NaN fill of out-of-bounds elements is not simulated",
                    t);
    }
    bar.lastLoad = op;
    bar.lastLoadPhase = bar.phase;
    bar.tx -= total * src.elemBytes;
    if (bar.tx < 0)
      return fail(op,
                  "completes " + Twine(total * src.elemBytes) +
                      " bytes on mbarrier " + Twine(*id) +
                      ", more than its phase " + Twine(bar.phase) +
                      " expects (mbarrier.arrive.expect_tx before the load)",
                  t);
    complete(*id);
  }
  return success();
}

LogicalResult Interpreter::execAsyncCopy(nvgpu::DeviceAsyncCopyOp op, Frame &f,
                                         const Mask &m) {
  if (!block)
    return fail(op, "cp.async outside a kernel");
  const int64_t dstElements = op.getDstElements().getZExtValue();
  std::vector<Val> &tokens = f.slot(op.getAsyncToken());
  for (int32_t t : m) {
    const MemRefVal &dst = *get(f, op.getDst(), t).memref;
    const MemRefVal &src = *get(f, op.getSrc(), t).memref;
    if (dst.buffer->space != Space::Shared)
      return fail(op,
                  "writes " + dst.buffer->what +
                      " (cp.async writes shared memory only)",
                  t);
    if (src.buffer->space != Space::Device)
      return fail(op,
                  "reads " + src.buffer->what +
                      " (cp.async reads global memory only)",
                  t);
    if (dst.elemBytes != src.elemBytes)
      return fail(op, "copies between elements of different sizes", t);
    int64_t bytes = dstElements * dst.elemBytes;
    if (bytes != 4 && bytes != 8 && bytes != 16)
      return fail(
          op, "copies " + Twine(bytes) + " bytes (cp.async copies 4, 8 or 16)",
          t);
    if (op.getBypassL1() && bytes != 16)
      return fail(op,
                  "bypasses L1 (cp.async.cg) for a copy of " + Twine(bytes) +
                      " bytes (16 needed)",
                  t);
    int64_t srcElements = dstElements;
    if (Value n = op.getSrcElements())
      srcElements = getIndex(f, n, t);
    if (srcElements < 0 || srcElements > dstElements)
      return fail(op,
                  "reads " + Twine(srcElements) + " elements of at most " +
                      Twine(dstElements),
                  t);
    AsyncCopy copy{op, dst.buffer, 0, {}};
    copy.data.assign(bytes, 0); // the bytes past srcElements are zeros
    if (srcElements > 0) {
      FailureOr<uint8_t *> p =
          access(op, src, indicesOf(f, op.getSrcIndices(), t), srcElements,
                 /*write=*/false, t);
      if (failed(p))
        return failure();
      if ((*p - src.buffer->bytes.data()) % bytes != 0)
        return fail(op,
                    "reads byte " + Twine(*p - src.buffer->bytes.data()) +
                        " of " + src.buffer->what + ", which is not " +
                        Twine(bytes) + "-byte aligned",
                    t);
      std::memcpy(copy.data.data(), *p, srcElements * src.elemBytes);
    }
    FailureOr<uint8_t *> q =
        access(op, dst, indicesOf(f, op.getDstIndices(), t), dstElements,
               /*write=*/true, t);
    if (failed(q))
      return failure();
    copy.byte = *q - dst.buffer->bytes.data();
    if (copy.byte % bytes != 0)
      return fail(op,
                  "writes byte " + Twine(copy.byte) + " of " +
                      dst.buffer->what + ", which is not " + Twine(bytes) +
                      "-byte aligned",
                  t);
    for (int64_t i = 0; i < bytes; ++i)
      dst.buffer->access[copy.byte + i].asyncWriter = t;
    block->async[t].open.push_back(std::move(copy));
    tokens[t] = Val();
  }
  return success();
}

LogicalResult Interpreter::completeAsync(AsyncCopy &copy, int32_t t) {
  if (copy.dst->freed)
    return fail(copy.op,
                "completes into " + copy.dst->what + " after it was freed", t);
  for (size_t i = 0; i < copy.data.size(); ++i)
    copy.dst->access[copy.byte + i].asyncWriter = -1;
  // The write happens now: other threads see it after the next barrier.
  if (failed(track(copy.op, copy.dst, copy.dst->bytes.data() + copy.byte,
                   copy.data.size(), /*write=*/true, t)))
    return failure();
  std::memcpy(copy.dst->bytes.data() + copy.byte, copy.data.data(),
              copy.data.size());
  return success();
}

LogicalResult Interpreter::execAsyncGroup(Operation *op, const Mask &m) {
  if (!block)
    return fail(op, "cp.async groups outside a kernel");
  auto wait = dyn_cast<NVVM::CpAsyncWaitGroupOp>(op);
  for (int32_t t : m) {
    AsyncState &a = block->async[t];
    if (!wait) {
      a.groups.push_back(std::move(a.open));
      a.open.clear();
      continue;
    }
    // All but the `n` most recent committed groups complete; copies not
    // committed yet stay in flight.
    size_t n = wait.getN();
    while (a.groups.size() > n) {
      for (AsyncCopy &copy : a.groups.front())
        if (failed(completeAsync(copy, t)))
          return failure();
      a.groups.pop_front();
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// affine (index arithmetic that folding may leave)
//===----------------------------------------------------------------------===//

int64_t evalAffine(AffineExpr e, ArrayRef<int64_t> dims,
                   ArrayRef<int64_t> symbols) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue();
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return dims[d.getPosition()];
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return symbols[s.getPosition()];
  auto bin = cast<AffineBinaryOpExpr>(e);
  int64_t l = evalAffine(bin.getLHS(), dims, symbols);
  int64_t r = evalAffine(bin.getRHS(), dims, symbols);
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
    return l * r;
  case AffineExprKind::Mod:
    return ((l % r) + r) % r;
  case AffineExprKind::FloorDiv:
    return l / r - ((l % r != 0) && ((l < 0) != (r < 0)));
  case AffineExprKind::CeilDiv:
    return l / r + ((l % r != 0) && ((l < 0) == (r < 0)));
  default:
    return 0;
  }
}

LogicalResult Interpreter::execAffine(Operation *op, Frame &f, const Mask &m) {
  AffineMap map;
  ValueRange operands;
  int kind = 0;
  if (auto x = dyn_cast<affine::AffineApplyOp>(op)) {
    map = x.getAffineMap();
    operands = x.getMapOperands();
  } else if (auto x = dyn_cast<affine::AffineMinOp>(op)) {
    map = x.getMap();
    operands = x.getMapOperands();
    kind = 1;
  } else if (auto x = dyn_cast<affine::AffineMaxOp>(op)) {
    map = x.getMap();
    operands = x.getMapOperands();
    kind = 2;
  } else {
    return fail(op, "this op is not simulated");
  }
  std::vector<Val> &s = f.slot(op->getResult(0));
  for (int32_t t : m) {
    SmallVector<int64_t> dims, symbols;
    for (auto [i, v] : llvm::enumerate(operands))
      (i < map.getNumDims() ? dims : symbols).push_back(getIndex(f, v, t));
    int64_t r = 0;
    for (auto [i, e] : llvm::enumerate(map.getResults())) {
      int64_t x = evalAffine(e, dims, symbols);
      r = i == 0 ? x : kind == 1 ? std::min(r, x) : std::max(r, x);
    }
    s[t].e.assign(1, intElem(static_cast<uint64_t>(r)));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

FailureOr<int64_t> Interpreter::streamOf(Operation *op, Frame &f,
                                         ValueRange deps, bool async) {
  if (deps.empty()) {
    if (async)
      return fail(op, "an async step without a dependency (gpu-to-llvm "
                      "lowers async steps with exactly one)");
    return int64_t(-1);
  }
  if (deps.size() != 1 && !isa<gpu::WaitOp>(op))
    return fail(op, "a step with " + Twine(deps.size()) +
                        " dependencies (gpu-to-llvm lowers async steps with "
                        "exactly one)");
  if (!async && !isa<gpu::WaitOp>(op))
    return fail(op, "a synchronous step with dependencies is not simulated");
  const Val &token = get(f, deps.front(), 0);
  if (token.e.empty())
    return fail(op, "uses a token that names no stream");
  int64_t stream = static_cast<int64_t>(token.e[0].i);
  if (stream < 0 || stream >= static_cast<int64_t>(liveStreams.size()))
    return fail(op, "uses a token that names no stream");
  if (!liveStreams[stream])
    return fail(op, "uses a token of stream " + Twine(stream) +
                        ", which a blocking gpu.wait already synchronized "
                        "and destroyed");
  return stream;
}

LogicalResult Interpreter::checkHostAccess(Operation *op, Buffer *buffer,
                                           bool write, int64_t stream) {
  for (const PendingHostAccess &p : pendingHost) {
    if (p.buffer != buffer || (!p.write && !write) ||
        (stream >= 0 && p.stream == stream))
      continue;
    return fail(op, Twine(write ? "writes " : "reads ") + buffer->what +
                        " while " + p.op->getName().getStringRef() +
                        " on stream " + Twine(p.stream) +
                        (p.write ? " writes" : " reads") +
                        " it (no blocking gpu.wait on that stream before)");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::call(func::FuncOp func, ArrayRef<MemRefVal *> args,
                                SmallVectorImpl<MemRefVal *> &results) {
  Frame host;
  Block &entry = func.getBody().front();
  for (auto [arg, view] : llvm::zip(entry.getArguments(), args))
    host.slot(arg)[0].memref = view;
  Mask one = {0};
  Operation *terminator;
  if (failed(execBlock(entry, host, one, terminator)))
    return failure();
  if (!terminator || !isa<func::ReturnOp>(terminator))
    return fail(func, "the function does not end in func.return");
  for (auto [id, live] : llvm::enumerate(liveStreams))
    if (live)
      return fail(terminator,
                  "returns while stream " + Twine(id) +
                      " is live: device work that no blocking gpu.wait "
                      "synchronized (the results may not have arrived)");
  for (Value v : terminator->getOperands()) {
    MemRefVal *view = get(host, v, 0).memref;
    if (!view)
      return fail(terminator, "returns a value that is not a memref");
    if (view->buffer->freed)
      return fail(terminator, "returns " + view->buffer->what +
                                  ", which was freed");
    if (view->buffer->space != Space::Host)
      return fail(terminator, "returns " + view->buffer->what +
                                  ", which is not host memory");
    results.push_back(view);
  }
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// SimulatedCudaExecutable
//===----------------------------------------------------------------------===//

namespace {
using attic::EntrySignature;
using attic::TensorSpec;

/// The tensor an identity-layout memref of an element type the runtime
/// knows stands for; nullopt for any other type.
std::optional<TensorSpec> memrefSpec(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  std::optional<attic_dtype> dtype =
      memref ? attic::dtypeOf(memref.getElementType()) : std::nullopt;
  if (!memref || !dtype || !memref.getLayout().isIdentity())
    return std::nullopt;
  return TensorSpec{*dtype, SmallVector<int64_t>(memref.getShape())};
}

/// Whether a pass of a custom CUDA pipeline (its argument, its textual
/// form) begins the conversion of kernels or host code to NVVM and the
/// LLVM dialect, which the simulator does not interpret: it runs what
/// comes before (the mapping, outlining and the passes on gpu.func
/// kernels, cleanups between them included).
bool startsNvvmConversion(StringRef argument, StringRef text) {
  static constexpr StringLiteral kConversions[] = {
      "nvvm-attach-target",     "convert-nvgpu-to-nvvm", "convert-scf-to-cf",
      "convert-gpu-to-nvvm",    "gpu-module-to-binary",  "gpu-to-llvm",
      "convert-func-to-llvm",   "convert-arith-to-llvm", "convert-to-llvm",
      "finalize-memref-to-llvm"};
  return llvm::is_contained(kConversions, argument) ||
         text.starts_with("gpu.module(");
}

/// Empty when @`entry` of `lowered` is a func.func with a body whose
/// arguments and results are identity-layout memrefs of the ranks and
/// element types of `signature`; else what is not.
std::string checkMappedEntry(ModuleOp lowered, StringRef entry,
                             const EntrySignature &signature) {
  Operation *symbol = lowered.lookupSymbol(entry);
  auto func = dyn_cast_or_null<func::FuncOp>(symbol);
  if (!func || func.isExternal())
    return symbol ? ("@" + entry + " is a '" +
                     symbol->getName().getStringRef() + "'")
                        .str()
                  : ("no @" + entry).str();
  auto check = [&](TypeRange types, ArrayRef<TensorSpec> specs,
                   StringRef what) -> std::string {
    if (types.size() != specs.size())
      return (Twine(types.size()) + " " + what + "s, not " +
              Twine(specs.size()))
          .str();
    for (auto [i, type] : llvm::enumerate(types)) {
      std::optional<TensorSpec> spec = memrefSpec(type);
      if (!spec || spec->dtype != specs[i].dtype ||
          spec->shape.size() != specs[i].shape.size()) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << what << " #" << i << " of @" << entry << " is " << type;
        return text;
      }
    }
    return "";
  };
  if (std::string m =
          check(func.getArgumentTypes(), signature.inputs, "argument");
      !m.empty())
    return m;
  return check(func.getResultTypes(), signature.results, "result");
}
} // namespace

attic::SimulatedCudaExecutable::~SimulatedCudaExecutable() = default;

std::unique_ptr<attic::SimulatedCudaExecutable>
attic::SimulatedCudaExecutable::compile(ModuleOp module, StringRef entry,
                                        int64_t blockQ, int64_t blockK,
                                        std::string &error,
                                        const GpuMappingOptions &options,
                                        bool inlineKernelConstants) {
  return compileWith(
      module, entry,
      [&](OpPassManager &pm, std::string &message) -> LogicalResult {
        if (std::string bad = checkCudaBlockSizes(blockQ, blockK);
            !bad.empty()) {
          message = "--target=cuda-simulated: " + bad;
          return failure();
        }
        // With attic-cuda-pipeline's input checks (without them the
        // simulated target took a rounding mode the lowering ignores; a
        // 2026-11-30 review).
        buildCudaMappingPipeline(pm, blockQ, blockK, options);
        buildCudaOutliningPipeline(pm, inlineKernelConstants);
        return success();
      },
      error);
}

std::unique_ptr<attic::SimulatedCudaExecutable>
attic::SimulatedCudaExecutable::compile(ModuleOp module, StringRef entry,
                                        StringRef pipeline,
                                        std::string &error) {
  std::unique_ptr<SimulatedCudaExecutable> executable = compileWith(
      module, entry,
      [&](OpPassManager &pm, std::string &message) -> LogicalResult {
        // Parsed whole first (named pipelines become their passes), then
        // the passes before the conversion to NVVM re-parsed from their
        // textual forms into `pm`.
        OpPassManager full(ModuleOp::getOperationName(),
                           OpPassManager::Nesting::Implicit);
        if (failed(addTextualPipeline(full, pipeline, "CUDA", message)))
          return failure();
        std::string prefix;
        llvm::raw_string_ostream os(prefix);
        llvm::ListSeparator comma(",");
        for (Pass &pass : full.getPasses()) {
          std::string text;
          llvm::raw_string_ostream passText(text);
          pass.printAsTextualPipeline(passText);
          if (startsNvvmConversion(pass.getArgument(), text))
            break;
          os << comma << text;
        }
        std::string parseError;
        llvm::raw_string_ostream parseStream(parseError);
        if (succeeded(parsePassPipeline(prefix, pm, parseStream)))
          return success();
        // Every pass printed its own options; one that cannot parse them
        // back is an upstream defect, named here.
        message = ("the CUDA pass pipeline's passes before outlining do not "
                   "parse back from their textual form: " +
                   StringRef(parseError).trim())
                      .str();
        std::replace(message.begin(), message.end(), '\n', ' ');
        return failure();
      },
      error);
  // A pipeline that maps nothing onto the GPU (attic-cpu-pipeline's steps,
  // bufferization and loops) left host code that the simulator ran as
  // host code, reported as a simulated GPU run (a 2026-11-30 audit).
  if (executable) {
    auto func = executable->lowered_->lookupSymbol<func::FuncOp>(entry);
    bool usesGpu =
        func && func.walk([](Operation *op) {
                      return isa_and_nonnull<gpu::GPUDialect>(op->getDialect())
                                 ? WalkResult::interrupt()
                                 : WalkResult::advance();
                    })
                    .wasInterrupted();
    if (!usesGpu) {
      error = "the CUDA pass pipeline left @" + entry.str() +
              " without any op of the gpu dialect (no gpu.launch, kernel or "
              "device buffer): it would run as host code, not on the "
              "simulated GPU; use attic-cuda-pipeline or passes that map "
              "onto the GPU (attic-gpu-offload), or --target=cpu";
      return nullptr;
    }
  }
  return executable;
}

std::unique_ptr<attic::SimulatedCudaExecutable>
attic::SimulatedCudaExecutable::compileWith(
    ModuleOp module, StringRef entry,
    function_ref<LogicalResult(OpPassManager &, std::string &)> buildPipeline,
    std::string &error) {
  FailureOr<EntrySignature> signature = getEntrySignature(module, entry, error);
  if (failed(signature))
    return nullptr;
  OwningOpRef<ModuleOp> lowered(module.clone());
  MLIRContext *ctx = lowered->getContext();
  // Only @entry runs.
  eraseFunctionsBesides(*lowered, entry);
  appendLoweringRegistry(*ctx);
  {
    PassManager pm(ctx);
    if (failed(buildPipeline(pm, error)) ||
        failed(runLowering(pm, *lowered,
                           "lowering for the simulated GPU failed", error)))
      return nullptr;
  }
  // A pipeline of the user's may leave another form than the mapping's
  // (tensors, the LLVM dialect): the entry must still be a function on
  // memrefs of the entry's ranks and element types.
  if (std::string message = checkMappedEntry(*lowered, entry, *signature);
      !message.empty()) {
    error = "the pipeline did not leave the form the simulator runs (the "
            "CUDA mapping's: a func.func on memrefs launching gpu.launch or "
            "outlined kernels): " +
            message;
    return nullptr;
  }
  std::unique_ptr<SimulatedCudaExecutable> executable(
      new SimulatedCudaExecutable());
  executable->lowered_ = std::move(lowered);
  executable->entry_ = entry.str();
  executable->signature_ = *signature;
  return executable;
}

std::unique_ptr<attic::SimulatedCudaExecutable>
attic::SimulatedCudaExecutable::fromLowered(OwningOpRef<ModuleOp> lowered,
                                            StringRef entry,
                                            std::string &error) {
  auto func = lowered->lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal()) {
    error = ("no function '" + entry + "' with a body in the module").str();
    return nullptr;
  }
  EntrySignature signature;
  auto convert = [&](Type type, SmallVectorImpl<TensorSpec> &into) {
    std::optional<TensorSpec> spec = memrefSpec(type);
    if (spec)
      into.push_back(std::move(*spec));
    return spec.has_value();
  };
  for (Type t : func.getArgumentTypes())
    if (!convert(t, signature.inputs)) {
      error = "simulated functions take identity-layout memrefs";
      return nullptr;
    }
  for (Type t : func.getResultTypes())
    if (!convert(t, signature.results)) {
      error = "simulated functions return identity-layout memrefs";
      return nullptr;
    }
  std::unique_ptr<SimulatedCudaExecutable> executable(
      new SimulatedCudaExecutable());
  executable->lowered_ = std::move(lowered);
  executable->entry_ = entry.str();
  executable->signature_ = std::move(signature);
  return executable;
}

LogicalResult
attic::SimulatedCudaExecutable::run(ArrayRef<const attic_tensor *> inputs,
                                    SmallVectorImpl<attic_tensor> &outputs,
                                    std::string &error) {
  auto func = lowered_->lookupSymbol<func::FuncOp>(entry_);
  if (inputs.size() != signature_.inputs.size()) {
    error = "@" + entry_ + " takes " +
            std::to_string(signature_.inputs.size()) + " arguments, got " +
            std::to_string(inputs.size());
    return failure();
  }
  stats_ = SimulationStats();
  Interpreter interpreter(*lowered_, stats_);
  SmallVector<MemRefVal *> args;
  for (auto [i, tensor] : llvm::enumerate(inputs)) {
    auto type = cast<MemRefType>(func.getArgumentTypes()[i]);
    if (!tensor) {
      error = "argument #" + std::to_string(i) + " of @" + entry_ + " is NULL";
      return failure();
    }
    if (tensor->dtype != signature_.inputs[i].dtype ||
        tensor->rank != type.getRank()) {
      error = "argument #" + std::to_string(i) + " does not match @" + entry_;
      return failure();
    }
    SmallVector<int64_t> shape(tensor->shape, tensor->shape + tensor->rank);
    for (auto [d, s] : llvm::enumerate(type.getShape()))
      if (!ShapedType::isDynamic(s) && s != shape[d]) {
        error = "argument #" + std::to_string(i) + " has shape " +
                shapeString(shape) + " but @" + entry_ + " takes " +
                shapeString(type.getShape());
        return failure();
      }
    if (failed(checkInputStorage(entry_, i, *tensor, error)))
      return failure();
    MemRefVal *view =
        interpreter.newBuffer(type.getElementType(), shape,
                              "argument #" + std::to_string(i), Space::Host);
    if (view->buffer->bytes.size() != tensor->nbytes) {
      error = "argument #" + std::to_string(i) + ": size mismatch";
      return failure();
    }
    std::memcpy(view->buffer->bytes.data(), tensor->data, tensor->nbytes);
    args.push_back(view);
  }
  attic_rt_take_error(nullptr, 0); // drop a report left by an earlier run
  SmallVector<MemRefVal *> results;
  if (failed(interpreter.call(func, args, results))) {
    error = "simulated GPU: " + interpreter.error;
    return failure();
  }
  char message[512];
  if (attic_rt_take_error(message, sizeof(message)) != ATTIC_OK) {
    error = message;
    return failure();
  }
  size_t first = outputs.size();
  for (auto [i, view] : llvm::enumerate(results)) {
    attic_tensor tensor{};
    char err[256];
    if (attic_tensor_alloc(&tensor, signature_.results[i].dtype,
                           view->sizes.size(), view->sizes.data(), err,
                           sizeof(err)) != ATTIC_OK) {
      for (size_t k = first; k < outputs.size(); ++k)
        attic_tensor_free(&outputs[k]);
      outputs.truncate(first);
      error = err;
      return failure();
    }
    // Element by element (the view may be strided).
    int64_t rank = view->sizes.size(), n = attic_tensor_numel(&tensor);
    SmallVector<int64_t> index(rank, 0);
    auto *out = static_cast<uint8_t *>(tensor.data);
    for (int64_t e = 0; e < n; ++e) {
      int64_t offset = view->offset;
      for (int64_t d = 0; d < rank; ++d)
        offset += index[d] * view->strides[d];
      std::memcpy(out + e * view->elemBytes,
                  view->buffer->bytes.data() + offset * view->elemBytes,
                  view->elemBytes);
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++index[d] < view->sizes[d])
          break;
        index[d] = 0;
      }
    }
    outputs.push_back(tensor);
  }
  return success();
}

//===- ModifierPropertyTest.cpp - mask regions against brute force --------===//
//
// Property tests of the classification of mask regions, on random
// (piecewise) affine predicates in q and k: one to three atoms
//
//   linear:  a q + b k + c  <pred>  0        (a, b in {-1, 0, 1})
//   blocked: q floordiv d  <pred>  k floordiv e + c
//
// joined by and / or, with random lengths and block sizes. Brute force is
// the predicate evaluated in C++ (the generator builds the region text and
// the lambda from the same choices).
//
//   - compile time (classifyBlocksStatically, interval arithmetic): sound
//     for every predicate (`F` only if every element is visible, `.` only
//     if none is), exact for single atoms;
//   - compile time under wrapping: predicates whose index arithmetic
//     wraps past 2^63 (multipliers and offsets near 2^62) or that are cut
//     to i8 or i16 by a narrowing index_cast, brute-forced with the
//     hardware's two's complement: sound (`F` and `.` only where true);
//   - run time (attic.block_mask, compiled with attic-cpu-pipeline and
//     run): the lists equal brute force exactly, both when the region is
//     classified by intervals (exact for atoms; the partial blocks of
//     compositions checked element by element) and when it reads a
//     capture (its constant from a tensor) and is evaluated element by
//     element; entries past the counts are 0.
//
//===----------------------------------------------------------------------===//

#include "CompiledHarness.h"

#include "attic/Dialect/Attic/AtticDialect.h"
#include "attic/Dialect/Attic/Modifiers.h"
#include "attic/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/FormatVariadic.h"

#include <functional>
#include <random>

using namespace mlir;
using attic::testing::Compiled;
using attic::testing::Tensor;

namespace {

int64_t floorDiv(int64_t x, int64_t y) {
  int64_t q = x / y;
  return (q * y != x && ((x < 0) != (y < 0))) ? q - 1 : q;
}

struct Predicate {
  std::string body; // region ops, the result in %p
  std::function<bool(int64_t, int64_t)> eval;
  bool atomic;
};

class PredicateGenerator {
public:
  explicit PredicateGenerator(unsigned seed) : rng(seed) {}

  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }

  /// `constant` is the SSA name the constants come from: "" for literal
  /// constants, else the name of an index value that holds 0 (read from a
  /// capture), added to every constant so that the region reads data.
  Predicate make(int atoms, const std::string &zero) {
    Predicate p{"", nullptr, atoms == 1};
    std::vector<std::function<bool(int64_t, int64_t)>> parts;
    for (int i = 0; i < atoms; ++i)
      parts.push_back(atom(p.body, i, zero));
    std::string acc = "%a0";
    std::function<bool(int64_t, int64_t)> f = parts[0];
    for (int i = 1; i < atoms; ++i) {
      bool conj = uniform(0, 1);
      std::string name = "%j" + std::to_string(i);
      p.body += llvm::formatv("{0} = arith.{1} {2}, %a{3} : i1\n", name,
                              conj ? "andi" : "ori", acc, i);
      auto g = parts[i];
      f = conj ? std::function<bool(int64_t, int64_t)>(
                     [f, g](int64_t q, int64_t k) { return f(q, k) && g(q, k); })
               : std::function<bool(int64_t, int64_t)>(
                     [f, g](int64_t q, int64_t k) { return f(q, k) || g(q, k); });
      acc = name;
    }
    p.body += "%p = arith.andi " + acc + ", " + acc + " : i1\n";
    p.eval = f;
    return p;
  }

private:
  std::string constant(std::string &body, const std::string &name, int64_t v,
                       const std::string &zero) {
    body += llvm::formatv("{0}_lit = arith.constant {1} : index\n", name, v);
    if (zero.empty())
      return name + "_lit";
    body += llvm::formatv("{0} = arith.addi {0}_lit, {1} : index\n", name,
                          zero);
    return name;
  }

  std::function<bool(int64_t, int64_t)> atom(std::string &body, int i,
                                              const std::string &zero) {
    static const char *preds[] = {"slt", "sle", "sgt", "sge", "eq", "ne"};
    int pred = uniform(0, 5);
    auto compare = [pred](int64_t x, int64_t y) {
      switch (pred) {
      case 0: return x < y;
      case 1: return x <= y;
      case 2: return x > y;
      case 3: return x >= y;
      case 4: return x == y;
      default: return x != y;
      }
    };
    std::string n = "%t" + std::to_string(i);
    if (uniform(0, 2) != 0) {
      int64_t a = uniform(-1, 1), b = uniform(-1, 1), c = uniform(-70, 70);
      std::string ca = constant(body, n + "a", a, zero);
      std::string cb = constant(body, n + "b", b, zero);
      std::string cc = constant(body, n + "c", c, zero);
      std::string z = constant(body, n + "z", 0, zero);
      body += llvm::formatv("{0}x = arith.muli %qi, {1} : index\n"
                            "{0}y = arith.muli %ki, {2} : index\n"
                            "{0}s = arith.addi {0}x, {0}y : index\n"
                            "{0}v = arith.addi {0}s, {3} : index\n"
                            "%a{4} = arith.cmpi {5}, {0}v, {6} : index\n",
                            n, ca, cb, cc, i, preds[pred], z);
      return [=](int64_t q, int64_t k) { return compare(a * q + b * k + c, 0); };
    }
    int64_t d = uniform(1, 24), e = uniform(1, 24), c = uniform(-3, 3);
    // Divisors stay literal constants (the verifier requires it).
    std::string cc = constant(body, n + "c", c, zero);
    body += llvm::formatv("{0}d = arith.constant {1} : index\n"
                          "{0}e = arith.constant {2} : index\n"
                          "{0}x = arith.floordivsi %qi, {0}d : index\n"
                          "{0}y = arith.floordivsi %ki, {0}e : index\n"
                          "{0}w = arith.addi {0}y, {3} : index\n"
                          "%a{4} = arith.cmpi {5}, {0}x, {0}w : index\n",
                          n, d, e, cc, i, preds[pred]);
    return [=](int64_t q, int64_t k) {
      return compare(floorDiv(q, d), floorDiv(k, e) + c);
    };
  }

  std::mt19937 rng;
};

/// Predicates whose integer arithmetic wraps: `a q + b k + c` in index
/// arithmetic with factors and offsets near 2^62 (wrapping past 2^63), or
/// `index_cast (a q + b k + c) to iW`, plus a constant in iW, compared in
/// iW (W = 8 or 16: cut and wrapped).
class WrappingGenerator {
public:
  explicit WrappingGenerator(unsigned seed) : rng(seed) {}

  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }

  Predicate make() {
    static const char *preds[] = {"slt", "sle", "sgt", "sge", "eq", "ne"};
    int pred = int(uniform(0, 5));
    auto compare = [pred](int64_t x, int64_t y) {
      switch (pred) {
      case 0:
        return x < y;
      case 1:
        return x <= y;
      case 2:
        return x > y;
      case 3:
        return x >= y;
      case 4:
        return x == y;
      default:
        return x != y;
      }
    };
    Predicate p{"", nullptr, false};
    if (uniform(0, 1)) {
      static const int64_t factors[] = {0,
                                        1,
                                        -1,
                                        int64_t(1) << 61,
                                        int64_t(1) << 62,
                                        -(int64_t(1) << 62),
                                        int64_t(3) << 60,
                                        (int64_t(1) << 62) + 1};
      int64_t a = factors[uniform(0, 7)], b = factors[uniform(0, 7)];
      int64_t c = uniform(0, 2) == 0 ? uniform(-100, 100)
                  : uniform(0, 1)    ? INT64_MAX - uniform(0, 300)
                                     : INT64_MIN + uniform(0, 300);
      p.body = llvm::formatv("%ca = arith.constant {0} : index\n"
                             "%cb = arith.constant {1} : index\n"
                             "%cc = arith.constant {2} : index\n"
                             "%z = arith.constant 0 : index\n"
                             "%x = arith.muli %qi, %ca : index\n"
                             "%y = arith.muli %ki, %cb : index\n"
                             "%s = arith.addi %x, %y : index\n"
                             "%val = arith.addi %s, %cc : index\n"
                             "%p = arith.cmpi {3}, %val, %z : index\n",
                             a, b, c, preds[pred]);
      p.eval = [=](int64_t q, int64_t k) {
        uint64_t v =
            uint64_t(q) * uint64_t(a) + uint64_t(k) * uint64_t(b) + uint64_t(c);
        return compare(int64_t(v), 0);
      };
      return p;
    }
    unsigned width = uniform(0, 1) ? 8 : 16;
    int64_t half = int64_t(1) << (width - 1);
    int64_t a = uniform(-2, 2), b = uniform(-2, 2), c = uniform(-300, 300);
    int64_t d = uniform(-half, half - 1), e = uniform(-half, half - 1);
    auto wrap = [=](int64_t v) {
      uint64_t low = uint64_t(v) & ((uint64_t(1) << width) - 1);
      return int64_t(low ^ uint64_t(half)) - half;
    };
    p.body = llvm::formatv("%ca = arith.constant {0} : index\n"
                           "%cb = arith.constant {1} : index\n"
                           "%cc = arith.constant {2} : index\n"
                           "%x = arith.muli %qi, %ca : index\n"
                           "%y = arith.muli %ki, %cb : index\n"
                           "%s = arith.addi %x, %y : index\n"
                           "%val = arith.addi %s, %cc : index\n"
                           "%n = arith.index_cast %val : index to i{3}\n"
                           "%cd = arith.constant {4} : i{3}\n"
                           "%ce = arith.constant {5} : i{3}\n"
                           "%w = arith.addi %n, %cd : i{3}\n"
                           "%p = arith.cmpi {6}, %w, %ce : i{3}\n",
                           a, b, c, width, d, e, preds[pred]);
    p.eval = [=](int64_t q, int64_t k) {
      return compare(wrap(wrap(a * q + b * k + c) + d), e);
    };
    return p;
  }

private:
  std::mt19937 rng;
};

/// Brute-force classes of one block pair.
struct Classes {
  bool any, all;
};
Classes bruteForce(const Predicate &p, int64_t q0, int64_t q1, int64_t k0,
                   int64_t k1) {
  Classes c{false, true};
  for (int64_t q = q0; q < q1; ++q)
    for (int64_t k = k0; k < k1; ++k) {
      bool v = p.eval(q, k);
      c.any = c.any || v;
      c.all = c.all && v;
    }
  return c;
}

class ModifierProperty : public ::testing::Test {
protected:
  void SetUp() override {
    DialectRegistry registry;
    attic::registerExecutionDialects(registry);
    ctx = std::make_unique<MLIRContext>(registry);
    ctx->loadAllAvailableDialects();
  }

  /// The text of an attention with the predicate as its mask region.
  std::string attentionSource(const Predicate &p, int64_t nq, int64_t nk) {
    return llvm::formatv(
        "func.func @f(%q: tensor<1x1x{0}x8xf32>, %k: tensor<1x1x{1}x8xf32>, "
        "%v: tensor<1x1x{1}x8xf32>) -> tensor<1x1x{0}x8xf32> {{\n"
        "  %o = attic.attention %q, %k, %v mask_mod {{\n"
        "  ^bb0(%b: index, %h: index, %qi: index, %ki: index):\n{2}"
        "    attic.yield %p : i1\n  }\n"
        "  : tensor<1x1x{0}x8xf32>, tensor<1x1x{1}x8xf32>, "
        "tensor<1x1x{1}x8xf32> -> tensor<1x1x{0}x8xf32>\n"
        "  return %o : tensor<1x1x{0}x8xf32>\n}\n",
        nq, nk, p.body);
  }

  struct Counts {
    int64_t blocks = 0;  // block pairs checked
    int64_t exact = 0;   // of single atoms, whose class must be exact
    int64_t decided = 0; // classified full or skipped
  };

  /// Classifies `p`'s blocks at compile time and checks each against brute
  /// force: `F` only if every element is visible, `.` only if none is, and
  /// the exact class for a single atom.
  void checkStaticClasses(const Predicate &p, int64_t nq, int64_t nk,
                          int64_t bq, int64_t bk, Counts &counts) {
    std::string source = attentionSource(p, nq, nk);
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, ctx.get());
    ASSERT_TRUE(module) << source;
    attic::AttentionOp op;
    module->walk([&](attic::AttentionOp a) { op = a; });
    ASSERT_TRUE(attic::isIntervalClassifiable(op.getMaskRegion())) << source;
    FailureOr<std::vector<std::string>> rows = attic::classifyBlocksStatically(
        op.getEffectiveLayout(), &op.getMaskRegion(), nq, nk, bq, bk, 0, 0);
    ASSERT_TRUE(succeeded(rows));
    for (int64_t qb = 0; qb * bq < nq; ++qb)
      for (int64_t kb = 0; kb * bk < nk; ++kb) {
        int64_t q0 = qb * bq, q1 = std::min(q0 + bq, nq);
        int64_t k0 = kb * bk, k1 = std::min(k0 + bk, nk);
        Classes c = bruteForce(p, q0, q1, k0, k1);
        char got = (*rows)[qb][kb];
        std::string where = llvm::formatv(
            "block ({0}, {1}) of {2}x{3} in blocks {4}x{5}, class {6}:\n{7}",
            qb, kb, nq, nk, bq, bk, got, source);
        ASSERT_NE(got, '?') << where;
        if (got == 'F')
          ASSERT_TRUE(c.all) << where;
        if (got == '.')
          ASSERT_FALSE(c.any) << where;
        if (p.atomic) {
          ASSERT_EQ(got, c.all ? 'F' : c.any ? 'P' : '.') << where;
          ++counts.exact;
        }
        counts.decided += got != 'P';
        ++counts.blocks;
      }
  }

  std::unique_ptr<MLIRContext> ctx;
};

TEST_F(ModifierProperty, CompileTimeClassificationIsSoundAndExactForAtoms) {
  PredicateGenerator gen(2026);
  Counts counts;
  for (int i = 0; i < 300; ++i) {
    int atoms = i < 150 ? 1 : int(gen.uniform(2, 3));
    Predicate p = gen.make(atoms, "");
    int64_t nq = gen.uniform(1, 90), nk = gen.uniform(1, 90);
    int64_t bq = int64_t(1) << gen.uniform(1, 5);
    int64_t bk = int64_t(1) << gen.uniform(1, 5);
    checkStaticClasses(p, nq, nk, bq, bk, counts);
    if (HasFatalFailure())
      return;
  }
  std::printf("compile time: 300 predicates, %lld block pairs sound, %lld "
              "of them (single atoms) exact\n",
              static_cast<long long>(counts.blocks),
              static_cast<long long>(counts.exact));
  EXPECT_GT(counts.exact, 10000);
}

TEST_F(ModifierProperty, CompileTimeClassificationIsSoundUnderWrapping) {
  // Before intervals carried whether they are exact, `index_cast %k : index
  // to i8` >= 0 classified the key block [128, 256) as full and `%k +
  // (2^63 - 108)` >= 0 every block as skipped: silently wrong outputs.
  WrappingGenerator gen(2026);
  Counts counts;
  for (int i = 0; i < 300; ++i) {
    Predicate p = gen.make();
    int64_t nq = gen.uniform(1, 300), nk = gen.uniform(1, 300);
    int64_t bq = int64_t(1) << gen.uniform(3, 6);
    int64_t bk = int64_t(1) << gen.uniform(3, 6);
    checkStaticClasses(p, nq, nk, bq, bk, counts);
    if (HasFatalFailure())
      return;
  }
  std::printf("compile time under wrapping: 300 predicates, %lld block pairs "
              "sound, %lld of them full or skipped\n",
              static_cast<long long>(counts.blocks),
              static_cast<long long>(counts.decided));
  // Not everything is left partial: blocks where nothing wraps are decided.
  EXPECT_GT(counts.decided, counts.blocks / 4);
}

TEST_F(ModifierProperty, RunTimeClassificationEqualsBruteForce) {
  PredicateGenerator gen(7);
  int64_t blocks = 0;
  for (int i = 0; i < 24; ++i) {
    // Even cases: literal constants (interval classification inside the
    // block_mask, exact for atoms; compositions are sound there, and their
    // partial blocks are checked element by element); odd cases: the
    // constants read from a capture (element-by-element classification).
    bool data = i % 2 == 1;
    Predicate p = gen.make(int(gen.uniform(1, 3)), data ? "%zero" : "");
    int64_t nq = gen.uniform(1, 70), nk = gen.uniform(1, 70);
    int64_t bq = int64_t(1) << gen.uniform(1, 4);
    int64_t bk = int64_t(1) << gen.uniform(1, 4);
    int64_t nqb = (nq + bq - 1) / bq, nkb = (nk + bk - 1) / bk;
    std::string lists = llvm::formatv(
        "tensor<1x1x{0}xi32>, tensor<1x1x{0}x{1}xi32>, tensor<1x1x{0}xi32>, "
        "tensor<1x1x{0}x{1}xi32>",
        nqb, nkb);
    std::string source = llvm::formatv(
        "func.func @f(%cap: tensor<1xi32>) -> ({0}) {{\n"
        "  %nq = arith.constant {1} : index\n"
        "  %nk = arith.constant {2} : index\n"
        "  %e0 = tensor.empty() : tensor<1x1x{3}xi32>\n"
        "  %e1 = tensor.empty() : tensor<1x1x{3}x{4}xi32>\n"
        "  %r:4 = attic.block_mask layout(#attic.dense) captures(%cap : "
        "tensor<1xi32>) sizes(%nq, %nk) outs(%e0, %e1, %e0, %e1 : {0}) "
        "mask_mod {{\n"
        "  ^bb0(%b: index, %h: index, %qi: index, %ki: index, %c: "
        "tensor<1xi32>):\n"
        "    %i0 = arith.constant 0 : index\n"
        "    %z32 = tensor.extract %c[%i0] : tensor<1xi32>\n"
        "    %zero = arith.index_cast %z32 : i32 to index\n{5}"
        "    attic.yield %p : i1\n"
        "  } {{block_q = {6} : i64, block_k = {7} : i64} -> {0}\n"
        "  return %r#0, %r#1, %r#2, %r#3 : {0}\n}\n",
        lists, nq, nk, nqb, nkb, p.body, bq, bk);
    Compiled compiled(source, "f");
    ASSERT_TRUE(compiled.exe) << source;
    {
      OwningOpRef<ModuleOp> module =
          parseSourceString<ModuleOp>(source, ctx.get());
      ASSERT_TRUE(module);
      attic::BlockMaskOp op;
      module->walk([&](attic::BlockMaskOp m) { op = m; });
      ASSERT_EQ(attic::isIntervalClassifiable(op.getMaskRegion()), !data)
          << source;
    }
    Tensor zero(ATTIC_I32, {1});
    zero.set(0, 0.0);
    std::vector<Tensor> out = compiled.run({&zero});
    ASSERT_EQ(out.size(), 4u) << source;
    for (int64_t qb = 0; qb < nqb; ++qb) {
      std::vector<int64_t> partial, full;
      for (int64_t kb = 0; kb < nkb; ++kb) {
        int64_t q0 = qb * bq, q1 = std::min(q0 + bq, nq);
        int64_t k0 = kb * bk, k1 = std::min(k0 + bk, nk);
        Classes c = bruteForce(p, q0, q1, k0, k1);
        if (c.all)
          full.push_back(kb);
        else if (c.any)
          partial.push_back(kb);
        ++blocks;
      }
      std::string where =
          llvm::formatv("query block {0} of {1}x{2} in blocks {3}x{4}:\n{5}",
                        qb, nq, nk, bq, bk, source);
      ASSERT_EQ(int64_t(out[0][qb]), int64_t(partial.size())) << where;
      ASSERT_EQ(int64_t(out[2][qb]), int64_t(full.size())) << where;
      for (size_t t = 0; t < partial.size(); ++t)
        ASSERT_EQ(int64_t(out[1][qb * nkb + t]), partial[t]) << where;
      for (size_t t = 0; t < full.size(); ++t)
        ASSERT_EQ(int64_t(out[3][qb * nkb + t]), full[t]) << where;
      // Entries past a count are 0 (the destinations are uninitialized).
      for (int64_t t = int64_t(partial.size()); t < nkb; ++t)
        ASSERT_EQ(int64_t(out[1][qb * nkb + t]), 0) << where;
      for (int64_t t = int64_t(full.size()); t < nkb; ++t)
        ASSERT_EQ(int64_t(out[3][qb * nkb + t]), 0) << where;
    }
  }
  std::printf("run time: 24 compiled block_masks, %lld block pairs equal to "
              "brute force\n",
              static_cast<long long>(blocks));
  EXPECT_GT(blocks, 300);
}

} // namespace

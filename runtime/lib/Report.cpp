//===- Report.cpp - Errors reported by compiled code ----------------------===//
//
// A process-wide record of the data-dependent errors that compiled code
// reported (attic_rt_report_error): their count and the least of them in a
// fixed order (the same message whatever the threads' timing), taken by the
// code that runs it (attic_rt_take_error). Compiled code may report from
// several threads.
//
//===----------------------------------------------------------------------===//

#include "Error.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <mutex>
#include <string>
#include <tuple>

namespace {
struct Record {
  std::mutex mutex;
  int64_t reports = 0;
  int32_t code = 0;
  int64_t a = 0, b = 0, c = 0;
};

Record &record() {
  static Record r;
  return r;
}

/// The order in which reports are kept: the reports of ops that the guards
/// replace by a new tensor first (a slice, a cast or an expand_shape
/// outside its operand: the accesses to the replacement after it report
/// too, and `tensor.extract ... outside [0, 0)` named the consequence, not
/// the cause; a review), then by code, then by `a` (a block-list row in
/// either of its forms ascends with the row), then b and c. Keeping the
/// least report, not the first, makes the message independent of the
/// threads' timing.
bool precedes(int32_t code, int64_t a, int64_t b, int64_t c, const Record &r) {
  auto row = [](int64_t x) { return x >= 0 ? x : -1 - x; };
  auto later = [](int32_t x) {
    return x == ATTIC_RT_SLICE_BOUNDS || x == ATTIC_RT_CAST_SIZE ||
                   x == ATTIC_RT_RESHAPE_SIZE || x == ATTIC_RT_ALLOC_SIZE
               ? 0
               : 1;
  };
  return std::make_tuple(later(code), code, row(a), b, c) <
         std::make_tuple(later(r.code), r.code, row(r.a), r.b, r.c);
}
} // namespace

extern "C" void attic_rt_report_error(int32_t code, int64_t a, int64_t b,
                                      int64_t c) {
  Record &r = record();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.reports++ == 0 || precedes(code, a, b, c, r)) {
    r.code = code;
    r.a = a;
    r.b = b;
    r.c = c;
  }
}

namespace {

/// " at line L" for a tensor or slice report's `a` (line * 64 + ...; line 0:
/// no location, ""), written to `where`.
void atLine(int64_t a, char *where, size_t size) {
  where[0] = '\0';
  if (int64_t line = a / 64; line > 0)
    std::snprintf(where, size, " at line %" PRId64, line);
}

/// The list and row that a block-list report's `a` names (Runtime.h):
/// "kv_num_blocks[0, 3, 1]" (`entries`: "kv_indices[0, 3, 1, :]"), or
/// "kv_num_blocks row 17 (flattened [B', H', nQB])" where the compiled
/// code could not pack the indices.
std::string blockRow(int64_t a, bool entries) {
  bool full;
  char where[96];
  if (a >= 0) {
    full = (a >> 60) & 1;
    std::snprintf(where, sizeof(where),
                  "[%" PRId64 ", %" PRId64 ", %" PRId64 "%s]",
                  (a >> 40) & 0xFFFFF, (a >> 20) & 0xFFFFF, a & 0xFFFFF,
                  entries ? ", :" : "");
  } else {
    int64_t code = -1 - a;
    full = code & 1;
    std::snprintf(where, sizeof(where),
                  " row %" PRId64 " (flattened [B', H', nQB])", code >> 1);
  }
  std::string name = full ? "full_kv_" : "kv_";
  return name + (entries ? "indices" : "num_blocks") + where;
}

/// "query block [b, h, qb]" of a row, for the report that names both
/// lists.
std::string queryBlockRow(int64_t a) {
  std::string row = blockRow(a, false);
  size_t at = a >= 0 ? row.find('[') : row.find(" row ") + 1;
  return "query block " + row.substr(at);
}
} // namespace

extern "C" attic_status attic_rt_take_error(char *err, size_t errLen) {
  Record &r = record();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.reports == 0)
    return ATTIC_OK;
  int64_t more = r.reports - 1;
  int32_t code = r.code;
  int64_t a = r.a, b = r.b, c = r.c;
  r.reports = 0;
  char suffix[64] = "";
  if (more > 0)
    std::snprintf(suffix, sizeof(suffix), " (and %" PRId64 " more report%s)",
                  more, more == 1 ? "" : "s");
  switch (code) {
  case ATTIC_RT_TOO_MANY_VIP:
    return attic::runtime::fail(
        err, errLen,
        "attic.vip_order: sequence %" PRId64 " has %" PRId64
        " VIP tokens, more than num_vip = %" PRId64
        "; the results are not valid%s",
        a, b, c, suffix);
  case ATTIC_RT_BLOCK_COUNT: {
    std::string count = blockRow(a, false), list = blockRow(a, true);
    return attic::runtime::fail(
        err, errLen,
        "block lists: %s = %" PRId64 ", outside [0, %" PRId64
        "] (the capacity of %s); the results are not valid%s",
        count.c_str(), b, c, list.substr(0, list.find_first_of("[ ")).c_str(),
        suffix);
  }
  case ATTIC_RT_BLOCK_INDEX:
    return attic::runtime::fail(err, errLen,
                                "block lists: %s lists key block %" PRId64
                                ", outside [0, %" PRId64
                                "); the results are not valid%s",
                                blockRow(a, true).c_str(), b, c, suffix);
  case ATTIC_RT_BLOCK_SHAPE:
    if (c == 3)
      return attic::runtime::fail(err, errLen,
                                  "attic.block_mask: query_len = %" PRId64
                                  " and key_len = %" PRId64
                                  " must be >= 0; the lists are not valid%s",
                                  a, b, suffix);
    if (c == 0)
      return attic::runtime::fail(
          err, errLen,
          "block lists: the lists have %" PRId64
          " query blocks but ceil(Nq/block_q) = %" PRId64
          "; the results are not valid%s",
          a, b, suffix);
    return attic::runtime::fail(
        err, errLen,
        "block lists: the lists have %" PRId64 " %s rows but %s is %" PRId64
        " (they must have 1 or that many); the results are not valid%s",
        a, c == 1 ? "batch" : "head", c == 1 ? "B" : "Hq", b, suffix);
  case ATTIC_RT_BLOCK_ORDER:
    return attic::runtime::fail(
        err, errLen,
        "block lists: %s lists key block %" PRId64 " after key block %" PRId64
        " (each list must be strictly ascending: a block listed twice would "
        "count twice); the results are not valid%s",
        blockRow(a, true).c_str(), b, c, suffix);
  case ATTIC_RT_BLOCK_BOTH:
    return attic::runtime::fail(
        err, errLen,
        "block lists: %s lists key block %" PRId64
        " in kv_indices and in full_kv_indices (a block is in one list at "
        "most); the results are not valid%s",
        queryBlockRow(a).c_str(), b, suffix);
  case ATTIC_RT_CAPTURE_INDEX:
    return attic::runtime::fail(
        err, errLen,
        "modifier region: capture #%" PRId64 " is read at index %" PRId64
        " of dimension %" PRId64 ", outside [0, %" PRId64
        "); the results are not valid%s",
        a / 16, b, a % 16, c, suffix);
  case ATTIC_RT_TENSOR_INDEX:
  case ATTIC_RT_MEMREF_INDEX: {
    char where[48];
    atLine(a, where, sizeof(where));
    bool write = (a / 32) % 2;
    bool tensor = code == ATTIC_RT_TENSOR_INDEX;
    bool atomic = !tensor && write && (a / 16) % 2;
    const char *op = tensor   ? (write ? "tensor.insert" : "tensor.extract")
                     : atomic ? "memref.atomic_rmw"
                     : write  ? "memref.store"
                              : "memref.load";
    return attic::runtime::fail(
        err, errLen,
        "%s%s: index %" PRId64 " of dimension %" PRId64
        " is outside [0, %" PRId64 "); the results are not valid%s",
        op, where, b, a % (tensor || !write ? 32 : 16), c, suffix);
  }
  case ATTIC_RT_SLICE_BOUNDS: {
    char where[48];
    atLine(a, where, sizeof(where));
    return attic::runtime::fail(
        err, errLen,
        "%s%s: the slice of dimension %" PRId64 " at offset %" PRId64
        " (with its size and stride) reaches outside [0, %" PRId64
        "); the results are not valid%s",
        !((a / 32) % 2) ? "tensor.extract_slice"
        : (a / 16) % 2  ? "tensor.parallel_insert_slice"
                        : "tensor.insert_slice",
        where, a % ((a / 32) % 2 ? 16 : 32), b, c, suffix);
  }
  case ATTIC_RT_INT_DIVISION: {
    static const char *const ops[] = {
        "arith.divsi",      "arith.divui",     "arith.remsi",
        "arith.remui",      "arith.ceildivsi", "arith.ceildivui",
        "arith.floordivsi", "index.divs",      "index.divu",
        "index.rems",       "index.remu",      "index.ceildivs",
        "index.ceildivu",   "index.floordivs"};
    constexpr int64_t kinds = sizeof(ops) / sizeof(ops[0]);
    int64_t kind = ((a % 64) + 64) % 64;
    char where[48];
    atLine(a, where, sizeof(where));
    const char *name = kind < kinds ? ops[kind] : "an integer division";
    if (b == 0)
      return attic::runtime::fail(
          err, errLen, "%s%s: division by zero; the results are not valid%s",
          name, where, suffix);
    return attic::runtime::fail(
        err, errLen,
        "%s%s: %" PRId64 " / -1 overflows (the smallest integer of its type "
        "divided by -1); the results are not valid%s",
        name, where, c, suffix);
  }
  case ATTIC_RT_LOOP_STEP: {
    char where[48];
    atLine(a, where, sizeof(where));
    return attic::runtime::fail(
        err, errLen,
        "scf loop%s: the step %" PRId64 " of dimension %" PRId64
        " is not positive (the loop would never end; it ran no iteration); "
        "the results are not valid%s",
        where, b, ((a % 64) + 64) % 64, suffix);
  }
  case ATTIC_RT_DIM_INDEX: {
    char where[48];
    atLine(a, where, sizeof(where));
    bool memref = ((a % 64) + 64) % 64 == 1;
    return attic::runtime::fail(err, errLen,
                                "%s%s: dimension index %" PRId64
                                " is outside [0, %" PRId64
                                ") (the %s's rank); the results are "
                                "not valid%s",
                                memref ? "memref.dim" : "tensor.dim", where, b,
                                c, memref ? "memref" : "tensor", suffix);
  }
  case ATTIC_RT_LOOP_WRAP: {
    char where[48];
    atLine(a, where, sizeof(where));
    return attic::runtime::fail(
        err, errLen,
        "scf loop%s: the induction variable of dimension %" PRId64
        " would wrap around its type before reaching the upper bound %" PRId64
        " (step %" PRId64
        "; the loop would not end there: it ran no iteration); the results "
        "are not valid%s",
        where, ((a % 64) + 64) % 64, b, c, suffix);
  }
  case ATTIC_RT_CAST_SIZE: {
    char where[48];
    atLine(a, where, sizeof(where));
    int64_t low = ((a % 64) + 64) % 64;
    const char *name = low >= 32 ? "memref.cast" : "tensor.cast";
    // What differs: the rank (31), the offset (30), a stride (16 + d) or a
    // size (d).
    int64_t field = low % 32;
    char what[64];
    if (field == 31)
      std::snprintf(what, sizeof(what), "the operand's rank");
    else if (field == 30)
      std::snprintf(what, sizeof(what), "the operand's offset");
    else if (field >= 16)
      std::snprintf(what, sizeof(what),
                    "the stride of dimension %" PRId64 " of the operand",
                    field % 16);
    else
      std::snprintf(what, sizeof(what), "dimension %" PRId64 " of the operand",
                    field);
    return attic::runtime::fail(
        err, errLen,
        "%s%s: %s is %" PRId64 " at run time, the cast's type %s %" PRId64
        "; the results are not valid%s",
        name, where, what, b, field == 31 ? "has rank" : "says", c, suffix);
  }
  case ATTIC_RT_VCC_SCORES:
    return attic::runtime::fail(
        err, errLen,
        "attic.tree_select: sequence %" PRId64 ", level %" PRId64
        ": the score of candidate %" PRId64 " is NaN (the logits scale * q . "
        "key overflowed f32, or an input is NaN); the selected nodes are not "
        "valid%s",
        a, b, c, suffix);
  case ATTIC_RT_RESHAPE_SIZE: {
    char where[48];
    atLine(a, where, sizeof(where));
    int64_t field = ((a % 64) + 64) % 64;
    if (field >= 56 && field < 63)
      return attic::runtime::fail(
          err, errLen,
          "tensor.expand_shape%s: output size %" PRId64 " is %" PRId64
          " at run time, but the result type says %" PRId64
          "; the results are not valid%s",
          where, field - 56, b, c, suffix);
    if (field == 63)
      return attic::runtime::fail(
          err, errLen,
          "tensor.expand_shape%s: an output size from dimension 7 on is "
          "%" PRId64 " at run time, but the result type says %" PRId64
          "; the results are not valid%s",
          where, b, c, suffix);
    if (field >= 40)
      return attic::runtime::fail(
          err, errLen,
          "tensor.reshape%s: entry %" PRId64 " of the shape is %" PRId64
          " at run time, but the result type says %" PRId64
          "; the results are not valid%s",
          where, field - 40, b, c, suffix);
    if (field == 33 && c < 0)
      return attic::runtime::fail(
          err, errLen,
          "tensor.expand_shape%s: the operand has rank 0 (one element), but "
          "the output sizes are negative or their product overflows at run "
          "time; the results are not valid%s",
          where, suffix);
    if (field == 33)
      return attic::runtime::fail(
          err, errLen,
          "tensor.expand_shape%s: the operand has rank 0 (one element), but "
          "the output sizes multiply to %" PRId64
          " at run time; the results are not valid%s",
          where, c, suffix);
    if (field == 32 && c < 0)
      return attic::runtime::fail(
          err, errLen,
          "tensor.reshape%s: the operand has %" PRId64
          " elements at run time, but the shape's entries are negative or "
          "their product overflows; the results are not valid%s",
          where, b, suffix);
    if (field == 32)
      return attic::runtime::fail(
          err, errLen,
          "tensor.reshape%s: the operand has %" PRId64
          " elements at run time, but the shape's entries multiply to %" PRId64
          "; the results are not valid%s",
          where, b, c, suffix);
    // c < 0: a negative output size, or a product past int64_t.
    if (c < 0)
      return attic::runtime::fail(
          err, errLen,
          "tensor.expand_shape%s: group %" PRId64
          " of the operand has size %" PRId64
          " at run time, but its output sizes are negative or their product "
          "overflows; the results are not valid%s",
          where, ((a % 64) + 64) % 64, b, suffix);
    return attic::runtime::fail(
        err, errLen,
        "tensor.expand_shape%s: group %" PRId64
        " of the operand has size %" PRId64
        " at run time, but its output sizes multiply to %" PRId64
        "; the results are not valid%s",
        where, ((a % 64) + 64) % 64, b, c, suffix);
  }
  case ATTIC_RT_ALLOC_SIZE: {
    char where[48];
    atLine(a, where, sizeof(where));
    int64_t kind = ((a % 64) + 64) % 64;
    if (kind == 7)
      return attic::runtime::fail(
          err, errLen,
          "tensor.pad%s: dimension %" PRId64 " pads to %" PRId64
          " at run time, but the result type says otherwise; the results are "
          "not valid%s",
          where, b, c, suffix);
    if (kind == 5 || kind == 6)
      return attic::runtime::fail(
          err, errLen,
          "tensor.pad%s: the %s padding of dimension %" PRId64 " is %" PRId64
          " at run time (negative); the results are not valid%s",
          where, kind == 5 ? "low" : "high", b, c, suffix);
    static const char *const ops[] = {"tensor.empty", "tensor.splat",
                                      "tensor.generate", "memref.alloc",
                                      "bufferization.alloc_tensor"};
    const char *name = ops[std::min<int64_t>(kind, 4)];
    if (b >= 0)
      return attic::runtime::fail(err, errLen,
                                  "%s%s: the size of dimension %" PRId64
                                  " is %" PRId64
                                  " at run time; the results are not valid%s",
                                  name, where, b, c, suffix);
    return attic::runtime::fail(
        err, errLen,
        "%s%s: its sizes at run time take 2^63 bytes or more; the results "
        "are not valid%s",
        name, where, suffix);
  }
  case ATTIC_RT_OPERAND_SHAPE: {
    char where[48];
    atLine(a, where, sizeof(where));
    int64_t field = ((a % 64) + 64) % 64;
    if (field == 63)
      return attic::runtime::fail(
          err, errLen,
          "attention%s: the query has %" PRId64 " heads and the key and value "
          "%" PRId64 " at run time (Hq must be a positive multiple of Hkv); "
          "nothing was computed%s",
          where, b, c, suffix);
    static const char *const operands[] = {"query",    "key",      "value",
                                           "key_bias", "key_bias", "key_mask",
                                           "result",   "lse"};
    // Each operand's dims by name: what the size should have been.
    static const char *const dims[8][4] = {
        {"B", "Hq", "Nq", "D"},   {"B", "Hkv", "Nk", "D"},
        {"B", "Hkv", "Nk", "Dv"}, {"B", "Nk", "?", "?"},
        {"B", "Hq", "Nk", "?"},   {"B", "Nk", "?", "?"},
        {"B", "Hq", "Nq", "Dv"},  {"B", "Hq", "Nq", "?"}};
    int64_t operand = field / 8, d = std::min<int64_t>(field % 8, 3);
    return attic::runtime::fail(
        err, errLen,
        "attention%s: %s dimension %" PRId64 " is %" PRId64
        " at run time, but %s = %" PRId64 " (the operands' sizes do not "
        "agree); nothing was computed%s",
        where, operands[operand], d, b, dims[operand][d], c, suffix);
  }
  default:
    return attic::runtime::fail(
        err, errLen,
        "compiled code reported error code %d (%" PRId64 ", %" PRId64
        ", %" PRId64 ")%s",
        code, a, b, c, suffix);
  }
}

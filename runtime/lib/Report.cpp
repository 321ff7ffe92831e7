//===- Report.cpp - Errors reported by compiled code ----------------------===//
//
// A process-wide record of the first data-dependent error that compiled code
// reported (attic_rt_report_error), taken by the code that runs it
// (attic_rt_take_error). Compiled code may report from several threads.
//
//===----------------------------------------------------------------------===//

#include "Error.h"

#include <cinttypes>
#include <cstdio>
#include <mutex>

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
} // namespace

extern "C" void attic_rt_report_error(int32_t code, int64_t a, int64_t b,
                                      int64_t c) {
  Record &r = record();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.reports++ == 0) {
    r.code = code;
    r.a = a;
    r.b = b;
    r.c = c;
  }
}

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
    std::snprintf(suffix, sizeof(suffix), " (and %" PRId64 " more reports)",
                  more);
  switch (code) {
  case ATTIC_RT_TOO_MANY_VIP:
    return attic::runtime::fail(
        err, errLen,
        "attic.vip_order: sequence %" PRId64 " has %" PRId64
        " VIP tokens, more than num_vip = %" PRId64
        "; the results are not valid%s",
        a, b, c, suffix);
  case ATTIC_RT_BLOCK_COUNT:
    return attic::runtime::fail(
        err, errLen,
        "block lists: query block %" PRId64 " has a count of %" PRId64
        " key blocks, outside [0, %" PRId64
        "] (the list's capacity); the results are not valid%s",
        a, b, c, suffix);
  case ATTIC_RT_BLOCK_INDEX:
    return attic::runtime::fail(
        err, errLen,
        "block lists: query block %" PRId64 " lists key block %" PRId64
        ", outside [0, %" PRId64 "); the results are not valid%s",
        a, b, c, suffix);
  case ATTIC_RT_BLOCK_SHAPE:
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
        "block lists: query block %" PRId64 " lists key block %" PRId64
        " after key block %" PRId64
        " (each list must be strictly ascending: a block listed twice would "
        "count twice); the results are not valid%s",
        a, b, c, suffix);
  case ATTIC_RT_BLOCK_BOTH:
    return attic::runtime::fail(
        err, errLen,
        "block lists: query block %" PRId64 " lists key block %" PRId64
        " as partial and as full (a block is in one list at most); the "
        "results are not valid%s",
        a, b, suffix);
  case ATTIC_RT_CAPTURE_INDEX:
    return attic::runtime::fail(
        err, errLen,
        "modifier region: capture #%" PRId64 " is read at index %" PRId64
        " of dimension %" PRId64 ", outside [0, %" PRId64
        "); the results are not valid%s",
        a / 16, b, a % 16, c, suffix);
  default:
    return attic::runtime::fail(
        err, errLen,
        "compiled code reported error code %d (%" PRId64 ", %" PRId64
        ", %" PRId64 ")%s",
        code, a, b, c, suffix);
  }
}

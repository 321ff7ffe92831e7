//===- ReportTest.cpp - Errors reported by compiled code ------------------===//

#include "attic/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace {

TEST(Report, NothingReportedIsOk) {
  attic_rt_take_error(nullptr, 0); // start clean
  char err[256] = "untouched";
  EXPECT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_OK);
  EXPECT_STREQ(err, "untouched");
}

TEST(Report, FirstReportWinsAndIsTakenOnce) {
  attic_rt_take_error(nullptr, 0);
  attic_rt_report_error(ATTIC_RT_TOO_MANY_VIP, 3, 12, 8);
  attic_rt_report_error(ATTIC_RT_TOO_MANY_VIP, 5, 10, 8);
  char err[256];
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "attic.vip_order: sequence 3 has 12 VIP tokens, more than "
            "num_vip = 8; the results are not valid (and 1 more reports)");
  EXPECT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_OK);
}

TEST(Report, UnknownCodeAndTruncation) {
  attic_rt_take_error(nullptr, 0);
  attic_rt_report_error(77, 1, 2, 3);
  char err[256];
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err), "compiled code reported error code 77 (1, 2, 3)");
  attic_rt_report_error(ATTIC_RT_TOO_MANY_VIP, 0, 9, 8);
  char small[12];
  ASSERT_EQ(attic_rt_take_error(small, sizeof(small)), ATTIC_ERROR);
  EXPECT_EQ(std::string(small), "attic.vip_o");
}

TEST(Report, BlockListOrderAndOverlap) {
  char err[256];
  attic_rt_report_error(ATTIC_RT_BLOCK_ORDER, 3, 0, 0);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_STREQ(err, "block lists: query block 3 lists key block 0 after key "
                    "block 0 (each list must be strictly ascending: a block "
                    "listed twice would count twice); the results are not "
                    "valid");
  attic_rt_report_error(ATTIC_RT_BLOCK_BOTH, 4, 4, 0);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_STREQ(err, "block lists: query block 4 lists key block 4 as partial "
                    "and as full (a block is in one list at most); the "
                    "results are not valid");
}

TEST(Report, ConcurrentReportsAreCounted) {
  attic_rt_take_error(nullptr, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([] {
      for (int i = 0; i < 100; ++i)
        attic_rt_report_error(ATTIC_RT_TOO_MANY_VIP, 0, 9, 8);
    });
  for (std::thread &t : threads)
    t.join();
  char err[256];
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_NE(std::string(err).find("(and 399 more reports)"), std::string::npos)
      << err;
}

} // namespace

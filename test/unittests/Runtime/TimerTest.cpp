//===- TimerTest.cpp - Monotonic clock and median -------------------------===//

#include "attic/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

namespace {

TEST(Timer, MonotonicAndNanoseconds) {
  uint64_t start = attic_now_ns();
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  uint64_t end = attic_now_ns();
  EXPECT_GE(end - start, 5000000u);
  EXPECT_LT(end - start, 5000000000u);
  uint64_t previous = attic_now_ns();
  for (int i = 0; i < 1000; ++i) {
    uint64_t now = attic_now_ns();
    ASSERT_GE(now, previous);
    previous = now;
  }
}

TEST(Median, OddCountSortsInPlace) {
  double values[] = {5, 1, 4, 2, 3};
  EXPECT_EQ(attic_median(values, 5), 3.0);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(values[i], i + 1.0);
}

TEST(Median, EvenCountAveragesTheMiddle) {
  double values[] = {10, 2, 4, 1};
  EXPECT_EQ(attic_median(values, 4), 3.0);
  double two[] = {7, 8};
  EXPECT_EQ(attic_median(two, 2), 7.5);
  double one[] = {-1};
  EXPECT_EQ(attic_median(one, 1), -1.0);
}

TEST(Median, EmptyAndNaN) {
  EXPECT_TRUE(std::isnan(attic_median(nullptr, 0)));
  double values[] = {1};
  EXPECT_TRUE(std::isnan(attic_median(values, 0)));
  double withNaN[] = {NAN, 3, NAN, 1, 2};
  EXPECT_EQ(attic_median(withNaN, 5), 3.0); // [1, 2, 3, NaN, NaN]
  EXPECT_EQ(withNaN[0], 1.0);
  EXPECT_EQ(withNaN[2], 3.0);
  EXPECT_TRUE(std::isnan(withNaN[3]));
  EXPECT_TRUE(std::isnan(withNaN[4]));
}

} // namespace

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

TEST(Report, LeastReportWinsAndIsTakenOnce) {
  attic_rt_take_error(nullptr, 0);
  attic_rt_report_error(ATTIC_RT_TOO_MANY_VIP, 5, 10, 8);
  attic_rt_report_error(ATTIC_RT_TOO_MANY_VIP, 3, 12, 8);
  char err[256];
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "attic.vip_order: sequence 3 has 12 VIP tokens, more than "
            "num_vip = 8; the results are not valid (and 1 more report)");
  EXPECT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_OK);
}

TEST(Report, TensorIndexNamesTheOpAndItsLine) {
  attic_rt_take_error(nullptr, 0);
  char err[256];
  // a = line * 64 + 32 (insert) + dimension.
  attic_rt_report_error(ATTIC_RT_TENSOR_INDEX, 9 * 64 + 32 + 1, 5, 4);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err), "tensor.insert at line 9: index 5 of dimension "
                              "1 is outside [0, 4); the results are not valid");
  // Without a file location: line 0, no line in the message.
  attic_rt_report_error(ATTIC_RT_TENSOR_INDEX, 2, -1, 3);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err), "tensor.extract: index -1 of dimension 2 is "
                              "outside [0, 3); the results are not valid");
}

TEST(Report, MemrefIndexNamesTheOpAndItsLine) {
  attic_rt_take_error(nullptr, 0);
  char err[256];
  // a = line * 64 + 32 (store) + dimension.
  attic_rt_report_error(ATTIC_RT_MEMREF_INDEX, 4 * 64 + 32 + 2, 16, 16);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err), "memref.store at line 4: index 16 of dimension "
                              "2 is outside [0, 16); the results are not "
                              "valid");
  attic_rt_report_error(ATTIC_RT_MEMREF_INDEX, 4 * 64 + 32 + 16 + 1, 9, 8);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err), "memref.atomic_rmw at line 4: index 9 of "
                              "dimension 1 is outside [0, 8); the results are "
                              "not valid");
  attic_rt_report_error(ATTIC_RT_MEMREF_INDEX, 0, -3, 8);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err), "memref.load: index -3 of dimension 0 is "
                              "outside [0, 8); the results are not valid");
}

TEST(Report, IntegerDivisionNamesTheOpItsLineAndTheCase) {
  attic_rt_take_error(nullptr, 0);
  char err[256];
  // a = line * 64 + the op (3: remui; 4: ceildivsi), b = the divisor.
  attic_rt_report_error(ATTIC_RT_INT_DIVISION, 12 * 64 + 3, 0, 17);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err), "arith.remui at line 12: division by zero; the "
                              "results are not valid");
  attic_rt_report_error(ATTIC_RT_INT_DIVISION, 4, -1, -128);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "arith.ceildivsi: -128 / -1 overflows (the smallest integer of its "
            "type divided by -1); the results are not valid");
  // An op index past the table (no compiler emits it) is still a message.
  attic_rt_report_error(ATTIC_RT_INT_DIVISION, 2 * 64 + 40, 0, 1);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err), "an integer division at line 2: division by "
                              "zero; the results are not valid");
}

TEST(Report, LoopStepNamesTheLineDimensionAndStep) {
  attic_rt_take_error(nullptr, 0);
  char err[256];
  attic_rt_report_error(ATTIC_RT_LOOP_STEP, 7 * 64 + 1, -3, 0);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "scf loop at line 7: the step -3 of dimension 1 is not positive "
            "(the loop would never end; it ran no iteration); the results "
            "are not valid");
}

TEST(Report, LoopWrapNamesTheLineBoundAndStep) {
  attic_rt_take_error(nullptr, 0);
  char err[256];
  attic_rt_report_error(ATTIC_RT_LOOP_WRAP, 9 * 64 + 1, 125, 10);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "scf loop at line 9: the induction variable of dimension 1 would "
            "wrap around its type before reaching the upper bound 125 (step "
            "10; the loop would not end there: it ran no iteration); the "
            "results are not valid");
}

TEST(Report, CastSizeNamesTheLineDimensionAndSizes) {
  attic_rt_take_error(nullptr, 0);
  char err[256];
  attic_rt_report_error(ATTIC_RT_CAST_SIZE, 6 * 64 + 1, 2, 4);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "tensor.cast at line 6: dimension 1 of the operand is 2 at run "
            "time, the cast's type says 4; the results are not valid");
  attic_rt_report_error(ATTIC_RT_CAST_SIZE, 7 * 64 + 32 + 31, 3, 1);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "memref.cast at line 7: the operand's rank is 3 at run time, the "
            "cast's type has rank 1; the results are not valid");
  attic_rt_report_error(ATTIC_RT_CAST_SIZE, 8 * 64 + 32 + 16 + 1, 2, 1);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "memref.cast at line 8: the stride of dimension 1 of the operand "
            "is 2 at run time, the cast's type says 1; the results are not "
            "valid");
  attic_rt_report_error(ATTIC_RT_CAST_SIZE, 9 * 64 + 32 + 30, 5, 0);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "memref.cast at line 9: the operand's offset is 5 at run time, "
            "the cast's type says 0; the results are not valid");
}

TEST(Report, VccScoresNamesTheSequenceLevelAndCount) {
  attic_rt_take_error(nullptr, 0);
  char err[256];
  attic_rt_report_error(ATTIC_RT_VCC_SCORES, 1, 2, 5);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "attic.tree_select: sequence 1, level 2: the score of candidate 5 "
            "is NaN (the logits scale * q . key overflowed f32, or an input "
            "is NaN); the selected nodes are not valid");
}

TEST(Report, ReshapeSizeNamesTheLineGroupAndSizes) {
  attic_rt_take_error(nullptr, 0);
  char err[256];
  attic_rt_report_error(ATTIC_RT_RESHAPE_SIZE, 10 * 64 + 1, 5, 8);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "tensor.expand_shape at line 10: group 1 of the operand has size "
            "5 at run time, but its output sizes multiply to 8; the results "
            "are not valid");
  attic_rt_report_error(ATTIC_RT_RESHAPE_SIZE, 10 * 64, 8, -1);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "tensor.expand_shape at line 10: group 0 of the operand has size "
            "8 at run time, but its output sizes are negative or their "
            "product overflows; the results are not valid");
}

// A replaced op's report (slice, cast, expand_shape) is kept before the
// reports of the accesses to its replacement, whatever their codes.
TEST(Report, ReplacedOpsComeBeforeTheirConsequences) {
  attic_rt_take_error(nullptr, 0);
  char err[256];
  attic_rt_report_error(ATTIC_RT_TENSOR_INDEX, 17 * 64, 0, 0);
  attic_rt_report_error(ATTIC_RT_RESHAPE_SIZE, 16 * 64, 5, 8);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "tensor.expand_shape at line 16: group 0 of the operand has size "
            "5 at run time, but its output sizes multiply to 8; the results "
            "are not valid (and 1 more report)");
}

TEST(Report, DimIndexNamesTheLineIndexAndRank) {
  attic_rt_take_error(nullptr, 0);
  char err[256];
  attic_rt_report_error(ATTIC_RT_DIM_INDEX, 5 * 64, 7, 2);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "tensor.dim at line 5: dimension index 7 is outside [0, 2) (the "
            "tensor's rank); the results are not valid");
  attic_rt_report_error(ATTIC_RT_DIM_INDEX, 3 * 64 + 1, -1, 3);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "memref.dim at line 3: dimension index -1 is outside [0, 3) (the "
            "memref's rank); the results are not valid");
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

// The kept report does not depend on the order of the reports (threads
// report in any order): the least by code, then row, then details. A row
// in its flattened form (a < 0) orders by its row too.
TEST(Report, KeptReportIsTheLeastWhateverTheOrder) {
  attic_rt_take_error(nullptr, 0);
  const int64_t rows[][4] = {
      {ATTIC_RT_BLOCK_INDEX, 2, 7, 4},
      {ATTIC_RT_BLOCK_COUNT, 6, 9, 4},
      {ATTIC_RT_BLOCK_COUNT, 4, 9, 4},
      {ATTIC_RT_BLOCK_COUNT, 5, 9, 4}};
  std::string expected;
  for (int rotation = 0; rotation < 4; ++rotation) {
    for (int i = 0; i < 4; ++i) {
      const int64_t *r = rows[(i + rotation) % 4];
      attic_rt_report_error(int32_t(r[0]), r[1], r[2], r[3]);
    }
    char err[256];
    ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
    if (rotation == 0) {
      expected = err;
      EXPECT_NE(expected.find("kv_num_blocks[0, 0, 4]"), std::string::npos)
          << expected;
    }
    EXPECT_EQ(std::string(err), expected) << "rotation " << rotation;
  }
  // Flattened rows: a = -1 - (2 * flat + list); row 3 before row 8.
  attic_rt_report_error(ATTIC_RT_BLOCK_COUNT, -1 - 2 * 8, 9, 4);
  attic_rt_report_error(ATTIC_RT_BLOCK_COUNT, -1 - 2 * 3, 9, 4);
  char err[256];
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_NE(std::string(err).find("row 3 "), std::string::npos) << err;
}

TEST(Report, BlockListOrderAndOverlap) {
  char err[256];
  // Row (b, h, qb) = (0, 0, 3) of the full list.
  attic_rt_report_error(ATTIC_RT_BLOCK_ORDER, int64_t(1) << 60 | 3, 0, 0);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_STREQ(err, "block lists: full_kv_indices[0, 0, 3, :] lists key "
                    "block 0 after key block 0 (each list must be strictly "
                    "ascending: a block listed twice would count twice); the "
                    "results are not valid");
  attic_rt_report_error(ATTIC_RT_BLOCK_BOTH, 4, 4, 0);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_STREQ(err, "block lists: query block [0, 0, 4] lists key block 4 in "
                    "kv_indices and in full_kv_indices (a block is in one "
                    "list at most); the results are not valid");
}

TEST(Report, BlockListRowsNameBatchHeadAndQueryBlock) {
  char err[256];
  // b = 1, h = 3, qb = 0 of the partial list: a flattened index (7 with
  // H' = 4, nQB = 1) would have read as "query block 7".
  int64_t row = int64_t(1) << 40 | int64_t(3) << 20 | 0;
  attic_rt_report_error(ATTIC_RT_BLOCK_COUNT, row, 9, 8);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_STREQ(err, "block lists: kv_num_blocks[1, 3, 0] = 9, outside [0, 8] "
                    "(the capacity of kv_indices); the results are not valid");
  attic_rt_report_error(ATTIC_RT_BLOCK_INDEX,
                        int64_t(1) << 60 | int64_t(0xFFFFF) << 40 | 2, -1, 5);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_STREQ(err, "block lists: full_kv_indices[1048575, 0, 2, :] lists key "
                    "block -1, outside [0, 5); the results are not valid");
  // An index of 2^20 or more: the flattened row, -1 - (2 * flat + list).
  attic_rt_report_error(ATTIC_RT_BLOCK_COUNT, -1 - (2 * 3000000 + 1), -1, 4);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_STREQ(err, "block lists: full_kv_num_blocks row 3000000 (flattened "
                    "[B', H', nQB]) = -1, outside [0, 4] (the capacity of "
                    "full_kv_indices); the results are not valid");
  attic_rt_report_error(ATTIC_RT_BLOCK_BOTH, -1 - 2 * 5, 7, 0);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_STREQ(err, "block lists: query block row 5 (flattened [B', H', nQB]) "
                    "lists key block 7 in kv_indices and in full_kv_indices (a "
                    "block is in one list at most); the results are not valid");
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

TEST(Report, OperandShapeNamesTheOperandDimensionAndSizes) {
  attic_rt_take_error(nullptr, 0);
  char err[256];
  // Line 7, the value (2), dimension 2: 3 keys where the key has 8.
  attic_rt_report_error(ATTIC_RT_OPERAND_SHAPE, 7 * 64 + 2 * 8 + 2, 3, 8);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "attention at line 7: value dimension 2 is 3 at run time, but "
            "Nk = 8 (the operands' sizes do not agree); nothing was computed");
  // A [B,Hq,Nk] key bias (4), dimension 1.
  attic_rt_report_error(ATTIC_RT_OPERAND_SHAPE, 4 * 8 + 1, 2, 4);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "attention: key_bias dimension 1 is 2 at run time, but Hq = 4 "
            "(the operands' sizes do not agree); nothing was computed");
  // The heads (63).
  attic_rt_report_error(ATTIC_RT_OPERAND_SHAPE, 9 * 64 + 63, 4, 3);
  ASSERT_EQ(attic_rt_take_error(err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            "attention at line 9: the query has 4 heads and the key and "
            "value 3 at run time (Hq must be a positive multiple of Hkv); "
            "nothing was computed");
}

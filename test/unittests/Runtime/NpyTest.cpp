//===- NpyTest.cpp - NumPy .npy reader and writer -------------------------===//

#include "NpyFixtures.h"

#include "attic/runtime/Runtime.h"
#include "attic/runtime/Runtime.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using attic::runtime::Tensor;
using Bytes = std::vector<unsigned char>;

namespace {

class NpyTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = ::testing::TempDir() + "attic_npy_" + std::to_string(::getpid()) +
          "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ::mkdir(dir.c_str(), 0700);
  }
  void TearDown() override {
    for (const std::string &file : files)
      std::remove(file.c_str());
    ::rmdir(dir.c_str());
  }

  std::string path(const std::string &name) {
    std::string p = dir + "/" + name;
    files.push_back(p);
    return p;
  }

  std::string writeFile(const std::string &name, const Bytes &bytes) {
    std::string p = path(name);
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char *>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    return p;
  }

  static Bytes readFile(const std::string &p) {
    std::ifstream in(p, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in),
                 std::istreambuf_iterator<char>());
  }

  /// Loads and expects failure; returns the message.
  static std::string loadError(const std::string &p) {
    attic_tensor t;
    char err[512] = "(no message)";
    EXPECT_EQ(attic_npy_load(p.c_str(), &t, err, sizeof(err)), ATTIC_ERROR);
    EXPECT_EQ(t.data, nullptr);
    // A NULL error buffer must work as well.
    EXPECT_EQ(attic_npy_load(p.c_str(), &t, nullptr, 0), ATTIC_ERROR);
    EXPECT_EQ(std::strchr(err, '\n'), nullptr);
    return err;
  }

  std::string dir;
  std::vector<std::string> files;
};

template <size_t N> Bytes bytesOf(const unsigned char (&array)[N]) {
  return Bytes(array, array + N);
}

/// A version 1.0 file with the given header dict and data, padded like numpy.
Bytes makeNpy(const std::string &dict, const Bytes &data,
              unsigned char major = 1) {
  size_t lenBytes = major == 1 ? 2 : 4;
  std::string header = dict;
  while ((6 + 2 + lenBytes + header.size() + 1) % 64 != 0)
    header += ' ';
  header += '\n';
  Bytes out = {0x93, 'N', 'U', 'M', 'P', 'Y', major, 0};
  for (size_t i = 0; i < lenBytes; ++i)
    out.push_back(static_cast<unsigned char>(header.size() >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::string f32Dict(const std::string &shape) {
  return "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
}

//===----------------------------------------------------------------------===//
// Round trips
//===----------------------------------------------------------------------===//

TEST_F(NpyTest, RoundTripEveryDtypeAndShape) {
  const attic_dtype dtypes[] = {ATTIC_F32, ATTIC_F16, ATTIC_BF16, ATTIC_F64,
                                ATTIC_I1,  ATTIC_I8,  ATTIC_I32,  ATTIC_I64};
  const std::vector<std::vector<int64_t>> shapes = {
      {}, {1}, {7}, {2, 3}, {4, 0, 3}, {0}, {2, 1, 3, 1, 2, 1, 1, 2}};
  int counter = 0;
  for (attic_dtype dtype : dtypes) {
    for (const std::vector<int64_t> &shape : shapes) {
      Tensor t = Tensor::alloc(dtype, shape);
      ASSERT_TRUE(t.valid());
      double lo = dtype == ATTIC_I1 ? 0 : -50, hi = dtype == ATTIC_I1 ? 2 : 50;
      ASSERT_EQ(attic_fill_uniform(t.c(), 3, counter, lo, hi, nullptr, 0),
                ATTIC_OK);
      std::string p = path("rt" + std::to_string(counter++) + ".npy");
      std::string error;
      ASSERT_TRUE(t.save(p, &error)) << error;
      // Data starts at a multiple of 64 bytes.
      Bytes bytes = readFile(p);
      ASSERT_EQ((bytes.size() - t.nbytes()) % 64, 0u);

      Tensor loaded = Tensor::load(p, &error);
      ASSERT_TRUE(loaded.valid()) << error;
      EXPECT_EQ(loaded.dtype(), dtype);
      EXPECT_EQ(loaded.shape(), shape);
      ASSERT_EQ(loaded.nbytes(), t.nbytes());
      EXPECT_EQ(std::memcmp(loaded.data<void>(), t.data<void>(), t.nbytes()),
                0)
          << attic_dtype_name(dtype) << " rank " << shape.size();
    }
  }
}

TEST_F(NpyTest, SaveMatchesNumpyByteForByte) {
  using namespace npyfixtures;
  {
    Tensor t = Tensor::alloc(ATTIC_F32, {2, 3});
    for (int i = 0; i < 6; ++i)
      t.set(i, i);
    std::string p = path("f32.npy");
    ASSERT_TRUE(t.save(p));
    EXPECT_EQ(readFile(p), bytesOf(kF32_2x3));
  }
  {
    Tensor t = Tensor::alloc(ATTIC_F64, {});
    t.set(0, 3.5);
    std::string p = path("scalar.npy");
    ASSERT_TRUE(t.save(p));
    EXPECT_EQ(readFile(p), bytesOf(kF64Scalar));
  }
  {
    // Non-0/1 bytes are normalised on the way out.
    Tensor t = Tensor::alloc(ATTIC_I1, {3});
    t.data<unsigned char>()[0] = 7;
    t.data<unsigned char>()[2] = 1;
    std::string p = path("bool.npy");
    ASSERT_TRUE(t.save(p));
    EXPECT_EQ(readFile(p), bytesOf(kBool3));
  }
  {
    Tensor t = Tensor::alloc(ATTIC_F16, {2, 0, 3});
    std::string p = path("empty.npy");
    ASSERT_TRUE(t.save(p));
    EXPECT_EQ(readFile(p), bytesOf(kF16Empty2x0x3));
  }
  {
    Tensor t = Tensor::alloc(ATTIC_I8, {4});
    const double values[] = {-1, 2, -128, 127};
    for (int i = 0; i < 4; ++i)
      t.set(i, values[i]);
    std::string p = path("i8.npy");
    ASSERT_TRUE(t.save(p));
    EXPECT_EQ(readFile(p), bytesOf(kI8Values));
  }
  {
    Tensor t = Tensor::alloc(ATTIC_I64, {2, 1});
    t.data<int64_t>()[0] = -5;
    t.data<int64_t>()[1] = int64_t(1) << 40;
    std::string p = path("i64.npy");
    ASSERT_TRUE(t.save(p));
    EXPECT_EQ(readFile(p), bytesOf(kI64Values));
  }
  {
    // BF16 is stored as '<u2' bit patterns.
    Tensor t = Tensor::alloc(ATTIC_BF16, {2});
    t.set(0, 1.0);
    t.set(1, -2.5);
    std::string p = path("bf16.npy");
    ASSERT_TRUE(t.save(p));
    EXPECT_EQ(readFile(p), bytesOf(kU2Values));
  }
}

//===----------------------------------------------------------------------===//
// Files written by NumPy
//===----------------------------------------------------------------------===//

TEST_F(NpyTest, LoadsNumpyFiles) {
  using namespace npyfixtures;
  std::string error;
  Tensor f32 = Tensor::load(writeFile("a.npy", bytesOf(kF32_2x3)), &error);
  ASSERT_TRUE(f32.valid()) << error;
  EXPECT_EQ(f32.dtype(), ATTIC_F32);
  EXPECT_EQ(f32.shape(), (std::vector<int64_t>{2, 3}));
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(f32.get(i), i);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(f32.data<void>()) % 64, 0u);

  Tensor scalar = Tensor::load(writeFile("b.npy", bytesOf(kF64Scalar)));
  ASSERT_TRUE(scalar.valid());
  EXPECT_EQ(scalar.rank(), 0);
  EXPECT_EQ(scalar.numel(), 1);
  EXPECT_EQ(scalar.get(0), 3.5);

  Tensor boolean = Tensor::load(writeFile("c.npy", bytesOf(kBool3)));
  ASSERT_TRUE(boolean.valid());
  EXPECT_EQ(boolean.dtype(), ATTIC_I1);
  EXPECT_EQ(boolean.get(0), 1);
  EXPECT_EQ(boolean.get(1), 0);
  EXPECT_EQ(boolean.get(2), 1);

  Tensor empty = Tensor::load(writeFile("d.npy", bytesOf(kF16Empty2x0x3)));
  ASSERT_TRUE(empty.valid());
  EXPECT_EQ(empty.shape(), (std::vector<int64_t>{2, 0, 3}));
  EXPECT_EQ(empty.numel(), 0);

  Tensor f16 = Tensor::load(writeFile("e.npy", bytesOf(kF16Values)));
  ASSERT_TRUE(f16.valid());
  EXPECT_EQ(f16.dtype(), ATTIC_F16);
  EXPECT_EQ(f16.get(0), 1.0);
  EXPECT_EQ(f16.get(1), -2.5);
  EXPECT_EQ(f16.get(2), 65504.0);

  Tensor i8 = Tensor::load(writeFile("f.npy", bytesOf(kI8Values)));
  ASSERT_TRUE(i8.valid());
  EXPECT_EQ(i8.dtype(), ATTIC_I8);
  EXPECT_EQ(i8.get(2), -128);
  EXPECT_EQ(i8.get(3), 127);

  Tensor i64 = Tensor::load(writeFile("g.npy", bytesOf(kI64Values)));
  ASSERT_TRUE(i64.valid());
  EXPECT_EQ(i64.shape(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(i64.data<int64_t>()[1], int64_t(1) << 40);

  Tensor bf16 = Tensor::load(writeFile("h.npy", bytesOf(kU2Values)));
  ASSERT_TRUE(bf16.valid());
  EXPECT_EQ(bf16.dtype(), ATTIC_BF16);
  EXPECT_EQ(bf16.get(0), 1.0);
  EXPECT_EQ(bf16.get(1), -2.5);
}

TEST_F(NpyTest, LoadsFormatVersions2And3) {
  using namespace npyfixtures;
  for (const Bytes &bytes : {bytesOf(kI32V2), bytesOf(kI32V3)}) {
    std::string error;
    Tensor t = Tensor::load(writeFile("v.npy", bytes), &error);
    ASSERT_TRUE(t.valid()) << error;
    EXPECT_EQ(t.dtype(), ATTIC_I32);
    EXPECT_EQ(t.shape(), (std::vector<int64_t>{3}));
    EXPECT_EQ(t.get(2), 2);
  }
}

TEST_F(NpyTest, AcceptedHeaderVariants) {
  const Bytes data(12, 0);
  const std::string variants[] = {
      "{'descr': '=f4', 'fortran_order': False, 'shape': (3,), }",
      "{'shape': (3,), 'fortran_order': False, 'descr': '<f4'}",
      "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (3L,)}",
      "{ 'descr' : '<f4' ,'fortran_order':False,'shape':( 3 , ) , }",
  };
  for (const std::string &dict : variants) {
    std::string error;
    Tensor t = Tensor::load(writeFile("ok.npy", makeNpy(dict, data)), &error);
    ASSERT_TRUE(t.valid()) << dict << ": " << error;
    EXPECT_EQ(t.shape(), (std::vector<int64_t>{3}));
  }
  // One-byte types ignore the byte-order marker; bools other than 0 are 1.
  std::string error;
  Tensor b = Tensor::load(
      writeFile("b.npy",
                makeNpy("{'descr': '<b1', 'fortran_order': False, "
                        "'shape': (2,), }",
                        {0, 5})),
      &error);
  ASSERT_TRUE(b.valid()) << error;
  EXPECT_EQ(b.data<unsigned char>()[1], 1);
}

//===----------------------------------------------------------------------===//
// Malformed files
//===----------------------------------------------------------------------===//

TEST_F(NpyTest, MissingOrSpecialFiles) {
  std::string missing = dir + "/missing.npy";
  EXPECT_EQ(loadError(missing),
            missing + ": cannot open file: No such file or directory");
  EXPECT_EQ(loadError(dir), dir + ": not a regular file");
  // A FIFO must be refused, not block the reader forever.
  std::string fifo = path("fifo.npy");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(loadError(fifo), fifo + ": not a regular file");
}

TEST_F(NpyTest, BadMagicAndVersion) {
  std::string p = writeFile("empty.npy", {});
  EXPECT_EQ(loadError(p), p + ": not a NumPy .npy file (bad magic)");
  p = writeFile("text.npy", Bytes{'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o'});
  EXPECT_EQ(loadError(p), p + ": not a NumPy .npy file (bad magic)");
  p = writeFile("short.npy", Bytes{0x93, 'N', 'U', 'M'});
  EXPECT_EQ(loadError(p), p + ": not a NumPy .npy file (bad magic)");
  p = writeFile("pre.npy", Bytes{0x93, 'N', 'U', 'M', 'P', 'Y', 1});
  EXPECT_EQ(loadError(p), p + ": truncated: the file ends inside the preamble");
  p = writeFile("pre2.npy", Bytes{0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, 1});
  EXPECT_EQ(loadError(p), p + ": truncated: the file ends inside the preamble");

  Bytes bytes = bytesOf(npyfixtures::kF32_2x3);
  bytes[6] = 4;
  p = writeFile("v4.npy", bytes);
  EXPECT_EQ(loadError(p), p + ": unsupported .npy format version 4.0");
  bytes[6] = 1;
  bytes[7] = 1;
  p = writeFile("v11.npy", bytes);
  EXPECT_EQ(loadError(p), p + ": unsupported .npy format version 1.1");
}

TEST_F(NpyTest, HeaderLengthIsBounded) {
  // A version 2.0 length field claiming 2 GiB must be refused up front.
  Bytes bytes = {0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, 0, 0, 0, 0x80};
  std::string p = writeFile("huge.npy", bytes);
  EXPECT_EQ(loadError(p),
            p + ": header length 2147483648 exceeds the limit of 1048576 "
                "bytes");
  Bytes v1 = bytesOf(npyfixtures::kF32_2x3);
  v1.resize(60);
  p = writeFile("cut.npy", v1);
  EXPECT_EQ(loadError(p), p + ": truncated: header length is 118 bytes but "
                              "the file has 50 after the preamble");
}

TEST_F(NpyTest, TruncatedAndTrailingData) {
  Bytes bytes = bytesOf(npyfixtures::kF32_2x3);
  Bytes cut(bytes.begin(), bytes.end() - 4);
  std::string p = writeFile("cut.npy", cut);
  EXPECT_EQ(loadError(p),
            p + ": truncated: header says 24 bytes of data but the file has "
                "20");
  bytes.push_back(0);
  p = writeFile("long.npy", bytes);
  EXPECT_EQ(loadError(p),
            p + ": header says 24 bytes of data but the file has 25 "
                "(trailing bytes)");
  // A shape claiming a terabyte against a tiny file fails without trying to
  // allocate it.
  p = writeFile("tb.npy", makeNpy(f32Dict("(1099511627776,)"), Bytes(8)));
  EXPECT_EQ(loadError(p), p + ": truncated: header says 4398046511104 bytes "
                              "of data but the file has 8");
  p = writeFile("ovf.npy",
                makeNpy(f32Dict("(4611686018427387904, 4611686018427387904)"),
                        Bytes(8)));
  EXPECT_EQ(loadError(p), p + ": shape is too large");
}

TEST_F(NpyTest, UnsupportedDtypesAndOrder) {
  using namespace npyfixtures;
  std::string p = writeFile("be.npy", bytesOf(kBigEndianF4));
  EXPECT_EQ(loadError(p), p + ": big-endian dtype '>f4' is not supported "
                              "(save it as little-endian)");
  p = writeFile("fortran.npy", bytesOf(kFortran2x2));
  EXPECT_EQ(loadError(p), p + ": Fortran-order arrays are not supported");
  const char *descrs[] = {"<f16", "<c8", "|u1", "<u4", "<U3", "|O", "", "f4",
                          "|f4"};
  for (const char *descr : descrs) {
    p = writeFile("dt.npy",
                  makeNpy(std::string("{'descr': '") + descr +
                              "', 'fortran_order': False, 'shape': (1,), }",
                          Bytes(8)));
    EXPECT_EQ(loadError(p),
              p + ": dtype '" + descr + "' is not supported");
  }
}

TEST_F(NpyTest, MalformedHeaders) {
  struct Case {
    std::string dict;
    std::string message;
  } cases[] = {
      {"", "expected '{'"},
      {"[]", "expected '{'"},
      {"{'descr': '<f4', 'fortran_order': False}", "missing key 'shape'"},
      {"{'shape': (1,), 'fortran_order': False}", "missing key 'descr'"},
      {"{'descr': '<f4', 'shape': (1,)}", "missing key 'fortran_order'"},
      {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, "
       "'shape': (1,)}",
       "duplicate key 'descr'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}",
       "unexpected key 'x'"},
      {f32Dict("(-1,)"), "'shape' entry -1 is negative"},
      {f32Dict("(2, -3)"), "'shape' entry -3 is negative"},
      {f32Dict("(1)"), "'shape' must be a tuple"},
      {f32Dict("[1]"), "'shape' must be a tuple"},
      {f32Dict("(1 2)"), "expected ',' or ')' in 'shape'"},
      {f32Dict("(1,,)"), "expected an integer in 'shape'"},
      {f32Dict("(a,)"), "expected an integer in 'shape'"},
      {f32Dict("(99999999999999999999,)"), "'shape' entry is too large"},
      {f32Dict("(1, 1, 1, 1, 1, 1, 1, 1, 1)"),
       "'shape' has more than 8 dimensions"},
      {"{'descr': '<f4', 'fortran_order': 0, 'shape': (1,)}",
       "'fortran_order' must be True or False"},
      {"{'descr': <f4, 'fortran_order': False, 'shape': (1,)}",
       "expected a quoted string for 'descr'"},
      {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}",
       "structured dtypes are not supported"},
      {"{'descr': '<f4\\n', 'fortran_order': False, 'shape': (1,)}",
       "unsupported character in 'descr'"},
      {"{'descr': '<f4", "unterminated string in 'descr'"},
      {"{'descr' '<f4'}", "expected ':' after 'descr'"},
      {"{'descr': '<f4' 'fortran_order': False}",
       "expected ',' or '}' after 'descr'"},
      {f32Dict("(1,)") + " x", "unexpected text after the dictionary"},
      {f32Dict("(1,)") + "}", "unexpected text after the dictionary"},
      {"{'descr': '" + std::string(40, 'f') + "'}", "'descr' is too long"},
  };
  for (const Case &c : cases) {
    std::string p = writeFile("bad.npy", makeNpy(c.dict, Bytes(4)));
    EXPECT_EQ(loadError(p), p + ": malformed header: " + c.message) << c.dict;
  }
  // A NUL byte inside the header is not text.
  Bytes bytes = bytesOf(npyfixtures::kF32_2x3);
  bytes[20] = 0;
  std::string p = writeFile("nul.npy", bytes);
  EXPECT_NE(loadError(p).find(": malformed header: "), std::string::npos);
}

TEST_F(NpyTest, NoCrashOnMutatedOrTruncatedFiles) {
  // Every prefix of a valid file is an error; every single-byte mutation of
  // the preamble and header is either rejected or loads a sane tensor.
  Bytes valid = bytesOf(npyfixtures::kF32_2x3);
  std::string p = path("mut.npy");
  for (size_t len = 0; len < valid.size(); ++len) {
    std::ofstream(p, std::ios::binary)
        .write(reinterpret_cast<const char *>(valid.data()),
               static_cast<std::streamsize>(len));
    attic_tensor t;
    ASSERT_EQ(attic_npy_load(p.c_str(), &t, nullptr, 0), ATTIC_ERROR) << len;
  }
  const unsigned char replacements[] = {0x00, 0xFF, '\'', ',', '(', ')',
                                        '9',  '-',  ' ',  '}', 0x80};
  for (size_t pos = 0; pos < 128; ++pos) {
    for (unsigned char r : replacements) {
      Bytes bytes = valid;
      bytes[pos] = r;
      std::ofstream(p, std::ios::binary)
          .write(reinterpret_cast<const char *>(bytes.data()),
                 static_cast<std::streamsize>(bytes.size()));
      attic_tensor t;
      char err[256];
      if (attic_npy_load(p.c_str(), &t, err, sizeof(err)) == ATTIC_OK) {
        EXPECT_LE(t.nbytes, 24u);
        attic_tensor_free(&t);
      }
    }
  }
}

TEST_F(NpyTest, SaveErrors) {
  Tensor t = Tensor::alloc(ATTIC_F32, {2});
  char err[512];
  std::string p = dir + "/no/such/dir/x.npy";
  EXPECT_EQ(attic_npy_save(p.c_str(), t.c(), err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            p + ": cannot open file for writing: No such file or directory");

  attic_tensor bad = *t.c();
  bad.nbytes = 4;
  p = path("bad.npy");
  EXPECT_EQ(attic_npy_save(p.c_str(), &bad, err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(std::string(err),
            p + ": tensor holds 4 bytes but its shape needs 8");
  bad = *t.c();
  bad.rank = 9;
  EXPECT_EQ(attic_npy_save(p.c_str(), &bad, nullptr, 0), ATTIC_ERROR);
  EXPECT_EQ(attic_npy_save(p.c_str(), nullptr, err, sizeof(err)),
            ATTIC_ERROR);
  EXPECT_EQ(attic_npy_save(nullptr, t.c(), err, sizeof(err)), ATTIC_ERROR);
  EXPECT_EQ(attic_npy_load(nullptr, nullptr, err, sizeof(err)), ATTIC_ERROR);
}

} // namespace

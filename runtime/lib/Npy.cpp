//===- Npy.cpp - NumPy .npy reader and writer -----------------------------===//
//
// Format reference: numpy/lib/format.py. The reader treats every file as
// untrusted: the header is bounded and parsed strictly, and the data size it
// implies is checked against the file size before anything is allocated.
//
//===----------------------------------------------------------------------===//

#include "Error.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the .npy code assumes a little-endian host ('=' means '<')");

using namespace attic::runtime;

static constexpr char kMagic[] = "\x93NUMPY";
static constexpr size_t kMagicLen = 6;
/// numpy itself refuses headers above 10 KiB by default; 1 MiB leaves room
/// while keeping a hostile length field from costing real memory.
static constexpr uint32_t kMaxHeaderLen = 1u << 20;
static constexpr size_t kArrayAlign = 64;
/// numpy pads the header so the first dimension can grow in place to this
/// many digits; we mirror it so saved files are byte-identical to numpy's.
static constexpr size_t kGrowthAxisMaxDigits = 21;

namespace {

struct NpyHeader {
  char descr[32] = {0};
  bool fortranOrder = false;
  int32_t rank = 0;
  int64_t shape[ATTIC_MAX_RANK] = {0};
};

/// Strict parser for the header's Python dict literal, e.g.
///   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
/// Accepts exactly the three keys, in any order, each once; single- or
/// double-quoted strings without escapes; a trailing comma; whitespace.
class HeaderParser {
public:
  HeaderParser(const char *begin, const char *end) : cur(begin), end(end) {}

  /// On failure returns false with a description in error().
  bool parse(NpyHeader &header);
  const char *error() const { return message; }

private:
  bool failWith(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
  void skipSpace();
  bool consume(char c);
  bool parseString(char *buf, size_t len, const char *what);
  bool parseBool(bool &value);
  bool parseInt(int64_t &value);
  bool parseShape(NpyHeader &header);

  const char *cur;
  const char *end;
  char message[160] = {0};
};

} // namespace

bool HeaderParser::failWith(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(message, sizeof(message), fmt, args);
  va_end(args);
  return false;
}

void HeaderParser::skipSpace() {
  while (cur != end && (*cur == ' ' || *cur == '\t' || *cur == '\n' ||
                        *cur == '\r'))
    ++cur;
}

bool HeaderParser::consume(char c) {
  skipSpace();
  if (cur == end || *cur != c)
    return false;
  ++cur;
  return true;
}

bool HeaderParser::parseString(char *buf, size_t len, const char *what) {
  skipSpace();
  if (cur == end || (*cur != '\'' && *cur != '"'))
    return failWith("expected a quoted string for %s", what);
  char quote = *cur++;
  const char *close =
      static_cast<const char *>(std::memchr(cur, quote, end - cur));
  if (!close)
    return failWith("unterminated string in %s", what);
  if (static_cast<size_t>(close - cur) >= len)
    return failWith("%s is too long", what);
  for (const char *c = cur; c != close; ++c) {
    unsigned char u = static_cast<unsigned char>(*c);
    if (u == '\\' || u < 0x20 || u >= 0x7F)
      return failWith("unsupported character in %s", what);
  }
  size_t n = static_cast<size_t>(close - cur);
  std::memcpy(buf, cur, n);
  buf[n] = '\0';
  cur = close + 1;
  return true;
}

bool HeaderParser::parseBool(bool &value) {
  skipSpace();
  auto match = [&](const char *word) {
    size_t len = std::strlen(word);
    if (static_cast<size_t>(end - cur) < len ||
        std::strncmp(cur, word, len) != 0)
      return false;
    cur += len;
    return true;
  };
  if (match("True")) {
    value = true;
    return true;
  }
  if (match("False")) {
    value = false;
    return true;
  }
  return failWith("'fortran_order' must be True or False");
}

bool HeaderParser::parseInt(int64_t &value) {
  skipSpace();
  bool negative = cur != end && *cur == '-';
  if (negative)
    ++cur;
  if (cur == end || *cur < '0' || *cur > '9')
    return failWith("expected an integer in 'shape'");
  uint64_t magnitude = 0;
  for (; cur != end && *cur >= '0' && *cur <= '9'; ++cur) {
    uint64_t digit = static_cast<uint64_t>(*cur - '0');
    if (magnitude > (static_cast<uint64_t>(INT64_MAX) - digit) / 10)
      return failWith("'shape' entry is too large");
    magnitude = magnitude * 10 + digit;
  }
  // Python 2 era files may spell longs as "3L".
  if (cur != end && *cur == 'L')
    ++cur;
  if (negative && magnitude != 0)
    return failWith("'shape' entry -%" PRIu64 " is negative", magnitude);
  value = static_cast<int64_t>(magnitude);
  return true;
}

bool HeaderParser::parseShape(NpyHeader &header) {
  if (!consume('('))
    return failWith("'shape' must be a tuple");
  header.rank = 0;
  if (consume(')'))
    return true;
  while (true) {
    int64_t dim = 0;
    if (!parseInt(dim))
      return false;
    if (header.rank == ATTIC_MAX_RANK)
      return failWith("'shape' has more than %d dimensions", ATTIC_MAX_RANK);
    header.shape[header.rank++] = dim;
    bool comma = consume(',');
    if (consume(')')) {
      // "(3)" is an int in Python, not a tuple.
      if (header.rank == 1 && !comma)
        return failWith("'shape' must be a tuple");
      return true;
    }
    if (!comma)
      return failWith("expected ',' or ')' in 'shape'");
  }
}

bool HeaderParser::parse(NpyHeader &header) {
  if (!consume('{'))
    return failWith("expected '{'");
  bool seenDescr = false, seenFortran = false, seenShape = false;
  while (!consume('}')) {
    char key[32];
    if (!parseString(key, sizeof(key), "a key"))
      return false;
    if (!consume(':'))
      return failWith("expected ':' after '%s'", key);
    bool *seen;
    if (std::strcmp(key, "descr") == 0) {
      seen = &seenDescr;
      skipSpace();
      if (cur != end && (*cur == '[' || *cur == '{'))
        return failWith("structured dtypes are not supported");
      if (!parseString(header.descr, sizeof(header.descr), "'descr'"))
        return false;
    } else if (std::strcmp(key, "fortran_order") == 0) {
      seen = &seenFortran;
      if (!parseBool(header.fortranOrder))
        return false;
    } else if (std::strcmp(key, "shape") == 0) {
      seen = &seenShape;
      if (!parseShape(header))
        return false;
    } else {
      return failWith("unexpected key '%s'", key);
    }
    if (*seen)
      return failWith("duplicate key '%s'", key);
    *seen = true;
    if (consume(','))
      continue;
    if (!consume('}'))
      return failWith("expected ',' or '}' after '%s'", key);
    break;
  }
  if (!seenDescr)
    return failWith("missing key 'descr'");
  if (!seenFortran)
    return failWith("missing key 'fortran_order'");
  if (!seenShape)
    return failWith("missing key 'shape'");
  skipSpace();
  if (cur != end)
    return failWith("unexpected text after the dictionary");
  return true;
}

//===----------------------------------------------------------------------===//
// dtype mapping
//===----------------------------------------------------------------------===//

/// Maps a descr to a dtype; on failure writes why into `why`.
static bool dtypeFromDescr(const char *descr, attic_dtype &dtype, char *why,
                           size_t whyLen) {
  static const struct {
    const char *code;
    attic_dtype dtype;
  } kCodes[] = {
      {"f4", ATTIC_F32}, {"f2", ATTIC_F16}, {"f8", ATTIC_F64},
      {"b1", ATTIC_I1},  {"i1", ATTIC_I8},  {"i4", ATTIC_I32},
      {"i8", ATTIC_I64}, {"u2", ATTIC_BF16},
  };
  char order = descr[0];
  const char *code = descr + 1;
  if (order != '<' && order != '=' && order != '|' && order != '>') {
    std::snprintf(why, whyLen, "dtype '%s' is not supported", descr);
    return false;
  }
  for (const auto &entry : kCodes) {
    if (std::strcmp(code, entry.code) != 0)
      continue;
    bool oneByte = attic_dtype_size(entry.dtype) == 1;
    // Byte order is meaningless for one-byte types, so any marker will do.
    if (oneByte || order == '<' || order == '=') {
      dtype = entry.dtype;
      return true;
    }
    if (order == '>')
      std::snprintf(why, whyLen,
                    "big-endian dtype '%s' is not supported (save it as "
                    "little-endian)",
                    descr);
    else
      std::snprintf(why, whyLen, "dtype '%s' is not supported", descr);
    return false;
  }
  std::snprintf(why, whyLen, "dtype '%s' is not supported", descr);
  return false;
}

static const char *descrFor(attic_dtype dtype) {
  switch (dtype) {
  case ATTIC_F32:
    return "<f4";
  case ATTIC_F16:
    return "<f2";
  case ATTIC_BF16:
    return "<u2";
  case ATTIC_F64:
    return "<f8";
  case ATTIC_I1:
    return "|b1";
  case ATTIC_I8:
    return "|i1";
  case ATTIC_I32:
    return "<i4";
  case ATTIC_I64:
    return "<i8";
  case ATTIC_DTYPE_RANGE_:
    break;
  }
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

namespace {
/// Closes a file descriptor on scope exit.
class FileCloser {
public:
  explicit FileCloser(int fd) : fd(fd) {}
  ~FileCloser() { ::close(fd); }
  FileCloser(const FileCloser &) = delete;
  FileCloser &operator=(const FileCloser &) = delete;

private:
  int fd;
};
} // namespace

/// Reads exactly len bytes unless the file ends or fails first; returns the
/// number read, or -1 with errno set.
static ssize_t readFully(int fd, void *buf, size_t len) {
  size_t done = 0;
  while (done < len) {
    ssize_t n = ::read(fd, static_cast<char *>(buf) + done, len - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return -1;
    if (n == 0)
      break;
    done += static_cast<size_t>(n);
  }
  return static_cast<ssize_t>(done);
}

static uint32_t readLE(const unsigned char *p, size_t len) {
  uint32_t value = 0;
  for (size_t i = 0; i < len; ++i)
    value |= static_cast<uint32_t>(p[i]) << (8 * i);
  return value;
}

extern "C" attic_status attic_npy_load(const char *path, attic_tensor *out,
                                       char *err, size_t errLen) {
  if (!out)
    return fail(err, errLen, "attic_npy_load: output tensor is NULL");
  std::memset(out, 0, sizeof(*out));
  if (!path)
    return fail(err, errLen, "attic_npy_load: path is NULL");

  // O_NONBLOCK: opening a FIFO must not hang; regular files ignore it.
  int fd = ::open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return fail(err, errLen, "%s: cannot open file: %s", path,
                std::strerror(errno));
  FileCloser closer(fd);
  struct stat st;
  if (::fstat(fd, &st) != 0)
    return fail(err, errLen, "%s: cannot stat file: %s", path,
                std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return fail(err, errLen, "%s: not a regular file", path);
  uint64_t fileSize = static_cast<uint64_t>(st.st_size);

  // Preamble: magic, major, minor, then a 2-byte (v1) or 4-byte (v2, v3)
  // little-endian header length.
  unsigned char preamble[12];
  ssize_t got = readFully(fd, preamble, sizeof(preamble));
  if (got < 0)
    return fail(err, errLen, "%s: cannot read file: %s", path,
                std::strerror(errno));
  if (static_cast<size_t>(got) < kMagicLen ||
      std::memcmp(preamble, kMagic, kMagicLen) != 0)
    return fail(err, errLen, "%s: not a NumPy .npy file (bad magic)", path);
  if (got < 8)
    return fail(err, errLen, "%s: truncated: the file ends inside the preamble",
                path);
  unsigned major = preamble[6], minor = preamble[7];
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    return fail(err, errLen, "%s: unsupported .npy format version %u.%u", path,
                major, minor);
  size_t lenBytes = major == 1 ? 2 : 4;
  size_t preambleLen = 8 + lenBytes;
  if (static_cast<size_t>(got) < preambleLen)
    return fail(err, errLen, "%s: truncated: the file ends inside the preamble",
                path);
  uint32_t headerLen = readLE(preamble + 8, lenBytes);
  if (headerLen > kMaxHeaderLen)
    return fail(err, errLen,
                "%s: header length %" PRIu32 " exceeds the limit of %" PRIu32
                " bytes",
                path, headerLen, kMaxHeaderLen);
  if (headerLen > fileSize - preambleLen)
    return fail(err, errLen,
                "%s: truncated: header length is %" PRIu32
                " bytes but the file has %" PRIu64 " after the preamble",
                path, headerLen, fileSize - preambleLen);

  // Any preamble bytes read past the length field belong to the header.
  std::unique_ptr<char[]> headerStorage(new (std::nothrow)
                                            char[headerLen + 1]);
  char *headerText = headerStorage.get();
  if (!headerText)
    return fail(err, errLen, "%s: out of memory reading the header", path);
  size_t extra = static_cast<size_t>(got) - preambleLen;
  if (extra > headerLen)
    extra = headerLen;
  std::memcpy(headerText, preamble + preambleLen, extra);
  got = readFully(fd, headerText + extra, headerLen - extra);
  if (got < 0)
    return fail(err, errLen, "%s: cannot read file: %s", path,
                std::strerror(errno));
  if (static_cast<size_t>(got) != headerLen - extra)
    return fail(err, errLen, "%s: truncated: the file ends inside the header",
                path);
  headerText[headerLen] = '\0';

  NpyHeader header;
  HeaderParser parser(headerText, headerText + headerLen);
  if (!parser.parse(header))
    return fail(err, errLen, "%s: malformed header: %s", path, parser.error());
  char why[128];
  attic_dtype dtype;
  if (!dtypeFromDescr(header.descr, dtype, why, sizeof(why)))
    return fail(err, errLen, "%s: %s", path, why);
  if (header.fortranOrder)
    return fail(err, errLen, "%s: Fortran-order arrays are not supported",
                path);

  // Compute the data size without overflow, then hold it against the file
  // before allocating anything of that size.
  uint64_t dataBytes = attic_dtype_size(dtype);
  for (int32_t i = 0; i < header.rank; ++i) {
    uint64_t dim = static_cast<uint64_t>(header.shape[i]);
    if (dim != 0 && dataBytes > static_cast<uint64_t>(INT64_MAX) / dim)
      return fail(err, errLen, "%s: shape is too large", path);
    dataBytes *= dim;
  }
  uint64_t dataOffset = preambleLen + headerLen;
  uint64_t available = fileSize - dataOffset;
  if (dataBytes > available)
    return fail(err, errLen,
                "%s: truncated: header says %" PRIu64
                " bytes of data but the file has %" PRIu64,
                path, dataBytes, available);
  if (dataBytes < available)
    return fail(err, errLen,
                "%s: header says %" PRIu64 " bytes of data but the file has %"
                PRIu64 " (trailing bytes)",
                path, dataBytes, available);

  attic_tensor t;
  char allocErr[160];
  if (attic_tensor_alloc(&t, dtype, header.rank, header.shape, allocErr,
                         sizeof(allocErr)) != ATTIC_OK)
    return fail(err, errLen, "%s: %s", path, allocErr);
  got = readFully(fd, t.data, t.nbytes);
  if (got < 0 || static_cast<size_t>(got) != t.nbytes) {
    int savedErrno = errno;
    attic_tensor_free(&t);
    if (got < 0)
      return fail(err, errLen, "%s: cannot read file: %s", path,
                  std::strerror(savedErrno));
    return fail(err, errLen, "%s: truncated: the file shrank while reading",
                path);
  }
  // numpy bools are bytes; anything non-zero means true.
  if (dtype == ATTIC_I1) {
    auto *bytes = static_cast<unsigned char *>(t.data);
    for (size_t i = 0; i < t.nbytes; ++i)
      bytes[i] = bytes[i] != 0;
  }
  *out = t;
  return ATTIC_OK;
}

//===----------------------------------------------------------------------===//
// Saving
//===----------------------------------------------------------------------===//

/// Builds the version 1.0 preamble and header exactly as numpy.save does;
/// returns its length.
static size_t buildHeader(const attic_tensor *t, char *buf, size_t len) {
  char dict[384];
  int n = std::snprintf(dict, sizeof(dict),
                        "{'descr': '%s', 'fortran_order': False, 'shape': (",
                        descrFor(t->dtype));
  for (int32_t i = 0; i < t->rank; ++i)
    n += std::snprintf(dict + n, sizeof(dict) - n, i == 0 ? "%lld" : ", %lld",
                       static_cast<long long>(t->shape[i]));
  n += std::snprintf(dict + n, sizeof(dict) - n, "%s), }",
                     t->rank == 1 ? "," : "");
  size_t dictLen = static_cast<size_t>(n);
  if (t->rank > 0) {
    size_t digits = static_cast<size_t>(std::snprintf(
        nullptr, 0, "%lld", static_cast<long long>(t->shape[0])));
    size_t growth = kGrowthAxisMaxDigits - digits;
    std::memset(dict + dictLen, ' ', growth);
    dictLen += growth;
  }
  // +1 for the final '\n'; numpy pads with a full block when already aligned.
  size_t unpadded = kMagicLen + 2 + 2 + dictLen + 1;
  size_t padding = kArrayAlign - unpadded % kArrayAlign;
  size_t headerLen = dictLen + padding + 1;
  size_t total = kMagicLen + 4 + headerLen;
  if (total > len)
    return 0;
  std::memcpy(buf, kMagic, kMagicLen);
  buf[6] = 1;
  buf[7] = 0;
  buf[8] = static_cast<char>(headerLen & 0xFF);
  buf[9] = static_cast<char>(headerLen >> 8);
  std::memcpy(buf + 10, dict, dictLen);
  std::memset(buf + 10 + dictLen, ' ', padding);
  buf[total - 1] = '\n';
  return total;
}

/// Whether `path` is an existing regular file that this process maps (a
/// library it runs: the AOT library, libattic_rt.so, libc, ...): writing
/// it would truncate code in use, and the process would die of SIGBUS.
static bool mappedInThisProcess(const char *path) {
  struct stat st;
  if (::stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return false;
  FILE *maps = std::fopen("/proc/self/maps", "r");
  if (!maps)
    return false;
  char line[4096];
  bool found = false;
  while (!found && std::fgets(line, sizeof(line), maps)) {
    unsigned devMajor, devMinor;
    unsigned long long inode;
    if (std::sscanf(line, "%*s %*s %*s %x:%x %llu", &devMajor, &devMinor,
                    &inode) == 3)
      found = inode == static_cast<unsigned long long>(st.st_ino) &&
              devMajor == major(st.st_dev) && devMinor == minor(st.st_dev);
  }
  std::fclose(maps);
  return found;
}

/// Whether `path` itself (not a symbolic link to it) is the regular file
/// `file` describes.
static bool pathIsFile(const char *path, const struct stat &file) {
  struct stat now;
  return lstat(path, &now) == 0 && S_ISREG(now.st_mode) &&
         now.st_dev == file.st_dev && now.st_ino == file.st_ino;
}

extern "C" attic_status attic_npy_save(const char *path, const attic_tensor *t,
                                       char *err, size_t errLen) {
  if (!path)
    return fail(err, errLen, "attic_npy_save: path is NULL");
  std::string what = std::string(path) + ": tensor";
  if (attic_tensor_check(t, what.c_str(), err, errLen) != ATTIC_OK)
    return ATTIC_ERROR;
  // Exactly its shape's bytes: the file's data is nbytes long.
  size_t need =
      static_cast<size_t>(attic_tensor_numel(t)) * attic_dtype_size(t->dtype);
  if (t->nbytes != need)
    return fail(err, errLen,
                "%s: tensor holds %zu bytes but its shape needs %zu", path,
                t->nbytes, need);

  char header[512];
  size_t headerLen = buildHeader(t, header, sizeof(header));
  if (headerLen == 0)
    return fail(err, errLen, "%s: header does not fit", path);

  if (mappedInThisProcess(path))
    return fail(err, errLen,
                "%s: is a library this process runs, refusing to overwrite it",
                path);
  FILE *file = std::fopen(path, "wb");
  if (!file)
    return fail(err, errLen, "%s: cannot open file for writing: %s", path,
                std::strerror(errno));
  // Only the regular file written is removed when the write fails: a
  // device such as /dev/full was deleted (a 2026-11-30 audit), and a
  // symbolic link lost while its target stayed truncated.
  // The path itself (not a symbolic link to it) must be that file.
  struct stat st;
  bool regular = fstat(fileno(file), &st) == 0 && S_ISREG(st.st_mode) &&
                 pathIsFile(path, st);
  bool ok = std::fwrite(header, 1, headerLen, file) == headerLen;
  if (ok && t->dtype == ATTIC_I1) {
    // Normalise bools to 0/1 as numpy expects, a chunk at a time.
    const auto *src = static_cast<const unsigned char *>(t->data);
    unsigned char chunk[4096];
    for (size_t done = 0; ok && done < t->nbytes; done += sizeof(chunk)) {
      size_t n = std::min(sizeof(chunk), t->nbytes - done);
      for (size_t i = 0; i < n; ++i)
        chunk[i] = src[done + i] != 0;
      ok = std::fwrite(chunk, 1, n, file) == n;
    }
  } else if (ok && t->nbytes != 0) {
    ok = std::fwrite(t->data, 1, t->nbytes, file) == t->nbytes;
  }
  int savedErrno = errno;
  if (std::fclose(file) != 0 && ok) {
    ok = false;
    savedErrno = errno;
  }
  if (!ok) {
    // Do not leave a truncated file behind; the path must still be that
    // file (the write may have taken long enough for it to be replaced).
    if (regular && pathIsFile(path, st))
      std::remove(path);
    return fail(err, errLen, "%s: cannot write file: %s", path,
                std::strerror(savedErrno));
  }
  return ATTIC_OK;
}

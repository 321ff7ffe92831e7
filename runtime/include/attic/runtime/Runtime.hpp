//===- attic/runtime/Runtime.hpp - C++ conveniences over the C API -*- C++ -*-//
//
// A thin RAII owner for attic_tensor. Everything else is the C API in
// Runtime.h; this header adds no behaviour of its own.
//
//===----------------------------------------------------------------------===//

#ifndef ATTIC_RUNTIME_RUNTIME_HPP
#define ATTIC_RUNTIME_RUNTIME_HPP

#include "attic/runtime/Runtime.h"

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace attic::runtime {

/// Owns an attic_tensor and frees it on destruction. Move-only.
class Tensor {
public:
  Tensor() { std::memset(&raw, 0, sizeof(raw)); }
  ~Tensor() { attic_tensor_free(&raw); }
  Tensor(Tensor &&other) noexcept : raw(other.raw) {
    std::memset(&other.raw, 0, sizeof(other.raw));
  }
  Tensor &operator=(Tensor &&other) noexcept {
    if (this != &other) {
      attic_tensor_free(&raw);
      raw = other.raw;
      std::memset(&other.raw, 0, sizeof(other.raw));
    }
    return *this;
  }
  Tensor(const Tensor &) = delete;
  Tensor &operator=(const Tensor &) = delete;

  /// Allocates a zeroed tensor; on failure returns an invalid tensor and
  /// stores the message in *error (if given).
  static Tensor alloc(attic_dtype dtype, const std::vector<int64_t> &shape,
                      std::string *error = nullptr) {
    Tensor t;
    char err[256];
    if (attic_tensor_alloc(&t.raw, dtype, static_cast<int32_t>(shape.size()),
                           shape.data(), err, sizeof(err)) != ATTIC_OK &&
        error)
      *error = err;
    return t;
  }
  static Tensor alloc(attic_dtype dtype, std::initializer_list<int64_t> shape,
                      std::string *error = nullptr) {
    return alloc(dtype, std::vector<int64_t>(shape), error);
  }

  /// Loads a .npy file; see attic_npy_load.
  static Tensor load(const std::string &path, std::string *error = nullptr) {
    Tensor t;
    char err[512];
    if (attic_npy_load(path.c_str(), &t.raw, err, sizeof(err)) != ATTIC_OK &&
        error)
      *error = err;
    return t;
  }

  /// Saves to a .npy file; returns false with *error set on failure.
  bool save(const std::string &path, std::string *error = nullptr) const {
    char err[512];
    if (attic_npy_save(path.c_str(), &raw, err, sizeof(err)) == ATTIC_OK)
      return true;
    if (error)
      *error = err;
    return false;
  }

  bool valid() const { return raw.data != nullptr; }
  explicit operator bool() const { return valid(); }

  attic_dtype dtype() const { return raw.dtype; }
  int32_t rank() const { return raw.rank; }
  int64_t dim(int32_t i) const { return raw.shape[i]; }
  std::vector<int64_t> shape() const {
    return std::vector<int64_t>(raw.shape, raw.shape + raw.rank);
  }
  int64_t numel() const { return attic_tensor_numel(&raw); }
  size_t nbytes() const { return raw.nbytes; }

  template <typename T> T *data() { return static_cast<T *>(raw.data); }
  template <typename T> const T *data() const {
    return static_cast<const T *>(raw.data);
  }

  double get(int64_t flatIndex) const {
    return attic_tensor_get(&raw, flatIndex);
  }
  void set(int64_t flatIndex, double value) {
    attic_tensor_set(&raw, flatIndex, value);
  }

  /// The underlying C struct, for passing to the C API.
  attic_tensor *c() { return &raw; }
  const attic_tensor *c() const { return &raw; }

private:
  attic_tensor raw;
};

} // namespace attic::runtime

#endif // ATTIC_RUNTIME_RUNTIME_HPP

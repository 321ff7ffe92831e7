//===- ArgumentBinding.cpp - per-argument options of the tools ------------===//
//
// See include/attic/Support/ArgumentBinding.h.
//
//===----------------------------------------------------------------------===//

#include "attic/Support/ArgumentBinding.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>

namespace {

/// A non-negative decimal integer of at most `limit`; nullopt for anything
/// else (signs, spaces, empty text, overflow).
std::optional<uint64_t> parseIndex(const std::string &text, uint64_t limit) {
  if (text.empty() || text.size() > 20)
    return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return std::nullopt;
    uint64_t digit = uint64_t(c - '0');
    if (value > (limit - digit) / 10)
      return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

/// A decimal probability in [0, 1] ("0.5", "1", "1e-3"); nullopt otherwise.
std::optional<double> parseProbability(const std::string &text) {
  if (text.empty() || text.size() > 64 || text[0] == ' ')
    return std::nullopt;
  for (char c : text)
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' ||
          c == '-' || c == '+'))
      return std::nullopt; // no "nan", "inf", hex floats or spaces
  char *end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !(value >= 0 && value <= 1))
    return std::nullopt;
  return value;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  if (shape.empty())
    return "scalar";
  std::string text;
  for (size_t d = 0; d < shape.size(); ++d)
    text += (d ? "x" : "") + (shape[d] == attic::kDynamicDim
                                  ? std::string("?")
                                  : std::to_string(shape[d]));
  return text;
}

} // namespace

std::optional<std::vector<int64_t>>
attic::parseShapeText(const std::string &text) {
  std::vector<int64_t> shape;
  size_t at = 0;
  while (true) {
    size_t end = text.find('x', at);
    std::string part = text.substr(
        at, end == std::string::npos ? std::string::npos : end - at);
    std::optional<uint64_t> size =
        parseIndex(part, uint64_t(std::numeric_limits<int64_t>::max()));
    if (!size)
      return std::nullopt;
    shape.push_back(int64_t(*size));
    if (end == std::string::npos)
      return shape;
    at = end + 1;
  }
}

bool attic::bindArgumentOptions(const std::vector<ArgumentType> &types,
                                const std::string &entry,
                                const ArgumentOptionTexts &texts,
                                ArgumentBinding &binding, std::string &error) {
  const size_t count = types.size();
  binding = ArgumentBinding();
  binding.generatedShapes.assign(count, std::nullopt);
  binding.maskKeep.assign(count, texts.defaultMaskKeep);
  std::vector<std::optional<std::vector<int64_t>>> given(count);
  auto fail = [&](const std::string &message) {
    error = message;
    return false;
  };
  // One pass per option kind: INDEX:VALUE, an argument of the entry, not
  // from a file, at most once.
  for (bool mask : {false, true}) {
    const std::vector<std::string> &specs =
        mask ? texts.maskKeep : texts.shapes;
    const char *name = mask ? "mask-keep-arg" : "shape";
    std::map<uint64_t, std::string> seen;
    for (const std::string &spec : specs) {
      std::string option = std::string("--") + name + "=" + spec;
      if (option.size() > 200)
        option = option.substr(0, 200) + "...";
      size_t colon = spec.find(':');
      std::string indexText =
          colon == std::string::npos ? std::string() : spec.substr(0, colon);
      std::optional<uint64_t> index =
          colon == std::string::npos
              ? std::nullopt
              : parseIndex(indexText, std::numeric_limits<uint64_t>::max());
      std::string value =
          colon == std::string::npos ? std::string() : spec.substr(colon + 1);
      std::optional<double> probability;
      std::optional<std::vector<int64_t>> shape;
      if (mask)
        probability = parseProbability(value);
      else
        shape = parseShapeText(value);
      // All digits but past 2^64: an argument that does not exist.
      if (!index && !indexText.empty() &&
          indexText.find_first_not_of("0123456789") == std::string::npos)
        return fail(option + ": @" + entry + " has " + std::to_string(count) +
                    " arguments");
      if (!index || (mask ? !probability : !shape))
        return fail(option + ": expected INDEX:" +
                    (mask ? "P with P in [0, 1]" : "AxBxC"));
      if (*index >= count)
        return fail(option + ": @" + entry + " has " + std::to_string(count) +
                    " arguments");
      std::string argument = "argument #" + std::to_string(*index);
      if (*index < texts.inputFiles.size())
        return fail(option + ": " + argument + " comes from --input " +
                    texts.inputFiles[*index]);
      const ArgumentType &type = types[*index];
      auto [it, inserted] = seen.emplace(*index, option);
      if (!inserted)
        return fail(option + ": " + argument + " was already given by " +
                    it->second);
      if (mask) {
        if (type.dtype != ATTIC_I1)
          return fail(option + ": " + argument + " is not an i1 tensor");
        binding.maskKeep[*index] = *probability;
        continue;
      }
      if (shape->size() != type.shape.size())
        return fail(option + ": " + argument + " has rank " +
                    std::to_string(type.shape.size()));
      for (size_t d = 0; d < shape->size(); ++d)
        if (type.shape[d] != kDynamicDim && type.shape[d] != (*shape)[d])
          return fail(option + ": " + argument + " has type shape " +
                      shapeText(type.shape));
      given[*index] = shape;
      binding.anyShapeGiven = true;
    }
  }
  for (size_t index = texts.inputFiles.size(); index < count; ++index) {
    const ArgumentType &type = types[index];
    if (given[index]) {
      binding.generatedShapes[index] = given[index];
      continue;
    }
    for (int64_t size : type.shape)
      if (size == kDynamicDim)
        return fail("argument #" + std::to_string(index) + " of @" + entry +
                    " has dynamic dims (" + shapeText(type.shape) +
                    "): give its shape with --shape=" + std::to_string(index) +
                    ":AxBxC" +
                    (texts.takesInputFiles ? " or its data with --input" : ""));
    binding.generatedShapes[index] = type.shape;
  }
  return true;
}

// A reply from Redis: one RESP2/RESP3 value, possibly nested.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace redisson {

/// The RESP3 type of a reply. RESP2 replies use the subset simple_string, error, integer,
/// bulk_string, null and array.
enum class ReplyType : std::uint8_t {
  null,
  simple_string,
  error,
  integer,
  bulk_string,
  array,
  map,
  set,
  double_value,
  boolean,
  big_number,
  verbatim,
  push,
};

/// One parsed value. A plain aggregate: cheap to move, easy to inspect in tests.
///
/// Where each kind keeps its payload:
///  - simple_string, error, bulk_string, big_number (decimal text): `str`
///  - verbatim: `str` holds the text, `format` the three-letter format ("txt", "mkd")
///  - double_value: `number` (and `str` keeps the wire text, e.g. "inf")
///  - integer: `integer`; boolean: `integer` is 0 or 1
///  - array, set, push: `elements`; map: `elements` holds key0, value0, key1, value1, ...
///  - a RESP3 attribute that preceded the value is kept in `attributes` (key, value, ...)
struct Reply {
  ReplyType type = ReplyType::null;
  std::int64_t integer = 0;
  double number = 0.0;
  std::string str;
  std::string format;
  std::vector<Reply> elements;
  std::vector<Reply> attributes;

  bool is_null() const noexcept { return type == ReplyType::null; }
  bool is_error() const noexcept { return type == ReplyType::error; }
  bool is_integer() const noexcept { return type == ReplyType::integer; }
  bool is_string() const noexcept {
    return type == ReplyType::simple_string || type == ReplyType::bulk_string ||
           type == ReplyType::verbatim;
  }
  bool is_aggregate() const noexcept {
    return type == ReplyType::array || type == ReplyType::map || type == ReplyType::set ||
           type == ReplyType::push;
  }

  /// The text of a string-like reply (also works for error, big_number, double).
  std::string_view text() const noexcept { return str; }

  /// Convenience for tests and tools: "OK", "(nil)", "(integer) 3", nested as redis-cli shows.
  std::string to_display_string() const;
};

}  // namespace redisson

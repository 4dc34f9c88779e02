// How the reply of a script (Scripts::eval) or a function (Functions::call) becomes a C++ value:
// Java Redisson's RScript.ReturnType and RFunction's FunctionResult, as types named in the call,
//
//     scripts.eval<returns::Value<std::string>>(ScriptMode::read_only, "return ARGV[1]", {}, args);
//
// so the result's type is known at compile time. Values are decoded with the handle's codec.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "redisson/codec.hpp"
#include "redisson/reply.hpp"
#include "redisson/value_traits.hpp"

namespace redisson {

/// Whether a script may write: read_only sends EVAL_RO / EVALSHA_RO (Redis 7), which a replica
/// may run and which the server refuses to let write (a server without them answers "unknown
/// command": the call is sent again as EVALSHA, as Redisson does); read_write sends EVAL /
/// EVALSHA. Redisson's RScript.Mode (READ_ONLY, READ_WRITE).
enum class ScriptMode { read_only, read_write };

/// Whether a function may write: read sends FCALL_RO, write FCALL. Redisson's FunctionMode.
enum class FunctionMode { read, write };

namespace detail {
/// Any reply of a script as a Value: a bulk string decoded with `codec`, an integer as a Long,
/// a status reply as its text, nil as null, an array as a List of its elements, RESP3 booleans
/// and doubles as such (what Redisson's decoders give for an Object result). An error reply,
/// or bytes the codec cannot read, throws redisson::error.
Value script_reply_value(const Codec& codec, const Reply& reply);
/// BOOLEAN: integer 1, a true RESP3 boolean or the status "OK" is true; anything else false.
bool script_reply_boolean(const Reply& reply);
/// INTEGER: an integer reply, or the decimal text of one; nil is 0.
std::int64_t script_reply_integer(const Reply& reply);
/// STATUS: a status or bulk string's bytes as they are (no codec); an integer as decimal text;
/// nil is empty.
std::string script_reply_text(const Reply& reply);
/// The elements of an array reply (nil: none); anything else is errc::wrong_type.
const std::vector<Reply>& script_reply_elements(const Reply& reply);
}  // namespace detail

/// The result kinds of Scripts::eval / eval_sha and Functions::call. Each has `type`, the
/// C++ result, and `from_reply(codec, reply)`.
namespace returns {

/// Redisson's BOOLEAN: Lua true (integer 1) or "OK" is true, anything else false.
struct Boolean {
  using type = bool;
  static type from_reply(const Codec&, const Reply& reply) {
    return detail::script_reply_boolean(reply);
  }
};

/// Redisson's INTEGER (RFunction: LONG): a Lua number (nil reads as 0).
struct Integer {
  using type = std::int64_t;
  static type from_reply(const Codec&, const Reply& reply) {
    return detail::script_reply_integer(reply);
  }
};
using Long = Integer;

/// Redisson's STATUS (RFunction: STRING): the reply's bytes as they are, not decoded with the
/// codec (a status reply's text, a string's raw bytes; nil reads as empty).
struct Status {
  using type = std::string;
  static type from_reply(const Codec&, const Reply& reply) {
    return detail::script_reply_text(reply);
  }
};
using String = Status;

/// Redisson's VALUE: one value decoded with the codec as a T (a Lua number is a Long); nil is
/// std::nullopt.
template <JavaValue T>
struct Value {
  using type = std::optional<T>;
  static type from_reply(const Codec& codec, const Reply& reply) {
    if (reply.is_null()) return std::nullopt;
    return from_value<T>(detail::script_reply_value(codec, reply));
  }
};

/// Redisson's MULTI (RFunction: LIST): a Lua table, each element decoded with the codec as a T
/// (use redisson::Value for elements of mixed types).
template <JavaValue T>
struct Multi {
  using type = std::vector<T>;
  static type from_reply(const Codec& codec, const Reply& reply) {
    type values;
    for (const auto& element : detail::script_reply_elements(reply)) {
      values.push_back(from_value<T>(detail::script_reply_value(codec, element)));
    }
    return values;
  }
};
template <JavaValue T>
using List = Multi<T>;

/// Redisson's MAPVALUE: one value decoded with the codec's map-value codec; nil is nullopt.
template <JavaValue T>
struct MapValue {
  using type = std::optional<T>;
  static type from_reply(const Codec& codec, const Reply& reply) {
    return Value<T>::from_reply(codec.map_value_codec(), reply);
  }
};

/// Redisson's MAPVALUELIST: a Lua table of values decoded with the map-value codec.
template <JavaValue T>
struct MapValueList {
  using type = std::vector<T>;
  static type from_reply(const Codec& codec, const Reply& reply) {
    return Multi<T>::from_reply(codec.map_value_codec(), reply);
  }
};

}  // namespace returns

/// A result kind of returns:: (or your own: a `type` and a `from_reply(codec, reply)`).
template <class R>
concept ScriptReturn = requires(const Codec& codec, const Reply& reply) {
  typename R::type;
  { R::from_reply(codec, reply) } -> std::same_as<typename R::type>;
};

}  // namespace redisson

// The operation path of the objects (Bucket, AtomicLong, Map, ...): what an object is inside
// (ObjectState: client, name, codec, keys) and the one template every operation goes through,
//
//   async_command<R>(object, token, build, convert)
//
// `build` makes the command (encoding values with the object's codec; it may throw a
// redisson::error, which becomes the completion's error), `convert` turns the reply into the
// result (it may throw too: a value the codec cannot read). So an object's method is a line that
// names its command and its reply conversion, and its blocking twin is the same call with the
// blocking token (operation.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "redisson/codec.hpp"
#include "redisson/command.hpp"
#include "redisson/detail/operation.hpp"
#include "redisson/detail/status.hpp"
#include "redisson/error.hpp"
#include "redisson/reply.hpp"
#include "redisson/value_traits.hpp"

namespace redisson {
class Client;
}

namespace redisson::detail {

/// The keys an object of some type keeps besides its name, from its name (for example
/// `{name}:config`): delete_object(), expire() and rename() act on all of them.
using ExtraKeys = std::vector<std::string> (*)(const std::string& name);

/// What an object is: shared by its copies and its operations in flight; immutable.
struct ObjectState {
  std::shared_ptr<ClientCore> core;
  std::string name;
  CodecPtr codec;
  ExtraKeys extra_keys = nullptr;

  /// The name and the extra keys.
  std::vector<std::string> keys() const;
};
using ObjectPtr = std::shared_ptr<const ObjectState>;

/// A new object `name` on `client`. `codec` null: the client's default (Config::codec, kryo5
/// unless set). An empty name is errc::invalid_argument ("<kind>: the name must not be empty").
ObjectPtr make_object(const Client& client, std::string name, CodecPtr codec, const char* kind,
                      ExtraKeys extra_keys = nullptr);

/// Sends `command` through the client's topology; completes on the I/O thread with the reply (a
/// server error reply: its error code and "server: <text>").
void submit_command(const ObjectPtr& object, const Command& command, Done<Reply> done);

/// Throws redisson::error(invalid_argument, reason): a bad argument, found before sending.
[[noreturn]] void throw_invalid_argument(const std::string& reason);

/// Reply conversions shared by the objects. Each throws errc::wrong_type (with the reply shown)
/// for a reply of another shape, which means the key holds something else.
[[noreturn]] void throw_unexpected_reply(std::string_view expected, const Reply& reply);
/// 1 / "OK" / any non-null bulk string: true; 0 / nil: false.
bool reply_flag(const Reply& reply);
std::int64_t reply_integer(const Reply& reply);
/// An integer, or the decimal text of one (GET of a counter); nil is 0.
std::int64_t reply_counter(const Reply& reply);
/// A double (RESP3) or its text (RESP2, INCRBYFLOAT); nil is 0.
double reply_double(const Reply& reply);
/// Nothing to convert (operations that complete with no value).
inline void reply_ignore(const Reply&) {}

/// `value` encoded with `codec` (throws codec_error).
template <class T>
std::string encode_value(const Codec& codec, const T& value) {
  return codec.encode(to_value(value));
}

/// A bulk string reply decoded with `codec` as a T; nil is std::nullopt. Anything else is
/// errc::wrong_type.
template <class T>
std::optional<T> decode_reply(const Codec& codec, const Reply& reply) {
  if (reply.is_null()) return std::nullopt;
  if (!reply.is_string()) throw_unexpected_reply("a value", reply);
  return from_value<T>(codec.decode(reply.str));
}

/// Completes `done` with `status` when it is a failure, else with convert(reply) (for R = void:
/// convert(reply) only checks the reply), or with the error convert() threw.
template <class R, class Convert>
void complete_converted(Done<R>& done, Status status, const Reply& reply, Convert& convert) {
  if constexpr (std::is_void_v<R>) {
    if (!status) {
      try {
        convert(reply);
      } catch (const error& failure) {
        status = Status(failure.code(), failure.what());
      }
    }
    done(std::move(status));
  } else {
    if (status) return done(std::move(status), R{});
    R result{};
    try {
      result = convert(reply);
    } catch (const error& failure) {
      return done(Status(failure.code(), failure.what()), R{});
    }
    done(Status{}, std::move(result));
  }
}

/// Starts an operation written as `start(object, done)`: it sends what it needs (a command, a
/// script, several of them) and completes `done` with the reply that carries the result; it moves
/// from `done` only once nothing can throw any more, so that a redisson::error it throws before
/// (a value the codec cannot encode) becomes the completion's error. `convert` turns the reply
/// into the result on the I/O thread (a throw there is the completion's error too). Completes
/// through `token` with (error_code, R).
template <class R, class Token, class Start, class Convert>
auto async_started(const ObjectPtr& object, Token&& token, Start&& start, Convert&& convert) {
  return async_op<R>(object->core, token,
                     [object, start = std::forward<Start>(start),
                      convert = std::forward<Convert>(convert)](Done<R> done) mutable {
                       Done<Reply> on_reply = [done = std::move(done),
                                               convert = std::move(convert)](
                                                  Status status, const Reply& reply) mutable {
                         complete_converted<R>(done, std::move(status), reply, convert);
                       };
                       try {
                         start(object, on_reply);
                       } catch (const error& failure) {
                         if (on_reply) on_reply(Status(failure.code(), failure.what()), Reply{});
                       }
                     });
}

/// The common case: one command made by `build()` (on the caller's thread; it may throw).
template <class R, class Token, class Build, class Convert>
auto async_command(const ObjectPtr& object, Token&& token, Build&& build, Convert&& convert) {
  return async_started<R>(
      object, std::forward<Token>(token),
      [build = std::forward<Build>(build)](const ObjectPtr& target, Done<Reply>& done) {
        // Built first: if build() throws, `done` must still be here to report it (the order in
        // which arguments are evaluated is unspecified).
        const Command command = build();
        submit_command(target, command, std::move(done));
      },
      std::forward<Convert>(convert));
}

}  // namespace redisson::detail

// redisson::Functions: Redis 7 function libraries, Java Redisson's RFunction.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "redisson/codec.hpp"
#include "redisson/detail/every_master.hpp"
#include "redisson/detail/object_op.hpp"
#include "redisson/objects/script_returns.hpp"

namespace redisson {

/// One function of a library, as FUNCTION LIST shows it.
struct FunctionInfo {
  std::string name;
  /// The description given to redis.register_function, or empty.
  std::string description;
  /// As the server names them: "no-writes", "allow-oom", "allow-stale", "no-cluster",
  /// "allow-cross-slot-keys".
  std::vector<std::string> flags;
};

/// A library loaded on the server (FUNCTION LIST): Redisson's FunctionLibrary.
struct FunctionLibrary {
  std::string name;
  /// "LUA".
  std::string engine;
  std::vector<FunctionInfo> functions;
};

/// FUNCTION STATS: the function running now, if any, and per engine how many libraries and
/// functions are loaded. Redisson's FunctionStats.
struct FunctionStats {
  struct Running {
    std::string name;
    /// The FCALL being run, its arguments as text.
    std::vector<std::string> command;
    std::chrono::milliseconds duration{0};
  };
  struct Engine {
    std::int64_t libraries = 0;
    std::int64_t functions = 0;
  };
  std::optional<Running> running;
  /// By engine name ("LUA").
  std::map<std::string, Engine> engines;
};

namespace detail {
/// FUNCTION LOAD [REPLACE] of `code` as library `library` (Redisson's "#!lua name=<library> \n
/// <code>"), on every master. An empty name or code is errc::invalid_argument.
Command function_load_command(std::string_view library, std::string_view code, bool replace);
/// `FUNCTION <verb> [argument] [option]` (DELETE name, RESTORE payload policy, ...); an empty
/// argument where one is needed (`what` names it) is errc::invalid_argument.
Command function_command(const char* verb, std::string_view argument, const char* what,
                         const char* option = nullptr);
/// call: FCALL / FCALL_RO `name` with `keys` and the encoded `values`, routed by the first key.
/// An empty name is errc::invalid_argument.
void start_functions_call(const ObjectPtr& state, FunctionMode mode, std::string_view name,
                          const std::vector<std::string>& keys,
                          const std::vector<std::string>& values, Done<Reply>& done);
std::vector<FunctionLibrary> reply_function_list(const Reply& reply);
FunctionStats reply_function_stats(const Reply& reply);
/// FUNCTION DUMP's payload (raw bytes).
std::string reply_function_dump(const Reply& reply);
}  // namespace detail

/// Loads, lists and calls Redis functions (Redis 7): FUNCTION LOAD / DELETE / DUMP / RESTORE /
/// FLUSH / KILL / LIST / STATS and FCALL / FCALL_RO.
///
/// Library changes (load, load_and_replace, delete_library, restore*, flush) and kill go to
/// every master on a Cluster, as Redisson sends them, since each master keeps its own libraries;
/// list, stats and dump ask one node. call() is routed by its first key (no keys: any master).
/// Keys are sent as they are; values are encoded with the handle's codec as Redisson encodes
/// them; the result kind is a type of returns:: (Redisson's FunctionResult):
///
///     Functions functions(client);
///     functions.load("mylib", "redis.register_function('echo', function(k, a) return a[1] end)");
///     auto v = functions.call<returns::Value<std::string>>(FunctionMode::write, "echo", {}, args);
///
/// A handle: cheap to copy, sends nothing until called, thread-safe.
class Functions {
 public:
  /// Functions on `client` whose values use `codec` (null: the client's default codec).
  explicit Functions(const Client& client, CodecPtr codec = nullptr)
      : state_(detail::make_keyless(client, std::move(codec))) {}

  /// The codec values and results are encoded and decoded with.
  const Codec& codec() const noexcept { return *state_->codec; }

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_load(std::string_view library, std::string_view code, CompletionToken&& token);
  template <class CompletionToken>
  auto async_load_and_replace(std::string_view library, std::string_view code,
                              CompletionToken&& token);
  template <class CompletionToken>
  auto async_delete_library(std::string_view library, CompletionToken&& token);
  template <class CompletionToken>
  auto async_restore(std::string_view payload, CompletionToken&& token);
  template <class CompletionToken>
  auto async_restore_after_flush(std::string_view payload, CompletionToken&& token);
  template <class CompletionToken>
  auto async_restore_and_replace(std::string_view payload, CompletionToken&& token);
  template <class CompletionToken>
  auto async_flush(CompletionToken&& token);
  template <class CompletionToken>
  auto async_kill(CompletionToken&& token);
  template <class CompletionToken>
  auto async_dump(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_list(std::string_view pattern, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_stats(CompletionToken&& token) const;
  template <ScriptReturn R, JavaValue V = Value, class CompletionToken>
  auto async_call(FunctionMode mode, std::string_view name, const std::vector<std::string>& keys,
                  const std::vector<V>& values, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Loads library `library` with `code` (the body after the shebang: Redisson sends
  /// "#!lua name=<library> \n <code>") on every master: FUNCTION LOAD. A library of that name
  /// already loaded is errc::server_error. An empty name or code is errc::invalid_argument.
  void load(std::string_view library, std::string_view code);
  /// The same, replacing a library of that name: FUNCTION LOAD REPLACE.
  void load_and_replace(std::string_view library, std::string_view code);
  /// Deletes library `library` on every master: FUNCTION DELETE (Redisson's delete). An unknown
  /// library is errc::server_error.
  void delete_library(std::string_view library);
  /// Every library as one payload (FUNCTION DUMP, raw bytes), for restore().
  std::string dump() const;
  /// Adds the libraries of a dump() payload on every master: FUNCTION RESTORE (APPEND: a name
  /// already loaded is errc::server_error and nothing is restored).
  void restore(std::string_view payload);
  /// Replaces every library by those of `payload`: FUNCTION RESTORE payload FLUSH.
  void restore_after_flush(std::string_view payload);
  /// Restores `payload`, its libraries replacing those of the same name: FUNCTION RESTORE
  /// payload REPLACE.
  void restore_and_replace(std::string_view payload);
  /// Deletes every library on every master: FUNCTION FLUSH.
  void flush();
  /// Stops the running read-only function on each master: FUNCTION KILL on every master (a
  /// master running none answers NOTBUSY: errc::server_error, as with Redisson).
  void kill();
  /// The libraries whose names match the glob `pattern` (FUNCTION LIST LIBRARYNAME pattern);
  /// an empty pattern lists all (FUNCTION LIST).
  std::vector<FunctionLibrary> list(std::string_view pattern = {}) const;
  /// FUNCTION STATS of one node.
  FunctionStats stats() const;
  /// Calls function `name` with `keys` (raw) and `values` (encoded with the codec): FCALL_RO
  /// for FunctionMode::read (the function must be flagged no-writes), FCALL for write. A Lua
  /// error or an unknown function is errc::server_error with the server's text; an empty name
  /// is errc::invalid_argument.
  template <ScriptReturn R, JavaValue V = Value>
  typename R::type call(FunctionMode mode, std::string_view name,
                        const std::vector<std::string>& keys = {},
                        const std::vector<V>& values = {}) {
    return async_call<R>(mode, name, keys, values, detail::blocking("Functions::call"));
  }

 private:
  friend class Batch;  // binds it to itself (Batch::get)
  /// FUNCTION `build()` on every master; `build` may throw (a bad argument: the completion's
  /// error, nothing sent).
  template <class Build, class CompletionToken>
  auto on_masters(Build build, CompletionToken&& token);
  /// `command` on one node (keyless: any), its reply read by `convert`.
  template <class T, class Convert, class CompletionToken>
  auto on_one_node(Command command, Convert convert, CompletionToken&& token) const;

  detail::ObjectPtr state_;
};

}  // namespace redisson

#include "redisson/objects/impl/functions.hpp"

// redisson::Scripts: Lua scripts of the caller's own, Java Redisson's RScript.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "redisson/codec.hpp"
#include "redisson/detail/every_master.hpp"
#include "redisson/detail/object_op.hpp"
#include "redisson/objects/script_returns.hpp"
#include "redisson/script.hpp"

namespace redisson {

namespace detail {
/// eval: EVALSHA (read_only: EVALSHA_RO) of `script` with `keys` and the encoded `values`,
/// routed by the first key; on NOSCRIPT the same call as EVAL / EVAL_RO with the source
/// (script/script_runner.hpp). Completes with the script's reply.
void start_scripts_eval(const ObjectPtr& state, ScriptMode mode, const Script& script,
                        const std::vector<std::string>& keys,
                        const std::vector<std::string>& values, Done<Reply>& done);
/// eval_sha: EVALSHA / EVALSHA_RO `sha1` as it is (NOSCRIPT is the caller's error). An empty
/// SHA is errc::invalid_argument.
void start_scripts_eval_sha(const ObjectPtr& state, ScriptMode mode, std::string_view sha1,
                            const std::vector<std::string>& keys,
                            const std::vector<std::string>& values, Done<Reply>& done);
/// SCRIPT LOAD's SHA from the masters' replies (start_on_every_master; each answers the same).
std::string reply_script_loaded(const Reply& replies);
/// SCRIPT EXISTS over the masters: a SHA exists when some master has it (as Redisson).
std::vector<bool> reply_scripts_exist(const Reply& replies);
}  // namespace detail

/// Runs Lua scripts: eval (the source, sent as EVALSHA with EVAL as the fallback), eval_sha (a
/// script loaded before), and the script cache (SCRIPT LOAD, EXISTS, FLUSH, KILL).
///
/// Keys are sent as they are; values are encoded with the handle's codec, byte for byte as
/// Redisson encodes them, so a script sees what Java's would. The result kind is a type of
/// returns:: (Redisson's ReturnType), named as the first template argument:
///
///     Scripts scripts(client);
///     auto v = scripts.eval<returns::Value<std::string>>(
///         ScriptMode::read_only, "return redis.call('get', KEYS[1])", {"key"});
///
/// Cost: eval is one round trip (two the first time a server sees the script: NOSCRIPT, then
/// EVAL with the source). On a Cluster an eval goes to the master of its first key's slot
/// (no keys: any master; all its keys must share a slot); SCRIPT LOAD, FLUSH and KILL go to
/// every master. A handle: cheap to copy, sends nothing until called, thread-safe.
class Scripts {
 public:
  /// Scripts on `client` whose values use `codec` (null: the client's default codec).
  explicit Scripts(const Client& client, CodecPtr codec = nullptr)
      : state_(detail::make_keyless(client, std::move(codec))) {}

  /// The codec values and results are encoded and decoded with.
  const Codec& codec() const noexcept { return *state_->codec; }

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <ScriptReturn R, JavaValue V = Value, class CompletionToken>
  auto async_eval(ScriptMode mode, const Script& script, const std::vector<std::string>& keys,
                  const std::vector<V>& values, CompletionToken&& token);
  template <ScriptReturn R, JavaValue V = Value, class CompletionToken>
  auto async_eval(ScriptMode mode, std::string_view source, const std::vector<std::string>& keys,
                  const std::vector<V>& values, CompletionToken&& token) {
    return async_eval<R>(mode, Script(std::string(source)), keys, values,
                         std::forward<CompletionToken>(token));
  }
  template <ScriptReturn R, JavaValue V = Value, class CompletionToken>
  auto async_eval_sha(ScriptMode mode, std::string_view sha1, const std::vector<std::string>& keys,
                      const std::vector<V>& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_script_load(std::string_view source, CompletionToken&& token);
  template <class CompletionToken>
  auto async_script_exists(const std::vector<std::string>& sha1s, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_script_flush(CompletionToken&& token);
  template <class CompletionToken>
  auto async_script_kill(CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Runs the Lua `source` with `keys` (KEYS, raw) and `values` (ARGV, encoded with the codec):
  /// EVALSHA, or EVALSHA_RO for read_only; EVAL / EVAL_RO with the source when the server does
  /// not have it cached. A Lua error is errc::server_error with the server's text.
  template <ScriptReturn R, JavaValue V = Value>
  typename R::type eval(ScriptMode mode, std::string_view source,
                        const std::vector<std::string>& keys = {},
                        const std::vector<V>& values = {}) {
    return async_eval<R>(mode, source, keys, values, detail::blocking("Scripts::eval"));
  }
  /// The same for a Script made once (its SHA-1 computed once, not per call).
  template <ScriptReturn R, JavaValue V = Value>
  typename R::type eval(ScriptMode mode, const Script& script,
                        const std::vector<std::string>& keys = {},
                        const std::vector<V>& values = {}) {
    return async_eval<R>(mode, script, keys, values, detail::blocking("Scripts::eval"));
  }
  /// Runs the cached script `sha1` (EVALSHA / EVALSHA_RO), as Redisson's evalSha: a server
  /// without it answers NOSCRIPT (errc::server_error). An empty SHA is errc::invalid_argument.
  template <ScriptReturn R, JavaValue V = Value>
  typename R::type eval_sha(ScriptMode mode, std::string_view sha1,
                            const std::vector<std::string>& keys = {},
                            const std::vector<V>& values = {}) {
    return async_eval_sha<R>(mode, sha1, keys, values, detail::blocking("Scripts::eval_sha"));
  }
  /// Caches `source` on every master (SCRIPT LOAD); returns its SHA-1 (40 hex characters).
  std::string script_load(std::string_view source);
  /// Whether each SHA is cached (SCRIPT EXISTS on every master; true when some master has it,
  /// as Redisson). No SHA is errc::invalid_argument.
  std::vector<bool> script_exists(const std::vector<std::string>& sha1s) const;
  /// Empties the script cache of every master (SCRIPT FLUSH).
  void script_flush();
  /// Stops the script running on each master (SCRIPT KILL on every master); a master running
  /// none answers NOTBUSY (errc::server_error), as with Redisson.
  void script_kill();

 private:
  friend class Batch;  // binds it to itself (Batch::get)
  template <class CompletionToken>
  auto on_masters(Command command, CompletionToken&& token) const;

  detail::ObjectPtr state_;
};

}  // namespace redisson

#include "redisson/objects/impl/scripts.hpp"

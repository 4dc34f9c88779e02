// The bodies of Scripts's templates (objects/scripts.hpp).
#pragma once

#include "redisson/objects/scripts.hpp"

namespace redisson {

namespace detail {
/// `values` encoded with `codec`, in order: a script's ARGV.
template <class V>
std::vector<std::string> encode_script_values(const Codec& codec, const std::vector<V>& values) {
  std::vector<std::string> encoded;
  encoded.reserve(values.size());
  for (const auto& value : values) encoded.push_back(encode_value(codec, value));
  return encoded;
}
}  // namespace detail

template <ScriptReturn R, JavaValue V, class CompletionToken>
auto Scripts::async_eval(ScriptMode mode, const Script& script,
                         const std::vector<std::string>& keys, const std::vector<V>& values,
                         CompletionToken&& token) {
  // Copies, not references: the start may run later (asio::deferred, use_awaitable).
  return detail::async_started<typename R::type>(
      state_, token,
      [mode, script, keys, values](const detail::ObjectPtr& state, detail::Done<Reply>& done) {
        detail::start_scripts_eval(state, mode, script, keys,
                                   detail::encode_script_values(*state->codec, values), done);
      },
      [codec = state_->codec](const Reply& reply) { return R::from_reply(*codec, reply); });
}

template <ScriptReturn R, JavaValue V, class CompletionToken>
auto Scripts::async_eval_sha(ScriptMode mode, std::string_view sha1,
                             const std::vector<std::string>& keys, const std::vector<V>& values,
                             CompletionToken&& token) {
  return detail::async_started<typename R::type>(
      state_, token,
      [mode, sha1 = std::string(sha1), keys, values](const detail::ObjectPtr& state,
                                                     detail::Done<Reply>& done) {
        detail::start_scripts_eval_sha(state, mode, sha1, keys,
                                       detail::encode_script_values(*state->codec, values), done);
      },
      [codec = state_->codec](const Reply& reply) { return R::from_reply(*codec, reply); });
}

template <class CompletionToken>
auto Scripts::async_script_load(std::string_view source, CompletionToken&& token) {
  return detail::async_started<std::string>(
      state_, token,
      [command = Command{"SCRIPT", "LOAD", source}](const detail::ObjectPtr& state,
                                                    detail::Done<Reply>& done) {
        detail::start_on_every_master(state, command, done);
      },
      detail::reply_script_loaded);
}

template <class CompletionToken>
auto Scripts::async_script_exists(const std::vector<std::string>& sha1s,
                                  CompletionToken&& token) const {
  return detail::async_started<std::vector<bool>>(
      state_, token,
      [sha1s](const detail::ObjectPtr& state, detail::Done<Reply>& done) {
        if (sha1s.empty()) detail::throw_invalid_argument("script_exists: no SHA given");
        Command exists{"SCRIPT", "EXISTS"};
        for (const auto& sha1 : sha1s) exists.arg(sha1);
        detail::start_on_every_master(state, exists, done);
      },
      detail::reply_scripts_exist);
}

template <class CompletionToken>
auto Scripts::async_script_flush(CompletionToken&& token) {
  return on_masters(Command{"SCRIPT", "FLUSH"}, std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto Scripts::async_script_kill(CompletionToken&& token) {
  return on_masters(Command{"SCRIPT", "KILL"}, std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto Scripts::on_masters(Command command, CompletionToken&& token) const {
  return detail::async_started<void>(
      state_, token,
      [command = std::move(command)](const detail::ObjectPtr& state, detail::Done<Reply>& done) {
        detail::start_on_every_master(state, command, done);
      },
      detail::reply_ignore);
}

inline std::string Scripts::script_load(std::string_view source) {
  return async_script_load(source, detail::blocking("Scripts::script_load"));
}

inline std::vector<bool> Scripts::script_exists(const std::vector<std::string>& sha1s) const {
  return async_script_exists(sha1s, detail::blocking("Scripts::script_exists"));
}

inline void Scripts::script_flush() {
  async_script_flush(detail::blocking("Scripts::script_flush"));
}

inline void Scripts::script_kill() { async_script_kill(detail::blocking("Scripts::script_kill")); }

}  // namespace redisson

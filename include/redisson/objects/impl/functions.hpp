// The bodies of Functions's templates (objects/functions.hpp).
#pragma once

#include "redisson/objects/functions.hpp"
#include "redisson/objects/impl/scripts.hpp"

namespace redisson {

// The arguments are copied into the builders: the start may run later (asio::deferred).

template <class CompletionToken>
auto Functions::async_load(std::string_view library, std::string_view code,
                           CompletionToken&& token) {
  return on_masters(
      [library = std::string(library), code = std::string(code)] {
        return detail::function_load_command(library, code, false);
      },
      std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto Functions::async_load_and_replace(std::string_view library, std::string_view code,
                                       CompletionToken&& token) {
  return on_masters(
      [library = std::string(library), code = std::string(code)] {
        return detail::function_load_command(library, code, true);
      },
      std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto Functions::async_delete_library(std::string_view library, CompletionToken&& token) {
  return on_masters(
      [library = std::string(library)] {
        return detail::function_command("DELETE", library, "the library name");
      },
      std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto Functions::async_restore(std::string_view payload, CompletionToken&& token) {
  return on_masters(
      [payload = std::string(payload)] {
        return detail::function_command("RESTORE", payload, "the payload");
      },
      std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto Functions::async_restore_after_flush(std::string_view payload, CompletionToken&& token) {
  return on_masters(
      [payload = std::string(payload)] {
        return detail::function_command("RESTORE", payload, "the payload", "FLUSH");
      },
      std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto Functions::async_restore_and_replace(std::string_view payload, CompletionToken&& token) {
  return on_masters(
      [payload = std::string(payload)] {
        return detail::function_command("RESTORE", payload, "the payload", "REPLACE");
      },
      std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto Functions::async_flush(CompletionToken&& token) {
  return on_masters(
      [] {
        return Command{"FUNCTION", "FLUSH"};
      },
      std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto Functions::async_kill(CompletionToken&& token) {
  return on_masters(
      [] {
        return Command{"FUNCTION", "KILL"};
      },
      std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto Functions::async_dump(CompletionToken&& token) const {
  return on_one_node<std::string>(Command{"FUNCTION", "DUMP"}, detail::reply_function_dump,
                                  std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto Functions::async_list(std::string_view pattern, CompletionToken&& token) const {
  Command list{"FUNCTION", "LIST"};
  if (!pattern.empty()) list.arg("LIBRARYNAME").arg(pattern);
  return on_one_node<std::vector<FunctionLibrary>>(std::move(list), detail::reply_function_list,
                                                   std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto Functions::async_stats(CompletionToken&& token) const {
  return on_one_node<FunctionStats>(Command{"FUNCTION", "STATS"}, detail::reply_function_stats,
                                    std::forward<CompletionToken>(token));
}

template <ScriptReturn R, JavaValue V, class CompletionToken>
auto Functions::async_call(FunctionMode mode, std::string_view name,
                           const std::vector<std::string>& keys, const std::vector<V>& values,
                           CompletionToken&& token) {
  return detail::async_started<typename R::type>(
      state_, token,
      [mode, name = std::string(name), keys, values](const detail::ObjectPtr& state,
                                                     detail::Done<Reply>& done) {
        detail::start_functions_call(state, mode, name, keys,
                                     detail::encode_script_values(*state->codec, values), done);
      },
      [codec = state_->codec](const Reply& reply) { return R::from_reply(*codec, reply); });
}

template <class Build, class CompletionToken>
auto Functions::on_masters(Build build, CompletionToken&& token) {
  return detail::async_started<void>(
      state_, token,
      [build = std::move(build)](const detail::ObjectPtr& state, detail::Done<Reply>& done) {
        detail::start_on_every_master(state, build(), done);
      },
      detail::reply_ignore);
}

template <class T, class Convert, class CompletionToken>
auto Functions::on_one_node(Command command, Convert convert, CompletionToken&& token) const {
  return detail::async_command<T>(
      state_, token, [&command]() -> Command { return std::move(command); }, convert);
}

inline void Functions::load(std::string_view library, std::string_view code) {
  async_load(library, code, detail::blocking("Functions::load"));
}

inline void Functions::load_and_replace(std::string_view library, std::string_view code) {
  async_load_and_replace(library, code, detail::blocking("Functions::load_and_replace"));
}

inline void Functions::delete_library(std::string_view library) {
  async_delete_library(library, detail::blocking("Functions::delete_library"));
}

inline std::string Functions::dump() const {
  return async_dump(detail::blocking("Functions::dump"));
}

inline void Functions::restore(std::string_view payload) {
  async_restore(payload, detail::blocking("Functions::restore"));
}

inline void Functions::restore_after_flush(std::string_view payload) {
  async_restore_after_flush(payload, detail::blocking("Functions::restore_after_flush"));
}

inline void Functions::restore_and_replace(std::string_view payload) {
  async_restore_and_replace(payload, detail::blocking("Functions::restore_and_replace"));
}

inline void Functions::flush() { async_flush(detail::blocking("Functions::flush")); }

inline void Functions::kill() { async_kill(detail::blocking("Functions::kill")); }

inline std::vector<FunctionLibrary> Functions::list(std::string_view pattern) const {
  return async_list(pattern, detail::blocking("Functions::list"));
}

inline FunctionStats Functions::stats() const {
  return async_stats(detail::blocking("Functions::stats"));
}

}  // namespace redisson

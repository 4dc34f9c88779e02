// The bodies of KeyScan, Keys's templates (objects/keys.hpp).
#pragma once

#include "redisson/objects/keys.hpp"

namespace redisson {

template <class CompletionToken>
auto KeyScan::async_next_batch(CompletionToken&& token) {
  return detail::async_started<std::vector<std::string>>(
      state_, token,
      [scan = scan_](const detail::ObjectPtr& state, detail::Done<Reply>& done) {
        detail::start_key_scan_next(state, scan, done);
      },
      &detail::reply_strings);
}

}  // namespace redisson

namespace redisson {

template <class CompletionToken>
auto Keys::per_slot(const char* command, std::vector<std::string> names,
                    CompletionToken&& token) const {
  return detail::async_started<std::int64_t>(
      state_, token,
      [command, names = std::move(names)](const detail::ObjectPtr& state,
                                          detail::Done<Reply>& done) {
        detail::start_keys_per_slot(state, command, names, done);
      },
      &detail::reply_integer);
}

template <class CompletionToken>
auto Keys::async_count(CompletionToken&& token) const {
  return detail::async_started<std::int64_t>(state_, token, &detail::start_keys_count,
                                             &detail::reply_integer);
}

template <class CompletionToken>
auto Keys::async_delete_keys(std::vector<std::string> names, CompletionToken&& token) {
  return per_slot("DEL", std::move(names), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto Keys::async_unlink(std::vector<std::string> names, CompletionToken&& token) {
  return per_slot("UNLINK", std::move(names), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto Keys::async_count_exists(std::vector<std::string> names, CompletionToken&& token) const {
  return per_slot("EXISTS", std::move(names), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto Keys::async_delete_by_pattern(std::string pattern, CompletionToken&& token) {
  return detail::async_started<std::int64_t>(
      state_, token,
      [pattern = std::move(pattern)](const detail::ObjectPtr& state, detail::Done<Reply>& done) {
        detail::start_keys_delete_by_pattern(state, pattern, done);
      },
      &detail::reply_integer);
}

template <class CompletionToken>
auto Keys::async_flushdb(ConfirmFlush, CompletionToken&& token) {
  return detail::async_started<void>(
      state_, token,
      [](const detail::ObjectPtr& state, detail::Done<Reply>& done) {
        detail::start_keys_flush(state, "FLUSHDB", done);
      },
      &detail::reply_ignore);
}

template <class CompletionToken>
auto Keys::async_flushall(ConfirmFlush, CompletionToken&& token) {
  return detail::async_started<void>(
      state_, token,
      [](const detail::ObjectPtr& state, detail::Done<Reply>& done) {
        detail::start_keys_flush(state, "FLUSHALL", done);
      },
      &detail::reply_ignore);
}

template <class CompletionToken>
auto Keys::async_swapdb(std::int64_t first, std::int64_t second, CompletionToken&& token) {
  return detail::async_started<void>(
      state_, token,
      [first, second](const detail::ObjectPtr& state, detail::Done<Reply>& done) {
        detail::start_keys_swapdb(state, first, second, done);
      },
      &detail::reply_ignore);
}

template <class CompletionToken>
auto Keys::async_random_key(CompletionToken&& token) const {
  return detail::async_started<std::optional<std::string>>(
      state_, token, &detail::start_keys_random_key, &detail::reply_optional_key);
}

template <class CompletionToken>
auto Keys::async_get_type(std::string name, CompletionToken&& token) const {
  return detail::async_command<KeyType>(
      state_, token,
      [name = std::move(name)] {
        return Command{"TYPE", name};
      },
      &detail::reply_key_type);
}

template <class CompletionToken>
auto Keys::async_remaining_time_to_live(std::string name, CompletionToken&& token) const {
  return detail::async_command<std::chrono::milliseconds>(
      state_, token,
      [name = std::move(name)] {
        return Command{"PTTL", name};
      },
      &detail::reply_ms);
}

}  // namespace redisson

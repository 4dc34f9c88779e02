// The bodies of Bucket's templates (objects/bucket.hpp).
#pragma once

#include "redisson/objects/bucket.hpp"

namespace redisson {

template <JavaValue T>
template <class CompletionToken>
auto Bucket<T>::async_get(CompletionToken&& token) const {
  return read(token, "GET");
}

template <JavaValue T>
template <class CompletionToken>
auto Bucket<T>::async_set(const T& value, CompletionToken&& token) {
  return write<void>(token, value, std::nullopt, nullptr);
}

template <JavaValue T>
template <class Rep, class Period, class CompletionToken>
auto Bucket<T>::async_set(const T& value, std::chrono::duration<Rep, Period> ttl,
                          CompletionToken&& token) {
  return write<void>(token, value, detail::saturating_ms(ttl), nullptr);
}

template <JavaValue T>
template <class CompletionToken>
auto Bucket<T>::async_set_if_absent(const T& value, CompletionToken&& token) {
  return write<bool>(token, value, std::nullopt, "NX");
}

template <JavaValue T>
template <class Rep, class Period, class CompletionToken>
auto Bucket<T>::async_set_if_absent(const T& value, std::chrono::duration<Rep, Period> ttl,
                                    CompletionToken&& token) {
  return write<bool>(token, value, detail::saturating_ms(ttl), "NX");
}

template <JavaValue T>
template <class CompletionToken>
auto Bucket<T>::async_set_if_exists(const T& value, CompletionToken&& token) {
  return write<bool>(token, value, std::nullopt, "XX");
}

template <JavaValue T>
template <class Rep, class Period, class CompletionToken>
auto Bucket<T>::async_set_if_exists(const T& value, std::chrono::duration<Rep, Period> ttl,
                                    CompletionToken&& token) {
  return write<bool>(token, value, detail::saturating_ms(ttl), "XX");
}

template <JavaValue T>
template <class CompletionToken>
auto Bucket<T>::async_compare_and_set(const std::optional<T>& expect,
                                      const std::optional<T>& update, CompletionToken&& token) {
  return detail::async_started<bool>(
      object_, token,
      [expect, update](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        detail::start_bucket_compare_and_set(object, encode_optional(*object, expect),
                                             encode_optional(*object, update), done);
      },
      &detail::reply_flag);
}

template <JavaValue T>
template <class CompletionToken>
auto Bucket<T>::async_get_and_set(const T& value, CompletionToken&& token) {
  return write<std::optional<T>>(token, value, std::nullopt, "GET");
}

template <JavaValue T>
template <class Rep, class Period, class CompletionToken>
auto Bucket<T>::async_get_and_set(const T& value, std::chrono::duration<Rep, Period> ttl,
                                  CompletionToken&& token) {
  return write<std::optional<T>>(token, value, detail::saturating_ms(ttl), "GET");
}

template <JavaValue T>
template <class CompletionToken>
auto Bucket<T>::async_get_and_delete(CompletionToken&& token) {
  return read(token, "GETDEL");
}

template <JavaValue T>
template <class Rep, class Period, class CompletionToken>
auto Bucket<T>::async_get_and_expire(std::chrono::duration<Rep, Period> ttl,
                                     CompletionToken&& token) {
  // The ttl is checked as the command is built, so that its error is the completion's.
  return detail::async_command<std::optional<T>>(
      object_, token,
      [this, ms = detail::saturating_ms(ttl)] {
        if (ms.count() <= 0) detail::throw_invalid_argument("the ttl must be positive");
        return Command{"GETEX", name(), "PX"}.arg(std::int64_t{ms.count()});
      },
      decoder());
}

template <JavaValue T>
template <class CompletionToken>
auto Bucket<T>::async_get_and_clear_expire(CompletionToken&& token) {
  return read(token, "GETEX", "PERSIST");
}

template <JavaValue T>
template <class CompletionToken>
auto Bucket<T>::async_size(CompletionToken&& token) const {
  return on_key<std::int64_t>(token, &detail::reply_integer, "STRLEN");
}

template <JavaValue T>
template <class CompletionToken, class... Args>
auto Bucket<T>::read(CompletionToken&& token, std::string_view verb, const Args&... args) const {
  return on_key<std::optional<T>>(token, decoder(), verb, args...);
}

template <JavaValue T>
template <class CompletionToken>
auto Bucket<T>::async_set_and_keep_ttl(const T& value, CompletionToken&& token) {
  return write<void>(token, value, std::nullopt, "KEEPTTL");
}

template <JavaValue T>
template <class CompletionToken>
auto Bucket<T>::async_find_common(const std::string& other, CompletionToken&& token) const {
  return on_key<std::optional<T>>(
      token,
      [codec = object_->codec](const Reply& reply) -> std::optional<T> {
        if (reply.is_string() && reply.str.empty()) return std::nullopt;  // nothing in common
        return detail::decode_reply<T>(*codec, reply);
      },
      "LCS", other);
}

template <JavaValue T>
template <class CompletionToken>
auto Bucket<T>::async_find_common_length(const std::string& other, CompletionToken&& token) const {
  return on_key<std::int64_t>(token, &detail::reply_integer, "LCS", other, "LEN");
}

template <JavaValue T>
template <class R, class CompletionToken>
auto Bucket<T>::write(CompletionToken&& token, const T& value,
                      std::optional<std::chrono::milliseconds> ttl, const char* condition) {
  return detail::async_command<R>(
      object_, token,
      [&] {
        if (ttl && ttl->count() <= 0) detail::throw_invalid_argument("the ttl must be positive");
        Command command{"SET", name(), detail::encode_value(codec(), value)};
        if (ttl) command.arg("PX").arg(std::int64_t{ttl->count()});
        if (condition != nullptr) command.arg(condition);
        return command;
      },
      [codec = object_->codec](const Reply& reply) -> R {
        if constexpr (std::is_same_v<R, bool>) {
          return !reply.is_null();
        } else if constexpr (!std::is_void_v<R>) {
          return detail::decode_reply<T>(*codec, reply);
        }
      });
}

}  // namespace redisson

// The bodies of Buckets's templates (objects/buckets.hpp).
#pragma once

#include "redisson/objects/buckets.hpp"

namespace redisson {

template <JavaValue T, class CompletionToken>
auto Buckets::async_get(const std::vector<std::string>& names, CompletionToken&& token) const {
  return detail::async_started<std::map<std::string, T>>(
      state_, token,
      [names](const detail::ObjectPtr& state, detail::Done<Reply>& done) {
        detail::start_buckets_get(state, names, done);
      },
      detail::bucket_values_by_name<T>(names, state_->codec));
}

template <JavaValue T, class CompletionToken>
auto Buckets::async_set(const std::map<std::string, T>& values, CompletionToken&& token) {
  return write<void>("MSET", values, std::forward<CompletionToken>(token));
}

template <JavaValue T, class CompletionToken>
auto Buckets::async_try_set(const std::map<std::string, T>& values, CompletionToken&& token) {
  return write<bool>("MSETNX", values, std::forward<CompletionToken>(token));
}

template <class R, class T, class CompletionToken>
auto Buckets::write(const char* command, const std::map<std::string, T>& values,
                    CompletionToken&& token) {
  return detail::async_started<R>(
      state_, token,
      [command, values](const detail::ObjectPtr& state, detail::Done<Reply>& done) {
        std::vector<std::pair<std::string, std::string>> pairs;
        pairs.reserve(values.size());
        for (const auto& [name, value] : values) {
          if (name.empty()) detail::throw_invalid_argument("a bucket name must not be empty");
          pairs.emplace_back(name, detail::encode_value(*state->codec, value));
        }
        detail::start_buckets_set(state, command, std::move(pairs), done);
      },
      [](const Reply& reply) -> R {
        if constexpr (!std::is_void_v<R>) return detail::reply_flag(reply);
      });
}

}  // namespace redisson

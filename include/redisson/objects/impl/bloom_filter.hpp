// The bodies of BloomFilter's templates (objects/bloom_filter.hpp).
#pragma once

#include "redisson/objects/bloom_filter.hpp"

namespace redisson {

template <JavaValue T>
template <class CompletionToken>
auto BloomFilter<T>::async_try_init(std::int64_t expected_insertions, double false_probability,
                                    CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &detail::start_bloom_try_init, cache_,
                       expected_insertions, false_probability);
}

template <JavaValue T>
template <class CompletionToken>
auto BloomFilter<T>::async_add(const T& value, CompletionToken&& token) {
  return values_op<bool>(token, {value}, &detail::start_bloom_add, &detail::reply_flag);
}

template <JavaValue T>
template <class CompletionToken>
auto BloomFilter<T>::async_add_all(const std::vector<T>& values, CompletionToken&& token) {
  return values_op<std::int64_t>(token, values, &detail::start_bloom_add, &detail::reply_integer);
}

template <JavaValue T>
template <class CompletionToken>
auto BloomFilter<T>::async_contains(const T& value, CompletionToken&& token) const {
  return values_op<bool>(token, {value}, &detail::start_bloom_contains, &detail::reply_flag);
}

template <JavaValue T>
template <class CompletionToken>
auto BloomFilter<T>::async_contains_all(const std::vector<T>& values,
                                        CompletionToken&& token) const {
  return values_op<std::int64_t>(token, values, &detail::start_bloom_contains,
                                 &detail::reply_integer);
}

template <JavaValue T>
template <class CompletionToken>
auto BloomFilter<T>::async_count(CompletionToken&& token) const {
  return started<std::int64_t>(token, &detail::reply_integer, &detail::start_bloom_count, cache_);
}

template <JavaValue T>
template <class CompletionToken>
auto BloomFilter<T>::async_expected_insertions(CompletionToken&& token) const {
  return setting<std::int64_t>(token, "expectedInsertions", &detail::reply_counter);
}

template <JavaValue T>
template <class CompletionToken>
auto BloomFilter<T>::async_false_probability(CompletionToken&& token) const {
  return setting<double>(token, "falseProbability", &detail::reply_double);
}

template <JavaValue T>
template <class CompletionToken>
auto BloomFilter<T>::async_size(CompletionToken&& token) const {
  return setting<std::int64_t>(token, "size", &detail::reply_counter);
}

template <JavaValue T>
template <class CompletionToken>
auto BloomFilter<T>::async_hash_iterations(CompletionToken&& token) const {
  return setting<std::int64_t>(token, "hashIterations", &detail::reply_counter);
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert>
auto BloomFilter<T>::values_op(CompletionToken&& token, const std::vector<T>& values,
                               StartValues start, Convert convert) const {
  return detail::async_started<R>(
      object_, token,
      [cache = cache_, values, start](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        std::vector<std::string> encoded;
        encoded.reserve(values.size());
        for (const auto& value : values) {
          encoded.push_back(detail::encode_value(*object->codec, value));
        }
        start(object, cache, std::move(encoded), done);
      },
      convert);
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert>
auto BloomFilter<T>::setting(CompletionToken&& token, const char* field, Convert convert) const {
  return started<R>(token, convert, &detail::start_bloom_setting, field);
}

}  // namespace redisson

// The bodies of BitSet's templates (objects/bit_set.hpp).
#pragma once

#include "redisson/objects/bit_set.hpp"

namespace redisson {

template <class CompletionToken>
auto BitSet::combine(std::string_view operation, const std::vector<std::string>& others,
                     CompletionToken&& token) {
  return detail::async_command<void>(
      object_, token, [&] { return detail::bit_operation(operation, name(), others); },
      &detail::reply_ignore);
}

template <class CompletionToken>
auto BitSet::async_get(std::int64_t index, CompletionToken&& token) const {
  return detail::async_command<bool>(
      object_, token,
      [this, index] {
        return Command{"GETBIT", name()}.arg(detail::checked_bit_index(index));
      },
      &detail::reply_flag);
}

template <class CompletionToken>
auto BitSet::async_set(std::int64_t index, bool value, CompletionToken&& token) {
  return detail::async_command<bool>(
      object_, token,
      [this, index, value] {
        return Command{"SETBIT", name()}
            .arg(detail::checked_bit_index(index))
            .arg(value ? "1" : "0");
      },
      &detail::reply_flag);
}

template <class CompletionToken>
auto BitSet::async_clear(std::int64_t index, CompletionToken&& token) {
  return async_set(index, false, std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto BitSet::async_set_range(std::int64_t from, std::int64_t to, bool value,
                             CompletionToken&& token) {
  return started<void>(token, &detail::reply_ignore, &detail::start_bit_set_range, from, to, value);
}

template <class CompletionToken>
auto BitSet::async_clear_range(std::int64_t from, std::int64_t to, CompletionToken&& token) {
  return async_set_range(from, to, false, std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto BitSet::async_cardinality(CompletionToken&& token) const {
  return on_key<std::int64_t>(token, &detail::reply_integer, "BITCOUNT");
}

template <class CompletionToken>
auto BitSet::async_length(CompletionToken&& token) const {
  return started<std::int64_t>(token, &detail::reply_integer, &detail::start_bit_set_length);
}

template <class CompletionToken>
auto BitSet::async_size(CompletionToken&& token) const {
  return on_key<std::int64_t>(
      token, [](const Reply& r) { return detail::reply_integer(r) * 8; }, "STRLEN");
}

template <class CompletionToken>
auto BitSet::async_and_with(const std::vector<std::string>& others, CompletionToken&& token) {
  return combine("AND", others, std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto BitSet::async_or_with(const std::vector<std::string>& others, CompletionToken&& token) {
  return combine("OR", others, std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto BitSet::async_xor_with(const std::vector<std::string>& others, CompletionToken&& token) {
  return combine("XOR", others, std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto BitSet::async_get_signed(int bits, std::int64_t offset, CompletionToken&& token) const {
  return started<std::int64_t>(token, &detail::reply_bit_field, &detail::start_bit_field, "GET",
                               true, bits, offset, std::int64_t{0});
}

template <class CompletionToken>
auto BitSet::async_get_unsigned(int bits, std::int64_t offset, CompletionToken&& token) const {
  return started<std::int64_t>(token, &detail::reply_bit_field, &detail::start_bit_field, "GET",
                               false, bits, offset, std::int64_t{0});
}

template <class CompletionToken>
auto BitSet::async_set_signed(int bits, std::int64_t offset, std::int64_t value,
                              CompletionToken&& token) {
  return started<std::int64_t>(token, &detail::reply_bit_field, &detail::start_bit_field, "SET",
                               true, bits, offset, value);
}

template <class CompletionToken>
auto BitSet::async_set_unsigned(int bits, std::int64_t offset, std::int64_t value,
                                CompletionToken&& token) {
  return started<std::int64_t>(token, &detail::reply_bit_field, &detail::start_bit_field, "SET",
                               false, bits, offset, value);
}

template <class CompletionToken>
auto BitSet::async_increment_and_get_signed(int bits, std::int64_t offset, std::int64_t increment,
                                            CompletionToken&& token) {
  return started<std::int64_t>(token, &detail::reply_bit_field, &detail::start_bit_field, "INCRBY",
                               true, bits, offset, increment);
}

template <class CompletionToken>
auto BitSet::async_increment_and_get_unsigned(int bits, std::int64_t offset, std::int64_t increment,
                                              CompletionToken&& token) {
  return started<std::int64_t>(token, &detail::reply_bit_field, &detail::start_bit_field, "INCRBY",
                               false, bits, offset, increment);
}

template <class CompletionToken>
auto BitSet::async_flip(CompletionToken&& token) {
  return combine("NOT", {}, std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto BitSet::async_to_bytes(CompletionToken&& token) const {
  return on_key<Bytes>(token, &detail::reply_bytes, "GET");
}

template <class CompletionToken>
auto BitSet::async_set_bytes(const Bytes& bytes, CompletionToken&& token) {
  const std::string_view raw(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return on_key<void>(token, &detail::reply_ignore, "SET", raw);
}

template <class CompletionToken>
auto BitSet::async_clear(CompletionToken&& token) {
  return on_key<void>(token, &detail::reply_ignore, "DEL");
}

}  // namespace redisson

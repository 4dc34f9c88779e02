// redisson::BitSet: a bitmap in Redis, Java Redisson's RBitSet.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "redisson/objects/object.hpp"

namespace redisson {

namespace detail {
/// SETBIT/GETBIT's offset, checked: 0 <= index < 2^32 (Redis's limit), else invalid_argument.
std::int64_t checked_bit_index(std::int64_t index);
/// set_range/clear_range: the script writing bits [from, to) (0 <= from <= to <= 2^32, checked
/// before sending). Completes with the script's 0.
void start_bit_set_range(const ObjectPtr& object, std::int64_t from, std::int64_t to, bool value,
                         Done<Reply>& done);
/// length: the script finding the highest set bit. Completes with its index + 1.
void start_bit_set_length(const ObjectPtr& object, Done<Reply>& done);
/// BITOP <operation> name name others...
Command bit_operation(std::string_view operation, const std::string& name,
                      const std::vector<std::string>& others);
/// A GET reply as bytes (nil: none).
Bytes reply_bytes(const Reply& reply);
}  // namespace detail

/// A bitmap shared through Redis, like Java's BitSet: bits numbered from 0, growing as bits are
/// set. Every operation is atomic on the server.
///
/// Layout: a string key `name`, the bitmap as Redis's SETBIT numbers it (bit i is bit 7 - i % 8
/// of byte i / 8, the most significant first: bits 0, 5 and 63 are the bytes 84 00 .. 00 01),
/// the layout of Java Redisson's RBitSet. One round trip per operation: SETBIT, GETBIT,
/// BITCOUNT, STRLEN, BITOP, GET, SET, DEL, or one script for a range (BITFIELD for the partial
/// bytes at its ends, SETRANGE for the whole bytes between) and for length().
///
/// Bit indexes go from 0 to 2^32 - 1 (Redis's limit); others are errc::invalid_argument, with
/// nothing sent. A key of another type is errc::wrong_type and is left untouched. The
/// operations with other bitmaps (and_with, ...) need them in the same hash slot on a Cluster
/// (names with the same {hash tag}); otherwise the server refuses (errc::server_error).
class BitSet : public Object {
  // (Defined first: the forms below deduce their return types from it.)
  template <class CompletionToken>
  auto combine(std::string_view operation, const std::vector<std::string>& others,
               CompletionToken&& token) {
    return detail::async_command<void>(
        object_, token, [&] { return detail::bit_operation(operation, name(), others); },
        &detail::reply_ignore);
  }

 public:
  /// A handle on the bitmap `name`; sends nothing.
  BitSet(const Client& client, std::string name)
      : Object(client, std::move(name), codecs::bytes(), "BitSet") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_get(std::int64_t index, CompletionToken&& token) const {
    return detail::async_command<bool>(
        object_, token,
        [this, index] {
          return Command{"GETBIT", name()}.arg(detail::checked_bit_index(index));
        },
        &detail::reply_flag);
  }
  template <class CompletionToken>
  auto async_set(std::int64_t index, bool value, CompletionToken&& token) {
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
  auto async_clear(std::int64_t index, CompletionToken&& token) {
    return async_set(index, false, std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_set_range(std::int64_t from, std::int64_t to, bool value, CompletionToken&& token) {
    return started<void>(token, &detail::reply_ignore, &detail::start_bit_set_range, from, to,
                         value);
  }
  template <class CompletionToken>
  auto async_clear_range(std::int64_t from, std::int64_t to, CompletionToken&& token) {
    return async_set_range(from, to, false, std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_cardinality(CompletionToken&& token) const {
    return on_key<std::int64_t>(token, &detail::reply_integer, "BITCOUNT");
  }
  template <class CompletionToken>
  auto async_length(CompletionToken&& token) const {
    return started<std::int64_t>(token, &detail::reply_integer, &detail::start_bit_set_length);
  }
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const {
    return on_key<std::int64_t>(
        token, [](const Reply& r) { return detail::reply_integer(r) * 8; }, "STRLEN");
  }
  template <class CompletionToken>
  auto async_and_with(const std::vector<std::string>& others, CompletionToken&& token) {
    return combine("AND", others, std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_or_with(const std::vector<std::string>& others, CompletionToken&& token) {
    return combine("OR", others, std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_xor_with(const std::vector<std::string>& others, CompletionToken&& token) {
    return combine("XOR", others, std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_flip(CompletionToken&& token) {
    return combine("NOT", {}, std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_to_bytes(CompletionToken&& token) const {
    return on_key<Bytes>(token, &detail::reply_bytes, "GET");
  }
  template <class CompletionToken>
  auto async_set_bytes(const Bytes& bytes, CompletionToken&& token) {
    const std::string_view raw(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    return on_key<void>(token, &detail::reply_ignore, "SET", raw);
  }
  template <class CompletionToken>
  auto async_clear(CompletionToken&& token) {
    return on_key<void>(token, &detail::reply_ignore, "DEL");
  }

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Bit `index` (false past the end).
  bool get(std::int64_t index) const { return async_get(index, detail::blocking("get", name())); }
  /// Sets bit `index` to `value`; returns its value before.
  bool set(std::int64_t index, bool value = true) {
    return async_set(index, value, detail::blocking("set", name()));
  }
  /// Clears bit `index`; returns its value before.
  bool clear(std::int64_t index) { return async_clear(index, detail::blocking("clear", name())); }
  /// Sets bits [from, to) to `value` (Java's set(from, to[, value])); from == to does nothing.
  void set_range(std::int64_t from, std::int64_t to, bool value = true) {
    async_set_range(from, to, value, detail::blocking("set_range", name()));
  }
  /// Clears bits [from, to) (Java's clear(from, to)).
  void clear_range(std::int64_t from, std::int64_t to) {
    async_clear_range(from, to, detail::blocking("clear_range", name()));
  }
  /// How many bits are set (BITCOUNT).
  std::int64_t cardinality() const {
    return async_cardinality(detail::blocking("cardinality", name()));
  }
  /// The highest set bit's index + 1; 0 when no bit is set (Java's BitSet.length()).
  std::int64_t length() const { return async_length(detail::blocking("length", name())); }
  /// The bits stored: the bitmap's bytes * 8 (Java Redisson's size()).
  std::int64_t size() const { return async_size(detail::blocking("size", name())); }
  /// This = this AND every bitmap in `others` (a missing one is all zeros).
  void and_with(const std::vector<std::string>& others) {
    async_and_with(others, detail::blocking("and_with", name()));
  }
  /// This = this OR every bitmap in `others`.
  void or_with(const std::vector<std::string>& others) {
    async_or_with(others, detail::blocking("or_with", name()));
  }
  /// This = this XOR every bitmap in `others`.
  void xor_with(const std::vector<std::string>& others) {
    async_xor_with(others, detail::blocking("xor_with", name()));
  }
  /// Flips every stored bit (BITOP NOT; Java Redisson's not()): size() bits, so the zero bits
  /// after length() up to the end of the last byte become ones.
  void flip() { async_flip(detail::blocking("flip", name())); }
  /// The bitmap's bytes (empty when the key does not exist): Java's toByteArray().
  Bytes to_bytes() const { return async_to_bytes(detail::blocking("to_bytes", name())); }
  /// Replaces the bitmap with `bytes` (in the layout above).
  void set_bytes(const Bytes& bytes) {
    async_set_bytes(bytes, detail::blocking("set_bytes", name()));
  }
  /// Clears every bit: deletes the key.
  void clear() { async_clear(detail::blocking("clear", name())); }
};

}  // namespace redisson

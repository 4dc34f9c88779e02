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
  template <class CompletionToken>
  auto combine(std::string_view operation, const std::vector<std::string>& others,
               CompletionToken&& token);

 public:
  /// A handle on the bitmap `name`; sends nothing.
  BitSet(const Client& client, std::string name)
      : Object(client, std::move(name), codecs::bytes(), "BitSet") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_get(std::int64_t index, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_set(std::int64_t index, bool value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_clear(std::int64_t index, CompletionToken&& token);
  template <class CompletionToken>
  auto async_set_range(std::int64_t from, std::int64_t to, bool value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_clear_range(std::int64_t from, std::int64_t to, CompletionToken&& token);
  template <class CompletionToken>
  auto async_cardinality(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_length(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_and_with(const std::vector<std::string>& others, CompletionToken&& token);
  template <class CompletionToken>
  auto async_or_with(const std::vector<std::string>& others, CompletionToken&& token);
  template <class CompletionToken>
  auto async_xor_with(const std::vector<std::string>& others, CompletionToken&& token);
  template <class CompletionToken>
  auto async_flip(CompletionToken&& token);
  template <class CompletionToken>
  auto async_to_bytes(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_set_bytes(const Bytes& bytes, CompletionToken&& token);
  template <class CompletionToken>
  auto async_clear(CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Bit `index` (false past the end).
  bool get(std::int64_t index) const;
  /// Sets bit `index` to `value`; returns its value before.
  bool set(std::int64_t index, bool value = true);
  /// Clears bit `index`; returns its value before.
  bool clear(std::int64_t index);
  /// Sets bits [from, to) to `value` (Java's set(from, to[, value])); from == to does nothing.
  void set_range(std::int64_t from, std::int64_t to, bool value = true);
  /// Clears bits [from, to) (Java's clear(from, to)).
  void clear_range(std::int64_t from, std::int64_t to);
  /// How many bits are set (BITCOUNT).
  std::int64_t cardinality() const;
  /// The highest set bit's index + 1; 0 when no bit is set (Java's BitSet.length()).
  std::int64_t length() const;
  /// The bits stored: the bitmap's bytes * 8 (Java Redisson's size()).
  std::int64_t size() const;
  /// This = this AND every bitmap in `others` (a missing one is all zeros).
  void and_with(const std::vector<std::string>& others);
  /// This = this OR every bitmap in `others`.
  void or_with(const std::vector<std::string>& others);
  /// This = this XOR every bitmap in `others`.
  void xor_with(const std::vector<std::string>& others);
  /// Flips every stored bit (BITOP NOT; Java Redisson's not()): size() bits, so the zero bits
  /// after length() up to the end of the last byte become ones.
  void flip();
  /// The bitmap's bytes (empty when the key does not exist): Java's toByteArray().
  Bytes to_bytes() const;
  /// Replaces the bitmap with `bytes` (in the layout above).
  void set_bytes(const Bytes& bytes);
  /// Clears every bit: deletes the key.
  void clear();
};

}  // namespace redisson

#include "redisson/objects/impl/bit_set.hpp"

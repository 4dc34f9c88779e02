// redisson::BitSet: a bitmap in Redis, Java Redisson's RBitSet.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
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
/// BITFIELD[_RO] name <op> <i|u><bits> <offset> [value]: `op` GET, SET or INCRBY; bits 1..64
/// signed, 1..63 unsigned, offset >= 0 (checked before sending: invalid_argument).
void start_bit_field(const ObjectPtr& object, const char* op, bool is_signed, int bits,
                     std::int64_t offset, std::int64_t value, Done<Reply>& done);
/// BITFIELD's reply: an array holding one integer.
std::int64_t reply_bit_field(const Reply& reply);
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
///
/// Integer fields (BITFIELD, Java's getSigned, setByte, incrementAndGetLong, ...): a field of
/// `bits` bits starting at bit `offset` (any bit, not only a multiple of the width), signed
/// (two's complement, 1 to 64 bits) or unsigned (1 to 63 bits), the most significant bit first.
/// set_* answer the field's previous value, increment_and_get_* its new one (wrapping around
/// on overflow, BITFIELD's default). get_field<Int> and the others read the field as the integer
/// type Int: std::int8_t is Java's getByte, std::int16_t getShort, std::int32_t getInteger,
/// std::int64_t getLong.
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
  auto async_get_signed(int bits, std::int64_t offset, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_get_unsigned(int bits, std::int64_t offset, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_set_signed(int bits, std::int64_t offset, std::int64_t value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_set_unsigned(int bits, std::int64_t offset, std::int64_t value,
                          CompletionToken&& token);
  template <class CompletionToken>
  auto async_increment_and_get_signed(int bits, std::int64_t offset, std::int64_t increment,
                                      CompletionToken&& token);
  template <class CompletionToken>
  auto async_increment_and_get_unsigned(int bits, std::int64_t offset, std::int64_t increment,
                                        CompletionToken&& token);
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

  /// The signed field of `bits` bits at bit `offset` (BITFIELD_RO GET i<bits>).
  std::int64_t get_signed(int bits, std::int64_t offset) const;
  /// The unsigned field of `bits` bits at bit `offset` (GET u<bits>).
  std::int64_t get_unsigned(int bits, std::int64_t offset) const;
  /// Writes the signed field; returns its previous value (BITFIELD SET i<bits>).
  std::int64_t set_signed(int bits, std::int64_t offset, std::int64_t value);
  /// Writes the unsigned field; returns its previous value.
  std::int64_t set_unsigned(int bits, std::int64_t offset, std::int64_t value);
  /// Adds `increment` to the signed field; returns its new value (BITFIELD INCRBY).
  std::int64_t increment_and_get_signed(int bits, std::int64_t offset, std::int64_t increment);
  /// Adds `increment` to the unsigned field; returns its new value.
  std::int64_t increment_and_get_unsigned(int bits, std::int64_t offset, std::int64_t increment);

  /// The field of Int's width at bit `offset`, read as an Int (signed Ints: i8..i64; unsigned:
  /// u8..u32).
  template <std::integral Int>
  Int get_field(std::int64_t offset) const {
    return static_cast<Int>(field_is_signed<Int>() ? get_signed(field_bits<Int>(), offset)
                                                   : get_unsigned(field_bits<Int>(), offset));
  }
  /// Writes the Int field at bit `offset`; returns its previous value.
  template <std::integral Int>
  Int set_field(std::int64_t offset, Int value) {
    const auto wide = static_cast<std::int64_t>(value);
    return static_cast<Int>(field_is_signed<Int>() ? set_signed(field_bits<Int>(), offset, wide)
                                                   : set_unsigned(field_bits<Int>(), offset, wide));
  }
  /// Adds `increment` to the Int field at bit `offset`; returns its new value.
  template <std::integral Int>
  Int increment_and_get_field(std::int64_t offset, Int increment) {
    const auto wide = static_cast<std::int64_t>(increment);
    return static_cast<Int>(field_is_signed<Int>()
                                ? increment_and_get_signed(field_bits<Int>(), offset, wide)
                                : increment_and_get_unsigned(field_bits<Int>(), offset, wide));
  }

 private:
  template <class Int>
  static constexpr int field_bits() {
    static_assert(std::is_signed_v<Int> || sizeof(Int) < 8,
                  "BITFIELD has no 64-bit unsigned fields (u63 at most)");
    return static_cast<int>(sizeof(Int) * 8);
  }
  template <class Int>
  static constexpr bool field_is_signed() {
    return std::is_signed_v<Int>;
  }
};

}  // namespace redisson

#include "redisson/objects/impl/bit_set.hpp"

// The parts of BitSet written out of line: argument checks and its scripts.
#include "redisson/objects/bit_set.hpp"

#include "lua_scripts.hpp"
#include "objects/send.hpp"

namespace redisson::detail {
namespace {

// Redis refuses bit offsets from 2^32 on ("bit offset is not an integer or out of range").
constexpr std::int64_t kBitLimit = std::int64_t{1} << 32;

}  // namespace

std::int64_t checked_bit_index(std::int64_t index) {
  if (index < 0 || index >= kBitLimit) {
    throw_invalid_argument("a bit index must be in [0, 2^32), got " + std::to_string(index));
  }
  return index;
}

void start_bit_set_range(const ObjectPtr& object, std::int64_t from, std::int64_t to, bool value,
                         Done<Reply>& done) {
  if (from < 0 || to < from || to > kBitLimit) {
    throw_invalid_argument("a bit range [from, to) needs 0 <= from <= to <= 2^32, got [" +
                           std::to_string(from) + ", " + std::to_string(to) + ")");
  }
  eval_reply(*object, lua::bit_set_set_range({object->name}, {from, to, value ? "1" : "0"}),
             std::move(done));
}

void start_bit_set_length(const ObjectPtr& object, Done<Reply>& done) {
  eval_reply(*object, lua::bit_set_length({object->name}), std::move(done));
}

Command bit_operation(std::string_view operation, const std::string& name,
                      const std::vector<std::string>& others) {
  Command command{"BITOP", operation, name, name};
  for (const auto& other : others) command.arg(other);
  return command;
}

Bytes reply_bytes(const Reply& reply) {
  if (reply.is_null()) return {};
  if (!reply.is_string()) throw_unexpected_reply("a bitmap", reply);
  const auto* first = reinterpret_cast<const std::byte*>(reply.str.data());
  return Bytes(first, first + reply.str.size());
}

void start_bit_field(const ObjectPtr& object, const char* op, bool is_signed, int bits,
                     std::int64_t offset, std::int64_t value, Done<Reply>& done) {
  const int widest = is_signed ? 64 : 63;
  if (bits < 1 || bits > widest) {
    throw_invalid_argument("BitSet: a " + std::string(is_signed ? "signed" : "unsigned") +
                           " field has 1 to " + std::to_string(widest) + " bits, not " +
                           std::to_string(bits));
  }
  if (offset < 0) throw_invalid_argument("BitSet: a field's offset must not be negative");
  const bool read = std::string_view(op) == "GET";
  // BITFIELD_RO for a read: allowed on replicas and in read-only scripts.
  Command command{read ? "BITFIELD_RO" : "BITFIELD", object->name, op};
  command.arg((is_signed ? "i" : "u") + std::to_string(bits)).arg(offset);
  if (!read) command.arg(value);
  submit_command(object, command, std::move(done));
}

std::int64_t reply_bit_field(const Reply& reply) {
  if (!reply.is_aggregate() || reply.elements.size() != 1) {
    throw_unexpected_reply("one BITFIELD result", reply);
  }
  return reply_integer(reply.elements.front());
}

}  // namespace redisson::detail

namespace redisson {

bool BitSet::get(std::int64_t index) const {
  return async_get(index, detail::blocking("get", name()));
}

bool BitSet::set(std::int64_t index, bool value) {
  return async_set(index, value, detail::blocking("set", name()));
}

bool BitSet::clear(std::int64_t index) {
  return async_clear(index, detail::blocking("clear", name()));
}

void BitSet::set_range(std::int64_t from, std::int64_t to, bool value) {
  async_set_range(from, to, value, detail::blocking("set_range", name()));
}

void BitSet::clear_range(std::int64_t from, std::int64_t to) {
  async_clear_range(from, to, detail::blocking("clear_range", name()));
}

std::int64_t BitSet::cardinality() const {
  return async_cardinality(detail::blocking("cardinality", name()));
}

std::int64_t BitSet::length() const { return async_length(detail::blocking("length", name())); }

std::int64_t BitSet::size() const { return async_size(detail::blocking("size", name())); }

void BitSet::and_with(const std::vector<std::string>& others) {
  async_and_with(others, detail::blocking("and_with", name()));
}

void BitSet::or_with(const std::vector<std::string>& others) {
  async_or_with(others, detail::blocking("or_with", name()));
}

void BitSet::xor_with(const std::vector<std::string>& others) {
  async_xor_with(others, detail::blocking("xor_with", name()));
}

void BitSet::flip() { async_flip(detail::blocking("flip", name())); }

Bytes BitSet::to_bytes() const { return async_to_bytes(detail::blocking("to_bytes", name())); }

void BitSet::set_bytes(const Bytes& bytes) {
  async_set_bytes(bytes, detail::blocking("set_bytes", name()));
}

void BitSet::clear() { async_clear(detail::blocking("clear", name())); }

}  // namespace redisson

namespace redisson {

std::int64_t BitSet::get_signed(int bits, std::int64_t offset) const {
  return async_get_signed(bits, offset, detail::blocking("get_signed", name()));
}

std::int64_t BitSet::get_unsigned(int bits, std::int64_t offset) const {
  return async_get_unsigned(bits, offset, detail::blocking("get_unsigned", name()));
}

std::int64_t BitSet::set_signed(int bits, std::int64_t offset, std::int64_t value) {
  return async_set_signed(bits, offset, value, detail::blocking("set_signed", name()));
}

std::int64_t BitSet::set_unsigned(int bits, std::int64_t offset, std::int64_t value) {
  return async_set_unsigned(bits, offset, value, detail::blocking("set_unsigned", name()));
}

std::int64_t BitSet::increment_and_get_signed(int bits, std::int64_t offset,
                                              std::int64_t increment) {
  return async_increment_and_get_signed(bits, offset, increment,
                                        detail::blocking("increment_and_get_signed", name()));
}

std::int64_t BitSet::increment_and_get_unsigned(int bits, std::int64_t offset,
                                                std::int64_t increment) {
  return async_increment_and_get_unsigned(bits, offset, increment,
                                          detail::blocking("increment_and_get_unsigned", name()));
}

}  // namespace redisson

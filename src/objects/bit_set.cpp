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

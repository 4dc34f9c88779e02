#include "services/local_cache_messages.hpp"

#include <cstring>

#include "redisson/error.hpp"

namespace redisson::detail {

namespace {

void put_int32(std::string& out, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(value >> shift));
}

/// A cursor over a message that refuses to read past its end.
class MessageReader {
 public:
  explicit MessageReader(std::string_view bytes) : bytes_(bytes) {}

  std::string_view take(std::size_t count) {
    if (count > bytes_.size() - at_) fail();
    auto part = bytes_.substr(at_, count);
    at_ += count;
    return part;
  }
  std::uint64_t big_endian(std::size_t width) {
    std::uint64_t value = 0;
    for (const char c : take(width)) value = (value << 8) | static_cast<unsigned char>(c);
    return value;
  }
  std::int32_t int32() { return static_cast<std::int32_t>(big_endian(4)); }
  std::int64_t int64() { return static_cast<std::int64_t>(big_endian(8)); }
  bool boolean() { return take(1)[0] != 0; }
  template <std::size_t N>
  std::array<char, N> array() {
    std::array<char, N> out{};
    const auto part = take(N);
    std::memcpy(out.data(), part.data(), N);
    return out;
  }
  std::vector<LocalCacheKeyHash> hashes() {
    const auto count = int32();
    if (count < 0 || static_cast<std::size_t>(count) > (bytes_.size() - at_) / 16) fail();
    std::vector<LocalCacheKeyHash> out(static_cast<std::size_t>(count));
    for (auto& hash : out) hash = array<16>();
    return out;
  }
  std::string_view sized() {
    const auto length = int32();
    if (length < 0) fail();
    return take(static_cast<std::size_t>(length));
  }
  bool done() const noexcept { return at_ == bytes_.size(); }

 private:
  [[noreturn]] static void fail() {
    throw error(errc::codec_error, "LocalCachedMap: a topic message cut short");
  }
  std::string_view bytes_;
  std::size_t at_ = 0;
};

std::string with_sender(LocalCacheMessageType type, const LocalCacheInstanceId& sender) {
  std::string out(1, static_cast<char>(type));
  out.append(sender.data(), sender.size());
  return out;
}

}  // namespace

std::string encode_local_cache_invalidate(const LocalCacheInstanceId& sender,
                                          const std::vector<LocalCacheKeyHash>& hashes) {
  auto out = with_sender(LocalCacheMessageType::invalidate, sender);
  put_int32(out, static_cast<std::uint32_t>(hashes.size()));
  for (const auto& hash : hashes) out.append(hash.data(), hash.size());
  return out;
}

std::string encode_local_cache_update(
    const LocalCacheInstanceId& sender,
    const std::vector<std::pair<std::string_view, std::string_view>>& entries) {
  auto out = with_sender(LocalCacheMessageType::update, sender);
  for (const auto& [key, value] : entries) {
    put_int32(out, static_cast<std::uint32_t>(key.size()));
    out.append(key);
    put_int32(out, static_cast<std::uint32_t>(value.size()));
    out.append(value);
  }
  return out;
}

std::string encode_local_cache_clear(const LocalCacheInstanceId& sender,
                                     const std::array<char, 16>& request, bool release) {
  auto out = with_sender(LocalCacheMessageType::clear, sender);
  out.append(request.data(), request.size());
  out.push_back(release ? '\1' : '\0');
  return out;
}

std::string encode_local_cache_disable_ack() {
  return std::string(1, static_cast<char>(LocalCacheMessageType::disable_ack));
}

LocalCacheMessage decode_local_cache_message(std::string_view bytes) {
  MessageReader in(bytes);
  LocalCacheMessage message;
  const auto type = static_cast<std::uint8_t>(in.big_endian(1));
  message.type = static_cast<LocalCacheMessageType>(type);
  switch (message.type) {
    case LocalCacheMessageType::clear: {
      message.excluded = in.array<16>();
      message.request_id = std::string(in.take(16));
      message.flag = in.boolean();
      break;
    }
    case LocalCacheMessageType::invalidate:
      message.excluded = in.array<16>();
      message.hashes = in.hashes();
      break;
    case LocalCacheMessageType::update:
      message.excluded = in.array<16>();
      // Java reads entries until the bytes end (an update carries at least one).
      do {
        auto key = in.sized();
        auto value = in.sized();
        message.entries.emplace_back(std::string(key), std::string(value));
      } while (!in.done());
      break;
    case LocalCacheMessageType::disable:
      message.request_id = std::string(in.take(static_cast<std::size_t>(in.big_endian(1))));
      message.timeout_ms = in.int64();
      message.flag = in.boolean();
      message.hashes = in.hashes();
      break;
    case LocalCacheMessageType::disable_ack:
      break;
    case LocalCacheMessageType::enable:
      message.request_id = std::string(in.take(static_cast<std::size_t>(in.big_endian(1))));
      message.flag = in.boolean();
      message.hashes = in.hashes();
      break;
    case LocalCacheMessageType::disabled_key:
      message.request_id = std::string(in.take(static_cast<std::size_t>(in.big_endian(1))));
      message.timeout_ms = in.int64();
      break;
    default:
      throw error(errc::codec_error,
                  "LocalCachedMap: a topic message of unknown type " + std::to_string(type));
  }
  return message;
}

}  // namespace redisson::detail

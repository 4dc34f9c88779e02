// Redis Cluster hash slots: CRC16 (XMODEM) of the key, or of its hash tag, modulo 16384.
#pragma once

#include <cstdint>
#include <string_view>

namespace redisson::detail {

inline constexpr int kClusterSlots = 16384;

/// CRC16/XMODEM (polynomial 0x1021, initial value 0), as the Redis Cluster specification uses.
std::uint16_t crc16(std::string_view data) noexcept;

/// The slot of `key`: when the key has a non-empty `{...}` hash tag (the first '{' and the
/// first '}' after it), only the tag is hashed, so `{user}.a` and `{user}.b` share a slot.
int key_slot(std::string_view key) noexcept;

}  // namespace redisson::detail

#include "client/client_id.hpp"

#include <unistd.h>

#include <array>
#include <cstdint>
#include <mutex>
#include <random>

namespace redisson::detail {
namespace {

std::array<std::uint8_t, 16> random_bytes() {
  // One generator per thread, seeded from the OS: ids must not repeat across processes. A
  // forked child inherits its parent's generator state, so it seeds its own again (else every
  // child forked after the parent made a client would get the same client id: one owner).
  thread_local std::mt19937_64 generator;
  thread_local pid_t seeded_in = -1;
  if (seeded_in != getpid()) {
    std::random_device device;
    std::seed_seq seed{device(), device(), device(), device(), device(), device()};
    generator.seed(seed);
    seeded_in = getpid();
  }
  std::array<std::uint8_t, 16> bytes{};
  for (std::size_t i = 0; i < bytes.size(); i += 8) {
    const auto value = generator();
    for (std::size_t j = 0; j < 8; ++j) bytes[i + j] = static_cast<std::uint8_t>(value >> (8 * j));
  }
  return bytes;
}

constexpr char kHex[] = "0123456789abcdef";

}  // namespace

std::string make_client_id() {
  auto bytes = random_bytes();
  bytes[6] = static_cast<std::uint8_t>((bytes[6] & 0x0F) | 0x40);  // version 4
  bytes[8] = static_cast<std::uint8_t>((bytes[8] & 0x3F) | 0x80);  // RFC 4122 variant
  std::string id;
  id.reserve(36);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) id.push_back('-');
    id.push_back(kHex[bytes[i] >> 4]);
    id.push_back(kHex[bytes[i] & 0xF]);
  }
  return id;
}

std::string make_request_id() {
  const auto bytes = random_bytes();
  std::string id;
  id.reserve(32);
  for (auto byte : bytes) {
    id.push_back(kHex[byte >> 4]);
    id.push_back(kHex[byte & 0xF]);
  }
  return id;
}

}  // namespace redisson::detail

#include "client/client_id.hpp"

#include <pthread.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <random>

namespace redisson::detail {
namespace {

// Bumped in every forked child (pthread_atfork), so a generator seeded before a fork is seeded
// again after it. Checking this instead of calling getpid() per id keeps a system call off
// every unlock (glibc no longer caches the pid).
std::atomic<std::uint64_t> fork_generation{1};

void on_fork_in_child() { fork_generation.fetch_add(1, std::memory_order_relaxed); }

std::array<std::uint8_t, 16> random_bytes() {
  // One generator per thread, seeded from the OS: ids must not repeat across processes. A
  // forked child inherits its parent's generator state, so it seeds its own again (else every
  // child forked after the parent made a client would get the same client id: one owner).
  static const bool fork_handler_installed = [] {
    pthread_atfork(nullptr, nullptr, on_fork_in_child);
    return true;
  }();
  (void)fork_handler_installed;
  thread_local std::mt19937_64 generator;
  thread_local std::uint64_t seeded_in = 0;
  const auto generation = fork_generation.load(std::memory_order_relaxed);
  if (seeded_in != generation) {
    std::random_device device;
    std::seed_seq seed{device(), device(), device(), device(), device(), device()};
    generator.seed(seed);
    seeded_in = generation;
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
  std::string id;
  append_request_id(id);
  return id;
}

std::string make_id_bytes() {
  const auto bytes = random_bytes();
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

void append_request_id(std::string& out) {
  const auto bytes = random_bytes();
  out.reserve(out.size() + 2 * bytes.size());
  for (auto byte : bytes) {
    out.push_back(kHex[byte >> 4]);
    out.push_back(kHex[byte & 0xF]);
  }
}

}  // namespace redisson::detail

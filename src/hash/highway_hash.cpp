#include "hash/highway_hash.hpp"

// Header-only use of libhighwayhash: HighwayHashT and the state of the target the compiler
// builds for (portable, or SSE4.1/AVX2 when enabled) are inline templates, so the library needs
// no libhighwayhash at link time and neither do its consumers (cmake/install.cmake).
#include <highwayhash/highwayhash.h>

#include "codec/base64.hpp"

namespace redisson::detail {
namespace {

// Redisson's Hash.KEY.
alignas(32) constexpr highwayhash::HHKey kRedissonKey = {
    0x9e3779b97f4a7c15ULL, 0xf39cc0605cedc834ULL, 0x1082276bf3a27251ULL, 0xf86c6a11d0c18e95ULL};

template <class Result>
void hash(std::string_view bytes, Result* result) noexcept {
  highwayhash::HHStateT<HH_TARGET> state(kRedissonKey);
  highwayhash::HighwayHashT(&state, bytes.data(), bytes.size(), result);
}

void put_big_endian(std::uint64_t value, char* out) noexcept {
  for (int i = 7; i >= 0; --i) {
    out[i] = static_cast<char>(value & 0xff);
    value >>= 8;
  }
}

}  // namespace

HighwayHash128 highway_hash128(std::string_view bytes) noexcept {
  highwayhash::HHResult128 result{};
  hash(bytes, &result);
  return {result[0], result[1]};
}

std::uint64_t highway_hash64(std::string_view bytes) noexcept {
  highwayhash::HHResult64 result{};
  hash(bytes, &result);
  return result;
}

std::array<char, 16> highway_hash128_array(std::string_view bytes) noexcept {
  const auto hash = highway_hash128(bytes);
  std::array<char, 16> out{};
  put_big_endian(hash.h0, out.data());
  put_big_endian(hash.h1, out.data() + 8);
  return out;
}

std::string highway_hash128_base64(std::string_view bytes) {
  const auto array = highway_hash128_array(bytes);
  auto text = base64_encode(std::string_view(array.data(), array.size()));
  text.resize(22);  // 16 bytes make 22 characters and "=="
  return text;
}

}  // namespace redisson::detail

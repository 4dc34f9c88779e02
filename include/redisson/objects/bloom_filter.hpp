// redisson::BloomFilter<T>: a Bloom filter in Redis, Java Redisson's RBloomFilter.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "redisson/objects/object.hpp"

namespace redisson {

namespace detail {
/// The size and hash count a handle read from the filter's config (shared by its copies).
struct BloomCache;
std::shared_ptr<BloomCache> make_bloom_cache();
/// The filter's keys besides its name: `{name}:config`.
std::vector<std::string> bloom_filter_keys(const std::string& name);
inline constexpr ObjectHooks bloom_filter_hooks{.extra_keys = &bloom_filter_keys};

/// try_init: m and k from Java's formulas (invalid_argument before sending when they are out
/// of range), then the script writing the config if there is none. Completes with 1/0.
void start_bloom_try_init(const ObjectPtr& object, const std::shared_ptr<BloomCache>& cache,
                          std::int64_t expected_insertions, double false_probability,
                          Done<Reply>& done);
/// add / contains of codec-encoded values: the config (cached, else HGETALL), the values' bit
/// indexes, one script. Completes with the count of values added / present.
void start_bloom_add(const ObjectPtr& object, const std::shared_ptr<BloomCache>& cache,
                     std::vector<std::string> encoded, Done<Reply>& done);
void start_bloom_contains(const ObjectPtr& object, const std::shared_ptr<BloomCache>& cache,
                          std::vector<std::string> encoded, Done<Reply>& done);
/// count: HGETALL of the config and BITCOUNT, pipelined; completes with the estimate.
void start_bloom_count(const ObjectPtr& object, const std::shared_ptr<BloomCache>& cache,
                       Done<Reply>& done);
/// One field of the config (HGET); a filter without a config is errc::not_initialized.
void start_bloom_setting(const ObjectPtr& object, const char* field, Done<Reply>& done);
}  // namespace detail

/// A Bloom filter of T values: add() remembers a value, contains() answers "maybe added" or
/// "certainly not". The same Redis layout, bit indexes and scripts as Java Redisson's
/// RBloomFilter, so Java and C++ services share a filter (use the same codec on both sides; the
/// default, kryo5, is Java's default too; codecs::string() is the simplest for String values).
///
/// Layout: the bitmap string `name` (bit i = Redis bit i) and the hash `{name}:config` with
/// `size` (m bits), `hashIterations` (k), `expectedInsertions` and `falseProbability`, written
/// once by try_init. A value's k bit indexes come from HighwayHash-128 (Redisson's key) of its
/// codec bytes, {h0, h1}: h = h0; index_i = (h & 0x7fff...) mod m; h += (i even ? h1 : h0).
///
/// Cost: try_init, add, add_all, contains and contains_all are one script each (the first
/// add/contains of a handle also reads the config: HGETALL, one more round trip, then cached in
/// the handle and its copies); count() is HGETALL + BITCOUNT pipelined; the getters one HGET.
///
/// Errors: a filter never initialised (no config) is errc::not_initialized; if the config
/// changed since this handle read it (the filter was deleted and initialised again with other
/// parameters), add and contains fail with errc::server_error ("Bloom filter config has been
/// changed", Redisson's check; nothing is set) and the handle reads the config again on its
/// next call. Keys of another type are errc::wrong_type.
template <JavaValue T>
class BloomFilter : public Object {
 public:
  /// A handle on the filter `name`; sends nothing. `codec` null: the client's default codec.
  BloomFilter(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Object(client, std::move(name), std::move(codec), "BloomFilter",
               &detail::bloom_filter_hooks),
        cache_(detail::make_bloom_cache()) {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_try_init(std::int64_t expected_insertions, double false_probability,
                      CompletionToken&& token);
  template <class CompletionToken>
  auto async_add(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all(const std::vector<T>& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_contains(const T& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_contains_all(const std::vector<T>& values, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_count(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_expected_insertions(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_false_probability(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_hash_iterations(CompletionToken&& token) const;

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Initialises the filter for `expected_insertions` values at `false_probability` (0..1):
  /// m = (long)(-n ln p / (ln 2)^2) bits and k = max(1, round(m / n ln 2)) hash iterations,
  /// as Redisson computes them. False if the filter already has a config (it is kept). Values
  /// out of range (n <= 0, p outside [0, 1], m = 0 or m > 2 (2^31 - 1)) are invalid_argument.
  bool try_init(std::int64_t expected_insertions, double false_probability) {
    return async_try_init(expected_insertions, false_probability,
                          detail::blocking("try_init", name()));
  }
  /// Adds `value`; true if it set at least one new bit (it was certainly not there before).
  bool add(const T& value) { return async_add(value, detail::blocking("add", name())); }
  /// Adds every value in one script; returns how many set at least one new bit.
  std::int64_t add_all(const std::vector<T>& values) {
    return async_add_all(values, detail::blocking("add_all", name()));
  }
  /// True if `value` may have been added; false if it certainly was not.
  bool contains(const T& value) const {
    return async_contains(value, detail::blocking("contains", name()));
  }
  /// How many of `values` may have been added, in one script.
  std::int64_t contains_all(const std::vector<T>& values) const {
    return async_contains_all(values, detail::blocking("contains_all", name()));
  }
  /// The estimated number of values added: round(-m / k ln(1 - bits set / m)), Redisson's
  /// formula.
  std::int64_t count() const { return async_count(detail::blocking("count", name())); }
  /// The expected insertions given to try_init.
  std::int64_t expected_insertions() const {
    return async_expected_insertions(detail::blocking("expected_insertions", name()));
  }
  /// The false probability given to try_init.
  double false_probability() const {
    return async_false_probability(detail::blocking("false_probability", name()));
  }
  /// m, the number of bits.
  std::int64_t size() const { return async_size(detail::blocking("size", name())); }
  /// k, the number of bit indexes per value.
  std::int64_t hash_iterations() const {
    return async_hash_iterations(detail::blocking("hash_iterations", name()));
  }

 private:
  using StartValues = void (*)(const detail::ObjectPtr&, const std::shared_ptr<detail::BloomCache>&,
                               std::vector<std::string>, detail::Done<Reply>&);

  /// An operation on values: encoded with the codec on the caller's thread (a codec_error is
  /// the completion's error), then `start` (add or contains).
  template <class R, class CompletionToken, class Convert>
  auto values_op(CompletionToken&& token, const std::vector<T>& values, StartValues start,
                 Convert convert) const;

  template <class R, class CompletionToken, class Convert>
  auto setting(CompletionToken&& token, const char* field, Convert convert) const;

  std::shared_ptr<detail::BloomCache> cache_;
};

}  // namespace redisson

#include "redisson/objects/impl/bloom_filter.hpp"

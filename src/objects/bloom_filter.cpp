// BloomFilter<T>'s operations: reading and caching the config, the bit indexes of encoded
// values, and the scripts (objects/lua/bloom_*.lua).
#include "redisson/objects/bloom_filter.hpp"

#include <charconv>
#include <mutex>
#include <optional>

#include "codec/json_text.hpp"
#include "hash/highway_hash.hpp"
#include "lua_scripts.hpp"
#include "net/reply_error.hpp"
#include "objects/bloom_math.hpp"
#include "objects/send.hpp"
#include "sync/names.hpp"

namespace redisson::detail {

/// What the handle last read from (or wrote to) the config; size 0: read it first. Java's
/// RedissonBloomFilter keeps the same two fields.
struct BloomCache {
  std::optional<BloomShape> get() const {
    std::lock_guard lock(mutex);
    return shape;
  }
  void set(std::optional<BloomShape> value) {
    std::lock_guard lock(mutex);
    shape = value;
  }

  mutable std::mutex mutex;
  std::optional<BloomShape> shape;
};

namespace {

using CachePtr = std::shared_ptr<BloomCache>;

std::string config_key(const std::string& name) { return suffix_name(name, "config"); }

const Reply* hash_field(const Reply& hash, std::string_view field) {
  for (std::size_t i = 0; i + 1 < hash.elements.size(); i += 2) {
    if (hash.elements[i].str == field) return &hash.elements[i + 1];
  }
  return nullptr;
}

std::optional<std::int64_t> parse_integer(const Reply* value) {
  if (value == nullptr) return std::nullopt;
  if (value->is_integer()) return value->integer;
  std::int64_t n = 0;
  const auto& text = value->str;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return n;
}

Status not_initialized(const ObjectState& object) {
  return {make_error_code(errc::not_initialized),
          "Bloom filter '" + object.name + "' is not initialized"};
}

/// The shape in an HGETALL reply of the config: not_initialized when it has no usable size and
/// hashIterations (absent, or not positive numbers).
Status parse_config(const ObjectState& object, const Reply& reply, BloomShape& shape) {
  if (!reply.is_aggregate()) {
    return {make_error_code(errc::wrong_type),
            "expected a hash from the server, got " + reply.to_display_string()};
  }
  const auto size = parse_integer(hash_field(reply, "size"));
  const auto k = parse_integer(hash_field(reply, "hashIterations"));
  if (!size || !k || *size <= 0 || *k <= 0) return not_initialized(object);
  shape = {*size, *k};
  return {};
}

/// Calls `then(shape)` with the cached shape, or reads the config first (and caches it).
template <class Then>
void with_shape(const ObjectPtr& object, const CachePtr& cache, Done<Reply>& done, Then then) {
  if (const auto shape = cache->get()) return then(*shape, done);
  submit_command(object, Command{"HGETALL", config_key(object->name)},
                 [object, cache, then = std::move(then), done = std::move(done)](
                     Status status, const Reply& reply) mutable {
                   if (status) return done(std::move(status), Reply{});
                   BloomShape shape;
                   if (auto failure = parse_config(*object, reply, shape)) {
                     return done(std::move(failure), Reply{});
                   }
                   cache->set(shape);
                   then(shape, done);
                 });
}

/// The add or contains script on `encoded` values, with the config check. A changed config
/// drops the cached one, so the next call reads it again.
void run_values_script(const ObjectPtr& object, const CachePtr& cache,
                       std::vector<std::string> encoded, const ScriptDef& script,
                       Done<Reply>& done) {
  if (encoded.empty()) return done(Status{}, integer_reply(0));
  with_shape(
      object, cache, done,
      [object, cache, encoded = std::move(encoded), &script](const BloomShape& shape,
                                                             Done<Reply>& reply_done) {
        std::vector<std::int64_t> indexes;
        indexes.reserve(encoded.size() * static_cast<std::size_t>(shape.hash_iterations));
        for (const auto& bytes : encoded) {
          append_bloom_indexes(highway_hash128(bytes), shape.hash_iterations, shape.size, indexes);
        }
        std::vector<std::string> args;
        args.reserve(3 + indexes.size());
        args.push_back(std::to_string(shape.size));
        args.push_back(std::to_string(shape.hash_iterations));
        args.push_back(std::to_string(shape.hash_iterations));
        for (const auto index : indexes) args.push_back(std::to_string(index));
        eval_reply(*object, script({config_key(object->name), object->name}, args),
                   [cache, done = std::move(reply_done)](Status status, Reply reply) mutable {
                     if (status && reply.str.find("config has been changed") != std::string::npos) {
                       cache->set(std::nullopt);
                     }
                     done(std::move(status), std::move(reply));
                   });
      });
}

}  // namespace

std::shared_ptr<BloomCache> make_bloom_cache() { return std::make_shared<BloomCache>(); }

std::vector<std::string> bloom_filter_keys(const std::string& name) { return {config_key(name)}; }

void start_bloom_try_init(const ObjectPtr& object, const CachePtr& cache,
                          std::int64_t expected_insertions, double false_probability,
                          Done<Reply>& done) {
  const auto shape = bloom_shape(expected_insertions, false_probability);
  eval_reply(*object,
             lua::bloom_try_init({config_key(object->name)},
                                 {shape.size, shape.hash_iterations, expected_insertions,
                                  java_double_text(false_probability)}),
             [cache, shape, done = std::move(done)](Status status, Reply reply) mutable {
               // Written: this is the config. Refused: another one is there, read it when needed.
               if (!status) {
                 cache->set(reply.is_integer() && reply.integer == 1
                                ? std::optional<BloomShape>(shape)
                                : std::nullopt);
               }
               done(std::move(status), std::move(reply));
             });
}

void start_bloom_add(const ObjectPtr& object, const CachePtr& cache,
                     std::vector<std::string> encoded, Done<Reply>& done) {
  run_values_script(object, cache, std::move(encoded), lua::bloom_add, done);
}

void start_bloom_contains(const ObjectPtr& object, const CachePtr& cache,
                          std::vector<std::string> encoded, Done<Reply>& done) {
  run_values_script(object, cache, std::move(encoded), lua::bloom_contains, done);
}

void start_bloom_count(const ObjectPtr& object, const CachePtr& cache, Done<Reply>& done) {
  // Both keys share the name's slot: one pipelined round trip.
  submit_all(
      *object, {Command{"HGETALL", config_key(object->name)}, Command{"BITCOUNT", object->name}},
      [object, cache, done = std::move(done)](Status status, std::vector<Reply> replies) mutable {
        if (status) return done(std::move(status), Reply{});
        BloomShape shape;
        if (auto failure = parse_config(*object, replies[0], shape)) {
          return done(std::move(failure), Reply{});
        }
        cache->set(shape);
        if (!replies[1].is_integer()) {
          return done(
              {make_error_code(errc::wrong_type),
               "expected an integer from the server, got " + replies[1].to_display_string()},
              Reply{});
        }
        done(Status{}, integer_reply(bloom_count_estimate(shape.size, shape.hash_iterations,
                                                          replies[1].integer)));
      });
}

void start_bloom_setting(const ObjectPtr& object, const char* field, Done<Reply>& done) {
  submit_command(object, Command{"HGET", config_key(object->name), field},
                 [object, done = std::move(done)](Status status, Reply reply) mutable {
                   if (!status && reply.is_null()) status = not_initialized(*object);
                   done(std::move(status), std::move(reply));
                 });
}

}  // namespace redisson::detail

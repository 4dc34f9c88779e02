#include "redisson/objects/set_cache.hpp"

#include <cmath>
#include <memory>
#include <utility>

#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "objects/sweeper.hpp"

namespace redisson::detail {

namespace {

/// ARGV = now, then `rest`.
std::vector<std::string> with_now(std::int64_t now, std::vector<std::string> rest) {
  rest.insert(rest.begin(), std::to_string(now));
  return rest;
}

/// Gathers the pages of `scan` into `all` until the scan is over, then completes `done` with it.
void read_pages(const ObjectPtr& object, const std::shared_ptr<CollectionScanState>& scan,
                const std::shared_ptr<Reply>& all, Done<Reply> done) {
  Done<Reply> on_page = [object, scan, all, done = std::move(done)](Status status,
                                                                    Reply page) mutable {
    if (status) return done(std::move(status), Reply{});
    if (page.elements.empty()) return done(Status{}, std::move(*all));
    for (auto& element : page.elements) all->elements.push_back(std::move(element));
    read_pages(object, scan, all, std::move(done));
  };
  start_collection_scan_next(object, scan, on_page);
}

}  // namespace

std::int64_t set_cache_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::int64_t set_cache_expiry(std::chrono::milliseconds ttl, std::int64_t now) {
  if (ttl.count() < 0) throw_invalid_argument("SetCache: ttl must not be negative");
  if (ttl.count() == 0 || ttl.count() >= kSetCacheNoExpiry - now) return kSetCacheNoExpiry;
  return now + ttl.count();
}

void start_set_cache_add(const ObjectPtr& object, std::chrono::milliseconds ttl,
                         const std::vector<std::string>& members, Done<Reply>& done) {
  const std::int64_t now = set_cache_now_ms();
  const std::int64_t expiry = set_cache_expiry(ttl, now);
  if (members.empty()) return done(Status{}, integer_reply(0));
  std::vector<std::string> argv{std::to_string(expiry)};
  argv.insert(argv.end(), members.begin(), members.end());
  eval_reply(
      *object,
      lua::set_cache_add(std::vector<std::string>{object->name}, with_now(now, std::move(argv))),
      std::move(done));
}

void start_set_cache_remove(const ObjectPtr& object, const std::vector<std::string>& members,
                            Done<Reply>& done) {
  if (members.empty()) return done(Status{}, integer_reply(0));
  eval_reply(*object,
             lua::set_cache_remove(std::vector<std::string>{object->name},
                                   with_now(set_cache_now_ms(), members)),
             std::move(done));
}

void start_set_cache_size(const ObjectPtr& object, Done<Reply>& done) {
  Command command{"ZCOUNT", object->name, "(" + std::to_string(set_cache_now_ms()), "+inf"};
  submit_command(object, command, std::move(done));
}

void start_set_cache_sweep(const ObjectPtr& object, std::int64_t limit, Done<Reply>& done) {
  if (limit < 1) throw_invalid_argument("SetCache: the eviction limit must be at least 1");
  eval_reply(*object,
             lua::set_cache_evict(std::vector<std::string>{object->name},
                                  with_now(set_cache_now_ms(), {std::to_string(limit)})),
             std::move(done));
}

std::shared_ptr<void> set_cache_sweeper(const ObjectPtr& object) {
  // Redisson's SetCacheEvictionTask has no latch.
  return sweeper_of(object, "SetCache",
                    [object](std::int64_t limit, std::int64_t, Done<Reply> done) {
                      start_set_cache_sweep(object, limit, done);
                    });
}

void start_set_cache_read_all(const ObjectPtr& object, std::int64_t page_size, Done<Reply>& done) {
  auto scan = make_collection_scan("ZSCAN", page_size);
  auto all = std::make_shared<Reply>();
  all->type = ReplyType::array;
  read_pages(object, scan, all, std::move(done));
}

bool set_cache_score_live(double score, std::int64_t now) {
  return score > static_cast<double>(now);
}

bool set_cache_live(const Reply& score) {
  if (score.is_null()) return false;
  return set_cache_score_live(reply_double(score), set_cache_now_ms());
}

std::chrono::milliseconds set_cache_time_left(const Reply& score) {
  if (score.is_null()) return std::chrono::milliseconds{-2};
  const double expiry = reply_double(score);
  const std::int64_t now = set_cache_now_ms();
  if (!set_cache_score_live(expiry, now)) return std::chrono::milliseconds{-2};
  // The no-expiry score reads back as the double nearest to it.
  if (expiry >= static_cast<double>(kSetCacheNoExpiry)) return std::chrono::milliseconds{-1};
  return std::chrono::milliseconds{static_cast<std::int64_t>(std::floor(expiry)) - now};
}

}  // namespace redisson::detail

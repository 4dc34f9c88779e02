#include "redisson/objects/set_cache.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "objects/set_algebra.hpp"
#include "objects/sweeper.hpp"
#include "sync/names.hpp"

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
  set_cache_expiry(ttl, set_cache_now_ms());  // a negative ttl is refused even with no members
  start_set_cache_timed_add(object, SetCacheAdd::every,
                            std::vector<std::chrono::milliseconds>(members.size(), ttl), members,
                            done);
}

void start_set_cache_timed_add(const ObjectPtr& object, SetCacheAdd how,
                               const std::vector<std::chrono::milliseconds>& ttls,
                               const std::vector<std::string>& members, Done<Reply>& done) {
  const std::int64_t now = set_cache_now_ms();
  // ARGV: now, [condition,] then pairs of expiry score and member.
  std::vector<std::string> argv{std::to_string(now)};
  const char* condition = nullptr;
  switch (how) {
    case SetCacheAdd::every:
    case SetCacheAdd::all_or_none:
      break;
    case SetCacheAdd::if_absent:
      condition = "absent";
      break;
    case SetCacheAdd::if_exists:
      condition = "exists";
      break;
    case SetCacheAdd::if_greater:
      condition = "greater";
      break;
    case SetCacheAdd::if_less:
      condition = "less";
      break;
  }
  if (condition != nullptr) argv.emplace_back(condition);
  argv.reserve(argv.size() + 2 * members.size());
  for (std::size_t i = 0; i < members.size(); ++i) {
    argv.push_back(std::to_string(set_cache_expiry(ttls[i], now)));  // throws before sending
    argv.push_back(members[i]);
  }
  if (members.empty()) return done(Status{}, integer_reply(0));
  std::vector<std::string> keys{object->name};
  switch (how) {
    case SetCacheAdd::every:
      return eval_reply(*object, lua::set_cache_add(keys, argv), std::move(done));
    case SetCacheAdd::all_or_none:
      return eval_reply(*object, lua::set_cache_try_add(keys, argv), std::move(done));
    default:
      return eval_reply(*object, lua::set_cache_add_if(keys, argv), std::move(done));
  }
}

void start_set_cache_retain_all(const ObjectPtr& object, const std::vector<std::string>& members,
                                Done<Reply>& done) {
  eval_reply(*object,
             lua::set_cache_retain_all(std::vector<std::string>{object->name},
                                       with_now(set_cache_now_ms(), members)),
             std::move(done));
}

void start_set_cache_random(const ObjectPtr& object, std::int64_t count, bool remove,
                            Done<Reply>& done) {
  if (count < 0) throw_invalid_argument("SetCache random: the count must not be negative");
  if (count == 0) {  // the script reads 0 as "one member"
    Reply none;
    none.type = ReplyType::array;
    return done(Status{}, std::move(none));
  }
  eval_reply(*object,
             lua::set_cache_random(
                 {object->name, prefix_name("__redisson_cache_temp", object->name)},
                 with_now(set_cache_now_ms(), {std::to_string(count), remove ? "1" : "0"})),
             std::move(done));
}

void start_set_cache_random_one(const ObjectPtr& object, bool remove, Done<Reply>& done) {
  eval_reply(
      *object,
      lua::set_cache_random({object->name, prefix_name("__redisson_cache_temp", object->name)},
                            with_now(set_cache_now_ms(), {"0", remove ? "1" : "0"})),
      std::move(done));
}

void start_set_cache_move(const ObjectPtr& object, const std::string& destination,
                          const std::string& member, Done<Reply>& done) {
  require_same_slot(*object, "SetCache move", {destination});
  eval_reply(
      *object,
      lua::set_cache_move({object->name, destination}, with_now(set_cache_now_ms(), {member})),
      std::move(done));
}

void start_set_cache_algebra(const ObjectPtr& object, SetAlgebra operation,
                             const std::vector<std::string>& names, std::int64_t limit,
                             Done<Reply>& done) {
  const char* kind = "union";
  const char* mode = "read";
  switch (operation) {
    case SetAlgebra::union_store:
      mode = "store";
      break;
    case SetAlgebra::union_read:
      break;
    case SetAlgebra::intersection_store:
      kind = "intersection";
      mode = "store";
      break;
    case SetAlgebra::intersection_read:
      kind = "intersection";
      break;
    case SetAlgebra::intersection_count:
      kind = "intersection";
      mode = "count";
      break;
    case SetAlgebra::diff_store:
      kind = "diff";
      mode = "store";
      break;
    case SetAlgebra::diff_read:
      kind = "diff";
      break;
  }
  check_set_algebra(*object, operation, std::string("SetCache ") + kind, names, limit);
  std::vector<std::string> keys{object->name};
  keys.insert(keys.end(), names.begin(), names.end());
  eval_reply(*object,
             lua::set_cache_algebra(
                 keys, with_now(set_cache_now_ms(), {kind, mode, std::to_string(limit)})),
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

std::vector<bool> set_cache_live_each(const Reply& scores) {
  std::vector<bool> live;
  if (scores.is_integer()) return live;  // no members were asked
  if (!scores.is_aggregate()) throw_unexpected_reply("scores", scores);
  const std::int64_t now = set_cache_now_ms();
  live.reserve(scores.elements.size());
  for (const auto& score : scores.elements) {
    live.push_back(!score.is_null() && set_cache_score_live(reply_double(score), now));
  }
  return live;
}

bool set_cache_all_live(const Reply& scores) {
  const auto live = set_cache_live_each(scores);
  return std::all_of(live.begin(), live.end(), [](bool each) { return each; });
}

}  // namespace redisson::detail

// LocalCachedMap (redisson/objects/local_cached_map.hpp): Java Redisson's RLocalCachedMap. The
// instance's cache lives in the object's attached state; the Map layout here answers reads from
// it and runs every write as local_cached_map_write.lua, which writes the hash and publishes
// Redisson's message on `{name}:topic` in one script. Messages from the other instances arrive
// on the listener threads and change the cache under the same mutex as the readers.
//
// Why a read may not fill the cache: a get sends HGET, and before its reply is handled another
// instance's invalidation of that key may already have been applied here (the reply and the
// message travel on two connections). Every change of the cache bumps an epoch (one per stripe
// of keys, and a global one); a read notes them before sending and fills only if they did not
// move, so the cache never keeps a value older than a write it heard of.
#include "redisson/objects/local_cached_map.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "client/client_core.hpp"
#include "client/failure_report.hpp"
#include "codec/hex.hpp"
#include "hash/highway_hash.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "objects/suffix_name.hpp"
#include "redisson/detail/unique_function.hpp"
#include "redisson/objects/topic.hpp"
#include "services/local_cache_messages.hpp"
#include "services/local_cache_store.hpp"
#include "sync/names.hpp"
#include "sync/semaphore_access.hpp"
#include "topology/router.hpp"

namespace redisson::detail {

namespace {

using Clock = LocalCacheStore::Clock;
constexpr std::size_t kStripes = 64;
// Redisson's clearLocalCache: its semaphore lives 60 s, the other instances get 40 s to answer.
constexpr std::chrono::seconds kClearSemaphoreLife{60};
constexpr std::chrono::seconds kClearWait{40};
constexpr int kSyncNone = 0;
constexpr int kSyncUpdate = 2;
constexpr int kReconnectClear = 1;
constexpr int kReconnectLoad = 2;

template <std::size_t N>
std::array<char, N> cache_random_bytes() {
  thread_local std::mt19937_64 generator{std::random_device{}()};
  std::array<char, N> out{};
  for (auto& c : out) c = static_cast<char>(generator() & 0xFF);
  return out;
}

std::int64_t cache_clock_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Reply cache_bulk(std::string bytes) {
  Reply reply;
  reply.type = ReplyType::bulk_string;
  reply.str = std::move(bytes);
  return reply;
}

LocalCacheKeyHash key_hash(std::string_view key_bytes) { return highway_hash128_array(key_bytes); }

std::string updates_log_name(const std::string& name) {
  return prefix_name("redisson__cache_updates_log", name);
}

/// The notes a read takes before it sends, to fill the cache only if nothing changed since.
struct FillTicket {
  std::uint64_t stripe = 0;
  std::uint64_t global = 0;
  bool allowed = false;
};

}  // namespace

/// One instance's cache and subscription: ObjectState::attached of a LocalCachedMap.
class LocalCacheState : public std::enable_shared_from_this<LocalCacheState> {
 public:
  explicit LocalCacheState(std::string name)
      : name_(std::move(name)), id_(cache_random_bytes<16>()), store_(LocalCacheStore::Limits{}) {}
  LocalCacheState(const LocalCacheState&) = delete;
  LocalCacheState& operator=(const LocalCacheState&) = delete;
  ~LocalCacheState() {
    try {
      unsubscribe();
    } catch (...) {  // out of memory: the listeners stay until the client shuts down
    }
  }

  void configure(const LocalCacheSettings& settings) {
    if (settings.time_to_live.count() < 0 || settings.max_idle.count() < 0 ||
        settings.updates_log_age.count() <= 0) {
      throw error(errc::invalid_argument,
                  "LocalCachedMap: time_to_live and max_idle must not be negative, "
                  "updates_log_age must be positive");
    }
    std::lock_guard<std::mutex> hold(mutex_);
    settings_ = settings;
    LocalCacheStore::Limits limits;
    limits.eviction = settings.eviction == 1   ? LocalCacheStore::Eviction::lru
                      : settings.eviction == 2 ? LocalCacheStore::Eviction::lfu
                                               : LocalCacheStore::Eviction::oldest;
    limits.max_size = settings.cache_size;
    limits.time_to_live = settings.time_to_live;
    limits.max_idle = settings.max_idle;
    store_ = LocalCacheStore(limits);
  }
  const LocalCacheSettings& settings() const noexcept { return settings_; }
  const LocalCacheInstanceId& id() const noexcept { return id_; }
  const std::string& name() const noexcept { return name_; }

  /// '0' nothing, '1' publish, '2' publish and log (Redisson's invalidateEntryOnChange).
  const char* mode() const noexcept {
    if (settings_.reconnection == kReconnectLoad) return "2";
    return settings_.sync == kSyncNone ? "0" : "1";
  }
  const char* publish_command() const noexcept { return sharded_ ? "SPUBLISH" : "PUBLISH"; }
  std::string topic_name() const { return suffix_name(name_, "topic"); }

  /// Subscribes on the first operation (the constructor sends nothing).
  void ensure_started(const ObjectPtr& object) {
    if (started_.load(std::memory_order_acquire)) return;  // every read asks: no lock then
    {
      std::lock_guard<std::mutex> hold(mutex_);
      if (started_.load(std::memory_order_relaxed) || destroyed_) return;
      core_ = object->core;
      sharded_ = object->core->router().sharded_pubsub();
      topic_ = channel_object(topic_name());
      expired_ = channel_object("__keyevent@*:expired");
      // Published last: a thread that sees started_ sees the fields above (no lock on reads).
      started_.store(true, std::memory_order_release);
      if (!settings_.cache_locally) return;  // a Map that only publishes
    }
    subscribe();
  }

  /// Runs `then` once the cache is filled (subscribed, or nothing to subscribe), at once if it
  /// is; with the failure when the subscription failed.
  void when_ready(UniqueFunction<void(Status)> then) {
    {
      std::lock_guard<std::mutex> hold(mutex_);
      if (!ready_ && !failed_ && !destroyed_) {
        waiting_.push_back(std::move(then));
        return;
      }
    }
    then(Status{});
  }

  // ---- the cache, for the readers and writers ---------------------------------------------
  /// The cached entry of a key; `bytes` false: the decoded value instead, when there is one.
  LocalCacheFound find(std::string key_bytes, bool bytes) {
    LocalCacheFound found;
    std::lock_guard<std::mutex> hold(mutex_);
    if (ready_ && !disabled_all()) {
      if (const auto* entry = store_.find(key_bytes, store_now())) {
        ++hits_;
        found.stamp = entry->stamp;
        if (!entry->value) {
          found.kind = LocalCacheFind::absent;
          return found;
        }
        found.kind = LocalCacheFind::value;
        if (entry->decoded && !bytes) {
          found.decoded = entry->decoded;
        } else {
          found.bytes = *entry->value;
        }
        found.key_bytes = std::move(key_bytes);
        return found;
      }
    }
    ++misses_;
    return found;
  }
  void remember_decoded(const LocalCacheFound& found, std::shared_ptr<const void> decoded) {
    std::lock_guard<std::mutex> hold(mutex_);
    store_.set_decoded(found.key_bytes, found.stamp, std::move(decoded));
  }
  FillTicket ticket(const LocalCacheKeyHash& hash) {
    std::lock_guard<std::mutex> hold(mutex_);
    return FillTicket{stripes_[stripe_of(hash)], global_, ready_};
  }
  FillTicket bulk_ticket() {
    std::lock_guard<std::mutex> hold(mutex_);
    return FillTicket{changes_, global_, ready_};
  }
  /// Stores what a read found, unless the key changed since `ticket` was taken.
  void fill(const FillTicket& ticket, std::string key, std::optional<std::string> value) {
    if (!ticket.allowed || (!value && !settings_.store_cache_miss)) return;
    const auto hash = key_hash(key);
    std::lock_guard<std::mutex> hold(mutex_);
    if (!ready_ || ticket.global != global_ || ticket.stripe != stripes_[stripe_of(hash)]) return;
    if (disabled(hash)) return;
    store_.put(hash, std::move(key), std::move(value), store_now());
  }
  /// Stores the entries a whole read found (read_all_map, preload), unless anything changed.
  void fill_all(const FillTicket& ticket,
                std::vector<std::pair<std::string, std::string>>&& entries) {
    if (!ticket.allowed) return;
    std::lock_guard<std::mutex> hold(mutex_);
    if (!ready_ || ticket.global != global_ || ticket.stripe != changes_) return;
    const auto now = Clock::now();
    for (auto& [key, value] : entries) {
      const auto hash = key_hash(key);
      if (!disabled(hash)) store_.put(hash, std::move(key), std::move(value), now);
    }
  }
  /// A write here: drops the key (and, for `value`, caches it) before the write is sent.
  // Why a write's value is cached when its own message comes back, not when its reply does:
  // the reply and the other instances' messages travel on two connections, so a message about
  // an older write can arrive after the reply of a newer one. The messages (ours included, the
  // publish is in the write's script) arrive in the order the server ran the writes.

  /// A write here is about to be sent: the key leaves the cache, and a write whose value is
  /// known (`key` and `value`) waits for its message to cache it. Returns the notes
  /// write_ended() compares when the write publishes nothing (sync none).
  FillTicket write_starts(const LocalCacheKeyHash& hash, std::string key,
                          std::optional<std::string> value) {
    std::lock_guard<std::mutex> hold(mutex_);
    bump(hash);
    store_.erase(hash);
    ++writing_[stripe_of(hash)];
    if (publishes()) {
      // Alone: no other write of this key from here is out, and none starts before its message
      // comes back; only then does its message tell which write it is (the format names no
      // write), so only then is its value cached.
      bool alone = unknown_writes_.count(hash) == 0;
      if (const auto at = own_writes_.find(hash); at != own_writes_.end()) {
        for (auto& pending : at->second) pending.alone = false;
        alone = false;
      }
      if (!value) {
        ++unknown_writes_[hash];
      } else if (ready_) {
        own_writes_[hash].push_back(PendingWrite{std::move(key), std::move(value), alone});
      }
    }
    return FillTicket{stripes_[stripe_of(hash)], global_, ready_};
  }
  /// The write's reply came. Publishing: a failed write sends no message, so its pending value
  /// goes. Not publishing: the value (when known and the write succeeded) is cached if no other
  /// write of the stripe is still out and nothing changed it since this one was sent.
  void write_ended(const LocalCacheKeyHash& hash, const FillTicket& ticket, std::string key,
                   std::optional<std::string> value, bool failed) {
    std::lock_guard<std::mutex> hold(mutex_);
    const auto stripe = stripe_of(hash);
    --writing_[stripe];
    if (publishes()) {
      if (!value) {
        if (const auto at = unknown_writes_.find(hash); at != unknown_writes_.end()) {
          if (--at->second == 0) unknown_writes_.erase(at);
        }
      } else if (failed) {
        // No message will come; and a message of another write may have cached this one's
        // value early: it goes.
        drop_own_write(hash, key);
        bump(hash);
        store_.erase(hash);
      }
      return;
    }
    if (failed || !value || writing_[stripe] != 0 || !ready_ || !ticket.allowed) return;
    if (ticket.stripe != stripes_[stripe] || ticket.global != global_ || disabled(hash)) return;
    store_.put(hash, std::move(key), std::move(value), store_now());
  }
  void clear() {
    std::lock_guard<std::mutex> hold(mutex_);
    clear_locked();
  }
  std::vector<std::pair<std::string, std::string>> entries() {
    std::vector<std::pair<std::string, std::string>> out;
    std::lock_guard<std::mutex> hold(mutex_);
    store_.for_each(Clock::now(),
                    [&out](const std::string& key, const LocalCacheStore::Entry& entry) {
                      if (entry.value) out.emplace_back(key, *entry.value);
                    });
    return out;
  }
  LocalCacheStats stats() {
    std::lock_guard<std::mutex> hold(mutex_);
    LocalCacheStats stats;
    stats.hits = hits_;
    stats.misses = misses_;
    stats.evictions = store_.evictions();
    stats.size = static_cast<std::int64_t>(store_.size());
    return stats;
  }
  void destroy() {
    {
      std::lock_guard<std::mutex> hold(mutex_);
      destroyed_ = true;
      ready_ = false;
      clear_locked();
    }
    unsubscribe();
  }

 private:
  static std::size_t stripe_of(const LocalCacheKeyHash& hash) {
    return static_cast<unsigned char>(hash[0]) % kStripes;
  }
  void bump(const LocalCacheKeyHash& hash) {
    ++stripes_[stripe_of(hash)];
    ++changes_;
  }
  void clear_locked() {
    ++global_;
    ++changes_;
    store_.clear();
  }
  /// The time for the store: read only when it has a time limit (a hit then reads no clock).
  Clock::time_point store_now() const {
    return store_.timed() ? Clock::now() : Clock::time_point{};
  }
  bool publishes() const noexcept { return std::string_view(mode()) != "0"; }
  /// Our own write's message arrived. Under invalidate the oldest pending write of the key is
  /// cached if it was alone (see write_starts); an update message carries the value itself
  /// (stored by the caller).
  void echo_of_own_write(const LocalCacheKeyHash& hash) {
    const auto at = own_writes_.find(hash);
    if (at == own_writes_.end()) return;
    auto& pending = at->second;
    auto write = std::move(pending.front());
    pending.pop_front();
    if (pending.empty()) own_writes_.erase(at);
    if (write.alone && settings_.sync != kSyncUpdate && ready_ && !disabled(hash)) {
      store_.put(hash, std::move(write.key), std::move(write.value), store_now());
    }
  }
  /// Forgets one pending write of `key` (its write failed: no message will come).
  void drop_own_write(const LocalCacheKeyHash& hash, const std::string& key) {
    const auto at = own_writes_.find(hash);
    if (at == own_writes_.end()) return;
    auto& pending = at->second;
    for (auto it = pending.begin(); it != pending.end(); ++it) {
      if (it->key == key) {
        pending.erase(it);
        break;
      }
    }
    if (pending.empty()) own_writes_.erase(at);
  }
  /// A Java transaction disabled the whole cache for a while.
  bool disabled_all() const {
    return disabled_all_until_ != Clock::time_point{} && disabled_all_until_ > Clock::now();
  }
  bool disabled(const LocalCacheKeyHash& hash) {
    if (disabled_all()) return true;
    const auto at = disabled_.find(hash);
    if (at == disabled_.end()) return false;
    const auto now = Clock::now();
    auto& holds = at->second;
    std::erase_if(holds, [now](const auto& hold) { return hold.second <= now; });
    if (holds.empty()) {
      disabled_.erase(at);
      return false;
    }
    return true;
  }

  // ---- the subscription -------------------------------------------------------------------
  std::shared_ptr<ObjectState> channel_object(std::string channel) const {
    auto object = std::make_shared<ObjectState>();
    object->core = core_;
    object->name = std::move(channel);
    object->kind = "LocalCachedMap";
    return object;
  }

  void subscribe() {
    std::weak_ptr<LocalCacheState> weak = weak_from_this();
    if (settings_.sync == kSyncNone && settings_.reconnection == 0) {
      // Nothing to hear: the cache is ours alone.
      std::lock_guard<std::mutex> hold(mutex_);
      ready_ = true;
    } else {
      TopicCallbacks callbacks;
      // Applied on the I/O thread as the message arrives, never posted to the listener threads:
      // an invalidation must not wait behind slow user listeners there, and the cache's work
      // is a lookup under its mutex (plus, rarely, a command sent).
      callbacks.on_io_message = [weak](std::string_view payload) {
        if (auto self = weak.lock()) self->on_message(payload);
      };
      callbacks.on_status = [weak](TopicStatus status, std::string_view) {
        if (auto self = weak.lock()) self->on_status(status);
      };
      start_topic_listen(topic_, sharded_ ? TopicKind::sharded : TopicKind::plain,
                         std::move(callbacks), [weak](const Status& status, ListenerId id) {
                           auto self = weak.lock();
                           if (!self) return;
                           self->on_subscribed(status, id);
                         });
    }
    if (settings_.clear_when_map_expires) {
      TopicCallbacks callbacks;
      callbacks.accept = [name = name_](std::string_view payload) { return payload == name; };
      callbacks.on_message = [weak](std::string_view, std::string_view) {
        if (auto self = weak.lock()) self->clear();
      };
      start_topic_listen(expired_, TopicKind::pattern, std::move(callbacks),
                         [weak](const Status& status, ListenerId id) {
                           auto self = weak.lock();
                           if (!self || status) return;
                           std::lock_guard<std::mutex> hold(self->mutex_);
                           self->expired_listener_ = id;
                         });
    }
  }

  void on_subscribed(const Status& status, ListenerId id) {
    std::vector<UniqueFunction<void(Status)>> waiting;
    {
      std::lock_guard<std::mutex> hold(mutex_);
      waiting.swap(waiting_);
      if (status) {
        failed_ = true;
        // Not subscribed: the cache stays empty and reads go to Redis; say why once.
        report_failure(
            core_->config(),
            error(status.code, "LocalCachedMap " + name_ + ": cannot subscribe to " + topic_name() +
                                   ", the near cache is off: " + status.detail));
      } else {
        topic_listener_ = id;
        if (!destroyed_) {
          ready_ = true;
          heard_ms_ = cache_clock_ms();
        }
      }
    }
    for (auto& then : waiting) then(status);
  }

  void unsubscribe() {
    ListenerId topic_id = 0;
    ListenerId expired_id = 0;
    std::shared_ptr<ObjectState> topic;
    std::shared_ptr<ObjectState> expired;
    {
      std::lock_guard<std::mutex> hold(mutex_);
      std::swap(topic_id, topic_listener_);
      std::swap(expired_id, expired_listener_);
      topic = topic_;
      expired = expired_;
    }
    if (topic_id != 0) start_topic_remove(topic, topic_id, [](const Status&, bool) {});
    if (expired_id != 0) start_topic_remove(expired, expired_id, [](const Status&, bool) {});
  }

  void on_status(TopicStatus status) {
    std::unique_lock<std::mutex> hold(mutex_);
    if (destroyed_) return;
    if (status == TopicStatus::interrupted) {
      own_writes_.clear();  // their messages may be lost: they cache nothing
      unknown_writes_.clear();
      // Messages are lost from now on: stop filling until the strategy has run.
      if (settings_.reconnection != 0) {
        ready_ = false;
        ++global_;
      }
      return;
    }
    if (status != TopicStatus::resubscribed) return;
    if (settings_.reconnection == kReconnectClear) {
      clear_locked();
      ready_ = true;
    } else if (settings_.reconnection == kReconnectLoad) {
      if (cache_clock_ms() - heard_ms_ > settings_.updates_log_age.count()) {
        clear_locked();
        ready_ = true;
        heard_ms_ = cache_clock_ms();
        return;
      }
      hold.unlock();
      load_after_reconnect();
    } else {
      ready_ = true;
    }
  }

  /// The load strategy: drops the keys the updates log says were written since we last heard.
  void load_after_reconnect() {
    std::weak_ptr<LocalCacheState> weak = weak_from_this();
    const auto since = heard_ms_;
    std::vector<Command> commands;
    commands.push_back(Command{"EXISTS", name_});
    commands.push_back(
        Command{"ZRANGEBYSCORE", updates_log_name(name_)}.arg(std::to_string(since)).arg("+inf"));
    submit_all(core_, std::move(commands),
               [weak](const Status& status, const std::vector<Reply>& replies) {
                 auto self = weak.lock();
                 if (!self) return;
                 std::lock_guard<std::mutex> hold(self->mutex_);
                 if (status || replies.size() != 2 || replies[0].integer == 0) {
                   self->clear_locked();  // gone, or unknown: nothing cached can be trusted
                 } else {
                   for (const auto& entry : replies[1].elements) {
                     if (entry.str.size() < 16) continue;
                     LocalCacheKeyHash hash{};
                     std::copy_n(entry.str.data(), 16, hash.begin());
                     self->bump(hash);
                     self->store_.erase(hash);
                   }
                 }
                 self->heard_ms_ = cache_clock_ms();
                 if (!self->destroyed_) self->ready_ = true;
               });
  }

  void on_message(std::string_view payload) {
    LocalCacheMessage message;
    try {
      message = decode_local_cache_message(payload);
    } catch (const error& failure) {
      report_failure(core_->config(), failure);
      return;
    }
    std::lock_guard<std::mutex> hold(mutex_);
    heard_ms_ = cache_clock_ms();
    switch (message.type) {
      case LocalCacheMessageType::clear:
        if (message.excluded == id_) return;
        clear_locked();
        if (message.flag) release_clear(message.request_id);
        return;
      case LocalCacheMessageType::invalidate:
        for (const auto& hash : message.hashes) {
          bump(hash);
          store_.erase(hash);
          // Our own write's message, in the server's order of writes: cache what it wrote.
          if (message.excluded == id_) echo_of_own_write(hash);
        }
        return;
      case LocalCacheMessageType::update: {
        const auto now = Clock::now();
        for (auto& [key, value] : message.entries) {
          const auto hash = key_hash(key);
          bump(hash);
          if (message.excluded == id_) echo_of_own_write(hash);
          // Messages arrive in the order the server ran the writes, ours included: the last
          // one's value is the hash's.
          if (ready_ && !disabled(hash)) {
            store_.put(hash, std::move(key), std::move(value), now);
          } else {
            store_.erase(hash);
          }
        }
        return;
      }
      case LocalCacheMessageType::disable: {
        const auto until = Clock::now() + std::chrono::milliseconds(message.timeout_ms);
        for (const auto& hash : message.hashes) {
          disabled_[hash].emplace_back(message.request_id, until);
          bump(hash);
          store_.erase(hash);
        }
        if (message.flag) {
          disabled_all_until_ = std::max(disabled_all_until_, until);
          clear_locked();
        }
        // The transaction waits for every instance's answer on `{name}:<request>:topic`.
        Command ack{"PUBLISH", suffix_name(name_, message.request_id + ":topic")};
        ack.arg(encode_local_cache_disable_ack());
        submit_all(core_, {std::move(ack)}, [](const Status&, const std::vector<Reply>&) {});
        return;
      }
      case LocalCacheMessageType::enable:
        for (const auto& hash : message.hashes) {
          const auto at = disabled_.find(hash);
          if (at == disabled_.end()) continue;
          std::erase_if(at->second,
                        [&message](const auto& hold) { return hold.first == message.request_id; });
          if (at->second.empty()) disabled_.erase(at);
        }
        if (message.flag) disabled_all_until_ = Clock::time_point{};
        return;
      default:
        return;
    }
  }

  /// Answers another instance's clear_local_cache (runs under the mutex; sends only).
  void release_clear(const std::string& request) {
    const auto semaphore = name_ + ":clear:" + hex_lower(request);
    auto call = lua::local_cache_clear_release(
        std::vector<std::string>{semaphore, prefix_name("redisson_sc", semaphore)},
        std::vector<std::string>{sharded_ ? "SPUBLISH" : "PUBLISH"});
    eval_reply(core_, std::move(call), [](const Status&, const Reply&) {});
  }

  const std::string name_;
  const LocalCacheInstanceId id_;
  std::mutex mutex_;
  LocalCacheSettings settings_;
  LocalCacheStore store_;
  std::array<std::uint64_t, kStripes> stripes_{};
  std::array<std::uint32_t, kStripes> writing_{};  // writes sent from here, reply not yet in
  struct PendingWrite {
    std::string key;
    std::optional<std::string> value;
    bool alone = true;
  };
  // Writes from here whose value is not known (remove, the conditional ones), per key, until
  // their reply: a known write started meanwhile is not alone.
  std::map<LocalCacheKeyHash, std::uint32_t> unknown_writes_;
  // Writes of known values sent from here whose own message has not come back yet, per key.
  std::map<LocalCacheKeyHash, std::deque<PendingWrite>> own_writes_;
  std::uint64_t global_ = 0;
  std::uint64_t changes_ = 0;
  std::int64_t hits_ = 0;
  std::int64_t misses_ = 0;
  std::atomic<bool> started_{false};
  bool ready_ = false;
  bool failed_ = false;
  std::vector<UniqueFunction<void(Status)>> waiting_;  // when_ready's, until subscribed
  bool destroyed_ = false;
  bool sharded_ = false;
  std::int64_t heard_ms_ = 0;  // when a message (or the subscription) last reached us
  std::map<LocalCacheKeyHash, std::vector<std::pair<std::string, Clock::time_point>>> disabled_;
  Clock::time_point disabled_all_until_{};
  std::shared_ptr<ClientCore> core_;
  std::shared_ptr<ObjectState> topic_;
  std::shared_ptr<ObjectState> expired_;
  ListenerId topic_listener_ = 0;
  ListenerId expired_listener_ = 0;
};

namespace {

std::shared_ptr<LocalCacheState> cache_of(const ObjectState& object) {
  return std::static_pointer_cast<LocalCacheState>(object.attached);
}

std::shared_ptr<LocalCacheState> started_cache(const ObjectPtr& object) {
  auto cache = cache_of(*object);
  cache->ensure_started(object);
  return cache;
}

std::shared_ptr<void> make_local_cache_state(const ObjectState& object,
                                             const std::shared_ptr<void>& previous) {
  auto state = std::make_shared<LocalCacheState>(object.name);
  if (previous) state->configure(std::static_pointer_cast<LocalCacheState>(previous)->settings());
  return state;
}

std::vector<std::string> local_cache_extra_keys(const std::string& name) {
  return {updates_log_name(name)};
}

std::vector<std::string> write_keys(const ObjectState& object) {
  return {object.name, suffix_name(object.name, "topic"), updates_log_name(object.name)};
}

std::string log_entry_id(const LocalCacheKeyHash& hash) {
  std::string id(hash.data(), hash.size());
  id.push_back(':');
  const auto suffix = cache_random_bytes<8>();
  id.append(suffix.data(), suffix.size());
  return id;
}

const char* op_name(MapOp op) {
  switch (op) {
    case MapOp::put:
      return "put";
    case MapOp::put_if_absent:
      return "put_if_absent";
    case MapOp::put_if_exists:
      return "put_if_exists";
    case MapOp::fast_put:
      return "fast_put";
    case MapOp::fast_put_if_absent:
      return "fast_put_if_absent";
    case MapOp::fast_put_if_exists:
      return "fast_put_if_exists";
    case MapOp::replace_if_equal:
      return "replace_if_equal";
    case MapOp::remove:
      return "remove";
    case MapOp::fast_remove:
      return "fast_remove";
    case MapOp::put_all:
      return "put_all";
    case MapOp::add_and_get:
      return "add_and_get";
    default:
      return nullptr;
  }
}

/// Whether the value a write leaves under its key is known before the reply (put, fast_put,
/// put_all's entries): cached when the reply comes (see LocalCacheState::write_ended).
bool writes_known_value(MapOp op) {
  return op == MapOp::put || op == MapOp::fast_put || op == MapOp::put_all;
}

/// Runs a write: the cache first (the value cached or the key dropped), then the script.
void start_write(const std::shared_ptr<LocalCacheState>& cache, const ObjectPtr& object, MapOp op,
                 const std::vector<std::string>& args, Done<Reply>& done) {
  const auto& id = cache->id();
  const bool update = cache->settings().sync == kSyncUpdate;
  const bool removes = op == MapOp::remove || op == MapOp::fast_remove ||
                       op == MapOp::add_and_get ||
                       (op == MapOp::replace_if_equal && args.size() > 2 && args[2] == "0");
  std::vector<std::string> messages;
  std::vector<std::string> log_ids;
  std::vector<LocalCacheKeyHash> hashes;
  if (op == MapOp::put_all) {
    std::vector<std::pair<std::string_view, std::string_view>> entries;
    for (std::size_t i = 0; i + 1 < args.size(); i += 2) {
      hashes.push_back(key_hash(args[i]));
      entries.emplace_back(args[i], args[i + 1]);
      log_ids.push_back(log_entry_id(hashes.back()));
    }
    if (hashes.empty()) return done(Status{}, integer_reply(0));
    messages.push_back(update ? encode_local_cache_update(id, entries)
                              : encode_local_cache_invalidate(id, hashes));
  } else if (op == MapOp::fast_remove) {
    if (args.empty()) return done(Status{}, integer_reply(0));
    for (const auto& key : args) {
      hashes.push_back(key_hash(key));
      messages.push_back(encode_local_cache_invalidate(id, {hashes.back()}));
    }
    for (const auto& hash : hashes) log_ids.push_back(log_entry_id(hash));
  } else {
    hashes.push_back(key_hash(args.at(0)));
    const std::string* value = nullptr;  // the value the write leaves, when it leaves one
    if (op == MapOp::replace_if_equal) {
      value = &args.at(3);
    } else if (op != MapOp::remove) {
      value = &args.at(1);
    }
    messages.push_back(update && !removes && value != nullptr
                           ? encode_local_cache_update(id, {{args[0], *value}})
                           : encode_local_cache_invalidate(id, hashes));
    log_ids.push_back(log_entry_id(hashes.back()));
  }

  // Each written key leaves the cache before the write is sent; a write whose value is known
  // caches it when its reply comes, unless something else touched the key meanwhile.
  struct Written {
    LocalCacheKeyHash hash;
    FillTicket ticket;
    std::string key;
    std::optional<std::string> value;
  };
  std::vector<Written> written;
  written.reserve(hashes.size());
  for (std::size_t i = 0; i < hashes.size(); ++i) {
    Written one{hashes[i], FillTicket{}, std::string(), std::nullopt};
    if (op == MapOp::put_all) {
      one.key = args[2 * i];
      one.value = args[2 * i + 1];
    } else if (writes_known_value(op)) {
      one.key = args[0];
      one.value = args[1];
    }
    one.ticket = cache->write_starts(one.hash, one.key, one.value);
    written.push_back(std::move(one));
  }

  std::vector<std::string> argv{
      op_name(op),
      cache->publish_command(),
      cache->mode(),
      std::to_string(cache_clock_ms()),
      std::to_string(cache_clock_ms() - cache->settings().updates_log_age.count()),
      std::to_string(args.size())};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), messages.begin(), messages.end());
  argv.insert(argv.end(), log_ids.begin(), log_ids.end());
  eval_reply(*object, lua::local_cached_map_write(write_keys(*object), argv),
             [cache, written = std::move(written), done = std::move(done)](Status status,
                                                                           Reply reply) mutable {
               for (auto& one : written) {
                 // A failed write may or may not have happened: nothing of it is cached.
                 cache->write_ended(one.hash, one.ticket, std::move(one.key), std::move(one.value),
                                    static_cast<bool>(status));
               }
               done(std::move(status), std::move(reply));
             });
}

/// get and contains_key: the cache, else Redis (filling the cache with what get read).
void start_keyed_read(const std::shared_ptr<LocalCacheState>& cache, const ObjectPtr& object,
                      MapOp op, const std::vector<std::string>& args, Done<Reply>& done) {
  auto found = cache->find(args.at(0), true);
  if (found.kind == LocalCacheFind::absent) {
    return done(Status{}, op == MapOp::get ? Reply{} : integer_reply(0));
  }
  if (found.kind == LocalCacheFind::value) {
    if (op == MapOp::contains_key) return done(Status{}, integer_reply(1));
    return done(Status{}, cache_bulk(std::move(found.bytes)));
  }
  const auto ticket = cache->ticket(key_hash(args[0]));
  if (op == MapOp::contains_key) {
    return plain_map_layout.start(object, op, args, done);
  }
  Done<Reply> filled = [cache, ticket, key = args[0], done = std::move(done)](Status status,
                                                                              Reply reply) mutable {
    if (!status && (reply.is_null() || reply.is_string())) {
      cache->fill(ticket, key,
                  reply.is_null() ? std::nullopt : std::optional<std::string>(reply.str));
    }
    done(std::move(status), std::move(reply));
  };
  plain_map_layout.start(object, op, args, filled);
}

/// get_all: the cached keys from the cache, the others in one HMGET (then cached).
void start_get_all(const std::shared_ptr<LocalCacheState>& cache, const ObjectPtr& object,
                   const std::vector<std::string>& keys, Done<Reply>& done) {
  Reply answer;
  answer.type = ReplyType::array;
  answer.elements.resize(keys.size());
  std::vector<std::size_t> missing;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    auto found = cache->find(keys[i], true);
    if (found.kind == LocalCacheFind::value) {
      answer.elements[i] = cache_bulk(std::move(found.bytes));
    } else if (found.kind != LocalCacheFind::absent) {
      missing.push_back(i);
    }
  }
  if (missing.empty()) return done(Status{}, std::move(answer));
  std::vector<std::string> asked;
  asked.reserve(missing.size());
  for (const auto i : missing) asked.push_back(keys[i]);
  const auto ticket = cache->bulk_ticket();
  Done<Reply> merged = [cache, ticket, keys, missing, answer = std::move(answer),
                        done = std::move(done)](Status status, Reply reply) mutable {
    if (status) return done(std::move(status), std::move(reply));
    for (std::size_t j = 0; j < missing.size() && j < reply.elements.size(); ++j) {
      answer.elements[missing[j]] = std::move(reply.elements[j]);
    }
    std::vector<std::pair<std::string, std::string>> found;
    for (const auto i : missing) {
      if (answer.elements[i].is_string()) found.emplace_back(keys[i], answer.elements[i].str);
    }
    cache->fill_all(ticket, std::move(found));
    done(Status{}, std::move(answer));
  };
  plain_map_layout.start(object, MapOp::get_all, asked, merged);
}

/// The flat key, value, ... (or [key, value] pairs) of HGETALL / HSCAN as pairs.
std::vector<std::pair<std::string, std::string>> entry_pairs(const Reply& reply) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!reply.elements.empty() && reply.elements[0].is_aggregate()) {
    for (const auto& pair : reply.elements) {
      if (pair.elements.size() == 2) out.emplace_back(pair.elements[0].str, pair.elements[1].str);
    }
    return out;
  }
  for (std::size_t i = 0; i + 1 < reply.elements.size(); i += 2) {
    out.emplace_back(reply.elements[i].str, reply.elements[i + 1].str);
  }
  return out;
}

void start_local_cached_op(const ObjectPtr& object, MapOp op, const std::vector<std::string>& args,
                           Done<Reply>& done) {
  auto cache = started_cache(object);
  if (op_name(op) != nullptr) return start_write(cache, object, op, args, done);
  switch (op) {
    case MapOp::get:
    case MapOp::contains_key:
      return start_keyed_read(cache, object, op, args, done);
    case MapOp::get_all:
      return start_get_all(cache, object, args, done);
    case MapOp::read_all_entries: {
      const auto ticket = cache->bulk_ticket();
      Done<Reply> filled = [cache, ticket, done = std::move(done)](Status status,
                                                                   Reply reply) mutable {
        if (!status) cache->fill_all(ticket, entry_pairs(reply));
        done(std::move(status), std::move(reply));
      };
      return plain_map_layout.start(object, op, args, filled);
    }
    default:
      return plain_map_layout.start(object, op, args, done);
  }
}

/// delete_object: the hash and the log go, and every instance clears (Redisson's deleteAsync).
void delete_local_cached_map(const ObjectPtr& object, Done<Reply>& done) {
  auto cache = started_cache(object);
  cache->clear();
  const auto message = encode_local_cache_clear(cache->id(), cache_random_bytes<16>(), false);
  eval_reply(*object,
             lua::local_cached_map_delete(
                 write_keys(*object),
                 std::vector<std::string>{message, cache->mode(), cache->publish_command()}),
             std::move(done));
}

/// One HSCAN page of preload_cache, then the next.
void preload_page(const std::shared_ptr<LocalCacheState>& cache, const ObjectPtr& object,
                  const std::string& cursor, std::int64_t page, Done<void> done) {
  const auto ticket = cache->bulk_ticket();
  Command scan{"HSCAN", object->name};
  scan.arg(cursor).arg("COUNT").arg(page);
  submit_command(
      object, scan,
      [cache, object, page, ticket, done = std::move(done)](Status status, Reply reply) mutable {
        if (status) return done(std::move(status));
        if (reply.elements.size() != 2) {
          return done(Status(make_error_code(errc::wrong_type),
                             "LocalCachedMap: an HSCAN reply of another shape"));
        }
        cache->fill_all(ticket, entry_pairs(reply.elements[1]));
        const auto& next = reply.elements[0].str;
        if (next == "0") return done(Status{});
        preload_page(cache, object, next, page, std::move(done));
      });
}

}  // namespace

const ObjectHooks local_cached_map_hooks{
    .extra_keys = &local_cache_extra_keys,
    .make_attached = &make_local_cache_state,
    .delete_keys = &delete_local_cached_map,
};
const MapLayout local_cached_map_layout{&start_local_cached_op, "HSCAN"};

void configure_local_cache(const ObjectPtr& object, const LocalCacheSettings& settings) {
  cache_of(*object)->configure(settings);
}

LocalCacheFound find_in_local_cache(const ObjectPtr& object, std::string key_bytes) {
  // Every typed get starts here: no reference count taken on the state.
  auto* cache = static_cast<LocalCacheState*>(object->attached.get());
  cache->ensure_started(object);
  return cache->find(std::move(key_bytes), false);
}

void remember_decoded(const ObjectPtr& object, const LocalCacheFound& found,
                      std::shared_ptr<const void> decoded) {
  cache_of(*object)->remember_decoded(found, std::move(decoded));
}

std::vector<std::pair<std::string, std::string>> local_cache_entries(const ObjectPtr& object) {
  return cache_of(*object)->entries();
}

LocalCacheStats local_cache_stats(const ObjectPtr& object) { return cache_of(*object)->stats(); }

void destroy_local_cache(const ObjectPtr& object) { cache_of(*object)->destroy(); }

void start_preload_local_cache(const ObjectPtr& object, std::int64_t page, Done<void> done) {
  if (page <= 0) {
    return done(Status(make_error_code(errc::invalid_argument),
                       "LocalCachedMap: the preload page size must be positive"));
  }
  auto cache = started_cache(object);
  cache->when_ready([cache, object, page, done = std::move(done)](Status status) mutable {
    if (status) return done(std::move(status));
    preload_page(cache, object, "0", page, std::move(done));
  });
}

void start_clear_local_caches(const ObjectPtr& object, Done<void> done) {
  auto cache = started_cache(object);
  cache->clear();
  if (cache->settings().sync == kSyncNone || !cache->settings().cache_locally) {
    return done(Status{});
  }
  const auto request = cache_random_bytes<16>();
  auto semaphore =
      object->name + ":clear:" + hex_lower(std::string_view(request.data(), request.size()));
  std::vector<Command> commands;
  commands.push_back(Command{"SET", semaphore}.arg("0").arg("PX").arg(
      std::chrono::milliseconds(kClearSemaphoreLife).count()));
  commands.push_back(Command{cache->publish_command(), cache->topic_name()}.arg(
      encode_local_cache_clear(cache->id(), request, true)));
  submit_all(
      object->core, std::move(commands),
      [object, semaphore, done = std::move(done)](Status status,
                                                  std::vector<Reply> replies) mutable {
        if (status) return done(std::move(status));
        // Every subscriber but ours answers (ours is the sender, which skips it).
        const std::int64_t others = replies.at(1).integer - 1;
        auto finish = [object, semaphore, done = std::move(done)](const Status&) mutable {
          submit_all(object->core, {Command{"DEL", semaphore}},
                     [done = std::move(done)](const Status& status,
                                              const std::vector<Reply>&) mutable { done(status); });
        };
        if (others <= 0) return finish(Status{});
        start_semaphore_try_acquire(object->core, semaphore, others,
                                    std::chrono::milliseconds(kClearWait),
                                    [finish = std::move(finish)](const Status&, bool) mutable {
                                      // Not all answered in time: cleared anyway, as
                                      // Redisson's clearLocalCache returns then too.
                                      finish(Status{});
                                    });
      });
}

}  // namespace redisson::detail

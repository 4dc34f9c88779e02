// Keys: the operations over every master (SCAN, DBSIZE, FLUSHDB, RANDOMKEY, delete by pattern)
// and over keys named per call (split per hash slot on a Cluster).
#include "redisson/objects/keys.hpp"

#include <mutex>
#include <random>

#include "objects/migrate_command.hpp"
#include "objects/send.hpp"
#include "topology/key_slot.hpp"
#include "topology/router.hpp"

namespace redisson {
namespace detail {

struct KeyScanState {
  ScanOptions options;
  bool started = false;
  std::vector<ServerAddress> masters;  // asked when the scan starts
  std::size_t node = 0;                // the master being scanned
  std::string cursor = "0";
};

namespace {

// SCAN COUNT of delete_by_pattern, as Redisson's deleteByPattern batch.
constexpr std::int64_t kDeleteBatch = 500;

Command scan_command(const std::string& cursor, const ScanOptions& options) {
  Command scan{"SCAN", cursor, "MATCH", options.pattern};
  scan.arg("COUNT").arg(options.count);
  if (!options.type.empty()) scan.arg("TYPE").arg(options.type);
  return scan;
}

struct ScanPage {
  std::string cursor;
  std::vector<std::string> keys;
};

// SCAN's reply: [next cursor, [keys...]].
ScanPage scan_page(const Reply& reply) {
  if (reply.elements.size() != 2 || !reply.elements[0].is_string()) {
    throw_unexpected_reply("a SCAN page", reply);
  }
  return ScanPage{reply.elements[0].str, reply_strings(reply.elements[1])};
}

Reply keys_reply(std::vector<std::string> keys) {
  Reply reply;
  reply.type = ReplyType::array;
  for (auto& key : keys) {
    Reply& element = reply.elements.emplace_back();
    element.type = ReplyType::bulk_string;
    element.str = std::move(key);
  }
  return reply;
}

void scan_next(const ObjectPtr& state, const std::shared_ptr<KeyScanState>& scan,
               Done<Reply> done) {
  if (scan->node >= scan->masters.size()) return done(Status{}, keys_reply({}));
  submit_to(state->core, scan->masters[scan->node], scan_command(scan->cursor, scan->options),
            [state, scan, done = std::move(done)](Status status, const Reply& reply) mutable {
              if (status) return done(std::move(status), Reply{});
              ScanPage page;
              try {
                page = scan_page(reply);
              } catch (const error& failure) {
                return done(Status(failure.code(), failure.what()), Reply{});
              }
              scan->cursor = page.cursor;
              if (page.cursor == "0") ++scan->node;
              if (!page.keys.empty()) return done(Status{}, keys_reply(std::move(page.keys)));
              scan_next(state, scan, std::move(done));  // an empty page: ask again
            });
}

// The integer replies of one command sent to every master, summed (DBSIZE).
void sum_over_masters(const ObjectPtr& state, const Command& command, Done<Reply> done) {
  std::vector<NodeCommand> commands;
  for (auto& master : state->core->router().masters()) commands.push_back({master, command});
  submit_all_to(state->core, std::move(commands),
                [done = std::move(done)](Status status, const std::vector<Reply>& replies) mutable {
                  std::int64_t sum = 0;
                  for (const auto& reply : replies) sum += reply.integer;
                  done(std::move(status), integer_reply(sum));
                });
}

// delete_by_pattern: every master scanned in parallel, each page UNLINKed before the next SCAN.
class PatternDelete : public std::enable_shared_from_this<PatternDelete> {
 public:
  PatternDelete(ObjectPtr state, std::string pattern, Done<Reply> done)
      : state_(std::move(state)), done_(std::move(done)) {
    options_.pattern = std::move(pattern);
    options_.count = kDeleteBatch;
  }

  void start() {
    masters_ = state_->core->router().masters();
    pending_ = masters_.size();
    if (pending_ == 0) return done_(Status{}, integer_reply(0));
    for (std::size_t node = 0; node < masters_.size(); ++node) scan(node, "0");
  }

 private:
  void scan(std::size_t node, const std::string& cursor) {
    submit_to(state_->core, masters_[node], scan_command(cursor, options_),
              [self = shared_from_this(), node](Status status, const Reply& reply) {
                if (status) return self->finish(std::move(status));
                ScanPage page;
                try {
                  page = scan_page(reply);
                } catch (const error& failure) {
                  return self->finish(Status(failure.code(), failure.what()));
                }
                if (page.keys.empty()) return self->next(node, page.cursor);
                submit_per_slot_sum(
                    self->state_->core, "UNLINK", page.keys,
                    [self, node, cursor = page.cursor](Status unlinked, const Reply& count) {
                      if (unlinked) return self->finish(std::move(unlinked));
                      {
                        std::lock_guard lock(self->mutex_);
                        self->deleted_ += count.integer;
                      }
                      self->next(node, cursor);
                    });
              });
  }

  void next(std::size_t node, const std::string& cursor) {
    if (cursor == "0") return finish(Status{});
    scan(node, cursor);
  }

  void finish(Status status) {
    Done<Reply> done;
    Status failure;
    std::int64_t deleted = 0;
    {
      std::lock_guard lock(mutex_);
      if (status && !failure_) failure_ = std::move(status);
      if (--pending_ > 0) return;
      done = std::move(done_);
      failure = failure_;
      deleted = deleted_;
    }
    done(std::move(failure), integer_reply(deleted));
  }

  ObjectPtr state_;
  ScanOptions options_;
  std::vector<ServerAddress> masters_;
  std::mutex mutex_;  // guards the three below
  std::size_t pending_ = 0;
  std::int64_t deleted_ = 0;
  Status failure_;
  Done<Reply> done_;
};

// RANDOMKEY on the masters in turn from a random one, until one has a key.
void random_key_from(const ObjectPtr& state, std::vector<ServerAddress> masters, std::size_t first,
                     std::size_t tried, Done<Reply> done) {
  if (tried >= masters.size()) return done(Status{}, Reply{});
  const ServerAddress node = masters[(first + tried) % masters.size()];
  submit_to(state->core, node, Command{"RANDOMKEY"},
            [state, masters = std::move(masters), first, tried, done = std::move(done)](
                Status status, Reply reply) mutable {
              if (status || !reply.is_null()) return done(std::move(status), std::move(reply));
              random_key_from(state, std::move(masters), first, tried + 1, std::move(done));
            });
}

}  // namespace

std::shared_ptr<KeyScanState> make_key_scan(ScanOptions options) {
  if (options.count < 1) {
    throw_invalid_argument("a SCAN count must be at least 1, got " + std::to_string(options.count));
  }
  auto scan = std::make_shared<KeyScanState>();
  scan->options = std::move(options);
  return scan;
}

void start_key_scan_next(const ObjectPtr& state, const std::shared_ptr<KeyScanState>& scan,
                         Done<Reply>& done) {
  if (state->batch) return done(batch_refusal("Keys::scan (every master)"), Reply{});
  if (!scan->started) {
    scan->masters = state->core->router().masters();
    scan->started = true;
  }
  scan_next(state, scan, std::move(done));
}

void start_keys_count(const ObjectPtr& state, Done<Reply>& done) {
  if (state->batch) return done(batch_refusal("Keys::count (every master)"), Reply{});
  sum_over_masters(state, Command{"DBSIZE"}, std::move(done));
}

void start_keys_delete_by_pattern(const ObjectPtr& state, const std::string& pattern,
                                  Done<Reply>& done) {
  if (state->batch) return done(batch_refusal("Keys::delete_by_pattern (every master)"), Reply{});
  std::make_shared<PatternDelete>(state, pattern, std::move(done))->start();
}

void start_keys_flush(const ObjectPtr& state, const char* verb, Done<Reply>& done) {
  if (state->batch) {
    return done(batch_refusal(std::string("Keys ") + verb + " (every master)"), Reply{});
  }
  std::vector<NodeCommand> commands;
  for (auto& master : state->core->router().masters()) {
    commands.push_back({master, Command{verb}});
  }
  submit_all_to(state->core, std::move(commands),
                [done = std::move(done)](Status status, const std::vector<Reply>&) mutable {
                  done(std::move(status), Reply{});
                });
}

void start_keys_swapdb(const ObjectPtr& state, std::int64_t first, std::int64_t second,
                       Done<Reply>& done) {
  if (state->core->is_cluster()) throw_invalid_argument("swapdb: a Cluster has one database");
  submit_command(state, Command{"SWAPDB"}.arg(first).arg(second), std::move(done));
}

void start_keys_random_key(const ObjectPtr& state, Done<Reply>& done) {
  if (state->batch) return done(batch_refusal("Keys::random_key (master after master)"), Reply{});
  auto masters = state->core->router().masters();
  thread_local std::minstd_rand generator{std::random_device{}()};
  const std::size_t first = masters.empty() ? 0 : generator() % masters.size();
  random_key_from(state, std::move(masters), first, 0, std::move(done));
}

void start_keys_migrate(const ObjectPtr& state, const std::string& name,
                        const MigrateTarget& target, bool copy, Done<Reply>& done) {
  const Command command = migrate_command(target, {name}, copy);  // may throw: before the move
  submit_command(state, command, std::move(done));
}

void start_keys_per_slot(const ObjectPtr& state, const char* command,
                         const std::vector<std::string>& names, Done<Reply>& done) {
  submit_per_slot_sum(*state, command, names, std::move(done));
}

std::optional<std::string> reply_optional_key(const Reply& reply) {
  if (reply.is_null()) return std::nullopt;
  if (!reply.is_string()) throw_unexpected_reply("a key", reply);
  return reply.str;
}

KeyType reply_key_type(const Reply& reply) {
  if (!reply.is_string()) throw_unexpected_reply("a type name", reply);
  static constexpr std::pair<std::string_view, KeyType> kTypes[] = {
      {"none", KeyType::none},    {"string", KeyType::string}, {"list", KeyType::list},
      {"set", KeyType::set},      {"zset", KeyType::zset},     {"hash", KeyType::hash},
      {"stream", KeyType::stream}};
  for (const auto& [name, type] : kTypes) {
    if (reply.str == name) return type;
  }
  return KeyType::other;
}

}  // namespace detail

KeyScan Keys::scan(ScanOptions options) const { return KeyScan(state_, std::move(options)); }

}  // namespace redisson

namespace redisson {

std::vector<std::string> KeyScan::next_batch() {
  return async_next_batch(detail::blocking("KeyScan::next_batch"));
}

}  // namespace redisson

namespace redisson {

std::int64_t Keys::count() const { return async_count(detail::blocking("Keys::count")); }

std::int64_t Keys::delete_keys(std::vector<std::string> names) {
  return async_delete_keys(std::move(names), detail::blocking("Keys::delete_keys"));
}

std::int64_t Keys::unlink(std::vector<std::string> names) {
  return async_unlink(std::move(names), detail::blocking("Keys::unlink"));
}

std::int64_t Keys::count_exists(std::vector<std::string> names) const {
  return async_count_exists(std::move(names), detail::blocking("Keys::count_exists"));
}

std::int64_t Keys::delete_by_pattern(std::string pattern) {
  return async_delete_by_pattern(std::move(pattern), detail::blocking("Keys::delete_by_pattern"));
}

void Keys::flushdb(ConfirmFlush confirm) {
  async_flushdb(confirm, detail::blocking("Keys::flushdb"));
}

void Keys::flushall(ConfirmFlush confirm) {
  async_flushall(confirm, detail::blocking("Keys::flushall"));
}

void Keys::swapdb(std::int64_t first, std::int64_t second) {
  async_swapdb(first, second, detail::blocking("Keys::swapdb"));
}

int Keys::slot(std::string_view key) { return detail::key_slot(key); }

std::optional<std::string> Keys::random_key() const {
  return async_random_key(detail::blocking("Keys::random_key"));
}

KeyType Keys::get_type(std::string name) const {
  return async_get_type(std::move(name), detail::blocking("Keys::get_type"));
}

std::chrono::milliseconds Keys::remaining_time_to_live(std::string name) const {
  return async_remaining_time_to_live(std::move(name),
                                      detail::blocking("Keys::remaining_time_to_live"));
}

}  // namespace redisson

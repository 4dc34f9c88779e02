#include "redisson/objects/time_series.hpp"

#include <chrono>
#include <cmath>
#include <cstddef>

#include "client/client_id.hpp"
#include "client/wall_clock.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "objects/sweeper.hpp"

namespace redisson::detail {

namespace {

// Redisson's "no ttl": now + 100 years of 365 days.
constexpr std::int64_t kNoTtlMs = std::int64_t{36500} * 24 * 60 * 60 * 1000;
constexpr std::size_t kRandomBytes = 16;
constexpr std::size_t kLengthBytes = 8;

std::vector<std::string> both_keys(const ObjectPtr& object) {
  return {object->name, time_series_ttl_key(object->name)};
}

// Lua's struct 'L' on Redis: an 8-byte little-endian length.
void append_length(std::string& out, std::size_t length) {
  for (std::size_t i = 0; i < kLengthBytes; ++i) {
    out.push_back(static_cast<char>((static_cast<std::uint64_t>(length) >> (8 * i)) & 0xFF));
  }
}

[[noreturn]] void throw_damaged(const char* what) {
  throw error(errc::codec_error, std::string("TimeSeries: not a Redisson entry: ") + what);
}

// Reads an 8-byte LE length and the bytes after it from `in` at `at`.
std::string_view read_framed(std::string_view in, std::size_t& at) {
  if (in.size() - at < kLengthBytes) throw_damaged("truncated length");
  std::uint64_t length = 0;
  for (std::size_t i = 0; i < kLengthBytes; ++i) {
    length |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[at + i])) << (8 * i);
  }
  at += kLengthBytes;
  if (length > in.size() - at) throw_damaged("truncated bytes");
  const auto bytes = in.substr(at, static_cast<std::size_t>(length));
  at += static_cast<std::size_t>(length);
  return bytes;
}

Reply empty_array() {
  Reply reply;
  reply.type = ReplyType::array;
  return reply;
}

}  // namespace

std::string time_series_ttl_key(const std::string& name) {
  return "redisson__ts_ttl:" + (name.find('{') != std::string::npos ? name : "{" + name + "}");
}

std::vector<std::string> time_series_keys(const std::string& name) {
  return {time_series_ttl_key(name)};
}

std::string time_series_member(std::string_view random16, std::string_view value,
                               const std::optional<std::string>& label) {
  std::string member;
  member.reserve(2 + random16.size() + 2 * kLengthBytes + value.size() +
                 (label ? label->size() : 0));
  member.push_back(static_cast<char>(label ? 3 : 2));
  member.push_back(static_cast<char>(random16.size()));
  member.append(random16);
  append_length(member, value.size());
  member.append(value);
  append_length(member, label ? label->size() : 0);
  if (label) member.append(*label);
  return member;
}

TimeSeriesMember parse_time_series_member(std::string_view member) {
  if (member.size() < 2) throw_damaged("too short");
  const auto format = static_cast<unsigned char>(member[0]);
  if (format != 2 && format != 3) throw_damaged("unknown format byte");
  std::size_t at = 2 + static_cast<unsigned char>(member[1]);
  if (at > member.size()) throw_damaged("truncated id");
  TimeSeriesMember parts;
  parts.value = read_framed(member, at);
  const auto label = read_framed(member, at);
  if (at != member.size()) throw_damaged("trailing bytes");
  if (format == 3) parts.label = label;
  return parts;
}

std::int64_t time_series_timestamp(const Reply& score) {
  if (score.type == ReplyType::integer) return score.integer;
  const double value = reply_double(score);
  if (!std::isfinite(value)) throw_unexpected_reply("a timestamp", score);
  return static_cast<std::int64_t>(std::llround(value));
}

void start_time_series_add(const ObjectPtr& object, const std::vector<TimeSeriesWrite>& entries,
                           std::chrono::milliseconds ttl, Done<Reply>& done) {
  if (ttl.count() < 0) throw_invalid_argument("TimeSeries: the ttl must not be negative");
  if (entries.empty()) return done(Status{}, integer_reply(0));
  const bool has_ttl = ttl.count() > 0;
  std::vector<std::string> argv{std::to_string(unix_time_ms() + (has_ttl ? ttl.count() : kNoTtlMs)),
                                has_ttl ? "1" : "0"};
  argv.reserve(2 + entries.size() * 2);
  for (const auto& entry : entries) {
    argv.push_back(std::to_string(entry.timestamp));
    argv.push_back(time_series_member(make_id_bytes(), entry.value, entry.label));
  }
  eval_reply(*object, lua::time_series_add(both_keys(object), argv), std::move(done));
}

void start_time_series_get(const ObjectPtr& object, std::int64_t timestamp, bool remove,
                           Done<Reply>& done) {
  eval_reply(*object,
             lua::time_series_get(
                 both_keys(object),
                 std::vector<std::string>{std::to_string(unix_time_ms()), std::to_string(timestamp),
                                          remove ? "remove" : "get"}),
             std::move(done));
}

std::int64_t time_series_range_limit(std::int64_t limit) {
  if (limit < 0) throw_invalid_argument("TimeSeries: the limit must not be negative");
  return limit == 0 ? -1 : limit;
}

std::int64_t time_series_count(std::int64_t count) {
  if (count < 0) throw_invalid_argument("TimeSeries: the count must not be negative");
  return count;
}

void start_time_series_range(const ObjectPtr& object, const std::string& from,
                             const std::string& to, std::int64_t limit, bool reverse,
                             TimeSeriesAction action, Done<Reply>& done) {
  if (limit == 0) {
    return done(Status{}, action == TimeSeriesAction::remove ? integer_reply(0) : empty_array());
  }
  const char* verb = action == TimeSeriesAction::read   ? "read"
                     : action == TimeSeriesAction::poll ? "poll"
                                                        : "remove";
  eval_reply(
      *object,
      lua::time_series_range(both_keys(object),
                             std::vector<std::string>{std::to_string(unix_time_ms()), from, to,
                                                      std::to_string(limit < 0 ? 0 : limit),
                                                      reverse ? "1" : "0", verb}),
      std::move(done));
}

void start_time_series_size(const ObjectPtr& object, Done<Reply>& done) {
  eval_reply(*object,
             lua::time_series_size(both_keys(object),
                                   std::vector<std::string>{std::to_string(unix_time_ms())}),
             std::move(done));
}

void start_time_series_sweep(const ObjectPtr& object, std::int64_t limit, Done<Reply>& done) {
  if (limit < 1) throw_invalid_argument("TimeSeries: the eviction limit must be at least 1");
  eval_reply(*object,
             lua::time_series_evict(
                 both_keys(object),
                 std::vector<std::string>{std::to_string(unix_time_ms()), std::to_string(limit)}),
             std::move(done));
}

std::shared_ptr<void> time_series_sweeper(const ObjectPtr& object) {
  // Redisson's TimeSeriesEvictionTask has no latch.
  return sweeper_of(object, "TimeSeries",
                    [object](std::int64_t limit, std::int64_t, Done<Reply> done) {
                      start_time_series_sweep(object, limit, done);
                    });
}

struct TimeSeriesScanState {
  std::int64_t page_size;
  std::int64_t next_rank = 0;
  bool finished = false;
};

std::shared_ptr<TimeSeriesScanState> make_time_series_scan(std::int64_t page_size) {
  if (page_size < 1) throw_invalid_argument("TimeSeries: the page size must be at least 1");
  return std::make_shared<TimeSeriesScanState>(TimeSeriesScanState{page_size});
}

void start_time_series_scan_next(const ObjectPtr& object,
                                 const std::shared_ptr<TimeSeriesScanState>& scan,
                                 Done<Reply>& done) {
  if (scan->finished) return done(Status{}, empty_array());
  auto call = lua::time_series_page(
      both_keys(object),
      std::vector<std::string>{std::to_string(unix_time_ms()), std::to_string(scan->next_rank),
                               std::to_string(scan->page_size)});
  eval_reply(*object, std::move(call),
             [object, scan, done = std::move(done)](Status status, const Reply& reply) mutable {
               if (status) return done(std::move(status), Reply{});
               // {members read, {member, timestamp, ...}}
               if (reply.elements.size() != 2 || reply.elements[0].type != ReplyType::integer ||
                   !reply.elements[1].is_aggregate()) {
                 return done(Status(make_error_code(errc::wrong_type),
                                    "TimeSeries: not a time series page"),
                             Reply{});
               }
               const std::int64_t read = reply.elements[0].integer;
               scan->next_rank += read;
               scan->finished = read < scan->page_size;
               const Reply& page = reply.elements[1];
               if (!page.elements.empty() || scan->finished) return done(Status{}, page);
               start_time_series_scan_next(object, scan, done);  // only expired ones: read on
             });
}

}  // namespace redisson::detail

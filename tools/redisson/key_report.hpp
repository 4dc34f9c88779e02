// What `inspect` learned about one key, and how it is shown (text for people, JSON for scripts).
//
// Lock layouts recognised (Java Redisson's, see docs/interop-java.md): a hash whose fields are
// all owners "<client-id>:<owner-id>" with a hold count is a lock; with a "mode" field
// (read/write) and owners (writers end in ":write") it is a read-write lock. Companion keys: the
// fair lock's queue and timeouts, the fenced lock's token counter, an expirable semaphore's
// S(n, "timeout") zset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "redisson/client.hpp"

namespace redisson::cli {

struct LockHolder {
  std::string owner;      ///< the field as stored: "<client-id>:<owner-id>[:write]"
  std::string client_id;  ///< the client's UUID
  std::string owner_id;   ///< thread id (Java) or owner id (C++; the pid for `redisson lock`)
  bool write = false;     ///< a read-write lock's writer
  std::int64_t hold_count = 0;
};

struct FairWaiter {
  std::string owner;                       ///< "<client-id>:<owner-id>"
  std::int64_t position = 0;               ///< 1: next in line
  std::optional<std::int64_t> timeout_in;  ///< ms until its slot times out (may be negative)
};

struct ExpirablePermit {
  std::string id;               ///< hex of the 16-byte permit id
  std::int64_t expires_in = 0;  ///< ms until it expires (may be negative)
};

struct KeyReport {
  std::string name;
  bool exists = false;
  std::string type;  ///< Redis TYPE: string, hash, list, set, zset, stream, ...
  std::string kind;  ///< "lock", "read_write_lock", or the Redis type
  /// A collection's Redisson type when its layout names it ("RingBuffer", "MapCache", ...).
  std::string redisson_type;
  std::int64_t ttl_ms = -1;          ///< PTTL: -1 when the key never expires
  std::optional<std::int64_t> size;  ///< bytes, fields, elements or members
  std::string size_unit;             ///< "bytes", "fields", "elements", "members", "entries"
  std::string mode;                  ///< read-write lock: "read" or "write"
  std::vector<LockHolder> holders;
  std::int64_t fair_waiters = 0;                   ///< owners queued in a fair lock's queue
  std::vector<FairWaiter> fair_queue;              ///< the fair lock's queue, first in line first
  std::optional<std::int64_t> integer_value;       ///< a string holding an integer (permits/count)
  std::vector<ExpirablePermit> expirable_permits;  ///< S(n, "timeout") of an expirable semaphore
  std::optional<std::int64_t> fencing_token;       ///< P(redisson_lock_token, n), when it exists
  // A Redisson object recognised by its layout (object_report.hpp):
  std::string codec;             ///< bucket: the codec whose bytes the value matched
  std::string value_json;        ///< bucket: the value decoded, as JSON
  bool value_truncated = false;  ///< value_json was cut to keep the output short
  /// The object's state, in order: a name and its value as JSON text ("1000", "\"OVERALL\"").
  std::vector<std::pair<std::string, std::string>> details;
};

/// Asks the server about `name` and the companion keys of its Redisson layouts (read-only
/// commands; string values up to 64 KiB are read to recognise and decode them).
KeyReport inspect_key(Client& client, const std::string& name);

/// The report for people, ending in a newline.
std::string format_text(const KeyReport& report);
/// The report as one JSON object, ending in a newline.
std::string format_json(const KeyReport& report);

}  // namespace redisson::cli

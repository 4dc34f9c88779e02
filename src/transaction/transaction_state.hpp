// What a Transaction is inside: its id and lock owner field, the locks it takes (Redisson's RLock
// hash with the field `<client-id>:<thread>:<transaction id>`, taken and released with the
// lock scripts of src/sync/lua), what its objects wrote (the transaction's own view), and the
// writes commit() sends, each followed by the unlock of its lock, in one MULTI/EXEC.
//
// Threading: any thread; the local view and the record are guarded by `mutex`, and no callback
// runs under it.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "client/client_core.hpp"
#include "redisson/detail/object_op.hpp"
#include "redisson/detail/status.hpp"
#include "redisson/transaction.hpp"
#include "script/script_def.hpp"

namespace redisson::detail {

/// What an operation of a finished (committed or rolled back) transaction fails with.
Status transaction_finished_refusal();

/// Which of Redisson's transaction locks a name is: an RLock (a key's, a member's, a bucket's
/// `<name>:transaction_lock`), or the write side of an RReadWriteLock (a map's or set's own
/// `<name>:transaction_lock`, taken by its whole-object writes: delete, unlink).
enum class TxLockKind { plain, write };

/// One recorded write: what commit() queues for it (on the object bound to the commit's batch),
/// and the lock whose hold it releases after it (none when empty: touch takes no lock).
struct TransactionWrite {
  ObjectPtr object;
  std::function<void(const ObjectPtr& bound)> queue;
  std::string lock;
  TxLockKind lock_kind = TxLockKind::plain;
};

class TransactionState : public std::enable_shared_from_this<TransactionState> {
 public:
  TransactionState(std::shared_ptr<ClientCore> core, TransactionOptions options);

  /// Counts an operation in flight; errc::invalid_argument once the transaction is finished.
  Status begin_operation();
  void end_operation();

  /// Takes one hold of the lock `name` (re-entrant: each write takes its own), waiting for
  /// another owner until the transaction's timeout; errc::timeout when it is still held then.
  void lock(const std::string& name, Done<void> done, TxLockKind kind = TxLockKind::plain);
  /// Releases one hold of `name` now, without waiting (a write that recorded nothing).
  void unlock_now(const std::string& name, TxLockKind kind = TxLockKind::plain);
  /// Takes one hold of every name: all tried at once (one round trip when none is held
  /// elsewhere), then, from the first held elsewhere on, one at a time in the given order; on
  /// a failure releases those taken.
  void lock_all(std::vector<std::string> names, Done<void> done);

  /// Records `write`; false (nothing recorded) when the transaction finished meanwhile.
  /// Call under `mutex`.
  bool record_locked(TransactionWrite write);
  bool open_locked() const { return phase_ == Phase::open; }
  /// Whether the map or set `name` was deleted by this transaction. Call under `mutex`.
  bool emptied_locked(const std::string& name) const { return emptied.count(name) != 0; }

  void commit(Done<void> done);
  void rollback(Done<void> done);
  /// From the destructor of the Transaction: rolls back in the background when still open.
  void abandon() noexcept;

  const std::shared_ptr<ClientCore> core;
  const TransactionOptions options;
  const std::string id;           ///< 32 hex characters
  const std::string field;        ///< <client-id>:<thread>:<id>
  const std::string write_field;  ///< <client-id>:<thread>:write:<id> (the write lock's)
  const Clock::time_point started;

  // ---- the transaction's own view (guarded by mutex) ----------------------------------------
  std::mutex mutex;
  /// (object name, key bytes) -> the value written, nullopt for removed.
  using Entries = std::map<std::pair<std::string, std::string>, std::optional<std::string>>;
  Entries buckets;      // key bytes empty
  Entries map_entries;  // key = the map key's bytes
  Entries set_members;  // key = the member's bytes; value "" = added, nullopt = removed
  /// Maps and sets this transaction deleted: what Redis holds of them does not count any more
  /// (only the entries written since, above).
  std::set<std::string> emptied;
  /// Maps and sets this transaction recorded an expire of (since their last delete).
  std::set<std::string> expiring;

 private:
  enum class Phase { open, finishing, finished };

  ScriptCall lock_call(const std::string& name, TxLockKind kind) const;
  ScriptCall unlock_call(const std::string& name, TxLockKind kind) const;
  void lock_from(std::shared_ptr<const std::vector<std::string>> names, std::size_t next,
                 Done<void> done);
  /// Sends the unlock of every write's lock (pipelined); `done` with the first failure.
  void send_unlocks(const std::vector<TransactionWrite>& writes, Done<void> done);
  /// Takes the record for commit or rollback, or says why not.
  Status finish_begin(std::vector<TransactionWrite>& writes, bool abandoning = false);
  void finished();

  Phase phase_ = Phase::open;             // guarded by mutex
  std::size_t pending_ = 0;               // guarded by mutex
  std::vector<TransactionWrite> writes_;  // guarded by mutex
};

}  // namespace redisson::detail

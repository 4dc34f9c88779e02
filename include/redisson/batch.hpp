// redisson::Batch: many operations of many objects sent together (Java Redisson's RBatch).
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "redisson/codec.hpp"
#include "redisson/detail/operation.hpp"
#include "redisson/objects/object.hpp"
#include "redisson/reply.hpp"

namespace redisson {

class Client;

namespace detail {
class BatchState;
}

/// How a batch is sent (Redisson's BatchOptions.ExecutionMode).
enum class BatchMode {
  /// Pipelined, per master: the commands of one master are written back to back on its
  /// connection, each with its own reply. Not atomic: another client's commands may run
  /// between them; one failing does not stop the others.
  in_memory,
  /// MULTI ... EXEC on the one master all the keys belong to: all the commands run, in order,
  /// with nothing of anyone else in between. A command Redis refuses while queueing (a wrong
  /// number of arguments) aborts all of them; one failing while it runs (WRONGTYPE) does not
  /// undo the others (Redis transactions do not roll back).
  in_memory_atomic,
};

/// Redisson's BatchOptions, with the same defaults.
struct BatchOptions {
  BatchMode mode = BatchMode::in_memory;
  /// CLIENT REPLY OFF ... ON around each master's commands: the server sends no replies, so
  /// execute() returns no responses and each operation completes with errc::not_supported
  /// ("no result: skip_result") once the master acknowledged CLIENT REPLY ON.
  bool skip_result = false;
  /// WAIT sync_replicas sync_timeout after each master's commands; 0: no WAIT. When a master's
  /// WAIT counts fewer, execute() fails with errc::not_replicated (the commands did run, and
  /// each operation has its own result; a failover may lose them).
  int sync_replicas = 0;
  std::chrono::milliseconds sync_timeout{0};
  /// The deadline of the whole batch from execute(); 0: Config::command_timeout.
  std::chrono::milliseconds response_timeout{0};
  /// How many times a master's commands are sent again when the master refused all of them
  /// without running any (LOADING, BUSY, TRYAGAIN, CLUSTERDOWN), retry_interval apart, within
  /// the deadline. Nothing that may have run is sent twice.
  int retry_attempts = 3;
  std::chrono::milliseconds retry_interval{1500};

  BatchOptions& execution_mode(BatchMode value) {
    mode = value;
    return *this;
  }
  BatchOptions& skip(bool value = true) {
    skip_result = value;
    return *this;
  }
  BatchOptions& sync(int replicas, std::chrono::milliseconds timeout) {
    sync_replicas = replicas;
    sync_timeout = timeout;
    return *this;
  }
  BatchOptions& timeout(std::chrono::milliseconds value) {
    response_timeout = value;
    return *this;
  }
  BatchOptions& retries(int attempts, std::chrono::milliseconds interval) {
    retry_attempts = attempts;
    retry_interval = interval;
    return *this;
  }
};

/// What execute() completes with (Redisson's BatchResult).
struct BatchResult {
  /// One reply per command queued, in call order (an error reply where that command failed);
  /// empty with skip_result. The operations' own results, decoded, are their completions'.
  std::vector<Reply> responses;
  /// With sync_replicas: the fewest replicas any master's WAIT counted; else 0.
  std::int64_t synced_replicas = 0;
};

/// A batch of operations, sent together by execute().
///
///     redisson::Batch batch(client);
///     auto map = batch.get<redisson::Map<std::string, std::string>>("map");
///     auto counter = batch.get<redisson::AtomicLong>("counter");
///     auto old = map.async_put("k", "v", asio::use_future);      // queued, nothing sent
///     auto n = counter.async_increment_and_get(asio::use_future);
///     auto result = batch.execute();                             // one round trip
///     old.get(); n.get();                                        // each operation's result
///
/// The objects are the ordinary types (Map, Bucket, AtomicLong, ...) bound to the batch instead
/// of the client: their async operations queue their command (or script) and complete when
/// execute() gets its reply; execute() completes after all of them. Scripts the masters may not
/// know are loaded first (SCRIPT LOAD, on the same connection, before the batch).
///
/// Not possible in a batch, refused with errc::invalid_argument: the blocking forms of a bound
/// object's operations (their result only exists after execute()); operations that wait
/// (blocking queue pops, stream reads that block, rate limiter acquisitions, the
/// synchronizers' operations); operations that send a command only after an earlier reply
/// (they fail when that reply arrives, their first command having run in the batch).
///
/// On a Cluster each master gets its own group (in parallel). An in_memory_atomic batch whose
/// keys belong to several masters fails with errc::invalid_argument before anything is sent.
/// An in_memory batch's commands answered MOVED or ASK (their slot moved) are sent again where
/// the slot went, one at a time in call order (docs/batches-transactions.md).
///
/// A batch executes once; discard() drops what is queued (each operation completes with
/// errc::invalid_argument), and so does dropping the batch and its bound objects without
/// execute(). Thread-safe; cheap to make (one allocation).
class Batch {
 public:
  explicit Batch(const Client& client, BatchOptions options = {});

  /// An object of type T (Map<K, V>, Bucket<T>, AtomicLong, ...; Topic<T>, ShardedTopic<T>,
  /// ReliableTopic<T>) named `name`, bound to this batch. `codec` null: the client's default; a
  /// type that takes no codec (AtomicLong) refuses one with errc::invalid_argument. A bound
  /// topic's publish and count_subscribers are queued; its listener operations are refused
  /// (errc::invalid_argument: a subscription is not part of a batch).
  template <class T>
  T get(std::string name, CodecPtr codec = nullptr) const {
    if constexpr (std::is_base_of_v<Object, T>) {
      auto object =
          detail::construct_object<T>(*client_, std::move(name), std::move(codec), &refuse_codec);
      bind(object);
      return object;
    } else {
      static_assert(std::is_constructible_v<T, const Client&, std::string, CodecPtr>,
                    "Batch::get<T>(name): T must be an object or topic type");
      T object(*client_, std::move(name), std::move(codec));
      bind(object.state_);
      return object;
    }
  }

  /// A handle of type T that has no name (Scripts, Functions, Buckets, Keys), bound to this
  /// batch: Scripts' eval and eval_sha, Functions' call, Buckets' get and set, Keys'
  /// delete_keys, unlink, count_exists, get_type and remaining_time_to_live are queued; what
  /// runs on every master (script_load, script_flush, Functions' load, Keys' count, scan,
  /// delete_by_pattern, flushdb, random_key) is refused with errc::invalid_argument.
  template <class T>
  T get(CodecPtr codec = nullptr) const {
    if constexpr (std::is_constructible_v<T, const Client&, CodecPtr>) {
      T handle(*client_, std::move(codec));
      bind(handle.state_);
      return handle;
    } else {
      static_assert(std::is_constructible_v<T, const Client&>,
                    "Batch::get<T>(): T must be Scripts, Functions, Buckets or Keys");
      if (codec) refuse_codec();
      T handle(*client_);
      bind(handle.state_);
      return handle;
    }
  }

  /// Sends everything queued; completes with the replies in call order, or with the first
  /// failure in call order (the operations still get their own outcomes first).
  template <class CompletionToken>
  auto async_execute(CompletionToken&& token) {
    return detail::async_op<BatchResult>(
        core_, token, [state = state_](auto done) { start_execute(state, std::move(done)); });
  }
  /// Blocking execute(): throws redisson::error on the first failure.
  BatchResult execute();

  /// Drops everything queued: each queued operation completes with errc::invalid_argument.
  /// The batch cannot be executed afterwards.
  void discard();

  /// Commands queued so far.
  std::size_t size() const;

 private:
  void bind(Object& object) const;
  void bind(detail::ObjectPtr& state) const;
  [[noreturn]] static void refuse_codec();
  static void start_execute(const std::shared_ptr<detail::BatchState>& state,
                            detail::Done<BatchResult> done);

  const Client* client_;
  std::shared_ptr<detail::ClientCore> core_;
  std::shared_ptr<detail::BatchState> state_;
};

}  // namespace redisson

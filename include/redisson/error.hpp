// Public error vocabulary: one error category, one exception type.
//
// Async operations complete with a std::error_code whose category is redisson::category();
// blocking calls throw redisson::error, which carries the same code plus the server's text
// (when the server said something).
#pragma once

#include <string>
#include <system_error>

namespace redisson {

/// What went wrong, independent of where.
enum class errc {
  timeout = 1,       ///< the operation's deadline passed
  connection_lost,   ///< the connection broke while the command was in flight
  connect_failed,    ///< could not reach the server within the connect timeout
  auth_failed,       ///< the server refused the credentials
  server_error,      ///< the server replied with an error (text in the message)
  wrong_type,        ///< a key holds a value of another type (WRONGTYPE)
  invalid_argument,  ///< the caller passed a bad value; nothing was sent
  not_owner,         ///< unlock/renew by someone who does not hold the lock
  protocol_error,    ///< the server sent bytes that are not valid RESP
  shutdown,          ///< the client was shut down before the operation finished
  not_supported,     ///< the feature or server mode is not supported (yet)
  /// the watchdog found a renewed hold gone (expired, deleted or taken behind the owner's
  /// back), or stopped renewing one because the thread holding it exited without unlocking.
  /// Only reported through Config::error_handler (and lost(), on_lost()); no operation
  /// completes with it: an unlock of a hold that is gone fails with not_owner
  lock_lost,
  would_deadlock,  ///< a blocking call was made on the client's own I/O thread
  /// the owner already holds what it asked for: a non-re-entrant lock (Lock, FairLock) taken
  /// again by its holder, or a ReadWriteLock's write lock asked for without a wait bound by an
  /// owner holding a read hold (no upgrade: it would wait for itself)
  already_held,
  no_permission,  ///< the server's ACL refused a command, key or channel (NOPERM)
  server_busy,    ///< the server refused for now: loading its data (LOADING), running a
                  ///< long script (BUSY), a cluster without a master for a slot
                  ///< (CLUSTERDOWN) or a slot mid-migration (TRYAGAIN). The command did not
                  ///< run; scripts are sent again until the command timeout, so a caller
                  ///< sees this only after it
  /// No replica acknowledged a write in time. Config::sync_replicas (locks, semaphores,
  /// latches): an acquisition (a lock, permits) was undone; an unlock, release, count-down or
  /// set/add of permits was done on the master only. BatchOptions::sync: fewer replicas than
  /// asked acknowledged the batch, which ran on the master(s). Either way a failover now may
  /// lose what was done: do not repeat it blindly
  not_replicated,
  /// a value a codec cannot write, or bytes it cannot read as the value asked for (damaged
  /// bytes, a Java class it does not know, a String where a Long was expected); nothing changed
  codec_error,
  /// the object has no configuration yet, so the operation cannot run: a RateLimiter whose rate
  /// was never set, a BloomFilter never initialised with try_init (or deleted since)
  not_initialized,
  /// a topic listener threw (reported to Config::error_handler; the message is not delivered
  /// again, the listener stays)
  listener_failed,
  /// a reliable topic's subscriber of this client was found removed: it was away (its
  /// connection down, its process stopped) longer than Config::reliable_topic_watchdog_timeout
  /// and another subscriber removed it. It registered again and goes on after the last message
  /// it acknowledged; what the stream no longer held meanwhile is lost for it. Only reported
  /// through Config::error_handler
  subscriber_expired,
  /// a function the caller handed to an async operation threw (a Map's async_compute
  /// remapping, ...); nothing was written
  function_failed,
  /// a remote method failed on its worker (RemoteService): the message is the worker's (a C++
  /// exception's text, or the class of a Java exception)
  remote_failed,
  /// an executor refused a task: it is shut down (ExecutorService::shutdown), nothing was queued
  rejected,
};

/// The error category of redisson::errc.
const std::error_category& category() noexcept;

inline std::error_code make_error_code(errc e) noexcept {
  return {static_cast<int>(e), category()};
}

/// The exception thrown by blocking calls.
class error : public std::system_error {
 public:
  explicit error(std::error_code ec) : std::system_error(ec) {}
  error(std::error_code ec, const std::string& what) : std::system_error(ec, what) {}
  error(errc e, const std::string& what) : std::system_error(make_error_code(e), what) {}
};

}  // namespace redisson

template <>
struct std::is_error_code_enum<redisson::errc> : std::true_type {};

// What a Batch is inside: the commands its bound objects queued (each with the reply callback
// of the operation that queued it), and how execute() sends them (batch.cpp's Batch is its
// handle; batch_execution.cpp sends).
//
// Threading: add(), execute() and discard() may be called from any thread. Callbacks never run
// under the lock.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "net/multiplexer.hpp"
#include "redisson/batch.hpp"
#include "redisson/command.hpp"
#include "redisson/detail/status.hpp"
#include "redisson/script.hpp"
#include "script/script_def.hpp"

namespace redisson::detail {

class ClientCore;

/// One queued command of a batch.
struct BatchEntry {
  Command command;
  /// The script of an EVALSHA, loaded first where the master may not know it.
  std::optional<Script> script;
  ReplyCallback callback;
};

class BatchState {
 public:
  BatchState(std::shared_ptr<ClientCore> core, BatchOptions options)
      : core_(std::move(core)), options_(options) {}
  /// A batch dropped (its handle and bound objects gone) without execute(): as discard().
  ~BatchState();
  BatchState(const BatchState&) = delete;
  BatchState& operator=(const BatchState&) = delete;

  /// Queues `command`; `callback` runs with its reply once execute() got it. After execute()
  /// or discard() (an operation's second command, sent after its first reply), `callback`
  /// gets errc::invalid_argument at once: nothing is sent.
  void add(const Command& command, ReplyCallback callback);
  /// Queues the EVALSHA of `call`.
  void add(ScriptCall call, ReplyCallback callback);

  /// Sends what is queued (batch_execution.cpp). A second call fails with invalid_argument.
  void execute(Done<BatchResult> done);
  /// Fails what is queued with invalid_argument; execute() then fails too.
  void discard();
  std::size_t size() const;

 private:
  enum class Phase { open, executing, closed };

  /// Takes the entries for execute(), or says why not.
  Status take(std::vector<BatchEntry>& entries);

  std::shared_ptr<ClientCore> core_;
  BatchOptions options_;
  mutable std::mutex mutex_;
  Phase phase_ = Phase::open;
  std::vector<BatchEntry> entries_;
};

}  // namespace redisson::detail

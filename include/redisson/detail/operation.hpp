// One operation path for every object: an operation is written once, as a function in a .cpp file
// that completes a Done<T>; its public async form is async_op<T>(core, token, start) and its
// blocking form is the same call with the blocking(...) token. The blocking form therefore cannot
// drift from the async one, and a public method is one line of plumbing.
//
//   template <class CompletionToken>
//   auto async_size(CompletionToken&& token) {
//     return detail::async_op<std::int64_t>(core_, token, [state = state_](auto done) {
//       detail::object_size(state, std::move(done));
//     });
//   }
//   std::int64_t size() { return async_size(detail::blocking("size", name())); }
//
// Completion: the caller's handler runs on its associated executor (a coroutine's, a strand, a
// thread pool), or inline on the client's I/O thread when it has none. Per-operation cancellation
// (cancellation.hpp) reaches the operations that take a CancellationPtr. The blocking token waits
// on the calling thread and throws redisson::error (or fills an error_code), with the server's
// words in the message when it refused a command.
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/associated_cancellation_slot.hpp>
#include <asio/associated_executor.hpp>
#include <asio/async_result.hpp>
#include <asio/cancellation_type.hpp>
#include <asio/dispatch.hpp>
#include <asio/error.hpp>
#include <asio/executor_work_guard.hpp>
#include <asio/io_context.hpp>
#include <asio/post.hpp>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>

#include "redisson/detail/cancellation.hpp"
#include "redisson/detail/read_slot.hpp"
#include "redisson/detail/status.hpp"
#include "redisson/error.hpp"

namespace redisson::detail {

class ClientCore;
/// The executor of the client's I/O thread.
asio::any_io_executor core_executor(ClientCore& core);
/// The same executor, unerased: one pointer wide, and it can tell whether it runs this thread.
asio::io_context::executor_type core_io_executor(ClientCore& core);
/// True on one of the client's I/O threads, where a blocking call would wait on itself.
bool core_on_io_thread(const ClientCore& core) noexcept;

template <class T>
struct SignatureOf {
  using type = void(std::error_code, T);
};
template <>
struct SignatureOf<void> {
  using type = void(std::error_code);
};

/// What the blocking form of a batch-bound object's operation fails with (invalid_argument).
Status blocking_in_batch_refusal();

// ---- the blocking token ---------------------------------------------------------------------

/// The completion token of the blocking API: the call waits and returns the value. On failure it
/// throws redisson::error("<operation> '<name>'", code), or, when made with an error_code (or a
/// Status), fills that and returns what the operation completed with (an error reply, or a
/// value-initialised T). The name is copied only on failure.
class Blocking {
 public:
  Blocking(const char* operation, std::string_view name, std::error_code* ec,
           Status* status = nullptr) noexcept
      : operation_(operation), name_(name), ec_(ec), status_(status) {}

  /// Hands `status` to the caller: fills the error_code or Status, or throws.
  void fail(const Status& status) const;
  /// Clears the caller's error_code or Status, if any (success).
  void succeed() const noexcept {
    if (ec_ != nullptr) ec_->clear();
    if (status_ != nullptr) *status_ = Status{};
  }

  /// The exception fail() throws: "<operation> '<name>' (<detail>): <meaning of the code>".
  error to_error(const Status& status) const;

 private:
  const char* operation_;
  std::string_view name_;
  std::error_code* ec_;
  Status* status_;
};

/// The token for a blocking call that throws: `async_x(args, blocking("x", name()))`.
inline Blocking blocking(const char* operation, std::string_view name = {}) noexcept {
  return Blocking(operation, name, nullptr);
}
/// The token for a blocking call that reports failure in `ec` instead of throwing.
inline Blocking blocking(std::error_code& ec, const char* operation,
                         std::string_view name = {}) noexcept {
  return Blocking(operation, name, &ec);
}
/// The same, keeping what the server said.
inline Blocking blocking(Status& status, const char* operation,
                         std::string_view name = {}) noexcept {
  return Blocking(operation, name, nullptr, &status);
}

/// Where a blocking caller waits for the outcome (on its own stack).
template <class T>
class BlockingWait {
 public:
  void complete(Status status, T value) {
    std::lock_guard lock(mutex_);
    status_ = std::move(status);
    value_ = std::move(value);
    done_ = true;
    // Notified under the lock: the waiter cannot return (and free this) before we are done.
    ready_.notify_one();
  }
  T get(const Blocking& token) {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [this] { return done_; });
    if (status_) {
      token.fail(status_);  // throws, unless the caller asked for an error_code or Status
    } else {
      token.succeed();
    }
    // On failure, what the operation completed with (an error reply's text, or T{}).
    return std::move(value_);
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  bool done_ = false;
  Status status_;
  T value_{};
};

template <>
class BlockingWait<void> {
 public:
  void complete(Status status) {
    std::lock_guard lock(mutex_);
    status_ = std::move(status);
    done_ = true;
    ready_.notify_one();
  }
  void get(const Blocking& token) {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [this] { return done_; });
    if (status_) return token.fail(status_);
    token.succeed();
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  bool done_ = false;
  Status status_;
};

/// The handler the blocking token hands to an operation's initiation: where to complete, and
/// the slot through which the start may read its own reply (read_slot.hpp).
template <class T>
struct BlockingHandler {
  BlockingWait<T>* wait;
  ReadSlot* read;
};

template <class Handler>
struct IsBlockingHandler : std::false_type {};
template <class T>
struct IsBlockingHandler<BlockingHandler<T>> : std::true_type {};

// ---- from a caller's handler to the internal Done<T> ----------------------------------------

/// True when `Handler` names no executor of its own (a plain lambda or function object): it
/// then completes on the client's I/O thread.
template <class Handler>
inline constexpr bool kRunsOnClientThread = requires {
  typename asio::associated_executor<
      Handler, asio::any_io_executor>::asio_associated_executor_is_unspecialised;
};

/// Clears the handler's cancellation slot and turns a success the caller cancelled before it
/// arrived into operation_aborted (the value, if any, is dropped).
template <class Handler, class... Value>
void settle_cancellation(Handler& handler, const CancellationPtr& cancel, std::error_code& ec,
                         Value&... value) {
  if (!cancel) return;
  asio::get_associated_cancellation_slot(handler).clear();
  if (!ec && cancel->undo_if_requested()) {
    ec = asio::error::operation_aborted;
    ((value = std::remove_reference_t<Value>{}), ...);
  }
}

/// The Done<T> callable that completes `handler` on its associated executor (the I/O thread's
/// when it has none). With `cancel`, the handler's cancellation slot is cleared first, and a
/// success the caller cancelled before it arrived is undone and reported as operation_aborted.
///
/// A handler without an executor of its own (the common case: a lambda) is called directly when
/// the operation completes on the I/O thread, and posted there otherwise; it needs no work guard,
/// since the client keeps its I/O context running. That keeps the whole completion a few
/// pointers wide, so it travels with the command without a heap allocation. A handler with an
/// executor (a coroutine, a strand) gets a work guard and a dispatch to that executor.
template <class T, class Handler>
auto bind_handler(Handler handler, asio::io_context::executor_type io, CancellationPtr cancel) {
  if constexpr (kRunsOnClientThread<Handler>) {
    if constexpr (std::is_void_v<T>) {
      return [handler = std::move(handler), io,
              cancel = std::move(cancel)](const Status& status) mutable {
        auto finish = [handler = std::move(handler), cancel = std::move(cancel),
                       ec = status.code]() mutable {
          settle_cancellation(handler, cancel, ec);
          std::move(handler)(ec);
        };
        if (io.running_in_this_thread()) return finish();
        asio::post(io, std::move(finish));
      };
    } else {
      return [handler = std::move(handler), io, cancel = std::move(cancel)](const Status& status,
                                                                            T value) mutable {
        if (io.running_in_this_thread()) {
          auto ec = status.code;
          settle_cancellation(handler, cancel, ec, value);
          return std::move(handler)(ec, std::move(value));
        }
        asio::post(io, [handler = std::move(handler), cancel = std::move(cancel), ec = status.code,
                        value = std::move(value)]() mutable {
          settle_cancellation(handler, cancel, ec, value);
          std::move(handler)(ec, std::move(value));
        });
      };
    }
  } else {
    auto work = asio::make_work_guard(asio::get_associated_executor(handler, io));
    if constexpr (std::is_void_v<T>) {
      return [handler = std::move(handler), work = std::move(work),
              cancel = std::move(cancel)](const Status& status) mutable {
        auto executor = work.get_executor();
        asio::dispatch(executor, [handler = std::move(handler), cancel = std::move(cancel),
                                  ec = status.code]() mutable {
          settle_cancellation(handler, cancel, ec);
          std::move(handler)(ec);
        });
        work.reset();
      };
    } else {
      return [handler = std::move(handler), work = std::move(work), cancel = std::move(cancel)](
                 const Status& status, T value) mutable {
        auto executor = work.get_executor();
        asio::dispatch(executor, [handler = std::move(handler), cancel = std::move(cancel),
                                  ec = status.code, value = std::move(value)]() mutable {
          settle_cancellation(handler, cancel, ec, value);
          std::move(handler)(ec, std::move(value));
        });
        work.reset();
      };
    }
  }
}

/// The blocking handler needs no executor hop: it wakes the waiting thread directly, and it
/// keeps the server's text.
template <class T>
auto bind_handler(BlockingHandler<T> handler, const asio::io_context::executor_type&,
                  const CancellationPtr&) {
  if constexpr (std::is_void_v<T>) {
    return [wait = handler.wait](Status status) { wait->complete(std::move(status)); };
  } else {
    return [wait = handler.wait](Status status, T value) {
      wait->complete(std::move(status), std::move(value));
    };
  }
}

/// A Cancellation wired to the handler's cancellation slot, or null when it has none.
template <class Handler>
CancellationPtr attach_cancellation(Handler& handler) {
  if constexpr (IsBlockingHandler<Handler>::value) {
    return nullptr;
  } else {
    auto slot = asio::get_associated_cancellation_slot(handler);
    if (!slot.is_connected()) return nullptr;
    auto cancel = std::make_shared<Cancellation>();
    slot.assign([cancel](asio::cancellation_type type) {
      constexpr auto kAny = asio::cancellation_type::terminal | asio::cancellation_type::partial |
                            asio::cancellation_type::total;
      if ((type & kAny) != asio::cancellation_type::none) cancel->request();
    });
    return cancel;
  }
}

/// Starts an operation that completes with (error_code[, T]) through any Asio completion token.
/// `start` is called with the Done<T> to complete, then, when it accepts them, a CancellationPtr
/// (null when the handler has no cancellation slot) and a ReadSlot* (the blocking token's slot,
/// null for every other token: read_slot.hpp). A blocking call made on the client's own I/O
/// thread completes at once with errc::would_deadlock instead of waiting on itself; one on an
/// object bound to a batch (`in_batch`) with errc::invalid_argument.
template <class T, class Token, class Start>
auto async_op(const std::shared_ptr<ClientCore>& core, Token&& token, Start&& start,
              bool in_batch = false) {
  return asio::async_initiate<Token, typename SignatureOf<T>::type>(
      // `start` by reference: it is moved once, into the deferred operation when the token
      // defers (asio::deferred, use_awaitable), not once more per call (a command inside it is
      // ~200 bytes to copy).
      [core, in_batch](auto handler, auto&& start) {
        using Handler = decltype(handler);
        if constexpr (IsBlockingHandler<Handler>::value) {
          // A batch-bound object's result exists only after Batch::execute(): waiting here
          // would wait forever.
          if (core_on_io_thread(*core) || in_batch) {
            auto done = bind_handler<T>(std::move(handler), core_io_executor(*core), nullptr);
            Status refusal = in_batch ? blocking_in_batch_refusal()
                                      : Status(make_error_code(errc::would_deadlock));
            if constexpr (std::is_void_v<T>) {
              return done(std::move(refusal));
            } else {
              return done(std::move(refusal), T{});
            }
          }
        }
        ReadSlot* read = nullptr;
        if constexpr (IsBlockingHandler<Handler>::value) read = handler.read;
        auto cancel = attach_cancellation(handler);
        auto done = bind_handler<T>(std::move(handler), core_io_executor(*core), cancel);
        using StartFn = decltype(start)&;
        if constexpr (std::is_invocable_v<StartFn, Done<T>, CancellationPtr, ReadSlot*>) {
          start(std::move(done), std::move(cancel), read);
        } else if constexpr (std::is_invocable_v<StartFn, Done<T>, CancellationPtr>) {
          start(std::move(done), std::move(cancel));
        } else if constexpr (std::is_invocable_v<StartFn, Done<T>, ReadSlot*>) {
          start(std::move(done), read);
        } else {
          start(std::move(done));
        }
      },
      token, std::forward<Start>(start));
}

/// The blocking token's initiation: runs `initiation` with a BlockingHandler (the caller's
/// ReadSlot beside it, open only while the start runs), then waits for the outcome.
template <class T, class Initiation, class... Args>
T initiate_blocking(Initiation&& initiation, const Blocking& token, Args&&... args) {
  BlockingWait<T> wait;
  {
    ReadSlot read;  // the start may read its reply itself (read_slot.hpp)
    std::forward<Initiation>(initiation)(BlockingHandler<T>{&wait, &read},
                                         std::forward<Args>(args)...);
  }
  return wait.get(token);
}

}  // namespace redisson::detail

// The blocking token's completion, for operations with and without a value.
template <class T>
class asio::async_result<redisson::detail::Blocking, void(std::error_code, T)> {
 public:
  using return_type = T;
  template <class Initiation, class... Args>
  static T initiate(Initiation&& initiation, redisson::detail::Blocking token, Args&&... args) {
    return redisson::detail::initiate_blocking<T>(std::forward<Initiation>(initiation), token,
                                                  std::forward<Args>(args)...);
  }
};

template <>
class asio::async_result<redisson::detail::Blocking, void(std::error_code)> {
 public:
  using return_type = void;
  template <class Initiation, class... Args>
  static void initiate(Initiation&& initiation, redisson::detail::Blocking token, Args&&... args) {
    redisson::detail::initiate_blocking<void>(std::forward<Initiation>(initiation), token,
                                              std::forward<Args>(args)...);
  }
};

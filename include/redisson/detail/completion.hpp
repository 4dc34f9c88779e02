// Glue between Asio completion tokens and the library's type-erased callbacks.
//
// Public headers start operations with asio::async_initiate; the initiation turns the
// handler into a UniqueFunction that the .cpp files call on the I/O thread. The handler then
// runs on its own associated executor (a coroutine's strand, a user's thread pool), or inline
// on the I/O thread when it has none.
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/associated_executor.hpp>
#include <asio/dispatch.hpp>
#include <asio/executor_work_guard.hpp>
#include <system_error>
#include <utility>

#include "redisson/detail/unique_function.hpp"
#include "redisson/reply.hpp"

namespace redisson::detail {

using ReplyCallback = UniqueFunction<void(std::error_code, Reply)>;

/// Wraps an Asio completion handler with signature void(error_code, T) into a callback that
/// may be called from the I/O thread and completes on the handler's associated executor.
template <class T, class Handler>
UniqueFunction<void(std::error_code, T)> bind_completion(Handler handler,
                                                         const asio::any_io_executor& io) {
  auto work = asio::make_work_guard(asio::get_associated_executor(handler, io));
  return
      [handler = std::move(handler), work = std::move(work)](std::error_code ec, T value) mutable {
        auto executor = work.get_executor();
        asio::dispatch(executor,
                       [handler = std::move(handler), ec, value = std::move(value)]() mutable {
                         std::move(handler)(ec, std::move(value));
                       });
        work.reset();
      };
}

/// The same for handlers with signature void(error_code).
template <class Handler>
UniqueFunction<void(std::error_code)> bind_completion(Handler handler,
                                                      const asio::any_io_executor& io) {
  auto work = asio::make_work_guard(asio::get_associated_executor(handler, io));
  return [handler = std::move(handler), work = std::move(work)](std::error_code ec) mutable {
    auto executor = work.get_executor();
    asio::dispatch(executor,
                   [handler = std::move(handler), ec]() mutable { std::move(handler)(ec); });
    work.reset();
  };
}

}  // namespace redisson::detail

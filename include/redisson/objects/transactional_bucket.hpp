// redisson::TransactionalBucket<T>: a Bucket inside a Transaction (Java Redisson's
// RedissonTransactionalBucket).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/detail/duration.hpp"
#include "redisson/detail/transactional_object.hpp"

namespace redisson {

/// The bucket `name` (a Redis string holding the codec's bytes, as Bucket<T>) seen through a
/// Transaction. Reads answer the transaction's own write when there is one, else read Redis
/// (GET, EXISTS). A write takes the bucket's lock `<name>:transaction_lock`, reads the value it
/// needs (GET; set() reads nothing) and records its command for commit(): SET [PX], SET NX [PX],
/// SET GET, GETDEL, DEL, UNLINK, TOUCH, PEXPIRE, PERSIST, or Bucket's compare-and-set script.
///
/// A handle on the transaction: cheap to copy; after commit() or rollback() every operation
/// fails with errc::invalid_argument.
template <JavaValue T>
class TransactionalBucket : public detail::TransactionalObject {
 public:
  TransactionalBucket(const Transaction& transaction, std::string name, CodecPtr codec = nullptr)
      : TransactionalObject(transaction, std::move(name), std::move(codec), "TransactionalBucket") {
  }

  // ---- asynchronous forms -----------------------------------------------------------------
  template <class CompletionToken>
  auto async_get(CompletionToken&& token) const {
    return call<std::optional<T>>(token, detail::TxOp::bucket_get, reader(), nothing());
  }
  template <class CompletionToken>
  auto async_set(const T& value, CompletionToken&& token) {
    return call<void>(token, detail::TxOp::bucket_set, &detail::reply_ignore, with(value));
  }
  template <class Rep, class Period, class CompletionToken>
  auto async_set(const T& value, std::chrono::duration<Rep, Period> ttl, CompletionToken&& token) {
    return call<void>(token, detail::TxOp::bucket_set, &detail::reply_ignore,
                      with(value, detail::saturating_ms(ttl)));
  }
  template <class CompletionToken>
  auto async_try_set(const T& value, CompletionToken&& token) {
    return call<bool>(token, detail::TxOp::bucket_try_set, &detail::reply_flag, with(value));
  }
  template <class Rep, class Period, class CompletionToken>
  auto async_try_set(const T& value, std::chrono::duration<Rep, Period> ttl,
                     CompletionToken&& token) {
    return call<bool>(token, detail::TxOp::bucket_try_set, &detail::reply_flag,
                      with(value, detail::saturating_ms(ttl)));
  }
  template <class CompletionToken>
  auto async_get_and_set(const T& value, CompletionToken&& token) {
    return call<std::optional<T>>(token, detail::TxOp::bucket_get_and_set, reader(), with(value));
  }
  template <class CompletionToken>
  auto async_get_and_delete(CompletionToken&& token) {
    return call<std::optional<T>>(token, detail::TxOp::bucket_get_and_delete, reader(), nothing());
  }
  template <class CompletionToken>
  auto async_delete_object(CompletionToken&& token) {
    return call<bool>(token, detail::TxOp::bucket_delete, &detail::reply_flag, nothing());
  }
  template <class CompletionToken>
  auto async_is_exists(CompletionToken&& token) const {
    return call<bool>(token, detail::TxOp::bucket_is_exists, &detail::reply_flag, nothing());
  }
  template <class CompletionToken>
  auto async_unlink(CompletionToken&& token) {
    return call<bool>(token, detail::TxOp::bucket_unlink, &detail::reply_flag, nothing());
  }
  template <class CompletionToken>
  auto async_touch(CompletionToken&& token) {
    return call<bool>(token, detail::TxOp::bucket_touch, &detail::reply_flag, nothing());
  }
  template <class Rep, class Period, class CompletionToken>
  auto async_expire(std::chrono::duration<Rep, Period> ttl, CompletionToken&& token) {
    return call<bool>(token, detail::TxOp::bucket_expire, &detail::reply_flag,
                      [ms = detail::saturating_ms(ttl)](const Codec&) {
                        if (ms.count() <= 0)
                          detail::throw_invalid_argument("the ttl must be positive");
                        return std::vector<std::string>{std::to_string(ms.count())};
                      });
  }
  template <class CompletionToken>
  auto async_clear_expire(CompletionToken&& token) {
    return call<bool>(token, detail::TxOp::bucket_clear_expire, &detail::reply_flag, nothing());
  }
  template <class CompletionToken>
  auto async_compare_and_set(const std::optional<T>& expect, const std::optional<T>& update,
                             CompletionToken&& token) {
    return call<bool>(token, detail::TxOp::bucket_compare_and_set, &detail::reply_flag,
                      [expect, update](const Codec& codec) {
                        std::vector<std::string> args;
                        detail::append_optional(args, codec, expect);
                        detail::append_optional(args, codec, update);
                        return args;
                      });
  }

  // ---- blocking forms: throw redisson::error ------------------------------------------------
  /// The transaction's own value if it wrote one, else the bucket's (GET).
  std::optional<T> get() const { return async_get(blocking("get")); }
  /// Records SET: the value commit() stores.
  void set(const T& value) { async_set(value, blocking("set")); }
  /// Records SET PX: stored by commit() with a time to live (positive).
  template <class Rep, class Period>
  void set(const T& value, std::chrono::duration<Rep, Period> ttl) {
    async_set(value, ttl, blocking("set"));
  }
  /// Records SET NX; true if the bucket is empty (as the transaction sees it).
  bool try_set(const T& value) { return async_try_set(value, blocking("try_set")); }
  template <class Rep, class Period>
  bool try_set(const T& value, std::chrono::duration<Rep, Period> ttl) {
    return async_try_set(value, ttl, blocking("try_set"));
  }
  /// Records SET ... GET; returns the value as the transaction sees it.
  std::optional<T> get_and_set(const T& value) {
    return async_get_and_set(value, blocking("get_and_set"));
  }
  /// Records GETDEL; returns the value as the transaction sees it.
  std::optional<T> get_and_delete() { return async_get_and_delete(blocking("get_and_delete")); }
  /// Records DEL; true if the bucket exists (as the transaction sees it).
  bool delete_object() { return async_delete_object(blocking("delete_object")); }
  /// Locks the bucket and records UNLINK; true if it exists (as the transaction sees it).
  bool unlink() { return async_unlink(blocking("unlink")); }
  /// Locks the bucket and records TOUCH; true if it exists (as the transaction sees it).
  bool touch() { return async_touch(blocking("touch")); }
  /// Locks the bucket and records PEXPIRE (the ttl positive); true if it exists (as seen).
  template <class Rep, class Period>
  bool expire(std::chrono::duration<Rep, Period> ttl) {
    return async_expire(ttl, blocking("expire"));
  }
  /// Locks the bucket and records PERSIST; true if it had a time to live (an expire this
  /// transaction recorded, else PTTL).
  bool clear_expire() { return async_clear_expire(blocking("clear_expire")); }
  /// Whether the bucket exists, the transaction's writes counted.
  bool is_exists() const { return async_is_exists(blocking("is_exists")); }
  /// Records the compare-and-set; true if the value (as the transaction sees it) is `expect`
  /// (nullopt: absent). `update` nullopt deletes.
  bool compare_and_set(const std::optional<T>& expect, const std::optional<T>& update) {
    return async_compare_and_set(expect, update, blocking("compare_and_set"));
  }

 private:
  auto reader() const {
    return [codec = object_->codec](const Reply& reply) {
      return detail::decode_reply<T>(*codec, reply);
    };
  }
  static auto with(const T& value, std::optional<std::chrono::milliseconds> ttl = std::nullopt) {
    return [value, ttl](const Codec& codec) {
      if (ttl && ttl->count() <= 0) detail::throw_invalid_argument("the ttl must be positive");
      std::vector<std::string> args{detail::encode_value(codec, value)};
      if (ttl) args.push_back(std::to_string(ttl->count()));
      return args;
    };
  }
};

}  // namespace redisson

// redisson::Bucket<T>: one value under one key, Java Redisson's RBucket.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "redisson/objects/object.hpp"

namespace redisson {

namespace detail {
/// compare_and_set: the script comparing the stored bytes with `expect` (nullopt: absent) and
/// writing `update` (nullopt: delete). Completes with the script's 1/0.
void start_bucket_compare_and_set(const ObjectPtr& object, std::optional<std::string> expect,
                                  std::optional<std::string> update, Done<Reply>& done);
}  // namespace detail

/// One value of type T under the key `name`, stored with the object's codec: the same bytes
/// Java Redisson's RBucket writes with that codec, so Java and C++ read each other's values.
///
/// Layout: a string key `name` holding the codec's bytes. Every operation is one command (GET,
/// SET [PX|NX|XX], SET..GET, GETDEL, GETEX, STRLEN) or, for compare_and_set, one script that
/// compares the stored bytes: one round trip each.
///
/// A key of another type is errc::wrong_type; bytes the codec cannot read as a T are
/// errc::codec_error (nothing is changed in either case).
template <JavaValue T>
class Bucket : public Object {
 public:
  /// A handle on the bucket `name`; sends nothing. `codec` null: the client's default codec.
  Bucket(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Object(client, std::move(name), std::move(codec), "Bucket") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_get(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_set(const T& value, CompletionToken&& token);
  template <class Rep, class Period, class CompletionToken>
  auto async_set(const T& value, std::chrono::duration<Rep, Period> ttl, CompletionToken&& token);
  template <class CompletionToken>
  auto async_set_if_absent(const T& value, CompletionToken&& token);
  template <class Rep, class Period, class CompletionToken>
  auto async_set_if_absent(const T& value, std::chrono::duration<Rep, Period> ttl,
                           CompletionToken&& token);
  template <class CompletionToken>
  auto async_set_if_exists(const T& value, CompletionToken&& token);
  template <class Rep, class Period, class CompletionToken>
  auto async_set_if_exists(const T& value, std::chrono::duration<Rep, Period> ttl,
                           CompletionToken&& token);
  template <class CompletionToken>
  auto async_compare_and_set(const std::optional<T>& expect, const std::optional<T>& update,
                             CompletionToken&& token);
  template <class CompletionToken>
  auto async_get_and_set(const T& value, CompletionToken&& token);
  template <class Rep, class Period, class CompletionToken>
  auto async_get_and_set(const T& value, std::chrono::duration<Rep, Period> ttl,
                         CompletionToken&& token);
  template <class CompletionToken>
  auto async_get_and_delete(CompletionToken&& token);
  template <class Rep, class Period, class CompletionToken>
  auto async_get_and_expire(std::chrono::duration<Rep, Period> ttl, CompletionToken&& token);
  template <class CompletionToken>
  auto async_get_and_clear_expire(CompletionToken&& token);
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_set_and_keep_ttl(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_find_common(const std::string& other, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_find_common_length(const std::string& other, CompletionToken&& token) const;

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// The value, or nullopt when the key does not exist.
  std::optional<T> get() const { return async_get(detail::blocking("get", name())); }
  /// Stores `value` (and clears any time to live).
  void set(const T& value) { async_set(value, detail::blocking("set", name())); }
  /// Stores `value`, to expire after `ttl` (positive; otherwise invalid_argument).
  template <class Rep, class Period>
  void set(const T& value, std::chrono::duration<Rep, Period> ttl) {
    async_set(value, ttl, detail::blocking("set", name()));
  }
  /// Stores `value` only if the key does not exist; true if stored.
  bool set_if_absent(const T& value) {
    return async_set_if_absent(value, detail::blocking("set_if_absent", name()));
  }
  template <class Rep, class Period>
  bool set_if_absent(const T& value, std::chrono::duration<Rep, Period> ttl) {
    return async_set_if_absent(value, ttl, detail::blocking("set_if_absent", name()));
  }
  /// Stores `value` only if the key exists; true if stored.
  bool set_if_exists(const T& value) {
    return async_set_if_exists(value, detail::blocking("set_if_exists", name()));
  }
  template <class Rep, class Period>
  bool set_if_exists(const T& value, std::chrono::duration<Rep, Period> ttl) {
    return async_set_if_exists(value, ttl, detail::blocking("set_if_exists", name()));
  }
  /// Stores `update` if the bucket holds `expect` (compared as encoded bytes); nullopt as
  /// `expect` means "absent", as `update` means "delete". True if it changed.
  bool compare_and_set(const std::optional<T>& expect, const std::optional<T>& update) {
    return async_compare_and_set(expect, update, detail::blocking("compare_and_set", name()));
  }
  /// Stores `value` and returns the value it replaced.
  std::optional<T> get_and_set(const T& value) {
    return async_get_and_set(value, detail::blocking("get_and_set", name()));
  }
  template <class Rep, class Period>
  std::optional<T> get_and_set(const T& value, std::chrono::duration<Rep, Period> ttl) {
    return async_get_and_set(value, ttl, detail::blocking("get_and_set", name()));
  }
  /// Deletes the bucket and returns the value it held.
  std::optional<T> get_and_delete() {
    return async_get_and_delete(detail::blocking("get_and_delete", name()));
  }
  /// Returns the value and sets the time to live to `ttl`.
  template <class Rep, class Period>
  std::optional<T> get_and_expire(std::chrono::duration<Rep, Period> ttl) {
    return async_get_and_expire(ttl, detail::blocking("get_and_expire", name()));
  }
  /// Returns the value and removes its time to live.
  std::optional<T> get_and_clear_expire() {
    return async_get_and_clear_expire(detail::blocking("get_and_clear_expire", name()));
  }
  /// The size of the stored bytes (STRLEN); 0 when absent.
  std::int64_t size() const { return async_size(detail::blocking("size", name())); }
  /// Stores `value`, keeping the time to live the bucket has (SET KEEPTTL).
  void set_and_keep_ttl(const T& value) {
    async_set_and_keep_ttl(value, detail::blocking("set_and_keep_ttl", name()));
  }
  /// The longest common subsequence of this bucket's bytes and the bucket `other`'s (LCS),
  /// read with the codec; nullopt when they have nothing in common. Meaningful for text
  /// codecs. On a Cluster both must share a hash slot (the server refuses otherwise).
  std::optional<T> find_common(const std::string& other) const {
    return async_find_common(other, detail::blocking("find_common", name()));
  }
  /// The length of that common subsequence (LCS ... LEN), in bytes.
  std::int64_t find_common_length(const std::string& other) const {
    return async_find_common_length(other, detail::blocking("find_common_length", name()));
  }

 protected:
  /// For a type that is a bucket under another name (BinaryStream): `kind` names it in errors.
  Bucket(const Client& client, std::string name, CodecPtr codec, const char* kind)
      : Object(client, std::move(name), std::move(codec), kind) {}

 private:
  static std::optional<std::string> encode_optional(const detail::ObjectState& object,
                                                    const std::optional<T>& value) {
    if (!value) return std::nullopt;
    return detail::encode_value(*object.codec, *value);
  }

  /// Reads a reply that is the stored value (or nil) as a T.
  auto decoder() const {
    return [codec = object_->codec](const Reply& reply) {
      return detail::decode_reply<T>(*codec, reply);
    };
  }
  /// A command on the key whose reply is the stored value (or nil).
  template <class CompletionToken, class... Args>
  auto read(CompletionToken&& token, std::string_view verb, const Args&... args) const;

  /// SET name <value> [PX ttl] [NX|XX|GET]: R is void (plain SET), bool (NX/XX: stored or not)
  /// or the replaced value (GET).
  template <class R, class CompletionToken>
  auto write(CompletionToken&& token, const T& value, std::optional<std::chrono::milliseconds> ttl,
             const char* condition);
};

}  // namespace redisson

#include "redisson/objects/impl/bucket.hpp"

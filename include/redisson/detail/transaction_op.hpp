// The operation path of the transactional objects (TransactionalBucket, TransactionalBuckets,
// TransactionalMap, TransactionalSet): each public operation names a TxOp, encodes its arguments
// with the object's codec and reads the Reply it completes with; src/transaction/ does the rest in
// bytes (locks, reads, the transaction's own writes, the record of what commit() sends).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "redisson/detail/object_op.hpp"

namespace redisson::detail {

class TransactionState;
struct MapLayout;

/// What a transactional operation does. Arguments: encoded bytes as listed (a ttl as decimal
/// milliseconds); the Reply each completes with as listed.
enum class TxOp {
  bucket_get,              ///< -> the value or nil
  bucket_set,              ///< value [, ttl ms] -> nil
  bucket_try_set,          ///< value [, ttl ms] -> 1 if it was absent (and is now set)
  bucket_get_and_set,      ///< value -> the value it had, or nil
  bucket_get_and_delete,   ///< -> the value it had, or nil
  bucket_delete,           ///< -> 1 if it existed
  bucket_is_exists,        ///< -> 1/0
  bucket_compare_and_set,  ///< "1"|"0", expected, "1"|"0", update -> 1 if it held `expected`
  bucket_unlink,           ///< -> 1 if it existed (as seen); commit: UNLINK
  bucket_touch,            ///< -> 1 if it exists (as seen); commit: TOUCH
  bucket_expire,           ///< ttl ms -> 1 if it exists (as seen); commit: PEXPIRE
  bucket_clear_expire,     ///< -> 1 if it had a time to live; commit: PERSIST
  map_get,                 ///< key -> the value or nil
  map_put,                 ///< key, value -> the value replaced, or nil
  map_put_if_absent,       ///< key, value -> nil if stored, else the present value
  map_fast_put,            ///< key, value -> 1 if the key was new
  map_fast_put_if_absent,  ///< key, value -> 1 if stored
  map_remove,              ///< key -> the value removed, or nil
  map_put_if_exists,       ///< key, value -> the value replaced, or nil (nothing stored)
  map_fast_put_if_exists,  ///< key, value -> 1 if stored
  map_replace_if_equal,    ///< key, expected, "1" + update (replace) or "0" + "" (remove) -> 1/0
  map_fast_remove,         ///< keys... -> how many were present
  map_contains_key,        ///< key -> 1/0
  map_get_all,             ///< keys... -> an array, per key its value or nil
  map_put_all,             ///< key, value, key, value... -> nil
  map_size,                ///< -> the number of entries, the transaction's writes counted
  map_cache_put,           ///< key, value, ttl ms, max idle ms, mode (TransactionalMapCache)
  map_read_all,            ///< -> key, value, key, value...: every entry, the writes counted
  map_contains_value,      ///< value -> 1 if an entry holds it, the writes counted
  map_value_size,          ///< key -> the length of its value's bytes (0 when absent)
  map_add_and_get,         ///< key, delta as decimal text -> the new value as decimal text
  set_add,                 ///< member -> 1 if it was not there
  set_remove,              ///< member -> 1 if it was there
  set_contains,            ///< member -> 1/0
  set_read_all,            ///< -> an array of the members, the transaction's writes counted
  set_size,                ///< -> the number of members, the transaction's writes counted
  set_cache_add,           ///< member [, ttl ms] -> 1 if it was not a live member
  set_cache_remove,        ///< member -> 1 if it was a live member
  set_cache_contains,      ///< member -> 1/0 (an expired member is not one)
  set_cache_read_all,      ///< -> an array of the live members, the transaction's writes counted
  set_cache_size,          ///< -> the number of live members, the transaction's writes counted
  set_add_all,             ///< members... -> how many were not members (all are now)
  set_remove_all,          ///< members... -> how many were members (none is now)
  set_contains_all,        ///< members... -> 1 if every one is a member
  set_cache_add_all,       ///< the same three over SetCache's layout (live members)
  set_cache_remove_all,
  set_cache_contains_all,
  buckets_get,          ///< names... -> an array, per name its value or nil
  buckets_set,          ///< name, value, name, value... -> nil
  buckets_try_set,      ///< name, value, name, value... -> 1 if none existed (and all are set)
  object_is_exists,     ///< -> 1 if the map or set exists as the transaction sees it
  object_delete,        ///< -> 1 if it existed (as seen); commit: DEL of its keys
  object_unlink,        ///< the same; commit: UNLINK of its keys
  object_touch,         ///< -> 1 if it exists (as seen); commit: TOUCH of its keys
  object_expire,        ///< ttl ms -> 1 if it exists (as seen); commit: PEXPIRE of its keys
  object_clear_expire,  ///< -> 1 if it had a time to live; commit: PERSIST of its keys
};

/// Runs `op` of `object` in `transaction`; completes `done` on the I/O thread (or at once).
/// `layout`: a map's (Map's or MapCache's, which its reads and commit go through); null for
/// the others.
void start_transactional(const std::shared_ptr<TransactionState>& transaction,
                         const ObjectPtr& object, const MapLayout* layout, TxOp op,
                         std::vector<std::string> args, Done<Reply> done);

/// The operations a transactional set type sends its calls as (TransactionalSet's, or
/// TransactionalSetCache's over SetCache's layout).
struct TxSetOps {
  TxOp add;
  TxOp remove;
  TxOp contains;
  TxOp read_all;
  TxOp size;
  TxOp add_all;
  TxOp remove_all;
  TxOp contains_all;
};
inline constexpr TxSetOps kTxSetOps{TxOp::set_add,        TxOp::set_remove,      TxOp::set_contains,
                                    TxOp::set_read_all,   TxOp::set_size,        TxOp::set_add_all,
                                    TxOp::set_remove_all, TxOp::set_contains_all};
inline constexpr TxSetOps kTxSetCacheOps{TxOp::set_cache_add,        TxOp::set_cache_remove,
                                         TxOp::set_cache_contains,   TxOp::set_cache_read_all,
                                         TxOp::set_cache_size,       TxOp::set_cache_add_all,
                                         TxOp::set_cache_remove_all, TxOp::set_cache_contains_all};

/// The public form of a transactional operation: `encode(codec)` makes its arguments as it
/// starts (a codec or argument error is the completion's), `convert` reads its Reply.
template <class R, class Token, class Encode, class Convert>
auto async_transactional(const std::shared_ptr<TransactionState>& transaction,
                         const ObjectPtr& object, const MapLayout* layout, Token&& token, TxOp op,
                         Encode encode, Convert&& convert) {
  return async_started<R>(
      object, token,
      [transaction, layout, op, encode = std::move(encode)](const ObjectPtr& state,
                                                            Done<Reply>& done) {
        auto args = encode(*state->codec);
        start_transactional(transaction, state, layout, op, std::move(args), std::move(done));
      },
      std::forward<Convert>(convert));
}

/// An optional value as compare_and_set's two arguments: "1", bytes or "0", "".
template <class T>
void append_optional(std::vector<std::string>& args, const Codec& codec,
                     const std::optional<T>& value) {
  args.emplace_back(value ? "1" : "0");
  args.push_back(value ? encode_value(codec, *value) : std::string());
}

}  // namespace redisson::detail

// TransactionalMap's and TransactionalMapCache's operations (Redisson's BaseTransactionalMap and
// BaseTransactionalMapCache): the lock of a key is the map's per-key lock (map_lock_name); reads
// and commit run the Map operation of the same name on the map's layout (a Map's commands, a
// MapCache's scripts), commit's queued in its batch.
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <unordered_map>

#include "redisson/objects/map.hpp"
#include "redisson/objects/map_cache.hpp"
#include "transaction/transactional_op.hpp"

namespace redisson::detail {
namespace {

/// What commit() queues for a write: the layout's `op` with `args` (key [, value]).
std::function<void(const ObjectPtr&)> map_queue(const MapLayout& layout, MapOp op,
                                                std::vector<std::string> args) {
  return [&layout, op, args = std::move(args)](const ObjectPtr& bound) {
    Done<Reply> ignore = [](const Status&, const Reply&) {};
    layout.start(bound, op, args, ignore);
  };
}

/// A read of the layout's `op` (get, contains_key, get_all) with `args`.
TxRead map_read(const MapLayout& layout, MapOp op, std::vector<std::string> args,
                bool membership = false) {
  return TxRead{[&layout, op, args = std::move(args)](const ObjectPtr& object, Done<Reply>& done) {
                  layout.start(object, op, args, done);
                },
                membership};
}

/// fast_remove: one key at a time (lock, read, record when present), counting the present ones.
struct MapFastRemove {
  TransactionPtr transaction;
  ObjectPtr object;
  const MapLayout* layout;
  std::vector<std::string> keys;
  std::size_t next = 0;
  std::int64_t removed = 0;
  Done<Reply> done;
};

void map_fast_remove_next(const std::shared_ptr<MapFastRemove>& run) {
  if (run->next == run->keys.size()) return run->done({}, integer_reply(run->removed));
  const auto& key = run->keys[run->next++];
  const auto& layout = *run->layout;
  tx_write(
      run->transaction, run->object, &TransactionState::map_entries, key,
      map_lock_name(run->object->name, key), map_read(layout, MapOp::get, {key}),
      [&layout, key, run](const std::optional<std::string>& current) {
        if (!current) return TxDecision{};  // absent: nothing recorded, the hold released now
        ++run->removed;
        return TxDecision{Reply{}, std::optional<std::string>(),
                          map_queue(layout, MapOp::fast_remove, {key})};
      },
      [run](Status status, const Reply&) {
        if (status) return run->done(std::move(status), Reply{});
        map_fast_remove_next(run);
      });
}

/// The values of `keys` in order: the own ones, the others read with the layout's get_all.
void map_get_all(const TransactionPtr& transaction, const ObjectPtr& object,
                 const MapLayout& layout, const std::vector<std::string>& keys, Done<Reply> done) {
  std::vector<std::optional<std::string>> values(keys.size());
  std::vector<std::size_t> unknown;
  std::vector<std::string> unknown_keys;
  {
    std::lock_guard guard(transaction->mutex);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      auto it = transaction->map_entries.find({object->name, keys[i]});
      if (it != transaction->map_entries.end()) {
        values[i] = it->second;
      } else if (!transaction->emptied_locked(object->name)) {
        unknown.push_back(i);
        unknown_keys.push_back(keys[i]);
      }
    }
  }
  if (unknown.empty()) return done({}, tx_array_reply(values));
  Done<Reply> on_values = tx_fill_unknown(std::move(values), std::move(unknown), std::move(done));
  layout.start(object, MapOp::get_all, unknown_keys, on_values);
}

void map_put_all(const TransactionPtr& transaction, const ObjectPtr& object,
                 const MapLayout& layout, std::vector<std::string> args, Done<Reply> done) {
  std::vector<std::string> locks;
  for (std::size_t i = 0; i + 1 < args.size(); i += 2) {
    locks.push_back(map_lock_name(object->name, args[i]));
  }
  TxDecideAll record = [object, &layout, args = std::move(args), locks](TransactionState& state) {
    for (std::size_t i = 0; i + 1 < args.size(); i += 2) {
      state.map_entries[{object->name, args[i]}] = args[i + 1];
      state.record_locked(TransactionWrite{
          object, map_queue(layout, MapOp::put, {args[i], args[i + 1]}), locks[i / 2]});
    }
    return TxDecisionAll{Reply{}, true};
  };
  tx_write_all(transaction, std::move(locks), std::move(record), std::move(done));
}

/// The layout's size, corrected by the keys the transaction wrote: their own presence against
/// the map's (the layout's get_all of them).
void map_size(const TransactionPtr& transaction, const ObjectPtr& object, const MapLayout& layout,
              Done<Reply> done) {
  auto [own, emptied] = tx_own_view(*transaction, &TransactionState::map_entries, object->name);
  if (emptied) return done({}, integer_reply(tx_count_present(own)));
  Done<Reply> on_size = [object, &layout, own = std::move(own), done = std::move(done)](
                            Status status, const Reply& size_reply) mutable {
    if (status) return done(std::move(status), Reply{});
    const std::int64_t stored = size_reply.integer;
    if (own.empty()) return done({}, integer_reply(stored));
    std::vector<std::string> keys;
    keys.reserve(own.size());
    for (const auto& entry : own) keys.push_back(entry.first);
    Done<Reply> on_values = [stored, own = std::move(own), done = std::move(done)](
                                Status values_status, const Reply& values) mutable {
      if (values_status) return done(std::move(values_status), Reply{});
      std::int64_t size = stored;
      for (std::size_t i = 0; i < own.size(); ++i) {
        const bool in_map = i < values.elements.size() && !values.elements[i].is_null();
        size += (own[i].second.has_value() ? 1 : 0) - (in_map ? 1 : 0);
      }
      done({}, integer_reply(size));
    };
    layout.start(object, MapOp::get_all, keys, on_values);
  };
  layout.start(object, MapOp::size, {}, on_size);
}

/// Every entry the transaction sees, in a flat reply (key, value, ...): the layout's
/// read_all_entries (a MapCache's live ones), the transaction's writes laid over them; only its
/// own entries after it deleted the map.
void map_read_all(const TransactionPtr& transaction, const ObjectPtr& object,
                  const MapLayout& layout, Done<Reply> done) {
  auto [own, emptied] = tx_own_view(*transaction, &TransactionState::map_entries, object->name);
  auto overlay = [own = std::move(own)](const Reply* stored) {
    std::vector<std::pair<std::string, std::string>> entries;
    std::vector<bool> removed;
    std::unordered_map<std::string, std::size_t> at;
    const auto add = [&](const Reply& key, const Reply& value) {
      if (!key.is_string() || !value.is_string()) return;
      at.emplace(key.str, entries.size());
      entries.emplace_back(key.str, value.str);
      removed.push_back(false);
    };
    if (stored != nullptr) {
      // read_all_entries answers key, value, ... flat (HGETALL, MapCache's script).
      const auto& elements = stored->elements;
      for (std::size_t i = 0; i + 1 < elements.size(); i += 2) add(elements[i], elements[i + 1]);
    }
    for (const auto& [key, value] : own) {
      auto it = at.find(key);
      if (it != at.end()) {
        if (value) {
          entries[it->second].second = *value;
        } else {
          removed[it->second] = true;
        }
      } else if (value) {
        at.emplace(key, entries.size());
        entries.emplace_back(key, *value);
        removed.push_back(false);
      }
    }
    std::vector<std::optional<std::string>> flat;
    flat.reserve(entries.size() * 2);
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (removed[i]) continue;
      flat.emplace_back(std::move(entries[i].first));
      flat.emplace_back(std::move(entries[i].second));
    }
    return tx_array_reply(flat);
  };
  if (emptied) return done({}, overlay(nullptr));
  Done<Reply> on_entries = [overlay = std::move(overlay), done = std::move(done)](
                               Status status, const Reply& stored) mutable {
    if (status) return done(std::move(status), Reply{});
    if (!stored.is_null() && !stored.is_aggregate()) {
      return done(Status(make_error_code(errc::protocol_error),
                         "read_all_map: the map's entries are not an array"),
                  Reply{});
    }
    done({}, overlay(&stored));
  };
  layout.start(object, MapOp::read_all_entries, {}, on_entries);
}

/// The length of `key`'s value bytes: the transaction's own (0 once it removed the key), else
/// the layout's value_size.
void map_value_size(const TransactionPtr& transaction, const ObjectPtr& object,
                    const MapLayout& layout, const std::string& key, Done<Reply> done) {
  std::optional<std::optional<std::string>> own;
  {
    std::lock_guard guard(transaction->mutex);
    auto it = transaction->map_entries.find({object->name, key});
    if (it != transaction->map_entries.end()) {
      own = it->second;
    } else if (transaction->emptied_locked(object->name)) {
      own = std::optional<std::string>();
    }
  }
  if (own) {
    return done({}, integer_reply(*own ? static_cast<std::int64_t>((*own)->size()) : 0));
  }
  layout.start(object, MapOp::value_size, {key}, done);
}

/// `current` (absent: 0) + `delta`, as the text the commit will store, so that the transaction's
/// own value reads as the map's will afterwards; nullopt when `current` is not a number or the
/// sum is not finite. `as_map_cache`: as MapCache's add_and_get script computes it (doubles; an
/// integer below 2^53 without a fraction, else 17 significant digits); otherwise as the server's
/// HINCRBYFLOAT (long doubles; 17 decimals, the trailing zeros dropped).
std::optional<std::string> decimal_sum(const std::optional<std::string>& current,
                                       const std::string& delta, bool as_map_cache) {
  const auto parse = [](const std::string& text) -> std::optional<long double> {
    if (text.empty() || std::isspace(static_cast<unsigned char>(text.front())) != 0) {
      return std::nullopt;
    }
    char* end = nullptr;
    const long double value = std::strtold(text.c_str(), &end);
    if (end != text.c_str() + text.size() || std::isnan(value)) return std::nullopt;
    return value;
  };
  const auto base = current ? parse(*current) : std::optional<long double>(0.0L);
  const auto step = parse(delta);
  if (!base || !step) return std::nullopt;
  std::array<char, 5200> text{};  // %.17Lf of the largest long double fits
  int length = 0;
  if (as_map_cache) {
    const double sum = static_cast<double>(*base) + static_cast<double>(*step);
    if (!std::isfinite(sum)) return std::nullopt;
    if (sum == std::floor(sum) && std::fabs(sum) < 9007199254740992.0) {
      return std::to_string(static_cast<std::int64_t>(sum));
    }
    length = std::snprintf(text.data(), text.size(), "%.17g", sum);
  } else {
    const long double sum = *base + *step;
    if (!std::isfinite(sum)) return std::nullopt;
    length = std::snprintf(text.data(), text.size(), "%.17Lf", sum);
  }
  if (length <= 0 || static_cast<std::size_t>(length) >= text.size()) return std::nullopt;
  std::string result(text.data(), static_cast<std::size_t>(length));
  if (as_map_cache) return result;
  if (result.find('.') != std::string::npos) {
    while (result.back() == '0') result.pop_back();
    if (result.back() == '.') result.pop_back();
  }
  if (result == "-0") result = "0";
  return result;
}

// put_if_absent and fast_put_if_absent: the transaction's own entry becomes the value only when
// the key is absent (as the transaction sees it); `reply` answers from the current value.
template <class ReplyOf>
TxDecide if_absent(const MapLayout& layout, MapOp op, const std::vector<std::string>& args,
                   ReplyOf reply) {
  return [&layout, op, args, reply](const std::optional<std::string>& current) {
    TxDecision decision{reply(current), std::nullopt, map_queue(layout, op, args)};
    if (!current) decision.own = std::optional<std::string>(args.at(1));
    return decision;
  };
}

// put_if_exists and fast_put_if_exists: the own entry becomes the value only when the key is
// present (as the transaction sees it).
template <class ReplyOf>
TxDecide if_present(const MapLayout& layout, MapOp op, const std::vector<std::string>& args,
                    ReplyOf reply) {
  return [&layout, op, args, reply](const std::optional<std::string>& current) {
    TxDecision decision{reply(current), std::nullopt, map_queue(layout, op, args)};
    if (current) decision.own = std::optional<std::string>(args.at(1));
    return decision;
  };
}

}  // namespace

void start_map_op(const TransactionPtr& transaction, const ObjectPtr& object,
                  const MapLayout& layout, TxOp op, std::vector<std::string> args,
                  Done<Reply> done) {
  const auto& name = object->name;
  const OwnEntries entries = &TransactionState::map_entries;
  switch (op) {
    case TxOp::map_get:
      return tx_read(transaction, object, entries, args.at(0),
                     map_read(layout, MapOp::get, {args.at(0)}), false, std::move(done));
    case TxOp::map_contains_key:
      return tx_read(transaction, object, entries, args.at(0),
                     map_read(layout, MapOp::contains_key, {args.at(0)}), true, std::move(done));
    case TxOp::map_get_all:
      return map_get_all(transaction, object, layout, args, std::move(done));
    case TxOp::map_put_all:
      return map_put_all(transaction, object, layout, std::move(args), std::move(done));
    case TxOp::map_size:
      return map_size(transaction, object, layout, std::move(done));
    case TxOp::map_read_all:
      return map_read_all(transaction, object, layout, std::move(done));
    case TxOp::map_contains_value: {
      Done<Reply> on_entries = [value = args.at(0), done = std::move(done)](
                                   Status status, const Reply& entries) mutable {
        if (status) return done(std::move(status), Reply{});
        bool held = false;
        for (std::size_t i = 1; i < entries.elements.size() && !held; i += 2) {
          held = entries.elements[i].str == value;
        }
        done({}, tx_flag_reply(held));
      };
      return map_read_all(transaction, object, layout, std::move(on_entries));
    }
    case TxOp::map_value_size:
      return map_value_size(transaction, object, layout, args.at(0), std::move(done));
    case TxOp::map_fast_remove: {
      auto run = std::make_shared<MapFastRemove>(
          MapFastRemove{transaction, object, &layout, std::move(args), 0, 0, std::move(done)});
      return map_fast_remove_next(run);
    }
    default:
      break;
  }
  // The keyed writes: lock the key, read its value (the layout's get), decide.
  const std::string key = args.at(0);
  TxDecide decide;
  switch (op) {
    case TxOp::map_put:
      decide = [&layout, args](const std::optional<std::string>& current) {
        return TxDecision{tx_value_reply(current), std::optional<std::string>(args.at(1)),
                          map_queue(layout, MapOp::put, args)};
      };
      break;
    case TxOp::map_cache_put: {
      // args: key, value, ttl ms, max idle ms, mode: put (answers the value replaced), fast
      // (1 if the key was absent), if_absent (stores only when absent; answers the present
      // value) or fast_if_absent (1 if stored). Commit: MapCache's put script in that mode.
      const std::string& mode = args.at(4);
      const bool only_if_absent = mode == "if_absent" || mode == "fast_if_absent";
      const bool as_flag = mode == "fast" || mode == "fast_if_absent";
      const std::string script_mode = mode == "fast_if_absent" ? "if_absent" : mode;
      decide = [args, only_if_absent, as_flag,
                script_mode](const std::optional<std::string>& current) {
        TxDecision decision{as_flag ? tx_flag_reply(!current) : tx_value_reply(current),
                            std::nullopt, [args, script_mode](const ObjectPtr& bound) {
                              Done<Reply> ignore = [](const Status&, const Reply&) {};
                              start_map_cache_script(
                                  bound, MapCacheScript::put,
                                  {args.at(2), args.at(3), args.at(0), args.at(1), script_mode},
                                  ignore);
                            }};
        if (!only_if_absent || !current) decision.own = std::optional<std::string>(args.at(1));
        return decision;
      };
      break;
    }
    case TxOp::map_put_if_absent:
      decide = if_absent(layout, MapOp::put_if_absent, args, &tx_value_reply);
      break;
    case TxOp::map_fast_put:
      decide = [&layout, args](const std::optional<std::string>& current) {
        return TxDecision{tx_flag_reply(!current), std::optional<std::string>(args.at(1)),
                          map_queue(layout, MapOp::fast_put, args)};
      };
      break;
    case TxOp::map_fast_put_if_absent:
      decide = if_absent(
          layout, MapOp::fast_put_if_absent, args,
          [](const std::optional<std::string>& current) { return tx_flag_reply(!current); });
      break;
    case TxOp::map_remove:
      decide = [&layout, args](const std::optional<std::string>& current) {
        TxDecision decision{tx_value_reply(current), std::nullopt,
                            map_queue(layout, MapOp::remove, {args.at(0)})};
        if (current) decision.own = std::optional<std::string>();
        return decision;
      };
      break;
    case TxOp::map_put_if_exists:
      decide = if_present(layout, MapOp::put_if_exists, args, &tx_value_reply);
      break;
    case TxOp::map_fast_put_if_exists:
      decide = if_present(layout, MapOp::fast_put_if_exists, args,
                          [](const std::optional<std::string>& current) {
                            return tx_flag_reply(current.has_value());
                          });
      break;
    case TxOp::map_add_and_get: {
      // args: key, delta. A value that is not a number refuses, as the server's HINCRBYFLOAT
      // does: nothing recorded, the hold released.
      decide = [&layout, args](const std::optional<std::string>& current) {
        auto sum = decimal_sum(current, args.at(1), &layout == &map_cache_layout);
        if (!sum) {
          Reply refusal;
          refusal.type = ReplyType::error;
          refusal.str = "the value is not a number, or the sum is not finite";
          return TxDecision{std::move(refusal), std::nullopt, nullptr};
        }
        return TxDecision{tx_value_reply(sum), std::optional<std::string>(*sum),
                          map_queue(layout, MapOp::add_and_get, args)};
      };
      Done<Reply> refused_as_error = [done = std::move(done)](Status status,
                                                              const Reply& reply) mutable {
        if (!status && reply.is_error()) {
          return done(Status(make_error_code(errc::server_error), "add_and_get: " + reply.str),
                      Reply{});
        }
        done(std::move(status), reply);
      };
      done = std::move(refused_as_error);
      break;
    }
    case TxOp::map_replace_if_equal:
      // args: key, expected, "1" + update (replace) or "0" + "" (remove).
      decide = [&layout, args](const std::optional<std::string>& current) {
        const bool equal = current == args.at(1);
        TxDecision decision{tx_flag_reply(equal), std::nullopt,
                            map_queue(layout, MapOp::replace_if_equal, args)};
        if (equal) {
          decision.own = args.at(2) == "1" ? std::optional<std::string>(args.at(3))
                                           : std::optional<std::string>();
        }
        return decision;
      };
      break;
    default:
      return done(Status(make_error_code(errc::invalid_argument), "not a map operation"), Reply{});
  }
  tx_write(transaction, object, entries, key, map_lock_name(name, key),
           map_read(layout, MapOp::get, {key}), std::move(decide), std::move(done));
}

}  // namespace redisson::detail

// SetMultimap / ListMultimap (objects/multimap.hpp): the values keys named from the map-key
// bytes' HighwayHash, and the scripts and commands both kinds share, told apart by their kind.
#include "redisson/objects/multimap.hpp"

#include "hash/highway_hash.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "objects/suffix_name.hpp"
#include "topology/key_slot.hpp"

namespace redisson::detail {

namespace {

/// Redisson's prefix of the values keys: suffixName(name, "").
std::string values_prefix(const std::string& name) { return suffix_name(name, ""); }

/// ARGV of the put and replace scripts: kind, key bytes, its base64, the values.
std::vector<std::string> entry_args(MultimapKind kind, const std::string& key_bytes,
                                    const std::vector<std::string>& values) {
  std::vector<std::string> args{multimap_kind_arg(kind), key_bytes,
                                highway_hash128_base64(key_bytes)};
  args.insert(args.end(), values.begin(), values.end());
  return args;
}

bool is_cache(const ObjectState& object) {
  return std::string_view(object.kind).ends_with("Cache");
}

}  // namespace

const char* multimap_kind_arg(MultimapKind kind) {
  return kind == MultimapKind::set ? "set" : "list";
}

MultimapKind multimap_kind_of(const ObjectState& object) {
  return std::string_view(object.kind).starts_with("Set") ? MultimapKind::set : MultimapKind::list;
}

std::string multimap_ttl_key(const std::string& name, MultimapKind kind) {
  return suffix_name(
      name, kind == MultimapKind::set ? "redisson_set_multimap_ttl" : "redisson_list_multimap_ttl");
}

std::string multimap_values_key(const std::string& name, std::string_view key_bytes) {
  return suffix_name(name, highway_hash128_base64(key_bytes));
}

ObjectPtr multimap_values_object(const ObjectPtr& object, std::string_view key_bytes) {
  auto values = std::make_shared<ObjectState>(*object);
  values->name = multimap_values_key(object->name, key_bytes);
  values->hooks = nullptr;  // one key: a values set or list
  return values;
}

void start_multimap_put(const ObjectPtr& object, MultimapKind kind, const std::string& key_bytes,
                        const std::vector<std::string>& values, Done<Reply>& done) {
  if (values.empty()) return done(Status{}, integer_reply(0));
  eval_reply(*object,
             lua::multimap_put({object->name, multimap_values_key(object->name, key_bytes),
                                multimap_ttl_key(object->name, kind)},
                               entry_args(kind, key_bytes, values)),
             std::move(done));
}

void start_multimap_remove(const ObjectPtr& object, MultimapKind kind, const std::string& key_bytes,
                           const std::string& value, Done<Reply>& done) {
  eval_reply(*object,
             lua::multimap_remove({object->name, multimap_values_key(object->name, key_bytes)},
                                  {multimap_kind_arg(kind), key_bytes, value}),
             std::move(done));
}

void start_multimap_replace(const ObjectPtr& object, MultimapKind kind,
                            const std::string& key_bytes, const std::vector<std::string>& values,
                            Done<Reply>& done) {
  eval_reply(*object,
             lua::multimap_replace({object->name, multimap_values_key(object->name, key_bytes),
                                    multimap_ttl_key(object->name, kind)},
                                   entry_args(kind, key_bytes, values)),
             std::move(done));
}

void start_multimap_fast_remove(const ObjectPtr& object, const std::vector<std::string>& keys,
                                Done<Reply>& done) {
  if (keys.empty()) return done(Status{}, integer_reply(0));
  std::vector<std::string> redis_keys{object->name};
  for (const auto& key : keys) redis_keys.push_back(multimap_values_key(object->name, key));
  eval_reply(*object, lua::multimap_fast_remove(redis_keys, keys), std::move(done));
}

void start_multimap_scan_values(const ObjectPtr& object, MultimapKind kind,
                                const std::vector<std::string>& value, Done<Reply>& done) {
  std::vector<std::string> args{multimap_kind_arg(kind), values_prefix(object->name)};
  args.insert(args.end(), value.begin(), value.end());
  eval_reply(*object, lua::multimap_size({object->name}, args), std::move(done));
}

void start_multimap_entries(const ObjectPtr& object, MultimapKind kind, Done<Reply>& done) {
  eval_reply(
      *object,
      lua::multimap_entries({object->name}, std::vector<std::string>{multimap_kind_arg(kind),
                                                                     values_prefix(object->name)}),
      std::move(done));
}

void start_multimap_fast_remove_value(const ObjectPtr& object, MultimapKind kind,
                                      const std::vector<std::string>& values, Done<Reply>& done) {
  if (values.empty()) return done(Status{}, integer_reply(0));
  std::vector<std::string> args{multimap_kind_arg(kind), values_prefix(object->name)};
  args.insert(args.end(), values.begin(), values.end());
  eval_reply(*object, lua::multimap_fast_remove_value({object->name}, args), std::move(done));
}

void start_multimap_count(const ObjectPtr& object, MultimapKind kind, const std::string& key_bytes,
                          Done<Reply>& done) {
  submit_command(object,
                 Command{kind == MultimapKind::set ? "SCARD" : "LLEN",
                         multimap_values_key(object->name, key_bytes)},
                 std::move(done));
}

void start_multimap_contains_entry(const ObjectPtr& object, MultimapKind kind,
                                   const std::string& key_bytes, const std::string& value,
                                   Done<Reply>& done) {
  const std::string key = multimap_values_key(object->name, key_bytes);
  if (kind == MultimapKind::set) {
    return submit_command(object, Command{"SISMEMBER", key, value}, std::move(done));
  }
  // LPOS answers the index (0 is found) or nil.
  submit_command(object, Command{"LPOS", key, value},
                 [done = std::move(done)](Status status, const Reply& reply) mutable {
                   if (status) return done(std::move(status), Reply{});
                   if (!reply.is_null() && !reply.is_integer()) return done(Status{}, reply);
                   done(Status{}, integer_reply(reply.is_null() ? 0 : 1));
                 });
}

void start_multimap_keys(const ObjectPtr& object, const char* op, std::int64_t ms,
                         const char* condition, Done<Reply>& done) {
  eval_reply(*object,
             lua::multimap_keys(
                 {object->name, multimap_ttl_key(object->name, multimap_kind_of(*object))},
                 {values_prefix(object->name), op, ms, condition, is_cache(*object) ? "1" : "0"}),
             std::move(done));
}

void start_multimap_rename(const ObjectPtr& object, const std::string& new_name,
                           Done<Reply>& done) {
  if (object->core->is_cluster() && key_slot(object->name) != key_slot(new_name)) {
    throw_invalid_argument("rename: on a Cluster a multimap is renamed within its hash slot (" +
                           object->name + " -> " + new_name + ")");
  }
  const auto kind = multimap_kind_of(*object);
  eval_reply(*object,
             lua::multimap_rename({object->name, new_name, multimap_ttl_key(object->name, kind),
                                   multimap_ttl_key(new_name, kind)},
                                  {values_prefix(object->name), values_prefix(new_name)}),
             std::move(done));
}

bool reply_positive(const Reply& reply) { return reply_integer(reply) > 0; }

const ObjectHooks multimap_hooks{.apply_listed = &start_multimap_keys,
                                 .rename_listed = &start_multimap_rename};

}  // namespace redisson::detail

// The object base: making an object, sending its commands, reading replies, and the operations
// every object has (objects/object.hpp).
#include "redisson/objects/object.hpp"

#include <charconv>

#include "batch/batch_state.hpp"
#include "client/client_access.hpp"
#include "client/client_core.hpp"
#include "lua_scripts.hpp"
#include "net/reply_error.hpp"
#include "objects/migrate_command.hpp"
#include "objects/send.hpp"
#include "redisson/client.hpp"
#include "redisson/detail/object_listen.hpp"
#include "services/read_tracker.hpp"

namespace redisson {
namespace detail {

std::vector<std::string> ObjectState::keys() const {
  std::vector<std::string> all{name};
  if (hooks == nullptr) return all;
  if (hooks->extra_keys != nullptr) {
    for (auto& key : hooks->extra_keys(name)) all.push_back(std::move(key));
  }
  if (hooks->client_keys != nullptr) {
    for (auto& key : hooks->client_keys(name, core->id())) all.push_back(std::move(key));
  }
  return all;
}

namespace {

std::shared_ptr<ObjectState> new_state(const Client& client, CodecPtr codec) {
  const auto& core = ClientAccess::core(client);
  if (!codec) codec = core->config().codec;
  auto state = std::make_shared<ObjectState>();
  state->core = core;
  state->codec = std::move(codec);
  return state;
}

}  // namespace

ObjectPtr make_object(const Client& client, std::string name, CodecPtr codec, const char* kind,
                      const ObjectHooks* hooks) {
  if (name.empty()) {
    throw error(errc::invalid_argument, std::string(kind) + ": the name must not be empty");
  }
  auto state = new_state(client, std::move(codec));
  state->name = std::move(name);
  state->kind = kind;
  state->hooks = hooks;
  if (hooks != nullptr && hooks->make_attached != nullptr) {
    state->attached = hooks->make_attached(*state, nullptr);
  }
  return state;
}

ObjectPtr make_keyless(const Client& client, CodecPtr codec) {
  return new_state(client, std::move(codec));
}

void submit_reply(const ObjectState& object, const Command& command, ReplyHandler handler,
                  ReadSlot* read) {
  if (object.batch) return object.batch->add(command, std::move(handler));
  if (object.tracking) return object.tracking->submit(command, std::move(handler));
  object.core->submit(command, std::move(handler), read);
}

Status reply_status(std::error_code ec, const Reply& reply) { return status_of(ec, reply); }

void start_with_arguments(const ObjectPtr& object, const char* verb,
                          const std::vector<std::string>& args, Done<Reply>& done) {
  if (args.empty()) return done(Status{}, integer_reply(0));
  Command command{verb, object->name};
  for (const auto& arg : args) command.arg(arg);
  submit_command(object, command, std::move(done));
}

void submit_command(const ObjectPtr& object, const Command& command, Done<Reply> done) {
  submit_reply(*object, command, [done = std::move(done)](std::error_code ec, Reply reply) mutable {
    auto status = status_of(ec, reply);  // before the reply moves
    done(std::move(status), std::move(reply));
  });
}

Status status_of_error(const error& failure) {
  std::string text = failure.what();
  const std::string suffix = ": " + failure.code().message();
  if (text.ends_with(suffix)) text.resize(text.size() - suffix.size());
  return {failure.code(), std::move(text)};
}

void throw_invalid_argument(const std::string& reason) {
  throw error(errc::invalid_argument, reason);
}

void throw_unexpected_reply(std::string_view expected, const Reply& reply) {
  throw error(errc::wrong_type, "expected " + std::string(expected) + " from the server, got " +
                                    reply.to_display_string());
}

bool reply_flag(const Reply& reply) {
  if (reply.is_null()) return false;
  if (reply.is_integer() || reply.type == ReplyType::boolean) return reply.integer != 0;
  if (reply.is_string()) return true;
  throw_unexpected_reply("a flag", reply);
}

bool reply_migrated(const Reply& reply) {
  if (reply.is_string() && (reply.str == "OK" || reply.str == "NOKEY")) return reply.str == "OK";
  throw_unexpected_reply("OK or NOKEY", reply);
}

std::int64_t reply_integer(const Reply& reply) {
  if (reply.is_null()) return 0;
  if (reply.is_integer()) return reply.integer;
  throw_unexpected_reply("an integer", reply);
}

std::vector<std::string> reply_strings(const Reply& reply) {
  if (!reply.is_aggregate()) throw_unexpected_reply("an array of strings", reply);
  std::vector<std::string> strings;
  strings.reserve(reply.elements.size());
  for (const auto& element : reply.elements) {
    if (!element.is_string()) throw_unexpected_reply("a string", element);
    strings.push_back(element.str);
  }
  return strings;
}

std::int64_t reply_counter(const Reply& reply) {
  if (reply.is_null()) return 0;
  if (reply.is_integer()) return reply.integer;
  std::int64_t n = 0;
  if (reply.is_string()) {
    const auto& text = reply.str;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec == std::errc{} && end == text.data() + text.size()) return n;
  }
  throw_unexpected_reply("an integer", reply);
}

double reply_double(const Reply& reply) {
  if (reply.is_null()) return 0;
  if (reply.type == ReplyType::double_value) return reply.number;
  if (reply.is_integer()) return static_cast<double>(reply.integer);
  if (reply.is_string()) {
    double x = 0;
    const auto& text = reply.str;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
    if (ec == std::errc{} && end == text.data() + text.size()) return x;
  }
  throw_unexpected_reply("a number", reply);
}

std::optional<std::int64_t> reply_optional_integer(const Reply& reply) {
  if (reply.is_null()) return std::nullopt;
  if (reply.is_integer()) return reply.integer;
  throw_unexpected_reply("an integer", reply);
}

std::optional<std::string> reply_optional_string(const Reply& reply) {
  if (reply.is_null()) return std::nullopt;
  if (reply.is_string()) return reply.str;
  throw_unexpected_reply("a string", reply);
}

std::optional<Bytes> reply_optional_bytes(const Reply& reply) {
  if (reply.is_null()) return std::nullopt;
  if (!reply.is_string()) throw_unexpected_reply("a string", reply);
  const auto* bytes = reinterpret_cast<const std::byte*>(reply.str.data());
  return Bytes(bytes, bytes + reply.str.size());
}

std::optional<std::chrono::system_clock::time_point> reply_expire_time(const Reply& reply) {
  const std::int64_t ms = reply_integer(reply);
  if (ms < 0) return std::nullopt;  // -1: no expiry, -2: no key
  return std::chrono::system_clock::time_point{std::chrono::milliseconds{ms}};
}

}  // namespace detail

void Object::start_keys_command(const detail::ObjectPtr& object, const char* verb,
                                detail::Done<Reply>& done) {
  const std::string_view which(verb);
  if (const auto* listed = object->listed()) {
    const char* op = which == "DEL" ? "del" : which == "UNLINK" ? "unlink" : "touch";
    return listed->apply_listed(object, op, 0, "", done);
  }
  // A synchronizer's delete also tells its waiters; unlinking it must too.
  if (object->hooks != nullptr && object->hooks->delete_keys != nullptr &&
      (which == "DEL" || which == "UNLINK")) {
    return object->hooks->delete_keys(object, done);
  }
  Command command{verb};
  for (const auto& key : object->keys()) command.arg(key);
  detail::submit_command(object, command, std::move(done));
}

void Object::start_size_in_memory(const detail::ObjectPtr& object, detail::Done<Reply>& done) {
  if (const auto* listed = object->listed()) {
    return listed->apply_listed(object, "memory", 0, "", done);
  }
  std::vector<Command> commands;
  for (const auto& key : object->keys()) commands.push_back(Command{"MEMORY", "USAGE", key});
  detail::submit_all(
      *object, std::move(commands),
      [done = std::move(done)](detail::Status status, const std::vector<Reply>& replies) mutable {
        std::int64_t total = 0;
        for (const auto& reply : replies) {
          if (reply.is_integer()) total += reply.integer;
        }
        done(std::move(status), detail::integer_reply(total));
      });
}

namespace {

/// `command` (pexpire, pexpireat, persist, move) on every key of the object, with `argument`
/// (not for persist) and `condition` ("" or NX/XX/GT/LT): one command for a one-key object,
/// object_each_key.lua for several, the type's own script for keys listed in Redis.
void apply_to_each_key(const detail::ObjectPtr& object, const char* command, std::int64_t argument,
                       const char* condition, detail::Done<Reply>& done) {
  if (const auto* listed = object->listed()) {
    return listed->apply_listed(object, command, argument, condition, done);
  }
  std::vector<std::string> args;
  if (std::string_view(command) != "persist") args.push_back(std::to_string(argument));
  if (*condition != '\0') args.emplace_back(condition);
  auto keys = object->keys();
  if (keys.size() == 1) {
    Command single{command, keys.front()};
    for (const auto& arg : args) single.arg(arg);
    return detail::submit_command(object, single, std::move(done));
  }
  args.insert(args.begin(), command);
  detail::eval_reply(*object, detail::lua::object_each_key(keys, args), std::move(done));
}

const char* expire_condition(ExpireIf condition) {
  switch (condition) {
    case ExpireIf::not_set:
      return "NX";
    case ExpireIf::set:
      return "XX";
    case ExpireIf::greater:
      return "GT";
    case ExpireIf::less:
      return "LT";
  }
  detail::throw_invalid_argument("expire: not an ExpireIf value");
}

}  // namespace

void Object::start_expire(const detail::ObjectPtr& object, const char* command, std::int64_t ms,
                          detail::Done<Reply>& done) {
  apply_to_each_key(object, command, ms, "", done);
}

void Object::start_expire_if(const detail::ObjectPtr& object, const char* command, std::int64_t ms,
                             ExpireIf condition, detail::Done<Reply>& done) {
  apply_to_each_key(object, command, ms, expire_condition(condition), done);
}

void Object::start_each_key(const detail::ObjectPtr& object, const char* command,
                            std::int64_t argument, detail::Done<Reply>& done) {
  if (object->core->is_cluster() && std::string_view(command) == "move") {
    detail::throw_invalid_argument("move_to_database: a Cluster has one database");
  }
  apply_to_each_key(object, command, argument, "", done);
}

void Object::start_object_subcommand(const detail::ObjectPtr& object, const char* subcommand,
                                     detail::Done<Reply>& done) {
  // Routed by the key, which is not OBJECT's first argument.
  detail::submit_command(object, Command{"OBJECT", subcommand}.key(object->name), std::move(done));
}

void Object::start_restore(const detail::ObjectPtr& object, const Bytes& state, std::int64_t ms,
                           bool replace, detail::Done<Reply>& done) {
  if (ms < 0) detail::throw_invalid_argument("restore: the time to live must not be negative");
  Command command{"RESTORE", object->name};
  command.arg(ms).arg(std::string_view(reinterpret_cast<const char*>(state.data()), state.size()));
  if (replace) command.arg("REPLACE");
  detail::submit_command(object, command, std::move(done));
}

}  // namespace redisson

namespace redisson {

bool Object::delete_object() {
  return async_delete_object(detail::blocking("delete_object", name()));
}

bool Object::exists() const { return async_exists(detail::blocking("exists", name())); }

bool Object::expire_at(std::chrono::system_clock::time_point when) {
  return async_expire_at(when, detail::blocking("expire_at", name()));
}

bool Object::clear_expire() { return async_clear_expire(detail::blocking("clear_expire", name())); }

std::chrono::milliseconds Object::remaining_time_to_live() const {
  return async_remaining_time_to_live(detail::blocking("remaining_time_to_live", name()));
}

bool Object::touch() { return async_touch(detail::blocking("touch", name())); }

std::int64_t Object::size_in_memory() const {
  return async_size_in_memory(detail::blocking("size_in_memory", name()));
}

}  // namespace redisson

namespace redisson {

bool Object::unlink() { return async_unlink(detail::blocking("unlink", name())); }

bool Object::expire_at(std::chrono::system_clock::time_point when, ExpireIf condition) {
  return async_expire_at(when, condition, detail::blocking("expire_at", name()));
}

std::optional<std::chrono::system_clock::time_point> Object::expire_time() const {
  return async_expire_time(detail::blocking("expire_time", name()));
}

std::optional<std::chrono::seconds> Object::idle_time() const {
  return async_idle_time(detail::blocking("idle_time", name()));
}

std::optional<std::int64_t> Object::reference_count() const {
  return async_reference_count(detail::blocking("reference_count", name()));
}

std::optional<std::int64_t> Object::access_frequency() const {
  return async_access_frequency(detail::blocking("access_frequency", name()));
}

std::optional<std::string> Object::internal_encoding() const {
  return async_internal_encoding(detail::blocking("internal_encoding", name()));
}

std::optional<Bytes> Object::dump() const { return async_dump(detail::blocking("dump", name())); }

void Object::restore(const Bytes& state, std::chrono::milliseconds ttl) {
  async_restore(state, ttl, detail::blocking("restore", name()));
}

void Object::restore_and_replace(const Bytes& state, std::chrono::milliseconds ttl) {
  async_restore_and_replace(state, ttl, detail::blocking("restore_and_replace", name()));
}

bool Object::copy(std::string destination) const {
  return async_copy(std::move(destination), detail::blocking("copy", name()));
}

bool Object::copy_and_replace(std::string destination) const {
  return async_copy_and_replace(std::move(destination),
                                detail::blocking("copy_and_replace", name()));
}

bool Object::move_to_database(std::int64_t database) {
  return async_move_to_database(database, detail::blocking("move_to_database", name()));
}

bool Object::migrate(const MigrateTarget& target) {
  return async_migrate(target, detail::blocking("migrate", name()));
}

bool Object::copy_to(const MigrateTarget& target) const {
  return async_copy_to(target, detail::blocking("copy_to", name()));
}

void Object::start_migrate(const detail::ObjectPtr& object, const MigrateTarget& target, bool copy,
                           detail::Done<Reply>& done) {
  if (object->listed() != nullptr) {
    return done(detail::Status(errc::not_supported,
                               std::string(copy ? "copy_to" : "migrate") + ": " + object->name +
                                   "'s keys are listed in Redis, not known from its name"),
                Reply{});
  }
  // Built before `done` moves: a refused target must still complete it.
  const Command command = detail::migrate_command(target, object->keys(), copy);
  detail::submit_command(object, command, std::move(done));
}

ListenerId Object::add_listener(ObjectEvent event, KeyListener listener) const {
  return async_add_listener(event, std::move(listener), detail::blocking("add_listener", name()));
}

bool Object::remove_listener(ListenerId id) const {
  return async_remove_listener(id, detail::blocking("remove_listener", name()));
}

void Object::start_listen(const detail::ObjectPtr& object, ObjectEvent event,
                          const KeyListener& listener, detail::Done<ListenerId> done) {
  detail::start_object_listen(object->core, object->kind, object->name, event, listener,
                              std::move(done));
}

void Object::start_unlisten(const detail::ObjectPtr& object, ListenerId id,
                            detail::Done<bool> done) {
  detail::start_listener_remove(object->core, id, std::move(done));
}

}  // namespace redisson

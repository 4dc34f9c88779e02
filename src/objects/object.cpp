// The object base: making an object, sending its commands, reading replies, and the operations
// every object has (objects/object.hpp).
#include "redisson/objects/object.hpp"

#include <charconv>

#include "batch/batch_state.hpp"
#include "client/client_access.hpp"
#include "client/client_core.hpp"
#include "lua_scripts.hpp"
#include "net/reply_error.hpp"
#include "objects/send.hpp"
#include "redisson/client.hpp"

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
  if (!codec) codec = core->config().codec ? core->config().codec : codecs::kryo5();
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

}  // namespace detail

void Object::start_keys_command(const detail::ObjectPtr& object, const char* verb,
                                detail::Done<Reply>& done) {
  if (const auto* listed = object->listed()) {
    return listed->apply_listed(object, verb == std::string_view("DEL") ? "del" : "touch", 0, done);
  }
  if (object->hooks != nullptr && object->hooks->delete_keys != nullptr &&
      verb == std::string_view("DEL")) {
    return object->hooks->delete_keys(object, done);
  }
  Command command{verb};
  for (const auto& key : object->keys()) command.arg(key);
  detail::submit_command(object, command, std::move(done));
}

void Object::start_size_in_memory(const detail::ObjectPtr& object, detail::Done<Reply>& done) {
  if (const auto* listed = object->listed()) return listed->apply_listed(object, "memory", 0, done);
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

void Object::start_expire(const detail::ObjectPtr& object, const char* command, std::int64_t ms,
                          detail::Done<Reply>& done) {
  if (const auto* listed = object->listed()) return listed->apply_listed(object, command, ms, done);
  auto keys = object->keys();
  if (keys.size() == 1) {
    Command single{command, keys.front()};
    if (std::string_view(command) != "persist") single.arg(ms);
    return detail::submit_command(object, single, std::move(done));
  }
  detail::eval_reply(*object, detail::lua::object_expire(keys, {command, std::to_string(ms)}),
                     std::move(done));
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

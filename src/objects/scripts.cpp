// Scripts: the caller's Lua scripts (EVALSHA through the client's ScriptRunner, EVAL on
// NOSCRIPT), the script cache on every master, and how a script's reply reads as a result kind.
#include "redisson/objects/scripts.hpp"

#include <algorithm>

#include "objects/script_call.hpp"
#include "objects/send.hpp"

namespace redisson::detail {

Command script_call_command(std::string_view verb, std::string_view target,
                            const std::vector<std::string>& keys,
                            const std::vector<std::string>& values) {
  Command call{verb, target};
  call.arg(static_cast<std::int64_t>(keys.size()));
  for (const auto& key : keys) call.arg(key);  // the first routes it (Command's rules)
  for (const auto& value : values) call.arg(value);
  return call;
}

namespace {

// A server before Redis 7 has no EVALSHA_RO: it answers "ERR unknown command". Redisson then
// sends EVALSHA (the script runs; only the server's refusal of writes is lost), and so do we.
bool scripts_ro_unknown(const Status& status, const Reply& reply) {
  return status == errc::server_error && reply.str.starts_with("ERR unknown command");
}

}  // namespace

void start_scripts_eval(const ObjectPtr& state, ScriptMode mode, const Script& script,
                        const std::vector<std::string>& keys,
                        const std::vector<std::string>& values, Done<Reply>& done) {
  if (mode == ScriptMode::read_write) {
    return eval_reply(
        *state, ScriptCall{script, script_call_command("EVALSHA", script.sha1(), keys, values)},
        std::move(done));
  }
  eval_reply(
      *state, ScriptCall{script, script_call_command("EVALSHA_RO", script.sha1(), keys, values)},
      [state,
       fallback = ScriptCall{script, script_call_command("EVALSHA", script.sha1(), keys, values)},
       done = std::move(done)](Status status, Reply reply) mutable {
        if (!scripts_ro_unknown(status, reply)) return done(std::move(status), std::move(reply));
        eval_reply(state->core, std::move(fallback), std::move(done));
      });
}

void start_scripts_eval_sha(const ObjectPtr& state, ScriptMode mode, std::string_view sha1,
                            const std::vector<std::string>& keys,
                            const std::vector<std::string>& values, Done<Reply>& done) {
  if (sha1.empty()) throw_invalid_argument("eval_sha: the SHA must not be empty");
  if (mode == ScriptMode::read_write) {
    return submit_command(state, script_call_command("EVALSHA", sha1, keys, values),
                          std::move(done));
  }
  submit_command(state, script_call_command("EVALSHA_RO", sha1, keys, values),
                 [state, fallback = script_call_command("EVALSHA", sha1, keys, values),
                  done = std::move(done)](Status status, Reply reply) mutable {
                   if (!scripts_ro_unknown(status, reply))
                     return done(std::move(status), std::move(reply));
                   submit_command(state, fallback, std::move(done));
                 });
}

std::string reply_script_loaded(const Reply& replies) {
  if (replies.elements.empty() || !replies.elements.front().is_string()) {
    throw_unexpected_reply("a SHA from SCRIPT LOAD", replies);
  }
  return replies.elements.front().str;
}

std::vector<bool> reply_scripts_exist(const Reply& replies) {
  std::vector<bool> exist;
  for (const auto& master : replies.elements) {
    if (!master.is_aggregate()) throw_unexpected_reply("SCRIPT EXISTS flags", master);
    exist.resize(std::max(exist.size(), master.elements.size()), false);
    for (std::size_t i = 0; i < master.elements.size(); ++i) {
      exist[i] = exist[i] || master.elements[i].integer == 1;
    }
  }
  return exist;
}

Value script_reply_value(const Codec& codec, const Reply& reply) {
  switch (reply.type) {
    case ReplyType::null:
      return Value{};
    case ReplyType::bulk_string:
      return codec.decode(reply.str);
    case ReplyType::simple_string:
    case ReplyType::verbatim:
    case ReplyType::big_number:
      return Value::string(reply.str);
    case ReplyType::integer:
      return Value::long_int(reply.integer);
    case ReplyType::boolean:
      return Value::boolean(reply.integer != 0);
    case ReplyType::double_value:
      return Value::double_num(reply.number);
    case ReplyType::array:
    case ReplyType::set:
    case ReplyType::push:
    case ReplyType::map: {
      Value::List elements;
      elements.reserve(reply.elements.size());
      for (const auto& element : reply.elements) {
        elements.push_back(script_reply_value(codec, element));
      }
      return Value::list(std::move(elements));
    }
    case ReplyType::error:
      break;
  }
  throw error(errc::server_error, reply.str);
}

bool script_reply_boolean(const Reply& reply) {
  if (reply.is_integer() || reply.type == ReplyType::boolean) return reply.integer == 1;
  return reply.type == ReplyType::simple_string && reply.str == "OK";
}

std::int64_t script_reply_integer(const Reply& reply) { return reply_counter(reply); }

std::string script_reply_text(const Reply& reply) {
  if (reply.is_null()) return {};
  if (reply.is_integer()) return std::to_string(reply.integer);
  if (!reply.is_string()) throw_unexpected_reply("a status or a string", reply);
  return reply.str;
}

const std::vector<Reply>& script_reply_elements(const Reply& reply) {
  static const std::vector<Reply> kNone;
  if (reply.is_null()) return kNone;
  if (!reply.is_aggregate()) throw_unexpected_reply("an array", reply);
  return reply.elements;
}

}  // namespace redisson::detail

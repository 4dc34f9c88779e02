#include "script/script_runner.hpp"

#include <algorithm>
#include <asio/steady_timer.hpp>
#include <charconv>

#include "redisson/error.hpp"

namespace redisson::detail {
namespace {

// The wait before sending again a script the server refused for now: short at first (a
// restarted server with a small dataset loads in milliseconds), then doubling, bounded so a
// long load is still noticed soon after it ends.
std::chrono::milliseconds next_refusal_wait(std::chrono::milliseconds previous) {
  constexpr std::chrono::milliseconds first{10};
  constexpr std::chrono::milliseconds longest{200};
  return previous.count() == 0 ? first : std::min(previous * 2, longest);
}

}  // namespace

Command as_eval(const Command& evalsha, std::string_view source) {
  // The encoded arguments are RESP bulk strings: "$<len>\r\n<bytes>\r\n" each. Skip the first
  // two (EVALSHA and the SHA) and copy the rest after EVAL and the source; the argument that
  // routed the EVALSHA (the same bytes, not an equal value) routes the EVAL.
  const auto routing_key = evalsha.routing_key();
  // A read-only call stays read-only (EVALSHA_RO -> EVAL_RO): the server still refuses writes.
  Command eval{evalsha.name() == "EVALSHA_RO" ? "EVAL_RO" : "EVAL", source};
  std::string_view rest = evalsha.encoded_arguments();
  for (std::size_t index = 0; !rest.empty(); ++index) {
    const auto header_end = rest.find("\r\n");
    std::size_t length = 0;
    std::from_chars(rest.data() + 1, rest.data() + header_end, length);
    const auto value = rest.substr(header_end + 2, length);
    if (index >= 2) {
      if (routing_key && value.data() == routing_key->data()) {
        eval.key(value);
      } else {
        eval.arg(value);
      }
    }
    rest.remove_prefix(header_end + 2 + length + 2);
  }
  return eval;
}

struct ScriptRunner::Call {
  Script script;
  Command command;  // EVALSHA, then EVAL once the node said NOSCRIPT
  Clock::time_point deadline;
  ReplyCallback callback;
  Router::SentHook after_send;
  std::chrono::milliseconds refusal_wait{0};
  bool sent_source = false;
};

ScriptRunner::ScriptRunner(asio::io_context& io, std::shared_ptr<Router> router)
    : io_(io), router_(std::move(router)) {}

void ScriptRunner::eval(const Script& script, Command evalsha, Clock::time_point deadline,
                        ReplyCallback callback, Router::SentHook after_send, ReadSlot* read) {
  send(std::make_shared<Call>(
           Call{script, std::move(evalsha), deadline, std::move(callback), std::move(after_send)}),
       read);
}

void ScriptRunner::send(const std::shared_ptr<Call>& call, ReadSlot* read) {
  router_->submit(
      call->command, call->deadline,
      [self = shared_from_this(), call](std::error_code ec, Reply reply) {
        if (ec == errc::server_error && !call->sent_source && reply.str.starts_with("NOSCRIPT")) {
          call->sent_source = true;
          call->command = as_eval(call->command, call->script.source());
          return self->send(call);
        }
        if (ec != errc::server_busy) return call->callback(ec, std::move(reply));
        // LOADING or BUSY: the script did not run, so sending it again cannot run it twice.
        call->refusal_wait = next_refusal_wait(call->refusal_wait);
        if (Clock::now() + call->refusal_wait >= call->deadline) {
          return call->callback(ec, std::move(reply));
        }
        auto timer = std::make_shared<asio::steady_timer>(self->io_, call->refusal_wait);
        timer->async_wait([self, call, timer](std::error_code) { self->send(call); });
      },
      call->after_send, read);
}

}  // namespace redisson::detail

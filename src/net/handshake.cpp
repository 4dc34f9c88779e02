#include "net/handshake.hpp"

#include <string_view>
#include <utility>

namespace redisson::detail {

Handshake::Step Handshake::start() {
  protocol_ = 2;
  if (!settings_.resp3) return resp2_start();
  Command hello{"HELLO", "3"};
  if (!settings_.password.empty()) {
    hello.arg("AUTH")
        .arg(settings_.username.empty() ? std::string_view("default")
                                        : std::string_view(settings_.username))
        .arg(settings_.password);
  }
  if (!settings_.client_name.empty()) hello.arg("SETNAME").arg(settings_.client_name);
  return send(Phase::hello, std::move(hello));
}

Handshake::Step Handshake::on_reply(std::error_code ec, const Reply& reply) {
  switch (phase_) {
    case Phase::hello: {
      if (!ec) {
        protocol_ = 3;
        return select_or_done();
      }
      const std::string_view text = reply.str;
      // Servers before 6.0 do not know HELLO; servers built without RESP3 answer NOPROTO.
      if (text.starts_with("NOPROTO") || text.starts_with("ERR unknown command")) {
        return resp2_start();
      }
      return failed(ec, reply.str);
    }
    case Phase::auth:
      if (ec) return failed(ec, reply.str);
      return after_auth();
    case Phase::client_name:
      return select_or_done();  // a refused name is not worth failing the session
    case Phase::select:
      if (ec) return failed(ec, reply.str);
      phase_ = Phase::finished;
      return Step{Step::Kind::done, {}, protocol_, {}, {}};
    case Phase::finished:
      break;
  }
  return failed(make_error_code(errc::protocol_error), "a reply after the handshake ended");
}

Handshake::Step Handshake::resp2_start() {
  if (settings_.password.empty()) return after_auth();
  Command auth{"AUTH"};
  if (!settings_.username.empty()) auth.arg(settings_.username);
  auth.arg(settings_.password);
  return send(Phase::auth, std::move(auth));
}

Handshake::Step Handshake::after_auth() {
  if (settings_.client_name.empty()) return select_or_done();
  return send(Phase::client_name, Command{"CLIENT", "SETNAME", settings_.client_name});
}

Handshake::Step Handshake::select_or_done() {
  if (settings_.database == 0) {
    phase_ = Phase::finished;
    return Step{Step::Kind::done, {}, protocol_, {}, {}};
  }
  return send(Phase::select, Command{"SELECT"}.arg(settings_.database));
}

Handshake::Step Handshake::send(Phase phase, Command command) {
  phase_ = phase;
  return Step{Step::Kind::send, std::move(command), protocol_, {}, {}};
}

Handshake::Step Handshake::failed(std::error_code ec, const std::string& detail) {
  phase_ = Phase::finished;
  return Step{Step::Kind::failed, {}, protocol_, ec, detail};
}

}  // namespace redisson::detail

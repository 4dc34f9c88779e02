// The opening of a Redis session, as a state machine with no I/O in it: which command to send
// next (HELLO 3 with AUTH and SETNAME; or, for a server without RESP3, AUTH, CLIENT SETNAME),
// then SELECT, and what each reply means. The Connection sends the commands and feeds back the
// replies; the tests drive it with replies they make up (tests/unit/net/handshake_test.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <system_error>

#include "redisson/command.hpp"
#include "redisson/error.hpp"
#include "redisson/reply.hpp"

namespace redisson::detail {

struct HandshakeSettings {
  bool resp3 = true;
  std::string username;  ///< empty: the default user
  std::string password;  ///< empty: no AUTH
  std::string client_name;
  std::int64_t database = 0;
};

class Handshake {
 public:
  /// What to do next.
  struct Step {
    enum class Kind { send, done, failed };
    Kind kind = Kind::done;
    Command command;        ///< send: the command whose reply goes to on_reply()
    int protocol = 2;       ///< done: the session's RESP version
    std::error_code error;  ///< failed: why
    std::string detail;     ///< failed: the server's words
  };

  explicit Handshake(HandshakeSettings settings) : settings_(std::move(settings)) {}

  /// The first step of a new session.
  Step start();
  /// The step after the reply `reply` (with its error code `ec`) to the last command sent.
  Step on_reply(std::error_code ec, const Reply& reply);

 private:
  enum class Phase { hello, auth, client_name, select, finished };

  Step resp2_start();
  Step after_auth();
  Step select_or_done();
  Step send(Phase phase, Command command);
  Step failed(std::error_code ec, const std::string& detail);

  HandshakeSettings settings_;
  Phase phase_ = Phase::finished;
  int protocol_ = 2;
};

}  // namespace redisson::detail

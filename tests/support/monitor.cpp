#include "support/monitor.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "support/java_fixtures.hpp"

namespace redisson::test {
namespace {

int monitor_hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  throw std::runtime_error("MONITOR: bad hex digit");
}

}  // namespace

std::vector<std::string> parse_monitor_args(const std::string& quoted) {
  // sdscatrepr's escaping: \\ \" \n \r \t \a \b and \xHH for other unprintable bytes.
  std::vector<std::string> args;
  std::size_t i = 0;
  while (i < quoted.size()) {
    if (quoted[i] != '"') {
      ++i;
      continue;
    }
    std::string arg;
    for (++i; i < quoted.size() && quoted[i] != '"'; ++i) {
      if (quoted[i] != '\\') {
        arg.push_back(quoted[i]);
        continue;
      }
      const char c = quoted.at(++i);
      switch (c) {
        case 'n':
          arg.push_back('\n');
          break;
        case 'r':
          arg.push_back('\r');
          break;
        case 't':
          arg.push_back('\t');
          break;
        case 'a':
          arg.push_back('\a');
          break;
        case 'b':
          arg.push_back('\b');
          break;
        case 'x':
          arg.push_back(static_cast<char>(monitor_hex_digit(quoted.at(i + 1)) * 16 +
                                          monitor_hex_digit(quoted.at(i + 2))));
          i += 2;
          break;
        default:
          arg.push_back(c);  // \\ and \"
      }
    }
    ++i;  // the closing quote
    args.push_back(std::move(arg));
  }
  return args;
}

Monitor::Monitor(const RedisServer& server) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  timeval timeout{};
  timeout.tv_sec = 10;
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(server.port()));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    const int failure = errno;
    ::close(fd_);
    throw std::runtime_error(std::string("MONITOR connect: ") + std::strerror(failure));
  }
  static constexpr char kMonitor[] = "MONITOR\r\n";
  if (::send(fd_, kMonitor, sizeof kMonitor - 1, MSG_NOSIGNAL) != sizeof kMonitor - 1 ||
      read_line() != "+OK") {
    ::close(fd_);
    throw std::runtime_error("MONITOR refused");
  }
}

Monitor::~Monitor() { ::close(fd_); }

std::string Monitor::read_line() {
  for (;;) {
    if (const auto end = buffer_.find("\r\n"); end != std::string::npos) {
      std::string line = buffer_.substr(0, end);
      buffer_.erase(0, end + 2);
      return line;
    }
    char chunk[4096];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n > 0) {
      buffer_.append(chunk, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      throw std::runtime_error("MONITOR: the server stopped answering");
    }
  }
}

std::vector<MonitoredCommand> Monitor::take(const RedisServer& server) {
  const std::string marker = "monitor-mark-" + std::to_string(++marks_);
  server.command({"ECHO", marker});
  std::vector<MonitoredCommand> commands;
  for (;;) {
    // "+<time> [<db> <client>] "arg" "arg" ...": the client is "lua" for a script's calls.
    const std::string line = read_line();
    const auto open = line.find('[');
    const auto close = line.find(']', open);
    if (open == std::string::npos || close == std::string::npos) continue;
    MonitoredCommand command;
    command.from_lua = line.compare(close - 3, 3, "lua") == 0;
    command.args = parse_monitor_args(line.substr(close + 1));
    if (command.args.size() == 2 && command.args[0] == "ECHO" && command.args[1] == marker) {
      return commands;
    }
    if (!command.args.empty() && (command.args[0] == "PING" || command.args[0] == "ping")) continue;
    commands.push_back(std::move(command));
  }
}

SentCommands java_sent_commands(std::string_view name) {
  SentCommands commands;
  for (const auto& row : java_service_monitor(name)) {
    if (row.value("marker", false) || row.value("lua", false) || !row.contains("args")) continue;
    auto& args = commands.emplace_back();
    for (const auto& arg : row["args"]) args.push_back(from_hex(arg["hex"].get<std::string>()));
  }
  return commands;
}

SentCommands sent_by_clients(const std::vector<MonitoredCommand>& commands) {
  SentCommands sent;
  for (const auto& command : commands) {
    if (!command.from_lua) sent.push_back(command.args);
  }
  return sent;
}

SentCommands without_script_cache_retries(const SentCommands& commands) {
  const auto is_evalsha = [](const std::vector<std::string>& args) {
    return !args.empty() && (args[0] == "EVALSHA" || args[0] == "EVALSHA_RO");
  };
  SentCommands kept;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const auto& args = commands[i];
    const bool after_evalsha = !kept.empty() && is_evalsha(kept.back());
    // Java: EVALSHA, SCRIPT LOAD, the same EVALSHA.
    if (after_evalsha && args.size() >= 2 && args[0] == "SCRIPT" && args[1] == "LOAD" &&
        i + 1 < commands.size() && commands[i + 1] == kept.back()) {
      ++i;
      continue;
    }
    // redisson-cpp: EVALSHA, then EVAL with the source and the same keys and values.
    if (after_evalsha && !args.empty() && (args[0] == "EVAL" || args[0] == "EVAL_RO") &&
        std::equal(args.begin() + 2, args.end(), kept.back().begin() + 2, kept.back().end())) {
      continue;
    }
    kept.push_back(args);
  }
  return kept;
}

}  // namespace redisson::test

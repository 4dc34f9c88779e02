#include "raw_socket.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace redisson_bench {

namespace {

std::string resp_command(std::initializer_list<std::string_view> args) {
  std::string out = "*" + std::to_string(args.size()) + "\r\n";
  for (const auto arg : args) {
    out += "$" + std::to_string(arg.size()) + "\r\n";
    out += arg;
    out += "\r\n";
  }
  return out;
}

// Takes the next whole reply off the front of `buffer` (see next_reply for the shapes); nullopt
// while it is incomplete.
std::optional<std::string> take_reply(std::string& buffer) {
  std::size_t at = 0;
  const auto line = [&]() -> std::optional<std::string_view> {
    const auto end = buffer.find("\r\n", at);
    if (end == std::string::npos) return std::nullopt;
    std::string_view text(buffer.data() + at, end - at);
    at = end + 2;
    return text;
  };
  const auto element = [&]() -> std::optional<std::string> {
    const auto header = line();
    if (!header || header->empty()) return std::nullopt;
    if (header->front() == ':' || header->front() == '+') return std::string(header->substr(1));
    if (header->front() == '-')
      throw std::runtime_error("raw floor: server: " + std::string(*header));
    if (header->front() != '$') throw std::runtime_error("raw floor: unexpected reply");
    if (*header == "$-1") return std::string();
    const auto size = std::stoul(std::string(header->substr(1)));
    if (buffer.size() < at + size + 2) return std::nullopt;
    std::string text = buffer.substr(at, size);
    at += size + 2;
    return text;
  };
  std::optional<std::string> last;
  if (!buffer.empty() && buffer.front() == '*') {
    const auto header = line();
    if (!header) return std::nullopt;
    if (*header == "*-1") {
      last = std::string();
    } else {
      const auto count = std::stoul(std::string(header->substr(1)));
      for (std::size_t i = 0; i < count; ++i) {
        last = element();
        if (!last) return std::nullopt;
      }
    }
  } else {
    last = element();
    if (!last) return std::nullopt;
  }
  buffer.erase(0, at);
  return last;
}

}  // namespace

RawConnection::RawConnection(const Options& options) {
  if (options.server.tls) throw std::runtime_error("raw floor: not measured over TLS");
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const auto port = std::to_string(options.server.port);
  if (const int rc = ::getaddrinfo(options.server.host.c_str(), port.c_str(), &hints, &found);
      rc != 0) {
    throw std::runtime_error("raw floor: " + options.server.host + ": " + ::gai_strerror(rc));
  }
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> addresses(found, &::freeaddrinfo);
  fd_ = ::socket(found->ai_family, found->ai_socktype, found->ai_protocol);
  if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "raw floor: socket");
  // Bounded: a server that stops answering ends the measurement with an error, not a hang.
  const timeval timeout{10, 0};
  const int one = 1;
  if (::connect(fd_, found->ai_addr, found->ai_addrlen) != 0 ||
      ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0 ||
      ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout) != 0) {
    const int error = errno;
    ::close(std::exchange(fd_, -1));
    throw std::system_error(error, std::generic_category(), "raw floor: connect");
  }
  const auto& server = options.server;
  if (!server.password.empty()) {
    if (server.username.empty()) {
      command({"AUTH", server.password});
    } else {
      command({"AUTH", server.username, server.password});
    }
  }
}

RawConnection::~RawConnection() {
  if (fd_ >= 0) ::close(fd_);
}

RawConnection::RawConnection(RawConnection&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), buffer_(std::move(other.buffer_)) {}

void RawConnection::send(std::initializer_list<std::string_view> args) {
  const auto out = resp_command(args);
  std::string_view bytes = out;
  while (!bytes.empty()) {
    const auto sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0) throw std::system_error(errno, std::generic_category(), "raw floor: send");
    bytes.remove_prefix(static_cast<std::size_t>(sent));
  }
}

std::string RawConnection::next_reply() {
  for (;;) {
    if (auto reply = take_reply(buffer_)) return *reply;
    receive();
  }
}

std::string RawConnection::command(std::initializer_list<std::string_view> args) {
  send(args);
  return next_reply();
}

void RawConnection::receive() {
  char chunk[4096];
  const auto got = ::recv(fd_, chunk, sizeof chunk, 0);
  if (got <= 0) {
    throw std::runtime_error(got == 0 ? "raw floor: the server closed the connection"
                                      : "raw floor: no reply within 10 s");
  }
  buffer_.append(chunk, static_cast<std::size_t>(got));
}

}  // namespace redisson_bench

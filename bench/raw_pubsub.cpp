#include "raw_pubsub.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "clock.hpp"
#include "histogram.hpp"
#include "shared_memory.hpp"
#include "topic_stamps.hpp"
#include "workers.hpp"

namespace redisson_bench {
namespace {

constexpr auto kRawSetUpTimeout = std::chrono::seconds(30);

// A blocking TCP connection to the benchmarked server, closed on destruction.
class RawSocket {
 public:
  explicit RawSocket(const Options& options) {
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
      ::close(fd_);
      throw std::system_error(error, std::generic_category(), "raw floor: connect");
    }
  }
  ~RawSocket() {
    if (fd_ >= 0) ::close(fd_);
  }
  RawSocket(RawSocket&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  RawSocket& operator=(RawSocket&&) = delete;
  RawSocket(const RawSocket&) = delete;
  RawSocket& operator=(const RawSocket&) = delete;

  void send(std::string_view bytes) {
    while (!bytes.empty()) {
      const auto sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (sent < 0) throw std::system_error(errno, std::generic_category(), "raw floor: send");
      bytes.remove_prefix(static_cast<std::size_t>(sent));
    }
  }
  // Appends what one read() returns to `buffer`.
  void receive(std::string& buffer) {
    char chunk[4096];
    const auto got = ::recv(fd_, chunk, sizeof chunk, 0);
    if (got <= 0) {
      throw std::runtime_error(got == 0 ? "raw floor: the server closed the connection"
                                        : "raw floor: no reply within 10 s");
    }
    buffer.append(chunk, static_cast<std::size_t>(got));
  }

 private:
  int fd_ = -1;
};

std::string resp_command(std::initializer_list<std::string_view> args) {
  std::string out = "*" + std::to_string(args.size()) + "\r\n";
  for (const auto arg : args) {
    out += "$" + std::to_string(arg.size()) + "\r\n";
    out += arg;
    out += "\r\n";
  }
  return out;
}

// Takes the next whole RESP2 frame off the front of `buffer` (only the shapes SUBSCRIBE and
// PUBLISH answer with: an integer, or an array of bulk strings and integers); returns its last
// element's text, or nullopt while the frame is incomplete.
std::optional<std::string> take_frame(std::string& buffer) {
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
    const auto count = std::stoul(std::string(header->substr(1)));
    for (std::size_t i = 0; i < count; ++i) {
      last = element();
      if (!last) return std::nullopt;
    }
  } else {
    last = element();
    if (!last) return std::nullopt;
  }
  buffer.erase(0, at);
  return last;
}

std::string next_frame(RawSocket& socket, std::string& buffer) {
  for (;;) {
    if (auto frame = take_frame(buffer)) return *frame;
    socket.receive(buffer);
  }
}

// A connection logged in as the client's URL says (AUTH [user] password).
RawSocket connect_as_client(const Options& options, std::string& buffer) {
  RawSocket socket(options);
  const auto& server = options.server;
  if (!server.password.empty()) {
    socket.send(server.username.empty() ? resp_command({"AUTH", server.password})
                                        : resp_command({"AUTH", server.username, server.password}));
    next_frame(socket, buffer);
  }
  return socket;
}

}  // namespace

int worker_raw_subscriber(const WorkerOptions& options) {
  Shared<TopicShared> shared(kWorkerSharedFd);
  return run_latency_worker(shared->failed, [&](Samples& latency) {
    std::string buffer;
    auto socket = connect_as_client(options.common, buffer);
    socket.send(resp_command({"SUBSCRIBE", options.lock_name}));
    next_frame(socket, buffer);  // the subscription's confirmation
    shared->ready.fetch_add(1);
    for (;;) {
      const auto payload = next_frame(socket, buffer);
      const auto now = monotonic_ns();
      const auto stamp = std::stoll(payload);
      if (stamp < 0) return;
      latency.record(now - stamp);
      shared->received.fetch_add(1);
      shared->changed.raise();
    }
  });
}

namespace {

nlohmann::json measure_floor(const Options& options, std::chrono::nanoseconds duration,
                             RawPacing pacing, double& p50_us) {
  Shared<TopicShared> shared;
  const auto channel = bench_key(options, "raw-floor");
  ChildGroup workers;
  workers.spawn(worker_command(options, "raw-subscriber", 0, channel), /*capture_stderr=*/false,
                shared.fd());
  std::string buffer;
  auto socket = connect_as_client(options, buffer);
  const auto publish = [&](std::int64_t stamp) {
    socket.send(resp_command({"PUBLISH", channel, std::to_string(stamp)}));
    next_frame(socket, buffer);
  };
  std::string failure;
  if (!wait_for_count(shared->ready, 1, kRawSetUpTimeout)) failure = "never subscribed";
  if (failure.empty() && pacing.interval.count() > 0) {
    publish_paced(duration, pacing.interval, [&] { publish(monotonic_ns()); });
  } else if (failure.empty()) {
    failure = publish_one_at_a_time(*shared, duration, kRawSetUpTimeout,
                                    [&] { publish(monotonic_ns()); });
  }
  publish(-1);
  const auto latency = merged_latency(
      worker_reports(workers.wait_all(std::chrono::steady_clock::now() + kRawSetUpTimeout)));
  nlohmann::json floor{
      {"what", "PUBLISH on a blocking socket -> SUBSCRIBE's blocking read in another process"},
      {"pacing", pacing.interval.count() > 0
                     ? "one every " + std::to_string(pacing.interval.count() / 1000) + " us"
                     : "the next once the last arrived"}};
  latency.add_to(floor);
  if (!failure.empty()) floor["error"] = failure;
  p50_us = latency.percentile_us(50);
  return floor;
}

}  // namespace

double raw_pubsub_floor(const Options& options, std::chrono::nanoseconds duration, RawPacing pacing,
                        nlohmann::json& out) {
  // A reference: when it cannot be measured (TLS, a server refusing it), the scenario's own
  // figures still stand, with the reason beside them.
  double p50_us = std::numeric_limits<double>::quiet_NaN();
  try {
    out["raw_floor"] = measure_floor(options, duration, pacing, p50_us);
  } catch (const std::exception& e) {
    out["raw_floor"] = {{"error", e.what()}};
  }
  return p50_us;
}

}  // namespace redisson_bench

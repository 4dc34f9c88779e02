#include "fault/fault_proxy.hpp"

#include <array>
#include <asio/connect.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <asio/write.hpp>
#include <atomic>
#include <deque>
#include <future>
#include <set>
#include <thread>

namespace redisson::test {

namespace {

using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kReadChunk = 16 * 1024;
constexpr int kToServer = 0;
constexpr int kToClient = 1;

class Session;

}  // namespace

// Everything below runs on the proxy's I/O thread, except the atomics and the constructor.
struct FaultProxy::Impl : std::enable_shared_from_this<FaultProxy::Impl> {
  asio::io_context io;
  tcp::acceptor acceptor{io};
  tcp::endpoint target;
  std::size_t buffer_limit = 0;
  std::thread thread;
  std::set<std::shared_ptr<Session>> sessions;

  std::chrono::milliseconds latency[2]{};
  bool blocked[2]{};
  bool refuse = false;
  bool stopped = false;

  std::atomic<std::size_t> open{0};
  std::atomic<std::uint64_t> accepted{0};
  std::atomic<std::uint64_t> forwarded[2]{};

  void accept();
  /// Wakes every pump so it re-reads the controls.
  void notify_all();
  void reset_all();
  /// Runs `fn` on the I/O thread and waits for it.
  template <class Fn>
  void run(Fn fn) {
    std::promise<void> done;
    asio::post(io, [&] {
      fn();
      done.set_value();
    });
    done.get_future().wait();
  }
};

namespace {

// One direction of one connection: reads from `from`, holds chunks until their delivery time
// (and while the direction is blocked), writes them to `to`.
struct Pump {
  struct Chunk {
    Clock::time_point deliver_at;
    std::string bytes;
  };

  Pump(asio::io_context& io, int direction) : direction(direction), read_wait(io), write_wait(io) {}

  int direction;
  tcp::socket* from = nullptr;
  tcp::socket* to = nullptr;
  std::deque<Chunk> queue;
  std::size_t queued_bytes = 0;
  bool eof = false;
  asio::steady_timer read_wait;
  asio::steady_timer write_wait;
  std::array<char, kReadChunk> buffer{};

  void wake() {
    read_wait.cancel();
    write_wait.cancel();
  }
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(std::shared_ptr<FaultProxy::Impl> proxy, tcp::socket client)
      : proxy_(std::move(proxy)),
        client_(std::move(client)),
        server_(proxy_->io),
        pumps_{Pump(proxy_->io, kToServer), Pump(proxy_->io, kToClient)} {
    pumps_[kToServer].from = &client_;
    pumps_[kToServer].to = &server_;
    pumps_[kToClient].from = &server_;
    pumps_[kToClient].to = &client_;
  }

  void start() {
    server_.async_connect(proxy_->target, [self = shared_from_this()](std::error_code ec) {
      if (self->closed_) return;
      if (ec) return self->close(/*reset=*/true);
      std::error_code ignored;
      self->server_.set_option(tcp::no_delay(true), ignored);
      self->client_.set_option(tcp::no_delay(true), ignored);
      for (int direction : {kToServer, kToClient}) {
        self->read(direction);
        self->write(direction);
      }
    });
  }

  void wake() {
    for (auto& pump : pumps_) pump.wake();
  }

  // RST (linger 0) for faults; a plain close when one side hung up and the other has been told.
  void close(bool reset) {
    if (closed_) return;
    closed_ = true;
    for (auto* socket : {&client_, &server_}) {
      std::error_code ignored;
      if (reset && socket->is_open())
        socket->set_option(asio::socket_base::linger(true, 0), ignored);
      socket->close(ignored);
    }
    for (auto& pump : pumps_) pump.wake();
    --proxy_->open;
    proxy_->sessions.erase(shared_from_this());
  }

 private:
  void read(int direction) {
    if (closed_) return;
    auto& pump = pumps_[direction];
    if (proxy_->blocked[direction] || pump.queued_bytes >= proxy_->buffer_limit) {
      pump.read_wait.expires_at(Clock::time_point::max());
      pump.read_wait.async_wait(
          [self = shared_from_this(), direction](std::error_code) { self->read(direction); });
      return;
    }
    pump.from->async_read_some(asio::buffer(pump.buffer), [self = shared_from_this(), direction](
                                                              std::error_code ec, std::size_t n) {
      if (self->closed_) return;
      auto& p = self->pumps_[direction];
      if (ec) {
        if (ec != asio::error::eof) return self->close(/*reset=*/true);
        p.eof = true;  // deliver what is held, then close
        p.write_wait.cancel();
        return;
      }
      p.queue.push_back(
          {Clock::now() + self->proxy_->latency[direction], std::string(p.buffer.data(), n)});
      p.queued_bytes += n;
      p.write_wait.cancel();
      self->read(direction);
    });
  }

  void write(int direction) {
    if (closed_) return;
    auto& pump = pumps_[direction];
    if (pump.queue.empty() && pump.eof) return close(/*reset=*/false);
    auto wait_until = Clock::time_point::max();
    if (!pump.queue.empty() && !proxy_->blocked[direction]) {
      const auto due = pump.queue.front().deliver_at;
      if (due <= Clock::now()) {
        asio::async_write(
            *pump.to, asio::buffer(pump.queue.front().bytes),
            [self = shared_from_this(), direction](std::error_code ec, std::size_t n) {
              if (self->closed_) return;
              if (ec) return self->close(/*reset=*/true);
              auto& p = self->pumps_[direction];
              p.queued_bytes -= p.queue.front().bytes.size();
              p.queue.pop_front();
              self->proxy_->forwarded[direction] += n;
              p.read_wait.cancel();  // room again
              self->write(direction);
            });
        return;
      }
      wait_until = due;
    }
    pump.write_wait.expires_at(wait_until);
    pump.write_wait.async_wait(
        [self = shared_from_this(), direction](std::error_code) { self->write(direction); });
  }

  std::shared_ptr<FaultProxy::Impl> proxy_;
  tcp::socket client_;
  tcp::socket server_;
  Pump pumps_[2];
  bool closed_ = false;
};

int index_of(Direction direction) {
  return direction == Direction::client_to_server ? kToServer : kToClient;
}

}  // namespace

void FaultProxy::Impl::accept() {
  acceptor.async_accept([self = shared_from_this()](std::error_code ec, tcp::socket socket) {
    if (self->stopped) return;
    if (!ec) {
      ++self->accepted;
      if (self->refuse) {
        std::error_code ignored;
        socket.set_option(asio::socket_base::linger(true, 0), ignored);
        socket.close(ignored);
      } else {
        auto session = std::make_shared<Session>(self, std::move(socket));
        self->sessions.insert(session);
        ++self->open;
        session->start();
      }
    }
    self->accept();
  });
}

void FaultProxy::Impl::notify_all() {
  for (const auto& session : sessions) session->wake();
}

void FaultProxy::Impl::reset_all() {
  // close() erases from `sessions`; iterate over a copy.
  auto copy = sessions;
  for (const auto& session : copy) session->close(/*reset=*/true);
}

FaultProxy::FaultProxy(std::string target_host, int target_port, std::size_t buffer_limit)
    : impl_(std::make_shared<Impl>()) {
  impl_->buffer_limit = buffer_limit;
  tcp::resolver resolver(impl_->io);
  impl_->target = *resolver.resolve(target_host, std::to_string(target_port)).begin();
  const tcp::endpoint listen(asio::ip::make_address("127.0.0.1"), 0);
  impl_->acceptor.open(listen.protocol());
  impl_->acceptor.bind(listen);
  impl_->acceptor.listen();
  impl_->accept();
  impl_->thread = std::thread([impl = impl_] { impl->io.run(); });
}

FaultProxy::~FaultProxy() { stop(); }

int FaultProxy::port() const { return impl_->acceptor.local_endpoint().port(); }

std::string FaultProxy::url() const { return "redis://127.0.0.1:" + std::to_string(port()); }

void FaultProxy::set_latency(Direction direction, std::chrono::milliseconds latency) {
  impl_->run([&] {
    if (direction == Direction::both) {
      impl_->latency[kToServer] = impl_->latency[kToClient] = latency;
    } else {
      impl_->latency[index_of(direction)] = latency;
    }
    impl_->notify_all();
  });
}

void FaultProxy::block(Direction direction) {
  impl_->run([&] {
    if (direction == Direction::both) {
      impl_->blocked[kToServer] = impl_->blocked[kToClient] = true;
    } else {
      impl_->blocked[index_of(direction)] = true;
    }
    impl_->notify_all();
  });
}

void FaultProxy::reset_all() {
  impl_->run([&] { impl_->reset_all(); });
}

void FaultProxy::refuse_new(bool refuse) {
  impl_->run([&] { impl_->refuse = refuse; });
}

void FaultProxy::heal() {
  impl_->run([&] {
    impl_->latency[kToServer] = impl_->latency[kToClient] = std::chrono::milliseconds{0};
    impl_->blocked[kToServer] = impl_->blocked[kToClient] = false;
    impl_->refuse = false;
    impl_->notify_all();
  });
}

std::size_t FaultProxy::open_connections() const { return impl_->open.load(); }

std::uint64_t FaultProxy::accepted() const { return impl_->accepted.load(); }

std::uint64_t FaultProxy::bytes_forwarded(Direction direction) const {
  if (direction == Direction::both) {
    return impl_->forwarded[kToServer].load() + impl_->forwarded[kToClient].load();
  }
  return impl_->forwarded[index_of(direction)].load();
}

void FaultProxy::stop() {
  if (!impl_->thread.joinable()) return;
  impl_->run([&] {
    impl_->stopped = true;
    std::error_code ignored;
    impl_->acceptor.close(ignored);
    impl_->reset_all();
  });
  // The cancelled operations now finish (each sees `stopped` or its closed session and ends
  // without re-arming), releasing the Impl they hold; run() then returns by itself. Stopping
  // the io_context at once would leave them queued, each keeping the Impl alive (a leak).
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  while (!impl_->io.stopped() && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  impl_->io.stop();
  impl_->thread.join();
}

}  // namespace redisson::test

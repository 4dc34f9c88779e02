// A fake server that logs the client in and then answers with broken RESP: the client must give
// a clear error every time, within its deadline, and never crash, hang or allocate what a
// hostile length asks for.
#include <gtest/gtest.h>

#include <asio/connect.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/read.hpp>
#include <asio/write.hpp>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "redisson/redisson.hpp"
#include "support/fault_config.hpp"

namespace fault_garbage_server_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Config;
using redisson::errc;
using tcp = asio::ip::tcp;

namespace {

// What the fake server sends back for the first non-handshake command of each connection.
struct Script {
  std::string reply;               // bytes to send
  bool close_after = false;        // then close the connection (FIN)
  bool garbage_handshake = false;  // send `reply` to HELLO already
};

// Reads one complete RESP command (an array of bulk strings) from `buffer`, returning its first
// argument upper-cased, or nullopt when the buffer does not hold a whole command yet.
std::optional<std::string> take_command(std::string& buffer) {
  std::size_t pos = 0;
  auto read_line = [&](std::string& line) {
    const auto end = buffer.find("\r\n", pos);
    if (end == std::string::npos) return false;
    line = buffer.substr(pos, end - pos);
    pos = end + 2;
    return true;
  };
  std::string line;
  if (!read_line(line) || line.empty() || line[0] != '*') return std::nullopt;
  const long count = std::stol(line.substr(1));
  std::string first;
  for (long i = 0; i < count; ++i) {
    if (!read_line(line) || line.empty() || line[0] != '$') return std::nullopt;
    const auto length = static_cast<std::size_t>(std::stol(line.substr(1)));
    if (buffer.size() < pos + length + 2) return std::nullopt;
    if (i == 0) first = buffer.substr(pos, length);
    pos += length + 2;
  }
  buffer.erase(0, pos);
  for (auto& c : first) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return first;
}

// A one-script fake Redis on 127.0.0.1:<free port>, a thread per connection (blocking sockets:
// simple, and this server must not share the client's code).
class GarbageServer {
 public:
  explicit GarbageServer(Script script) : script_(std::move(script)) {
    const tcp::endpoint listen(asio::ip::make_address("127.0.0.1"), 0);
    acceptor_.open(listen.protocol());
    acceptor_.bind(listen);
    acceptor_.listen();
    accept_thread_ = std::thread([this] { accept_loop(); });
  }

  ~GarbageServer() {
    stopping_ = true;
    {
      // Wake accept() with a connection of our own; shut down workers' sockets to wake reads.
      asio::io_context io;
      tcp::socket poke(io);
      std::error_code ignored;
      poke.connect(acceptor_.local_endpoint(), ignored);
    }
    accept_thread_.join();
    {
      std::lock_guard lock(mutex_);
      for (auto& socket : sockets_) {
        std::error_code ignored;
        socket->shutdown(tcp::socket::shutdown_both, ignored);
      }
    }
    for (auto& worker : workers_) worker.join();
  }

  std::string url() const {
    return "redis://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port());
  }
  int connections() const { return connections_.load(); }

 private:
  void accept_loop() {
    while (!stopping_) {
      auto socket = std::make_shared<tcp::socket>(io_);
      std::error_code ec;
      acceptor_.accept(*socket, ec);
      if (ec || stopping_) break;
      ++connections_;
      std::lock_guard lock(mutex_);
      sockets_.push_back(socket);
      workers_.emplace_back([this, socket] { serve(*socket); });
    }
  }

  void serve(tcp::socket& socket) {
    std::string buffer;
    char chunk[4096];
    bool scripted = false;
    for (;;) {
      std::error_code ec;
      const auto n = socket.read_some(asio::buffer(chunk), ec);
      if (ec) return;
      buffer.append(chunk, n);
      while (auto name = take_command(buffer)) {
        std::string answer;
        if (scripted) {
          continue;  // after the script: silence
        } else if (*name == "HELLO" && !script_.garbage_handshake) {
          answer = "-ERR unknown command 'HELLO'\r\n";  // the client falls back to RESP2
        } else if ((*name == "CLIENT" || *name == "SELECT") && !script_.garbage_handshake) {
          answer = "+OK\r\n";
        } else {
          scripted = true;
          answer = script_.reply;
        }
        asio::write(socket, asio::buffer(answer), ec);
        if (ec) return;
        if (scripted && script_.close_after) {
          socket.shutdown(tcp::socket::shutdown_both, ec);
          return;
        }
      }
    }
  }

  Script script_;
  asio::io_context io_;
  tcp::acceptor acceptor_{io_};
  std::thread accept_thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<int> connections_{0};
  std::mutex mutex_;
  std::vector<std::shared_ptr<tcp::socket>> sockets_;
  std::vector<std::thread> workers_;
};

Config config_for(const GarbageServer& server) {
  return redisson::test::fault_config(server.url(), 500ms);
}

struct Case {
  const char* name;
  Script script;
  std::vector<errc> allowed;
};

std::string describe(const std::vector<errc>& codes) {
  std::string text;
  for (auto code : codes) text += make_error_code(code).message() + "; ";
  return text;
}

class GarbageReply : public testing::TestWithParam<Case> {};

}  // namespace

TEST_P(GarbageReply, GivesAClearErrorAndNeverHangs) {
  const auto& param = GetParam();
  GarbageServer server(param.script);
  Client client(config_for(server));
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      client.execute({"GET", "k"});
      FAIL() << "a broken reply was accepted";
    } catch (const redisson::error& e) {
      bool expected = false;
      for (auto code : param.allowed) expected = expected || e.code() == code;
      EXPECT_TRUE(expected) << "got: " << e.code().message() << " (" << e.what()
                            << "), allowed: " << describe(param.allowed);
      EXPECT_NE(std::string(e.what()), "");
    }
  }
}

const Case kCases[] = {
    {"BadTypeByte", {"?what is this\r\n"}, {errc::protocol_error}},
    {"NegativeBulkLength", {"$-5\r\n"}, {errc::protocol_error}},
    {"NegativeArrayLength", {"*-7\r\n"}, {errc::protocol_error}},
    {"OverflowingLength", {"$99999999999999999999999\r\n"}, {errc::protocol_error}},
    {"HugeBulkLength", {"$1000000000000\r\nabc"}, {errc::protocol_error, errc::timeout}},
    {"HugeArrayLength", {"*3000000000\r\n:1\r\n"}, {errc::protocol_error, errc::timeout}},
    {"NonDigitInInteger", {":12a4\r\n"}, {errc::protocol_error}},
    {"BulkLongerThanItsLength", {"$2\r\nabcdef\r\n"}, {errc::protocol_error}},
    {"DeepNesting", {/* set in cases() */}, {errc::protocol_error, errc::timeout}},
    {"TruncatedThenClosed", {"$10\r\nabc", /*close_after=*/true}, {errc::connection_lost}},
    {"ClosedMidLine", {"+OK", /*close_after=*/true}, {errc::connection_lost}},
    {"ClosedWithoutAnswer", {"", /*close_after=*/true}, {errc::connection_lost}},
    {"NeverAnswers", {""}, {errc::timeout}},
    {"GarbageBinary", {std::string("\x00\xff\xfe\r\n\x01", 6)}, {errc::protocol_error}},
};

std::vector<Case> cases() {
  std::vector<Case> all(std::begin(kCases), std::end(kCases));
  for (auto& c : all) {
    if (std::string_view(c.name) == "DeepNesting") {
      std::string nested;
      for (int i = 0; i < 200000; ++i) nested += "*1\r\n";
      c.script.reply = nested + ":1\r\n";
    }
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(GarbageServer, GarbageReply, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& info) { return info.param.name; });

TEST(GarbageServer, GarbageHandshakeFailsTheConstructorClearly) {
  GarbageServer server(Script{"?garbage\r\n", false, /*garbage_handshake=*/true});
  try {
    Client client(config_for(server));
    FAIL() << "connected to a server that speaks no RESP";
  } catch (const redisson::error& e) {
    EXPECT_TRUE(e.code() == errc::protocol_error || e.code() == errc::connect_failed)
        << e.code().message() << ": " << e.what();
  }
}

TEST(GarbageServer, SilentHandshakeFailsTheConstructorWithinConnectTimeout) {
  GarbageServer server(Script{"", false, /*garbage_handshake=*/true});
  try {
    Client client(config_for(server));
    FAIL() << "connected to a server that never answered HELLO";
  } catch (const redisson::error& e) {
    EXPECT_TRUE(e.code() == errc::timeout || e.code() == errc::connect_failed)
        << e.code().message() << ": " << e.what();
  }
}

TEST(GarbageServer, LockAgainstGarbageFailsClearly) {
  GarbageServer server(Script{"?\r\n"});
  Client client(config_for(server));
  auto lock = redisson::Lock(client, "garbage");
  try {
    lock.try_lock();
    FAIL() << "locked against a server that answered garbage";
  } catch (const redisson::error& e) {
    EXPECT_TRUE(e.code() == errc::protocol_error || e.code() == errc::timeout ||
                e.code() == errc::server_error)
        << e.code().message() << ": " << e.what();
  }
}

}  // namespace fault_garbage_server_test

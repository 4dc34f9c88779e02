// The RedisServer fixture itself: every other integration test relies on it.
#include "support/redis_server.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <optional>
#include <string>

#include "support/eventually.hpp"

namespace redisson::test::support_redis_server_test {
namespace {

using namespace std::chrono_literals;

// Process state letter from /proc/PID/stat ('R', 'S', 'T' for stopped, ...).
char process_state(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto paren = stat.rfind(')');
  return paren == std::string::npos || paren + 2 >= stat.size() ? '?' : stat[paren + 2];
}

bool process_gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

TEST(RedisServer, AnswersPingOnLoopbackAfterStart) {
  RedisServer server;
  EXPECT_GT(server.port(), 0);
  EXPECT_GT(server.pid(), 0);
  EXPECT_EQ(server.host(), "127.0.0.1");
  EXPECT_EQ(server.url(), "redis://127.0.0.1:" + std::to_string(server.port()));
  EXPECT_EQ(server.command({"PING"}), "PONG");
  EXPECT_EQ(server.command({"CONFIG", "GET", "bind"}), "bind\n127.0.0.1");
  EXPECT_EQ(server.command({"CONFIG", "GET", "save"}), "save\n");
}

TEST(RedisServer, CommandRendersEveryReplyType) {
  RedisServer server;
  EXPECT_EQ(server.command({"SET", "key", "hello world"}), "OK");
  EXPECT_EQ(server.command({"GET", "key"}), "hello world");
  EXPECT_EQ(server.command({"GET", "missing"}), "(nil)");
  EXPECT_EQ(server.command({"INCR", "counter"}), "1");
  EXPECT_EQ(server.command({"RPUSH", "list", "a", "b", "c"}), "3");
  EXPECT_EQ(server.command({"LRANGE", "list", "0", "-1"}), "a\nb\nc");
  EXPECT_EQ(server.command({"LRANGE", "missing", "0", "-1"}), "(empty array)");
  EXPECT_EQ(server.command({"SET", "binary", std::string("a\r\nb\0c", 6)}), "OK");
  EXPECT_EQ(server.command({"GET", "binary"}), std::string("a\r\nb\0c", 6));
  EXPECT_EQ(server.command({"GET", "list"}).rfind("WRONGTYPE", 0), 0u);
  EXPECT_EQ(server.command({"NO-SUCH-COMMAND"}).rfind("ERR unknown command", 0), 0u);
  EXPECT_EQ(server.command({"DEBUG", "SLEEP", "0"}), "OK");
}

TEST(RedisServer, ExtraArgsReachTheServerAndCommandAuthenticates) {
  RedisServer server(RedisServerOptions{{"--requirepass", "secret"}});
  EXPECT_EQ(server.command({"PING"}), "PONG");
  EXPECT_EQ(server.command({"CONFIG", "GET", "requirepass"}), "requirepass\nsecret");
}

TEST(RedisServer, StopThenStartReusesThePort) {
  RedisServer server;
  const int port = server.port();
  const pid_t first_pid = server.pid();
  ASSERT_EQ(server.command({"SET", "key", "value"}), "OK");

  server.stop();
  EXPECT_FALSE(server.running());
  EXPECT_EQ(server.pid(), -1);
  EXPECT_TRUE(process_gone(first_pid));
  EXPECT_THROW(server.command({"PING"}), std::runtime_error);
  server.stop();  // idempotent

  server.start();
  EXPECT_TRUE(server.running());
  EXPECT_EQ(server.port(), port);
  EXPECT_NE(server.pid(), first_pid);
  EXPECT_EQ(server.command({"PING"}), "PONG");
  EXPECT_EQ(server.command({"GET", "key"}), "(nil)");  // nothing is persisted
  EXPECT_THROW(server.start(), std::logic_error);
}

TEST(RedisServer, PauseFreezesTheServerUntilResume) {
  RedisServer server;
  server.pause();
  EXPECT_EQ(process_state(server.pid()), 'T');

  // A paused server accepts nothing it can answer: the reply only comes after resume().
  auto reply = std::async(std::launch::async, [&] { return server.command({"PING"}); });
  EXPECT_EQ(reply.wait_for(100ms), std::future_status::timeout);

  server.resume();
  EXPECT_NE(process_state(server.pid()), 'T');
  EXPECT_EQ(reply.get(), "PONG");
  EXPECT_EQ(server.command({"PING"}), "PONG");
}

TEST(RedisServer, StopEndsAPausedServer) {
  std::optional<RedisServer> server(std::in_place);
  const pid_t pid = server->pid();
  server->pause();
  server.reset();
  EXPECT_TRUE(process_gone(pid));
}

TEST(RedisServer, TwoServersRunSideBySideOnDifferentPorts) {
  RedisServer first;
  RedisServer second;
  EXPECT_NE(first.port(), second.port());
  EXPECT_NE(first.pid(), second.pid());
  EXPECT_NE(first.dir(), second.dir());
  ASSERT_EQ(first.command({"SET", "owner", "first"}), "OK");
  EXPECT_EQ(second.command({"GET", "owner"}), "(nil)");
}

TEST(RedisServer, DestructorStopsTheProcessAndRemovesItsDir) {
  pid_t pid = -1;
  std::string dir;
  {
    RedisServer server;
    pid = server.pid();
    dir = server.dir();
    ASSERT_FALSE(process_gone(pid));
    ASSERT_TRUE(std::filesystem::is_directory(dir));
    ASSERT_TRUE(std::filesystem::exists(dir + "/redis.log"));
  }
  EXPECT_TRUE(process_gone(pid));
  EXPECT_FALSE(std::filesystem::exists(dir));
}

TEST(RedisServer, MaxLifetimeKillsTheServer) {
  RedisServer server(RedisServerOptions{{}, std::chrono::seconds(1)});
  const pid_t pid = server.pid();
  // The guard SIGKILLs it; it stays our (zombie) child until stop() reaps it.
  EXPECT_TRUE(eventually([&] { return process_state(pid) == 'Z'; }, 10s, 20ms));
  EXPECT_THROW(server.command({"PING"}), std::runtime_error);
  server.stop();
  EXPECT_TRUE(process_gone(pid));
}

TEST(FreePort, ReturnsAPortThatCanBeBound) {
  const int port = free_port();
  ASSERT_GT(port, 0);
  ASSERT_LT(port, 65536);
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0) << std::strerror(errno);
  ::close(fd);
}

TEST(Eventually, ReturnsTrueOnceTheConditionHolds) {
  std::atomic<int> calls{0};
  EXPECT_TRUE(eventually([&] { return ++calls >= 3; }, 10s, 1ms));
  EXPECT_EQ(calls.load(), 3);
}

TEST(Eventually, ReturnsFalseWhenTheDeadlinePasses) {
  int calls = 0;
  EXPECT_FALSE(eventually([&] { return ++calls < 0; }, 20ms, 1ms));
  EXPECT_GE(calls, 2);
}

}  // namespace
}  // namespace redisson::test::support_redis_server_test

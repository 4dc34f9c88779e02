// Fencing tokens: a resource that remembers the newest token it has seen refuses a holder whose
// lock has passed to someone else, however sure that holder is that it still holds it.
// Usage: example_fenced_lock [redis://127.0.0.1:6379]
#include <asio/use_future.hpp>
#include <cstdint>
#include <iostream>
#include <optional>
#include <redisson/fenced_lock.hpp>
#include <redisson/redisson.hpp>
#include <string>

using namespace std::chrono_literals;

// The protected resource. Here a Redis hash {token, body}; in real life a database row, a file
// server, a payment API: anything that can compare a number before it acts. The comparison and
// the write must be one atomic step on the resource's side (a script here, a conditional UPDATE
// ... WHERE token <= ? in SQL).
class FencedStore {
 public:
  FencedStore(redisson::Client& client, std::string key) : client_(client), key_(std::move(key)) {}

  /// Writes `body` unless a newer token has written already; false: a stale holder, refused.
  bool write(std::int64_t token, const std::string& body) {
    static const redisson::Script script{R"lua(
      local newest = tonumber(redis.call('hget', KEYS[1], 'token') or '0')
      if tonumber(ARGV[1]) < newest then return 0 end
      redis.call('hset', KEYS[1], 'token', ARGV[1], 'body', ARGV[2])
      return 1)lua"};
    return client_.eval(script, {key_}, {std::to_string(token), body}).integer == 1;
  }

  /// Reads the body; nullopt when a newer holder has written since `token` was drawn (the
  /// reader no longer holds the lock, so it must not act on what it would read).
  std::optional<std::string> read(std::int64_t token) {
    static const redisson::Script script{R"lua(
      local newest = tonumber(redis.call('hget', KEYS[1], 'token') or '0')
      if tonumber(ARGV[1]) < newest then return false end
      return redis.call('hget', KEYS[1], 'body') or '')lua"};
    auto reply = client_.eval(script, {key_}, {std::to_string(token)});
    if (reply.is_null()) return std::nullopt;
    return reply.str;
  }

 private:
  redisson::Client& client_;
  std::string key_;
};

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  std::cout << std::boolalpha;
  try {
    redisson::Client client(url);
    auto lock = redisson::FencedLock(client, "reports:nightly");
    FencedStore store(client, "reports:nightly:data");

    // Two owners in one program, to show the race a fencing token closes; in real life they are
    // two processes.
    const auto alice_owner = client.new_owner_id();
    const auto bob_owner = client.new_owner_id();

    // Alice takes the lock (5 s lease) and gets a token; her write carries it.
    const auto alice =
        *lock.async_try_lock_and_get_token(alice_owner, std::nullopt, 5s, asio::use_future).get();
    std::cout << "alice holds token " << alice
              << ", writes: " << store.write(alice, "alice's draft") << "\n";

    // Alice stalls (a long pause, a partition) past her lease; here we end it by force.
    lock.force_unlock();

    // Bob gets the lock and a newer token.
    const auto bob =
        *lock.async_try_lock_and_get_token(bob_owner, std::nullopt, 5s, asio::use_future).get();
    std::cout << "bob holds token " << bob << ", writes: " << store.write(bob, "bob's report")
              << "\n";

    // Alice wakes up, still believing she holds the lock. The resource refuses her, on write
    // and on read.
    std::cout << "alice's late write accepted: " << store.write(alice, "alice's draft v2") << "\n";
    std::cout << "alice's late read allowed: " << store.read(alice).has_value() << "\n";
    std::cout << "bob reads: " << store.read(bob).value_or("(refused)") << "\n";
    lock.async_unlock(bob_owner, asio::use_future).get();

    // The blocking API: the calling thread is the owner, as with redisson::Lock.
    const auto token = lock.lock_and_get_token();
    store.write(token, "final report");
    lock.unlock();
    std::cout << "newest token: " << lock.token() << "\n";
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

// The client core in one page: connect, run commands (blocking and pipelined), run a Lua
// script, publish and subscribe.  Usage: example_quickstart [redis://127.0.0.1:6379]
#include <asio/use_future.hpp>
#include <future>
#include <iostream>
#include <redisson/redisson.hpp>
#include <vector>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    // Blocking: waits for the reply, throws redisson::error on failure.
    client.execute({"SET", "greeting", "hello"});
    std::cout << "GET greeting -> " << client.execute({"GET", "greeting"}).str << "\n";

    // Pipelined: many commands in flight on one connection, replies matched in order.
    std::vector<std::future<redisson::Reply>> replies;
    for (int i = 0; i < 1000; ++i) {
      replies.push_back(client.async_execute(redisson::Command{"INCR", "hits"}, asio::use_future));
    }
    std::cout << "after 1000 pipelined INCRs, hits = " << replies.back().get().integer << "\n";

    // Lua by SHA: EVALSHA, with SCRIPT LOAD + retry when the server does not know it yet.
    redisson::Script add("return redis.call('incrby', KEYS[1], ARGV[1])");
    std::cout << "script -> " << client.eval(add, {"hits"}, {"10"}).integer << "\n";

    // Pub/sub: handlers run on the client's I/O thread.
    std::promise<std::string> got;
    auto subscription = client.subscribe(
        "news", [&](std::string_view message) { got.set_value(std::string(message)); });
    client.publish("news", "subscribed and delivered");
    std::cout << "message -> " << got.get_future().get() << "\n";
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

// RemoteService: a calculator served by a worker and called from another client, in the Redis
// layout of Java Redisson's RRemoteService (a Java caller or worker of "com.example.Calc" with
// `int add(int, int)` shares it).
//
//   remote_calculator [redis://127.0.0.1:6379]
//
// One process plays both parts here; in real use the worker and the caller run on different
// machines.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <redisson/client.hpp>
#include <redisson/services/remote_service.hpp>
#include <stdexcept>
#include <string>

int main(int argc, char** argv) {
  using namespace std::chrono_literals;
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client worker_client(url);
    redisson::Client caller_client(url);

    // The worker: the methods it serves, two invocations at a time, on the worker client's
    // listener threads.
    redisson::RemoteInterface calculator("com.example.Calc");
    calculator.method("add", [](std::int32_t a, std::int32_t b) { return a + b; });
    calculator.method("divide", [](std::int64_t a, std::int64_t b) {
      if (b == 0) throw std::invalid_argument("division by zero");
      return a / b;
    });
    redisson::RemoteService served(worker_client);
    served.register_service(calculator, 2);

    // The caller: a worker must take the call within 1 s and answer within 30 s (the defaults).
    redisson::RemoteService remote(caller_client);
    auto calc = remote.get("com.example.Calc");
    auto add = calc.method<std::int32_t(std::int32_t, std::int32_t)>("add");
    std::printf("2 + 3 = %d\n", add(2, 3));

    auto divide = calc.method<std::int64_t(std::int64_t, std::int64_t)>("divide");
    try {
      divide(1, 0);
    } catch (const redisson::error& failure) {  // errc::remote_failed: the worker's message
      std::printf("1 / 0 failed: %s\n", failure.what());
    }

    // No worker for an interface: the call fails once its ack timeout has passed.
    auto nobody = remote
                      .get("com.example.Nobody",
                           redisson::RemoteInvocationOptions::defaults().expect_ack_within(200ms))
                      .method<std::int32_t(std::int32_t, std::int32_t)>("add");
    try {
      nobody(1, 2);
    } catch (const redisson::error& failure) {  // errc::timeout
      std::printf("nobody: %s\n", failure.what());
    }
    served.deregister("com.example.Calc");
    return 0;
  } catch (const redisson::error& failure) {
    std::fprintf(stderr, "remote_calculator: %s\n", failure.what());
    return 1;
  }
}

#include "demo_worker.hpp"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <sstream>
#include <stdexcept>

#include "redisson/redisson.hpp"

namespace redisson::cli {
namespace {

using namespace std::chrono_literals;

// A worker that cannot get the lock this long gives up instead of hanging the demo.
constexpr auto kMaxLockWait = 30s;

// Wall-clock microseconds: the workers share the machine, so they share CLOCK_REALTIME.
std::int64_t realtime_us() {
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return std::int64_t{now.tv_sec} * 1'000'000 + now.tv_nsec / 1000;
}

std::int64_t read_counter(Client& client, const char* key) {
  const Reply value = client.execute({"GET", key});
  return value.is_null() ? 0 : std::stoll(value.str);
}

void increment_without_lock(Client& client) {
  const auto value = read_counter(client, kDemoUnlockedCounter);
  client.execute(Command{"SET", kDemoUnlockedCounter}.arg(value + 1));
}

void increment_with_lock(Client& client, Lock& lock, WorkerResult& result) {
  const bool waited = !lock.try_lock();
  if (waited && !lock.try_lock_for(kMaxLockWait)) {
    throw std::runtime_error("could not get the lock within 30s");
  }
  const auto acquired_us = realtime_us();
  if (waited) {
    const Reply released = client.execute({"GET", kDemoReleasedAt});
    if (!released.is_null()) {
      const auto handoff = acquired_us - std::stoll(released.str);
      if (handoff >= 0) result.handoffs_us.push_back(handoff);
    }
  }
  const auto value = read_counter(client, kDemoLockedCounter);
  client.execute(Command{"SET", kDemoLockedCounter}.arg(value + 1));
  client.execute(Command{"SET", kDemoReleasedAt}.arg(realtime_us()));
  lock.unlock();
}

void write_all(int fd, const std::string& text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n <= 0) return;
    written += static_cast<std::size_t>(n);
  }
}

WorkerResult work(const WorkerTask& task) {
  WorkerResult result;
  Client client(task.config);
  Lock lock = redisson::Lock(client, kDemoLock);
  write_all(task.ready_fd, "r");
  ::close(task.ready_fd);
  char byte = 0;
  while (::read(task.go_fd, &byte, 1) > 0) {
  }
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < task.increments; ++i) {
    if (task.locked) {
      increment_with_lock(client, lock, result);
    } else {
      increment_without_lock(client);
    }
    ++result.increments;
  }
  result.elapsed_us = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  return result;
}

}  // namespace

int run_worker(const WorkerTask& task) noexcept {
  WorkerResult result;
  try {
    result = work(task);
  } catch (const std::exception& e) {
    result.error = e.what();
  }
  try {
    write_all(task.result_fd, encode(result));
  } catch (...) {
    return 1;
  }
  return result.error.empty() ? 0 : 1;
}

std::string encode(const WorkerResult& result) {
  std::ostringstream out;
  if (!result.error.empty()) {
    std::string line = result.error;
    for (char& c : line) {
      if (c == '\n') c = ' ';
    }
    out << "error " << line << "\n";
    return out.str();
  }
  out << "ok " << result.increments << " " << result.elapsed_us << "\n";
  for (auto handoff : result.handoffs_us) out << "h " << handoff << "\n";
  return out.str();
}

WorkerResult decode(const std::string& text) {
  WorkerResult result;
  std::istringstream in(text);
  std::string tag;
  if (!(in >> tag)) {
    result.error = "the worker ended without reporting";
    return result;
  }
  if (tag == "error") {
    std::getline(in >> std::ws, result.error);
    if (result.error.empty()) result.error = "unknown error";
    return result;
  }
  if (tag != "ok" || !(in >> result.increments >> result.elapsed_us)) {
    result.error = "the worker's report is garbled";
    return result;
  }
  std::int64_t value = 0;
  while (in >> tag >> value) {
    if (tag == "h") result.handoffs_us.push_back(value);
  }
  return result;
}

}  // namespace redisson::cli

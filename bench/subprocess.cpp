#include "subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <thread>

extern char** environ;

namespace redisson_bench {
namespace {

using SteadyClock = std::chrono::steady_clock;

void close_fd(int& fd) noexcept {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

void make_pipe(int fds[2]) {
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw std::system_error(errno, std::generic_category(), "pipe2");
}

// Appends what is readable on `fd`; closes it at end of file.
void drain(int& fd, std::string& into) {
  char buffer[16384];
  for (;;) {
    const auto n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      into.append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    close_fd(fd);  // EOF or error
    return;
  }
}

void record_status(ProcessResult& result, int status) {
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
}

}  // namespace

std::string ProcessResult::describe() const {
  std::string text = argv.empty() ? std::string("child") : argv.front();
  if (timed_out) {
    text += " timed out and was killed";
  } else if (signal != 0) {
    text += " was killed by signal " + std::to_string(signal);
  } else {
    text += " exited with " + std::to_string(exit_code);
  }
  auto tail = err.empty() ? out : err;
  if (tail.size() > 400) tail = tail.substr(tail.size() - 400);
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
  if (!tail.empty()) text += ": " + tail;
  return text;
}

ChildGroup::~ChildGroup() { kill_and_reap_all(); }

void ChildGroup::spawn(const std::vector<std::string>& argv, bool capture_stderr, int inherit_fd) {
  if (argv.empty()) throw std::invalid_argument("spawn: empty argv");
  int out_pipe[2];
  int err_pipe[2] = {-1, -1};
  make_pipe(out_pipe);
  if (capture_stderr) make_pipe(err_pipe);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  if (capture_stderr) posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  // dup2 clears FD_CLOEXEC on the copy, so fd 3 survives the exec while the original does not.
  if (inherit_fd >= 0) posix_spawn_file_actions_adddup2(&actions, inherit_fd, 3);

  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close_fd(out_pipe[1]);
  close_fd(err_pipe[1]);
  if (rc != 0) {
    close_fd(out_pipe[0]);
    close_fd(err_pipe[0]);
    throw std::runtime_error("cannot start " + argv.front() + ": " + std::strerror(rc));
  }
  fcntl(out_pipe[0], F_SETFL, O_NONBLOCK);
  if (err_pipe[0] >= 0) fcntl(err_pipe[0], F_SETFL, O_NONBLOCK);

  Child child;
  child.pid = pid;
  child.out_fd = out_pipe[0];
  child.err_fd = err_pipe[0];
  child.result.argv = argv;
  children_.push_back(std::move(child));
}

std::vector<ProcessResult> ChildGroup::wait_all(SteadyClock::time_point deadline) {
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<std::pair<std::size_t, bool>> owners;  // (child, is_stderr)
    bool running = false;
    for (std::size_t i = 0; i < children_.size(); ++i) {
      auto& child = children_[i];
      if (child.out_fd >= 0) {
        fds.push_back({child.out_fd, POLLIN, 0});
        owners.emplace_back(i, false);
      }
      if (child.err_fd >= 0) {
        fds.push_back({child.err_fd, POLLIN, 0});
        owners.emplace_back(i, true);
      }
      if (!child.reaped) {
        int status = 0;
        const auto r = ::waitpid(child.pid, &status, WNOHANG);
        if (r == child.pid) {
          child.reaped = true;
          record_status(child.result, status);
        } else {
          running = true;
        }
      }
    }
    if (!running && fds.empty()) break;
    const auto now = SteadyClock::now();
    if (now >= deadline) {
      for (auto& child : children_) {
        if (!child.reaped) child.result.timed_out = true;
      }
      kill_and_reap_all();
      break;
    }
    // Short polls: a child's exit is noticed by waitpid, not by the pipes (a grandchild may
    // hold them open).
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    const int wait_ms = static_cast<int>(std::min<std::int64_t>(left.count() + 1, 20));
    if (fds.empty()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
      continue;
    }
    const int ready = ::poll(fds.data(), fds.size(), wait_ms);
    if (ready <= 0) {
      if (!running) {
        // Exited, but something else still holds its pipes: stop waiting for them.
        for (auto& child : children_) {
          drain(child.out_fd, child.result.out);
          close_fd(child.out_fd);
          if (child.err_fd >= 0) drain(child.err_fd, child.result.err);
          close_fd(child.err_fd);
        }
      }
      continue;
    }
    for (std::size_t k = 0; k < fds.size(); ++k) {
      if (fds[k].revents == 0) continue;
      auto& child = children_[owners[k].first];
      if (owners[k].second) {
        drain(child.err_fd, child.result.err);
      } else {
        drain(child.out_fd, child.result.out);
      }
    }
  }
  std::vector<ProcessResult> results;
  results.reserve(children_.size());
  for (auto& child : children_) {
    close_fd(child.out_fd);
    close_fd(child.err_fd);
    results.push_back(std::move(child.result));
  }
  children_.clear();
  return results;
}

void ChildGroup::kill_and_reap_all() noexcept {
  for (auto& child : children_) {
    if (child.reaped || child.pid <= 0) continue;
    ::kill(child.pid, SIGKILL);
  }
  for (auto& child : children_) {
    if (child.reaped || child.pid <= 0) continue;
    int status = 0;
    while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
    }
    child.reaped = true;
    record_status(child.result, status);
    if (child.out_fd >= 0) drain(child.out_fd, child.result.out);
    if (child.err_fd >= 0) drain(child.err_fd, child.result.err);
    close_fd(child.out_fd);
    close_fd(child.err_fd);
  }
}

ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  ChildGroup group;
  group.spawn(argv, /*capture_stderr=*/true);
  auto results = group.wait_all(SteadyClock::now() + timeout);
  return std::move(results.front());
}

std::string self_executable() {
  char path[4096];
  const auto n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) throw std::runtime_error("cannot read /proc/self/exe");
  return std::string(path, static_cast<std::size_t>(n));
}

}  // namespace redisson_bench

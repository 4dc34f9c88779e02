#include "child_process.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <system_error>

#include "system_failure.hpp"

extern char** environ;

namespace redisson::cli {
namespace {

constexpr int kRelayed[] = {SIGINT, SIGTERM, SIGHUP};

sigset_t handled_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : kRelayed) sigaddset(&set, sig);
  sigaddset(&set, SIGCHLD);
  return set;
}

bool is_relayed(int sig) {
  for (int relayed : kRelayed) {
    if (relayed == sig) return true;
  }
  return false;
}

}  // namespace

SignalStream::SignalStream() {
  const sigset_t set = handled_signals();
  if (pthread_sigmask(SIG_BLOCK, &set, nullptr) != 0) throw_errno("pthread_sigmask");
  fd_ = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
  if (fd_ < 0) throw_errno("signalfd");
}

SignalStream::~SignalStream() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<signalfd_siginfo> SignalStream::next() {
  signalfd_siginfo info{};
  const ssize_t n = ::read(fd_, &info, sizeof info);
  if (n != static_cast<ssize_t>(sizeof info)) return std::nullopt;
  return info;
}

Notifier::Notifier() {
  int fds[2];
  if (::pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) throw_errno("pipe2");
  read_fd_ = fds[0];
  write_fd_ = fds[1];
}

Notifier::~Notifier() {
  ::close(read_fd_);
  ::close(write_fd_);
}

void Notifier::notify() noexcept {
  const char byte = 1;
  // A full pipe already wakes the reader; nothing to do about EAGAIN.
  [[maybe_unused]] const ssize_t n = ::write(write_fd_, &byte, 1);
}

void Notifier::drain() noexcept {
  char buffer[64];
  while (::read(read_fd_, buffer, sizeof buffer) > 0) {
  }
}

std::set<int> open_fds() {
  std::set<int> fds;
  DIR* dir = ::opendir("/proc/self/fd");
  if (dir == nullptr) return fds;
  const int own = ::dirfd(dir);  // the listing's own descriptor, closed again below
  while (const dirent* entry = ::readdir(dir)) {
    char* end = nullptr;
    const long fd = std::strtol(entry->d_name, &end, 10);
    if (end != entry->d_name && *end == '\0' && fd != own) fds.insert(static_cast<int>(fd));
  }
  ::closedir(dir);
  return fds;
}

pid_t spawn_command(const std::vector<std::string>& argv, const std::set<int>& inherited,
                    const std::vector<std::string>& extra_env) {
  for (int fd : open_fds()) {
    if (fd > 2 && !inherited.contains(fd)) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  }
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t empty;
  sigemptyset(&empty);
  sigset_t defaults = handled_signals();
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  std::vector<std::string> env_storage;
  std::vector<char*> env;
  if (!extra_env.empty()) {
    for (char** entry = environ; *entry != nullptr; ++entry) {
      const std::string_view var(*entry);
      bool overridden = false;
      for (const auto& extra : extra_env) {
        const auto eq = extra.find('=');
        if (var.substr(0, eq + 1) == std::string_view(extra).substr(0, eq + 1)) overridden = true;
      }
      if (!overridden) env.push_back(*entry);
    }
    for (const auto& extra : extra_env) env.push_back(const_cast<char*>(extra.c_str()));
    env.push_back(nullptr);
  }
  const int rc = posix_spawnp(&pid, args[0], nullptr, &attr, args.data(),
                              extra_env.empty() ? environ : env.data());
  posix_spawnattr_destroy(&attr);
  return rc == 0 ? pid : -rc;
}

int shell_status(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return 1;
}

ChildOutcome supervise_child(pid_t child, SignalStream& signals, Notifier& lost,
                             const std::function<void()>& on_lost,
                             std::chrono::milliseconds kill_grace) {
  using Clock = std::chrono::steady_clock;
  ChildOutcome outcome;
  std::optional<Clock::time_point> kill_at;
  for (;;) {
    int timeout_ms = -1;
    if (kill_at) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(*kill_at - Clock::now());
      timeout_ms = static_cast<int>(std::max<std::int64_t>(left.count(), 0));
    }
    pollfd fds[2] = {{signals.fd(), POLLIN, 0}, {lost.fd(), POLLIN, 0}};
    if (::poll(fds, 2, timeout_ms) < 0) {
      if (errno == EINTR) continue;
      throw_errno("poll");
    }
    if (kill_at && Clock::now() >= *kill_at) {
      ::kill(child, SIGKILL);
      kill_at.reset();
    }
    if ((fds[1].revents & POLLIN) != 0) {
      lost.drain();
      if (!outcome.lock_lost) {
        outcome.lock_lost = true;
        on_lost();
        ::kill(child, SIGTERM);
        kill_at = Clock::now() + kill_grace;
      }
    }
    while (auto info = signals.next()) {
      const int sig = static_cast<int>(info->ssi_signo);
      // The terminal sends ^C and hang-ups to the whole foreground process group, CMD included:
      // relaying those would deliver them twice.
      if (is_relayed(sig) && info->ssi_code != SI_KERNEL) ::kill(child, sig);
    }
    int status = 0;
    const pid_t reaped = ::waitpid(child, &status, WNOHANG);
    if (reaped == child) {
      outcome.wait_status = status;
      return outcome;
    }
    if (reaped < 0 && errno != EINTR) throw_errno("waitpid");
  }
}

}  // namespace redisson::cli

#include "demo_command.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "demo_worker.hpp"
#include "exit_status.hpp"
#include "system_failure.hpp"

namespace redisson::cli {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// A round that takes longer than this is stopped (workers killed): the demo never hangs.
constexpr auto kRoundDeadline = 60s;

struct RoundResult {
  std::vector<WorkerResult> workers;
  std::int64_t counter = 0;
  std::int64_t increments = 0;  ///< done by all workers
  std::int64_t longest_us = 0;  ///< the slowest worker's run time
  std::vector<std::int64_t> handoffs_us;
  std::vector<std::string> errors;
};

struct Pipe {
  int read_fd = -1;
  int write_fd = -1;
};

Pipe make_pipe() {
  int fds[2];
  if (::pipe(fds) != 0) throw_errno("pipe");
  return {fds[0], fds[1]};
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Reads every pipe in `fds` to end-of-file (or until `deadline`), appending to `out[i]`.
// Returns false on timeout.
bool read_until_eof(std::vector<int>& fds, std::vector<std::string>& out,
                    Clock::time_point deadline) {
  for (;;) {
    std::vector<pollfd> polled;
    std::vector<std::size_t> index;
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i] >= 0) {
        polled.push_back({fds[i], POLLIN, 0});
        index.push_back(i);
      }
    }
    if (polled.empty()) return true;
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    if (::poll(polled.data(), polled.size(), static_cast<int>(left.count())) < 0) {
      if (errno == EINTR) continue;
      throw_errno("poll");
    }
    for (std::size_t k = 0; k < polled.size(); ++k) {
      if (polled[k].revents == 0) continue;
      const std::size_t i = index[k];
      char buffer[4096];
      const ssize_t n = ::read(fds[i], buffer, sizeof buffer);
      if (n > 0) {
        out[i].append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close_fd(fds[i]);
      }
    }
  }
}

// Forks the workers (the parent holds no Client here, so it has no other threads), starts
// them all at once, and collects what they report.
RoundResult run_round(const Config& config, bool locked, const DemoOptions& options) {
  std::cout.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  Pipe ready = make_pipe();
  Pipe go = make_pipe();
  std::vector<int> results;
  std::vector<pid_t> pids;
  for (int i = 0; i < options.workers; ++i) {
    Pipe result = make_pipe();
    const pid_t pid = ::fork();
    if (pid < 0) throw_errno("fork");
    if (pid == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);
      ::close(ready.read_fd);
      ::close(go.write_fd);
      ::close(result.read_fd);
      for (int fd : results) ::close(fd);
      WorkerTask task{config,         locked,     options.increments,
                      ready.write_fd, go.read_fd, result.write_fd};
      ::_exit(run_worker(task));
    }
    ::close(result.write_fd);
    results.push_back(result.read_fd);
    pids.push_back(pid);
  }
  close_fd(ready.write_fd);
  close_fd(go.read_fd);

  const auto deadline = Clock::now() + kRoundDeadline;
  // Every worker says "ready" once connected (or exits): then all start together.
  std::vector<int> ready_fds{ready.read_fd};
  std::vector<std::string> ready_bytes(1);
  bool in_time = read_until_eof(ready_fds, ready_bytes, deadline);
  close_fd(ready_fds[0]);
  close_fd(go.write_fd);

  std::vector<std::string> reports(results.size());
  in_time = in_time && read_until_eof(results, reports, deadline);
  for (int& fd : results) close_fd(fd);
  if (!in_time) {
    for (pid_t pid : pids) ::kill(pid, SIGKILL);
  }
  for (pid_t pid : pids) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }

  RoundResult round;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    auto worker = decode(reports[i]);
    if (!in_time && worker.error.empty() && reports[i].empty()) {
      worker.error = "did not finish in time";
    }
    if (!worker.error.empty()) {
      round.errors.push_back("worker " + std::to_string(i + 1) + ": " + worker.error);
    }
    round.increments += worker.increments;
    round.longest_us = std::max(round.longest_us, worker.elapsed_us);
    round.handoffs_us.insert(round.handoffs_us.end(), worker.handoffs_us.begin(),
                             worker.handoffs_us.end());
    round.workers.push_back(std::move(worker));
  }
  return round;
}

std::int64_t read_counter(const GlobalOptions& global, const char* key) {
  Client client = connect(global);
  const Reply value = client.execute({"GET", key});
  return value.is_null() ? 0 : std::stoll(value.str);
}

std::string micros(std::int64_t us) {
  if (us < 1000) return std::to_string(us) + "us";
  char text[32];
  if (us < 1'000'000) {
    std::snprintf(text, sizeof text, "%.2fms", static_cast<double>(us) / 1e3);
  } else {
    std::snprintf(text, sizeof text, "%.2fs", static_cast<double>(us) / 1e6);
  }
  return text;
}

// Nearest-rank percentile of sorted values.
std::int64_t percentile(const std::vector<std::int64_t>& sorted, double p) {
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

bool report_errors(const RoundResult& round) {
  for (const auto& error : round.errors) std::cerr << "redisson demo: " << error << "\n";
  return !round.errors.empty();
}

}  // namespace

CLI::App* add_demo_command(CLI::App& app, DemoOptions& options) {
  auto* command = app.add_subcommand(
      "demo", "See what a distributed lock is for, with real processes on a real Redis");
  command->add_option("--workers", options.workers, "Worker processes (default 4)")
      ->check(CLI::Range(1, 64));
  command->add_option("--increments", options.increments, "Increments per worker (default 200)")
      ->check(CLI::Range(1, 100000));
  command->footer(
      "Worker processes increment one Redis counter with GET then SET, first without a lock\n"
      "(updates get lost), then holding the lock \"demo:lock\" around each GET + SET (the count\n"
      "is exact). Uses the server at --url; it does not start one (`make demo` does).\n"
      "Touches only the keys demo:*.\n"
      "Exit status: 0 round 2 counted exactly, 1 it did not (or a worker failed), "
      "64 usage error, 69 Redis unreachable.");
  return command;
}

int run_demo(const GlobalOptions& global, const DemoOptions& options) {
  const Config config = make_config(global);
  {
    Client client = connect(global);
    client.execute({"DEL", kDemoUnlockedCounter, kDemoLockedCounter, kDemoReleasedAt});
  }  // the client's threads end here: the workers are forked from a single-threaded process
  const std::int64_t expected = std::int64_t{options.workers} * options.increments;

  std::cout << "redisson demo: " << options.workers << " worker processes x " << options.increments
            << " increments, Redis at " << config.server.to_safe_url() << "\n\n";

  std::cout << "Round 1 - no lock: each worker does GET " << kDemoUnlockedCounter
            << ", then SET it to value+1\n";
  const auto unlocked = run_round(config, false, options);
  if (report_errors(unlocked)) return kExitFailure;
  const auto unlocked_count = read_counter(global, kDemoUnlockedCounter);
  const auto lost = expected - unlocked_count;
  std::cout << "  expected " << expected << ", got " << unlocked_count << ": " << lost
            << (lost == 1 ? " update" : " updates") << " lost ("
            << (expected > 0 ? lost * 100 / expected : 0) << "%)\n";
  if (lost == 0) {
    std::cout << "  (no race this time: with more workers or increments it shows)\n";
  }

  std::cout << "\nRound 2 - lock \"" << kDemoLock << "\" held around each GET + SET of "
            << kDemoLockedCounter << "\n";
  auto locked = run_round(config, true, options);
  if (report_errors(locked)) return kExitFailure;
  const auto locked_count = read_counter(global, kDemoLockedCounter);
  const bool exact = locked_count == expected;
  std::cout << "  expected " << expected << ", got " << locked_count << ": "
            << (exact ? "exact, no update lost" : "NOT EXACT") << "\n";
  if (locked.longest_us > 0) {
    const double seconds = static_cast<double>(locked.longest_us) / 1e6;
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.0f", static_cast<double>(locked.increments) / seconds);
    std::cout << "  " << locked.increments << " lock/unlock pairs in " << micros(locked.longest_us)
              << ": " << rate << " pairs/s\n";
  }
  auto& handoffs = locked.handoffs_us;
  if (handoffs.empty()) {
    std::cout << "  no worker ever had to wait for the lock\n";
  } else {
    std::sort(handoffs.begin(), handoffs.end());
    std::cout << "  handoff, unlock to the next waiter holding it: p50 "
              << micros(percentile(handoffs, 0.50)) << ", p99 "
              << micros(percentile(handoffs, 0.99)) << " (" << handoffs.size() << " handoffs)\n";
  }
  std::cout << "\nTry it yourself: redisson lock my-job -- ./my-script.sh\n";
  return exact ? kExitOk : kExitFailure;
}

}  // namespace redisson::cli

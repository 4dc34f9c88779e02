// A cron job across machines: every machine runs this same program. Each one registers a worker
// for the task "nightly-report", so whichever machine is up runs it; the schedule itself must
// exist once, not once per machine, so the first machine creates it under a Lock and keeps its
// task id in a Bucket, and the others find it there (a schedule cancelled since is created
// again).
//
//   cron_job [redis://127.0.0.1:6379]          every night at 02:00 UTC; serves until Ctrl-C
//   cron_job [redis://127.0.0.1:6379] --demo   every second, two "machines" in this process
//                                              (other keys); cancels the schedule after 3 runs
#include <signal.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <redisson/redisson.hpp>
#include <redisson/services/executor_service.hpp>
#include <string>
#include <thread>

namespace {

// Where a job lives: its executor, and the prefix of its own keys (the task id, the run count).
struct Job {
  std::string executor;
  std::string keys;
  redisson::CronSchedule when;
};

// What one machine does at start: serve the task, and make sure the job's one schedule exists.
// Returns the schedule's task id.
std::string start_machine(const redisson::Client& client, const std::string& machine,
                          const Job& job) {
  redisson::ExecutorService executor(client, job.executor);
  const auto runs_key = job.keys + ":runs";
  executor.register_workers(redisson::ExecutorTasks().task(
      "nightly-report", [&client, machine, runs_key](const std::string& title) {
        const auto run = redisson::AtomicLong(client, runs_key).increment_and_get();
        std::printf("%s: %s, run %lld\n", machine.c_str(), title.c_str(),
                    static_cast<long long>(run));
      }));

  redisson::Lock lock(client, job.keys + ":schedule-lock");
  std::lock_guard guard(lock);
  redisson::Bucket<std::string> task_id(client, job.keys + ":task-id", redisson::codecs::string());
  if (auto id = task_id.get(); id && executor.has_task(*id)) {
    std::printf("%s: the schedule exists already (task %s)\n", machine.c_str(), id->c_str());
    return *id;
  }
  const auto task = executor.schedule("nightly-report", job.when, std::string("nightly report"));
  task_id.set(task.task_id());
  std::printf("%s: scheduled task %s ('%s' in %s)\n", machine.c_str(), task.task_id().c_str(),
              job.when.expression().c_str(), job.when.zone().name().c_str());
  return task.task_id();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace std::chrono_literals;
  std::string url = "redis://127.0.0.1:6379";
  bool demo = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--demo") {
      demo = true;
    } else {
      url = arg;
    }
  }
  try {
    if (!demo) {
      // Ctrl-C and `kill` are blocked here so that sigwait below receives them.
      sigset_t stop;
      sigemptyset(&stop);
      sigaddset(&stop, SIGINT);
      sigaddset(&stop, SIGTERM);
      pthread_sigmask(SIG_BLOCK, &stop, nullptr);
      const Job nightly{"reports", "nightly-report",
                        redisson::CronSchedule::of("0 0 2 * * ?", redisson::CronZone::utc())};
      redisson::Client client(url);
      start_machine(client, "this machine", nightly);
      std::printf("serving until Ctrl-C (the schedule stays for the other machines)\n");
      int received = 0;
      sigwait(&stop, &received);
      return 0;  // the client waits for a run in progress
    }

    // The demo: two machines (two clients) start the same way; one schedule, every second.
    const Job demo_job{"reports-demo", "nightly-report-demo",
                       redisson::CronSchedule::of("* * * * * ?", redisson::CronZone::utc())};
    redisson::Client admin(url);
    redisson::AtomicLong runs(admin, demo_job.keys + ":runs");
    runs.set(0);
    std::int64_t seen = 0;
    {
      redisson::Client machine_a(url);
      redisson::Client machine_b(url);
      const auto id = start_machine(machine_a, "machine A", demo_job);
      if (start_machine(machine_b, "machine B", demo_job) != id) {
        std::fprintf(stderr, "two schedules\n");
        return 1;
      }
      const auto deadline = std::chrono::steady_clock::now() + 20s;
      while ((seen = runs.get()) < 3 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(100ms);
      }
      // Between runs it is removed at once; during one, that run is its last.
      redisson::ExecutorService(admin, demo_job.executor).cancel_task(id);
      std::printf("cancelled task %s after %lld runs\n", id.c_str(), static_cast<long long>(seen));
    }  // the machines stop (each client waits for a run in progress)
    redisson::ExecutorService(admin, demo_job.executor).delete_object();
    redisson::Bucket<std::string>(admin, demo_job.keys + ":task-id", redisson::codecs::string())
        .delete_object();
    runs.delete_object();
    return seen >= 3 ? 0 : 1;
  } catch (const redisson::error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}

// The `redisson-chaos` tool's command line (tests/chaos/main.cpp): every subcommand answers
// --help without starting anything, and refuses an option it does not know or a bad value with
// exit status 64 (EX_USAGE), as `redisson` does. No server is started: a parse that went on to
// a run would outlive the deadline and be killed (SIGKILL, by PID), failing the test.
//
// The binary is built by `make test` (the whole build), not by the ASan and TSan targets: there
// the test skips.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace tools_chaos_cli_test {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

std::string chaos_path() {
  return std::string(REDISSON_BINARY_DIR) + "/tests/chaos/redisson-chaos";
}

struct Outcome {
  int status = -1;  ///< the exit status; -1 when it was killed at the deadline
  std::string output;
};

class ChaosCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(chaos_path())) GTEST_SKIP() << chaos_path() << " is not built here";
    dir_ = fs::temp_directory_path() /
           ("redisson-chaos-cli-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  /// Runs the tool with `args`, stdout and stderr into one file; killed after 20 s.
  Outcome run(const std::vector<std::string>& args) {
    const auto output_path = (dir_ / "output").string();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, output_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<std::string> argv{chaos_path()};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> pointers;
    for (auto& arg : argv) pointers.push_back(arg.data());
    pointers.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, pointers[0], &actions, nullptr, pointers.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
      ADD_FAILURE() << "posix_spawn: " << spawned;
      return {};
    }
    // A watchdog kills it (by PID) at the deadline unless it exited first.
    std::mutex mutex;
    std::condition_variable exited;
    bool done = false;
    bool killed = false;
    std::thread watchdog([&] {
      std::unique_lock lock(mutex);
      if (!exited.wait_for(lock, 20s, [&] { return done; })) {
        killed = true;
        ::kill(pid, SIGKILL);
      }
    });
    int wait_status = 0;
    ::waitpid(pid, &wait_status, 0);
    {
      std::lock_guard lock(mutex);
      done = true;
    }
    exited.notify_one();
    watchdog.join();
    Outcome outcome;
    if (!killed && WIFEXITED(wait_status)) outcome.status = WEXITSTATUS(wait_status);
    std::ifstream in(output_path);
    std::stringstream text;
    text << in.rdbuf();
    outcome.output = text.str();
    return outcome;
  }

  fs::path dir_;
};

TEST_F(ChaosCliTest, EverySubcommandAnswersHelpWithoutStartingAnything) {
  const auto out = (dir_ / "run").string();
  const auto run_help = run({"run", "--out", out, "--help"});
  EXPECT_EQ(run_help.status, 0) << run_help.output;
  for (const char* option : {"--seconds", "--out", "--workers", "--lease-ms", "--seed", "--only"}) {
    EXPECT_NE(run_help.output.find(option), std::string::npos) << option << run_help.output;
  }
  EXPECT_FALSE(fs::exists(out)) << "run --help started a run";

  const auto check_help = run({"check", "--help"});
  EXPECT_EQ(check_help.status, 0) << check_help.output;
  EXPECT_NE(check_help.output.find("--summary"), std::string::npos) << check_help.output;
  const auto worker_help = run({"worker", "--help"});
  EXPECT_EQ(worker_help.status, 0) << worker_help.output;
  EXPECT_NE(worker_help.output.find("--lease-ms"), std::string::npos) << worker_help.output;
  const auto help = run({"--help"});
  EXPECT_EQ(help.status, 0) << help.output;
  for (const char* subcommand : {"run", "check", "worker"}) {
    EXPECT_NE(help.output.find(subcommand), std::string::npos) << subcommand << help.output;
  }
}

TEST_F(ChaosCliTest, UnknownOptionsAndBadValuesAreRefusedWithUsageStatus) {
  const auto out = (dir_ / "run").string();
  const std::vector<std::vector<std::string>> refused = {
      {},
      {"unknown-subcommand"},
      {"run", "--out", out, "--bogus", "1"},
      {"run", "--out", out, "--only", "no-such-configuration"},
      {"run", "--out", out, "--seconds", "-3"},
      {"run", "--out", out, "--workers", "0"},
      {"run", "--out", out, "--lease-ms", "soon"},
      {"check"},
      {"check", "--bogus", (dir_).string()},
      {"check", (dir_ / "missing").string()},
      {"worker", "--bogus", "1"},
      {"worker", "--log", (dir_ / "w.log").string()},  // --kinds, --lease-ms, --seed missing
  };
  for (const auto& args : refused) {
    std::string shown;
    for (const auto& arg : args) shown += " " + arg;
    const auto outcome = run(args);
    EXPECT_EQ(outcome.status, 64) << "redisson-chaos" << shown << ": " << outcome.output;
    EXPECT_FALSE(outcome.output.empty()) << "redisson-chaos" << shown << " said nothing";
  }
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(dir_ / "w.log"));
}

}  // namespace
}  // namespace tools_chaos_cli_test

// The `redisson` command-line tool (tools/redisson), run as a separate process against a
// throwaway redis-server: exit statuses, the lock held around CMD, signal relaying, lock loss,
// inspect and the demo.
//
// Every run of the tool is bounded: the test kills it (SIGKILL, by PID) when it outlives its
// deadline, and the kernel kills it if the test process dies (PR_SET_PDEATHSIG).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/eventually.hpp"
#include "support/java_fixtures.hpp"
#include "support/redis_server.hpp"

extern char** environ;

namespace tools_redisson_cli_test {

using namespace std::chrono_literals;
using redisson::test::eventually;
using redisson::test::RedisServer;
using redisson::test::RedisServerOptions;

namespace {

constexpr const char* kForeignOwner = "11111111-2222-3333-4444-555555555555:1";

std::string tool_path() { return std::string(REDISSON_BINARY_DIR) + "/tools/redisson/redisson"; }

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool file_exists(const std::string& path) { return std::filesystem::exists(path); }

// One run of the tool in the background; stdout and stderr go to files.
class ToolProcess {
 public:
  ToolProcess(const std::vector<std::string>& args, const std::string& dir,
              const std::vector<std::string>& extra_env)
      : out_path_(dir + "/out." + std::to_string(++count_)),
        err_path_(dir + "/err." + std::to_string(count_)) {
    const std::string path = tool_path();
    std::vector<std::string> argv{path};
    argv.insert(argv.end(), args.begin(), args.end());
    // The environment is built before fork: the child only makes async-signal-safe calls.
    std::vector<std::string> env;
    for (char** entry = environ; *entry != nullptr; ++entry) {
      const std::string_view var(*entry);
      if (!var.starts_with("REDISSON_URL=") && !var.starts_with("REDIS_URL="))
        env.emplace_back(var);
    }
    env.insert(env.end(), extra_env.begin(), extra_env.end());
    std::vector<char*> argv_ptrs;
    for (auto& arg : argv) argv_ptrs.push_back(arg.data());
    argv_ptrs.push_back(nullptr);
    std::vector<char*> env_ptrs;
    for (auto& var : env) env_ptrs.push_back(var.data());
    env_ptrs.push_back(nullptr);

    pid_ = ::fork();
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      const int in = ::open("/dev/null", O_RDONLY);
      const int out = ::open(out_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err = ::open(err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (in < 0 || out < 0 || err < 0) ::_exit(126);
      ::dup2(in, 0);
      ::dup2(out, 1);
      ::dup2(err, 2);
      ::execve(path.c_str(), argv_ptrs.data(), env_ptrs.data());
      ::_exit(127);
    }
  }
  ~ToolProcess() {
    if (pid_ > 0 && !status_) {
      ::kill(pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
  }
  ToolProcess(const ToolProcess&) = delete;
  ToolProcess& operator=(const ToolProcess&) = delete;

  pid_t pid() const { return pid_; }

  /// The shell status (exit code, or 128 + signal) once it ended within `deadline`.
  std::optional<int> wait(std::chrono::milliseconds deadline) {
    eventually(
        [&] {
          if (status_) return true;
          int status = 0;
          if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
          }
          return status_.has_value();
        },
        deadline);
    return status_;
  }

  std::string out() const { return read_file(out_path_); }
  std::string err() const { return read_file(err_path_); }

 private:
  static inline int count_ = 0;
  std::string out_path_;
  std::string err_path_;
  pid_t pid_ = -1;
  std::optional<int> status_;
};

struct Result {
  int status = -1;  ///< -1: did not finish in time (then it was killed)
  std::string out;
  std::string err;
};

std::ostream& operator<<(std::ostream& os, const Result& result) {
  return os << "status " << result.status << "\n--- stdout:\n"
            << result.out << "--- stderr:\n"
            << result.err;
}

class RedissonCli : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(::access(tool_path().c_str(), X_OK), 0)
        << tool_path() << " is missing: build the redisson_cli target";
    std::string pattern = (std::filesystem::temp_directory_path() / "redisson-cli-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  std::string path(const std::string& name) const { return dir_ + "/" + name; }

  /// Starts the tool with --url of the test's server in front of `args`.
  std::unique_ptr<ToolProcess> start(const std::vector<std::string>& args,
                                     const std::vector<std::string>& env = {}) {
    std::vector<std::string> all{"--url", server_.url()};
    all.insert(all.end(), args.begin(), args.end());
    return start_raw(all, env);
  }
  std::unique_ptr<ToolProcess> start_raw(const std::vector<std::string>& args,
                                         const std::vector<std::string>& env = {}) {
    return std::make_unique<ToolProcess>(args, dir_, env);
  }

  static Result finish(ToolProcess& process, std::chrono::milliseconds deadline = 30s) {
    Result result;
    result.status = process.wait(deadline).value_or(-1);
    result.out = process.out();
    result.err = process.err();
    return result;
  }

  Result run(const std::vector<std::string>& args) { return finish(*start(args)); }
  Result run_raw(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
    return finish(*start_raw(args, env));
  }

  /// A lock in Redisson's layout held by someone else (a Java client's thread, say).
  void hold_as_foreign_owner(const std::string& name, int count, int lease_ms) {
    ASSERT_EQ(server_.command({"HSET", name, kForeignOwner, std::to_string(count)}), "1");
    ASSERT_EQ(server_.command({"PEXPIRE", name, std::to_string(lease_ms)}), "1");
  }

  RedisServer server_;
  std::string dir_;
};

TEST_F(RedissonCli, LockPassesOnTheCommandsExitStatusAndReleases) {
  const auto result = run({"lock", "job", "--", "sh", "-c", "exit 3"});
  EXPECT_EQ(result.status, 3) << result;
  EXPECT_EQ(server_.command({"EXISTS", "job"}), "0");
}

TEST_F(RedissonCli, LockReportsACommandKilledBySignalAs128PlusTheSignal) {
  const auto result = run({"lock", "job", "--", "sh", "-c", "kill -KILL $$"});
  EXPECT_EQ(result.status, 128 + SIGKILL) << result;
  EXPECT_EQ(server_.command({"EXISTS", "job"}), "0");
}

TEST_F(RedissonCli, LockIsHeldOnceWhileTheCommandRunsAndReleasedAfter) {
  const std::string script =
      "touch '" + path("started") + "'; while [ ! -e '" + path("go") + "' ]; do sleep 0.01; done";
  auto tool = start({"lock", "job", "--", "sh", "-c", script});
  ASSERT_TRUE(eventually([&] { return file_exists(path("started")); })) << tool->err();

  // One field "<client-id>:<pid of the tool>" with hold count 1, and a lease.
  const auto fields = server_.command({"HGETALL", "job"});
  const std::regex layout("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:" +
                          std::to_string(tool->pid()) + "\n1");
  EXPECT_TRUE(std::regex_match(fields, layout)) << fields;
  EXPECT_GT(std::stoll(server_.command({"PTTL", "job"})), 0);

  std::ofstream(path("go")).close();
  const auto result = finish(*tool);
  EXPECT_EQ(result.status, 0) << result;
  EXPECT_EQ(server_.command({"EXISTS", "job"}), "0");
}

TEST_F(RedissonCli, LockWithWaitZeroWhileHeldExits75AndDoesNotRunTheCommand) {
  hold_as_foreign_owner("job", 1, 30000);
  const auto result = run({"lock", "job", "--wait", "0", "--", "touch", path("ran")});
  EXPECT_EQ(result.status, 75) << result;
  EXPECT_NE(result.err.find("redisson: lock job not acquired within"), std::string::npos) << result;
  EXPECT_FALSE(file_exists(path("ran")));
  EXPECT_EQ(server_.command({"HGET", "job", kForeignOwner}), "1");
}

TEST_F(RedissonCli, LockWaitsUntilTheHoldersLeaseEndsThenRunsTheCommand) {
  hold_as_foreign_owner("job", 1, 200);
  const auto result = run({"lock", "job", "--wait", "20s", "--", "touch", path("ran")});
  EXPECT_EQ(result.status, 0) << result;
  EXPECT_TRUE(file_exists(path("ran")));
  EXPECT_EQ(server_.command({"EXISTS", "job"}), "0");
}

TEST_F(RedissonCli, SigtermToTheToolIsRelayedToTheCommand) {
  const std::string script = "trap \"touch '" + path("got-term") + "'; exit 7\" TERM; touch '" +
                             path("started") + "'; while :; do sleep 0.01; done";
  auto tool = start({"lock", "job", "--", "sh", "-c", script});
  ASSERT_TRUE(eventually([&] { return file_exists(path("started")); })) << tool->err();
  ASSERT_EQ(::kill(tool->pid(), SIGTERM), 0);
  const auto result = finish(*tool);
  EXPECT_TRUE(result.status == 7 || result.status == 128 + SIGTERM) << result;
  EXPECT_TRUE(file_exists(path("got-term")));
  EXPECT_EQ(server_.command({"EXISTS", "job"}), "0");
}

TEST_F(RedissonCli, LosingTheLockTerminatesTheCommandAndExits76) {
  const std::string script = "echo $$ > '" + path("pid") + "'; exec sleep 30";
  auto tool = start({"--watchdog-timeout", "600ms", "lock", "job", "--", "sh", "-c", script});
  ASSERT_TRUE(eventually([&] {
    return !read_file(path("pid")).empty() && server_.command({"EXISTS", "job"}) == "1";
  })) << tool->err();
  const pid_t command = std::stoi(read_file(path("pid")));

  ASSERT_EQ(server_.command({"DEL", "job"}), "1");  // someone force-deleted it
  const auto result = finish(*tool, 10s);
  EXPECT_EQ(result.status, 76) << result;
  EXPECT_NE(result.err.find("lost"), std::string::npos) << result;
  // The tool reaped its child: the sleep is gone (not merely orphaned).
  EXPECT_EQ(::kill(command, 0), -1);
  EXPECT_EQ(errno, ESRCH);
}

TEST_F(RedissonCli, AnExpiredFixedLeaseIsOnlyAWarning) {
  const std::string script = "while [ ! -e '" + path("go") + "' ]; do sleep 0.01; done";
  auto tool = start({"lock", "job", "--lease", "300ms", "--", "sh", "-c", script});
  ASSERT_TRUE(eventually([&] { return server_.command({"EXISTS", "job"}) == "1"; }));
  ASSERT_TRUE(eventually([&] { return server_.command({"EXISTS", "job"}) == "0"; }));
  std::ofstream(path("go")).close();
  const auto result = finish(*tool);
  EXPECT_EQ(result.status, 0) << result;
  EXPECT_NE(result.err.find("warning"), std::string::npos) << result;
}

TEST_F(RedissonCli, ACommandThatDoesNotExistExits127AndReleases) {
  const auto result = run({"lock", "job", "--", "no-such-command-for-redisson-tests"});
  EXPECT_EQ(result.status, 127) << result;
  EXPECT_NE(result.err.find("command not found"), std::string::npos) << result;
  EXPECT_EQ(server_.command({"EXISTS", "job"}), "0");
}

TEST_F(RedissonCli, InspectShowsTheHolderOfARedissonLockAndItsLease) {
  hold_as_foreign_owner("java-lock", 2, 60000);
  const auto text = run({"inspect", "java-lock"});
  EXPECT_EQ(text.status, 0) << text;
  EXPECT_NE(text.out.find("Redisson lock"), std::string::npos) << text;
  EXPECT_NE(text.out.find(std::string(kForeignOwner) + "  hold count 2"), std::string::npos)
      << text;
  EXPECT_NE(text.out.find("remaining lease: "), std::string::npos) << text;

  const auto json = run({"inspect", "java-lock", "--json"});
  EXPECT_EQ(json.status, 0) << json;
  EXPECT_NE(json.out.find("\"kind\":\"lock\""), std::string::npos) << json;
  EXPECT_NE(json.out.find("\"owner\":\"" + std::string(kForeignOwner) + "\""), std::string::npos)
      << json;
  EXPECT_NE(json.out.find("\"owner_id\":\"1\""), std::string::npos) << json;
  EXPECT_NE(json.out.find("\"hold_count\":2"), std::string::npos) << json;
  const std::regex ttl("[\\s\\S]*\"ttl_ms\":([0-9]+)[\\s\\S]*");
  std::smatch match;
  ASSERT_TRUE(std::regex_match(json.out, match, ttl)) << json;
  EXPECT_GT(std::stoll(match[1]), 0);
  EXPECT_LE(std::stoll(match[1]), 60000);
}

TEST_F(RedissonCli, InspectOfAMissingKeyExits1) {
  const auto text = run({"inspect", "nothing-here"});
  EXPECT_EQ(text.status, 1) << text;
  EXPECT_NE(text.out.find("nothing-here: no such key"), std::string::npos) << text;
  const auto json = run({"inspect", "nothing-here", "--json"});
  EXPECT_EQ(json.status, 1) << json;
  EXPECT_NE(json.out.find("\"exists\":false"), std::string::npos) << json;
}

TEST_F(RedissonCli, InspectShowsABucketsValueAndSummarisesOtherKeys) {
  server_.command({"SET", "greeting", "hello"});
  server_.command({"HSET", "profile", "name", "ada", "lang", "c++"});
  const auto string_key = run({"inspect", "greeting"});
  EXPECT_EQ(string_key.status, 0) << string_key;
  EXPECT_NE(string_key.out.find("Redisson bucket (string), 5 bytes: \"hello\""), std::string::npos)
      << string_key;
  const auto hash_key = run({"inspect", "profile"});
  EXPECT_EQ(hash_key.status, 0) << hash_key;
  EXPECT_NE(hash_key.out.find("hash (string), 2 fields"), std::string::npos) << hash_key;
  EXPECT_NE(hash_key.out.find("first: [[\"name\",\"ada\"],[\"lang\",\"c++\"]]"), std::string::npos)
      << hash_key;
}

TEST_F(RedissonCli, ThePasswordIsNeverPrinted) {
  RedisServer secured(RedisServerOptions{{"--requirepass", "pw-for-cli-test"}, 600s});
  const auto good_url = "redis://:pw-for-cli-test@127.0.0.1:" + std::to_string(secured.port());
  const auto found = run_raw({"--url", good_url, "inspect", "missing"});
  EXPECT_EQ(found.status, 1) << found;
  const auto wrong_url =
      "redis://:wrong-pw-for-cli-test@127.0.0.1:" + std::to_string(secured.port());
  const auto refused = run_raw({"--url", wrong_url, "inspect", "missing"});
  EXPECT_EQ(refused.status, 69) << refused;
  const auto unreachable = run_raw(
      {"--url", "redis://:pw-for-cli-test@127.0.0.1:" + std::to_string(redisson::test::free_port()),
       "lock", "job", "--", "true"});
  EXPECT_EQ(unreachable.status, 69) << unreachable;
  for (const auto* result : {&found, &refused, &unreachable}) {
    EXPECT_EQ(result->out.find("pw-for-cli-test"), std::string::npos) << *result;
    EXPECT_EQ(result->err.find("pw-for-cli-test"), std::string::npos) << *result;
  }
}

TEST_F(RedissonCli, TheUrlComesFromTheEnvironmentWithoutUrl) {
  server_.command({"SET", "from-env", "x"});
  const auto result = run_raw({"inspect", "from-env"}, {"REDISSON_URL=" + server_.url()});
  EXPECT_EQ(result.status, 0) << result;
  const auto fallback = run_raw({"inspect", "from-env"}, {"REDIS_URL=" + server_.url()});
  EXPECT_EQ(fallback.status, 0) << fallback;
}

TEST_F(RedissonCli, BadDurationsAndUsageErrorsExit64) {
  for (const auto& wait : {"10x", "-1s", "soon", "5"}) {
    const auto result = run({"lock", "job", "--wait", wait, "--", "true"});
    EXPECT_EQ(result.status, 64) << wait << "\n" << result;
    EXPECT_NE(result.err.find("invalid duration"), std::string::npos) << result;
  }
  EXPECT_EQ(run({"--watchdog-timeout", "later", "lock", "job", "--", "true"}).status, 64);
  EXPECT_EQ(run({"lock", "job"}).status, 64);  // no CMD
  EXPECT_EQ(run_raw({"--url", "http://127.0.0.1", "inspect", "job"}).status, 64);
  EXPECT_EQ(server_.command({"EXISTS", "job"}), "0");
}

TEST_F(RedissonCli, AnUnreachableServerExits69) {
  const auto url = "redis://127.0.0.1:" + std::to_string(redisson::test::free_port());
  const auto result = run_raw({"--url", url, "lock", "job", "--", "touch", path("ran")});
  EXPECT_EQ(result.status, 69) << result;
  EXPECT_NE(result.err.find("cannot connect"), std::string::npos) << result;
  EXPECT_FALSE(file_exists(path("ran")));
}

TEST_F(RedissonCli, HelpDocumentsTheExitStatuses) {
  const auto result = run_raw({"lock", "--help"});
  EXPECT_EQ(result.status, 0) << result;
  for (const auto* status : {"75", "76", "64", "69", "127"}) {
    EXPECT_NE(result.out.find(status), std::string::npos) << status << "\n" << result;
  }
}

TEST_F(RedissonCli, DemoLosesUpdatesWithoutTheLockAndCountsExactlyWithIt) {
  auto tool = start({"demo", "--workers", "3", "--increments", "50"});
  const auto result = finish(*tool, 60s);
  EXPECT_EQ(result.status, 0) << result;
  EXPECT_NE(result.out.find("Round 1"), std::string::npos) << result;
  EXPECT_TRUE(
      std::regex_search(result.out, std::regex("expected 150, got [0-9]+: [0-9]+ updates? lost")))
      << result;
  EXPECT_NE(result.out.find("expected 150, got 150: exact"), std::string::npos) << result;
  EXPECT_NE(result.out.find("Try it yourself: redisson lock"), std::string::npos) << result;
  EXPECT_EQ(server_.command({"GET", "demo:counter:locked"}), "150");
}

}  // namespace

// ---- lock kinds, semaphore, latch, inspect of every layout ---------------------------------

// A script that marks `started`, then waits (bounded by the test's deadline) for `go`.
std::string hold_until(const std::string& started, const std::string& go) {
  return "touch '" + started + "'; while [ ! -e '" + go + "' ]; do sleep 0.01; done";
}

TEST_F(RedissonCli, LockKindOptionsAreMutuallyExclusive) {
  const auto result = run({"lock", "job", "--fair", "--fenced", "--", "true"});
  EXPECT_EQ(result.status, 64) << result;
  EXPECT_EQ(run({"lock", "job", "--read", "--write", "--", "true"}).status, 64);
}

TEST_F(RedissonCli, FairLockAcquiresAndReleases) {
  auto tool = start({"lock", "job", "--fair", "--", "sh", "-c", hold_until(path("s"), path("go"))});
  ASSERT_TRUE(eventually([&] { return file_exists(path("s")); })) << tool->err();
  EXPECT_EQ(server_.command({"HLEN", "job"}), "1");
  const auto second = run({"lock", "job", "--fair", "--wait", "0", "--", "true"});
  EXPECT_EQ(second.status, 75) << second;
  std::ofstream(path("go")).close();
  const auto result = finish(*tool);
  EXPECT_EQ(result.status, 0) << result;
  EXPECT_EQ(server_.command({"EXISTS", "job"}), "0");
  EXPECT_EQ(run({"lock", "job", "--fair", "--wait", "0", "--", "true"}).status, 0);
}

TEST_F(RedissonCli, FencedLockPassesAnIncreasingTokenToTheCommand) {
  const auto first = run({"lock", "job", "--fenced", "--", "sh", "-c",
                          "echo \"$REDISSON_FENCING_TOKEN\" > '" + path("t1") + "'"});
  ASSERT_EQ(first.status, 0) << first;
  const auto second = run({"lock", "job", "--fenced", "--", "sh", "-c",
                           "echo \"$REDISSON_FENCING_TOKEN\" > '" + path("t2") + "'"});
  ASSERT_EQ(second.status, 0) << second;
  const auto t1 = read_file(path("t1"));
  const auto t2 = read_file(path("t2"));
  ASSERT_FALSE(t1.empty() || t1 == "\n") << t1;
  ASSERT_FALSE(t2.empty() || t2 == "\n") << t2;
  EXPECT_GT(std::stoll(t2), std::stoll(t1));
  EXPECT_EQ(server_.command({"EXISTS", "job"}), "0");
  // inspect names the counter for what it is.
  const auto shown = run({"inspect", "redisson_lock_token:{job}"});
  EXPECT_EQ(shown.status, 0) << shown;
  EXPECT_NE(shown.out.find("fenced lock's token counter"), std::string::npos) << shown;
}

TEST_F(RedissonCli, ReadLocksAreSharedAndExcludeTheWriter) {
  auto reader =
      start({"lock", "job", "--read", "--", "sh", "-c", hold_until(path("s"), path("go"))});
  ASSERT_TRUE(eventually([&] { return file_exists(path("s")); })) << reader->err();
  const auto second = run({"lock", "job", "--read", "--wait", "0", "--", "touch", path("r2")});
  EXPECT_EQ(second.status, 0) << second;
  EXPECT_TRUE(file_exists(path("r2")));
  const auto writer = run({"lock", "job", "--write", "--wait", "0", "--", "touch", path("w")});
  EXPECT_EQ(writer.status, 75) << writer;
  EXPECT_FALSE(file_exists(path("w")));

  const auto inspect = run({"inspect", "job"});
  EXPECT_EQ(inspect.status, 0) << inspect;
  EXPECT_NE(inspect.out.find("read-write lock, mode read"), std::string::npos) << inspect;
  EXPECT_NE(inspect.out.find("(read)"), std::string::npos) << inspect;

  std::ofstream(path("go")).close();
  EXPECT_EQ(finish(*reader).status, 0);
  EXPECT_EQ(server_.command({"EXISTS", "job"}), "0");
  EXPECT_EQ(run({"lock", "job", "--write", "--wait", "0", "--", "true"}).status, 0);
}

TEST_F(RedissonCli, SemaphoreHoldsItsPermitsWhileTheCommandRuns) {
  auto holder = start(
      {"semaphore", "pool", "--permits", "1", "--", "sh", "-c", hold_until(path("s"), path("go"))});
  ASSERT_TRUE(eventually([&] { return file_exists(path("s")); })) << holder->err();
  EXPECT_EQ(server_.command({"GET", "pool"}), "0");
  const auto second =
      run({"semaphore", "pool", "--permits", "1", "--wait", "0", "--", "touch", path("ran")});
  EXPECT_EQ(second.status, 75) << second;
  EXPECT_FALSE(file_exists(path("ran")));

  const auto inspect = run({"inspect", "pool"});
  EXPECT_NE(inspect.out.find("integer value 0"), std::string::npos) << inspect;

  std::ofstream(path("go")).close();
  EXPECT_EQ(finish(*holder).status, 0);
  EXPECT_EQ(server_.command({"GET", "pool"}), "1");
  EXPECT_EQ(run({"semaphore", "pool", "--wait", "0", "--", "true"}).status, 0);
}

TEST_F(RedissonCli, ExpirableSemaphorePermitIsShownByInspect) {
  auto holder = start({"semaphore", "pool", "--permits", "2", "--lease", "30s", "--", "sh", "-c",
                       hold_until(path("s"), path("go"))});
  ASSERT_TRUE(eventually([&] { return file_exists(path("s")); })) << holder->err();
  const auto inspect = run({"inspect", "pool"});
  EXPECT_EQ(inspect.status, 0) << inspect;
  EXPECT_NE(inspect.out.find("integer value 1"), std::string::npos) << inspect;
  EXPECT_NE(inspect.out.find("permit "), std::string::npos) << inspect;
  EXPECT_NE(inspect.out.find("expires in "), std::string::npos) << inspect;
  std::ofstream(path("go")).close();
  EXPECT_EQ(finish(*holder).status, 0);
  EXPECT_EQ(server_.command({"GET", "pool"}), "2");
}

TEST_F(RedissonCli, LatchAwaitReturnsOnceCountedDown) {
  ASSERT_EQ(run({"latch", "gate", "set", "1"}).status, 0);
  EXPECT_EQ(run({"latch", "gate", "set", "1"}).status, 1);
  auto waiter = start({"latch", "gate", "await", "--timeout", "20s"});
  const auto counted = run({"latch", "gate", "count-down"});
  EXPECT_EQ(counted.status, 0) << counted;
  const auto result = finish(*waiter);
  EXPECT_EQ(result.status, 0) << result;
}

TEST_F(RedissonCli, LatchAwaitTimesOutWith75) {
  ASSERT_EQ(run({"latch", "gate", "set", "2"}).status, 0);
  const auto result = run({"latch", "gate", "await", "--timeout", "200ms"});
  EXPECT_EQ(result.status, 75) << result;
  EXPECT_EQ(run({"latch", "gate", "await", "--timeout", "x"}).status, 64);
}

TEST_F(RedissonCli, InspectShowsTheFairQueueAndFencingToken) {
  hold_as_foreign_owner("job", 1, 30000);
  ASSERT_EQ(server_.command({"RPUSH", "redisson_lock_queue:{job}", "abc:7"}), "1");
  ASSERT_EQ(server_.command({"ZADD", "redisson_lock_timeout:{job}", "99999999999999", "abc:7"}),
            "1");
  ASSERT_EQ(server_.command({"SET", "redisson_lock_token:{job}", "5"}), "OK");
  const auto result = run({"inspect", "job"});
  EXPECT_EQ(result.status, 0) << result;
  EXPECT_NE(result.out.find("1 owner waiting (fair lock queue)"), std::string::npos) << result;
  EXPECT_NE(result.out.find("#1 abc:7"), std::string::npos) << result;
  EXPECT_NE(result.out.find("slot times out in"), std::string::npos) << result;
  EXPECT_NE(result.out.find("fencing token counter 5"), std::string::npos) << result;
  const auto json = run({"inspect", "--json", "job"});
  EXPECT_NE(json.out.find("\"fair_queue\":[{\"owner\":\"abc:7\",\"position\":1"), std::string::npos)
      << json;
}

TEST_F(RedissonCli, InspectShowsAWaiterQueuedOnAFairLock) {
  auto holder =
      start({"lock", "job", "--fair", "--", "sh", "-c", hold_until(path("s"), path("go"))});
  ASSERT_TRUE(eventually([&] { return file_exists(path("s")); })) << holder->err();
  auto waiter = start({"lock", "job", "--fair", "--wait", "20s", "--", "touch", path("ran")});
  ASSERT_TRUE(eventually([&] {
    return server_.command({"LLEN", "redisson_lock_queue:{job}"}) == "1";
  })) << waiter->err();
  const auto inspect = run({"inspect", "job"});
  EXPECT_NE(inspect.out.find("1 owner waiting (fair lock queue)"), std::string::npos) << inspect;
  EXPECT_NE(inspect.out.find(":" + std::to_string(waiter->pid()) + "  slot times out in"),
            std::string::npos)
      << inspect;
  std::ofstream(path("go")).close();
  EXPECT_EQ(finish(*holder).status, 0);
  const auto second = finish(*waiter);
  EXPECT_EQ(second.status, 0) << second;
  EXPECT_TRUE(file_exists(path("ran")));
}

TEST_F(RedissonCli, SemaphoreAcquiresSeveralPermitsAndRejectsBadCounts) {
  const auto result =
      run({"semaphore", "pool", "--permits", "3", "--acquire", "2", "--", "sh", "-c", "exit 4"});
  EXPECT_EQ(result.status, 4) << result;
  EXPECT_EQ(server_.command({"GET", "pool"}), "3");
  EXPECT_EQ(run({"semaphore", "pool", "--acquire", "4", "--wait", "0", "--", "true"}).status, 75);
  EXPECT_EQ(run({"semaphore", "pool", "--acquire", "0", "--", "true"}).status, 64);
  EXPECT_EQ(run({"semaphore", "pool", "--acquire", "2", "--lease", "1s", "--", "true"}).status, 64);
}

TEST_F(RedissonCli, ConfigFileNamesTheServerAndUrlOverridesIt) {
  const auto dead = "redis://127.0.0.1:" + std::to_string(redisson::test::free_port());
  std::ofstream(path("redisson.yml")) << "singleServerConfig:\n  address: \"" << server_.url()
                                      << "\"\n  connectionPoolSize: 64\nnettyThreads: 32\n";
  // The file's server is used; the environment is not read when --config is given.
  const auto from_file = run_raw({"--config", path("redisson.yml"), "lock", "job", "--", "true"},
                                 {"REDISSON_URL=" + dead});
  EXPECT_EQ(from_file.status, 0) << from_file;

  std::ofstream(path("dead.yml")) << "singleServerConfig:\n  address: \"" << dead << "\"\n";
  const auto overridden =
      run_raw({"--config", path("dead.yml"), "--url", server_.url(), "lock", "job", "--", "true"});
  EXPECT_EQ(overridden.status, 0) << overridden;
  const auto unreachable = run_raw({"--config", path("dead.yml"), "lock", "job", "--", "true"});
  EXPECT_EQ(unreachable.status, 69) << unreachable;
}

TEST_F(RedissonCli, ABadConfigFileIsAUsageErrorNamingTheKey) {
  std::ofstream(path("typo.yml")) << "singleServerConfig:\n  adress: \"redis://127.0.0.1:1\"\n";
  const auto typo = run_raw({"--config", path("typo.yml"), "inspect", "job"});
  EXPECT_EQ(typo.status, 64) << typo;
  EXPECT_NE(typo.err.find("singleServerConfig.adress"), std::string::npos) << typo;

  std::ofstream(path("cluster.yml"))
      << "clusterServersConfig:\n  nodeAddresses: [\"" << server_.url() << "\"]\n";
  const auto both =
      run_raw({"--config", path("cluster.yml"), "--url", server_.url(), "inspect", "job"});
  EXPECT_EQ(both.status, 64) << both;
  const auto missing = run_raw({"--config", path("nope.yml"), "inspect", "job"});
  EXPECT_EQ(missing.status, 64) << missing;
  EXPECT_NE(missing.err.find("nope.yml"), std::string::npos) << missing;
}

TEST_F(RedissonCli, BucketSetThenGetRoundTripsThroughTheCodec) {
  EXPECT_EQ(run({"bucket", "set", "greeting", "héllo", "--codec", "string"}).status, 0);
  EXPECT_EQ(server_.command({"GET", "greeting"}), "héllo");
  const auto text = run({"bucket", "get", "greeting", "--codec", "string"});
  EXPECT_EQ(text.status, 0) << text;
  EXPECT_EQ(text.out, "héllo\n") << text;

  EXPECT_EQ(
      run({"bucket", "set", "n", "42", "--type", "long", "--codec", "long", "--ttl", "1h"}).status,
      0);
  EXPECT_EQ(server_.command({"GET", "n"}), "42");
  EXPECT_GT(std::stoll(server_.command({"PTTL", "n"})), 0);
  EXPECT_EQ(run({"bucket", "get", "n", "--codec", "long"}).out, "42\n");
}

TEST_F(RedissonCli, BucketGetOfAMissingBucketExits1AndUnreadableBytesExit65) {
  const auto missing = run({"bucket", "get", "nothing", "--codec", "string"});
  EXPECT_EQ(missing.status, 1) << missing;
  EXPECT_NE(missing.err.find("no bucket 'nothing'"), std::string::npos) << missing;
  server_.command({"SET", "text", "not a number"});
  const auto unreadable = run({"bucket", "get", "text", "--codec", "long"});
  EXPECT_EQ(unreadable.status, 65) << unreadable;
  EXPECT_NE(unreadable.err.find("not a Long"), std::string::npos) << unreadable;
}

TEST_F(RedissonCli, BucketUsageErrorsExit64AndWriteNothing) {
  EXPECT_EQ(run({"bucket", "set", "b", "x", "--codec", "snappy"}).status, 64);
  EXPECT_EQ(run({"bucket", "set", "b", "x", "--type", "long"}).status, 64);
  EXPECT_EQ(run({"bucket", "set", "b", "{", "--type", "json"}).status, 64);
  EXPECT_EQ(run({"bucket", "set", "b", "x", "--ttl", "-1s"}).status, 64);
  EXPECT_EQ(server_.command({"EXISTS", "b"}), "0");
}

TEST_F(RedissonCli, RateLimitSetsTheRateTakesAPermitAndPassesOnTheStatus) {
  const auto result = run({"rate-limit", "api", "--rate", "2/1h", "--", "sh", "-c", "exit 3"});
  EXPECT_EQ(result.status, 3) << result;
  EXPECT_EQ(server_.command({"HGETALL", "api"}),
            "rate\n2\ninterval\n3600000\nkeepAliveTime\n0\ntype\n0");
  EXPECT_EQ(server_.command({"GET", "{api}:value"}), "1");
  EXPECT_EQ(server_.command({"ZCARD", "{api}:permits"}), "1");
}

TEST_F(RedissonCli, RateLimitWithWaitZeroWhenSpentExits75AndDoesNotRunTheCommand) {
  EXPECT_EQ(run({"rate-limit", "api", "--rate", "2/1h", "--", "true"}).status, 0);
  EXPECT_EQ(run({"rate-limit", "api", "--rate", "2/1h", "--wait", "0", "--", "true"}).status, 0);
  const auto result =
      run({"rate-limit", "api", "--rate", "2/1h", "--wait", "0", "--", "touch", path("ran")});
  EXPECT_EQ(result.status, 75) << result;
  EXPECT_NE(result.err.find("redisson: a permit of rate limiter api not acquired within"),
            std::string::npos)
      << result;
  EXPECT_FALSE(file_exists(path("ran")));
  EXPECT_EQ(server_.command({"GET", "{api}:value"}), "0");
}

TEST_F(RedissonCli, RateLimitWaitsUntilTheWindowFreesThenRunsTheCommand) {
  EXPECT_EQ(run({"rate-limit", "api", "--rate", "1/300ms", "--", "true"}).status, 0);
  const auto result =
      run({"rate-limit", "api", "--rate", "1/300ms", "--wait", "20s", "--", "touch", path("ran")});
  EXPECT_EQ(result.status, 0) << result;
  EXPECT_TRUE(file_exists(path("ran")));
  const auto forever = run({"rate-limit", "api", "--rate", "1/300ms", "--", "true"});
  EXPECT_EQ(forever.status, 0) << forever;
}

TEST_F(RedissonCli, RateLimitKeepsAnExistingOtherRateAndSaysSo) {
  ASSERT_EQ(run({"rate-limit", "api", "--rate", "5/1h", "--", "true"}).status, 0);
  const auto result = run({"rate-limit", "api", "--rate", "10/1m", "--per-client", "--", "true"});
  EXPECT_EQ(result.status, 0) << result;
  EXPECT_NE(result.err.find("rate limiter api already has the rate 5/1h; using it"),
            std::string::npos)
      << result;
  EXPECT_EQ(server_.command({"HGET", "api", "rate"}), "5");
  EXPECT_EQ(server_.command({"GET", "{api}:value"}), "3");
  // The same rate again: nothing to say.
  const auto same = run({"rate-limit", "api", "--rate", "5/1h", "--", "true"});
  EXPECT_EQ(same.status, 0) << same;
  EXPECT_EQ(same.err, "") << same;
}

TEST_F(RedissonCli, RateLimitPerClientSetsThatType) {
  const auto result = run({"rate-limit", "mine", "--rate", "3/1s", "--per-client", "--", "true"});
  EXPECT_EQ(result.status, 0) << result;
  EXPECT_EQ(server_.command({"HGET", "mine", "type"}), "1");
  EXPECT_EQ(server_.command({"EXISTS", "{mine}:value"}), "0");  // the client's own keys instead
}

TEST_F(RedissonCli, RateLimitBadRatesAreUsageErrors) {
  for (const std::string rate : {"10", "x/1s", "0/1s", "-1/1s", "5/0", "5/abc", "5/"}) {
    const auto result = run({"rate-limit", "api", "--rate", rate, "--", "touch", path("ran")});
    EXPECT_EQ(result.status, 64) << rate << ": " << result;
  }
  EXPECT_EQ(run({"rate-limit", "api", "--", "true"}).status, 64);  // --rate is required
  EXPECT_EQ(run({"rate-limit", "api", "--rate", "1/1s", "--wait", "-1s", "--", "true"}).status, 64);
  EXPECT_FALSE(file_exists(path("ran")));
  EXPECT_EQ(server_.command({"EXISTS", "api"}), "0");
}

TEST_F(RedissonCli, RateLimitOnAKeyOfAnotherTypeExits1) {
  server_.command({"SET", "api", "x"});
  const auto result = run({"rate-limit", "api", "--rate", "1/1s", "--", "touch", path("ran")});
  EXPECT_EQ(result.status, 1) << result;
  EXPECT_FALSE(file_exists(path("ran")));
}

TEST_F(RedissonCli, BucketGetReadsWhatJavaRedissonStoredWithItsDefaultCodec) {
  redisson::test::load_java_fixtures(server_);
  EXPECT_EQ(run({"bucket", "get", "fx:kryo_str_hello"}).out, "hello\n");
  EXPECT_EQ(run({"bucket", "get", "fx:kryo_long_1700000000000"}).out, "1700000000000\n");
  EXPECT_EQ(run({"bucket", "get", "fx:kryo_list_mixed"}).out, "[\"a\",1]\n");
  EXPECT_EQ(run({"bucket", "get", "fx:kryo_map_str_long"}).out, "{\"n\":7}\n");
  EXPECT_EQ(run({"bucket", "get", "fx:json_map_str_long", "--codec", "json"}).out, "{\"n\":7}\n");
  // And the other way: what `bucket set` stores is the bytes Java writes.
  EXPECT_EQ(run({"bucket", "set", "mine", "hello"}).status, 0);
  EXPECT_EQ(server_.command({"GET", "mine"}), server_.command({"GET", "fx:kryo_str_hello"}));
  EXPECT_EQ(run({"bucket", "set", "n", "{\"n\":7}", "--type", "json"}).status, 0);
  EXPECT_EQ(server_.command({"GET", "n"}), server_.command({"GET", "fx:kryo_map_str_long"}));
}

TEST_F(RedissonCli, MapPutGetRemoveOneEntry) {
  EXPECT_EQ(run({"map", "put", "users", "name", "Ada", "--codec", "string"}).out, "");
  EXPECT_EQ(server_.command({"HGET", "users", "name"}), "Ada");
  EXPECT_EQ(run({"map", "put", "users", "name", "Grace", "--codec", "string"}).out, "Ada\n");
  EXPECT_EQ(run({"map", "get", "users", "name", "--codec", "string"}).out, "Grace\n");
  EXPECT_EQ(
      run({"map", "put", "c", "7", "42", "--key-type", "long", "--type", "long", "--codec", "long"})
          .status,
      0);
  EXPECT_EQ(server_.command({"HGET", "c", "7"}), "42");
  EXPECT_EQ(run({"map", "remove", "users", "name", "--codec", "string"}).out, "Grace\n");
  const auto missing = run({"map", "get", "users", "name", "--codec", "string"});
  EXPECT_EQ(missing.status, 1) << missing;
  EXPECT_NE(missing.err.find("no key 'name' in map 'users'"), std::string::npos) << missing;
  EXPECT_EQ(run({"map", "remove", "users", "name", "--codec", "string"}).status, 1);
  EXPECT_EQ(run({"map", "put", "m", "k", "x", "--type", "long"}).status, 64);
  EXPECT_EQ(run({"map", "get", "m", "k", "--codec", "snappy"}).status, 64);
  EXPECT_EQ(server_.command({"EXISTS", "m"}), "0");
}

TEST_F(RedissonCli, MapReadsWhatJavaRedissonStoredWithItsDefaultCodec) {
  redisson::test::load_java_fixtures(server_);
  EXPECT_EQ(run({"map", "get", "fx:map_kryo", "k2"}).out, "v2\n");
  EXPECT_EQ(run({"map", "get", "fx:map_long_kryo", "t"}).out, "1700000000000\n");
  EXPECT_EQ(run({"map", "put", "mine", "k1", "v1"}).status, 0);
  EXPECT_EQ(server_.command({"HGET", "mine", "\x03k\xb1"}),
            server_.command({"HGET", "fx:map_kryo", "\x03k\xb1"}));
}

TEST_F(RedissonCli, InspectRecognisesJavaRedissonsObjects) {
  redisson::test::load_java_fixtures(server_);
  const auto bucket = run({"inspect", "fx:kryo_list_str"});
  EXPECT_NE(bucket.out.find("Redisson bucket (kryo5)"), std::string::npos) << bucket;
  EXPECT_NE(bucket.out.find("[\"a\",\"b\"]"), std::string::npos) << bucket;
  const auto json = run({"inspect", "fx:json_long_1", "--json"});
  EXPECT_NE(json.out.find("\"codec\":\"json\""), std::string::npos) << json;
  const auto bloom = run({"inspect", "fx:bloom_kryo"});
  EXPECT_NE(bloom.out.find("Redisson Bloom filter"), std::string::npos) << bloom;
  EXPECT_NE(bloom.out.find("hash_iterations: 5"), std::string::npos) << bloom;
  EXPECT_NE(bloom.out.find("approximate_count: 3"), std::string::npos) << bloom;
  const auto limiter = run({"inspect", "fx:ratelimiter_overall"});
  EXPECT_NE(limiter.out.find("Redisson rate limiter"), std::string::npos) << limiter;
  EXPECT_NE(limiter.out.find("rate: 10"), std::string::npos) << limiter;
  const auto ids = run({"inspect", "fx:idgenerator"});
  EXPECT_NE(ids.out.find("Redisson id generator"), std::string::npos) << ids;
  EXPECT_NE(ids.out.find("allocation_size: 10"), std::string::npos) << ids;
  const auto hll = run({"inspect", "fx:hyperloglog_kryo"});
  EXPECT_NE(hll.out.find("HyperLogLog"), std::string::npos) << hll;
  EXPECT_NE(hll.out.find("count: 3"), std::string::npos) << hll;
  const auto bits = run({"inspect", "fx:bitset"});
  EXPECT_NE(bits.out.find("bits_set: 3"), std::string::npos) << bits;
  const auto number = run({"inspect", "fx:atomicdouble"});
  EXPECT_NE(number.out.find("AtomicDouble"), std::string::npos) << number;
}

namespace {

TEST_F(RedissonCli, QueuePushThenPopHandsEachValueOutOnceInOrder) {
  EXPECT_EQ(run({"queue", "push", "jobs", "a", "b", "--codec", "string"}).status, 0);
  EXPECT_EQ(server_.command({"LRANGE", "jobs", "0", "-1"}), "a\nb");
  const auto first = run({"queue", "pop", "jobs", "--codec", "string"});
  EXPECT_EQ(first.status, 0) << first;
  EXPECT_EQ(first.out, "a\n") << first;
  EXPECT_EQ(run({"queue", "pop", "jobs", "--wait", "0", "--codec", "string"}).out, "b\n");
  // Numbers with the default codec (kryo5): what a Java RBlockingQueue<Long> holds.
  EXPECT_EQ(run({"queue", "push", "n", "42", "--type", "long"}).status, 0);
  EXPECT_EQ(run({"queue", "pop", "n"}).out, "42\n");
}

TEST_F(RedissonCli, QueuePopWaitsForAPushAndExits75WhenNothingCame) {
  const auto empty = run({"queue", "pop", "jobs", "--wait", "200ms", "--codec", "string"});
  EXPECT_EQ(empty.status, 75) << empty;
  EXPECT_NE(empty.err.find("nothing in queue jobs within 200ms"), std::string::npos) << empty;
  auto waiting = start({"queue", "pop", "jobs", "--codec", "string"});
  ASSERT_TRUE(eventually([&] {
    return server_.command({"INFO", "clients"}).find("blocked_clients:1") != std::string::npos;
  }));
  EXPECT_EQ(run({"queue", "push", "jobs", "late", "--codec", "string"}).status, 0);
  const auto popped = finish(*waiting);
  EXPECT_EQ(popped.status, 0) << popped;
  EXPECT_EQ(popped.out, "late\n") << popped;
}

TEST_F(RedissonCli, QueueUsageAndTypeErrorsChangeNothing) {
  EXPECT_EQ(run({"queue", "pop", "jobs", "--wait", "-1s"}).status, 64);
  EXPECT_EQ(run({"queue", "push", "jobs", "x", "--type", "long"}).status, 64);
  EXPECT_EQ(server_.command({"EXISTS", "jobs"}), "0");
  server_.command({"SET", "text", "x"});
  EXPECT_EQ(run({"queue", "push", "text", "y", "--codec", "string"}).status, 1);
  EXPECT_EQ(run({"queue", "pop", "text", "--codec", "string"}).status, 1);
  EXPECT_EQ(server_.command({"GET", "text"}), "x");
}

}  // namespace

namespace {

TEST_F(RedissonCli, InspectShowsACollectionsFirstEntriesDecoded) {
  ASSERT_EQ(run({"queue", "push", "jobs", "a", "b"}).status, 0);  // kryo5, Redisson's default
  const auto list = run({"inspect", "jobs"});
  EXPECT_EQ(list.status, 0) << list;
  EXPECT_NE(list.out.find("list (kryo5), 2 elements"), std::string::npos) << list;
  EXPECT_NE(list.out.find("first: [\"a\",\"b\"]"), std::string::npos) << list;
  server_.command({"ZADD", "scores", "1.5", "x"});
  const auto zset = run({"inspect", "--json", "scores"});
  EXPECT_NE(zset.out.find("\"first\":[[\"x\",1.5]]"), std::string::npos) << zset;
  EXPECT_NE(zset.out.find("\"codec\":\"string\""), std::string::npos) << zset;
  EXPECT_EQ(run({"map", "put", "users", "ada", "1", "--codec", "string"}).status, 0);
  const auto map = run({"inspect", "users"});
  EXPECT_NE(map.out.find("first: [[\"ada\",\"1\"]]"), std::string::npos) << map;
  server_.command({"SADD", "raw", std::string("\xff\x01", 2)});
  const auto raw = run({"inspect", "raw"});
  EXPECT_NE(raw.out.find("first: [\"0xff01\"]"), std::string::npos) << raw;
  server_.command({"XADD", "events", "1-1", "kind", "order", "n", "7"});
  const auto stream = run({"inspect", "events"});
  EXPECT_NE(stream.out.find("stream (string), 1 entries"), std::string::npos) << stream;
  EXPECT_NE(stream.out.find("first: [[\"1-1\",[[\"kind\",\"order\"],[\"n\",\"7\"]]]]"),
            std::string::npos)
      << stream;
}

// The Redis type alone does not say which Redisson type a list, hash or sorted set is: the
// companion keys of its layout do.
TEST_F(RedissonCli, InspectNamesRedissonCollectionsByTheirLayout) {
  server_.command({"RPUSH", "bounded", "a"});
  server_.command({"SET", "redisson_bqs:{bounded}", "4"});
  const auto bounded = run({"inspect", "bounded"});
  EXPECT_EQ(bounded.status, 0) << bounded;
  EXPECT_NE(bounded.out.find("Redisson BoundedBlockingQueue (list)"), std::string::npos) << bounded;
  EXPECT_NE(bounded.out.find("capacity left: 4"), std::string::npos) << bounded;
  const auto json = run({"inspect", "--json", "bounded"});
  EXPECT_NE(json.out.find("\"redisson_type\":\"BoundedBlockingQueue\""), std::string::npos) << json;
  server_.command({"RPUSH", "ring", "a"});
  server_.command({"SET", "redisson_rb:{ring}", "9"});
  EXPECT_NE(run({"inspect", "ring"}).out.find("Redisson RingBuffer (list)"), std::string::npos);
  server_.command({"RPUSH", "prio", "a"});
  server_.command({"SET", "{prio}:redisson_sortedset_comparator", "x"});
  EXPECT_NE(run({"inspect", "prio"}).out.find("a sorted list"), std::string::npos);
  server_.command({"HSET", "cache", "k", "v"});
  server_.command({"ZADD", "redisson__timeout__set:{cache}", "1", "k"});
  EXPECT_NE(run({"inspect", "cache"}).out.find("Redisson MapCache (hash)"), std::string::npos);
  server_.command({"HSET", "multi", "k", "aGFzaA=="});
  server_.command({"SADD", "{multi}:aGFzaA==", "v"});
  EXPECT_NE(run({"inspect", "multi"}).out.find("Redisson SetMultimap (hash)"), std::string::npos);
  server_.command({"ZADD", "series", "1", "m"});
  server_.command({"ZADD", "redisson__ts_ttl:{series}", "1", "m"});
  EXPECT_NE(run({"inspect", "series"}).out.find("Redisson TimeSeries (sorted set)"),
            std::string::npos);
  server_.command({"HSET", "near", "k", "v"});
  server_.command({"ZADD", "redisson__cache_updates_log:{near}", "1", "m"});
  const auto near = run({"inspect", "near"});
  EXPECT_NE(near.out.find("Redisson LocalCachedMap (hash)"), std::string::npos) << near;
  server_.command({"HSET", "redisson_live_object:{22703122}:com.example.Person", "f", "v"});
  const auto live = run({"inspect", "redisson_live_object:{22703122}:com.example.Person"});
  EXPECT_NE(live.out.find("Redisson LiveObject (hash)"), std::string::npos) << live;
  EXPECT_NE(live.out.find("class: com.example.Person"), std::string::npos) << live;
  server_.command(
      {"ZADD", "{jobs:org.redisson.executor.RemoteExecutorService}:scheduler", "1", "ff:0123"});
  const auto schedule =
      run({"inspect", "{jobs:org.redisson.executor.RemoteExecutorService}:scheduler"});
  EXPECT_NE(schedule.out.find("Redisson ExecutorService schedule"), std::string::npos) << schedule;
  EXPECT_NE(schedule.out.find("executor: jobs"), std::string::npos) << schedule;
  // A plain list stays a list.
  server_.command({"RPUSH", "plain", "a"});
  const auto plain = run({"inspect", "plain"});
  EXPECT_EQ(plain.out.find("Redisson"), std::string::npos) << plain;
}

}  // namespace

// Topics: publish prints the receivers; subscribe prints what comes after it is subscribed.
TEST_F(RedissonCli, PublishSendsJavasBytesAndPrintsTheReceivers) {
  const auto none = run({"publish", "news", "hello"});
  EXPECT_EQ(none.status, 0) << none;
  EXPECT_EQ(none.out, "0\n") << none;
  // A subscriber that prints the raw bytes it receives (the string codec of a byte[] is its
  // bytes): the kryo5 bytes of "hello" are Java Redisson's, 03 68 65 6c 6c ef.
  auto raw = start({"subscribe", "news", "--count", "1", "--codec", "bytes", "--timeout", "20s"});
  ASSERT_TRUE(eventually([&] {
    return server_.command({"PUBSUB", "NUMSUB", "news"}) == "news\n1";
  }));
  const auto one = run({"publish", "news", "hello"});
  EXPECT_EQ(one.out, "1\n") << one;
  const auto received = finish(*raw);
  EXPECT_EQ(received.status, 0) << received;
  EXPECT_EQ(received.out, "\"A2hlbGzv\"\n") << "Base64 of 0368656c6cef: " << received;
}

TEST_F(RedissonCli, SubscribePrintsMessagesInOrderAndStopsAfterCount) {
  auto sub =
      start({"subscribe", "a", "b", "--count", "3", "--codec", "string", "--timeout", "20s"});
  ASSERT_TRUE(eventually([&] {
    return server_.command({"PUBSUB", "NUMSUB", "a", "b"}) == "a\n1\nb\n1";
  }));
  for (const char* m : {"one", "two"})
    EXPECT_EQ(run({"publish", "a", m, "--codec", "string"}).status, 0);
  EXPECT_EQ(run({"publish", "b", "three", "--codec", "string"}).status, 0);
  const auto result = finish(*sub);
  EXPECT_EQ(result.status, 0) << result;
  // One channel's messages in order; two channels' listeners run in parallel.
  EXPECT_LT(result.out.find("one\n"), result.out.find("two\n")) << result;
  EXPECT_NE(result.out.find("three\n"), std::string::npos) << result;
  EXPECT_EQ(result.out.size(), std::string("one\ntwo\nthree\n").size()) << result;
}

TEST_F(RedissonCli, SubscribePatternPrintsTheChannelAndShardedUsesSsubscribe) {
  auto pattern = start(
      {"subscribe", "--pattern", "job.*", "--count", "1", "--codec", "string", "--timeout", "20s"});
  ASSERT_TRUE(eventually([&] { return server_.command({"PUBSUB", "NUMPAT"}) == "1"; }));
  EXPECT_EQ(run({"publish", "job.7", "done", "--codec", "string"}).out, "1\n");
  const auto matched = finish(*pattern);
  EXPECT_EQ(matched.out, "job.7\tdone\n") << matched;

  auto sharded = start({"subscribe", "--sharded", "orders", "--count", "1", "--codec", "string",
                        "--timeout", "20s"});
  ASSERT_TRUE(eventually([&] {
    return server_.command({"PUBSUB", "SHARDNUMSUB", "orders"}) == "orders\n1";
  }));
  EXPECT_EQ(run({"publish", "orders", "plain", "--codec", "string"}).out, "0\n")
      << "a sharded subscriber does not hear PUBLISH";
  EXPECT_EQ(run({"publish", "--sharded", "orders", "42", "--codec", "string"}).out, "1\n");
  EXPECT_EQ(finish(*sharded).out, "42\n");
}

TEST_F(RedissonCli, ReliablePublishKeepsMessagesForASubscriberThatRemovesItselfAtTheEnd) {
  // Kept in the stream with no subscriber yet: a new subscriber starts at what the stream holds.
  const auto kept = run({"publish", "--reliable", "audit", "first", "--codec", "string"});
  EXPECT_EQ(kept.out, "0\n") << kept;
  auto sub = start({"subscribe", "--reliable", "audit", "--count", "2", "--codec", "string",
                    "--timeout", "20s"});
  ASSERT_TRUE(eventually([&] {
    return server_.command({"XINFO", "GROUPS", "audit"}) != "(empty array)";
  }));
  EXPECT_EQ(run({"publish", "--reliable", "audit", "second", "--codec", "string"}).out, "1\n");
  const auto result = finish(*sub);
  EXPECT_EQ(result.status, 0) << result;
  EXPECT_EQ(result.out, "first\nsecond\n") << result;
  EXPECT_EQ(server_.command({"XINFO", "GROUPS", "audit"}), "(empty array)")
      << "the run's subscriber is removed at its end";
  EXPECT_EQ(server_.command({"ZCARD", "{audit}:timeout"}), "0");
  EXPECT_EQ(run({"subscribe", "--reliable", "--pattern", "x"}).status, 64);
  EXPECT_EQ(run({"publish", "--reliable", "--sharded", "x", "y"}).status, 64);
}

TEST_F(RedissonCli, SubscribeTimesOutWith75AndRefusesBadCounts) {
  EXPECT_EQ(run({"subscribe", "quiet", "--timeout", "200ms"}).status, 75);
  EXPECT_EQ(run({"subscribe", "quiet", "--count", "0"}).status, 64);
  EXPECT_EQ(run({"subscribe", "quiet", "--count", "-2"}).status, 64);
  EXPECT_EQ(run({"subscribe", "quiet", "--timeout", "-1s"}).status, 64);
  EXPECT_EQ(run({"subscribe", "--pattern", "--sharded", "x"}).status, 64);
  EXPECT_EQ(run({"publish", "x"}).status, 64) << "MESSAGE is required";
  EXPECT_EQ(run_raw({"--url", "redis://127.0.0.1:1", "publish", "x", "y"}).status, 69);
}

}  // namespace tools_redisson_cli_test

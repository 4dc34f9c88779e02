#include "support/child_process.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <stdexcept>

extern char** environ;

namespace redisson::test {
namespace {

constexpr const char* kChildVariable = "REDISSON_TEST_CHILD";
constexpr const char* kParentVariable = "REDISSON_TEST_PARENT";

// Function-local, so registrations from other files' static initializers find it built.
std::map<std::string, ChildMain>& registry() {
  static std::map<std::string, ChildMain> children;
  return children;
}

}  // namespace

bool register_child(const char* name, ChildMain main) {
  registry().emplace(name, main);
  return true;
}

pid_t spawn_child(const std::string& name, const ChildArgs& args) {
  std::vector<std::string> env_text{std::string(kChildVariable) + "=" + name,
                                    std::string(kParentVariable) + "=" + std::to_string(getpid())};
  std::vector<char*> env;
  for (auto& entry : env_text) env.push_back(entry.data());
  for (char** entry = environ; *entry != nullptr; ++entry) {
    if (std::strncmp(*entry, kChildVariable, std::strlen(kChildVariable)) != 0 &&
        std::strncmp(*entry, kParentVariable, std::strlen(kParentVariable)) != 0) {
      env.push_back(*entry);
    }
  }
  env.push_back(nullptr);
  std::string self = "/proc/self/exe";
  std::vector<std::string> argv_text{name};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& arg : argv_text) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int failed = posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv.data(), env.data());
  if (failed != 0) {
    throw std::runtime_error("cannot start child '" + name + "': " + std::strerror(failed));
  }
  return pid;
}

std::vector<pid_t> spawn_children(const std::string& name, int count, const ChildArgs& args) {
  std::vector<pid_t> pids;
  for (int i = 0; i < count; ++i) pids.push_back(spawn_child(name, args));
  return pids;
}

int wait_exit(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::optional<int> run_child_if_asked(int argc, char** argv) {
  const char* name = std::getenv(kChildVariable);
  if (name == nullptr) return std::nullopt;
  // Die with the test that started us; and if it is already gone, do not run at all.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  const char* parent = std::getenv(kParentVariable);
  if (parent == nullptr || std::to_string(getppid()) != parent) return 126;
  const auto child = registry().find(name);
  if (child == registry().end()) {
    std::fprintf(stderr, "no test child called '%s'\n", name);
    return 127;
  }
  const ChildArgs args(argv + 1, argv + argc);
  int status = 1;
  try {
    status = child->second(args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "test child '%s' failed: %s\n", name, e.what());
  }
  std::fflush(nullptr);
  return status;
}

}  // namespace redisson::test

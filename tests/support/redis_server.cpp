#include "support/redis_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <utility>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

namespace redisson::test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr auto kStartTimeout = 10s;
constexpr auto kStopTimeout = 10s;
constexpr auto kCommandTimeout = 5s;
constexpr int kPortAttempts = 5;
constexpr int kClusterBusOffset = 10000;

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

// Owns a file descriptor.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void reset() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

sockaddr_in loopback(int port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return addr;
}

// Connects to 127.0.0.1:port with send/receive timeouts; returns an invalid Fd (and sets
// `connect_errno`) when the connection is refused.
Fd connect_loopback(int port, std::chrono::milliseconds io_timeout, int& connect_errno) {
  Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) throw_errno("socket");
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(io_timeout.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((io_timeout.count() % 1000) * 1000);
  ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd.get(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  const sockaddr_in addr = loopback(port);
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    connect_errno = errno;
    return Fd();
  }
  return fd;
}

std::string encode_command(const std::vector<std::string>& args) {
  std::string out = "*" + std::to_string(args.size()) + "\r\n";
  for (const auto& arg : args) {
    out += "$" + std::to_string(arg.size()) + "\r\n";
    out += arg;
    out += "\r\n";
  }
  return out;
}

void send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno("send to redis-server");
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

// A deliberately tiny RESP2 reader: enough for test setup and inspection, nothing more.
class RespReader {
 public:
  explicit RespReader(int fd) : fd_(fd) {}

  // Reads one reply and renders it as documented on RedisServer::command().
  std::string read_reply() {
    std::vector<std::string> lines;
    read_value(lines);
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (i != 0) out += '\n';
      out += lines[i];
    }
    return out;
  }

  // True when the reply was an error ('-'); valid after read_reply().
  bool last_was_error() const { return last_was_error_; }

 private:
  void read_value(std::vector<std::string>& out) {
    const char type = next_char();
    std::string line = read_line();
    last_was_error_ = type == '-';
    switch (type) {
      case '+':
      case '-':
      case ':':
        out.push_back(std::move(line));
        return;
      case '$': {
        const long long size = to_number(line);
        if (size < 0) {
          out.emplace_back("(nil)");
          return;
        }
        std::string bulk = read_exact(static_cast<std::size_t>(size));
        if (read_exact(2) != "\r\n") throw std::runtime_error("RESP: bulk string not terminated");
        out.push_back(std::move(bulk));
        return;
      }
      case '*': {
        const long long count = to_number(line);
        if (count < 0) {
          out.emplace_back("(nil)");
        } else if (count == 0) {
          out.emplace_back("(empty array)");
        } else {
          for (long long i = 0; i < count; ++i) read_value(out);
          last_was_error_ = false;
        }
        return;
      }
      default:
        throw std::runtime_error(std::string("RESP: unexpected type byte '") + type + "'");
    }
  }

  static long long to_number(const std::string& text) {
    try {
      std::size_t used = 0;
      const long long value = std::stoll(text, &used);
      if (used == text.size()) return value;
    } catch (const std::exception&) {
    }
    throw std::runtime_error("RESP: bad length '" + text + "'");
  }

  void fill() {
    char chunk[4096];
    for (;;) {
      const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
      if (n > 0) {
        buffer_.append(chunk, static_cast<std::size_t>(n));
        return;
      }
      if (n == 0) throw std::runtime_error("redis-server closed the connection");
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        throw std::runtime_error("redis-server did not answer in time");
      }
      throw_errno("recv from redis-server");
    }
  }

  char next_char() {
    if (pos_ == buffer_.size()) fill();
    return buffer_[pos_++];
  }

  std::string read_line() {
    for (;;) {
      const auto end = buffer_.find("\r\n", pos_);
      if (end != std::string::npos) {
        std::string line = buffer_.substr(pos_, end - pos_);
        pos_ = end + 2;
        return line;
      }
      fill();
    }
  }

  std::string read_exact(std::size_t size) {
    while (buffer_.size() - pos_ < size) fill();
    std::string bytes = buffer_.substr(pos_, size);
    pos_ += size;
    return bytes;
  }

  int fd_;
  std::string buffer_;
  std::size_t pos_ = 0;
  bool last_was_error_ = false;
};

// Sends AUTH (when a password is set) and then `args`; returns the rendered reply.
std::string round_trip(int fd, const std::string& password, const std::vector<std::string>& args) {
  RespReader reader(fd);
  if (!password.empty()) {
    send_all(fd, encode_command({"AUTH", password}));
    std::string reply = reader.read_reply();
    if (reader.last_was_error()) return reply;
  }
  send_all(fd, encode_command(args));
  return reader.read_reply();
}

// redis-server to run: $REDIS_SERVER_BIN, else the first redis-server on PATH.
std::string redis_server_binary() {
  if (const char* env = std::getenv("REDIS_SERVER_BIN"); env != nullptr && *env != '\0') {
    return env;
  }
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (!dirs.empty()) {
    const auto colon = dirs.find(':');
    const std::string_view dir = dirs.substr(0, colon);
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
    if (dir.empty()) continue;
    std::string candidate = std::string(dir) + "/redis-server";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  throw std::runtime_error("redis-server not found on PATH (run: make deps)");
}

std::string temp_root() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

constexpr std::string_view kDirPrefix = "redisson-test-";
constexpr std::string_view kOwnerFile = "owner.pid";

// Removes the dirs of earlier test processes that were killed before their destructors ran
// (e.g. by a ctest timeout). A dir is removed only when its owner.pid names a dead process;
// their servers are already gone (PR_SET_PDEATHSIG).
void remove_stale_dirs() noexcept {
  std::error_code ec;
  for (std::filesystem::directory_iterator it(temp_root(), ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(kDirPrefix, 0) != 0) continue;
    std::ifstream in(it->path() / kOwnerFile);
    long owner = 0;
    if (!(in >> owner) || owner <= 0) continue;
    if (::kill(static_cast<pid_t>(owner), 0) != 0 && errno == ESRCH) {
      std::error_code ignored;
      std::filesystem::remove_all(it->path(), ignored);
    }
  }
}

std::string make_temp_dir() {
  std::string pattern = temp_root() + "/" + std::string(kDirPrefix) + "XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) throw_errno("mkdtemp " + pattern);
  std::ofstream(pattern + "/" + std::string(kOwnerFile)) << ::getpid() << "\n";
  return pattern;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Upper bound of descriptors to mark close-on-exec when close_range() is unavailable.
int max_fd() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    return static_cast<int>(std::min<rlim_t>(limit.rlim_cur, 65536));
  }
  return 65536;
}

// True when 127.0.0.1:port can be bound right now (no SO_REUSEADDR: stricter than redis-server).
bool can_bind(int port) {
  Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) throw_errno("socket");
  const sockaddr_in addr = loopback(port);
  return ::bind(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
}

// The first port of the kernel's ephemeral range (from which outgoing connections get theirs).
int ephemeral_port_low() {
  std::ifstream in("/proc/sys/net/ipv4/ip_local_port_range");
  int low = 0;
  int high = 0;
  return in >> low >> high && low > 0 ? low : 32768;
}

}  // namespace

int free_cluster_port() {
  // Ports and bus ports both below the ephemeral range: 20000..22767 and 30000..32767 by default.
  int low = 20000;
  int high = ephemeral_port_low() - kClusterBusOffset - 1;
  if (high - low < 1000)
    high = 65535 - kClusterBusOffset;  // odd range: settle for a valid bus port
  static std::mutex mutex;
  static std::mt19937 random(std::random_device{}());
  for (int attempt = 0; attempt < 200; ++attempt) {
    int port = 0;
    {
      std::lock_guard lock(mutex);
      port = std::uniform_int_distribution<int>(low, high)(random);
    }
    if (can_bind(port) && can_bind(port + kClusterBusOffset)) return port;
  }
  throw std::runtime_error("no free cluster port (with its bus port) found in " +
                           std::to_string(low) + ".." + std::to_string(high));
}

int free_port() {
  Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) throw_errno("socket");
  sockaddr_in addr = loopback(0);
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) throw_errno("bind");
  socklen_t len = sizeof addr;
  if (::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    throw_errno("getsockname");
  }
  return ntohs(addr.sin_port);
}

RedisServer::RedisServer(RedisServerOptions options) : options_(std::move(options)) {
  const auto& args = options_.extra_args;
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--requirepass") password_ = args[i + 1];
  }
  remove_stale_dirs();
  dir_ = make_temp_dir();
  try {
    if (!options_.config_text.empty()) {
      std::ofstream config(dir_ + "/redis.conf", std::ios::trunc);
      config << options_.config_text << "\n";
      if (!config.flush()) throw std::runtime_error("cannot write " + dir_ + "/redis.conf");
    }
    for (int attempt = 1;; ++attempt) {
      port_ = options_.cluster_bus_port ? free_cluster_port() : free_port();
      if (options_.tls) tls_port_ = free_port();
      if (launch() == Launch::ok) break;
      if (attempt == kPortAttempts) {
        throw std::runtime_error("redis-server: every port tried was taken; last log:\n" +
                                 log_tail());
      }
    }
    start_guard();
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
    throw;
  }
}

RedisServer::~RedisServer() {
  stop();
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

std::string RedisServer::url() const { return "redis://127.0.0.1:" + std::to_string(port_); }

std::string RedisServer::tls_url() const {
  return "rediss://127.0.0.1:" + std::to_string(tls_port_);
}

void RedisServer::start() {
  if (running()) throw std::logic_error("RedisServer::start: already running");
  // The port was ours a moment ago; something (e.g. a client's ephemeral port) may hold it
  // briefly, so retry for a bounded time before giving up.
  const auto deadline = Clock::now() + kStartTimeout;
  while (launch() == Launch::port_taken) {
    if (Clock::now() >= deadline) {
      throw std::runtime_error("redis-server: port " + std::to_string(port_) +
                               " stayed taken; log:\n" + log_tail());
    }
    std::this_thread::sleep_for(100ms);
  }
  start_guard();
}

void RedisServer::stop() {
  stop_guard();
  kill_and_reap();
}

void RedisServer::pause() {
  if (!running()) throw std::logic_error("RedisServer::pause: not running");
  if (paused_) return;
  if (::kill(pid_, SIGSTOP) != 0) throw_errno("kill SIGSTOP");
  int status = 0;
  // WUNTRACED reports the stop, so the caller knows the server is frozen when we return.
  while (::waitpid(pid_, &status, WUNTRACED) < 0) {
    if (errno != EINTR) throw_errno("waitpid");
  }
  if (!WIFSTOPPED(status)) {
    pid_ = -1;
    throw std::runtime_error("redis-server exited while being paused; log:\n" + log_tail());
  }
  paused_ = true;
}

void RedisServer::resume() {
  if (!running()) throw std::logic_error("RedisServer::resume: not running");
  // WCONTINUED only reports a child that was stopped: without a pause there is nothing to wait for.
  if (!paused_) return;
  if (::kill(pid_, SIGCONT) != 0) throw_errno("kill SIGCONT");
  int status = 0;
  while (::waitpid(pid_, &status, WCONTINUED) < 0) {
    if (errno != EINTR) throw_errno("waitpid");
  }
  paused_ = false;
  if (!WIFCONTINUED(status)) {
    pid_ = -1;
    throw std::runtime_error("redis-server exited while being resumed; log:\n" + log_tail());
  }
}

std::string RedisServer::command(const std::vector<std::string>& args) const {
  if (args.empty()) throw std::invalid_argument("RedisServer::command: no arguments");
  int connect_errno = 0;
  const Fd fd = connect_loopback(port_, kCommandTimeout, connect_errno);
  if (fd.get() < 0) {
    throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port_) + ": " +
                             std::strerror(connect_errno));
  }
  return round_trip(fd.get(), password_, args);
}

int RedisServer::replicas_with_everything(int replicas, std::chrono::milliseconds timeout,
                                          std::string_view in_slot_of) const {
  int connect_errno = 0;
  const Fd fd = connect_loopback(port_, kCommandTimeout, connect_errno);
  if (fd.get() < 0) {
    throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port_) + ": " +
                             std::strerror(connect_errno));
  }
  // Two writes, so that the key is gone again; the replicas have them after all that came before.
  // In the slot of `in_slot_of`: its hash tag, or the whole key, as the marker's hash tag.
  std::string marker = "redisson-test:replicated-marker";
  if (!in_slot_of.empty()) {
    auto tag = in_slot_of;
    const auto open = in_slot_of.find('{');
    const auto close = open == std::string_view::npos ? open : in_slot_of.find('}', open + 1);
    if (close != std::string_view::npos && close > open + 1) {
      tag = in_slot_of.substr(open + 1, close - open - 1);
    }
    marker.append("{").append(tag).append("}");
  }
  const auto written = round_trip(fd.get(), password_, {"SET", marker, "1"});
  if (written != "OK") {
    // Not written (a cluster node that does not serve the slot): WAIT would count for nothing.
    throw std::runtime_error("replicas_with_everything: SET " + marker + ": " + written);
  }
  round_trip(fd.get(), password_, {"DEL", marker});
  const auto counted = round_trip(
      fd.get(), password_, {"WAIT", std::to_string(replicas), std::to_string(timeout.count())});
  return std::stoi(counted);
}

std::string RedisServer::log_tail(std::size_t lines) const {
  const std::string log = read_file(dir_ + "/redis.log");
  std::size_t start = log.size();
  std::size_t seen = 0;
  // Skip a trailing newline, then walk back `lines` newlines.
  if (start > 0 && log[start - 1] == '\n') --start;
  while (start > 0) {
    if (log[start - 1] == '\n' && ++seen == lines) break;
    --start;
  }
  return log.substr(start);
}

RedisServer::Launch RedisServer::launch() {
  const std::string binary = redis_server_binary();
  const std::string log_path = dir_ + "/redis.log";
  {
    // A fresh log per start, so the port-taken check below only sees this run.
    std::ofstream truncate(log_path, std::ios::trunc);
  }
  std::vector<std::string> args = {binary};
  // A config file must be the first argument; the options after it override its lines.
  if (!options_.config_text.empty()) args.push_back(dir_ + "/redis.conf");
  // clang-format off
  args.insert(args.end(), {
      "--port", std::to_string(port_),
      "--bind", "127.0.0.1",
      "--save", "",
      "--appendonly", "no",
      "--daemonize", "no",
      "--enable-debug-command", "local",
      "--dir", dir_,
      "--logfile", log_path,
  });
  // clang-format on
  if (options_.tls) {
    // clang-format off
    args.insert(args.end(), {
        "--tls-port", std::to_string(tls_port_),
        "--tls-cert-file", options_.tls->cert_file,
        "--tls-key-file", options_.tls->key_file,
        "--tls-ca-cert-file", options_.tls->ca_file,
        "--tls-auth-clients", options_.tls->auth_clients,
    });
    // clang-format on
  }
  args.insert(args.end(), options_.extra_args.begin(), options_.extra_args.end());

  // Everything the child needs is prepared before fork: after fork in a multi-threaded process
  // only async-signal-safe calls are allowed.
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const pid_t parent = ::getpid();
  const int fd_limit = max_fd();
  Fd dev_null(::open("/dev/null", O_RDWR | O_CLOEXEC));
  if (dev_null.get() < 0) throw_errno("open /dev/null");
  int exec_pipe[2];
  if (::pipe2(exec_pipe, O_CLOEXEC) != 0) throw_errno("pipe2");
  Fd exec_read(exec_pipe[0]);
  Fd exec_write(exec_pipe[1]);

  const pid_t child = ::fork();
  if (child < 0) throw_errno("fork");
  if (child == 0) {
    // Die with the test process (more precisely: with the thread that forked us).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    ::setpgid(0, 0);  // a terminal's Ctrl-C goes to the test; the test stops us by PID
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGPIPE}) {
      struct sigaction dfl {};
      dfl.sa_handler = SIG_DFL;
      ::sigaction(sig, &dfl, nullptr);
    }
    ::dup2(dev_null.get(), STDIN_FILENO);
    ::dup2(dev_null.get(), STDOUT_FILENO);
    ::dup2(dev_null.get(), STDERR_FILENO);
    // Do not leak the test's sockets (e.g. client connections) into the server.
    if (::syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
      for (int fd = 3; fd < fd_limit; ++fd) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    ::execv(argv[0], argv.data());
    const int error = errno;
    [[maybe_unused]] const ssize_t ignored = ::write(exec_write.get(), &error, sizeof error);
    ::_exit(127);
  }
  exec_write.reset();
  pid_ = child;

  int exec_errno = 0;
  ssize_t got = 0;
  do {
    got = ::read(exec_read.get(), &exec_errno, sizeof exec_errno);
  } while (got < 0 && errno == EINTR);
  if (got == static_cast<ssize_t>(sizeof exec_errno)) {
    kill_and_reap();
    throw std::system_error(exec_errno, std::generic_category(), "exec " + binary);
  }

  const auto deadline = Clock::now() + kStartTimeout;
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_ || (done < 0 && errno == ECHILD)) {
      pid_ = -1;
      const std::string log = read_file(log_path);
      if (log.find("Address already in use") != std::string::npos) return Launch::port_taken;
      throw std::runtime_error("redis-server on port " + std::to_string(port_) +
                               " exited during startup; log:\n" + log_tail());
    }
    int connect_errno = 0;
    if (const Fd fd = connect_loopback(port_, 1s, connect_errno); fd.get() >= 0) {
      try {
        const std::string reply = round_trip(fd.get(), password_, {"PING"});
        // Only our server counts: another test's may hold the port (free_port() cannot reserve
        // it), and ours then exits with "Address already in use" (seen next turn). Taken for
        // ours, the other answered, then stopped with its test: "could not connect".
        if (reply.rfind("LOADING", 0) != 0 &&
            round_trip(fd.get(), password_, {"INFO", "server"})
                    .find("process_id:" + std::to_string(pid_) + "\r") != std::string::npos) {
          return Launch::ok;
        }
      } catch (const std::exception&) {
        // Not ready yet (e.g. accepted but closed): try again.
      }
    }
    if (Clock::now() >= deadline) {
      kill_and_reap();
      throw std::runtime_error("redis-server on port " + std::to_string(port_) +
                               " did not answer PING within 10 s; log:\n" + log_tail());
    }
    std::this_thread::sleep_for(10ms);
  }
}

void RedisServer::kill_and_reap() noexcept {
  if (pid_ <= 0) return;
  // redis-server acts on SIGTERM only at its next cron tick (up to 100 ms); SHUTDOWN is
  // immediate. It is only a shortcut: the signals below are what guarantees the stop.
  if (!paused_) {
    try {
      int connect_errno = 0;
      if (const Fd fd = connect_loopback(port_, 250ms, connect_errno); fd.get() >= 0) {
        round_trip(fd.get(), password_, {"SHUTDOWN", "NOSAVE", "NOW"});
      }
    } catch (const std::exception&) {
      // Expected: the server closes the connection instead of replying.
    }
  }
  ::kill(pid_, SIGTERM);
  ::kill(pid_, SIGCONT);  // a paused server cannot act on SIGTERM
  const auto deadline = Clock::now() + kStopTimeout;
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_ || (done < 0 && errno != EINTR)) break;
    if (Clock::now() >= deadline) {
      ::kill(pid_, SIGKILL);
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    std::this_thread::sleep_for(5ms);
  }
  pid_ = -1;
  paused_ = false;
}

void RedisServer::start_guard() {
  stop_guard();
  guard_cancelled_ = false;
  const pid_t pid = pid_;
  const auto deadline = Clock::now() + options_.max_lifetime;
  // The PID cannot be reused while the guard runs: the process stays our unreaped child until
  // stop() has joined the guard.
  guard_ = std::thread([this, pid, deadline] {
    std::unique_lock lock(guard_mutex_);
    if (!guard_cv_.wait_until(lock, deadline, [this] { return guard_cancelled_; })) {
      ::kill(pid, SIGKILL);
    }
  });
}

void RedisServer::stop_guard() noexcept {
  if (!guard_.joinable()) return;
  {
    std::lock_guard lock(guard_mutex_);
    guard_cancelled_ = true;
  }
  guard_cv_.notify_all();
  guard_.join();
}

std::int64_t command_calls(const RedisServer& server, const std::string& command) {
  const auto info = server.command({"INFO", "commandstats"});
  const auto key = "cmdstat_" + command + ":calls=";
  const auto at = info.find(key);
  if (at == std::string::npos) return 0;
  return std::stoll(info.substr(at + key.size()));
}

}  // namespace redisson::test

#include "redisson/error.hpp"

namespace redisson {
namespace {

class Category final : public std::error_category {
 public:
  const char* name() const noexcept override { return "redisson"; }
  std::string message(int value) const override {
    switch (static_cast<errc>(value)) {
      case errc::timeout:
        return "operation timed out";
      case errc::connection_lost:
        return "connection lost";
      case errc::connect_failed:
        return "could not connect to the server";
      case errc::auth_failed:
        return "authentication failed";
      case errc::server_error:
        return "server error";
      case errc::wrong_type:
        return "key holds a value of the wrong type";
      case errc::invalid_argument:
        return "invalid argument";
      case errc::not_owner:
        return "not the owner";
      case errc::protocol_error:
        return "protocol error";
      case errc::shutdown:
        return "client shut down";
      case errc::not_supported:
        return "not supported";
      case errc::lock_lost:
        return "lock lost";
      case errc::would_deadlock:
        return "blocking call on the client's I/O thread";
      case errc::already_held:
        return "the owner already holds this lock (non-re-entrant, or a refused read-to-write "
               "upgrade)";
      case errc::no_permission:
        return "no permission (NOPERM: refused by the server's ACL)";
      case errc::server_busy:
        return "server busy (loading its data, running a script, or a cluster slot without a "
               "master): the command did not run";
      case errc::not_replicated:
        return "no replica acknowledged the write within the replica timeout (an acquisition "
               "was undone; anything else was done on the master only, and a failover may lose "
               "it)";
      case errc::codec_error:
        return "codec error (a value the codec cannot write, or bytes it cannot read)";
      case errc::not_initialized:
        return "not initialised (a rate limiter without a rate, a bloom filter without try_init)";
      case errc::listener_failed:
        return "a topic listener failed (it threw, or its message could not be decoded)";
      case errc::subscriber_expired:
        return "a reliable topic's subscriber was removed after the watchdog timeout (it "
               "registered again; messages trimmed meanwhile are lost for it)";
      case errc::function_failed:
        return "a function passed to the operation threw; nothing was written";
      case errc::remote_failed:
        return "a remote method failed on its worker";
      case errc::rejected:
        return "the executor refused the task: it is shut down";
    }
    return "unknown redisson error";
  }
};

}  // namespace

const std::error_category& category() noexcept {
  static const Category instance;
  return instance;
}

}  // namespace redisson

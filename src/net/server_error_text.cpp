#include "net/server_error_text.hpp"

#include "redisson/error.hpp"

namespace redisson::detail {

namespace {
thread_local const std::string* g_current = nullptr;
}  // namespace

ServerErrorScope::ServerErrorScope(std::string text) : text_(std::move(text)), outer_(g_current) {
  g_current = &text_;
}

ServerErrorScope::~ServerErrorScope() { g_current = outer_; }

const std::string* server_error_text() noexcept { return g_current; }

bool is_server_refusal(std::error_code ec) noexcept {
  return ec == errc::server_error || ec == errc::wrong_type || ec == errc::no_permission ||
         ec == errc::server_busy || ec == errc::auth_failed;
}

}  // namespace redisson::detail

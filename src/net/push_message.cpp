#include "net/push_message.hpp"

#include <string_view>

namespace redisson::detail {
namespace {

bool is_subscription_confirmation(std::string_view kind) {
  return kind == "subscribe" || kind == "unsubscribe" || kind == "psubscribe" ||
         kind == "punsubscribe" || kind == "ssubscribe" || kind == "sunsubscribe";
}

bool is_message_kind(std::string_view kind) {
  return kind == "message" || kind == "pmessage" || kind == "smessage";
}

}  // namespace

bool is_push_message(const Reply& reply, bool subscriber) noexcept {
  const bool push = reply.type == ReplyType::push;
  if (!push && !(subscriber && reply.type == ReplyType::array)) return false;
  if (reply.elements.empty()) return push;
  const std::string_view kind = reply.elements.front().str;
  if (push) return !is_subscription_confirmation(kind);
  return is_message_kind(kind);
}

}  // namespace redisson::detail

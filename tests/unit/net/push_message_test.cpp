// Telling messages from answers on a connection, for RESP3 pushes and RESP2 subscriber arrays.
#include "net/push_message.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

namespace unit_net_push_message_test {

using redisson::Reply;
using redisson::ReplyType;
using redisson::detail::is_push_message;

namespace {

Reply frame(ReplyType type, std::initializer_list<const char*> words) {
  Reply reply;
  reply.type = type;
  for (const char* word : words) {
    Reply element;
    element.type = ReplyType::bulk_string;
    element.str = word;
    reply.elements.push_back(std::move(element));
  }
  return reply;
}

}  // namespace

TEST(PushMessage, Resp3MessagesArePushesButConfirmationsAreAnswers) {
  EXPECT_TRUE(is_push_message(frame(ReplyType::push, {"message", "ch", "hi"}), false));
  EXPECT_TRUE(is_push_message(frame(ReplyType::push, {"smessage", "ch", "hi"}), true));
  EXPECT_TRUE(is_push_message(frame(ReplyType::push, {"invalidate", "key"}), false));
  EXPECT_FALSE(is_push_message(frame(ReplyType::push, {"subscribe", "ch", "1"}), true));
  EXPECT_FALSE(is_push_message(frame(ReplyType::push, {"sunsubscribe", "ch", "0"}), true));
}

TEST(PushMessage, Resp2ArraysAreMessagesOnlyOnASubscriberConnection) {
  const auto message = frame(ReplyType::array, {"message", "ch", "hi"});
  EXPECT_TRUE(is_push_message(message, true));
  EXPECT_FALSE(is_push_message(message, false));  // e.g. an LRANGE answer that looks alike
  EXPECT_TRUE(is_push_message(frame(ReplyType::array, {"pmessage", "p*", "ch", "hi"}), true));
  EXPECT_FALSE(is_push_message(frame(ReplyType::array, {"subscribe", "ch", "1"}), true));
}

TEST(PushMessage, OtherRepliesAreAnswers) {
  Reply ok;
  ok.type = ReplyType::simple_string;
  ok.str = "OK";
  EXPECT_FALSE(is_push_message(ok, true));
  EXPECT_TRUE(is_push_message(frame(ReplyType::push, {}), false));  // an empty push is no answer
  EXPECT_FALSE(is_push_message(frame(ReplyType::array, {}), true));
}

}  // namespace unit_net_push_message_test

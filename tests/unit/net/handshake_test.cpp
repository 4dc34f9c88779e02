// The session opening without a server: the commands sent for each setting, the RESP2 fallback,
// which refusals end the session and which do not.
#include "net/handshake.hpp"

#include <gtest/gtest.h>

#include "redisson/error.hpp"

namespace unit_net_handshake_test {

using redisson::Command;
using redisson::errc;
using redisson::Reply;
using redisson::ReplyType;
using redisson::detail::Handshake;
using redisson::detail::HandshakeSettings;
using Kind = Handshake::Step::Kind;

namespace {

Reply ok() {
  Reply reply;
  reply.type = ReplyType::simple_string;
  reply.str = "OK";
  return reply;
}

Reply error_reply(std::string text) {
  Reply reply;
  reply.type = ReplyType::error;
  reply.str = std::move(text);
  return reply;
}

const std::error_code kServerError = make_error_code(errc::server_error);

void expect_sends(const Handshake::Step& step, const Command& expected) {
  ASSERT_EQ(step.kind, Kind::send);
  EXPECT_EQ(step.command.encoded_arguments(), expected.encoded_arguments());
}

}  // namespace

TEST(Handshake, Resp3WithoutCredentialsIsOneHelloAndDone) {
  Handshake handshake(HandshakeSettings{});
  expect_sends(handshake.start(), Command{"HELLO", "3"});
  const auto done = handshake.on_reply({}, ok());
  EXPECT_EQ(done.kind, Kind::done);
  EXPECT_EQ(done.protocol, 3);
}

TEST(Handshake, HelloCarriesAuthAndNameThenSelectsTheDatabase) {
  Handshake handshake(HandshakeSettings{true, "", "secret", "worker-1", 4});
  expect_sends(handshake.start(),
               Command{"HELLO", "3", "AUTH", "default", "secret", "SETNAME", "worker-1"});
  expect_sends(handshake.on_reply({}, ok()), Command{"SELECT", "4"});
  const auto done = handshake.on_reply({}, ok());
  EXPECT_EQ(done.kind, Kind::done);
  EXPECT_EQ(done.protocol, 3);
}

TEST(Handshake, AServerWithoutHelloGetsTheResp2Sequence) {
  Handshake handshake(HandshakeSettings{true, "app", "secret", "worker-1", 2});
  expect_sends(handshake.start(),
               Command{"HELLO", "3", "AUTH", "app", "secret", "SETNAME", "worker-1"});
  expect_sends(handshake.on_reply(kServerError, error_reply("ERR unknown command 'HELLO'")),
               Command{"AUTH", "app", "secret"});
  expect_sends(handshake.on_reply({}, ok()), Command{"CLIENT", "SETNAME", "worker-1"});
  expect_sends(handshake.on_reply({}, ok()), Command{"SELECT", "2"});
  const auto done = handshake.on_reply({}, ok());
  EXPECT_EQ(done.kind, Kind::done);
  EXPECT_EQ(done.protocol, 2);
}

TEST(Handshake, NoProtoFallsBackToResp2) {
  Handshake handshake(HandshakeSettings{});
  handshake.start();
  const auto done = handshake.on_reply(kServerError, error_reply("NOPROTO unsupported"));
  EXPECT_EQ(done.kind, Kind::done);
  EXPECT_EQ(done.protocol, 2);
}

TEST(Handshake, Resp2WithAPasswordAloneSendsAuthWithoutAUser) {
  Handshake handshake(HandshakeSettings{false, "", "secret", "", 0});
  expect_sends(handshake.start(), Command{"AUTH", "secret"});
  EXPECT_EQ(handshake.on_reply({}, ok()).kind, Kind::done);
}

TEST(Handshake, ARefusedPasswordEndsTheSessionWithTheServersWords) {
  Handshake handshake(HandshakeSettings{true, "", "wrong", "", 0});
  handshake.start();
  const auto auth_failed = make_error_code(errc::auth_failed);
  const auto failed = handshake.on_reply(auth_failed, error_reply("WRONGPASS invalid password"));
  EXPECT_EQ(failed.kind, Kind::failed);
  EXPECT_EQ(failed.error, auth_failed);
  EXPECT_EQ(failed.detail, "WRONGPASS invalid password");
}

TEST(Handshake, ARefusedClientNameDoesNotFailTheSession) {
  Handshake handshake(HandshakeSettings{false, "", "", "bad name", 0});
  expect_sends(handshake.start(), Command{"CLIENT", "SETNAME", "bad name"});
  EXPECT_EQ(handshake.on_reply(kServerError, error_reply("ERR spaces")).kind, Kind::done);
}

TEST(Handshake, ARefusedSelectFailsTheSession) {
  Handshake handshake(HandshakeSettings{true, "", "", "", 99});
  handshake.start();
  expect_sends(handshake.on_reply({}, ok()), Command{"SELECT", "99"});
  const auto failed = handshake.on_reply(kServerError, error_reply("ERR DB index is out of range"));
  EXPECT_EQ(failed.kind, Kind::failed);
  EXPECT_EQ(failed.detail, "ERR DB index is out of range");
}

TEST(Handshake, AReplyAfterTheEndIsAProtocolError) {
  Handshake handshake(HandshakeSettings{});
  handshake.start();
  handshake.on_reply({}, ok());
  EXPECT_EQ(handshake.on_reply({}, ok()).error, errc::protocol_error);
}

TEST(Handshake, ANewSessionStartsOverAtResp2UntilHelloSucceeds) {
  Handshake handshake(HandshakeSettings{});
  handshake.start();
  EXPECT_EQ(handshake.on_reply({}, ok()).protocol, 3);
  handshake.start();
  EXPECT_EQ(handshake.on_reply(kServerError, error_reply("NOPROTO")).protocol, 2);
}

}  // namespace unit_net_handshake_test

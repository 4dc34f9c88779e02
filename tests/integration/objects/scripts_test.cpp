// Scripts against a real redis-server: Java Redisson's RScript calls of the services fixtures
// (script_kryo, script_string) made again, with the same results and the same bytes sent (seen
// through MONITOR), each result kind, the script cache, errors, and what is not sent.
#include "redisson/objects/scripts.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <cstdint>
#include <future>
#include <optional>
#include <string>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/objects/bucket.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/monitor.hpp"
#include "support/server_test.hpp"

namespace objects_scripts_test {

using redisson::Bucket;
using redisson::CodecPtr;
using redisson::errc;
using redisson::Script;
using redisson::ScriptMode;
using redisson::Scripts;
using redisson::Value;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::from_hex;
using redisson::test::java_sent_commands;
using redisson::test::java_service_case;
using redisson::test::Monitor;
using redisson::test::sent_by_clients;
using redisson::test::SentCommands;
using redisson::test::without_script_cache_retries;
namespace codecs = redisson::codecs;
namespace returns = redisson::returns;

namespace {

// A result kind of the test's own: each element's bytes as they are (no codec), so a test can
// read back exactly what a script received in ARGV.
struct RawElements {
  using type = std::vector<std::string>;
  static type from_reply(const redisson::Codec&, const redisson::Reply& reply) {
    type raw;
    for (const auto& element : reply.elements) raw.push_back(element.str);
    return raw;
  }
};

// The commands of the script cases (a bucket's SET, the evals, SCRIPT LOAD / EXISTS), without
// what the client sends on its own (HELLO, CLIENT SETNAME, ...).
SentCommands script_commands(const SentCommands& commands) {
  SentCommands kept;
  for (const auto& args : commands) {
    if (args[0] == "SET" || args[0].starts_with("EVAL") || args[0] == "SCRIPT") {
      kept.push_back(args);
    }
  }
  return kept;
}

class ScriptsTest : public redisson::test::ServerTest {
 protected:
  // script_kryo / script_string: the calls of Java's ServiceFixtures, in its order, with its
  // results; then the commands sent compared with Java's, byte for byte.
  void run_java_case(const std::string& case_name, const CodecPtr& codec,
                     const std::vector<Value>& expected_multi) {
    const auto& fixture = java_service_case(case_name);
    const std::string key = fixture["key"];
    const auto& results = fixture["results"];
    Monitor monitor(server);
    Scripts scripts(client, codec);

    Bucket<std::string>(client, key, codec).set("hello");
    EXPECT_EQ(scripts.eval<returns::Value<std::string>>(ScriptMode::read_only,
                                                        "return redis.call('get', KEYS[1])", {key}),
              results[0].get<std::string>());
    EXPECT_EQ(scripts.eval<returns::Value<std::string>>(
                  ScriptMode::read_write, "redis.call('set', KEYS[1], ARGV[1]); return ARGV[1]",
                  {key}, std::vector<std::string>{"world"}),
              results[1].get<std::string>());
    EXPECT_EQ(scripts.eval<returns::Integer>(ScriptMode::read_only,
                                             "return redis.call('strlen', KEYS[1])", {key}),
              results[2].get<std::int64_t>());
    EXPECT_EQ(
        scripts.eval<returns::Multi<Value>>(ScriptMode::read_only, "return {ARGV[1], ARGV[2]}", {},
                                            {Value::string("a"), Value::long_int(7)}),
        expected_multi);
    const auto sha = scripts.script_load("return ARGV[1]");
    EXPECT_EQ(sha, fixture["sha"].get<std::string>());
    EXPECT_EQ(scripts.eval_sha<returns::Value<std::string>>(ScriptMode::read_only, sha, {},
                                                            std::vector<std::string>{"x"}),
              results[4].get<std::string>());
    EXPECT_EQ(scripts.script_exists({sha}), std::vector<bool>{true});

    const auto ours =
        without_script_cache_retries(script_commands(sent_by_clients(monitor.take(server))));
    const auto javas = without_script_cache_retries(script_commands(java_sent_commands(case_name)));
    // SET, four evals, SCRIPT LOAD, EVALSHA_RO, SCRIPT EXISTS.
    EXPECT_EQ(javas.size(), 8U);
    EXPECT_EQ(ours, javas);
    // The ARGV bytes are the codec's, as the fixture has them.
    const auto& hex = fixture["encoded_hex"];
    for (const auto& args : ours) {
      if (args[0] == "EVALSHA" && args.size() == 5) {
        EXPECT_EQ(args[4], from_hex(hex["world"].get<std::string>()));
      }
    }
  }
};

TEST_F(ScriptsTest, JavaKryoCaseSendsTheSameBytesAndReadsTheSameResults) {
  run_java_case("script_kryo", codecs::kryo5(), {Value::string("a"), Value::long_int(7)});
}

TEST_F(ScriptsTest, JavaStringCaseSendsTheSameBytesAndReadsTheSameResults) {
  run_java_case("script_string", codecs::string(), {Value::string("a"), Value::string("7")});
}

TEST_F(ScriptsTest, ScriptReceivesTheCodecsBytesAsArgv) {
  // What Java's Kryo5Codec wrote for "a" and 7L (script_kryo's encoded_hex), echoed back raw.
  const auto& hex = java_service_case("script_kryo")["encoded_hex"];
  Scripts scripts(client, codecs::kryo5());
  const auto echoed = scripts.eval<RawElements>(ScriptMode::read_only, "return {ARGV[1], ARGV[2]}",
                                                {}, {Value::string("a"), Value::long_int(7)});
  EXPECT_EQ(echoed, (std::vector<std::string>{from_hex(hex["a"].get<std::string>()),
                                              from_hex(hex["7L"].get<std::string>())}));
}

TEST_F(ScriptsTest, EachResultKindReadsItsReply) {
  Scripts scripts(client, codecs::string());
  const auto mode = ScriptMode::read_only;
  EXPECT_TRUE(scripts.eval<returns::Boolean>(mode, "return 1"));
  EXPECT_FALSE(scripts.eval<returns::Boolean>(mode, "return 0"));
  EXPECT_TRUE(scripts.eval<returns::Boolean>(mode, "return redis.status_reply('OK')"));
  EXPECT_FALSE(scripts.eval<returns::Boolean>(mode, "return nil"));
  EXPECT_EQ(scripts.eval<returns::Integer>(mode, "return 42"), 42);
  EXPECT_EQ(scripts.eval<returns::Integer>(mode, "return nil"), 0);
  EXPECT_EQ(scripts.eval<returns::Status>(mode, "return redis.status_reply('PONG')"), "PONG");
  EXPECT_EQ(scripts.eval<returns::Value<std::string>>(mode, "return nil"), std::nullopt);
  // A Lua number in a VALUE or MULTI result is a Long, whatever the codec.
  EXPECT_EQ(scripts.eval<returns::Value<std::int64_t>>(mode, "return 5"), 5);
  EXPECT_EQ(scripts.eval<returns::Multi<Value>>(mode, "return {'x', 3, {'y'}}"),
            (std::vector<Value>{Value::string("x"), Value::long_int(3),
                                Value::list({Value::string("y")})}));
  EXPECT_EQ(scripts.eval<returns::MapValue<std::string>>(mode, "return ARGV[1]", {},
                                                         std::vector<std::string>{"v"}),
            "v");
  EXPECT_EQ(scripts.eval<returns::MapValueList<std::string>>(mode, "return {'p', 'q'}"),
            (std::vector<std::string>{"p", "q"}));
}

TEST_F(ScriptsTest, ReadOnlyScriptStaysReadOnlyWhenSentWithItsSource) {
  // A new server has no script cached: EVALSHA_RO is answered NOSCRIPT and the script is sent
  // again with its source, still as EVAL_RO, so the server still refuses its write.
  Scripts scripts(client, codecs::string());
  Monitor monitor(server);
  expect_error(
      errc::server_error,
      [&] {
        scripts.eval<returns::Status>(ScriptMode::read_only,
                                      "return redis.call('set', KEYS[1], 'v')", {"ro"});
      },
      "a write in a read-only script");
  EXPECT_EQ(server.command({"EXISTS", "ro"}), "0");
  const auto sent = script_commands(sent_by_clients(monitor.take(server)));
  ASSERT_EQ(sent.size(), 2U);
  EXPECT_EQ(sent[0][0], "EVALSHA_RO");
  EXPECT_EQ(sent[1][0], "EVAL_RO");
}

TEST_F(ScriptsTest, LuaErrorIsServerErrorWithTheServersText) {
  Scripts scripts(client, codecs::string());
  try {
    scripts.eval<returns::Status>(ScriptMode::read_write, "return redis.error_reply('my failure')");
    ADD_FAILURE() << "no error";
  } catch (const redisson::error& failure) {
    EXPECT_EQ(failure.code(), errc::server_error);
    EXPECT_NE(std::string(failure.what()).find("my failure"), std::string::npos) << failure.what();
  }
  server.command({"SET", "text", "abc"});
  try {
    scripts.eval<returns::Integer>(ScriptMode::read_write, "return redis.call('incr', KEYS[1])",
                                   {"text"});
    ADD_FAILURE() << "no error";
  } catch (const redisson::error& failure) {
    EXPECT_EQ(failure.code(), errc::server_error);
    EXPECT_NE(std::string(failure.what()).find("not an integer"), std::string::npos)
        << failure.what();
  }
}

TEST_F(ScriptsTest, ScriptCacheLoadExistsFlush) {
  Scripts scripts(client, codecs::string());
  const Script script("return 'cached'");
  EXPECT_EQ(scripts.script_exists({script.sha1()}), std::vector<bool>{false});
  EXPECT_EQ(scripts.script_load(script.source()), script.sha1());
  EXPECT_EQ(scripts.script_exists({script.sha1(), std::string(40, '0')}),
            (std::vector<bool>{true, false}));
  EXPECT_EQ(scripts.eval_sha<returns::Status>(ScriptMode::read_only, script.sha1()), "cached");
  scripts.script_flush();
  EXPECT_EQ(server.command({"SCRIPT", "EXISTS", script.sha1()}), "0");
  // eval_sha does not load it again (as Redisson): NOSCRIPT; eval does.
  expect_error(errc::server_error,
               [&] { scripts.eval_sha<returns::Status>(ScriptMode::read_only, script.sha1()); });
  EXPECT_EQ(scripts.eval<returns::Status>(ScriptMode::read_only, script), "cached");
}

TEST_F(ScriptsTest, ScriptKillStopsARunningScript) {
  // The server answers others during a script only past busy-reply-threshold (5 s by default).
  server.command({"CONFIG", "SET", "busy-reply-threshold", "50"});
  Scripts scripts(client, codecs::string());
  // The kill goes over another client's connection: the server reads nothing more from the
  // connection whose script is running.
  redisson::Client killer_client{redisson::test::config_for(server)};
  Scripts killer(killer_client);
  expect_error(
      errc::server_error, [&] { killer.script_kill(); }, "kill with nothing running");
  auto running = scripts.async_eval<returns::Status>(ScriptMode::read_only, "while true do end", {},
                                                     std::vector<std::string>{}, asio::use_future);
  // NOTBUSY until the script runs; then the kill succeeds.
  EXPECT_TRUE(eventually([&] {
    try {
      killer.script_kill();
      return true;
    } catch (const redisson::error&) {
      return false;
    }
  }));
  try {
    running.get();
    ADD_FAILURE() << "the killed script completed";
  } catch (const std::system_error& failure) {
    EXPECT_EQ(failure.code(), errc::server_error) << failure.what();
  }
}

TEST_F(ScriptsTest, AsyncEvalCompletesWithTheResult) {
  Scripts scripts(client, codecs::string());
  auto echoed = scripts.async_eval<returns::Value<std::string>>(
      ScriptMode::read_only, "return ARGV[1]", {}, std::vector<std::string>{"async"},
      asio::use_future);
  EXPECT_EQ(echoed.get(), "async");
  auto loaded = scripts.async_script_load("return 1", asio::use_future);
  EXPECT_EQ(loaded.get(), Script("return 1").sha1());
}

TEST_F(ScriptsTest, BadArgumentsAreRefusedAndSendNothing) {
  Scripts scripts(client, codecs::string());
  Monitor monitor(server);
  expect_error(
      errc::invalid_argument, [&] { scripts.eval_sha<returns::Status>(ScriptMode::read_only, ""); },
      "no SHA");
  expect_error(
      errc::invalid_argument, [&] { scripts.script_exists({}); }, "no SHAs");
  EXPECT_TRUE(sent_by_clients(monitor.take(server)).empty());
}

TEST(ScriptsOnOldServer, ReadOnlyIsSentAgainAsReadWriteWhereTheServerLacksIt) {
  // A server without EVALSHA_RO and EVAL_RO (renamed away), as before Redis 7: Redisson then
  // sends EVALSHA, and so does this client.
  redisson::test::RedisServerOptions options;
  options.extra_args = {"--rename-command", "EVALSHA_RO", "", "--rename-command", "EVAL_RO", ""};
  redisson::test::RedisServer server(options);
  ASSERT_NE(server.command({"EVALSHA_RO", std::string(40, '0'), "0"}).find("unknown command"),
            std::string::npos);
  redisson::Client client(redisson::test::config_for(server));
  Scripts scripts(client, codecs::string());
  EXPECT_EQ(scripts.eval<returns::Status>(ScriptMode::read_only, "return ARGV[1]", {},
                                          std::vector<std::string>{"old"}),
            "old");
  const auto sha = scripts.script_load("return ARGV[1]");
  EXPECT_EQ(scripts.eval_sha<returns::Status>(ScriptMode::read_only, sha, {},
                                              std::vector<std::string>{"again"}),
            "again");
}

}  // namespace

}  // namespace objects_scripts_test

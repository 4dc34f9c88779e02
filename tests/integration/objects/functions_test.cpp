// Functions against a real redis-server: Java Redisson's RFunction calls of the services fixtures
// (function_kryo, function_string) made again, with the same results and the same bytes sent
// (seen through MONITOR); dump and the three restore policies, stats, kill, errors, and what is
// not sent.
#include "redisson/objects/functions.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <asio/use_future.hpp>
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

namespace objects_functions_test {

using redisson::Bucket;
using redisson::CodecPtr;
using redisson::errc;
using redisson::FunctionLibrary;
using redisson::FunctionMode;
using redisson::Functions;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::from_hex;
using redisson::test::java_sent_commands;
using redisson::test::java_service_case;
using redisson::test::Monitor;
using redisson::test::sent_by_clients;
using redisson::test::SentCommands;
namespace codecs = redisson::codecs;
namespace returns = redisson::returns;

namespace {

constexpr const char* kEchoCode =
    "redis.register_function('echo', function(keys, args) return args[1] end)";

// The commands of the function cases, without what the client sends on its own.
SentCommands function_commands(const SentCommands& commands) {
  SentCommands kept;
  for (const auto& args : commands) {
    if (args[0] == "SET" || args[0].starts_with("FCALL") || args[0] == "FUNCTION") {
      kept.push_back(args);
    }
  }
  return kept;
}

// The names of the functions of `library`, in order.
std::vector<std::string> function_names(const FunctionLibrary& library) {
  std::vector<std::string> names;
  for (const auto& function : library.functions) names.push_back(function.name);
  std::sort(names.begin(), names.end());
  return names;
}

// What a server error says, or "" when `fn` does not throw one.
template <class Fn>
std::string server_error_text(Fn fn) {
  try {
    fn();
  } catch (const redisson::error& failure) {
    EXPECT_EQ(failure.code(), errc::server_error) << failure.what();
    return failure.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

class FunctionsTest : public redisson::test::ServerTest {
 protected:
  // function_kryo / function_string: the calls of Java's ServiceFixtures, in its order, with its
  // results; then the commands sent compared with Java's, byte for byte.
  void run_java_case(const std::string& case_name, const CodecPtr& codec) {
    const auto& fixture = java_service_case(case_name);
    const std::string key = fixture["key"];
    const std::string library = fixture["library"];
    const std::string suffix = case_name.substr(std::string("function_").size());
    const auto& results = fixture["results"];
    Monitor monitor(server);
    Functions functions(client, codec);

    functions.load_and_replace(library, fixture["code"].get<std::string>());
    Bucket<std::string>(client, key, codec).set("hello");
    EXPECT_EQ(functions.call<returns::Value<std::string>>(FunctionMode::write, "fx2echo_" + suffix,
                                                          {}, std::vector<std::string>{"hi"}),
              results[0].get<std::string>());
    EXPECT_EQ(
        functions.call<returns::Value<std::string>>(FunctionMode::read, "fx2get_" + suffix, {key}),
        results[1].get<std::string>());
    // STRING: the stored bytes as they are (Java shows Kryo's bytes as text).
    EXPECT_EQ(functions.call<returns::String>(FunctionMode::read, "fx2get_" + suffix, {key}),
              from_hex(fixture["encoded_hex"]["hello"].get<std::string>()));
    const auto listed = functions.list(library);
    ASSERT_EQ(listed.size(), 1U);
    EXPECT_EQ(listed[0].name, library);
    EXPECT_EQ(listed[0].engine, "LUA");
    ASSERT_EQ(listed[0].functions.size(), 2U);
    for (const auto& function : listed[0].functions) {
      const bool no_writes = function.name == "fx2get_" + suffix;
      EXPECT_EQ(function.flags,
                no_writes ? std::vector<std::string>{"no-writes"} : std::vector<std::string>{})
          << function.name;
    }
    EXPECT_EQ(function_names(listed[0]),
              (std::vector<std::string>{"fx2echo_" + suffix, "fx2get_" + suffix}));
    functions.delete_library(library);
    EXPECT_TRUE(functions.list(library).empty());

    auto ours = function_commands(sent_by_clients(monitor.take(server)));
    ASSERT_FALSE(ours.empty());
    ours.pop_back();  // the second list(), which Java did not make
    const auto javas = function_commands(java_sent_commands(case_name));
    // FUNCTION LOAD, SET, FCALL, FCALL_RO twice, FUNCTION LIST, FUNCTION DELETE.
    EXPECT_EQ(javas.size(), 7U);
    EXPECT_EQ(ours, javas);
  }
};

TEST_F(FunctionsTest, JavaKryoCaseSendsTheSameBytesAndReadsTheSameResults) {
  run_java_case("function_kryo", codecs::kryo5());
}

TEST_F(FunctionsTest, JavaStringCaseSendsTheSameBytesAndReadsTheSameResults) {
  run_java_case("function_string", codecs::string());
}

TEST_F(FunctionsTest, LoadRefusesAnExistingLibraryAndLoadAndReplaceReplacesIt) {
  Functions functions(client, codecs::string());
  functions.load("lib", kEchoCode);
  EXPECT_NE(server_error_text([&] { functions.load("lib", kEchoCode); }).find("already exists"),
            std::string::npos);
  functions.load_and_replace(
      "lib", "redis.register_function('echo2', function(keys, args) return args[1] end)");
  EXPECT_EQ(function_names(functions.list("lib").at(0)), std::vector<std::string>{"echo2"});
  EXPECT_EQ(functions.list("li*").size(), 1U);
  EXPECT_TRUE(functions.list("other*").empty());
}

TEST_F(FunctionsTest, DumpAndTheThreeRestorePolicies) {
  Functions functions(client, codecs::string());
  functions.load("saved", kEchoCode);
  const auto payload = functions.dump();
  EXPECT_FALSE(payload.empty());

  // APPEND (restore): a library of the same name is refused, and nothing changes.
  EXPECT_NE(server_error_text([&] { functions.restore(payload); }).find("already exists"),
            std::string::npos);
  functions.flush();
  EXPECT_TRUE(functions.list().empty());
  functions.restore(payload);
  EXPECT_EQ(functions.list().size(), 1U);

  // FLUSH (restore_after_flush): the other libraries are gone.
  functions.load("other", "redis.register_function('other', function() return 1 end)");
  functions.restore_after_flush(payload);
  const auto after_flush = functions.list();
  ASSERT_EQ(after_flush.size(), 1U);
  EXPECT_EQ(after_flush[0].name, "saved");

  // REPLACE (restore_and_replace): the library of the same name takes the dump's code.
  functions.load_and_replace("saved",
                             "redis.register_function('changed', function() return 1 end)");
  functions.restore_and_replace(payload);
  EXPECT_EQ(function_names(functions.list("saved").at(0)), std::vector<std::string>{"echo"});
}

TEST_F(FunctionsTest, StatsCountLibrariesAndFunctions) {
  Functions functions(client, codecs::string());
  functions.load("two",
                 "redis.register_function('a', function() return 1 end)\n"
                 "redis.register_function('b', function() return 2 end)");
  const auto stats = functions.stats();
  EXPECT_FALSE(stats.running.has_value());
  ASSERT_EQ(stats.engines.count("LUA"), 1U);
  EXPECT_EQ(stats.engines.at("LUA").libraries, 1);
  EXPECT_EQ(stats.engines.at("LUA").functions, 2);
}

TEST_F(FunctionsTest, KillStopsARunningReadOnlyFunction) {
  // The server answers others during a function only past busy-reply-threshold (5 s default).
  server.command({"CONFIG", "SET", "busy-reply-threshold", "50"});
  Functions functions(client, codecs::string());
  functions.load("spin",
                 "redis.register_function{function_name='spin', callback=function() "
                 "while true do end end, flags={'no-writes'}}");
  // The kill goes over another client's connection: the server reads nothing more from the
  // connection whose function is running.
  redisson::Client killer_client{redisson::test::config_for(server)};
  Functions killer(killer_client);
  expect_error(
      errc::server_error, [&] { killer.kill(); }, "kill with nothing running");
  auto running = functions.async_call<returns::Status>(
      FunctionMode::read, "spin", {}, std::vector<std::string>{}, asio::use_future);
  EXPECT_TRUE(eventually([&] {
    try {
      const auto stats = killer.stats();  // answered while the function runs
      if (!stats.running || stats.running->name != "spin") return false;
      killer.kill();
      return true;
    } catch (const redisson::error&) {
      return false;
    }
  }));
  try {
    running.get();
    ADD_FAILURE() << "the killed function completed";
  } catch (const std::system_error& failure) {
    EXPECT_EQ(failure.code(), errc::server_error) << failure.what();
  }
}

TEST_F(FunctionsTest, ServerErrorsCarryTheServersText) {
  Functions functions(client, codecs::string());
  EXPECT_NE(server_error_text([&] {
              functions.call<returns::Status>(FunctionMode::write, "missing");
            }).find("Function not found"),
            std::string::npos);
  functions.load("failing",
                 "redis.register_function('fail', function() "
                 "return redis.error_reply('my failure') end)");
  EXPECT_NE(server_error_text([&] {
              functions.call<returns::Status>(FunctionMode::write, "fail");
            }).find("my failure"),
            std::string::npos);
  EXPECT_NE(server_error_text([&] { functions.delete_library("missing"); }).find("not found"),
            std::string::npos);
}

TEST_F(FunctionsTest, AsyncCallCompletesWithTheResult) {
  Functions functions(client, codecs::string());
  functions.async_load("lib", kEchoCode, asio::use_future).get();
  auto echoed = functions.async_call<returns::Value<std::string>>(
      FunctionMode::write, "echo", {}, std::vector<std::string>{"async"}, asio::use_future);
  EXPECT_EQ(echoed.get(), "async");
}

TEST_F(FunctionsTest, BadArgumentsAreRefusedAndSendNothing) {
  Functions functions(client, codecs::string());
  Monitor monitor(server);
  expect_error(
      errc::invalid_argument, [&] { functions.load("", kEchoCode); }, "no name");
  expect_error(
      errc::invalid_argument, [&] { functions.load("lib", ""); }, "no code");
  expect_error(errc::invalid_argument, [&] { functions.load_and_replace("", kEchoCode); });
  expect_error(
      errc::invalid_argument, [&] { functions.delete_library(""); }, "delete no name");
  expect_error(
      errc::invalid_argument, [&] { functions.restore(""); }, "no payload");
  expect_error(
      errc::invalid_argument, [&] { functions.call<returns::Status>(FunctionMode::read, ""); },
      "call no name");
  auto refused = functions.async_load("", kEchoCode, asio::use_future);
  expect_error(
      errc::invalid_argument, [&] { refused.get(); }, "async load no name");
  EXPECT_TRUE(sent_by_clients(monitor.take(server)).empty());
}

}  // namespace

}  // namespace objects_functions_test

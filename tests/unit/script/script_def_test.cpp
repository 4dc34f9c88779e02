// Script definitions (key counts from the Lua headers) and the EVAL fallback's command.
#include "script/script_def.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "lua_scripts.hpp"
#include "script/script_runner.hpp"

namespace unit_script_script_def_test {

namespace {

using redisson::Command;
using redisson::detail::as_eval;
namespace lua = redisson::detail::lua;

TEST(ScriptDef, KeyCountComesFromTheHeaderComment) {
  EXPECT_EQ(lua::lock_acquire.key_count, 1);
  EXPECT_EQ(lua::lock_unlock.key_count, 3);
  EXPECT_EQ(lua::fair_lock_unlock.key_count, 5);
  EXPECT_EQ(lua::lock_renew.key_count, redisson::detail::ScriptDef::kAnyKeys);
}

TEST(ScriptDef, ShaIsTheSha1OfTheEmbeddedSource) {
  EXPECT_EQ(lua::lock_unlock.sha1, lua::lock_unlock.script().sha1());
  EXPECT_EQ(lua::lock_unlock.source, lua::lock_unlock.script().source());
}

TEST(ScriptDef, CallBuildsEvalshaWithKeysThenArgs) {
  const auto call = lua::lock_acquire({"n"}, {std::int64_t{30000}, "id:1"});
  const Command expected = Command{"EVALSHA", lua::lock_acquire.sha1, "1", "n", "30000", "id:1"};
  EXPECT_EQ(call.command.encoded_arguments(), expected.encoded_arguments());
  EXPECT_EQ(call.script.sha1(), lua::lock_acquire.sha1);
}

TEST(ScriptDef, CallIsRoutedByItsFirstKey) {
  const auto call =
      lua::lock_unlock({"{n}", "redisson_lock__channel:{n}", "x:{n}"}, {"0", "1", "2"});
  EXPECT_EQ(call.command.routing_key(), "{n}");
  const auto keyless = lua::lock_renew(std::vector<std::string>{}, {"30000"});
  EXPECT_EQ(keyless.command.routing_key(), std::nullopt);
}

TEST(ScriptDef, WrongKeyCountIsRefusedBeforeAnythingIsSent) {
  EXPECT_THROW(lua::lock_unlock({"n"}, {"0"}), std::logic_error);
}

TEST(ScriptRunner, EvalFallbackKeepsKeysAndArgumentsAndSendsTheSource) {
  const Command evalsha{"EVALSHA", "0123456789012345678901234567890123456789", "2", "k1", "k2", "",
                        "a\r\nb"};
  const Command expected{"EVAL", "return 1", "2", "k1", "k2", "", "a\r\nb"};
  const auto eval = as_eval(evalsha, "return 1");
  EXPECT_EQ(eval.encoded_arguments(), expected.encoded_arguments());
  EXPECT_EQ(eval.size(), expected.size());
  EXPECT_EQ(eval.routing_key(), "k1");
}

TEST(ScriptRunner, ReadOnlyEvalFallbackStaysReadOnly) {
  // Scripts::eval(ScriptMode::read_only): EVALSHA_RO answered NOSCRIPT is sent as EVAL_RO, so
  // the server still refuses the script's writes.
  const Command evalsha_ro{"EVALSHA_RO", "0123456789012345678901234567890123456789", "1", "k1",
                           "v"};
  const auto eval = as_eval(evalsha_ro, "return 1");
  EXPECT_EQ(eval.encoded_arguments(),
            Command({"EVAL_RO", "return 1", "1", "k1", "v"}).encoded_arguments());
  EXPECT_EQ(eval.routing_key(), "k1");
}

TEST(ScriptRunner, EvalFallbackKeepsAnExplicitKey) {
  // numkeys 0 with a key named for routing: the rules alone would route the EVAL anywhere.
  const auto evalsha =
      Command{"EVALSHA", "0123456789012345678901234567890123456789", "0"}.key("k1").arg("k1");
  const auto eval = as_eval(evalsha, "return 1");
  EXPECT_EQ(eval.encoded_arguments(),
            Command({"EVAL", "return 1", "0", "k1", "k1"}).encoded_arguments());
  EXPECT_EQ(eval.routing_key(), "k1");
  // The first "k1" (the one that routed), not an equal value after it.
  EXPECT_EQ(eval.routing_key()->data(),
            eval.encoded_arguments().data() + eval.encoded_arguments().find("k1"));
}

}  // namespace

}  // namespace unit_script_script_def_test

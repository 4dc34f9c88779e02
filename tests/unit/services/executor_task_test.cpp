// How a C++ task travels (services/executor_task.hpp), with no server: the parameters map
// round-trips through both codecs the executor accepts and inside a RemoteServiceRequest, the
// kinds of run map to Redisson's method names both ways, and a Java task's parameters (the
// fixture's TaskParameters bytes) are refused as foreign rather than misread.
#include "services/executor_task.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "../codec/codec_test_util.hpp"
#include "redisson/codec.hpp"
#include "redisson/error.hpp"
#include "services/remote_wire.hpp"

namespace unit_services_executor_task_test {

namespace {

using codec_test::unhex;
using namespace redisson::detail;
namespace codecs = redisson::codecs;
using Kind = TaskSubmission::Kind;

const std::string kServiceCases =
    REDISSON_SOURCE_DIR "/tests/fixtures/redisson-3.52/services/cases.jsonl";

ExecutorTaskParams sample() {
  ExecutorTaskParams params;
  params.task = "report";
  params.start_ms = 1795792425000;
  params.period_ms = 5000;
  params.spent_ms = 12;
  params.cron = "0/5 * * * * ?";
  params.zone = "+02:00";
  return params;
}

TEST(ExecutorTask, ParametersRoundTripThroughKryoAndJson) {
  for (const auto& codec : {codecs::kryo5(), codecs::json()}) {
    const auto bytes = encode_task_params(*codec, sample());
    EXPECT_EQ(decode_task_params(*codec, bytes), sample());
  }
}

TEST(ExecutorTask, ParametersTravelFirstInARemoteServiceRequest) {
  for (const auto& [codec, wire] : {std::pair{codecs::kryo5(), RemoteWire::kryo5},
                                    std::pair{codecs::json(), RemoteWire::json}}) {
    RemoteRequest request;
    request.id = "0123456789abcdef0123456789abcdef";
    request.executor_id = "E";
    request.method_name = executor_method_of(Kind::fixed_rate, false);
    request.args = {encode_task_params(*codec, sample()),
                    codec->encode(redisson::Value::integer(7))};
    request.options.ack_timeout_ms.reset();
    request.options.execution_timeout_ms.reset();
    const auto decoded = decode_remote_request(wire, encode_remote_request(wire, request));
    EXPECT_EQ(decoded.method_name, "scheduleAtFixedRate");
    EXPECT_EQ(decode_task_params(*codec, decoded.args.at(0)), sample());
    EXPECT_EQ(codec->decode(decoded.args.at(1)), redisson::Value::integer(7));
  }
}

TEST(ExecutorTask, KindsOfRunAreRedissonsMethodNames) {
  EXPECT_STREQ(executor_method_of(Kind::now, true), "executeCallable");
  EXPECT_STREQ(executor_method_of(Kind::now, false), "executeRunnable");
  EXPECT_STREQ(executor_method_of(Kind::delayed, true), "scheduleCallable");
  EXPECT_STREQ(executor_method_of(Kind::delayed, false), "scheduleRunnable");
  EXPECT_STREQ(executor_method_of(Kind::fixed_rate, false), "scheduleAtFixedRate");
  EXPECT_STREQ(executor_method_of(Kind::fixed_delay, false), "scheduleWithFixedDelay");
  EXPECT_STREQ(executor_method_of(Kind::cron, false), "schedule");
  for (const auto kind :
       {Kind::now, Kind::delayed, Kind::fixed_rate, Kind::fixed_delay, Kind::cron}) {
    Kind read = Kind::now;
    ASSERT_TRUE(executor_kind_of(executor_method_of(kind, kind <= Kind::delayed), read));
    EXPECT_EQ(read, kind);
  }
  Kind read = Kind::now;
  EXPECT_FALSE(executor_kind_of("add", read));
}

TEST(ExecutorTask, AJavaTasksParametersAreForeign) {
  // The request Java Redisson 3.52 queued for submit(new SumTask(2, 3)): its first argument is
  // a TaskParameters with the task's bytecode.
  std::ifstream in(kServiceCases);
  std::string line;
  std::string stored;
  while (std::getline(in, line)) {
    if (line.find("\"case\":\"executor_kryo\"") == std::string::npos) continue;
    const auto row = nlohmann::json::parse(line);
    for (const auto& entry : row.at("state_queued_no_worker")) {
      if (entry.at("type") == "hash")
        stored = unhex(entry.at("content").at(0).at(1).at("hex").get<std::string>());
    }
  }
  ASSERT_FALSE(stored.empty());
  try {
    const auto request = decode_remote_request(RemoteWire::kryo5, stored);
    EXPECT_EQ(request.method_name, "executeCallable");
    (void)decode_task_params(*codecs::kryo5(), request.args.at(0));
    ADD_FAILURE() << "a Java task read as ours";
  } catch (const redisson::error& foreign) {
    EXPECT_EQ(foreign.code(), redisson::errc::codec_error) << foreign.what();
  }
  EXPECT_THROW((void)decode_task_params(*codecs::kryo5(),
                                        codecs::kryo5()->encode(redisson::Value::string("x"))),
               redisson::error);
}

}  // namespace

}  // namespace unit_services_executor_task_test

// A blocking object call (one command: Bucket::get, Map::put, ...) whose command goes out on an
// idle connection reads its own reply and converts it on the caller's thread, as
// Client::execute does (redisson/detail/read_slot.hpp): one thread hand-over less per call.
// These tests pin where the conversion runs, and that replies still reach the right callers
// when several threads call at once.
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/codec.hpp"
#include "redisson/objects/bucket.hpp"
#include "redisson/objects/map.hpp"
#include "support/expect_error.hpp"
#include "support/server_test.hpp"

namespace objects_object_caller_read_test {

using redisson::Bucket;
using redisson::errc;
using redisson::Map;
using redisson::test::expect_error;
namespace codecs = redisson::codecs;

namespace {

// StringCodec that notes the thread of its last decode.
class ThreadNotingCodec : public redisson::Codec {
 public:
  std::string_view name() const noexcept override { return "string"; }
  void encode(const redisson::Value& value, std::string& out) const override {
    inner_->encode(value, out);
  }
  redisson::Value decode(std::string_view bytes) const override {
    {
      const std::lock_guard lock(mutex_);
      last_decode_thread_ = std::this_thread::get_id();
    }
    return inner_->decode(bytes);
  }
  std::thread::id last_decode_thread() const {
    const std::lock_guard lock(mutex_);
    return last_decode_thread_;
  }

 private:
  redisson::CodecPtr inner_ = codecs::string();
  mutable std::mutex mutex_;
  mutable std::thread::id last_decode_thread_;
};

class ObjectCallerReadTest : public redisson::test::ServerTest {};

TEST_F(ObjectCallerReadTest, ABlockingGetOnAnIdleClientDecodesOnTheCallersThread) {
  auto codec = std::make_shared<ThreadNotingCodec>();
  Bucket<std::string> bucket(client, "caller-read", codec);
  bucket.set("value");
  int here = 0;
  for (int i = 0; i < 20; ++i) {
    // Nothing else runs on this client, and the pause lets the I/O thread finish with the last
    // reply (it re-arms its read after a caller's), so each call finds the connection idle. (A
    // call that still meets the I/O thread mid-read leaves the reply to it: under
    // ThreadSanitizer, back to back, half of them did. So allow a few.)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(bucket.get(), "value");
    if (codec->last_decode_thread() == std::this_thread::get_id()) ++here;
  }
  EXPECT_GE(here, 15);

  // The async form's conversion stays on the I/O thread.
  EXPECT_EQ(bucket.async_get(asio::use_future).get(), "value");
  EXPECT_NE(codec->last_decode_thread(), std::this_thread::get_id());
}

TEST_F(ObjectCallerReadTest, AStartThatTakesNoReadSlotLeavesItsReplyToTheIoThread) {
  // Map::put runs a script through a start of its own (Object::run), which takes no ReadSlot:
  // its reply is read, and its previous value decoded, by the I/O thread even when the
  // blocking caller found the connection idle.
  auto codec = std::make_shared<ThreadNotingCodec>();
  Map<std::string, std::string> map(client, "caller-read-put", codec);
  map.fast_put("k", "first");
  for (int i = 0; i < 5; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // as above: an idle connection
    EXPECT_TRUE(map.put("k", "v" + std::to_string(i)).has_value());
    EXPECT_NE(codec->last_decode_thread(), std::this_thread::get_id());
  }
}

TEST_F(ObjectCallerReadTest, BlockingCallsOnSeveralThreadsEachGetTheirOwnReply) {
  constexpr int kThreads = 4;
  constexpr int kRounds = 500;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Bucket<std::string> bucket(client, "caller-read:" + std::to_string(t), codecs::string());
      Map<std::string, std::string> map(client, "caller-read-map", codecs::string());
      for (int i = 0; i < kRounds; ++i) {
        const auto word = std::to_string(t) + ":" + std::to_string(i);
        bucket.set(word);
        if (bucket.get() != word) ++wrong;
        map.fast_put(std::to_string(t), word);
        if (map.get(std::to_string(t)) != word) ++wrong;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST_F(ObjectCallerReadTest, AnErrorReplyReadByTheCallerIsItsError) {
  server.command({"HSET", "a-hash", "f", "v"});
  Bucket<std::string> bucket(client, "a-hash", codecs::string());
  for (int i = 0; i < 3; ++i) {
    expect_error(errc::wrong_type, [&] { bucket.get(); });
    EXPECT_EQ(server.command({"HGET", "a-hash", "f"}), "v");  // changed nothing
  }
  // A value the codec cannot read fails in the conversion, on the caller's thread too.
  server.command({"SET", "not-kryo", "\x01"});
  Bucket<std::string> kryo(client, "not-kryo", codecs::kryo5());
  expect_error(errc::codec_error, [&] { kryo.get(); });
  EXPECT_EQ(client.execute({"PING"}).str, "PONG");
}

}  // namespace

}  // namespace objects_object_caller_read_test

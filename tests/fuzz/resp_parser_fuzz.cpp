// libFuzzer target for the RESP parser: any bytes must give replies or a protocol error, never a
// crash, a leak or unbounded memory; and where the bytes arrive must not change the outcome.
// The first byte of an input picks a split point; the rest is the byte stream.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "redisson/reply.hpp"
#include "resp/parser.hpp"

namespace {

using redisson::Reply;
using redisson::detail::resp::Parser;
using redisson::detail::resp::ParseResult;
using redisson::detail::resp::ParserLimits;
using redisson::detail::resp::ParseStatus;

// Small limits so the fuzzer reaches every limit quickly.
ParserLimits fuzz_limits() {
  ParserLimits limits;
  limits.max_depth = 8;
  limits.max_bulk_length = 4096;
  limits.max_aggregate_length = 512;
  limits.max_line_length = 256;
  return limits;
}

struct Outcome {
  std::vector<std::string> replies;  // display strings
  bool failed = false;
  std::string message;
};

// to_display_string() leaves out the verbatim format, so it is added here.
std::string describe(const Reply& reply) {
  std::string text = reply.to_display_string();
  if (reply.type == redisson::ReplyType::verbatim) text = reply.format + ":" + text;
  return text;
}

void check(bool condition) {
  if (!condition) std::abort();
}

Outcome feed(const std::vector<std::string_view>& pieces) {
  Parser parser(fuzz_limits());
  Outcome outcome;
  for (std::string_view piece : pieces) {
    while (!piece.empty()) {
      Reply reply;
      std::error_code ec;
      const ParseResult result = parser.parse(piece, reply, ec);
      check(result.consumed <= piece.size());
      if (result.status == ParseStatus::error) {
        check(static_cast<bool>(ec) && !parser.error_message().empty());
        outcome.failed = true;
        outcome.message = parser.error_message();
        return outcome;
      }
      check(!ec);
      if (result.status == ParseStatus::need_more) {
        check(result.consumed == piece.size());
        break;
      }
      check(result.consumed > 0);
      piece.remove_prefix(result.consumed);
      outcome.replies.push_back(describe(reply));
    }
  }
  return outcome;
}

bool same(const Outcome& a, const Outcome& b) {
  return a.failed == b.failed && a.message == b.message && a.replies == b.replies;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t split_seed = data[0];
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);

  const Outcome whole = feed({input});

  const std::size_t at = input.empty() ? 0 : split_seed % (input.size() + 1);
  check(same(whole, feed({input.substr(0, at), input.substr(at)})));

  if (input.size() <= 4096) {
    std::vector<std::string_view> bytes;
    bytes.reserve(input.size());
    for (std::size_t i = 0; i < input.size(); ++i) bytes.push_back(input.substr(i, 1));
    check(same(whole, feed(bytes)));
  }
  return 0;
}

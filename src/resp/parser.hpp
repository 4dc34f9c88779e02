// RESP2/RESP3 reply parser: an incremental state machine over bytes, with no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "redisson/reply.hpp"

namespace redisson::detail::resp {

/// Bounds that keep a hostile or broken server from making the parser use unbounded memory.
struct ParserLimits {
  std::size_t max_depth = 64;                          ///< nesting of aggregates
  std::int64_t max_bulk_length = 512LL * 1024 * 1024;  ///< like Redis' proto-max-bulk-len
  std::int64_t max_aggregate_length = 1LL << 28;       ///< elements of one array/map/set/push
  std::size_t max_line_length = 64 * 1024;             ///< simple string / error / number lines
};

enum class ParseStatus { need_more, reply_ready, error };

struct ParseResult {
  ParseStatus status;
  std::size_t consumed;  ///< bytes of the input the parser used (and the caller drops)
};

/// Parses a stream of RESP2/RESP3 replies, one top-level reply per reply_ready.
///
/// Bytes may arrive split anywhere: a half-read line, a half-read bulk payload and partly filled
/// aggregates are kept inside the parser between calls. On need_more the whole input was consumed.
/// A whole scalar reply present in the input is parsed without touching that state and without
/// heap allocation beyond the reply's own string. Memory use is bounded by the bytes received and
/// the limits: no length read from the wire is trusted for an up-front allocation.
///
/// Not thread-safe; one parser per connection.
class Parser {
 public:
  explicit Parser(ParserLimits limits = {});

  /// Consumes bytes until one complete top-level reply is ready, the input is exhausted, or the
  /// input is malformed.
  ///
  /// On reply_ready `out` is overwritten with the reply; call again with input.substr(consumed).
  /// On need_more all of `input` was consumed. On error `ec` is errc::protocol_error, the reason
  /// is in error_message(), and every further call fails until reset().
  ParseResult parse(std::string_view input, Reply& out, std::error_code& ec);

  /// Why the last parse() failed, e.g. "invalid type byte 'x'".
  const std::string& error_message() const noexcept { return error_message_; }

  /// Forgets all partial state and any error; the next byte is the start of a reply.
  void reset();

  const ParserLimits& limits() const noexcept { return limits_; }

 private:
  // What one step of the slow path achieved.
  enum class Step { next, ready, need_more, error };

  // An aggregate (or attribute) whose elements are still arriving.
  struct Frame {
    Reply reply;                 // type and attributes set at the header; elements fill in
    std::int64_t remaining = 0;  // elements still to come (maps count keys and values)
    bool is_attribute = false;
    std::vector<Reply> pending_attributes;  // attributes read for this frame's next element
  };

  bool idle() const noexcept {
    return depth_ == 0 && line_.empty() && !bulk_active_ && top_pending_attributes_.empty();
  }
  std::size_t parse_whole_scalar(std::string_view input, Reply& out);

  Step read_line(std::string_view input, std::size_t& pos, std::string_view& line);
  Step process_line(std::string_view line, std::string_view input, std::size_t& pos);
  Step begin_bulk(ReplyType type, std::string_view header, std::string_view input,
                  std::size_t& pos);
  Step continue_bulk(std::string_view input, std::size_t& pos);
  Step complete_bulk(ReplyType type, std::string_view payload);
  Step begin_aggregate(ReplyType type, bool is_attribute, std::string_view header,
                       std::size_t available);

  Reply& new_slot();
  std::vector<Reply>& level_pending_attributes() noexcept;
  Step value_done();
  Step fail(std::string message);

  ParserLimits limits_;
  std::vector<Frame> stack_;  // open aggregates are stack_[0, depth_); frames are reused
  std::size_t depth_ = 0;
  std::vector<Reply> top_pending_attributes_;  // attributes read for the next top-level reply
  std::string line_;                           // a line split across calls (type byte included)
  std::string bulk_;                           // a bulk payload split across calls
  std::size_t bulk_length_ = 0;
  int bulk_crlf_seen_ = 0;  // how much of the "\r\n" after the payload was read
  ReplyType bulk_type_ = ReplyType::bulk_string;
  bool bulk_active_ = false;
  bool failed_ = false;
  Reply* out_ = nullptr;  // the caller's reply, valid during one parse() call only
  std::string error_message_;
};

}  // namespace redisson::detail::resp

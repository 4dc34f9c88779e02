#include "resp/parser.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <limits>
#include <utility>

#include "redisson/error.hpp"

namespace redisson::detail::resp {
namespace {

// The shortest RESP value is "_\r\n": an aggregate header announcing n elements is only believed
// as far as the bytes already received could hold them.
constexpr std::size_t kMinValueBytes = 3;
// Caps an up-front reserve so that deeply nested huge headers cost kilobytes, not gigabytes.
constexpr std::size_t kMaxElementReserve = 256;
// A split bulk payload reserves at most this much beyond what has arrived; the string grows
// geometrically if the server really sends more.
constexpr std::size_t kBulkReserveCap = 64 * 1024;

enum class NumberStatus { ok, invalid, overflow };

NumberStatus parse_integer(std::string_view text, std::int64_t& value) {
  const char* first = text.data();
  const char* const last = first + text.size();
  // RESP3 allows an explicit '+', std::from_chars does not.
  if (first != last && *first == '+') {
    ++first;
    if (first != last && *first == '-') return NumberStatus::invalid;
  }
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec == std::errc::result_out_of_range) return NumberStatus::overflow;
  if (ec != std::errc{} || ptr != last) return NumberStatus::invalid;
  return NumberStatus::ok;
}

bool parse_double(std::string_view text, double& value) {
  const char* first = text.data();
  const char* const last = first + text.size();
  if (first != last && *first == '+') {
    ++first;
    if (first != last && (*first == '-' || *first == '+')) return false;
  }
  // Redis writes doubles with %.17g, so an out-of-range value is not something it sends.
  const auto [ptr, ec] = std::from_chars(first, last, value);
  return ec == std::errc{} && ptr == last;
}

bool is_big_number(std::string_view text) {
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) text.remove_prefix(1);
  if (text.empty()) return false;
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_verbatim(std::string_view payload) { return payload.size() >= 4 && payload[3] == ':'; }

// Shows a type byte in an error message even when it is not printable.
std::string describe_byte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  char text[8];
  if (byte >= 0x20 && byte < 0x7f) {
    std::snprintf(text, sizeof text, "'%c'", c);
  } else {
    std::snprintf(text, sizeof text, "0x%02x", byte);
  }
  return text;
}

// Gives a reused Reply the state of a fresh one without dropping its buffers.
void reset_reply(Reply& reply, ReplyType type) {
  reply.type = type;
  reply.integer = 0;
  reply.number = 0.0;
  reply.str.clear();
  reply.format.clear();
  reply.elements.clear();
  reply.attributes.clear();
}

}  // namespace

Parser::Parser(ParserLimits limits) : limits_(limits) {}

void Parser::reset() {
  stack_.clear();
  depth_ = 0;
  top_pending_attributes_.clear();
  line_.clear();
  bulk_.clear();
  bulk_length_ = 0;
  bulk_crlf_seen_ = 0;
  bulk_active_ = false;
  failed_ = false;
  error_message_.clear();
}

ParseResult Parser::parse(std::string_view input, Reply& out, std::error_code& ec) {
  if (failed_) {
    ec = make_error_code(errc::protocol_error);
    return {ParseStatus::error, 0};
  }
  if (ec) ec.clear();  // clear() costs a call to system_category(); most callers pass a clean one
  if (idle()) {
    if (const std::size_t consumed = parse_whole_scalar(input, out); consumed != 0) {
      return {ParseStatus::reply_ready, consumed};
    }
  }

  out_ = &out;
  std::size_t pos = 0;
  for (;;) {
    Step step;
    if (bulk_active_) {
      step = continue_bulk(input, pos);
    } else if (pos == input.size()) {
      step = Step::need_more;
    } else {
      std::string_view line;
      step = read_line(input, pos, line);
      if (step == Step::next) {
        step = process_line(line, input, pos);
        line_.clear();  // after process_line: `line` may point into it
      }
    }
    switch (step) {
      case Step::next:
        continue;
      case Step::ready:
        return {ParseStatus::reply_ready, pos};
      case Step::need_more:
        return {ParseStatus::need_more, pos};
      case Step::error:
        ec = make_error_code(errc::protocol_error);
        return {ParseStatus::error, pos};
    }
  }
}

// The hot path: a whole simple string, error, integer or bulk string at the start of the input,
// with no partial state. Returns the bytes consumed, or 0 for anything unusual (including every
// malformed case), which is left to the general path; that path also words the errors.
std::size_t Parser::parse_whole_scalar(std::string_view input, Reply& out) {
  if (input.empty()) return 0;
  const char* const begin = input.data();
  const char* const end = begin + input.size();
  const char type = *begin;
  if (type != '+' && type != '-' && type != ':' && type != '$') return 0;

  // The line may hold at most max_line_length bytes (type byte included) before its '\r'.
  const std::size_t scan = std::min(input.size() - 1, limits_.max_line_length);
  const auto* cr = static_cast<const char*>(std::memchr(begin + 1, '\r', scan));
  if (cr == nullptr || cr + 1 == end || cr[1] != '\n') return 0;
  const std::string_view body(begin + 1, static_cast<std::size_t>(cr - begin - 1));
  const char* const after_line = cr + 2;

  switch (type) {
    case '+':
    case '-':
      reset_reply(out, type == '+' ? ReplyType::simple_string : ReplyType::error);
      out.str.assign(body);
      return static_cast<std::size_t>(after_line - begin);
    case ':': {
      std::int64_t value = 0;
      if (parse_integer(body, value) != NumberStatus::ok) return 0;
      reset_reply(out, ReplyType::integer);
      out.integer = value;
      return static_cast<std::size_t>(after_line - begin);
    }
    default: {  // '$'
      std::int64_t length = 0;
      if (parse_integer(body, length) != NumberStatus::ok || length < 0 ||
          length > limits_.max_bulk_length) {
        return 0;
      }
      const auto n = static_cast<std::size_t>(length);
      if (static_cast<std::size_t>(end - after_line) < n + 2 || after_line[n] != '\r' ||
          after_line[n + 1] != '\n') {
        return 0;
      }
      reset_reply(out, ReplyType::bulk_string);
      out.str.assign(after_line, n);
      return static_cast<std::size_t>(after_line + n + 2 - begin);
    }
  }
}

Parser::Step Parser::read_line(std::string_view input, std::size_t& pos, std::string_view& line) {
  const char* const begin = input.data() + pos;
  const std::size_t available = input.size() - pos;

  if (!line_.empty() && line_.back() == '\r') {
    // The previous call ended between '\r' and '\n'.
    if (*begin != '\n') return fail("expected '\\n' after '\\r'");
    line_.pop_back();
    pos += 1;
    line = line_;
    return Step::next;
  }

  // line_ never holds more than max_line_length bytes, so room >= 1.
  const std::size_t room = limits_.max_line_length + 1 - line_.size();
  const auto* cr = static_cast<const char*>(std::memchr(begin, '\r', std::min(available, room)));
  if (cr == nullptr) {
    if (line_.size() + available > limits_.max_line_length) {
      return fail("line exceeds limit without CRLF");
    }
    line_.append(begin, available);
    pos += available;
    return Step::need_more;
  }
  const auto length = static_cast<std::size_t>(cr - begin);
  if (length + 1 == available) {
    line_.append(begin, available);  // keeps the '\r'; the '\n' comes next call
    pos += available;
    return Step::need_more;
  }
  if (cr[1] != '\n') return fail("expected '\\n' after '\\r'");
  pos += length + 2;
  if (line_.empty()) {
    line = std::string_view(begin, length);
  } else {
    line_.append(begin, length);
    line = line_;
  }
  return Step::next;
}

Parser::Step Parser::process_line(std::string_view line, std::string_view input, std::size_t& pos) {
  if (line.empty()) return fail("empty line where a type byte was expected");
  const std::string_view body = line.substr(1);
  switch (line.front()) {
    case '+':
    case '-': {
      Reply& reply = new_slot();
      reply.type = line.front() == '+' ? ReplyType::simple_string : ReplyType::error;
      reply.str.assign(body);
      return value_done();
    }
    case ':': {
      std::int64_t value = 0;
      switch (parse_integer(body, value)) {
        case NumberStatus::ok:
          break;
        case NumberStatus::overflow:
          return fail("integer overflow");
        case NumberStatus::invalid:
          return fail("invalid integer");
      }
      Reply& reply = new_slot();
      reply.type = ReplyType::integer;
      reply.integer = value;
      return value_done();
    }
    case '_': {
      if (!body.empty()) return fail("invalid null");
      new_slot().type = ReplyType::null;
      return value_done();
    }
    case '#': {
      if (body != "t" && body != "f") return fail("invalid boolean");
      Reply& reply = new_slot();
      reply.type = ReplyType::boolean;
      reply.integer = body == "t" ? 1 : 0;
      return value_done();
    }
    case ',': {
      double value = 0.0;
      if (!parse_double(body, value)) return fail("invalid double");
      Reply& reply = new_slot();
      reply.type = ReplyType::double_value;
      reply.number = value;
      reply.str.assign(body);
      return value_done();
    }
    case '(': {
      if (!is_big_number(body)) return fail("invalid big number");
      Reply& reply = new_slot();
      reply.type = ReplyType::big_number;
      reply.str.assign(body);
      return value_done();
    }
    case '$':
      return begin_bulk(ReplyType::bulk_string, body, input, pos);
    case '!':
      return begin_bulk(ReplyType::error, body, input, pos);
    case '=':
      return begin_bulk(ReplyType::verbatim, body, input, pos);
    case '*':
      return begin_aggregate(ReplyType::array, false, body, input.size() - pos);
    case '%':
      return begin_aggregate(ReplyType::map, false, body, input.size() - pos);
    case '~':
      return begin_aggregate(ReplyType::set, false, body, input.size() - pos);
    case '>':
      return begin_aggregate(ReplyType::push, false, body, input.size() - pos);
    case '|':
      return begin_aggregate(ReplyType::map, true, body, input.size() - pos);
    default:
      return fail("invalid type byte " + describe_byte(line.front()));
  }
}

Parser::Step Parser::begin_bulk(ReplyType type, std::string_view header, std::string_view input,
                                std::size_t& pos) {
  std::int64_t length = 0;
  if (parse_integer(header, length) != NumberStatus::ok) return fail("invalid bulk length");
  if (length == -1) {  // RESP2's null bulk string
    new_slot().type = ReplyType::null;
    return value_done();
  }
  if (length < 0) return fail("negative bulk length");
  if (length > limits_.max_bulk_length) return fail("bulk length exceeds limit");

  const auto n = static_cast<std::size_t>(length);
  const std::size_t available = input.size() - pos;
  if (available >= n + 2) {
    const char* const payload = input.data() + pos;
    if (payload[n] != '\r' || payload[n + 1] != '\n') {
      return fail("missing CRLF after bulk payload");
    }
    pos += n + 2;
    return complete_bulk(type, std::string_view(payload, n));
  }
  bulk_active_ = true;
  bulk_type_ = type;
  bulk_length_ = n;
  bulk_crlf_seen_ = 0;
  bulk_.clear();
  bulk_.reserve(std::min(n, std::max(available, kBulkReserveCap)));
  return Step::next;
}

Parser::Step Parser::continue_bulk(std::string_view input, std::size_t& pos) {
  if (bulk_.size() < bulk_length_) {
    const std::size_t take = std::min(bulk_length_ - bulk_.size(), input.size() - pos);
    bulk_.append(input.data() + pos, take);
    pos += take;
    if (bulk_.size() < bulk_length_) return Step::need_more;
  }
  while (bulk_crlf_seen_ < 2) {
    if (pos == input.size()) return Step::need_more;
    if (input[pos] != (bulk_crlf_seen_ == 0 ? '\r' : '\n')) {
      return fail("missing CRLF after bulk payload");
    }
    ++pos;
    ++bulk_crlf_seen_;
  }
  bulk_active_ = false;
  if (bulk_type_ == ReplyType::verbatim) {
    // complete_bulk splits format and text; a copy is fine on this rare path.
    const Step step = complete_bulk(bulk_type_, bulk_);
    bulk_.clear();
    return step;
  }
  Reply& reply = new_slot();
  reply.type = bulk_type_;
  reply.str = std::move(bulk_);
  bulk_.clear();
  return value_done();
}

Parser::Step Parser::complete_bulk(ReplyType type, std::string_view payload) {
  if (type == ReplyType::verbatim && !is_verbatim(payload)) {
    return fail("invalid verbatim string (expected \"xxx:\" format prefix)");
  }
  Reply& reply = new_slot();
  reply.type = type;
  if (type == ReplyType::verbatim) {
    reply.format.assign(payload.substr(0, 3));
    reply.str.assign(payload.substr(4));
  } else {
    reply.str.assign(payload);
  }
  return value_done();
}

Parser::Step Parser::begin_aggregate(ReplyType type, bool is_attribute, std::string_view header,
                                     std::size_t available) {
  std::int64_t count = 0;
  if (parse_integer(header, count) != NumberStatus::ok) return fail("invalid aggregate length");
  if (count == -1 && !is_attribute) {  // RESP2's null array
    new_slot().type = ReplyType::null;
    return value_done();
  }
  if (count < 0) return fail("negative aggregate length");
  if (count > limits_.max_aggregate_length) return fail("aggregate length exceeds limit");
  if (depth_ >= limits_.max_depth) return fail("nesting depth exceeds limit");

  std::int64_t elements = count;
  if (type == ReplyType::map) {  // attributes too: keys and values
    if (count > std::numeric_limits<std::int64_t>::max() / 2) {
      return fail("aggregate length exceeds limit");
    }
    elements = count * 2;
  }
  if (elements == 0) {
    if (is_attribute) return Step::next;  // an empty attribute annotates nothing
    new_slot().type = type;
    return value_done();
  }

  // Frames are reused, not popped: pushing one costs no construction once the stack has grown.
  if (depth_ == stack_.size()) stack_.emplace_back();
  Frame& frame = stack_[depth_++];
  reset_reply(frame.reply, type);
  frame.remaining = elements;
  frame.is_attribute = is_attribute;
  frame.pending_attributes.clear();
  if (!is_attribute) {
    // Attributes are taken at the header: the aggregate's own elements use this frame's list.
    std::vector<Reply>& pending =
        depth_ == 1 ? top_pending_attributes_ : stack_[depth_ - 2].pending_attributes;
    if (!pending.empty()) {
      frame.reply.attributes = std::move(pending);
      pending.clear();
    }
  }
  frame.reply.elements.reserve(std::min(
      {static_cast<std::size_t>(elements), available / kMinValueBytes + 1, kMaxElementReserve}));
  return Step::next;
}

// Where the next complete value of the current level goes, with its pending attributes attached.
// At the top level that is the caller's reply: it is only written once the whole reply is known.
Reply& Parser::new_slot() {
  Reply* slot;
  std::vector<Reply>* pending;
  if (depth_ == 0) {
    slot = out_;
    reset_reply(*slot, ReplyType::null);
    pending = &top_pending_attributes_;
  } else {
    Frame& frame = stack_[depth_ - 1];
    // A copy of an empty Reply, not emplace_back(): value-initialization zero-fills the whole
    // Reply first, which GCC does with a `rep stos` that cost ~15% of aggregate parsing.
    static const Reply kEmptyReply{};
    slot = &frame.reply.elements.emplace_back(kEmptyReply);
    pending = &frame.pending_attributes;
  }
  if (!pending->empty()) {
    slot->attributes = std::move(*pending);
    pending->clear();
  }
  return *slot;
}

std::vector<Reply>& Parser::level_pending_attributes() noexcept {
  return depth_ == 0 ? top_pending_attributes_ : stack_[depth_ - 1].pending_attributes;
}

// Counts a finished value against the open aggregates and closes those that are complete.
Parser::Step Parser::value_done() {
  while (depth_ > 0) {
    Frame& top = stack_[depth_ - 1];
    if (--top.remaining > 0) return Step::next;
    --depth_;
    if (top.is_attribute) {
      // An attribute is not an element of its parent: it waits for the value it annotates.
      std::vector<Reply>& pending = level_pending_attributes();
      if (pending.size() + top.reply.elements.size() >
          2 * static_cast<std::uint64_t>(limits_.max_aggregate_length)) {
        return fail("attributes exceed aggregate length limit");
      }
      if (pending.empty()) {
        pending = std::move(top.reply.elements);
      } else {
        std::move(top.reply.elements.begin(), top.reply.elements.end(),
                  std::back_inserter(pending));
      }
      top.reply.elements.clear();
      return Step::next;
    }
    if (depth_ == 0) {
      *out_ = std::move(top.reply);
      return Step::ready;
    }
    stack_[depth_ - 1].reply.elements.push_back(std::move(top.reply));
  }
  return Step::ready;
}

Parser::Step Parser::fail(std::string message) {
  failed_ = true;
  error_message_ = std::move(message);
  return Step::error;
}

}  // namespace redisson::detail::resp

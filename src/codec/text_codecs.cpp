// StringCodec, LongCodec, IntegerCodec, DoubleCodec and ByteArrayCodec: a value as its text (what
// Java's toString() gives) or as its raw bytes.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "codec/json_text.hpp"
#include "codec/utf.hpp"
#include "redisson/codec.hpp"
#include "redisson/error.hpp"

namespace redisson::codecs {
namespace {

[[noreturn]] void refuse(std::string_view codec, const Value& value) {
  throw error(errc::codec_error, std::string(codec) + " cannot write a " +
                                     std::string(kind_name(value.kind())) +
                                     " (it writes text: strings, numbers, booleans)");
}

[[noreturn]] void unreadable(std::string_view codec, std::string_view what,
                             std::string_view bytes) {
  constexpr std::size_t kShown = 40;
  std::string shown(bytes.substr(0, kShown));
  if (bytes.size() > kShown) shown += "...";
  throw error(errc::codec_error,
              std::string(codec) + ": '" + shown + "' is not " + std::string(what));
}

/// Java's toString() of a scalar, as StringCodec and its numeric siblings write it.
void append_text(std::string_view codec, const Value& value, std::string& out) {
  if (detail::append_java_boolean_or_integer(value, out)) return;
  switch (value.kind()) {
    case ValueKind::string:
      out += value.text();
      return;
    case ValueKind::character:
      // One UTF-16 code unit (a lone surrogate too: three bytes, as Java's getBytes would not).
      detail::utf::append_utf8(static_cast<char16_t>(value.int_value()), out);
      return;
    case ValueKind::float_num:
      out += detail::java_float_text(static_cast<float>(value.double_value()));
      return;
    case ValueKind::double_num:
      out += detail::java_double_text(value.double_value());
      return;
    default:
      refuse(codec, value);
  }
}

std::int64_t parse_integer(std::string_view codec, std::string_view bytes, std::int64_t min,
                           std::int64_t max, std::string_view what) {
  std::string_view digits = bytes;
  // Java's Long.valueOf accepts a leading '+'; from_chars does not.
  if (digits.size() > 1 && digits.front() == '+') digits.remove_prefix(1);
  std::int64_t n = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc{} || end != digits.data() + digits.size() || digits.empty() || n < min ||
      n > max) {
    unreadable(codec, what, bytes);
  }
  return n;
}

class StringCodec final : public Codec {
 public:
  std::string_view name() const noexcept override { return "string"; }
  void encode(const Value& value, std::string& out) const override {
    append_text("StringCodec", value, out);
  }
  Value decode(std::string_view bytes) const override { return Value::string(std::string(bytes)); }
};

class LongCodec final : public Codec {
 public:
  std::string_view name() const noexcept override { return "long"; }
  void encode(const Value& value, std::string& out) const override {
    append_text("LongCodec", value, out);
  }
  Value decode(std::string_view bytes) const override {
    return Value::long_int(parse_integer("LongCodec", bytes, INT64_MIN, INT64_MAX, "a Long"));
  }
};

class IntegerCodec final : public Codec {
 public:
  std::string_view name() const noexcept override { return "integer"; }
  void encode(const Value& value, std::string& out) const override {
    append_text("IntegerCodec", value, out);
  }
  Value decode(std::string_view bytes) const override {
    return Value::integer(static_cast<std::int32_t>(
        parse_integer("IntegerCodec", bytes, INT32_MIN, INT32_MAX, "an Integer")));
  }
};

class DoubleCodec final : public Codec {
 public:
  std::string_view name() const noexcept override { return "double"; }
  void encode(const Value& value, std::string& out) const override {
    append_text("DoubleCodec", value, out);
  }
  Value decode(std::string_view bytes) const override {
    if (bytes == "NaN") return Value::double_num(std::nan(""));
    if (bytes == "Infinity") return Value::double_num(HUGE_VAL);
    if (bytes == "-Infinity") return Value::double_num(-HUGE_VAL);
    std::string_view text = bytes;
    if (text.size() > 1 && text.front() == '+') text.remove_prefix(1);
    double x = 0;
    const auto [end, ec] =
        std::from_chars(text.data(), text.data() + text.size(), x, std::chars_format::general);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty()) {
      unreadable("DoubleCodec", "a Double", bytes);
    }
    return Value::double_num(x);
  }
};

class ByteArrayCodec final : public Codec {
 public:
  std::string_view name() const noexcept override { return "bytes"; }
  void encode(const Value& value, std::string& out) const override {
    if (value.kind() != ValueKind::bytes && value.kind() != ValueKind::string) {
      throw error(errc::codec_error, "ByteArrayCodec cannot write a " +
                                         std::string(kind_name(value.kind())) +
                                         " (it writes byte[] and strings as they are)");
    }
    out += value.text();
  }
  Value decode(std::string_view bytes) const override { return Value::bytes_from(bytes); }
};

/// The one instance of a stateless codec the whole process shares.
template <class C>
CodecPtr one_shared() {
  static const CodecPtr codec = std::make_shared<C>();
  return codec;
}

}  // namespace

CodecPtr string() { return one_shared<StringCodec>(); }
CodecPtr long_text() { return one_shared<LongCodec>(); }
CodecPtr integer_text() { return one_shared<IntegerCodec>(); }
CodecPtr double_text() { return one_shared<DoubleCodec>(); }
CodecPtr bytes() { return one_shared<ByteArrayCodec>(); }

}  // namespace redisson::codecs

#include "redisson/objects/binary_stream.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "client/failure_report.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"

namespace redisson {

namespace detail {

namespace {

void check_position(std::int64_t position) {
  if (position < 0) {
    throw_invalid_argument("BinaryStream: a position must not be negative, got " +
                           std::to_string(position));
  }
}

struct BinaryReadAll {
  ObjectPtr object;
  Done<Bytes> done;
  Bytes bytes;
};

void read_next_chunk(const std::shared_ptr<BinaryReadAll>& state) {
  const auto position = static_cast<std::int64_t>(state->bytes.size());
  submit_command(
      state->object, binary_range_command(state->object->name, position, BinaryStream::kChunkSize),
      [state](Status status, const Reply& reply) {
        if (status) return state->done(std::move(status), Bytes{});
        if (!reply.is_string()) {
          return state->done(
              Status(make_error_code(errc::wrong_type), "GETRANGE: not a string reply"), Bytes{});
        }
        const auto* data = reinterpret_cast<const std::byte*>(reply.str.data());
        state->bytes.insert(state->bytes.end(), data, data + reply.str.size());
        // A short chunk is the end of the bytes (at the time it was read).
        if (static_cast<std::int64_t>(reply.str.size()) < BinaryStream::kChunkSize) {
          return state->done(Status{}, std::move(state->bytes));
        }
        read_next_chunk(state);
      });
}

}  // namespace

Command binary_range_command(const std::string& name, std::int64_t position, std::int64_t length) {
  check_position(position);
  if (length < 0) {
    throw_invalid_argument("BinaryStream: a length must not be negative, got " +
                           std::to_string(length));
  }
  Command command{"GETRANGE", name};
  if (length == 0) return command.arg(std::int64_t{1}).arg(std::int64_t{0});
  const std::int64_t last = length > std::numeric_limits<std::int64_t>::max() - position
                                ? std::numeric_limits<std::int64_t>::max()
                                : position + length - 1;
  return command.arg(position).arg(last);
}

Command binary_write_at_command(const std::string& name, std::int64_t position,
                                std::string_view bytes) {
  check_position(position);
  return Command{"SETRANGE", name}.arg(position).arg(bytes);
}

Bytes reply_range_bytes(const Reply& reply) {
  if (reply.is_null()) return {};
  if (!reply.is_string()) throw_unexpected_reply("a string", reply);
  const auto* data = reinterpret_cast<const std::byte*>(reply.str.data());
  return Bytes(data, data + reply.str.size());
}

void start_binary_stream_read_all(const ObjectPtr& object, Done<Bytes> done) {
  read_next_chunk(std::make_shared<BinaryReadAll>(BinaryReadAll{object, std::move(done), {}}));
}

void start_binary_stream_truncate(const ObjectPtr& object, std::int64_t size, Done<Reply>& done) {
  if (size < 0) {
    throw_invalid_argument("BinaryStream: a size must not be negative, got " +
                           std::to_string(size));
  }
  eval_reply(*object, lua::binary_stream_truncate({object->name}, {size}), std::move(done));
}

}  // namespace detail

// ---- BinaryStreamBuf ----------------------------------------------------------------------

namespace {
constexpr auto kBufferChunk = static_cast<std::size_t>(BinaryStream::kChunkSize);
}  // namespace

BinaryStreamBuf::BinaryStreamBuf(BinaryStream stream, std::ios_base::openmode mode)
    : stream_(std::move(stream)), mode_(mode), buffer_(kBufferChunk) {
  if ((mode_ & std::ios_base::app) != 0) mode_ |= std::ios_base::out;
  try {
    if ((mode_ & std::ios_base::trunc) != 0) stream_.delete_object();
    if ((mode_ & std::ios_base::ate) != 0) base_ = stream_.size();
  } catch (const error& failure) {
    last_error_ = failure;  // no owner yet: the owning stream looks at last_error()
  }
}

BinaryStreamBuf::~BinaryStreamBuf() {
  owner_ = nullptr;
  if (pbase() == nullptr || pptr() == pbase()) return;
  try {
    if (!flush_pending() && last_error_) {
      detail::report_failure(stream_.object_->core->config(), *last_error_);
    }
  } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor never throws (no memory)
  }
}

std::int64_t BinaryStreamBuf::position() const noexcept {
  if (eback() != nullptr) return base_ + (gptr() - eback());
  if (pbase() != nullptr) return base_ + (pptr() - pbase());
  return base_;
}

void BinaryStreamBuf::drop_areas() noexcept {
  base_ = position();
  setg(nullptr, nullptr, nullptr);
  setp(nullptr, nullptr);
}

void BinaryStreamBuf::fail(const error& failure) {
  last_error_ = failure;
  // Last: with exceptions(badbit) this throws std::ios_base::failure, which the std stream's
  // function catches and rethrows as the standard says.
  if (owner_ != nullptr) owner_->setstate(std::ios_base::badbit);
}

bool BinaryStreamBuf::send(std::string_view bytes) {
  try {
    if ((mode_ & std::ios_base::app) != 0) {
      base_ = stream_.append(bytes);
    } else {
      stream_.write_at(base_, bytes);
      base_ += static_cast<std::int64_t>(bytes.size());
    }
  } catch (const error& failure) {
    fail(failure);
    return false;
  }
  return true;
}

bool BinaryStreamBuf::flush_pending() {
  if (pbase() == nullptr) return true;
  const std::string_view pending(pbase(), static_cast<std::size_t>(pptr() - pbase()));
  setp(nullptr, nullptr);  // base_ is where the pending bytes go; they are dropped on failure
  if (pending.empty()) return true;
  return send(pending);
}

BinaryStreamBuf::int_type BinaryStreamBuf::underflow() {
  if ((mode_ & std::ios_base::in) == 0) return traits_type::eof();
  if (gptr() != nullptr && gptr() < egptr()) return traits_type::to_int_type(*gptr());
  if (!flush_pending()) return traits_type::eof();
  drop_areas();
  Bytes chunk;
  try {
    chunk = stream_.read(base_, BinaryStream::kChunkSize);
  } catch (const error& failure) {
    fail(failure);
    return traits_type::eof();
  }
  if (chunk.empty()) return traits_type::eof();
  std::memcpy(buffer_.data(), chunk.data(), chunk.size());
  setg(buffer_.data(), buffer_.data(), buffer_.data() + chunk.size());
  return traits_type::to_int_type(*gptr());
}

BinaryStreamBuf::int_type BinaryStreamBuf::overflow(int_type ch) {
  if ((mode_ & std::ios_base::out) == 0) return traits_type::eof();
  if (eback() != nullptr) drop_areas();  // from reading to writing, at the same position
  if (pbase() != nullptr && pptr() == epptr() && !flush_pending()) return traits_type::eof();
  if (pbase() == nullptr) setp(buffer_.data(), buffer_.data() + buffer_.size());
  if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
  *pptr() = traits_type::to_char_type(ch);
  pbump(1);
  return ch;
}

int BinaryStreamBuf::sync() {
  if (pbase() != nullptr) return flush_pending() ? 0 : -1;
  // Reading: forget the chunk read, so that the next read sees what others wrote since.
  if (eback() != nullptr) drop_areas();
  return 0;
}

BinaryStreamBuf::pos_type BinaryStreamBuf::seekoff(off_type offset, std::ios_base::seekdir dir,
                                                   std::ios_base::openmode /*which*/) {
  const pos_type failed(off_type(-1));
  if (dir == std::ios_base::cur && offset == 0) return pos_type(position());  // tellg / tellp
  if (!flush_pending()) return failed;
  std::int64_t origin = 0;
  if (dir == std::ios_base::cur) {
    origin = position();  // after the flush: in `app` mode the bytes went to the end
  } else if (dir == std::ios_base::end) {
    try {
      origin = stream_.size();
    } catch (const error& failure) {
      fail(failure);
      return failed;
    }
  }
  if ((offset < 0 && offset < -origin) ||
      (offset > 0 && offset > std::numeric_limits<std::int64_t>::max() - origin)) {
    return failed;
  }
  const std::int64_t target = origin + offset;
  if (eback() != nullptr && target >= base_ && target <= base_ + (egptr() - eback())) {
    setg(eback(), eback() + (target - base_), egptr());  // inside the chunk read: no command
    return pos_type(target);
  }
  setg(nullptr, nullptr, nullptr);
  setp(nullptr, nullptr);
  base_ = target;
  return pos_type(target);
}

BinaryStreamBuf::pos_type BinaryStreamBuf::seekpos(pos_type position,
                                                   std::ios_base::openmode which) {
  return seekoff(off_type(position), std::ios_base::beg, which);
}

BinaryStreamBuf::int_type BinaryStreamBuf::pbackfail(int_type ch) {
  // Called at the start of the chunk held (or with none): read again from one byte back.
  if ((mode_ & std::ios_base::in) == 0) return traits_type::eof();
  if (!flush_pending()) return traits_type::eof();
  const std::int64_t back = position() - 1;
  if (back < 0) return traits_type::eof();
  drop_areas();
  base_ = back;
  if (traits_type::eq_int_type(underflow(), traits_type::eof())) {
    base_ = back + 1;  // nothing there (or a failure): stay where we were
    return traits_type::eof();
  }
  if (traits_type::eq_int_type(ch, traits_type::eof()) ||
      traits_type::eq(traits_type::to_char_type(ch), *gptr())) {
    return traits_type::not_eof(ch);
  }
  gbump(1);  // a different byte: the stream cannot put it back
  return traits_type::eof();
}

std::streamsize BinaryStreamBuf::xsgetn(char_type* out, std::streamsize count) {
  if ((mode_ & std::ios_base::in) == 0 || count <= 0) return 0;
  std::streamsize done = 0;
  if (gptr() != nullptr && gptr() < egptr()) {
    done = std::min<std::streamsize>(count, egptr() - gptr());
    std::memcpy(out, gptr(), static_cast<std::size_t>(done));
    gbump(static_cast<int>(done));
  }
  if (done == count) return done;
  if (count - done < BinaryStream::kChunkSize) {
    return done + std::streambuf::xsgetn(out + done, count - done);  // through underflow
  }
  // A large read: one GETRANGE of what is left, straight into `out`.
  if (!flush_pending()) return done;
  drop_areas();
  Bytes bytes;
  try {
    bytes = stream_.read(base_, count - done);
  } catch (const error& failure) {
    fail(failure);
    return done;
  }
  std::memcpy(out + done, bytes.data(), bytes.size());
  base_ += static_cast<std::int64_t>(bytes.size());
  return done + static_cast<std::streamsize>(bytes.size());
}

std::streamsize BinaryStreamBuf::xsputn(const char_type* bytes, std::streamsize count) {
  if ((mode_ & std::ios_base::out) == 0 || count <= 0) return 0;
  const std::streamsize room = pbase() != nullptr ? epptr() - pptr() : 0;
  if (count <= room || count < BinaryStream::kChunkSize) {
    return std::streambuf::xsputn(bytes, count);  // into the buffer
  }
  // A large write: what is buffered, then the bytes as one command.
  if (eback() != nullptr) drop_areas();
  if (!flush_pending()) return 0;
  return send(std::string_view(bytes, static_cast<std::size_t>(count))) ? count : 0;
}

// ---- the owning std streams ---------------------------------------------------------------

BinaryIStream::BinaryIStream(BinaryStream stream, std::ios_base::openmode mode)
    : BinaryStreamBufHolder(std::move(stream), mode | std::ios_base::in), std::istream(&buf) {
  buf.set_owner(this);
  if (buf.last_error()) setstate(std::ios_base::badbit);
}

BinaryOStream::BinaryOStream(BinaryStream stream, std::ios_base::openmode mode)
    : BinaryStreamBufHolder(std::move(stream), mode | std::ios_base::out), std::ostream(&buf) {
  buf.set_owner(this);
  if (buf.last_error()) setstate(std::ios_base::badbit);
}

BinaryIOStream::BinaryIOStream(BinaryStream stream, std::ios_base::openmode mode)
    : BinaryStreamBufHolder(std::move(stream), mode), std::iostream(&buf) {
  buf.set_owner(this);
  if (buf.last_error()) setstate(std::ios_base::badbit);
}

}  // namespace redisson

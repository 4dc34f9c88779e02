// redisson::BinaryStream: raw bytes under one key, Java Redisson's RBinaryStream; and
// BinaryStreamBuf, a seekable std::streambuf over them, with the std::istream / std::ostream /
// std::iostream that own one (BinaryIStream, BinaryOStream, BinaryIOStream).
#pragma once

#include <cstddef>
#include <cstdint>
#include <ios>
#include <istream>
#include <optional>
#include <ostream>
#include <span>
#include <streambuf>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "redisson/objects/bucket.hpp"

namespace redisson {

namespace detail {
/// GETRANGE name position position+length-1, after checking both are not negative (length 0:
/// `1 0`, an empty range that still checks the key's type; `position -1` would read it all).
Command binary_range_command(const std::string& name, std::int64_t position, std::int64_t length);
/// SETRANGE name position bytes, after checking the position is not negative.
Command binary_write_at_command(const std::string& name, std::int64_t position,
                                std::string_view bytes);
/// A GETRANGE reply as bytes (anything but a string is errc::wrong_type).
Bytes reply_range_bytes(const Reply& reply);
/// read_all: GETRANGE chunk after chunk until one comes back short.
void start_binary_stream_read_all(const ObjectPtr& object, Done<Bytes> done);
/// truncate: the script cutting the string to `size` bytes (0: deleting it).
void start_binary_stream_truncate(const ObjectPtr& object, std::int64_t size, Done<Reply>& done);
}  // namespace detail

class BinaryIStream;
class BinaryOStream;
class BinaryIOStream;

/// A byte string in Redis read and written in pieces, like a file: Java Redisson's
/// RBinaryStream, whose layout it shares (a plain string key `name` holding the bytes as they
/// are, no codec), so a Java and a C++ process read each other's streams.
///
/// It is also a Bucket<Bytes> with the bytes codec (as RBinaryStream is an RBucket<byte[]>):
/// get(), set(), compare_and_set(), size() (STRLEN), ... handle the whole value at once.
///
/// Each operation is one command, one round trip: append (APPEND), write_at (SETRANGE: a
/// position past the end pads with zero bytes), read (GETRANGE), truncate (one script).
/// read_all reads GETRANGE chunks of kChunkSize bytes, one round trip each, as Java's
/// InputStream does, so a large value never travels as one reply; it is not atomic: a write
/// between two chunks shows in the later ones.
///
/// For std streams: istream(), ostream(), iostream() (BinaryStreamBuf: reads and writes in
/// kChunkSize pieces; seekable). A key of another type is errc::wrong_type and nothing changes;
/// a negative position or length is errc::invalid_argument, found before anything is sent.
class BinaryStream : public Bucket<Bytes> {
 public:
  /// The size of the pieces read_all and the stream buffers move (Java's InputStream buffer).
  static constexpr std::int64_t kChunkSize = 8192;

  /// A handle on the stream `name`; sends nothing. The bytes are stored as they are.
  BinaryStream(const Client& client, std::string name)
      : Bucket<Bytes>(client, std::move(name), codecs::bytes(), "BinaryStream") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_read(std::int64_t position, std::int64_t length, CompletionToken&& token) const {
    return detail::async_command<Bytes>(
        object_, token, [&] { return detail::binary_range_command(name(), position, length); },
        &detail::reply_range_bytes);
  }
  template <class CompletionToken>
  auto async_read_all(CompletionToken&& token) const {
    return run<Bytes>(token, &detail::start_binary_stream_read_all);
  }
  template <class CompletionToken>
  auto async_append(std::string_view bytes, CompletionToken&& token) {
    return on_key<std::int64_t>(token, &detail::reply_integer, "APPEND", bytes);
  }
  template <class CompletionToken>
  auto async_append(std::span<const std::byte> bytes, CompletionToken&& token) {
    return async_append(as_chars(bytes), std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_write_at(std::int64_t position, std::string_view bytes, CompletionToken&& token) {
    return detail::async_command<std::int64_t>(
        object_, token, [&] { return detail::binary_write_at_command(name(), position, bytes); },
        &detail::reply_integer);
  }
  template <class CompletionToken>
  auto async_write_at(std::int64_t position, std::span<const std::byte> bytes,
                      CompletionToken&& token) {
    return async_write_at(position, as_chars(bytes), std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_truncate(std::int64_t size, CompletionToken&& token) {
    return started<void>(token, &detail::reply_ignore, &detail::start_binary_stream_truncate, size);
  }

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Up to `length` bytes from `position` (GETRANGE): fewer at the end, none past it or when
  /// the key does not exist.
  Bytes read(std::int64_t position, std::int64_t length) const {
    return async_read(position, length, detail::blocking("read", name()));
  }
  /// Every byte, read in chunks of kChunkSize (GETRANGE each) until a chunk comes back short;
  /// empty when the key does not exist. get() reads them with one GET instead.
  Bytes read_all() const { return async_read_all(detail::blocking("read_all", name())); }
  /// Appends `bytes` at the end (APPEND; creates the key); returns the new size.
  std::int64_t append(std::string_view bytes) {
    return async_append(bytes, detail::blocking("append", name()));
  }
  std::int64_t append(std::span<const std::byte> bytes) {
    return async_append(bytes, detail::blocking("append", name()));
  }
  /// Writes `bytes` over the stream from `position` (SETRANGE), zero bytes filling any gap
  /// past the end; returns the new size. Nothing to write creates no key.
  std::int64_t write_at(std::int64_t position, std::string_view bytes) {
    return async_write_at(position, bytes, detail::blocking("write_at", name()));
  }
  std::int64_t write_at(std::int64_t position, std::span<const std::byte> bytes) {
    return async_write_at(position, bytes, detail::blocking("write_at", name()));
  }
  /// Cuts the stream to its first `size` bytes, keeping its time to live (one script; size 0
  /// deletes the key, as Java's channel truncate(0) does). A larger size changes nothing.
  void truncate(std::int64_t size) { async_truncate(size, detail::blocking("truncate", name())); }

  /// A std::istream over the stream, reading from its start (Java's getInputStream()).
  BinaryIStream istream() const;
  /// A std::ostream over the stream, appending at its end (Java's getOutputStream()).
  BinaryOStream ostream();
  /// A seekable std::iostream over the stream (Java's getChannel()): reads and writes at one
  /// position, from the start (`mode` as BinaryStreamBuf's).
  BinaryIOStream iostream(std::ios_base::openmode mode = std::ios_base::in | std::ios_base::out);

 private:
  friend class BinaryStreamBuf;  // reports a failed flush in its destructor to the client

  static std::string_view as_chars(std::span<const std::byte> bytes) noexcept {
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
  }
};

/// A std::streambuf over a BinaryStream, for std::istream, std::ostream and std::iostream (and
/// std::istreambuf_iterator, std::copy, operator<<(streambuf*)). One position for reading and
/// writing, as std::filebuf (and Java's SeekableByteChannel) has.
///
/// Reading fetches kChunkSize bytes from the position (GETRANGE); writing collects up to
/// kChunkSize bytes and sends them on overflow, flush() / pubsync(), a seek, a read, or the
/// buffer's end: with APPEND in `app` mode, else with SETRANGE at the position (a larger single
/// write goes at once as one command). seekoff / seekpos move anywhere from 0 (std::ios::end
/// asks the size, STRLEN); past the end, a write pads with zero bytes, a read finds nothing.
///
/// `mode`: `in` reads, `out` writes at the position, starting at 0 and writing over what is
/// there (unlike std::ofstream, `out` alone does not truncate), `app` writes at the end,
/// `trunc` deletes the key when the buffer is made, `ate` starts at the end.
///
/// Errors never leave the buffer as exceptions: a failed command is kept in last_error() and
/// the buffer answers as std::streambuf says a failure answers (overflow and underflow:
/// eof; sync: -1; a seek: pos_type(-1); xsputn / xsgetn: fewer bytes). A std stream turns that
/// into badbit when writing and into eofbit|failbit when reading; the owning stream set with
/// set_owner() (BinaryIStream, BinaryOStream and BinaryIOStream set themselves) also gets
/// badbit, on reads too (so an exceptions(badbit) stream throws std::ios_base::failure).
/// last_error() tells a failure from the end of the bytes. The bytes of a failed write are
/// dropped. The destructor flushes what is buffered and hands a failure to
/// Config::error_handler: flush() first to see it.
///
/// Not thread-safe (as no std::streambuf is); its blocking calls must not run on the client's
/// I/O threads.
class BinaryStreamBuf : public std::streambuf {
 public:
  explicit BinaryStreamBuf(BinaryStream stream,
                           std::ios_base::openmode mode = std::ios_base::in | std::ios_base::out);
  ~BinaryStreamBuf() override;
  BinaryStreamBuf(const BinaryStreamBuf&) = delete;
  BinaryStreamBuf& operator=(const BinaryStreamBuf&) = delete;

  /// The failure of the latest command that failed (nullopt: none since clear_error()).
  const std::optional<error>& last_error() const noexcept { return last_error_; }
  /// Forgets last_error().
  void clear_error() noexcept { last_error_.reset(); }
  /// The stream it reads and writes.
  const BinaryStream& stream() const noexcept { return stream_; }
  /// The current position: where the next byte is read or (not in `app` mode) written.
  std::int64_t position() const noexcept;
  /// The std stream whose badbit a failure sets as well (null: none); set it to null before
  /// that stream goes away.
  void set_owner(std::basic_ios<char>* owner) noexcept { owner_ = owner; }

 protected:
  int_type underflow() override;
  int_type overflow(int_type ch) override;
  int sync() override;
  pos_type seekoff(off_type offset, std::ios_base::seekdir dir,
                   std::ios_base::openmode which) override;
  pos_type seekpos(pos_type position, std::ios_base::openmode which) override;
  int_type pbackfail(int_type ch) override;
  std::streamsize xsgetn(char_type* out, std::streamsize count) override;
  std::streamsize xsputn(const char_type* bytes, std::streamsize count) override;

 private:
  /// Sends the bytes waiting in the put area; false (with last_error()) when that failed.
  bool flush_pending();
  /// Sends `bytes` at the position (or the end, in `app` mode) and moves past them.
  bool send(std::string_view bytes);
  /// Leaves the get and put areas, the position kept in base_.
  void drop_areas() noexcept;
  /// Keeps `failure` and tells the owner.
  void fail(const error& failure);

  BinaryStream stream_;
  std::ios_base::openmode mode_;
  std::vector<char> buffer_;
  std::int64_t base_ = 0;  // the position of buffer_[0] (or the position, with no area)
  std::optional<error> last_error_;
  std::basic_ios<char>* owner_ = nullptr;
};

namespace detail {
/// Base-from-member: the buffer is made before the std stream that points to it.
struct BinaryStreamBufHolder {
  BinaryStreamBufHolder(BinaryStream stream, std::ios_base::openmode mode)
      : buf(std::move(stream), mode) {}
  BinaryStreamBuf buf;
};
}  // namespace detail

/// A std::istream reading a BinaryStream through its own BinaryStreamBuf (like std::ifstream).
class BinaryIStream : private detail::BinaryStreamBufHolder, public std::istream {
 public:
  explicit BinaryIStream(BinaryStream stream, std::ios_base::openmode mode = std::ios_base::in);
  ~BinaryIStream() override { buf.set_owner(nullptr); }
  /// Its buffer (position, last_error).
  BinaryStreamBuf* rdbuf() const noexcept { return const_cast<BinaryStreamBuf*>(&buf); }
  /// The failure that made the stream bad (nullopt: none).
  const std::optional<error>& last_error() const noexcept { return buf.last_error(); }
};

/// A std::ostream writing a BinaryStream through its own BinaryStreamBuf; by default it
/// appends (`out | app`), as Java's getOutputStream() does.
class BinaryOStream : private detail::BinaryStreamBufHolder, public std::ostream {
 public:
  explicit BinaryOStream(BinaryStream stream,
                         std::ios_base::openmode mode = std::ios_base::out | std::ios_base::app);
  ~BinaryOStream() override { buf.set_owner(nullptr); }
  BinaryStreamBuf* rdbuf() const noexcept { return const_cast<BinaryStreamBuf*>(&buf); }
  const std::optional<error>& last_error() const noexcept { return buf.last_error(); }
};

/// A seekable std::iostream over a BinaryStream through its own BinaryStreamBuf.
class BinaryIOStream : private detail::BinaryStreamBufHolder, public std::iostream {
 public:
  explicit BinaryIOStream(BinaryStream stream,
                          std::ios_base::openmode mode = std::ios_base::in | std::ios_base::out);
  ~BinaryIOStream() override { buf.set_owner(nullptr); }
  BinaryStreamBuf* rdbuf() const noexcept { return const_cast<BinaryStreamBuf*>(&buf); }
  const std::optional<error>& last_error() const noexcept { return buf.last_error(); }
};

inline BinaryIStream BinaryStream::istream() const { return BinaryIStream(*this); }
inline BinaryOStream BinaryStream::ostream() { return BinaryOStream(*this); }
inline BinaryIOStream BinaryStream::iostream(std::ios_base::openmode mode) {
  return BinaryIOStream(*this, mode);
}

}  // namespace redisson

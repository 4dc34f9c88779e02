// A BinaryStream: a file's bytes in Redis, written and read through std streams.
//
//   binary_stream [redis://127.0.0.1:6379] [file]
//
// Copies `file` (default: this program itself) into the key example:file through a std::ostream,
// reads it back through a std::istream and compares, then patches two bytes in the middle through
// a seekable std::iostream. Java Redisson reads the same key with
// redisson.getBinaryStream("example:file").getInputStream().
#include <cstdio>
#include <fstream>
#include <iterator>
#include <redisson/client.hpp>
#include <redisson/objects/binary_stream.hpp>
#include <string>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  const std::string path = argc > 2 ? argv[2] : argv[0];
  try {
    redisson::Client client(url);
    redisson::BinaryStream stream(client, "example:file");
    stream.delete_object();

    // Into Redis: APPEND of each 8192-byte piece the stream buffers.
    std::ifstream file(path, std::ios::binary);
    auto out = stream.ostream();
    out << file.rdbuf();
    out.flush();
    if (!out) {
      std::fprintf(stderr, "write failed: %s\n",
                   out.last_error() ? out.last_error()->what() : "reading the file");
      return 1;
    }

    // Back out: GETRANGE of 8192 bytes at a time.
    auto in = stream.istream();
    const std::string copy(std::istreambuf_iterator<char>(in), {});
    if (in.bad()) {
      std::fprintf(stderr, "read failed: %s\n", in.last_error()->what());
      return 1;
    }
    file.clear();
    file.seekg(0);
    const std::string original(std::istreambuf_iterator<char>(file), {});
    std::printf("%zu bytes in Redis, %s\n", copy.size(),
                copy == original ? "identical to the file" : "DIFFERENT from the file");

    // Seek and overwrite in place (SETRANGE), as Java's SeekableByteChannel does.
    auto io = stream.iostream();
    io.seekp(static_cast<std::streamoff>(stream.size() / 2));
    io << "!!";
    io.flush();
    std::printf("middle bytes now: %s\n",
                [&] {
                  const auto bytes = stream.read(stream.size() / 2, 2);
                  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
                }()
                    .c_str());

    stream.delete_object();
  } catch (const redisson::error& e) {
    std::fprintf(stderr, "binary_stream: %s\n", e.what());
    return 1;
  }
  return 0;
}

// A small anonymous shared-memory region (memfd) that worker processes inherit as fd 3.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>

namespace redisson_bench {

/// Owns one mapping of a memfd. The creator constructs T in it; workers attach to fd 3.
class SharedRegion {
 public:
  /// Creates a zero-filled region of `size` bytes (parent side).
  explicit SharedRegion(std::size_t size);
  /// Maps an inherited fd (worker side).
  static SharedRegion attach(int fd, std::size_t size);
  SharedRegion(SharedRegion&& other) noexcept;
  SharedRegion& operator=(SharedRegion&&) = delete;
  SharedRegion(const SharedRegion&) = delete;
  SharedRegion& operator=(const SharedRegion&) = delete;
  ~SharedRegion();

  int fd() const noexcept { return fd_; }
  void* data() const noexcept { return data_; }

 private:
  SharedRegion(int fd, void* data, std::size_t size) : fd_(fd), data_(data), size_(size) {}
  int fd_ = -1;
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

/// Fd number a worker finds its shared region on.
inline constexpr int kWorkerSharedFd = 3;

/// A T living in shared memory. T must be made of lock-free std::atomic members (which are
/// address-free, so they work across processes).
template <class T>
class Shared {
  static_assert(std::is_standard_layout_v<T>);

 public:
  /// Parent: a fresh region with a value-initialised T.
  Shared() : region_(sizeof(T)) { value_ = new (region_.data()) T{}; }
  /// Worker: the parent's T, through the inherited fd.
  explicit Shared(int fd)
      : region_(SharedRegion::attach(fd, sizeof(T))), value_(static_cast<T*>(region_.data())) {}

  T* operator->() const noexcept { return value_; }
  T& operator*() const noexcept { return *value_; }
  int fd() const noexcept { return region_.fd(); }

 private:
  SharedRegion region_;
  T* value_ = nullptr;
};

}  // namespace redisson_bench

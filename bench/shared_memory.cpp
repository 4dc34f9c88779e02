#include "shared_memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>
#include <utility>

namespace redisson_bench {

SharedRegion::SharedRegion(std::size_t size) : size_(size) {
  fd_ = ::memfd_create("redisson-bench", MFD_CLOEXEC);
  if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "memfd_create");
  if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) {
    const int error = errno;
    ::close(fd_);
    throw std::system_error(error, std::generic_category(), "ftruncate");
  }
  data_ = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (data_ == MAP_FAILED) {
    const int error = errno;
    ::close(fd_);
    throw std::system_error(error, std::generic_category(), "mmap");
  }
}

SharedRegion SharedRegion::attach(int fd, std::size_t size) {
  void* data = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) {
    throw std::system_error(errno, std::generic_category(), "mmap of the inherited region");
  }
  return SharedRegion(fd, data, size);
}

SharedRegion::SharedRegion(SharedRegion&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

SharedRegion::~SharedRegion() {
  if (data_ != nullptr) ::munmap(data_, size_);
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace redisson_bench

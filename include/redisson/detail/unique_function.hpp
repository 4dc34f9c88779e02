// A move-only std::function for completion handlers (std::move_only_function is C++23).
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

namespace redisson::detail {

template <class Signature>
class UniqueFunction;

/// Holds any move-only callable with the given signature. One heap allocation per instance.
template <class R, class... Args>
class UniqueFunction<R(Args...)> {
 public:
  UniqueFunction() = default;
  UniqueFunction(std::nullptr_t) {}

  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, UniqueFunction>>>
  UniqueFunction(F&& f)  // NOLINT(google-explicit-constructor): used like std::function
      : impl_(std::make_unique<Model<std::decay_t<F>>>(std::forward<F>(f))) {}

  UniqueFunction(UniqueFunction&&) noexcept = default;
  UniqueFunction& operator=(UniqueFunction&&) noexcept = default;

  explicit operator bool() const noexcept { return impl_ != nullptr; }

  R operator()(Args... args) { return impl_->call(std::forward<Args>(args)...); }

 private:
  struct Concept {
    virtual ~Concept() = default;
    virtual R call(Args... args) = 0;
  };
  template <class F>
  struct Model final : Concept {
    explicit Model(F&& f) : fn(std::move(f)) {}
    explicit Model(const F& f) : fn(f) {}
    R call(Args... args) override { return fn(std::forward<Args>(args)...); }
    F fn;
  };
  std::unique_ptr<Concept> impl_;
};

}  // namespace redisson::detail

// A move-only std::function for completion handlers (std::move_only_function is C++23).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace redisson::detail {

template <class Signature>
class UniqueFunction;

/// Holds any move-only callable with the given signature. A callable of up to kInlineSize bytes
/// that moves without throwing lives inside the object; a larger one costs one heap allocation.
/// Every command carries one of these from submit to reply, so the common handler (a few
/// pointers of captures) must not allocate.
template <class R, class... Args>
class UniqueFunction<R(Args...)> {
 public:
  static constexpr std::size_t kInlineSize = 96;

  UniqueFunction() noexcept = default;
  UniqueFunction(std::nullptr_t) noexcept {}  // NOLINT(google-explicit-constructor)

  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, UniqueFunction>>>
  UniqueFunction(F&& f)  // NOLINT(google-explicit-constructor): used like std::function
  {
    using Fn = std::decay_t<F>;
    if constexpr (fits_inline<Fn>()) {
      ::new (static_cast<void*>(storage_)) Fn(std::forward<F>(f));
      ops_ = &kInlineOps<Fn>;
    } else {
      *heap_slot() = new Fn(std::forward<F>(f));
      ops_ = &kHeapOps<Fn>;
    }
  }

  UniqueFunction(UniqueFunction&& other) noexcept { take(other); }
  UniqueFunction& operator=(UniqueFunction&& other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }
  UniqueFunction& operator=(std::nullptr_t) noexcept {
    reset();
    return *this;
  }
  UniqueFunction(const UniqueFunction&) = delete;
  UniqueFunction& operator=(const UniqueFunction&) = delete;
  ~UniqueFunction() { reset(); }

  explicit operator bool() const noexcept { return ops_ != nullptr; }

  /// Arguments pass by reference down to the callable: a by-value Reply is moved once, into
  /// the callable's own parameter, not once per layer.
  /// Calling an empty one throws std::bad_function_call, as std::function does.
  R operator()(Args... args) {
    if (ops_ == nullptr) throw std::bad_function_call();
    return ops_->call(storage_, std::forward<Args>(args)...);
  }

 private:
  // What one kind of callable does; one static table per callable type instead of a vtable in
  // each object, so the object is the storage and one pointer.
  struct Ops {
    R (*call)(void* storage, Args&&... args);
    void (*move_to)(void* from, void* to) noexcept;  // move-construct into `to`, destroy `from`
    void (*destroy)(void* storage) noexcept;
  };

  template <class Fn>
  static constexpr bool fits_inline() {
    return std::conjunction_v<std::bool_constant<(sizeof(Fn) <= kInlineSize)>,
                              std::bool_constant<(alignof(Fn) <= alignof(std::max_align_t))>,
                              std::is_nothrow_move_constructible<Fn>>;
  }

  // Named function templates, not lambdas in the tables' initializers: GCC 12 gives such
  // lambdas one mangled name across the tables' instantiations, so the linker merged them and a
  // command's reply could reach another type's call function.
  template <class Fn>
  static R call_inline(void* storage, Args&&... args) {
    return (*std::launder(static_cast<Fn*>(storage)))(std::forward<Args>(args)...);
  }
  template <class Fn>
  static void move_inline(void* from, void* to) noexcept {
    Fn* source = std::launder(static_cast<Fn*>(from));
    ::new (to) Fn(std::move(*source));
    source->~Fn();
  }
  template <class Fn>
  static void destroy_inline(void* storage) noexcept {
    std::launder(static_cast<Fn*>(storage))->~Fn();
  }
  template <class Fn>
  static R call_heap(void* storage, Args&&... args) {
    return (**static_cast<Fn**>(storage))(std::forward<Args>(args)...);
  }
  static void move_heap(void* from, void* to) noexcept {
    *static_cast<void**>(to) = *static_cast<void**>(from);
  }
  template <class Fn>
  static void destroy_heap(void* storage) noexcept {
    delete *static_cast<Fn**>(storage);
  }

  template <class Fn>
  static constexpr Ops kInlineOps{&call_inline<Fn>, &move_inline<Fn>, &destroy_inline<Fn>};
  template <class Fn>
  static constexpr Ops kHeapOps{&call_heap<Fn>, &move_heap, &destroy_heap<Fn>};

  void** heap_slot() noexcept { return reinterpret_cast<void**>(storage_); }

  void take(UniqueFunction& other) noexcept {
    if (other.ops_ == nullptr) return;
    other.ops_->move_to(other.storage_, storage_);
    ops_ = std::exchange(other.ops_, nullptr);
  }

  void reset() noexcept {
    if (ops_ != nullptr) std::exchange(ops_, nullptr)->destroy(storage_);
  }

  alignas(std::max_align_t) unsigned char storage_[kInlineSize];
  const Ops* ops_ = nullptr;
};

}  // namespace redisson::detail

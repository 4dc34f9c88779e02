// redisson::RemoteService: Java Redisson's RRemoteService. A C++ worker serves the methods of a
// named interface; any process calls them through Redis, in Redisson's layout, so a Java caller
// can be served by a C++ worker and a C++ caller by a Java one (docs/services.md says what
// crosses: arguments and results the codec carries, no Java exceptions).
//
//   redisson::RemoteService remote(client);
//   remote.register_service(redisson::RemoteInterface("com.example.Calc")
//                               .method("add", [](std::int32_t a, std::int32_t b) { return a + b;
//                               }));
//   auto add = remote.get("com.example.Calc").method<std::int32_t(std::int32_t,
//   std::int32_t)>("add"); std::int32_t five = add(2, 3);
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "redisson/codec.hpp"
#include "redisson/detail/object_op.hpp"
#include "redisson/detail/operation.hpp"
#include "redisson/error.hpp"
#include "redisson/value.hpp"
#include "redisson/value_traits.hpp"

namespace redisson {

class Client;

/// How a call waits (Java's RemoteInvocationOptions). The defaults are Redisson's: an ack within
/// a second, the result within 30 s.
struct RemoteInvocationOptions {
  /// How long the caller waits for a worker to take the call (its ack), from the moment it was
  /// queued; nullopt: no ack is asked for, and a call no worker takes waits for its result.
  std::optional<std::chrono::milliseconds> ack_timeout = std::chrono::seconds(1);
  /// How long the caller waits for the result, from the moment the call was queued; nullopt: no
  /// result is sent back (fire and forget: a method returning void only).
  std::optional<std::chrono::milliseconds> execution_timeout = std::chrono::seconds(30);

  static RemoteInvocationOptions defaults() { return {}; }
  RemoteInvocationOptions& no_ack() {
    ack_timeout.reset();
    return *this;
  }
  RemoteInvocationOptions& expect_ack_within(std::chrono::milliseconds timeout) {
    ack_timeout = timeout;
    return *this;
  }
  RemoteInvocationOptions& no_result() {
    execution_timeout.reset();
    return *this;
  }
  RemoteInvocationOptions& expect_result_within(std::chrono::milliseconds timeout) {
    execution_timeout = timeout;
    return *this;
  }
};

/// The Java name of a parameter type, as Redisson hashes it into a method's signature (Class
/// getName() of each parameter type, concatenated). Specialise it for your own types, or pass
/// the names to method() (a Java parameter declared `Integer` rather than `int`, say).
template <class T>
struct JavaTypeName;

#define REDISSON_JAVA_TYPE_NAME(Type, Name)        \
  template <>                                      \
  struct JavaTypeName<Type> {                      \
    static constexpr std::string_view name = Name; \
  }
REDISSON_JAVA_TYPE_NAME(bool, "boolean");
REDISSON_JAVA_TYPE_NAME(std::int8_t, "byte");
REDISSON_JAVA_TYPE_NAME(std::int16_t, "short");
REDISSON_JAVA_TYPE_NAME(std::int32_t, "int");
REDISSON_JAVA_TYPE_NAME(std::int64_t, "long");
REDISSON_JAVA_TYPE_NAME(float, "float");
REDISSON_JAVA_TYPE_NAME(double, "double");
REDISSON_JAVA_TYPE_NAME(std::string, "java.lang.String");
REDISSON_JAVA_TYPE_NAME(Bytes, "[B");
REDISSON_JAVA_TYPE_NAME(Value, "java.lang.Object");
#undef REDISSON_JAVA_TYPE_NAME
template <class T>
struct JavaTypeName<std::vector<T>> {
  static constexpr std::string_view name = "java.util.List";
};
template <class T>
struct JavaTypeName<std::set<T>> {
  static constexpr std::string_view name = "java.util.Set";
};
template <class K, class V>
struct JavaTypeName<std::map<K, V>> {
  static constexpr std::string_view name = "java.util.Map";
};

namespace detail {

class ClientCore;

/// One served method, its types erased: what the worker side runs.
struct RemoteMethodEntry {
  std::string name;
  /// The Java parameter type names, concatenated (the signature's input).
  std::string parameter_types;
  std::size_t arity = 0;
  /// Decodes the argument bytes with `codec`, runs the handler and encodes its result (nullopt:
  /// void). Throws what decoding or the handler throws.
  std::function<std::optional<std::string>(const Codec& codec,
                                           const std::vector<std::string>& args)>
      invoke;
};

/// A call as the transport sends it (src/services/remote_call.cpp).
struct RemoteCall {
  std::string service;
  std::string interface_name;
  std::string method;
  std::string parameter_types;
  std::vector<std::string> args;  // each argument's bytes in the service's codec
  RemoteInvocationOptions options;
  CodecPtr codec;
  /// Where this client reads its acks and results: {remote_response}:<executor id>.
  std::string executor_id;
  /// Completes once the call is queued (Java's add future, TransferQueue::add): the request
  /// still says what it expects, so a worker answers as usual; nobody reads that answer and the
  /// response list lapses.
  bool complete_when_queued = false;
  /// Set: this long after the call was queued (zero: at once), takes it back when no worker
  /// has taken it yet (remote_remove.lua); the call then ends as RemoteCallEnd::taken_back.
  /// When a worker has it, the call waits on as its options say (TransferQueue::try_transfer).
  std::optional<std::chrono::milliseconds> take_back_after;
};

/// How a call ended that did not fail.
struct RemoteCallEnd {
  /// The result's bytes (nullopt: a void method, Java null, or no result expected).
  std::optional<std::string> result;
  /// Taken back before any worker took it (RemoteCall::take_back_after).
  bool taken_back = false;
};

/// Queues `call` and waits as its options say; completes with the result's bytes (nullopt: a
/// void method, Java null, or no result expected).
void start_remote_call(const std::shared_ptr<ClientCore>& core, RemoteCall call,
                       const CancellationPtr& cancel, Done<std::optional<std::string>> done);
/// As start_remote_call, completing with how the call ended (RemoteCall::take_back_after).
void start_remote_call_with_end(const std::shared_ptr<ClientCore>& core, RemoteCall call,
                                const CancellationPtr& cancel, Done<RemoteCallEnd> done);
/// Runs one queued call of `interface_name` with `methods`, taken within `wait` (nullopt: as
/// long as it takes), without a registration (RemoteService::try_execute); completes with
/// whether a method ran. `cancel` (may be null) ends the wait with operation_aborted; a call
/// taken before the cancellation reached the server is still run and answered.
void start_remote_try_execute(const std::shared_ptr<ClientCore>& core, const std::string& service,
                              CodecPtr codec, const std::string& interface_name,
                              std::vector<RemoteMethodEntry> methods,
                              std::optional<std::chrono::milliseconds> wait,
                              const CancellationPtr& cancel, Done<bool> done);
/// The Java names of `Args`, concatenated, unless `given` names them.
template <class... Args>
std::string java_parameter_types(const std::vector<std::string>& given) {
  if (!given.empty()) {
    if (given.size() != sizeof...(Args)) {
      throw_invalid_argument("remote method: " + std::to_string(given.size()) +
                             " Java parameter types given for " + std::to_string(sizeof...(Args)) +
                             " parameters");
    }
    std::string joined;
    for (const auto& name : given) joined += name;
    return joined;
  }
  std::string joined;
  (joined.append(JavaTypeName<std::decay_t<Args>>::name), ...);
  return joined;
}

template <class R, class... Args>
RemoteMethodEntry remote_method_entry(std::string name, std::function<R(Args...)> handler,
                                      const std::vector<std::string>& java_types) {
  static_assert((JavaValue<std::decay_t<Args>> && ...),
                "remote method parameters must be types a codec carries (JavaValue)");
  RemoteMethodEntry entry;
  entry.name = std::move(name);
  entry.parameter_types = java_parameter_types<Args...>(java_types);
  entry.arity = sizeof...(Args);
  entry.invoke = [handler = std::move(handler)](
                     const Codec& codec,
                     const std::vector<std::string>& args) -> std::optional<std::string> {
    if (args.size() != sizeof...(Args)) {
      throw error(errc::invalid_argument, "remote method: " + std::to_string(args.size()) +
                                              " arguments for " + std::to_string(sizeof...(Args)) +
                                              " parameters");
    }
    return [&]<std::size_t... I>(std::index_sequence<I...>)->std::optional<std::string> {
      std::tuple<std::decay_t<Args>...> decoded{
          from_value<std::decay_t<Args>>(codec.decode(args[I]))...};
      if constexpr (std::is_void_v<R>) {
        handler(std::get<I>(decoded)...);
        return std::nullopt;
      } else {
        return encode_value(codec, handler(std::get<I>(decoded)...));
      }
    }
    (std::index_sequence_for<Args...>{});
  };
  return entry;
}

}  // namespace detail

/// The methods one C++ worker serves for a remote interface, by name. `name` is what callers
/// ask for: Java's Class.getName() of the interface ("com.example.Calc", "Outer$Calc") when Java
/// processes call it or serve it.
class RemoteInterface {
 public:
  explicit RemoteInterface(std::string name) : name_(std::move(name)) {}

  /// Serves the method `method` with `handler`: a callable whose parameters (each a type a codec
  /// carries) and result (one, or void) are the method's. Its signature is the Java names of
  /// the parameter types (JavaTypeName), or `java_parameter_types` when given. Methods that
  /// share a name are told apart by their signatures, as in Java.
  template <class Handler>
  RemoteInterface& method(std::string method, Handler handler,
                          std::vector<std::string> java_parameter_types = {}) {
    std::function function = std::move(handler);
    methods_.push_back(
        detail::remote_method_entry(std::move(method), std::move(function), java_parameter_types));
    return *this;
  }

  const std::string& name() const noexcept { return name_; }

 private:
  friend class RemoteService;
  std::string name_;
  std::vector<detail::RemoteMethodEntry> methods_;
};

template <class Signature>
class RemoteMethod;

/// One method of a remote interface, as a caller sees it: call it like a function (blocking) or
/// with async() and a completion token. Cheap to copy.
template <class R, class... Args>
class RemoteMethod<R(Args...)> {
 public:
  /// Calls the method and waits as the options say. Errors: errc::timeout when no worker took
  /// the call within the ack timeout, or no result came within the execution timeout (the
  /// message says which); errc::remote_failed when the method failed (the worker's message);
  /// errc::codec_error when the result is not an R.
  R operator()(const Args&... args) const {
    return async(args..., detail::blocking("remote call", method_));
  }
  /// As operator(), completing through `token` with (error_code[, R]). Asio cancellation stops
  /// the wait; a call no worker has taken yet is taken back from the queue.
  template <class CompletionToken>
  auto async(const Args&... args, CompletionToken&& token) const {
    std::vector<std::string> encoded;
    detail::Status failure;
    try {
      if constexpr (!std::is_void_v<R>) {
        if (!options_.execution_timeout) {
          throw error(errc::invalid_argument,
                      "remote call " + method_ + ": no_result() is for methods returning void");
        }
      }
      encoded.reserve(sizeof...(Args));
      (encoded.push_back(detail::encode_value(*codec_, args)), ...);
    } catch (const error& thrown) {
      failure = detail::status_of_error(thrown);
    }
    detail::RemoteCall call;
    call.service = service_;
    call.interface_name = interface_;
    call.method = method_;
    call.parameter_types = parameter_types_;
    call.args = std::move(encoded);
    call.options = options_;
    call.codec = codec_;
    call.executor_id = executor_id_;
    return detail::async_op<R>(
        core_, token,
        [core = core_, call = std::move(call), failure = std::move(failure)](
            detail::Done<R> done, detail::CancellationPtr cancel) mutable {
          if (failure) return detail::fail<R>(done, std::move(failure));
          auto codec = call.codec;
          detail::start_remote_call(
              core, std::move(call), cancel,
              [done = std::move(done), codec](detail::Status status,
                                              std::optional<std::string> result) mutable {
                if constexpr (std::is_void_v<R>) {
                  done(std::move(status));
                } else {
                  if (status) return done(std::move(status), R{});
                  try {
                    done({}, from_value<R>(result ? codec->decode(*result) : Value()));
                  } catch (const error& thrown) {
                    done(detail::status_of_error(thrown), R{});
                  }
                }
              });
        });
  }

 private:
  friend class RemoteProxy;
  RemoteMethod(std::shared_ptr<detail::ClientCore> core, std::string service,
               std::string interface_name, std::string method, std::string parameter_types,
               RemoteInvocationOptions options, CodecPtr codec, std::string executor_id)
      : core_(std::move(core)),
        service_(std::move(service)),
        interface_(std::move(interface_name)),
        method_(std::move(method)),
        parameter_types_(std::move(parameter_types)),
        options_(options),
        codec_(std::move(codec)),
        executor_id_(std::move(executor_id)) {}

  std::shared_ptr<detail::ClientCore> core_;
  std::string service_;
  std::string interface_;
  std::string method_;
  std::string parameter_types_;
  RemoteInvocationOptions options_;
  CodecPtr codec_;
  std::string executor_id_;
};

/// A remote interface as a caller sees it (Java's RemoteService.get(Class, options)).
class RemoteProxy {
 public:
  /// The method `method` with the C++ signature `Signature` (R(Args...)); its Java signature is
  /// the Java names of Args (JavaTypeName) or `java_parameter_types` when given.
  template <class Signature>
  RemoteMethod<Signature> method(std::string method,
                                 std::vector<std::string> java_parameter_types = {}) const {
    return make<Signature>(std::move(method), java_parameter_types);
  }

  const std::string& interface_name() const noexcept { return interface_; }
  const RemoteInvocationOptions& options() const noexcept { return options_; }

 private:
  friend class RemoteService;
  RemoteProxy(std::shared_ptr<detail::ClientCore> core, std::string service,
              std::string interface_name, RemoteInvocationOptions options, CodecPtr codec,
              std::string executor_id)
      : core_(std::move(core)),
        service_(std::move(service)),
        interface_(std::move(interface_name)),
        options_(options),
        codec_(std::move(codec)),
        executor_id_(std::move(executor_id)) {}

  template <class Signature>
  struct Maker;
  template <class R, class... Args>
  struct Maker<R(Args...)> {
    static RemoteMethod<R(Args...)> make(const RemoteProxy& proxy, std::string method,
                                         const std::vector<std::string>& java_types) {
      return RemoteMethod<R(Args...)>(proxy.core_, proxy.service_, proxy.interface_,
                                      std::move(method),
                                      detail::java_parameter_types<Args...>(java_types),
                                      proxy.options_, proxy.codec_, proxy.executor_id_);
    }
  };
  template <class Signature>
  RemoteMethod<Signature> make(std::string method,
                               const std::vector<std::string>& java_types) const {
    return Maker<Signature>::make(*this, std::move(method), java_types);
  }

  std::shared_ptr<detail::ClientCore> core_;
  std::string service_;
  std::string interface_;
  RemoteInvocationOptions options_;
  CodecPtr codec_;
  std::string executor_id_;
};

/// Java Redisson's RRemoteService named `name` (Redisson's default "redisson_rs"), its requests
/// and results in `codec` (null: the client's codec; kryo5 or json, the codecs whose bytes
/// Java's remote classes have). A handle: cheap, sends nothing until used.
class RemoteService {
 public:
  explicit RemoteService(const Client& client, std::string name = "redisson_rs",
                         CodecPtr codec = nullptr);

  const std::string& name() const noexcept { return name_; }

  /// Serves `interface` on this client with `workers` (>= 1) invocations at a time, until
  /// deregister() or the client shuts down. Handlers run on the client's listener threads;
  /// what one throws goes back to its caller as errc::remote_failed with the exception's text.
  /// False when this client serves that interface of this service already (as Java, nothing
  /// changes).
  bool register_service(RemoteInterface interface, int workers = 1) const;
  /// Stops serving `interface_name`; an invocation running finishes and answers. False when
  /// it was not served here.
  bool deregister(const std::string& interface_name) const;
  /// The workers of `interface_name` on this client not running an invocation now (Java's
  /// getFreeWorkers; 0 when not served here).
  int free_workers(const std::string& interface_name) const;
  /// The calls queued for `interface_name` that no worker has taken yet (Java's
  /// getPendingInvocations: LLEN of its request list).
  std::int64_t pending_invocations(const std::string& interface_name) const;
  /// As try_execute() below, completing through `token` with (error_code, bool).
  template <class CompletionToken>
  auto async_try_execute(RemoteInterface interface, std::chrono::milliseconds wait,
                         CompletionToken&& token) const {
    return detail::async_op<bool>(
        core_, token,
        [core = core_, service = name_, codec = codec_, name = std::move(interface.name_),
         methods = std::move(interface.methods_), wait](detail::Done<bool> done) mutable {
          if (wait.count() < 0) {
            return detail::fail<bool>(done,
                                      detail::Status(make_error_code(errc::invalid_argument),
                                                     "try_execute: the wait must not be negative"));
          }
          detail::start_remote_try_execute(core, service, codec, name, std::move(methods), wait,
                                           nullptr, std::move(done));
        });
  }
  /// Runs one call of `interface` here without registering it (Java's tryExecute): the first
  /// queued within `wait` (zero: only one queued already; negative: errc::invalid_argument) is
  /// taken, run on a listener thread and answered. True when a method ran.
  bool try_execute(RemoteInterface interface, std::chrono::milliseconds wait) const {
    return async_try_execute(std::move(interface), wait, detail::blocking("try_execute", name_));
  }
  /// The interface `interface_name` as a caller sees it, calls waiting as `options` say.
  RemoteProxy get(std::string interface_name, RemoteInvocationOptions options = {}) const {
    return RemoteProxy(core_, name_, std::move(interface_name), options, codec_, executor_id_);
  }

 private:
  detail::ObjectPtr state_;  // the client and the codec, no key (pending_invocations)
  std::shared_ptr<detail::ClientCore> core_;
  std::string name_;
  CodecPtr codec_;
  // Redisson's executor id: the client's id, with ":<name>" when the codec is not the client's.
  std::string executor_id_;
};

}  // namespace redisson

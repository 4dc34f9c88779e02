// TransferQueue's operations (redisson/objects/transfer_queue.hpp): Java Redisson's
// RedissonTransferQueue, an RRemoteService named `{<name>}:remoteService` whose interface
// org.redisson.RedissonTransferQueue$TransferQueueService has one method, `<V> void invoke(V)`.
// An element is a queued call of it; a consumer runs one queued call here (try_execute) and
// keeps its argument. What the template sees are the elements' bytes (the codec's bytes of each
// value on its own): a bulk reply, nil, or an array of them.
#include "redisson/objects/transfer_queue.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "client/client_core.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "objects/suffix_name.hpp"
#include "redisson/codec.hpp"
#include "services/remote_names.hpp"
#include "services/remote_wire.hpp"

namespace redisson::detail {

namespace {

constexpr const char* kTransferInterface =
    "org.redisson.RedissonTransferQueue$TransferQueueService";
// The Java parameter type of the generic `<V> void invoke(V value)`: its erasure.
constexpr const char* kTransferParameterTypes = "java.lang.Object";

std::string transfer_service(const std::string& name) { return suffix_name(name, "remoteService"); }

std::string transfer_request_queue(const std::string& name) {
  return remote_request_queue(transfer_service(name), kTransferInterface);
}

Reply bulk_reply(std::string bytes) {
  Reply reply;
  reply.type = ReplyType::bulk_string;
  reply.str = std::move(bytes);
  return reply;
}

// The element of a stored request: its one argument's bytes.
Reply element_of_request(const Codec& codec, std::string_view request_bytes) {
  auto request = decode_remote_request(remote_wire_of(codec), request_bytes);
  if (request.args.size() != 1) {
    throw error(errc::codec_error, "TransferQueue: a queued request with " +
                                       std::to_string(request.args.size()) +
                                       " arguments (invoke has one)");
  }
  return bulk_reply(std::move(request.args.front()));
}

RemoteCall transfer_call(const ObjectState& object, std::string element) {
  RemoteCall call;
  call.service = transfer_service(object.name);
  call.interface_name = kTransferInterface;
  call.method = "invoke";
  call.parameter_types = kTransferParameterTypes;
  call.args.push_back(std::move(element));
  call.options = RemoteInvocationOptions::defaults().no_ack();
  call.codec = object.codec;
  call.executor_id = remote_executor_id(*object.core, object.codec, call.service);
  return call;
}

}  // namespace

std::vector<std::string> transfer_queue_keys(const std::string& name) {
  auto queue = transfer_request_queue(name);
  auto tasks = remote_tasks_hash(queue);
  return {std::move(queue), std::move(tasks)};
}

void check_transfer_queue_codec(const Codec& codec) { (void)remote_wire_of(codec); }

void start_transfer_queue_offer(const ObjectPtr& object, std::vector<std::string> elements,
                                TransferMode mode, std::chrono::milliseconds wait,
                                const CancellationPtr& cancel, Done<bool> done) {
  if (wait.count() < 0) {
    return done(Status(make_error_code(errc::invalid_argument),
                       "try_transfer: the wait must not be negative"),
                false);
  }
  if (elements.empty()) return done({}, false);
  // add_all's calls go out in order on the I/O thread: one after another in the list.
  struct Pending {
    Done<bool> done;
    std::size_t left = 0;
    Status failure;
    bool transferred = true;
  };
  auto pending = std::make_shared<Pending>();
  pending->done = std::move(done);
  pending->left = elements.size();
  // A cancellation slot takes one handler: the wait of a single element's call.
  const auto single_cancel = elements.size() == 1 ? cancel : nullptr;
  for (auto& element : elements) {
    auto call = transfer_call(*object, std::move(element));
    call.complete_when_queued = mode == TransferMode::queue;
    if (mode == TransferMode::try_transfer) call.take_back_after = wait;
    start_remote_call_with_end(object->core, std::move(call), single_cancel,
                               [pending](const Status& status, const RemoteCallEnd& end) {
                                 if (status && !pending->failure) pending->failure = status;
                                 if (end.taken_back) pending->transferred = false;
                                 if (--pending->left > 0) return;
                                 if (pending->failure) {
                                   return pending->done(std::move(pending->failure), false);
                                 }
                                 pending->done({}, pending->transferred);
                               });
  }
}

void start_transfer_queue_poll(const ObjectPtr& object,
                               std::optional<std::chrono::milliseconds> wait,
                               const CancellationPtr& cancel, Done<Reply> done) {
  if (wait && wait->count() < 0) {
    return done(
        Status(make_error_code(errc::invalid_argument), "poll: the wait must not be negative"),
        Reply{});
  }
  // Java's TransferQueueServiceImpl: invoke keeps its argument. The method runs on a listener
  // thread; try_execute completes on the I/O thread after it, so the slot is read after the
  // write.
  auto kept = std::make_shared<std::optional<std::string>>();
  RemoteMethodEntry invoke;
  invoke.name = "invoke";
  invoke.parameter_types = kTransferParameterTypes;
  invoke.arity = 1;
  invoke.invoke = [kept](const Codec&,
                         const std::vector<std::string>& args) -> std::optional<std::string> {
    if (args.size() != 1) {
      throw error(errc::invalid_argument,
                  "TransferQueue: invoke with " + std::to_string(args.size()) + " arguments");
    }
    *kept = args.front();
    return std::nullopt;
  };
  std::vector<RemoteMethodEntry> methods;
  methods.push_back(std::move(invoke));
  start_remote_try_execute(
      object->core, transfer_service(object->name), object->codec, kTransferInterface,
      std::move(methods), wait, cancel,
      [object, wait, cancel, kept, done = std::move(done)](Status status, bool) mutable {
        if (status) return done(std::move(status), Reply{});
        if (*kept) return done({}, bulk_reply(std::move(**kept)));
        // take(): a popped call its producer had taken back meanwhile; the next one is waited for.
        if (!wait) return start_transfer_queue_poll(object, wait, cancel, std::move(done));
        done({}, Reply{});
      });
}

void start_transfer_queue_peek(const ObjectPtr& object, Done<Reply>& done) {
  eval_reply(
      *object, lua::transfer_queue_peek(transfer_queue_keys(object->name), {}),
      [codec = object->codec, done = std::move(done)](Status status, const Reply& reply) mutable {
        if (status || reply.is_null()) return done(std::move(status), Reply{});
        try {
          done({}, element_of_request(*codec, reply.str));
        } catch (const error& unreadable) {
          done(status_of_error(unreadable), Reply{});
        }
      });
}

void start_transfer_queue_read(const ObjectPtr& object, bool drain, std::int64_t max_elements,
                               Done<Reply>& done) {
  auto call = drain ? lua::transfer_queue_drain(transfer_queue_keys(object->name),
                                                {std::to_string(max_elements)})
                    : lua::transfer_queue_read_all(transfer_queue_keys(object->name), {});
  eval_reply(
      *object, std::move(call),
      [codec = object->codec, done = std::move(done)](Status status, const Reply& reply) mutable {
        if (status) return done(std::move(status), Reply{});
        Reply elements;
        elements.type = ReplyType::array;
        try {
          for (const auto& request : reply.elements) {
            elements.elements.push_back(element_of_request(*codec, request.str));
          }
        } catch (const error& unreadable) {
          return done(status_of_error(unreadable), Reply{});
        }
        done({}, std::move(elements));
      });
}

void start_transfer_queue_contains(const ObjectPtr& object, std::vector<std::string>& encoded,
                                   Done<Reply>& done) {
  eval_reply(*object, lua::transfer_queue_read_all(transfer_queue_keys(object->name), {}),
             [codec = object->codec, wanted = std::move(encoded.front()), done = std::move(done)](
                 Status status, const Reply& reply) mutable {
               if (status) return done(std::move(status), Reply{});
               try {
                 for (const auto& request : reply.elements) {
                   if (element_of_request(*codec, request.str).str == wanted) {
                     return done({}, integer_reply(1));
                   }
                 }
               } catch (const error& unreadable) {
                 return done(status_of_error(unreadable), Reply{});
               }
               done({}, integer_reply(0));
             });
}

void start_transfer_queue_remove_all(const ObjectPtr& object, std::vector<std::string>& encoded,
                                     Done<Reply>& done) {
  if (encoded.empty()) return done({}, integer_reply(0));
  eval_reply(
      *object, lua::transfer_queue_read_all(transfer_queue_keys(object->name), {}),
      [object, unwanted = std::move(encoded), done = std::move(done)](Status status,
                                                                      const Reply& reply) mutable {
        if (status) return done(std::move(status), Reply{});
        std::vector<std::string> ids;
        try {
          const auto wire = remote_wire_of(*object->codec);
          for (const auto& bytes : reply.elements) {
            auto request = decode_remote_request(wire, bytes.str);
            if (request.args.size() == 1 && std::find(unwanted.begin(), unwanted.end(),
                                                      request.args.front()) != unwanted.end()) {
              ids.push_back(std::move(request.id));
            }
          }
        } catch (const error& unreadable) {
          return done(status_of_error(unreadable), Reply{});
        }
        if (ids.empty()) return done({}, integer_reply(0));
        eval_reply(*object, lua::transfer_queue_remove(transfer_queue_keys(object->name), ids),
                   std::move(done));
      });
}

void start_transfer_queue_size(const ObjectPtr& object, Done<Reply>& done) {
  submit_command(object, Command{"LLEN", transfer_request_queue(object->name)}, std::move(done));
}

void start_transfer_queue_clear(const ObjectPtr& object, Done<Reply>& done) {
  Command command{"DEL"};
  for (auto& key : transfer_queue_keys(object->name)) command.arg(key);
  submit_command(object, command, std::move(done));
}

}  // namespace redisson::detail

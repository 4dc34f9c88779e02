// What every part of an executor shares (redisson/services/executor_service.hpp): the client,
// the codec, the options, and Redisson's key names of the executor `name` (OBJECTS.md §6):
//
//   {<name>:org.redisson.executor.RemoteExecutorService}      the request list (task ids)
//     :tasks :counter :status :scheduler :scheduler-channel :retry-interval :expiration
//     :termination-topic :task-latch:<id> :workers-channel :workers-counter:<request id>
//     :workers-semaphore:<request id>
//   {remote_response}:<executor id>                            a submitter's results
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "redisson/codec.hpp"
#include "redisson/services/executor_service.hpp"
#include "services/remote_wire.hpp"

namespace redisson::detail {

class ClientCore;

struct ExecutorState {
  std::shared_ptr<ClientCore> core;
  std::string name;
  CodecPtr codec;
  RemoteWire wire = RemoteWire::kryo5;
  ExecutorOptions options;
  // Where this client's results arrive: Java's executor id, the client's id with
  // ":org.redisson.executor.RemoteExecutorServiceAsync:<name>" when the codec is not the
  // client's, else the client's id.
  std::string executor_id;
  std::string response_queue;

  std::string queue;  // the request list; every other key is named after it
  std::string tasks;
  std::string counter;
  std::string status;
  std::string scheduler;
  std::string scheduler_channel;
  std::string retry_interval;
  std::string expiration;
  std::string cancelled_runs;  // ours, not Java's: lua/executor_cancel.lua
  std::string termination_topic;
  std::string latch_prefix;  // + ":" + id
  // count_active_workers: the request channel, and the prefixes of each request's count and
  // semaphore (+ ":" + request id).
  std::string workers_channel;
  std::string workers_counter_prefix;
  std::string workers_semaphore_prefix;
};

/// The channel a count request's answers wake its waiter on: redisson_sc:<semaphore>.
std::string executor_semaphore_channel(const std::string& semaphore);

/// The values the status key holds (Redisson's SHUTDOWN_STATE, TERMINATED_STATE).
inline constexpr const char* kExecutorShutDown = "1";
inline constexpr const char* kExecutorTerminated = "2";

/// ExecutorService::count_active_workers.
void start_count_active_workers(const ExecutorPtr& executor, std::chrono::milliseconds wait,
                                Done<std::int64_t> done);

/// Throws errc::invalid_argument for an empty name or a codec other than kryo5/json.
std::shared_ptr<ExecutorState> make_executor_state(std::shared_ptr<ClientCore> core,
                                                   std::string name, CodecPtr codec,
                                                   ExecutorOptions options);

}  // namespace redisson::detail

// Batch, the handle (redisson/batch.hpp); what it queues and sends: batch_state.hpp.
#include "redisson/batch.hpp"

#include "batch/batch_state.hpp"
#include "client/client_access.hpp"
#include "client/client_core.hpp"

namespace redisson {

Batch::Batch(const Client& client, BatchOptions options)
    : client_(&client),
      core_(detail::ClientAccess::core(client)),
      state_(std::make_shared<detail::BatchState>(core_, options)) {
  if (options.sync_replicas < 0 || options.sync_timeout.count() < 0 ||
      options.response_timeout.count() < 0 || options.retry_attempts < 0 ||
      options.retry_interval.count() < 0) {
    throw error(errc::invalid_argument,
                "BatchOptions: replicas, timeouts, retry attempts and interval must not be "
                "negative");
  }
}

void Batch::bind(Object& object) const { bind(object.object_); }

void Batch::bind(detail::ObjectPtr& state) const {
  auto bound = std::make_shared<detail::ObjectState>(*state);
  bound->batch = state_;
  state = std::move(bound);
}

void Batch::refuse_codec() {
  throw error(errc::invalid_argument, "Batch::get: this object type takes no codec");
}

void Batch::start_execute(const std::shared_ptr<detail::BatchState>& state,
                          detail::Done<BatchResult> done) {
  state->execute(std::move(done));
}

BatchResult Batch::execute() { return async_execute(detail::blocking("batch execute")); }

void Batch::discard() { state_->discard(); }

std::size_t Batch::size() const { return state_->size(); }

}  // namespace redisson

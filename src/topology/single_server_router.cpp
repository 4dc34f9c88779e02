#include "topology/single_server_router.hpp"

namespace redisson::detail {

namespace {

// The router adds no callback of its own: a blocking caller may read its reply itself.
ConnectionOptions with_caller_reads(ConnectionOptions options) {
  options.caller_reads = true;
  return options;
}

}  // namespace

SingleServerRouter::SingleServerRouter(asio::io_context& io, ConnectionOptions options)
    : server_(options.server),
      node_(node_key(options.server)),
      connection_(std::make_shared<Connection>(io, with_caller_reads(std::move(options)))) {}

void SingleServerRouter::start(StartCallback done) {
  // The connection reports its first attempt on the I/O thread, where last_error() is written:
  // reading it there needs no lock.
  connection_->start([connection = connection_, done = std::move(done)](std::error_code ec) {
    done(ec, ec ? connection->last_error() : std::string());
  });
}

void SingleServerRouter::submit(const Command& command, Clock::time_point deadline,
                                ReplyCallback callback, SentHook after_send, ReadSlot* read) {
  connection_->submit(command, deadline, std::move(callback), read);
  if (after_send) after_send(connection_, node_);
}

void SingleServerRouter::submit_to(const ServerAddress&, const Command& command,
                                   Clock::time_point deadline, ReplyCallback callback) {
  connection_->submit(command, deadline, std::move(callback));
}

ServerAddress SingleServerRouter::pubsub_node(std::string_view) const { return server_; }

void SingleServerRouter::refresh(std::function<void()> done) {
  if (done) done();
}

bool SingleServerRouter::connected() const { return connection_->ready(); }

void SingleServerRouter::close() { connection_->close(); }

}  // namespace redisson::detail

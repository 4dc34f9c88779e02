// Buckets: MGET / MSET / MSETNX, one per hash slot on a Cluster.
#include "redisson/objects/buckets.hpp"

#include "objects/send.hpp"

namespace redisson::detail {
namespace {

void check_names(const std::vector<std::string>& names) {
  for (const auto& name : names) {
    if (name.empty()) throw_invalid_argument("a bucket name must not be empty");
  }
}

}  // namespace

void start_buckets_get(const ObjectPtr& state, const std::vector<std::string>& names,
                       Done<Reply>& done) {
  check_names(names);
  auto groups = slot_groups(*state->core, names);
  std::vector<Command> commands;
  for (const auto& group : groups) {
    Command& mget = commands.emplace_back(Command{"MGET"});
    for (const auto i : group) mget.arg(names[i]);
  }
  submit_all(*state, std::move(commands),
             [done = std::move(done), groups = std::move(groups), count = names.size()](
                 Status status, std::vector<Reply> replies) mutable {
               // The values back in the order of the names.
               Reply values;
               values.type = ReplyType::array;
               values.elements.resize(count);
               for (std::size_t g = 0; g < replies.size(); ++g) {
                 auto& elements = replies[g].elements;
                 for (std::size_t k = 0; k < groups[g].size() && k < elements.size(); ++k) {
                   values.elements[groups[g][k]] = std::move(elements[k]);
                 }
               }
               done(std::move(status), std::move(values));
             });
}

void start_buckets_set(const ObjectPtr& state, const char* command,
                       std::vector<std::pair<std::string, std::string>> pairs, Done<Reply>& done) {
  std::vector<std::string> names;
  names.reserve(pairs.size());
  for (const auto& pair : pairs) names.push_back(pair.first);
  check_names(names);
  if (pairs.empty()) return done(Status{}, integer_reply(0));
  std::vector<Command> commands;
  for (const auto& group : slot_groups(*state->core, names)) {
    Command& write = commands.emplace_back(Command{command});
    for (const auto i : group) write.arg(pairs[i].first).arg(pairs[i].second);
  }
  submit_all(*state, std::move(commands),
             [done = std::move(done)](Status status, const std::vector<Reply>& replies) mutable {
               // MSET answers OK, MSETNX 1 or 0: success when every one said yes.
               bool all = true;
               for (const auto& reply : replies)
                 all = all && (!reply.is_integer() || reply.integer == 1);
               done(std::move(status), integer_reply(all ? 1 : 0));
             });
}

}  // namespace redisson::detail

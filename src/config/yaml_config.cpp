// Config::from_yaml: Redisson's redisson.yml, read into a Config.
//
// Every key of the file is accounted for: mapped onto a Config field, accepted and reported as
// having no effect here (pool sizes, codec, Netty tuning: see kIgnored*), or rejected as unknown.
// Unknown keys are collected over the whole file and reported together with their YAML paths,
// so a typo never silently falls back to a default.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

#include "redisson/config.hpp"
#include "redisson/error.hpp"

namespace redisson {
namespace {

using std::chrono::milliseconds;

// An error's text without the ": invalid argument" std::system_error appends to it.
std::string plain_message(const error& e) {
  std::string message = e.what();
  const std::string suffix = ": " + e.code().message();
  if (message.ends_with(suffix)) message.resize(message.size() - suffix.size());
  return message;
}

[[noreturn]] void bad_value(const std::string& path, const std::string& why) {
  throw error(errc::invalid_argument, "redisson.yml: " + path + ": " + why);
}

struct IgnoredKey {
  std::string_view key;
  std::string_view why;
};

constexpr std::string_view kPooled = "connections are pipelined here, not pooled";
constexpr std::string_view kNetty = "Netty/JVM tuning with no equivalent here";
constexpr std::string_view kNoEffect = "no equivalent here";

// Keys every server section shares (Redisson's BaseConfig) that have no effect here.
constexpr IgnoredKey kIgnoredConnectionKeys[] = {
    {"idleConnectionTimeout", kPooled},
    {"subscriptionsPerConnection", kPooled},
    {"pingTimeout", kNoEffect},
    {"pingConnectionInterval", "the watchdog and every command's deadline detect dead links"},
    {"keepAlive", "TCP keep-alive is always on"},
    {"tcpNoDelay", "TCP_NODELAY is always on"},
    {"tcpKeepAliveCount", kNoEffect},
    {"tcpKeepAliveIdle", kNoEffect},
    {"tcpKeepAliveInterval", kNoEffect},
    {"tcpUserTimeout", kNoEffect},
    {"sslProvider", "TLS is always OpenSSL"},
    {"sslProtocols", "OpenSSL's defaults (TLS 1.2 and later) are used"},
    {"sslCiphers", "OpenSSL's default cipher list is used"},
    {"sslKeystoreType", "keys and certificates are PEM files"},
    {"tlsVersion", "OpenSSL's defaults (TLS 1.2 and later) are used"},
    {"reconnectionTimeout", "removed in Redisson too"},
    {"failedAttempts", "removed in Redisson too"},
    {"retryDelay", "the unlock retry delay is retryInterval"},
    {"reconnectionDelay", "reconnects back off up to Config::reconnect_max_delay"},
    {"nameMapper", "Java class"},
    {"commandMapper", "Java class"},
    {"credentialsResolver", "Java class"},
};

// Keys of the sections with several nodes (Redisson's BaseMasterSlaveServersConfig).
constexpr IgnoredKey kIgnoredNodeKeys[] = {
    {"loadBalancer", "Java class"},
    {"slaveConnectionMinimumIdleSize", kPooled},
    {"slaveConnectionPoolSize", kPooled},
    {"masterConnectionMinimumIdleSize", kPooled},
    {"masterConnectionPoolSize", kPooled},
    {"subscriptionConnectionMinimumIdleSize", kPooled},
    {"subscriptionConnectionPoolSize", kPooled},
    {"failedSlaveReconnectionInterval", kNoEffect},
    {"failedSlaveCheckInterval", kNoEffect},
    {"failedSlaveNodeDetector", "Java class"},
    {"subscriptionMode", "lock channels are subscribed on the master"},
    {"dnsMonitoringInterval", kNoEffect},
    {"natMap", kNoEffect},
    {"natMapper", "Java class"},
};

constexpr IgnoredKey kIgnoredSingleKeys[] = {
    {"connectionMinimumIdleSize", kPooled},
    {"connectionPoolSize", kPooled},
    {"subscriptionConnectionMinimumIdleSize", kPooled},
    {"subscriptionConnectionPoolSize", kPooled},
    {"dnsMonitoringInterval", kNoEffect},
};

constexpr IgnoredKey kIgnoredTopLevelKeys[] = {
    {"nettyThreads",
     "sizes Netty's pool for Redisson's many connections; one pipelined connection per node "
     "needs one I/O thread (Config::io_threads, default 1)"},
    {"transportMode", kNetty},
    {"executor", kNetty},
    {"eventLoopGroup", kNetty},
    {"nettyHook", kNetty},
    {"nettyExecutor", kNetty},
    {"useThreadClassLoader", kNetty},
    {"addressResolverGroupFactory", kNetty},
    {"referenceEnabled", kNoEffect},
    {"keepPubSubOrder", "messages of one channel are always delivered in order"},
    {"useScriptCache", "scripts always run by SHA (EVALSHA, loaded on NOSCRIPT)"},
    {"connectionListener", "Java class"},
    {"lazyInitialization", "the client connects in its constructor"},
};

// Collects what the reader found wrong or ignored across the whole file.
struct Report {
  std::vector<std::string> unknown;
  std::vector<std::string>* ignored = nullptr;
};

// One YAML mapping at `path`: typed getters that mark their key as understood, and finish(),
// which reports every key nobody asked for. A YAML null (`password: null`, as Redisson writes
// its defaults) reads as "absent": the Config keeps its default.
class Section {
 public:
  Section(const YAML::Node& node, std::string path, Report& report)
      : node_(node), path_(std::move(path)), report_(report) {
    if (!node_.IsMap()) {
      bad_value(path_.empty() ? "the document" : path_, "expected a mapping of keys to values");
    }
  }

  std::string key_path(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  }

  // The value of `key`, or an undefined node when absent or null. Marks the key as known.
  YAML::Node get(std::string_view key) {
    known_.emplace_back(key);
    YAML::Node value = node_[std::string(key)];
    if (!value.IsDefined() || value.IsNull()) return YAML::Node(YAML::NodeType::Undefined);
    return value;
  }

  std::optional<std::string> string(std::string_view key) {
    const auto value = get(key);
    if (!value.IsDefined()) return std::nullopt;
    if (!value.IsScalar()) bad_value(key_path(key), "expected a string");
    return value.Scalar();
  }

  std::optional<long long> integer(std::string_view key, long long min, long long max) {
    const auto value = get(key);
    if (!value.IsDefined()) return std::nullopt;
    long long number = 0;
    if (!value.IsScalar() || !YAML::convert<long long>::decode(value, number)) {
      bad_value(key_path(key), "expected an integer, got '" + describe(value) + "'");
    }
    if (number < min || number > max) {
      bad_value(key_path(key), std::to_string(number) + " is out of range " + std::to_string(min) +
                                   ".." + std::to_string(max));
    }
    return number;
  }

  // Milliseconds, as every Redisson duration key is written. Never negative; `positive` also
  // refuses 0 where 0 would mean "fail at once".
  std::optional<milliseconds> duration(std::string_view key, bool positive) {
    const auto value = get(key);
    if (!value.IsDefined()) return std::nullopt;
    long long number = 0;
    if (!value.IsScalar() || !YAML::convert<long long>::decode(value, number)) {
      bad_value(key_path(key), "expected milliseconds (an integer), got '" + describe(value) + "'");
    }
    if (number < 0 || (positive && number == 0)) {
      bad_value(key_path(key), std::to_string(number) + " ms: must be " +
                                   (positive ? "positive" : "zero or positive"));
    }
    return milliseconds(number);
  }

  std::optional<bool> boolean(std::string_view key) {
    const auto value = get(key);
    if (!value.IsDefined()) return std::nullopt;
    bool flag = false;
    if (!value.IsScalar() || !YAML::convert<bool>::decode(value, flag)) {
      bad_value(key_path(key), "expected true or false, got '" + describe(value) + "'");
    }
    return flag;
  }

  std::optional<ServerAddress> address(std::string_view key) {
    auto text = string(key);
    if (!text) return std::nullopt;
    return parse_address(*text, key_path(key));
  }

  std::vector<ServerAddress> address_list(std::string_view key) {
    const auto value = get(key);
    std::vector<ServerAddress> addresses;
    if (!value.IsDefined()) return addresses;
    if (!value.IsSequence()) bad_value(key_path(key), "expected a list of redis:// addresses");
    for (std::size_t i = 0; i < value.size(); ++i) {
      const auto path = key_path(key) + "[" + std::to_string(i) + "]";
      if (!value[i].IsScalar()) bad_value(path, "expected a redis:// or rediss:// address");
      addresses.push_back(parse_address(value[i].Scalar(), path));
    }
    return addresses;
  }

  std::optional<ReadMode> read_mode(std::string_view key) {
    const auto text = string(key);
    if (!text) return std::nullopt;
    if (*text == "MASTER") return ReadMode::master;
    if (*text == "SLAVE") return ReadMode::slave;
    if (*text == "MASTER_SLAVE") return ReadMode::master_slave;
    bad_value(key_path(key), "'" + *text + "' is not one of MASTER, SLAVE, MASTER_SLAVE");
  }

  // Accepts each key in `keys` (whatever its value) and reports it as having no effect.
  template <std::size_t N>
  void ignore(const IgnoredKey (&keys)[N]) {
    for (const auto& entry : keys) {
      known_.emplace_back(entry.key);
      if (report_.ignored != nullptr && node_[std::string(entry.key)].IsDefined()) {
        report_.ignored->push_back(key_path(entry.key) + ": ignored (" + std::string(entry.why) +
                                   ")");
      }
    }
  }

  // Reports every key of the mapping that no getter or ignore() asked for.
  void finish() {
    for (const auto& item : node_) {
      const std::string key = item.first.Scalar();
      if (std::find(known_.begin(), known_.end(), key) == known_.end()) {
        report_.unknown.push_back(key_path(key));
      }
    }
  }

 private:
  static std::string describe(const YAML::Node& value) {
    if (value.IsScalar()) return value.Scalar();
    if (value.IsSequence()) return "a list";
    if (value.IsMap()) return "a mapping";
    return "?";
  }

  static ServerAddress parse_address(const std::string& text, const std::string& path) {
    try {
      return ServerAddress::from_url(text);
    } catch (const error& e) {
      bad_value(path, plain_message(e));
    }
  }

  YAML::Node node_;
  std::string path_;
  Report& report_;
  std::vector<std::string> known_;
};

// A PEM file path from Redisson's sslTruststore/sslKeystore, which are URLs ("file:/path").
std::string pem_path(std::string value) {
  if (value.starts_with("file://")) return value.substr(7);
  if (value.starts_with("file:")) return value.substr(5);
  return value;
}

// The keys every server section shares: timeouts, retries, login and TLS.
void read_connection_keys(Section& section, Config& config) {
  if (auto value = section.duration("connectTimeout", true)) config.connect_timeout = *value;
  if (auto value = section.duration("timeout", true)) config.command_timeout = *value;
  if (auto value = section.duration("subscriptionTimeout", true)) {
    config.subscription_timeout = *value;
  }
  if (auto value = section.integer("retryAttempts", 0, 1000)) {
    config.retry_attempts = static_cast<int>(*value);
  }
  if (auto value = section.duration("retryInterval", false)) config.retry_interval = *value;
  if (auto value = section.string("clientName")) config.client_name = *value;
  if (auto value = section.string("username")) config.server.username = *value;
  if (auto value = section.string("password")) config.server.password = *value;

  if (auto value = section.string("sslTruststore")) config.tls.ca_file = pem_path(*value);
  if (auto value = section.string("sslKeystore")) {
    // One PEM file holding the client's certificate chain and its key, as a Java keystore does.
    config.tls.cert_file = pem_path(*value);
    config.tls.key_file = config.tls.cert_file;
  }
  if (auto value = section.boolean("sslEnableEndpointIdentification")) {
    config.tls.verify_hostname = *value;
  }
  if (auto value = section.string("sslVerificationMode")) {
    if (*value == "STRICT") {
      config.tls.verify_peer = config.tls.verify_hostname = true;
    } else if (*value == "CA_ONLY") {
      config.tls.verify_peer = true;
      config.tls.verify_hostname = false;
    } else if (*value == "NONE") {
      config.tls.verify_peer = config.tls.verify_hostname = false;
    } else {
      bad_value(section.key_path("sslVerificationMode"),
                "'" + *value + "' is not one of STRICT, CA_ONLY, NONE");
    }
  }
  // A PEM truststore has no password; an encrypted PEM key is not supported (yet).
  section.string("sslTruststorePassword");
  if (section.string("sslKeystorePassword")) {
    bad_value(section.key_path("sslKeystorePassword"),
              "encrypted client keys are not supported; give sslKeystore an unencrypted PEM "
              "file (certificate chain and key)");
  }
  section.ignore(kIgnoredConnectionKeys);
}

void read_database(Section& section, Config& config) {
  if (auto value = section.integer("database", 0, 1 << 20)) {
    config.server.database = static_cast<int>(*value);
  }
}

// The login read into config.server applies to every node of a multi-node deployment.
void apply_login(const Config& config, std::vector<ServerAddress>& addresses) {
  for (auto& address : addresses) {
    if (!config.server.username.empty()) address.username = config.server.username;
    if (!config.server.password.empty()) address.password = config.server.password;
    address.database = config.server.database;
  }
}

void read_single(Section& section, Config& config) {
  auto address = section.address("address");
  read_connection_keys(section, config);
  read_database(section, config);
  section.ignore(kIgnoredSingleKeys);
  section.finish();
  if (address) {
    // The section's username/password/database keys win over the URL's.
    if (!config.server.username.empty()) address->username = config.server.username;
    if (!config.server.password.empty()) address->password = config.server.password;
    if (config.server.database != 0) address->database = config.server.database;
    config.server = *address;
  }
}

void read_cluster(Section& section, Config& config) {
  ClusterConfig cluster;
  cluster.node_addresses = section.address_list("nodeAddresses");
  if (auto value = section.duration("scanInterval", true)) cluster.scan_interval = *value;
  if (auto value = section.read_mode("readMode")) cluster.read_mode = *value;
  if (auto value = section.string("shardedSubscriptionMode")) {
    if (*value == "AUTO") {
      cluster.sharded_subscription = ShardedSubscriptionMode::automatic;
    } else if (*value == "ON") {
      cluster.sharded_subscription = ShardedSubscriptionMode::on;
    } else if (*value == "OFF") {
      cluster.sharded_subscription = ShardedSubscriptionMode::off;
    } else {
      bad_value(section.key_path("shardedSubscriptionMode"),
                "'" + *value + "' is not one of AUTO, ON, OFF");
    }
  }
  read_connection_keys(section, config);
  section.ignore(kIgnoredNodeKeys);
  section.get("checkSlotsCoverage");  // we always follow the slot map the cluster reports
  section.finish();
  if (cluster.node_addresses.empty()) {
    bad_value(section.key_path("nodeAddresses"), "at least one address is needed");
  }
  apply_login(config, cluster.node_addresses);
  config.server = cluster.node_addresses.front();
  config.cluster = std::move(cluster);
}

void read_sentinel(Section& section, Config& config) {
  SentinelConfig sentinel;
  if (auto value = section.string("masterName")) sentinel.master_name = *value;
  sentinel.sentinel_addresses = section.address_list("sentinelAddresses");
  if (auto value = section.string("sentinelUsername")) sentinel.sentinel_username = *value;
  if (auto value = section.string("sentinelPassword")) sentinel.sentinel_password = *value;
  if (auto value = section.duration("scanInterval", true)) sentinel.scan_interval = *value;
  if (auto value = section.read_mode("readMode")) sentinel.read_mode = *value;
  read_connection_keys(section, config);
  read_database(section, config);
  section.ignore(kIgnoredNodeKeys);
  for (const char* key :
       {"checkSentinelsList", "checkSlaveStatusWithSyncing", "sentinelsDiscovery"}) {
    section.boolean(key);  // accepted: sentinels are asked for the master on every failover
  }
  section.finish();
  if (sentinel.master_name.empty()) bad_value(section.key_path("masterName"), "is required");
  if (sentinel.sentinel_addresses.empty()) {
    bad_value(section.key_path("sentinelAddresses"), "at least one address is needed");
  }
  config.sentinel = std::move(sentinel);
}

void read_master_slave(Section& section, Config& config) {
  MasterSlaveConfig master_slave;
  auto master = section.address("masterAddress");
  master_slave.slave_addresses = section.address_list("slaveAddresses");
  if (auto value = section.read_mode("readMode")) master_slave.read_mode = *value;
  read_connection_keys(section, config);
  read_database(section, config);
  section.ignore(kIgnoredNodeKeys);
  section.finish();
  if (!master) bad_value(section.key_path("masterAddress"), "is required");
  std::vector<ServerAddress> all{*master};
  apply_login(config, all);
  apply_login(config, master_slave.slave_addresses);
  master_slave.master = all.front();
  config.server = all.front();
  config.master_slave = std::move(master_slave);
}

// Redisson writes a codec as a tagged node, `codec: !<org.redisson.codec.Kryo5Codec> {}`; a plain
// class name (or our short name) is accepted too. A CompositeCodec names its parts as
// mapKeyCodec, mapValueCodec and valueCodec.
CodecPtr read_codec(const YAML::Node& node, const std::string& path) {
  std::string name = node.Tag();
  if (name.starts_with("!<") && name.ends_with(">")) name = name.substr(2, name.size() - 3);
  if (name.starts_with("!")) name.erase(0, 1);
  if ((name.empty() || name == "?") && node.IsScalar()) name = node.Scalar();
  if (name.empty() || name == "?")
    bad_value(path, "expected a codec class, e.g. !<org.redisson.codec.Kryo5Codec> {}");
  if (name == "org.redisson.codec.CompositeCodec" || name == "composite") {
    if (!node.IsMap()) bad_value(path, "a CompositeCodec needs mapKeyCodec and mapValueCodec");
    const auto part = [&](const char* key) -> CodecPtr {
      const auto value = node[key];
      if (!value.IsDefined() || value.IsNull()) return nullptr;
      return read_codec(value, path + "." + key);
    };
    auto map_key = part("mapKeyCodec");
    auto map_value = part("mapValueCodec");
    if (!map_key || !map_value)
      bad_value(path, "a CompositeCodec needs mapKeyCodec and mapValueCodec");
    return codecs::composite(std::move(map_key), std::move(map_value), part("valueCodec"));
  }
  try {
    return codecs::by_name(name);
  } catch (const error& e) {
    bad_value(path, plain_message(e));
  }
}

Config read_root(const YAML::Node& root, std::vector<std::string>* ignored) {
  if (!root.IsDefined() || root.IsNull()) {
    throw error(errc::invalid_argument, "redisson.yml: the document is empty");
  }
  Report report{{}, ignored};
  Section top(root, "", report);
  Config config;

  if (auto value = top.duration("lockWatchdogTimeout", true)) {
    config.lock_watchdog_timeout = *value;
  }
  if (auto value = top.duration("fairLockWaitTimeout", true)) {
    config.fair_lock_wait_timeout = *value;
  }
  if (auto value = top.boolean("checkLockSyncedSlaves")) config.sync_replicas = *value;
  if (auto value = top.duration("reliableTopicWatchdogTimeout", true)) {
    config.reliable_topic_watchdog_timeout = *value;
  }
  if (auto value = top.integer("threads", 1, 1024))
    config.listener_threads = static_cast<int>(*value);
  // Redisson writes the clean-up delays in seconds.
  if (auto value = top.integer("minCleanUpDelay", 1, 86400)) {
    config.eviction.min_delay = std::chrono::seconds(*value);
  }
  if (auto value = top.integer("maxCleanUpDelay", 1, 86400)) {
    config.eviction.max_delay = std::chrono::seconds(*value);
  }
  if (auto value = top.integer("cleanUpKeysAmount", 1, 5000)) {
    config.eviction.keys_limit = static_cast<int>(*value);
  }
  if (auto value = top.duration("slavesSyncTimeout", true)) config.sync_replicas_timeout = *value;
  if (auto value = top.string("protocol")) {
    if (*value == "RESP3") {
      config.resp3 = true;
    } else if (*value == "RESP2") {
      config.resp3 = false;
    } else {
      bad_value("protocol", "'" + *value + "' is not one of RESP2, RESP3");
    }
  }
  if (const auto codec = top.get("codec"); codec.IsDefined()) {
    config.codec = read_codec(codec, "codec");
  }
  top.ignore(kIgnoredTopLevelKeys);

  constexpr std::string_view kSections[] = {"singleServerConfig", "clusterServersConfig",
                                            "sentinelServersConfig", "masterSlaveServersConfig"};
  std::vector<std::string> present;
  for (auto name : kSections) {
    if (top.get(name).IsDefined()) present.emplace_back(name);
  }
  for (const char* name : {"replicatedServersConfig", "meshServerConfig"}) {
    if (root[name].IsDefined()) {
      throw error(errc::not_supported,
                  std::string("redisson.yml: ") + name +
                      " is not supported; use one of "
                      "singleServerConfig, clusterServersConfig, sentinelServersConfig, "
                      "masterSlaveServersConfig");
    }
  }
  if (present.size() > 1) {
    bad_value(present[0] + ", " + present[1],
              "only one server section may be given (the file describes one deployment)");
  }
  if (!present.empty()) {
    const auto& name = present.front();
    Section section(root[name], name, report);
    if (name == "singleServerConfig") read_single(section, config);
    if (name == "clusterServersConfig") read_cluster(section, config);
    if (name == "sentinelServersConfig") read_sentinel(section, config);
    if (name == "masterSlaveServersConfig") read_master_slave(section, config);
  }
  top.finish();

  if (!report.unknown.empty()) {
    std::string list;
    for (const auto& path : report.unknown) list += (list.empty() ? "" : ", ") + path;
    throw error(errc::invalid_argument, "redisson.yml: unknown keys: " + list);
  }
  return config;
}

}  // namespace

Config Config::from_yaml_string(std::string_view text, std::vector<std::string>* ignored) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    throw error(errc::invalid_argument, std::string("redisson.yml: not valid YAML: ") + e.what());
  }
  try {
    return read_root(root, ignored);
  } catch (const YAML::Exception& e) {  // e.g. a duplicate or non-scalar key
    throw error(errc::invalid_argument, std::string("redisson.yml: ") + e.what());
  }
}

Config Config::from_yaml(const std::string& path, std::vector<std::string>* ignored) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw error(errc::invalid_argument, "cannot read the config file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return from_yaml_string(text.str(), ignored);
  } catch (const error& e) {
    std::string message = plain_message(e);
    if (message.starts_with("redisson.yml:")) message.replace(0, 12, path);
    throw error(e.code(), message);
  }
}

}  // namespace redisson

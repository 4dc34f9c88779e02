// Connects over TLS (rediss://), verifying the server against a CA file, with an optional
// client certificate for servers started with --tls-auth-clients yes.
// Usage: example_tls rediss://127.0.0.1:6380 ca.pem [client.pem client.key]
#include <iostream>
#include <redisson/redisson.hpp>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: example_tls rediss://host:port ca.pem [client.pem client.key]\n";
    return 2;
  }
  try {
    auto config = redisson::Config::from_url(argv[1]);
    config.tls.ca_file = argv[2];  // empty: the system's trusted CAs
    if (argc > 4) {
      config.tls.cert_file = argv[3];
      config.tls.key_file = argv[4];
    }
    // config.tls.server_name = "redis.internal";  // when the certificate names another host
    redisson::Client client(config);
    auto lock = redisson::Lock(client, "orders:rebuild");
    lock.lock();
    std::cout << "holding the lock over TLS\n";
    lock.unlock();
  } catch (const redisson::error& e) {
    // e.g. "cannot connect to rediss://127.0.0.1:6380: TLS: certificate verify failed
    // (SSL routines) (self-signed certificate in certificate chain): could not connect to the
    // server"
    std::cerr << e.what() << "\n";
    return 1;
  }
}

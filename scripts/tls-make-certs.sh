#!/usr/bin/env bash
# Makes throwaway TLS files for tests and demos (never for production) in DIR, with openssl:
#
#   ca.pem / ca.key              a test CA
#   server.pem / server.key      signed by it; CN=localhost, SAN IP:127.0.0.1 and DNS:localhost
#   client.pem / client.key      signed by it; for servers started with --tls-auth-clients
#   client-bundle.pem            client.pem + client.key in one file (Redisson's sslKeystore)
#   other-ca.pem / other-ca.key  an unrelated CA (a client trusting only it must fail)
#
# Usage: scripts/tls-make-certs.sh DIR      (DIR must exist; files in it are overwritten)
# Keys are P-256 EC (fast to make); certificates are valid for $TLS_CERT_DAYS days (default 2).
# A TLS server on a free port:
#   scripts/tls-make-certs.sh "$d" && scripts/redis-start.sh --tls "$d"
set -euo pipefail
dir=${1:?usage: tls-make-certs.sh DIR}
days=${TLS_CERT_DAYS:-2}
[[ -d $dir ]] || { echo "tls-make-certs: no such directory: $dir" >&2; exit 1; }
cd "$dir"

make_key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }

make_ca() { # NAME CN
  make_key "$1.key"
  openssl req -x509 -new -key "$1.key" -sha256 -days "$days" -subj "/CN=$2" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
    -out "$1.pem"
}

make_leaf() { # NAME CN EXTENSIONS
  make_key "$1.key"
  openssl req -new -key "$1.key" -subj "/CN=$2" -out "$1.csr"
  printf '%s\n' "$3" >"$1.ext"
  openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -days "$days" \
    -sha256 -extfile "$1.ext" -out "$1.pem"
  rm -f "$1.csr" "$1.ext"
}

make_ca ca "redisson-cpp test CA"
make_ca other-ca "redisson-cpp unrelated CA"
make_leaf server localhost \
  "$(printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth')"
make_leaf client redisson-cpp-test-client "extendedKeyUsage=clientAuth"
cat client.pem client.key >client-bundle.pem
rm -f ca.srl
chmod 600 ./*.key client-bundle.pem

#!/bin/sh
# Makes the TLS fixtures of the network tests (test/fixtures/tls/), once: they are committed, so CI needs no openssl.
# A test CA, and certificates it signed for a server: localhost, 127.0.0.1 and shipping.test; the same names already
# expired (2000-2001); and one for another host only (wrong-host.test). Fixed dates (2020-2120), not "from today":
# a certificate made on a machine whose clock runs ahead would not be valid yet elsewhere. Keys are EC P-256, for
# tests only. Run again only to replace them: sh scripts/make-test-certs.sh
set -eu
out="$(cd "$(dirname "$0")/.." && pwd)/test/fixtures/tls"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
cd "$work"

cat > ca.cnf <<'CNF'
[ca]
default_ca = test_ca
[test_ca]
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any
copy_extensions = copy
unique_subject = no
[any]
commonName = supplied
[v3_ca]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[leaf]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
CNF
: > index.txt
echo 1000 > serial

valid="-startdate 20200101000000Z -enddate 21200101000000Z"
openssl ecparam -name prime256v1 -genkey -noout -out ca.key
openssl req -new -key ca.key -subj "/CN=shipctl test CA" -out ca.csr
openssl ca -batch -selfsign -config ca.cnf -keyfile ca.key -extensions v3_ca -notext -in ca.csr -out ca.pem $valid

sign() {
  name="$1"; cn="$2"; san="$3"; shift 3
  openssl ecparam -name prime256v1 -genkey -noout -out "$name.key"
  openssl req -new -key "$name.key" -subj "/CN=$cn" -addext "subjectAltName=$san" -out "$name.csr"
  openssl ca -batch -config ca.cnf -cert ca.pem -keyfile ca.key -extensions leaf -notext -in "$name.csr" -out "$name.pem" "$@"
}

sign server localhost "DNS:localhost,IP:127.0.0.1,DNS:shipping.test" $valid
sign expired localhost "DNS:localhost,IP:127.0.0.1,DNS:shipping.test" -startdate 20000101000000Z -enddate 20010101000000Z
sign wrong-host wrong-host.test "DNS:wrong-host.test" $valid

cp ca.pem ca.key server.pem server.key expired.pem expired.key wrong-host.pem wrong-host.key "$out/"
echo "wrote $out"

#!/usr/bin/env bash
# Debian packages the test suite cross-checks against: oathtool (TOTP, RFC 6238),
# promtool (Prometheus exposition format), Chromium (the API reference in a
# real browser, driven by playwright-core), Pebble (Let's Encrypt's ACME test CA),
# openssl (the certificate of Pebble's own API and of the test mail server),
# mosquitto with its clients (the MQTT broker alarm sinks publish to),
# rsyslog with its GnuTLS driver (the receiver syslog shipping is tested
# against, over TCP and TLS), ansible-core (examples/ansible/ is run
# against a fleet), freeradius with freeradius-utils (the RADIUS server real
# AAA is tested against over TCP, and radclient), and curl (the client uploads are sent with). Installed only when missing.
set -euo pipefail
missing=()
command -v oathtool >/dev/null || missing+=(oathtool)
command -v promtool >/dev/null || missing+=(prometheus)
command -v chromium >/dev/null || missing+=(chromium)
command -v pebble >/dev/null || missing+=(pebble)
command -v openssl >/dev/null || missing+=(openssl)
command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || missing+=(mosquitto)
command -v mosquitto_sub >/dev/null || missing+=(mosquitto-clients)
[ -x /usr/sbin/rsyslogd ] || missing+=(rsyslog)
dpkg -s rsyslog-gnutls >/dev/null 2>&1 || missing+=(rsyslog-gnutls)
command -v ansible-playbook >/dev/null || missing+=(ansible-core)
[ -x /usr/sbin/freeradius ] || missing+=(freeradius)
command -v radclient >/dev/null || missing+=(freeradius-utils)
command -v curl >/dev/null || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

#!/bin/sh
# workerd as Miniflare starts it for the local fleet (MINIFLARE_WORKERD_PATH, set by launcher/launch.ts):
# the configuration Miniflare writes on stdin is rewritten by launcher/workerd-config.ts (the Worker's module
# sources, the appliances' public sockets), then workerd itself is exec'd, so the process Miniflare holds, kills
# and waits for is workerd's own. The rewritten configuration holds TLS keys and secrets: a private temporary file, unlinked
# once open as workerd's stdin (Miniflare's "-" argument).
set -eu
config=$(mktemp)
if ! "$BNG_NODE" "$BNG_WORKERD_CONFIG_SCRIPT" > "$config"; then
  rm -f "$config"
  exit 1
fi
exec < "$config"
rm -f "$config"
# What only the rewrite needed stays out of workerd's environment (the wiring secret is in its configuration).
workerd=$BNG_WORKERD
unset BNG_MODULE_FILES BNG_PUBLIC_SOCKETS BNG_WORKERD_CONFIG_SCRIPT BNG_NODE BNG_WORKERD BNG_WIRING_SECRET
exec "$workerd" "$@"

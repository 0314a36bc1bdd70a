#!/usr/bin/env bash
# The workerd projects once at each of a day's 24 simulated start hours (BNG_TEST_CLOCK_START, see
# vitest.config.ts): traffic, churn and outages follow the time of day, and no result may depend on it.
# Extra arguments go to vitest (a project or a file, to narrow the run).
set -euo pipefail
cd "$(dirname "$0")/.."
failed=()
for hour in $(seq -w 0 23); do
  start="2026-03-02T${hour}:00:00Z"
  echo "== simulated clock starting at ${start}"
  BNG_TEST_CLOCK_START="$start" npx vitest run --project worker --project worker-local --project worker-sharded --project worker-unconfigured --reporter=dot "$@" || failed+=("$start")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed at: ${failed[*]}"
  exit 1
fi
echo "passed at all 24 start hours"

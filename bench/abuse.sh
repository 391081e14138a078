#!/usr/bin/env bash
# Abuse test (issue 13): builds quiver and bench/abuse, runs the
# scenarios against quiver on loopback, and prints the figures. It stops by
# itself: each load scenario runs DURATION (20s by default), the key
# guessing 2,000 requests.
#
#   bench/abuse.sh                   # all the scenarios
#   DURATION=10s bench/abuse.sh
#   ONLY=auth bench/abuse.sh         # one of format, sitemap, auth, authflood, health,
#                                    # uploads, redisfull, quota or latency
#   BUDGET=268435456 bench/abuse.sh  # a 256 MiB memory budget
#   SERVER_ARGS='-heavy-slots 8' bench/abuse.sh  # more quiver flags
#
# See bench/abuse/main.go for what each scenario sends and its pass rule.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/quiver" ./cmd/quiver
go build -o "$work/abuse" ./bench/abuse
go build -o "$work/dnsserver" ./bench/dnsserver # the job scenarios' MX lookups
echo "quiver $(go version | cut -d' ' -f3) on $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$work/abuse" -quiver "$work/quiver" -duration "${DURATION:-20s}" -budget "${BUDGET:-536870912}" -only "${ONLY:-}" -server-args "${SERVER_ARGS:-}" -dnsserver "$work/dnsserver"

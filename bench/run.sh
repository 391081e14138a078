#!/usr/bin/env bash
# Load test: builds quiver, starts it on loopback, drives it with wrk and
# reports requests per second and latency percentiles per route.
#
#   bench/run.sh                       # 10s per route, 2 threads, 32 connections
#   DURATION=30s CONNECTIONS=64 bench/run.sh
#   SERVER_ARGS=-metrics bench/run.sh  # the cost of metrics
#
# Needs wrk (Debian: apt-get install -y wrk; installed here if missing and
# running as root). The rate limit is disabled so that the server, not the
# limiter, is measured; access logs go to a file, as in production.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
KEY=bench

if ! command -v wrk >/dev/null; then
	if [ "$(id -u)" = 0 ]; then
		apt-get update -qq && apt-get install -y -qq wrk >/dev/null
	else
		echo "bench: wrk is not installed (apt-get install -y wrk)" >&2
		exit 2
	fi
fi

work=$(mktemp -d)
server_pid=
cleanup() {
	if [ -n "$server_pid" ]; then
		kill "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/quiver" ./cmd/quiver

# start_server ARGS...: starts quiver on a free loopback port and sets BASE.
start_server() {
	"$work/quiver" -addr 127.0.0.1:0 -api-keys "$KEY" -rate-limit -1 -log-format json "$@" >"$work/server.log" 2>&1 &
	server_pid=$!
	for _ in $(seq 100); do
		BASE=$(sed -n 's/^quiver listening on \(http:[^ ]*\)$/\1/p' "$work/server.log")
		[ -n "$BASE" ] && return 0
		sleep 0.05
	done
	echo "bench: quiver did not start:" >&2
	cat "$work/server.log" >&2
	exit 1
}

# bench NAME PATH BODY: runs wrk against one POST route and prints a row.
bench() {
	local name=$1 path=$2 body=$3 out
	out=$(BODY=$body QUIVER_KEY=$KEY wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" \
		-s bench/post.lua "$BASE$path" | grep '^RESULT')
	printf '%-22s %s\n' "$name" "${out#RESULT }"
}

echo "quiver $(go version | cut -d' ' -f3) on $(nproc) cores; wrk -t$THREADS -c$CONNECTIONS -d$DURATION over loopback; server flags: ${SERVER_ARGS:-none}"
# shellcheck disable=SC2086 # SERVER_ARGS is a list of flags
start_server ${SERVER_ARGS:-}
bench base64-encode /v1/dev/data/base64/encode '{"value":"hello, world"}'
bench base64-decode /v1/dev/data/base64/decode '{"value":"aGVsbG8sIHdvcmxk"}'

# The same route with the rate limit shared through Redis (a limit too
# high to refuse anything): the cost of one Redis round trip per request.
if command -v redis-server >/dev/null && [ -z "${SERVER_ARGS:-}" ]; then
	port=$((20000 + RANDOM % 40000))
	redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" >"$work/redis.log" 2>&1 &
	redis_pid=$!
	trap 'kill "$redis_pid" 2>/dev/null || true; cleanup' EXIT
	sleep 0.3
	kill "$server_pid"
	wait "$server_pid" 2>/dev/null || true
	start_server -rate-limit 1000000 -burst 1000000 -redis-url "redis://127.0.0.1:$port"
	bench base64-encode+redis /v1/dev/data/base64/encode '{"value":"hello, world"}'
	if failed=$(grep -c 'rate limiter failed' "$work/server.log"); then
		echo "  (the Redis limiter failed $failed times: those requests were not limited)"
	fi
fi

# --- DNS-backed route: to be added once the email package is merged ------
# It needs a loopback DNS server answering a fixture zone, so that the
# figures measure quiver and its DNS cache rather than the network:
#   1. start one (a small Go program over internal/dnstest, or miekg/dns,
#      serving example.test with MX, SPF and DMARC records on 127.0.0.1);
#   2. restart quiver pointed at it (the email package's resolver flag,
#      e.g. -dns-servers 127.0.0.1:PORT);
#   3. bench email-validate /v1/email/validate '{"email":"user@example.test"}'
#      (cache hits after the first request; also one run with the cache
#      off, or with distinct domains, for the cold figure).

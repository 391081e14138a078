#!/usr/bin/env bash
# Load test: builds quiver, starts it on loopback, drives it with wrk and
# reports requests per second and latency percentiles per route.
#
#   bench/run.sh                       # 10s per route, 2 threads, 32 connections
#   DURATION=30s CONNECTIONS=64 bench/run.sh
#   SERVER_ARGS=-metrics bench/run.sh  # the cost of metrics
#   SKIP_DNS=1 bench/run.sh            # without the DNS-backed routes
#
# Routes: Base64 encode and decode (cheap); Base64 encode with the limit in
# Redis, when redis-server is installed; email validate and domain health
# against bench/dnsserver on loopback, with a warm cache (1h TTL) and a
# cold one (TTL 0).
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

# --- DNS-backed route, against a loopback DNS server ----------------------
# bench/dnsserver serves example.test (MX, SPF, DMARC) on 127.0.0.1 from
# internal/dnstest, so that the figures measure quiver and its DNS cache,
# not the network. Warm: the records have a one-hour TTL, so every request
# after the first is answered from the shared cache. Cold: TTL 0, so every
# request asks the DNS server (one MX query over loopback UDP).
dns_pid=
start_dns() {
	if [ -n "$dns_pid" ]; then
		kill "$dns_pid" 2>/dev/null || true
		wait "$dns_pid" 2>/dev/null || true
	fi
	"$work/dnsserver" "$@" >"$work/dns.out" 2>"$work/dns.err" &
	dns_pid=$!
	DNS=
	for _ in $(seq 100); do
		DNS=$(head -n1 "$work/dns.out")
		[ -n "$DNS" ] && return 0
		sleep 0.05
	done
	echo "bench: dnsserver did not start:" >&2
	cat "$work/dns.err" >&2
	exit 1
}
if [ -z "${SKIP_DNS:-}" ]; then
	go build -o "$work/dnsserver" ./bench/dnsserver
	trap 'kill "$dns_pid" 2>/dev/null || true; kill "${redis_pid:-}" 2>/dev/null || true; cleanup' EXIT
	for mode in warm cold; do
		ttl=1h
		[ "$mode" = cold ] && ttl=0s
		start_dns -ttl "$ttl"
		kill "$server_pid"
		wait "$server_pid" 2>/dev/null || true
		# shellcheck disable=SC2086
		start_server -dns-servers "$DNS" ${SERVER_ARGS:-}
		bench "email-validate-$mode" /v1/utility/email/validate '{"email":"user@example.test"}'
		bench "domain-health-$mode" /v1/email/domain/health '{"domains":["example.test"]}'
		kill "$dns_pid"
		wait "$dns_pid" 2>/dev/null || true
		dns_pid=
		echo "  ($(cat "$work/dns.err" | tr -d '\n'))"
	done
fi

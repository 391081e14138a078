package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/quiverkit/quiver/email"
)

// group is the one consumer group through which every worker reads the
// stream.
const group = "workers"

// redisBlock is how long a worker waits on the stream for a chunk.
const redisBlock = time.Second

// redisStore keeps jobs in Redis and queues their chunks on a stream.
//
// Keys (P the prefix, every key of a job in one cluster hash slot):
//
//	P stream              the chunks to check: entries {job, chunk}
//	P {id}:meta           hash: owner, status, counters, times; status is
//	                      "creating" until every chunk is on the stream
//	P {id}:in:N           input rows of chunk N (CSV), deleted once checked
//	P {id}:out:N          result rows of chunk N (CSV), written once
//	P {id}:seen           set of hashed duplicate keys, while running
//	P {id}:mx             set of domains with MX records
//
// Every key of a job expires at the job's expiry (PXAT), so a job and all
// it holds go together.
type redisStore struct {
	rdb      redis.UniversalClient
	prefix   string
	stream   string
	consumer string
	grouped  atomic.Bool // the consumer group is known to exist
	joined   atomic.Bool // this worker is a consumer of the group
}

func newRedisStore(rdb redis.UniversalClient, prefix, consumer string) *redisStore {
	return &redisStore{rdb: rdb, prefix: prefix, stream: prefix + "stream", consumer: consumer}
}

func (s *redisStore) key(id, part string) string { return s.prefix + "{" + id + "}:" + part }

func (s *redisStore) chunkKey(id, kind string, n int) string {
	return s.key(id, kind+":"+strconv.Itoa(n))
}

// ensureGroup creates the stream and its consumer group once.
func (s *redisStore) ensureGroup(ctx context.Context) error {
	if s.grouped.Load() {
		return nil
	}
	err := s.rdb.XGroupCreateMkStream(ctx, s.stream, group, "0").Err()
	if err != nil && !strings.HasPrefix(err.Error(), "BUSYGROUP") {
		return err
	}
	s.grouped.Store(true)
	return nil
}

func (s *redisStore) putInput(ctx context.Context, id string, n int, data []byte, _ int64, expires time.Time) error {
	return s.rdb.SetArgs(ctx, s.chunkKey(id, "in", n), data, redis.SetArgs{ExpireAt: expires}).Err()
}

func checkFlags(c email.Checks) string {
	f := func(skip bool) byte {
		if skip {
			return '0'
		}
		return '1'
	}
	return string([]byte{f(c.SkipMX), f(c.SkipDisposable), f(c.SkipRole)})
}

func parseChecks(s string) email.Checks {
	return email.Checks{
		SkipMX:         len(s) > 0 && s[0] == '0',
		SkipDisposable: len(s) > 1 && s[1] == '0',
		SkipRole:       len(s) > 2 && s[2] == '0',
	}
}

// headerField encodes a header row as the rows are: every byte kept
// (JSON, used before, turned bytes that are not UTF-8 into U+FFFD).
func headerField(rec []string) string { return string(appendStrings(nil, rec)) }

// parseHeader decodes the header of a job: "hdr", or the JSON "header"
// of a job stored by an earlier version.
func parseHeader(h map[string]string) ([]string, error) {
	if enc, ok := h["hdr"]; ok {
		recs, err := readRecords([]byte(enc))
		if err != nil || len(recs) != 1 {
			return nil, errBadRecords
		}
		return recs[0], nil
	}
	var header []string
	err := json.Unmarshal([]byte(h["header"]), &header)
	return header, err
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func (s *redisStore) create(ctx context.Context, id string, mt *meta) error {
	if err := s.ensureGroup(ctx); err != nil {
		return err
	}
	metaKey := s.key(id, "meta")
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, metaKey, "queuing", ms(time.Now()),
			"owner", mt.owner, "status", string(statusCreating), "total", mt.total,
			"chunks", mt.chunks, "chunks_done", 0, "hdr", headerField(mt.header),
			"col", mt.col, "checks", checkFlags(mt.checks),
			"created", ms(mt.created), "expires", ms(mt.expires),
			"rows", 0, "valid", 0, "invalid", 0, "disposable", 0, "role", 0, "dups", 0)
		p.PExpireAt(ctx, metaKey, mt.expires)
		return nil
	})
	if err != nil {
		return err
	}
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for n := range mt.chunks {
			p.XAdd(ctx, &redis.XAddArgs{Stream: s.stream, Values: []any{"job", id, "chunk", n}})
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Every chunk is queued: the job may start. (A worker that got a
	// chunk before waits for this; a creator that died before it leaves
	// the job creating, and Manager.settle fails it.)
	return queuedScript.Run(ctx, s.rdb, []string{metaKey}, string(mt.status)).Err()
}

// queuedScript ends the creating state of a job. ARGV: its status.
var queuedScript = redis.NewScript(`
if redis.call('HGET', KEYS[1], 'status') == 'creating' then
  redis.call('HSET', KEYS[1], 'status', ARGV[1])
end
return 0
`)

func (s *redisStore) remove(ctx context.Context, id string, chunks int) error {
	keys := []string{s.key(id, "meta")}
	for n := range chunks {
		keys = append(keys, s.chunkKey(id, "in", n))
	}
	return s.rdb.Del(ctx, keys...).Err()
}

func (s *redisStore) load(ctx context.Context, id string) (*meta, error) {
	var all *redis.MapStringStringCmd
	var mx *redis.IntCmd
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		all = p.HGetAll(ctx, s.key(id, "meta"))
		mx = p.SCard(ctx, s.key(id, "mx"))
		return nil
	})
	if err != nil {
		return nil, err
	}
	h := all.Val()
	if h["owner"] == "" {
		return nil, nil
	}
	num := func(k string) int {
		n, _ := strconv.Atoi(h[k])
		return n
	}
	when := func(k string) time.Time {
		n, err := strconv.ParseInt(h[k], 10, 64)
		if err != nil || n == 0 {
			return time.Time{}
		}
		return time.UnixMilli(n).UTC()
	}
	header, err := parseHeader(h)
	if err != nil {
		return nil, fmt.Errorf("the header of job %s: %w", id, err)
	}
	return &meta{
		owner: h["owner"], status: Status(h["status"]), total: num("total"),
		chunks: num("chunks"), chunksDone: num("chunks_done"), header: header,
		col: num("col"), checks: parseChecks(h["checks"]),
		created: when("created"), started: when("started"), finished: when("finished"), expires: when("expires"),
		queuing: when("queuing"),
		counts: counts{rows: num("rows"), valid: num("valid"), invalid: num("invalid"),
			disposable: num("disposable"), role: num("role"), dups: num("dups")},
		domainsMX: int(mx.Val()),
	}, nil
}

// beginScript marks a queued job running and counts an attempt at a
// chunk. It returns {status, attempts, started}: status "" when the job
// is gone, started 1 when this call started the job; a job still
// creating is returned as it is, no attempt counted.
var beginScript = redis.NewScript(`
local st = redis.call('HGET', KEYS[1], 'status')
if not st then return {'', 0, 0} end
if st == 'creating' then return {st, 0, 0} end
local started = 0
if st == 'queued' then
  redis.call('HSET', KEYS[1], 'status', 'running', 'started', ARGV[1])
  st = 'running'
  started = 1
end
local n = redis.call('HINCRBY', KEYS[1], 'tries:' .. ARGV[2], 1)
return {st, n, started}
`)

func (s *redisStore) begin(ctx context.Context, id string, n int, now time.Time) (Status, int, bool, error) {
	v, err := beginScript.Run(ctx, s.rdb, []string{s.key(id, "meta")}, ms(now), n).Slice()
	if err != nil || len(v) != 3 {
		return "", 0, false, err
	}
	st, _ := v[0].(string)
	tries, _ := v[1].(int64)
	started, _ := v[2].(int64)
	return Status(st), int(tries), started == 1, nil
}

func (s *redisStore) get(ctx context.Context, key string) ([]byte, error) {
	b, err := s.rdb.Get(ctx, key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	return b, err
}

func (s *redisStore) input(ctx context.Context, id string, n int) ([]byte, error) {
	return s.get(ctx, s.chunkKey(id, "in", n))
}

func (s *redisStore) output(ctx context.Context, id string, n int) ([]byte, error) {
	return s.get(ctx, s.chunkKey(id, "out", n))
}

// finishScript stores a chunk's results once and counts them once: the
// result key is the guard, and the counters move in the same script.
// KEYS: meta, out, seen, mx, in. ARGV: out, now, rows, valid, invalid,
// disposable, role, number of keys, the keys, then the MX domains.
// It returns 0 when nothing was stored, 1 when the chunk was, 2 when the
// chunk ended the job.
var finishScript = redis.NewScript(`
if redis.call('HGET', KEYS[1], 'status') ~= 'running' then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local exp = redis.call('HGET', KEYS[1], 'expires')
redis.call('SET', KEYS[2], ARGV[1], 'PXAT', exp)
redis.call('DEL', KEYS[5])
redis.call('HINCRBY', KEYS[1], 'rows', ARGV[3])
redis.call('HINCRBY', KEYS[1], 'valid', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'invalid', ARGV[5])
redis.call('HINCRBY', KEYS[1], 'disposable', ARGV[6])
redis.call('HINCRBY', KEYS[1], 'role', ARGV[7])
local n = tonumber(ARGV[8])
if n > 0 then
  local added = redis.call('SADD', KEYS[3], unpack(ARGV, 9, 8 + n))
  redis.call('HINCRBY', KEYS[1], 'dups', n - added)
  redis.call('PEXPIREAT', KEYS[3], exp)
end
if #ARGV > 8 + n then
  redis.call('SADD', KEYS[4], unpack(ARGV, 9 + n, #ARGV))
  redis.call('PEXPIREAT', KEYS[4], exp)
end
local done = redis.call('HINCRBY', KEYS[1], 'chunks_done', 1)
if done >= tonumber(redis.call('HGET', KEYS[1], 'chunks')) then
  redis.call('HSET', KEYS[1], 'status', 'done', 'finished', ARGV[2])
  redis.call('DEL', KEYS[3])
  return 2
end
return 1
`)

func (s *redisStore) finish(ctx context.Context, id string, n int, res *chunkResult, now time.Time) (bool, bool, error) {
	args := make([]any, 0, 8+len(res.keys)+len(res.mxDomains))
	args = append(args, res.out, ms(now), res.c.rows, res.c.valid, res.c.invalid,
		res.c.disposable, res.c.role, len(res.keys))
	for _, k := range res.keys {
		args = append(args, k)
	}
	for _, d := range res.mxDomains {
		args = append(args, d)
	}
	keys := []string{s.key(id, "meta"), s.chunkKey(id, "out", n), s.key(id, "seen"), s.key(id, "mx"), s.chunkKey(id, "in", n)}
	r, err := finishScript.Run(ctx, s.rdb, keys, args...).Int()
	if err != nil {
		return false, false, err
	}
	return r > 0, r == 2, nil
}

// endScript ends a job that has not ended. ARGV: status, now.
var endScript = redis.NewScript(`
local st = redis.call('HGET', KEYS[1], 'status')
if (not st) or st == 'done' or st == 'cancelled' or st == 'failed' then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'finished', ARGV[2])
return 1
`)

// end ends the job, then deletes the rows not checked and the duplicate
// keys: a cancelled or failed job keeps only its record (and the
// results of the chunks done) until it expires.
func (s *redisStore) end(ctx context.Context, id string, st Status, now time.Time) (bool, error) {
	r, err := endScript.Run(ctx, s.rdb, []string{s.key(id, "meta")}, string(st), ms(now)).Int()
	if err != nil || r != 1 {
		return false, err
	}
	chunks, err := s.rdb.HGet(ctx, s.key(id, "meta"), "chunks").Int()
	if err != nil {
		return true, fmt.Errorf("deleting the rows of job %s: %w", id, err)
	}
	keys := []string{s.key(id, "seen")}
	for n := range chunks {
		keys = append(keys, s.chunkKey(id, "in", n))
		if len(keys) == 1000 || n == chunks-1 {
			if err := s.rdb.Del(ctx, keys...).Err(); err != nil {
				return true, fmt.Errorf("deleting the rows of job %s: %w", id, err)
			}
			keys = keys[:0]
		}
	}
	return true, nil
}

func (s *redisStore) next(ctx context.Context, idle time.Duration) (task, bool, error) {
	if err := s.ensureGroup(ctx); err != nil {
		return task{}, false, err
	}
	if !s.joined.Load() {
		// Join at once, so that XINFO CONSUMERS lists an idle worker too.
		if err := s.rdb.XGroupCreateConsumer(ctx, s.stream, group, s.consumer).Err(); err != nil {
			return task{}, false, s.groupGone(err)
		}
		s.joined.Store(true)
	}
	msgs, _, err := s.rdb.XAutoClaim(ctx, &redis.XAutoClaimArgs{
		Stream: s.stream, Group: group, Consumer: s.consumer, MinIdle: idle, Start: "0-0", Count: 1,
	}).Result()
	if err != nil {
		return task{}, false, s.groupGone(err)
	}
	if len(msgs) > 0 {
		t := s.task(msgs[0])
		t.retried = true
		return t, true, nil
	}
	streams, err := s.rdb.XReadGroup(ctx, &redis.XReadGroupArgs{
		Group: group, Consumer: s.consumer, Streams: []string{s.stream, ">"}, Count: 1, Block: redisBlock,
	}).Result()
	if errors.Is(err, redis.Nil) {
		return task{}, false, nil
	}
	if err != nil {
		return task{}, false, s.groupGone(err)
	}
	for _, st := range streams {
		for _, m := range st.Messages {
			return s.task(m), true, nil
		}
	}
	return task{}, false, nil
}

// groupGone notes that the group must be created again when Redis lost
// it (a flush, a failover to an empty replica).
func (s *redisStore) groupGone(err error) error {
	if strings.HasPrefix(err.Error(), "NOGROUP") {
		s.grouped.Store(false)
		s.joined.Store(false)
	}
	return err
}

// task reads a stream entry. A malformed one is a bad task, with its
// ref, so that it is acked and dropped.
func (s *redisStore) task(m redis.XMessage) task {
	id, _ := m.Values["job"].(string)
	c, _ := m.Values["chunk"].(string)
	n, err := strconv.Atoi(c)
	return task{id: id, chunk: n, ref: m.ID, bad: err != nil || !validID(id) || n < 0}
}

// touch resets the idle time of chunk t, which this worker holds, with
// XCLAIM at min-idle 0 (JUSTID: the delivery count stays).
func (s *redisStore) touch(ctx context.Context, t task) error {
	return s.rdb.XClaimJustID(ctx, &redis.XClaimArgs{
		Stream: s.stream, Group: group, Consumer: s.consumer, MinIdle: 0, Messages: []string{t.ref},
	}).Err()
}

func (s *redisStore) ack(ctx context.Context, t task) error {
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.XAck(ctx, s.stream, group, t.ref)
		p.XDel(ctx, s.stream, t.ref)
		return nil
	})
	return err
}

// depth is the stream's length: entries are deleted once acked, so what
// is left is queued or being checked.
func (s *redisStore) depth(ctx context.Context) (int64, error) {
	return s.rdb.XLen(ctx, s.stream).Result()
}

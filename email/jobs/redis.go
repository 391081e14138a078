package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/quiverkit/quiver/email"
)

// redisBlock is how long an idle worker waits to be woken by a new job
// before it looks at the queue again (chunks put back and leases that
// lapsed wake no one).
const redisBlock = time.Second

// redisStore keeps jobs in Redis, with their owners' quotas and the queue
// of their chunks. Every key of a job is in the job's cluster hash slot,
// every key of the queue in one slot ({q}), an owner's index in the
// owner's; every script touches the keys of one slot.
//
// A job (P the prefix):
//
//	P{id}:meta        hash: owner, status, reason, counters, times; status
//	                  is "creating" until its chunks are queued
//	P{id}:in:N        input rows of chunk N, deleted once checked
//	P{id}:out:N       result rows of chunk N, written once
//	P{id}:seen        set of hashed duplicate keys, while running
//	P{id}:mx          set of domains with MX records
//
// The queue:
//
//	P{q}:ring         list of the owners with chunks to hand out, in turn
//	P{q}:o:OWNER      list of the owner's jobs with chunks to hand out, in turn
//	P{q}:j:ID         hash of a queued job: owner, chunks, next (the first
//	                  chunk never handed out), wait (ms before which none is),
//	                  fails and since (failures to store its results), t:N
//	                  (the times chunk N was handed out), exp
//	P{q}:r:ID         list of chunks put back, handed out before next
//	P{q}:leases       sorted set of the chunks handed out ("ID:N"), by when
//	                  their worker last showed life
//	P{q}:queued       the chunks not handed out (the queue depth, with leases)
//	P{q}:wake         list of tokens that wake idle workers
//	P{q}:workers      sorted set of the workers, by when they last asked
//
// An owner:
//
//	Powner:{OWNER}    hash of the owner's jobs, for the quotas: ID ->
//	                  "state rows expires updated"
//
// Every key of a job expires at the job's expiry (PXAT), so a job and all
// it holds go together; an owner's index expires with its last job.
type redisStore struct {
	rdb    redis.UniversalClient
	prefix string
	q      string // the prefix of the queue's keys
	worker string // this process's name in the queue
}

func newRedisStore(rdb redis.UniversalClient, prefix, worker string) *redisStore {
	return &redisStore{rdb: rdb, prefix: prefix, q: prefix + "{q}:", worker: worker}
}

func (s *redisStore) key(id, part string) string { return s.prefix + "{" + id + "}:" + part }

func (s *redisStore) chunkKey(id, kind string, n int) string {
	return s.key(id, kind+":"+strconv.Itoa(n))
}

func (s *redisStore) ownerKey(owner string) string { return s.prefix + "owner:{" + owner + "}" }

func ms(t time.Time) int64 { return t.UnixMilli() }

// reserveScript is grant: it counts up to ARGV[2] rows for job ARGV[1] in
// the owner's index KEYS[1]. ARGV: id, want, expires, the quotas of rows
// in flight, rows stored and jobs (negative: none), now. It returns
// {has, quota (” when want fits), used, earliest}. Its first write is
// the HSET: Redis refuses it when full, before anything changed.
var reserveScript = redis.NewScript(`
local now = tonumber(ARGV[7])
local all = redis.call('HGETALL', KEYS[1])
local inflight, stored, jobs = 0, 0, 0
local earliestStored, earliestJob = 0, 0
local mine
local expired = {}
local function earlier(a, b) if a == 0 or b < a then return b end return a end
for i = 1, #all, 2 do
  local k, v = all[i], all[i + 1]
  local h, rows, exp = string.match(v, '^(%a) (%d+) (%d+)')
  rows, exp = tonumber(rows), tonumber(exp)
  if not h or exp <= now then
    table.insert(expired, k)
  else
    jobs = jobs + 1
    earliestJob = earlier(earliestJob, exp)
    if k == ARGV[1] then
      mine = {h, rows, exp}
    else
      if h == 'u' or h == 'a' then inflight = inflight + rows end
      if h ~= 'x' then
        stored = stored + rows
        earliestStored = earlier(earliestStored, exp)
      end
    end
  end
end
local want = tonumber(ARGV[2])
local qIn, qSt, qJobs = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local res
if not mine and qJobs >= 0 and jobs >= qJobs then
  res = {0, 'jobs_stored', jobs, earliestJob}
else
  local allowed, quota, used, earliest = want, '', 0, 0
  if qIn >= 0 and inflight + allowed > qIn then
    allowed, quota, used = qIn - inflight, 'rows_in_flight', inflight
  end
  if qSt >= 0 and stored + allowed > qSt then
    allowed, quota, used, earliest = qSt - stored, 'rows_stored', stored, earliestStored
  end
  local cur = 0
  if mine then cur = mine[2] end
  local has = math.max(allowed, cur, 0)
  if has >= want then quota = '' end
  if has > 0 or mine then
    local h, exp = 'u', tonumber(ARGV[3])
    if mine then h, exp = mine[1], mine[3] end
    redis.call('HSET', KEYS[1], ARGV[1], h .. ' ' .. has .. ' ' .. exp .. ' ' .. now)
    redis.call('PEXPIREAT', KEYS[1], exp, 'NX')
    redis.call('PEXPIREAT', KEYS[1], exp, 'GT')
  end
  res = {has, quota, used, earliest}
end
if #expired > 0 then redis.call('HDEL', KEYS[1], unpack(expired)) end
return res
`)

func (s *redisStore) reserve(ctx context.Context, owner, id string, want int, expires time.Time, q quotas, now time.Time) (int, *refusal, error) {
	v, err := reserveScript.Run(ctx, s.rdb, []string{s.ownerKey(owner)},
		id, want, ms(expires), q.rowsInFlight, q.rowsStored, q.jobs, ms(now)).Slice()
	if err != nil {
		return 0, nil, err
	}
	if len(v) != 4 {
		return 0, nil, fmt.Errorf("reserving rows: answer %v", v)
	}
	has, _ := v[0].(int64)
	quota, _ := v[1].(string)
	if quota == "" {
		return int(has), nil, nil
	}
	used, _ := v[2].(int64)
	earliest, _ := v[3].(int64)
	ref := &refusal{quota: Quota(quota), used: int(used)}
	if earliest > 0 {
		ref.earliest = time.UnixMilli(earliest)
	}
	return int(has), ref, nil
}

// markScript sets the state and rows of job ARGV[1] in the owner's index
// KEYS[1] (creating its entry, expiring at ARGV[4], when it has none).
// ARGV: id, state, rows, expires, now. It runs when Redis is full: it
// frees quota, and its entry is a few bytes.
var markScript = redis.NewScript(`#!lua flags=allow-oom
local v = redis.call('HGET', KEYS[1], ARGV[1])
local exp = ARGV[4]
if v then exp = string.match(v, '^%a %d+ (%d+)') or exp end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ' ' .. ARGV[3] .. ' ' .. exp .. ' ' .. ARGV[5])
redis.call('PEXPIREAT', KEYS[1], exp, 'NX')
redis.call('PEXPIREAT', KEYS[1], exp, 'GT')
return 1
`)

func (s *redisStore) mark(ctx context.Context, owner, id string, h held, rows int, expires time.Time) error {
	return markScript.Run(ctx, s.rdb, []string{s.ownerKey(owner)}, id, string(h), rows, ms(expires), ms(time.Now())).Err()
}

func (s *redisStore) release(ctx context.Context, owner, id string) error {
	return s.rdb.HDel(ctx, s.ownerKey(owner), id).Err()
}

// repair checks every entry of the owner's index against its job: an
// entry whose job is gone (expired, deleted) is dropped, one whose job
// has ended is marked so, and an upload silent for uploadSilence (its
// uploader died) is dropped.
func (s *redisStore) repair(ctx context.Context, owner string, now time.Time) error {
	all, err := s.rdb.HGetAll(ctx, s.ownerKey(owner)).Result()
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(all))
	cmds := make([]*redis.SliceCmd, 0, len(all))
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for id := range all {
			ids = append(ids, id)
			cmds = append(cmds, p.HMGet(ctx, s.key(id, "meta"), "status", "total", "expires"))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i, id := range ids {
		f := strings.Fields(all[id])
		if len(f) != 4 || len(f[0]) != 1 {
			s.release(ctx, owner, id)
			continue
		}
		h := held(f[0][0])
		rows, _ := strconv.ParseInt(f[1], 10, 64)
		updated, _ := strconv.ParseInt(f[3], 10, 64)
		v := cmds[i].Val()
		st, _ := v[0].(string)
		total, _ := v[1].(string)
		exp, _ := v[2].(string)
		n, _ := strconv.Atoi(total)
		e, _ := strconv.ParseInt(exp, 10, 64)
		var want held
		switch Status(st) {
		case "":
			if h == heldUploading && now.Sub(time.UnixMilli(updated)) < uploadSilence {
				continue // still uploading
			}
			if err := s.release(ctx, owner, id); err != nil {
				return err
			}
			continue
		case statusCreating, StatusQueued, StatusRunning:
			want = heldActive
		case StatusDone:
			want = heldDone
		default:
			want, n = heldEnded, 0
		}
		if want != h || int64(n) != rows {
			if err := s.mark(ctx, owner, id, want, n, time.UnixMilli(e)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *redisStore) putInput(ctx context.Context, id string, n int, data []byte, expires time.Time) error {
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

func (s *redisStore) create(ctx context.Context, id string, mt *meta) error {
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
	return err
}

// enqueueScript queues the chunks of a job in its owner's turn, the owner
// in the ring, and wakes idle workers. KEYS: ring, j:ID, o:OWNER, queued,
// wake. ARGV: id, owner, chunks, expires. Its first write is refused
// when Redis is full.
var enqueueScript = redis.NewScript(`
redis.call('HSET', KEYS[2], 'owner', ARGV[2], 'chunks', ARGV[3], 'next', 0, 'exp', ARGV[4])
redis.call('PEXPIREAT', KEYS[2], ARGV[4])
if not redis.call('LPOS', KEYS[3], ARGV[1]) then redis.call('RPUSH', KEYS[3], ARGV[1]) end
if not redis.call('LPOS', KEYS[1], ARGV[2]) then redis.call('RPUSH', KEYS[1], ARGV[2]) end
redis.call('INCRBY', KEYS[4], ARGV[3])
for i = 1, math.min(tonumber(ARGV[3]), 16) do redis.call('RPUSH', KEYS[5], '1') end
redis.call('LTRIM', KEYS[5], 0, 63)
return 1
`)

func (s *redisStore) enqueue(ctx context.Context, id string, mt *meta) error {
	keys := []string{s.q + "ring", s.q + "j:" + id, s.q + "o:" + mt.owner, s.q + "queued", s.q + "wake"}
	return enqueueScript.Run(ctx, s.rdb, keys, id, mt.owner, mt.chunks, ms(mt.expires)).Err()
}

// readyScript ends the creating state of a job.
var readyScript = redis.NewScript(`
if redis.call('HGET', KEYS[1], 'status') == 'creating' then
  redis.call('HSET', KEYS[1], 'status', 'queued')
end
return 0
`)

func (s *redisStore) ready(ctx context.Context, id string) error {
	return readyScript.Run(ctx, s.rdb, []string{s.key(id, "meta")}).Err()
}

func (s *redisStore) remove(ctx context.Context, id string, chunks int) error {
	return s.del(ctx, id, chunks, "meta", "in")
}

func (s *redisStore) drop(ctx context.Context, id string, chunks int) error {
	return s.del(ctx, id, chunks, "meta", "seen", "mx", "in", "out")
}

// del deletes the keys of a job named in parts ("in" and "out" for their
// chunks 0..chunks-1), a thousand at a time. DEL runs when Redis is full.
func (s *redisStore) del(ctx context.Context, id string, chunks int, parts ...string) error {
	var keys []string
	flush := func() error {
		if len(keys) == 0 {
			return nil
		}
		err := s.rdb.Del(ctx, keys...).Err()
		keys = keys[:0]
		return err
	}
	for _, part := range parts {
		if part != "in" && part != "out" {
			keys = append(keys, s.key(id, part))
			continue
		}
		for n := range chunks {
			keys = append(keys, s.chunkKey(id, part, n))
			if len(keys) == 1000 {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	return flush()
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
		owner: h["owner"], status: Status(h["status"]), reason: h["reason"], total: num("total"),
		chunks: num("chunks"), chunksDone: num("chunks_done"), header: header,
		col: num("col"), checks: parseChecks(h["checks"]),
		created: when("created"), started: when("started"), finished: when("finished"), expires: when("expires"),
		queuing: when("queuing"),
		counts: counts{rows: num("rows"), valid: num("valid"), invalid: num("invalid"),
			disposable: num("disposable"), role: num("role"), dups: num("dups")},
		domainsMX: int(mx.Val()),
	}, nil
}

// beginScript marks a queued job running. It returns {status, started}:
// status ” when the job is gone, started 1 when this call started it.
var beginScript = redis.NewScript(`#!lua flags=allow-oom
local st = redis.call('HGET', KEYS[1], 'status')
if not st then return {'', 0} end
if st == 'queued' then
  redis.call('HSET', KEYS[1], 'status', 'running', 'started', ARGV[1])
  return {'running', 1}
end
return {st, 0}
`)

func (s *redisStore) begin(ctx context.Context, id string, now time.Time) (Status, bool, error) {
	v, err := beginScript.Run(ctx, s.rdb, []string{s.key(id, "meta")}, ms(now)).Slice()
	if err != nil || len(v) != 2 {
		return "", false, err
	}
	st, _ := v[0].(string)
	started, _ := v[1].(int64)
	return Status(st), started == 1, nil
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

func (s *redisStore) output(ctx context.Context, id string, n int, write func([]byte) error) (bool, error) {
	key := s.chunkKey(id, "out", n)
	size, err := s.rdb.StrLen(ctx, key).Result()
	if err != nil || size == 0 { // a chunk's results are never empty
		return false, err
	}
	for at := int64(0); write != nil && at < size; at += outputPiece {
		want := min(outputPiece, size-at)
		p, err := s.rdb.GetRange(ctx, key, at, at+want-1).Bytes()
		if err != nil {
			return true, err
		}
		if int64(len(p)) != want {
			return false, nil // deleted or expired meanwhile
		}
		if err := write(p); err != nil {
			return true, err
		}
	}
	return true, nil
}

// finishScript stores a chunk's results once and counts them once: the
// result key is the guard, and the counters move in the same script.
// KEYS: meta, out, seen, mx, in. ARGV: out, now, rows, valid, invalid,
// disposable, role, number of keys, the keys, then the MX domains.
// It returns 0 when nothing was stored, 1 when the chunk was, 2 when the
// chunk ended the job. Its first write is the SET of the results: Redis
// refuses it when full, before anything changed.
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
	hashes := make([]byte, 0, len(res.keys)*len(dupKey{})) // one allocation, sliced
	for _, k := range res.keys {
		hashes = append(hashes, k[:]...)
		args = append(args, hashes[len(hashes)-len(k):len(hashes):len(hashes)])
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

// endScript ends a job that has not ended. ARGV: status, now, reason. It
// runs when Redis is full: a job that cannot store its results must
// still fail.
var endScript = redis.NewScript(`#!lua flags=allow-oom
local st = redis.call('HGET', KEYS[1], 'status')
if (not st) or st == 'done' or st == 'cancelled' or st == 'failed' then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'finished', ARGV[2], 'reason', ARGV[3])
return 1
`)

// end ends the job, then deletes its rows, its results and its duplicate
// keys: a cancelled or failed job keeps only its record until it expires
// or is deleted.
func (s *redisStore) end(ctx context.Context, id string, st Status, reason string, now time.Time) (bool, error) {
	r, err := endScript.Run(ctx, s.rdb, []string{s.key(id, "meta")}, string(st), ms(now), reason).Int()
	if err != nil || r != 1 {
		return false, err
	}
	chunks, err := s.rdb.HGet(ctx, s.key(id, "meta"), "chunks").Int()
	if err == nil {
		err = s.del(ctx, id, chunks, "seen", "in", "out")
	}
	if err != nil {
		return true, fmt.Errorf("deleting the rows of job %s: %w", id, err)
	}
	return true, nil
}

// claimScript hands out a chunk: first one whose worker has not shown
// life for the claim idle time (it is presumed dead), else the next chunk
// of the next owner in the ring (the owner goes to the end of it), from
// the next of its jobs (the job goes to the end of the owner's), skipping
// jobs that wait (at most 16 jobs an owner, 128 in all, are looked at in
// one claim: the next claim goes on from there). Owners and jobs with
// nothing left leave the ring. It
// returns {id, chunk, attempts, retried} or nil. KEYS: ring, leases,
// queued, workers. ARGV: now, the claim idle time (ms), the queue's
// prefix, this worker. It runs when Redis is full: it
// moves no data, and a full Redis must not stop the jobs of other owners.
var claimScript = redis.NewScript(`#!lua flags=allow-oom
local now = tonumber(ARGV[1])
local lease = now
local P = ARGV[3]
redis.call('ZADD', KEYS[4], now, ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - 60000)
for _ = 1, 8 do
  local dead = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[2]), 'LIMIT', 0, 1)
  if #dead == 0 then break end
  local m = dead[1]
  local sep = string.find(m, ':', 1, true)
  local id, n = string.sub(m, 1, sep - 1), string.sub(m, sep + 1)
  local j = P .. 'j:' .. id
  if redis.call('EXISTS', j) == 1 then
    redis.call('ZADD', KEYS[2], lease, m)
    return {id, n, redis.call('HINCRBY', j, 't:' .. n, 1), 1}
  end
  redis.call('ZREM', KEYS[2], m)
end
local budget = 128
for _ = 1, redis.call('LLEN', KEYS[1]) do
  if budget <= 0 then break end
  local owner = redis.call('LMOVE', KEYS[1], KEYS[1], 'LEFT', 'RIGHT')
  local ol = P .. 'o:' .. owner
  for _ = 1, math.min(redis.call('LLEN', ol), 16) do
    budget = budget - 1
    if budget < 0 then break end
    local id = redis.call('LINDEX', ol, 0)
    local j = P .. 'j:' .. id
    local back = P .. 'r:' .. id
    local h = redis.call('HMGET', j, 'chunks', 'next', 'wait')
    if not h[1] or (tonumber(h[2]) >= tonumber(h[1]) and redis.call('LLEN', back) == 0) then
      redis.call('LPOP', ol)
    else
      redis.call('LMOVE', ol, ol, 'LEFT', 'RIGHT')
      if tonumber(h[3] or '0') <= now then
        local n = redis.call('LPOP', back)
        if not n then
          n = h[2]
          redis.call('HINCRBY', j, 'next', 1)
        end
        redis.call('DECR', KEYS[3])
        redis.call('ZADD', KEYS[2], lease, id .. ':' .. n)
        return {id, n, redis.call('HINCRBY', j, 't:' .. n, 1), 0}
      end
    end
  end
  if redis.call('LLEN', ol) == 0 then redis.call('LREM', KEYS[1], 1, owner) end
end
return false
`)

func (s *redisStore) claim(ctx context.Context, idle time.Duration) (task, bool, error) {
	keys := []string{s.q + "ring", s.q + "leases", s.q + "queued", s.q + "workers"}
	v, err := claimScript.Run(ctx, s.rdb, keys, ms(time.Now()), idle.Milliseconds(), s.q, s.worker).Slice()
	if errors.Is(err, redis.Nil) {
		return task{}, false, nil
	}
	if err != nil {
		return task{}, false, err
	}
	if len(v) != 4 {
		return task{}, false, fmt.Errorf("claiming a chunk: answer %v", v)
	}
	id, _ := v[0].(string)
	c, _ := v[1].(string)
	n, err := strconv.Atoi(c)
	if err != nil || !validID(id) || n < 0 {
		return task{}, false, fmt.Errorf("claiming a chunk: malformed entry %q %q", id, c)
	}
	attempts, _ := v[2].(int64)
	retried, _ := v[3].(int64)
	return task{id: id, chunk: n, attempts: int(attempts), retried: retried == 1}, true, nil
}

func (s *redisStore) next(ctx context.Context, idle time.Duration) (task, bool, error) {
	t, ok, err := s.claim(ctx, idle)
	if ok || err != nil {
		return t, ok, err
	}
	err = s.rdb.BLPop(ctx, redisBlock, s.q+"wake").Err()
	if err != nil && !errors.Is(err, redis.Nil) {
		return task{}, false, err
	}
	if err == nil { // woken: a job came
		return s.claim(ctx, idle)
	}
	return task{}, false, nil
}

// touchScript notes that the worker of a chunk still handed out is alive.
// ARGV: now, the chunk.
var touchScript = redis.NewScript(`#!lua flags=allow-oom
return redis.call('ZADD', KEYS[1], 'XX', ARGV[1], ARGV[2])
`)

func member(t task) string { return t.id + ":" + strconv.Itoa(t.chunk) }

func (s *redisStore) touch(ctx context.Context, t task) error {
	return touchScript.Run(ctx, s.rdb, []string{s.q + "leases"}, ms(time.Now()), member(t)).Err()
}

// ackScript ends the lease of a chunk and the failures of its job. KEYS:
// leases, j:ID. ARGV: the chunk.
var ackScript = redis.NewScript(`#!lua flags=allow-oom
redis.call('ZREM', KEYS[1], ARGV[1])
if redis.call('HEXISTS', KEYS[2], 'since') == 1 then
  redis.call('HDEL', KEYS[2], 'wait', 'fails', 'since')
end
return 1
`)

func (s *redisStore) ack(ctx context.Context, t task) error {
	return ackScript.Run(ctx, s.rdb, []string{s.q + "leases", s.q + "j:" + t.id}, member(t)).Err()
}

// putBackScript ends the lease of a chunk and puts it back to its job,
// which waits; its handing out is not counted as an attempt. KEYS:
// leases, j:ID, r:ID, ring, queued. ARGV: the chunk, its number, now,
// wait, most, failed (1 or 0), id. With failed, the wait is doubled for
// each failure in a row past the first (one per wait), at most most. It
// returns since when the job's results fail to be stored (now when the
// job is gone). It runs when Redis is full: that is when it is needed.
var putBackScript = redis.NewScript(`#!lua flags=allow-oom
local now = tonumber(ARGV[3])
local held = redis.call('ZREM', KEYS[1], ARGV[1])
if held == 0 or redis.call('EXISTS', KEYS[2]) == 0 then return now end
redis.call('HINCRBY', KEYS[2], 't:' .. ARGV[2], -1)
redis.call('RPUSH', KEYS[3], ARGV[2])
redis.call('PEXPIREAT', KEYS[3], redis.call('HGET', KEYS[2], 'exp'))
redis.call('INCR', KEYS[5])
local wait, most = tonumber(ARGV[4]), tonumber(ARGV[5])
local w = tonumber(redis.call('HGET', KEYS[2], 'wait') or '0')
local since = now
if ARGV[6] == '1' then
  local fails = tonumber(redis.call('HGET', KEYS[2], 'fails') or '0')
  if w <= now then
    fails = fails + 1
    redis.call('HSET', KEYS[2], 'fails', fails)
  end
  since = tonumber(redis.call('HGET', KEYS[2], 'since') or '0')
  if since == 0 then
    since = now
    redis.call('HSET', KEYS[2], 'since', now)
  end
  for _ = 2, fails do
    if wait >= most then break end
    wait = wait * 2
  end
  wait = math.min(wait, most)
end
if now + wait > w then redis.call('HSET', KEYS[2], 'wait', now + wait) end
local owner = redis.call('HGET', KEYS[2], 'owner')
local ol = string.sub(KEYS[4], 1, -5) .. 'o:' .. owner
if not redis.call('LPOS', ol, ARGV[7]) then redis.call('RPUSH', ol, ARGV[7]) end
if not redis.call('LPOS', KEYS[4], owner) then redis.call('RPUSH', KEYS[4], owner) end
return since
`)

func (s *redisStore) putBack(ctx context.Context, t task, wait, most time.Duration, failed bool, now time.Time) (time.Time, error) {
	f := 0
	if failed {
		f = 1
	}
	keys := []string{s.q + "leases", s.q + "j:" + t.id, s.q + "r:" + t.id, s.q + "ring", s.q + "queued"}
	since, err := putBackScript.Run(ctx, s.rdb, keys, member(t), t.chunk, ms(now), wait.Milliseconds(), most.Milliseconds(), f, t.id).Int64()
	if err != nil {
		return time.Time{}, err
	}
	return time.UnixMilli(since), nil
}

// unqueueScript forgets the chunks of a job that were not handed out.
// KEYS: j:ID, r:ID, queued.
var unqueueScript = redis.NewScript(`#!lua flags=allow-oom
local h = redis.call('HMGET', KEYS[1], 'chunks', 'next')
if h[1] then
  local left = math.max(0, tonumber(h[1]) - tonumber(h[2])) + redis.call('LLEN', KEYS[2])
  redis.call('DECRBY', KEYS[3], left)
end
redis.call('DEL', KEYS[1], KEYS[2])
return 1
`)

func (s *redisStore) unqueue(ctx context.Context, id string) error {
	return unqueueScript.Run(ctx, s.rdb, []string{s.q + "j:" + id, s.q + "r:" + id, s.q + "queued"}).Err()
}

// depth is the chunks not handed out and those handed out.
func (s *redisStore) depth(ctx context.Context) (int64, error) {
	var queued *redis.StringCmd
	var leased *redis.IntCmd
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		queued = p.Get(ctx, s.q+"queued")
		leased = p.ZCard(ctx, s.q+"leases")
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return 0, err
	}
	n, _ := strconv.ParseInt(queued.Val(), 10, 64)
	return max(n, 0) + leased.Val(), nil
}

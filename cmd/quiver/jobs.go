package main

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/httpapi"
)

// DefaultJobConcurrency is the default of -job-concurrency: with the
// default -workers it leaves most of the email verifier's 64 concurrent
// lookups to the synchronous routes.
const DefaultJobConcurrency = 16

// jobsConfig runs the bulk verification jobs of /v1/email/bulk/jobs: with
// -redis-url on Redis, shared by every instance; without it in process.
type jobsConfig struct {
	workers     int
	concurrency int
	ttl         time.Duration
	claimIdle   time.Duration
	maxRows     int
	maxBytes    int64
	maxMemory   int64
	keyInFlight int
	keyStored   int
	keyJobs     int
	storeRetry  time.Duration
	cpus        int

	m    *jobs.Manager
	done chan struct{} // closed when the workers have stopped
}

// jobsFlags registers -workers and the -job-* flags.
func jobsFlags(f *flags) *jobsConfig {
	jc := &jobsConfig{}
	bind(f, &jc.workers, "workers", jobs.DefaultWorkers, "bulk job chunks this instance checks at once; 0 serves the job routes only (with -redis-url, other instances run the jobs)")
	bind(f, &jc.concurrency, "job-concurrency", DefaultJobConcurrency, "rows of a job chunk checked at once (DNS lookups in flight per worker)")
	bind(f, &jc.ttl, "job-ttl", jobs.DefaultTTL, "how long a bulk job and its results are kept")
	bind(f, &jc.claimIdle, "job-claim-idle", jobs.DefaultClaimIdle, "how long a chunk may stay with a worker before another claims it again")
	bind(f, &jc.maxRows, "job-max-rows", jobs.DefaultMaxRows, "most data rows of a bulk job")
	bind(f, &jc.maxBytes, "job-max-bytes", jobs.DefaultMaxBytes, "largest CSV file of a bulk job, in bytes")
	bind(f, &jc.maxMemory, "job-max-memory", jobs.DefaultMaxMemory, "bytes of rows, results and headers the in-process job queue holds (without -redis-url); an upload past it is refused with 503")
	bind(f, &jc.keyInFlight, "job-key-rows-in-flight", jobs.DefaultMaxOwnerRowsInFlight, "most rows of a key's bulk jobs that have not ended; past it an upload is refused with 429; negative: no bound")
	bind(f, &jc.keyStored, "job-key-rows-stored", jobs.DefaultMaxOwnerRowsStored, "most rows of a key's stored bulk jobs (not cancelled nor failed), until they expire or are deleted; negative: no bound")
	bind(f, &jc.keyJobs, "job-key-jobs", jobs.DefaultMaxOwnerJobsStored, "most bulk jobs a key has stored, until they expire or are deleted; negative: no bound")
	bind(f, &jc.cpus, "job-cpus", max(1, runtime.GOMAXPROCS(0)-1), "cores, on average, under which the bulk job workers keep the process: they pause when it is busier, leaving the rest to the synchronous routes")
	bind(f, &jc.storeRetry, "job-store-retry", jobs.DefaultStoreRetry, "how long a running job's results may fail to be stored (Redis full, read-only, down) before the job fails")
	return jc
}

// start builds the Manager into cfg, on a verifier of svc checking
// -job-concurrency rows at once, once Redis is set up, and starts its
// workers; stop ends them.
func (jc *jobsConfig) start(ctx context.Context, cfg *httpapi.Config, svc *services, rc *redisConfig, logger *slog.Logger) error {
	if jc.workers < 0 {
		return usageError{fmt.Errorf("%s must not be negative", flagName("workers"))}
	}
	if jc.concurrency <= 0 {
		return usageError{fmt.Errorf("%s must be positive", flagName("job-concurrency"))}
	}
	if jc.cpus <= 0 {
		return usageError{fmt.Errorf("%s must be positive", flagName("job-cpus"))}
	}
	if rc.client == nil && jc.workers == 0 {
		logger.Info("bulk jobs are off: -workers 0 without -redis-url leaves no one to run them")
		return nil
	}
	v, err := svc.Verifier(jc.concurrency)
	if err != nil {
		return fmt.Errorf("bulk jobs: %w", err)
	}
	for _, q := range []struct {
		name string
		v    int
	}{{"job-key-rows-in-flight", jc.keyInFlight}, {"job-key-rows-stored", jc.keyStored}, {"job-key-jobs", jc.keyJobs}} {
		if q.v == 0 {
			return usageError{fmt.Errorf("%s must not be 0: a negative value sets no bound", flagName(q.name))}
		}
	}
	jcfg := jc.config()
	jcfg.Verifier, jcfg.Logger, jcfg.Metrics = v, logger, cfg.Metrics
	if rc.client != nil { // a nil *redis.Client in the interface would not be nil
		jcfg.Redis = rc.client
		jcfg.Prefix = rc.prefix + "jobs:"
		for _, w := range redisMemoryWarnings(ctx, rc.client, max(rc.timeout, time.Second)) {
			logger.Warn("bulk jobs: " + w)
		}
	}
	jc.m, err = jobs.New(jcfg)
	if err != nil {
		return flagsErr("Jobs", "bulk jobs", err)
	}
	cfg.Jobs = jc.m
	jc.done = make(chan struct{})
	if jc.workers == 0 {
		close(jc.done)
		logger.Info("bulk jobs: serving the routes only; instances with -workers run them")
		return nil
	}
	go func() {
		defer close(jc.done)
		jc.m.Run(ctx)
	}()
	where := "in process (jobs are lost when it stops)"
	if rc.client != nil {
		where = "on redis, shared by every instance"
	}
	logger.Info("bulk job workers started", "workers", jc.workers, "queue", where)
	return nil
}

// config is the jobs.Config of the flags, before the verifier, Redis,
// logger and metrics are set in it. With -workers 0 the Manager serves
// the routes and Run is not called, so its Workers is the default.
func (jc *jobsConfig) config() jobs.Config {
	return jobs.Config{
		TTL: jc.ttl, ClaimIdle: jc.claimIdle, MaxRows: jc.maxRows, MaxBytes: jc.maxBytes, MaxMemory: jc.maxMemory,
		MaxOwnerRowsInFlight: jc.keyInFlight, MaxOwnerRowsStored: jc.keyStored, MaxOwnerJobsStored: jc.keyJobs,
		StoreRetry: jc.storeRetry, CPUs: jc.cpus, Workers: max(jc.workers, 1),
	}
}

// wait waits for the workers to stop once ctx has ended: a chunk in hand
// is abandoned, to be claimed again by another instance.
func (jc *jobsConfig) wait() {
	if jc.done != nil {
		<-jc.done
	}
}

// redisMemoryWarnings checks what the bulk jobs need of Redis: a
// maxmemory, with the noeviction policy (an evicting policy deletes a
// job's rows, results or place in the queue; with noeviction a full
// Redis refuses writes, which the jobs answer with 503 and retry), and
// Redis 7.0 or later (script flags). It asks CONFIG GET, then INFO when
// CONFIG is refused (managed Redis services rename or forbid it), and
// returns what to warn about.
func redisMemoryWarnings(ctx context.Context, rdb *redis.Client, timeout time.Duration) []string {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var warns []string
	fields := map[string]string{}
	info, err := rdb.Info(ctx, "server", "memory").Result()
	if err == nil {
		for line := range strings.Lines(info) {
			if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
				fields[k] = v
			}
		}
	}
	if conf, err := rdb.ConfigGet(ctx, "maxmemory*").Result(); err == nil {
		for k, v := range conf {
			fields[strings.ReplaceAll(k, "-", "_")] = v
		}
	}
	if v := fields["redis_version"]; v != "" {
		if major, _, _ := strings.Cut(v, "."); len(major) == 1 && major < "7" {
			warns = append(warns, "redis "+v+" is older than 7.0, which the jobs' scripts need (script flags, LMOVE, LPOS)")
		}
	}
	limit, policy := fields["maxmemory"], fields["maxmemory_policy"]
	switch {
	case limit == "" && policy == "":
		warns = append(warns, fmt.Sprintf("could not read redis's maxmemory (INFO memory: %v); bulk jobs need maxmemory set, with maxmemory-policy noeviction", err))
	case limit == "0":
		warns = append(warns, "redis has no maxmemory: jobs may use all the memory of its machine; set maxmemory (docs/http-api.md, bulk jobs, says how large) with maxmemory-policy noeviction")
	}
	if policy != "" && policy != "noeviction" {
		warns = append(warns, "redis's maxmemory-policy is "+policy+": when full it evicts keys, a job's rows, results or place in the queue among them; set maxmemory-policy noeviction")
	}
	return warns
}

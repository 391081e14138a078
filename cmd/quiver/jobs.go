package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/quiverkit/quiver/email"
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

	m    *jobs.Manager
	done chan struct{} // closed when the workers have stopped
}

// jobsFlags registers -workers and the -job-* flags.
func jobsFlags(f *flags) *jobsConfig {
	jc := &jobsConfig{}
	f.Int(&jc.workers, "workers", "QUIVER_WORKERS", jobs.DefaultWorkers, "bulk job chunks this instance checks at once; 0 serves the job routes only (with -redis-url, other instances run the jobs)")
	f.Int(&jc.concurrency, "job-concurrency", "QUIVER_JOB_CONCURRENCY", DefaultJobConcurrency, "rows of a job chunk checked at once (DNS lookups in flight per worker)")
	f.Duration(&jc.ttl, "job-ttl", "QUIVER_JOB_TTL", jobs.DefaultTTL, "how long a bulk job and its results are kept")
	f.Duration(&jc.claimIdle, "job-claim-idle", "QUIVER_JOB_CLAIM_IDLE", jobs.DefaultClaimIdle, "how long a chunk may stay with a worker before another claims it again")
	f.Int(&jc.maxRows, "job-max-rows", "QUIVER_JOB_MAX_ROWS", jobs.DefaultMaxRows, "most data rows of a bulk job")
	f.Int64(&jc.maxBytes, "job-max-bytes", "QUIVER_JOB_MAX_BYTES", jobs.DefaultMaxBytes, "largest CSV file of a bulk job, in bytes")
	f.Int64(&jc.maxMemory, "job-max-memory", "QUIVER_JOB_MAX_MEMORY", jobs.DefaultMaxMemory, "bytes of rows and results the in-process job queue holds (without -redis-url), results reserved at admission; more is refused with 503")
	return jc
}

// start builds the Manager into cfg, once the email service and Redis
// are set up, and starts its workers; stop ends them.
func (jc *jobsConfig) start(ctx context.Context, cfg *httpapi.Config, rc *redisConfig, logger *slog.Logger) error {
	if jc.workers < 0 {
		return usageError{errors.New("-workers must not be negative")}
	}
	if jc.concurrency <= 0 {
		return usageError{errors.New("-job-concurrency must be positive")}
	}
	if rc.client == nil && jc.workers == 0 {
		logger.Info("bulk jobs are off: -workers 0 without -redis-url leaves no one to run them")
		return nil
	}
	v, err := email.New(email.Config{Resolver: cfg.Resolver, Lists: cfg.EmailLists, Concurrency: jc.concurrency})
	if err != nil {
		return fmt.Errorf("bulk jobs: %w", err)
	}
	jcfg := jobs.Config{
		Verifier: v, TTL: jc.ttl, ClaimIdle: jc.claimIdle, MaxRows: jc.maxRows, MaxBytes: jc.maxBytes, MaxMemory: jc.maxMemory,
		Workers: max(jc.workers, 1), Logger: logger, Metrics: cfg.Metrics,
	}
	if rc.client != nil { // a nil *redis.Client in the interface would not be nil
		jcfg.Redis = rc.client
		jcfg.Prefix = rc.prefix + "jobs:"
	}
	jc.m, err = jobs.New(jcfg)
	if err != nil {
		return usageError{err}
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

// wait waits for the workers to stop once ctx has ended: a chunk in hand
// is abandoned, to be claimed again by another instance.
func (jc *jobsConfig) wait() {
	if jc.done != nil {
		<-jc.done
	}
}

package jobs

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// jobMetrics are the collectors of the package documentation. A nil
// *jobMetrics counts nothing.
type jobMetrics struct {
	jobs    *prometheus.CounterVec
	rowsN   prometheus.Counter
	retries prometheus.Counter
}

// depthTimeout bounds the store call behind a scrape of the queue depth.
const depthTimeout = 2 * time.Second

func newMetrics(reg prometheus.Registerer, st store) (*jobMetrics, error) {
	if reg == nil {
		return nil, nil
	}
	m := &jobMetrics{
		jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "quiver_email_jobs_total",
			Help: "Bulk verification jobs that entered each status through this process.",
		}, []string{"status"}),
		rowsN: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "quiver_email_job_rows_total",
			Help: "Rows of bulk verification jobs checked and stored by this process's workers.",
		}),
		retries: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "quiver_email_job_chunk_retries_total",
			Help: "Chunks claimed again from a worker presumed dead.",
		}),
	}
	depth := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "quiver_email_job_queue_depth",
		Help: "Chunks of bulk verification jobs queued or being checked (shared by every instance on one Redis).",
	}, func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), depthTimeout)
		defer cancel()
		n, err := st.depth(ctx)
		if err != nil {
			return -1
		}
		return float64(n)
	})
	var err error
	m.jobs, err = register(reg, m.jobs)
	if err == nil {
		m.rowsN, err = register(reg, m.rowsN)
	}
	if err == nil {
		m.retries, err = register(reg, m.retries)
	}
	if err == nil {
		_, err = register[prometheus.Collector](reg, depth)
	}
	if err != nil {
		return nil, err
	}
	for _, s := range []Status{StatusQueued, StatusRunning, StatusDone, StatusCancelled, StatusFailed} {
		m.jobs.WithLabelValues(string(s)) // every status shows, at 0
	}
	return m, nil
}

// register registers c, or returns the collector already registered
// under its name, so that Managers may share a registry.
func register[C prometheus.Collector](reg prometheus.Registerer, c C) (C, error) {
	err := reg.Register(c)
	var are prometheus.AlreadyRegisteredError
	if errors.As(err, &are) {
		if old, ok := are.ExistingCollector.(C); ok {
			return old, nil
		}
	}
	return c, err
}

func (m *jobMetrics) status(s Status) {
	if m != nil {
		m.jobs.WithLabelValues(string(s)).Inc()
	}
}

func (m *jobMetrics) rows(n int) {
	if m != nil {
		m.rowsN.Add(float64(n))
	}
}

func (m *jobMetrics) retry() {
	if m != nil {
		m.retries.Inc()
	}
}

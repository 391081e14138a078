package jobs

import (
	"context"
	"strconv"
	"time"
)

// HeldBytes returns the bytes that the in-process store of m counts
// against Config.MaxMemory: rows, reserved results and results.
func HeldBytes(m *Manager) int64 {
	s := m.st.(*memStore)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}

// HeaderBytes is what a job's header counts for against Config.MaxMemory.
func HeaderBytes(header []string) int64 { return headerBytes(header) }

// QueueDepth returns the chunks of m's store queued or being checked.
func QueueDepth(m *Manager) int64 {
	n, err := m.st.depth(context.Background())
	if err != nil {
		return -1
	}
	return n
}

// Workers returns the workers that asked m's Redis for a chunk within the
// last minute.
func Workers(m *Manager) int64 {
	n, err := m.st.(*redisStore).workers(context.Background())
	if err != nil {
		return -1
	}
	return n
}

// OwnerHash is what is stored of an owner.
func OwnerHash(owner string) string { return ownerHash(owner) }

// workers counts the workers that asked for a chunk within the last
// minute.
func (s *redisStore) workers(ctx context.Context) (int64, error) {
	return s.rdb.ZCount(ctx, s.q+"workers", strconv.FormatInt(ms(time.Now().Add(-time.Minute)), 10), "+inf").Result()
}

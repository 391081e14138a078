//go:build unix

package jobs

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time, user and system, that the process
// has used: every thread's, the collector's included, up to now.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0 // no reading: no pacing
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

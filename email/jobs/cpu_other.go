//go:build !unix

package jobs

import "time"

// processCPU returns 0 where the process's CPU time is not read: the
// workers are not paced there.
func processCPU() time.Duration { return 0 }

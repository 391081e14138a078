//go:build !race

package webcheck

// raceEnabled reports whether the race detector is on: tests that only
// measure bulk work skip their largest inputs then.
const raceEnabled = false

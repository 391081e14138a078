package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/quiverkit/quiver/internal/redistest"
)

// Two quiver processes configured with one QUIVER_REDIS_URL enforce one
// limit between them.
func TestRedisURLSharesTheLimit(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	rs := redistest.Start(t)
	env := map[string]string{"QUIVER_REDIS_URL": "redis://" + rs.Addr + "/0", "QUIVER_BURST": "3", "QUIVER_RATE_LIMIT": "0.01"}
	a := startServer(t, nil, env)
	b := startServer(t, nil, env)

	client := &http.Client{Transport: &http.Transport{}, Timeout: 5 * time.Second}
	defer client.CloseIdleConnections()
	post := func(base string) int {
		req, _ := http.NewRequest("POST", base+"/v1/dev/data/base64/encode", strings.NewReader(`{"value":"x"}`))
		req.Header.Set("X-Gateway-Key", "k")
		req.Header.Set("X-Gateway-Host", "test")
		req.Header.Set("Content-Type", "application/json")
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	var got []int
	for _, s := range []*server{a, b, a, b, a} {
		got = append(got, post(s.base))
	}
	want := []int{200, 200, 200, 429, 429}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("statuses across the two instances = %v, want %v", got, want)
		}
	}
	for _, s := range []*server{a, b} {
		if err := s.stop(t, 5*time.Second); err != nil {
			t.Error(err)
		}
	}
}

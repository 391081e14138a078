package main

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

func get(t *testing.T, url string, header ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	c := &http.Client{Transport: &http.Transport{}, Timeout: 5 * time.Second}
	defer c.CloseIdleConnections()
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func TestMetricsOffByDefault(t *testing.T) {
	defer checkLeaks(t)
	s := startServer(t, nil, nil)
	if code, _ := get(t, s.base+"/metrics"); code != http.StatusNotFound {
		t.Errorf("GET /metrics without -metrics: status %d, want 404", code)
	}
	if err := s.stop(t, 5*time.Second); err != nil {
		t.Fatal(err)
	}
}

func TestMetricsOnMainListener(t *testing.T) {
	defer checkLeaks(t)
	s := startServer(t, nil, map[string]string{"QUIVER_METRICS": "true"})
	get(t, s.base+"/healthz")
	code, body := get(t, s.base+"/metrics")
	if code != http.StatusOK {
		t.Fatalf("GET /metrics: status %d", code)
	}
	if want := `quiver_http_requests_total{route="GET /healthz",status="200"} 1`; !strings.Contains(body, want) {
		t.Errorf("metrics lack %q:\n%s", want, body)
	}
	if err := s.stop(t, 5*time.Second); err != nil {
		t.Fatal(err)
	}
}

var metricsRE = regexp.MustCompile(`quiver metrics on (http://\S+)`)

func TestMetricsOnSeparateListener(t *testing.T) {
	defer checkLeaks(t)
	s := startServer(t, []string{"-metrics", "-metrics-addr", "127.0.0.1:0"}, nil)
	m := metricsRE.FindStringSubmatch(s.out.String())
	if m == nil {
		t.Fatalf("no metrics address in the output:\n%s", s.out)
	}
	get(t, s.base+"/healthz")
	if code, _ := get(t, s.base+"/metrics"); code != http.StatusNotFound {
		t.Errorf("GET /metrics on the main listener: status %d, want 404", code)
	}
	code, body := get(t, m[1])
	if code != http.StatusOK || !strings.Contains(body, `route="GET /healthz"`) {
		t.Errorf("GET %s: status %d, body lacks the healthz request:\n%s", m[1], code, body)
	}
	if err := s.stop(t, 5*time.Second); err != nil {
		t.Fatal(err)
	}
}

package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/secret"
)

// The handler mounts in any mux; here under /quiver/ next to an
// application's own routes.
func ExampleNew() {
	api, err := httpapi.New(httpapi.Config{Keys: []secret.String{"secret-key"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	mux := http.NewServeMux()
	mux.Handle("/quiver/", http.StripPrefix("/quiver", api))

	srv := httptest.NewServer(mux)
	defer srv.Close()

	req, _ := http.NewRequest("POST", srv.URL+"/quiver/v1/dev/data/base64/encode", strings.NewReader(`{"value":"hello"}`))
	req.Header.Set("X-Gateway-Key", "secret-key")
	req.Header.Set("X-Gateway-Host", "quiver.example")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status, resp.Header.Get("X-RateLimit-Limit"))
	// The request ID differs on every call; cut it off.
	fmt.Println(string(body[:strings.Index(string(body), `"meta"`)]))
	// Output:
	// 200 OK 20
	// {"success":true,"data":{"input":"hello","output":"aGVsbG8=","operation":"encode","is_valid":true,"error":null},"error":null,
}

// A configuration that cannot work is an error naming the field.
func ExampleNew_invalid() {
	_, err := httpapi.New(httpapi.Config{Keys: []secret.String{"k"}, Burst: -1})
	fmt.Println(errors.Is(err, httpapi.ErrInvalidConfig))
	fmt.Println(err)
	// Output:
	// true
	// httpapi: invalid configuration: Burst must not be negative
}

// The handler registers its metrics in the embedder's registry, which the
// embedder serves with promhttp next to the API.
func ExampleConfig_metrics() {
	reg := prometheus.NewRegistry()
	api, err := httpapi.New(httpapi.Config{Keys: []secret.String{"k"}, Metrics: reg})
	if err != nil {
		fmt.Println(err)
		return
	}
	mux := http.NewServeMux()
	mux.Handle("/quiver/", http.StripPrefix("/quiver", api))
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))

	req := httptest.NewRequest("GET", "/quiver/v1/dev/data/url/parse", nil)
	req.Header.Set("X-Gateway-Key", "k")
	req.Header.Set("X-Gateway-Host", "example")
	mux.ServeHTTP(httptest.NewRecorder(), req) // 405: the route takes POST

	scrape := httptest.NewRecorder()
	mux.ServeHTTP(scrape, httptest.NewRequest("GET", "/metrics", nil))
	sc := bufio.NewScanner(scrape.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "quiver_http_requests_total{") {
			fmt.Println(sc.Text())
		}
	}
	// Output:
	// quiver_http_requests_total{route="POST /v1/dev/data/url/parse",status="405"} 1
}

// A MemoryLimiter gives each key its own bucket: a burst, refilled at the
// sustained rate.
func ExampleMemoryLimiter() {
	l := httpapi.NewMemoryLimiter(1, 2) // 1 request per second, bursts of 2
	for _, key := range []string{"team-a", "team-a", "team-a", "team-b"} {
		d, _ := l.Allow(context.Background(), key)
		fmt.Println(key, d.Allowed, d.Remaining)
	}
	fmt.Println(l.Len(), "keys tracked")
	// Output:
	// team-a true 1
	// team-a true 0
	// team-a false 0
	// team-b true 1
	// 2 keys tracked
}

// GET /docs is an interactive reference of the API that needs no key; GET
// / redirects to it. Config.DisableDocs leaves both unserved.
func ExampleConfig_disableDocs() {
	for _, disable := range []bool{false, true} {
		api, err := httpapi.New(httpapi.Config{Keys: []secret.String{"secret-key"}, DisableDocs: disable})
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, path := range []string{"/", "/docs"} {
			rec := httptest.NewRecorder()
			api.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
			what := "Content-Type: " + rec.Header().Get("Content-Type")
			if loc := rec.Header().Get("Location"); loc != "" {
				what = "Location: " + loc
			}
			fmt.Printf("DisableDocs=%v GET %s: %d, %s\n", disable, path, rec.Code, what)
		}
	}
	// Output:
	// DisableDocs=false GET /: 302, Location: docs
	// DisableDocs=false GET /docs: 200, Content-Type: text/html; charset=utf-8
	// DisableDocs=true GET /: 404, Content-Type: application/json; charset=utf-8
	// DisableDocs=true GET /docs: 404, Content-Type: application/json; charset=utf-8
}

// The handler serves the services the embedder built, each from its own
// package's Config: here an email verifier whose lists also count
// example-throwaway.test as disposable.
func ExampleConfig_services() {
	lists, err := email.DefaultLists().WithDisposable(strings.NewReader("example-throwaway.test\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	verifier, err := email.New(email.Config{Lists: lists}) // no Resolver: syntax and lists only
	if err != nil {
		fmt.Println(err)
		return
	}
	api, err := httpapi.New(httpapi.Config{Keys: []secret.String{"secret-key"}, Email: verifier})
	if err != nil {
		fmt.Println(err)
		return
	}
	req := httptest.NewRequest("POST", "/v1/email/disposable/check", strings.NewReader(`{"emails":["ana@example-throwaway.test"]}`))
	req.Header.Set("X-Gateway-Key", "secret-key")
	req.Header.Set("X-Gateway-Host", "quiver.example")
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	api.ServeHTTP(rec, req)
	var res struct {
		Data struct {
			Results []struct {
				Input        string `json:"input"`
				IsDisposable bool   `json:"is_disposable"`
			} `json:"results"`
		} `json:"data"`
	}
	if err := json.NewDecoder(rec.Body).Decode(&res); err != nil {
		fmt.Println(rec.Code, err)
		return
	}
	for _, r := range res.Data.Results {
		fmt.Println(r.Input, r.IsDisposable)
	}
	// Output:
	// ana@example-throwaway.test true
}

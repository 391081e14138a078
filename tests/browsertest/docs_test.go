// Package browsertest holds the tests that drive a real headless Chromium
// against Quiver's HTTP handler: the /docs page, as a visitor uses it.
// It has no code of its own; it is a package of its own so that the
// browser driver (chromedp) stays out of the library's import graph.
//
// The tests need Debian's chromium package (or another Chromium or Chrome
// on the PATH). Without one they skip, except when CI or
// QUIVER_REQUIRE_BROWSER=1 is set: then they fail, so that CI cannot pass
// without having run them (.ci/run installs chromium and sets it).
package browsertest

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/secret"
)

// chromium returns the path of the browser, or skips the test (fails it
// under CI or QUIVER_REQUIRE_BROWSER=1) when none is installed.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no Chromium on the PATH: install Debian's chromium package (apt-get install chromium) to run the browser tests"
	if os.Getenv("CI") != "" || os.Getenv("QUIVER_REQUIRE_BROWSER") == "1" {
		t.Fatal(msg + " (required: CI or QUIVER_REQUIRE_BROWSER=1 is set)")
	}
	t.Skip(msg)
	return ""
}

// authorize enters value in the Authorize form of the security scheme
// and submits it.
func authorize(scheme, value string) chromedp.Action[chromedp.Void] {
	form := `//div[contains(@class,"auth-container")][.//h4/code[text()="` + scheme + `"]]`
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		return chromedp.Void{}, chromedp.Do(ctx,
			chromedp.SendKeys(form+`//input`, value),
			chromedp.Click(form+`//button[contains(@class,"authorize")]`),
			chromedp.WaitVisible(form+`//button[@aria-label="Remove authorization"]`),
		)
	}
}

// requests records every URL the page asks for.
type requests struct {
	mu   sync.Mutex
	urls []string
}

func (r *requests) add(u string) {
	r.mu.Lock()
	r.urls = append(r.urls, u)
	r.mu.Unlock()
}

func (r *requests) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.urls)
}

// TestDocsPageInBrowser opens /docs in headless Chromium against a real
// server on loopback, as a visitor would: every route group is listed,
// the key is entered once in Authorize, the Base64 encode operation is
// run from the page and its envelope shown, and the browser asks nothing
// of any origin but the server's.
func TestDocsPageInBrowser(t *testing.T) {
	exe := chromium(t)
	start := time.Now()

	key := "qk_" + rand.Text()
	api, err := httpapi.New(httpapi.Config{Keys: []secret.String{secret.String(key)}})
	if err != nil {
		t.Fatal(err)
	}
	var encoded struct {
		sync.Mutex
		statuses []int
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/dev/data/base64/encode" {
			api.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, r)
		encoded.Lock()
		encoded.statuses = append(encoded.statuses, rec.Code)
		encoded.Unlock()
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	}))
	defer srv.Close()
	origin, _ := url.Parse(srv.URL)

	// The tags that the page must list, from the document it renders.
	resp, err := http.Get(srv.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tags []struct{ Name string } `json:"tags"`
	}
	err = json.NewDecoder(resp.Body).Decode(&doc)
	resp.Body.Close()
	if err != nil || len(doc.Tags) == 0 {
		t.Fatalf("the document's tags: %v (%d)", err, len(doc.Tags))
	}

	// Generous: two cores shared by many jobs can make Chromium slow to start.
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // run as root (containers, CI), Chromium cannot use its sandbox
		chromedp.DisableGPU,
		chromedp.Flag("no-proxy-server", true),
		chromedp.WindowSize(1280, 1024),
	)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	ctx, cancelTab := chromedp.NewContext(ctx)
	defer cancelTab()

	var seen requests
	var consoleMu sync.Mutex
	var console []string
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			seen.add(e.Request.URL)
		}
	}); err != nil {
		t.Fatal(err)
	}
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			consoleMu.Lock()
			console = append(console, string(m.Type)+": "+m.Text)
			consoleMu.Unlock()
		}
	}()

	// / redirects to /docs; the page lists every group.
	op := "#operations-dev-postDevDataBase64Encode"
	err = chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(op)),
	)
	if err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil || loc != srv.URL+"/docs" {
		t.Errorf("/ led to %q (%v), want %s/docs", loc, err, srv.URL)
	}
	listed, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll(".opblock-tag")].map(e => e.getAttribute("data-tag"))`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range doc.Tags {
		if !slices.Contains(listed, tag.Name) {
			t.Errorf("group %s is not listed on the page (listed: %q)", tag.Name, listed)
		}
	}

	// The key, entered once in Authorize (with the host, the other
	// gateway header), serves every operation of the page.
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(".auth-wrapper .authorize")),
		chromedp.WaitVisible(chromedp.CSS(".modal-ux")),
		authorize("gatewayHost", "localhost"),
		authorize("gatewayKey", key),
		chromedp.Click(chromedp.CSS(".modal-ux .close-modal")),
		chromedp.WaitNotPresent(chromedp.CSS(".modal-ux")),
	)
	if err != nil {
		t.Fatalf("entering the key: %v", err)
	}

	// Base64 encode, run from the page with its example body: the
	// envelope with the encoded value is shown.
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(op+" .opblock-summary-control")),
		chromedp.WaitVisible(chromedp.CSS(op+" .btn.execute")),
		chromedp.Click(chromedp.CSS(op+" .btn.execute")),
	)
	if err != nil {
		t.Fatalf("running Base64 encode: %v", err)
	}
	shown, err := chromedp.Run(ctx, chromedp.Poll[string](`(() => {
		const r = document.querySelector(`+"`"+op+` .live-responses-table tbody .highlight-code code`+"`"+`);
		return r && r.textContent.includes("aGVsbG8=") ? r.textContent : "";
	})()`, chromedp.WithPollingTimeout(3*time.Minute)))
	if err != nil {
		text, _ := chromedp.Run(context.WithoutCancel(ctx), chromedp.Evaluate[string](`document.querySelector("`+op+` .live-responses-table").outerHTML`))
		t.Fatalf("waiting for the envelope on the page: %v\nthe operation shows:\n%s\nrequests: %q", err, text, seen.all())
	}
	var env struct {
		Success bool `json:"success"`
		Data    struct {
			Output string `json:"output"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(shown), &env); err != nil || !env.Success || env.Data.Output != "aGVsbG8=" {
		t.Errorf("the page shows %q (%v), want the envelope with aGVsbG8=", shown, err)
	}
	encoded.Lock()
	if !slices.Equal(encoded.statuses, []int{http.StatusOK}) {
		t.Errorf("the server answered the page's Base64 requests with %v, want one 200", encoded.statuses)
	}
	encoded.Unlock()

	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "docs.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
	if dst := os.Getenv("QUIVER_DOCS_SCREENSHOT"); dst != "" {
		// The picture of docs/http-api.md (docs/api-docs.png): a tall window on the
		// operation just run.
		view, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) ([]byte, error) {
			err := chromedp.Do(ctx,
				chromedp.EmulateViewport(1280, 1450),
				chromedp.Evaluate[chromedp.Void](`document.querySelector("`+op+`").scrollIntoView()`),
			)
			if err != nil {
				return nil, err
			}
			return chromedp.Run(ctx, chromedp.CaptureScreenshot())
		})
		if err == nil {
			err = os.WriteFile(dst, view, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}

	// No request left for another origin: the page, its assets, the
	// document and the call all came from the server; data: URIs (the
	// stylesheet's icons) load nothing.
	urls := seen.all()
	for _, want := range []string{"/docs", "/openapi.json", "/v1/dev/data/base64/encode"} {
		if !slices.Contains(urls, srv.URL+want) {
			t.Errorf("the browser did not ask for %s: %q", want, urls)
		}
	}
	for _, u := range urls {
		p, err := url.Parse(u)
		if err != nil || p.Scheme != "data" && p.Host != origin.Host {
			t.Errorf("the browser asked another origin for %.200s", u)
		}
	}
	consoleMu.Lock()
	for _, m := range console {
		if strings.Contains(m, "Content Security Policy") || strings.HasPrefix(m, "error") || strings.HasPrefix(m, "exception") {
			t.Errorf("console: %.500s", m)
		}
	}
	consoleMu.Unlock()
	t.Logf("the browser test took %s", time.Since(start).Round(time.Millisecond))
}

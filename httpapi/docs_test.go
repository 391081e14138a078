package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/secret"
)

// get makes an unauthenticated GET through h with the given headers.
func get(h http.Handler, target string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

var assetRef = regexp.MustCompile(`(?:src|href)="(docs/assets/[^"]+)"`)

// TestDocsPage checks the /docs page without a browser: no key needed, a
// strict Content-Security-Policy, assets that may be cached for good and
// come gzipped to those that take it, and the redirect from /.
func TestDocsPage(t *testing.T) {
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}})

	rec := get(h, "/docs")
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET /docs: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	csp := map[string]string{}
	for d := range strings.SplitSeq(rec.Header().Get("Content-Security-Policy"), ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		csp[name] = value
	}
	for name, want := range map[string]string{
		"default-src": "'none'", "script-src": "'self'", "style-src": "'self'", "connect-src": "'self'",
		"img-src": "'self' data:", "frame-ancestors": "'none'", "base-uri": "'none'", "form-action": "'none'",
	} {
		if csp[name] != want {
			t.Errorf("CSP %s = %q, want %q", name, csp[name], want)
		}
	}
	if len(csp) != 8 {
		t.Errorf("CSP has other directives: %v", csp)
	}
	if rec.Header().Get("X-Content-Type-Options") != "nosniff" || rec.Header().Get("Cache-Control") != "no-cache" {
		t.Errorf("headers: %v", rec.Header())
	}
	page := rec.Body.String()
	if strings.Contains(page, "<script>") || strings.Contains(page, "<style") || strings.Contains(page, "http") {
		t.Errorf("the page has an inline script or style, or an absolute URL:\n%s", page)
	}
	if !strings.Contains(page, `data-openapi="openapi.json"`) {
		t.Errorf("the page does not load openapi.json:\n%s", page)
	}
	etag := rec.Header().Get("ETag")
	if rec := get(h, "/docs", "If-None-Match", etag); rec.Code != http.StatusNotModified {
		t.Errorf("GET /docs If-None-Match %s: %d", etag, rec.Code)
	}

	refs := assetRef.FindAllStringSubmatch(page, -1)
	if len(refs) != 4 { // the bundle, its stylesheet, docs.js and docs.css
		t.Fatalf("the page loads %d assets, want 4: %q", len(refs), refs)
	}
	for _, ref := range refs {
		target := "/" + ref[1]
		plain := get(h, target)
		if plain.Code != http.StatusOK || plain.Header().Get("Content-Encoding") != "" {
			t.Fatalf("GET %s: %d, encoding %q", target, plain.Code, plain.Header().Get("Content-Encoding"))
		}
		if cc := plain.Header().Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q", target, cc)
		}
		wantType := "text/css; charset=utf-8"
		if strings.HasSuffix(target, ".js") {
			wantType = "text/javascript; charset=utf-8"
		}
		if ct := plain.Header().Get("Content-Type"); ct != wantType || plain.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: Content-Type %q, nosniff %q", target, ct, plain.Header().Get("X-Content-Type-Options"))
		}
		if plain.Header().Get("Vary") != "Accept-Encoding" {
			continue // our own small files are not compressed
		}
		zipped := get(h, target, "Accept-Encoding", "gzip, deflate, br")
		if zipped.Header().Get("Content-Encoding") != "gzip" || zipped.Header().Get("ETag") == plain.Header().Get("ETag") {
			t.Errorf("%s with gzip: encoding %q, ETag %q (plain %q)", target, zipped.Header().Get("Content-Encoding"),
				zipped.Header().Get("ETag"), plain.Header().Get("ETag"))
		}
		zr, err := gzip.NewReader(zipped.Body)
		if err != nil {
			t.Fatal(err)
		}
		inflated, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(inflated, plain.Body.Bytes()) || len(inflated) < 100_000 {
			t.Errorf("%s: the gzipped body (%v) is not the plain one (%d bytes)", target, err, plain.Body.Len())
		}
		if rec := get(h, target, "Accept-Encoding", "gzip", "If-None-Match", zipped.Header().Get("ETag")); rec.Code != http.StatusNotModified {
			t.Errorf("%s revalidated: %d", target, rec.Code)
		}
	}

	for _, tt := range []struct {
		target   string
		code     int
		location string
	}{
		{"/", http.StatusFound, "docs"},
		{"/docs/", http.StatusMovedPermanently, "../docs"},
		{"/docs/assets/0000000000000000/swagger-ui-bundle.js", http.StatusNotFound, ""},
		{"/docs/other", http.StatusNotFound, ""},
	} {
		rec := get(h, tt.target)
		if rec.Code != tt.code || rec.Header().Get("Location") != tt.location {
			t.Errorf("GET %s: %d Location %q, want %d %q", tt.target, rec.Code, rec.Header().Get("Location"), tt.code, tt.location)
		}
		if tt.code == http.StatusNotFound && !strings.Contains(rec.Body.String(), `"NOT_FOUND"`) {
			t.Errorf("GET %s: not the envelope's 404: %s", tt.target, rec.Body)
		}
	}
	if rec := get(h, "/docs/NOTICE.md"); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Apache License") {
		t.Errorf("GET /docs/NOTICE.md: %d %.200s", rec.Code, rec.Body)
	}
}

// TestDocsDisabled checks that Config.DisableDocs leaves /docs, its
// assets and the redirect from / unserved.
func TestDocsDisabled(t *testing.T) {
	on := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}})
	off := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}, DisableDocs: true})
	asset := "/" + assetRef.FindStringSubmatch(get(on, "/docs").Body.String())[1]
	for _, target := range []string{"/", "/docs", "/docs/", "/docs/NOTICE.md", asset} {
		rec := get(off, target)
		if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `"NOT_FOUND"`) {
			t.Errorf("GET %s with DisableDocs: %d %.200s", target, rec.Code, rec.Body)
		}
	}
	if rec := get(off, "/openapi.json"); rec.Code != http.StatusOK {
		t.Errorf("GET /openapi.json with DisableDocs: %d", rec.Code)
	}
}

// TestDocsPageCanTryEveryMethod: the try-it button of the /docs page
// works for every method a route uses (DELETE cancels a job).
func TestDocsPageCanTryEveryMethod(t *testing.T) {
	h := mustNew(t, httpapi.Config{Keys: []secret.String{"k"}})
	var js string
	for _, ref := range assetRef.FindAllStringSubmatch(get(h, "/docs").Body.String(), -1) {
		if strings.HasSuffix(ref[1], "/docs.js") {
			js = get(h, "/"+ref[1]).Body.String()
		}
	}
	m := regexp.MustCompile(`supportedSubmitMethods:\s*\[([^\]]*)\]`).FindStringSubmatch(js)
	if m == nil {
		t.Fatal("docs.js sets no supportedSubmitMethods")
	}
	for _, r := range httpapi.Routes() {
		method, _, _ := strings.Cut(r, " ")
		if !strings.Contains(m[1], `"`+strings.ToLower(method)+`"`) {
			t.Errorf("%s: method %s is not in supportedSubmitMethods [%s]", r, method, m[1])
		}
	}
}

package httpapi

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"io"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

//go:generate go run ./internal/docsgen -out docsui

// docsFiles are the files of the /docs page: Swagger UI's bundle and
// stylesheet (gzipped) and NOTICE.md, vendored by internal/docsgen, and
// our own index.html, docs.js and docs.css.
//
//go:embed docsui/index.html docsui/docs.js docsui/docs.css docsui/NOTICE.md docsui/*.gz
var docsFiles embed.FS

// docsCSP is the Content-Security-Policy of the /docs page. Everything it
// loads comes from this server: the scripts and stylesheets are files
// (no inline script or style element), the OpenAPI document and the
// try-it requests go to 'self', and the only images besides 'self' are
// the data: URIs of Swagger UI's stylesheet (its icons), which load
// nothing from anywhere.
const docsCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// docsAsset is one static file of the page.
type docsAsset struct {
	body        []byte // as embedded; gzip-compressed when plain is set
	plain       func() []byte
	contentType string
	etag        string
}

// docsPage serves GET /docs, its assets under /docs/assets/, and
// /docs/NOTICE.md.
type docsPage struct {
	index  *docsAsset
	notice *docsAsset
	assets map[string]*docsAsset // by path below /docs/assets/
}

// docs is the page, built once for every handler.
var docs = sync.OnceValue(newDocsPage)

// newDocsPage reads the embedded files and renders index.html with the
// asset paths. The embedded files are part of the build: a missing one is
// a broken build, not a configuration, hence the panic.
func newDocsPage() *docsPage {
	p := &docsPage{assets: map[string]*docsAsset{}}
	urls := map[string]string{}
	for _, f := range []struct{ key, file, ctype string }{
		{"JS", "swagger-ui-bundle.js.gz", "text/javascript; charset=utf-8"},
		{"CSS", "swagger-ui.css.gz", "text/css; charset=utf-8"},
		{"PageJS", "docs.js", "text/javascript; charset=utf-8"},
		{"PageCSS", "docs.css", "text/css; charset=utf-8"},
	} {
		a := newDocsAsset(mustRead(f.file), f.ctype, strings.HasSuffix(f.file, ".gz"))
		name := strings.Trim(a.etag, `"`) + "/" + strings.TrimSuffix(f.file, ".gz")
		p.assets[name] = a
		urls[f.key] = "docs/assets/" + name // relative to /docs, so that a path prefix keeps working
	}
	urls["OpenAPI"] = "openapi.json"
	tmpl := template.Must(template.New("index").Parse(string(mustRead("index.html"))))
	var b bytes.Buffer
	if err := tmpl.Execute(&b, urls); err != nil {
		panic("httpapi: rendering the docs page: " + err.Error())
	}
	p.index = newDocsAsset(b.Bytes(), "text/html; charset=utf-8", false)
	p.notice = newDocsAsset(mustRead("NOTICE.md"), "text/markdown; charset=utf-8", false)
	return p
}

func mustRead(name string) []byte {
	b, err := docsFiles.ReadFile(path.Join("docsui", name))
	if err != nil {
		panic("httpapi: the embedded docs page lacks " + name)
	}
	return b
}

func newDocsAsset(body []byte, ctype string, gz bool) *docsAsset {
	sum := sha256.Sum256(body)
	a := &docsAsset{body: body, contentType: ctype, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
	if gz {
		// For the rare client that does not take gzip, inflated once.
		a.plain = sync.OnceValue(func() []byte {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				panic("httpapi: the embedded docs asset is not gzip: " + err.Error())
			}
			b, err := io.ReadAll(zr)
			if err != nil {
				panic("httpapi: the embedded docs asset is not gzip: " + err.Error())
			}
			return b
		})
	}
	return a
}

// serve writes a; http.ServeContent answers If-None-Match from the ETag.
// An asset whose path holds its digest may be cached for a year; the
// others are revalidated on every use.
func (a *docsAsset) serve(w http.ResponseWriter, r *http.Request, immutable bool) {
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("ETag", a.etag)
	if immutable {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	body := a.body
	if a.plain != nil {
		h.Set("Vary", "Accept-Encoding")
		// Every browser sends gzip; a q=0 refusal is not worth a parser.
		if strings.Contains(strings.ToLower(r.Header.Get("Accept-Encoding")), "gzip") {
			h.Set("Content-Encoding", "gzip")
			h.Set("ETag", strings.TrimSuffix(a.etag, `"`)+`-gzip"`) // another representation
		} else {
			body = a.plain()
		}
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// redirect answers with a relative Location, which the client resolves
// against the URL it asked for, so that it holds under a path prefix
// (http.Redirect would make it absolute from the path the handler sees).
func redirect(w http.ResponseWriter, location string, code int) {
	w.Header().Set("Location", location)
	w.WriteHeader(code)
}

// register adds the page's routes to mux; notFound answers an asset path
// that names no asset.
func (p *docsPage) register(mux *http.ServeMux, notFound http.HandlerFunc) {
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		setPattern(r.Context(), "GET /{$}")
		redirect(w, "docs", http.StatusFound)
	})
	mux.HandleFunc("GET /docs/{$}", func(w http.ResponseWriter, r *http.Request) {
		setPattern(r.Context(), "GET /docs/{$}")
		redirect(w, "../docs", http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET /docs", func(w http.ResponseWriter, r *http.Request) {
		setPattern(r.Context(), "GET /docs")
		h := w.Header()
		h.Set("Content-Security-Policy", docsCSP)
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		p.index.serve(w, r, false)
	})
	mux.HandleFunc("GET /docs/NOTICE.md", func(w http.ResponseWriter, r *http.Request) {
		setPattern(r.Context(), "GET /docs/NOTICE.md")
		p.notice.serve(w, r, false)
	})
	mux.HandleFunc("GET /docs/assets/{digest}/{name}", func(w http.ResponseWriter, r *http.Request) {
		setPattern(r.Context(), "GET /docs/assets/{digest}/{name}")
		a := p.assets[r.PathValue("digest")+"/"+r.PathValue("name")]
		if a == nil {
			notFound(w, r)
			return
		}
		a.serve(w, r, true)
	})
}

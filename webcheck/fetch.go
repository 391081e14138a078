package webcheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/quiverkit/quiver/internal/textcut"
)

// RedirectHop is one step of a redirect chain.
type RedirectHop struct {
	// URL is the URL requested at this step.
	URL string `json:"url"`
	// StatusCode is the status it answered (200 for a meta refresh).
	StatusCode int `json:"status_code"`
	// Location is where it sent the client, resolved against URL.
	Location string `json:"location"`
	// Kind is "http" for a 3xx Location, "meta_refresh" for an HTML meta
	// refresh.
	Kind string `json:"kind"`
}

// errTooManyRedirects ends a chain longer than allowed.
var errTooManyRedirects = errors.New("too many redirects")

// fetched is the outcome of [Checker.follow].
type fetched struct {
	resp  *http.Response // the last response, body open; nil on error
	final *url.URL       // the last URL requested
	hops  []RedirectHop
}

// follow sends a GET to u and follows up to max redirects itself, each hop
// through the safe client (so each is checked). The whole chain, the final
// body included, is bounded by the Checker's timeout. On
// errTooManyRedirects and on a refused hop, the hops so far are returned
// with the error.
func (c *Checker) follow(ctx context.Context, u *url.URL, max int) (fetched, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	f, err := c.followHops(ctx, u, max)
	if f.resp == nil {
		cancel()
		return f, err
	}
	f.resp.Body = &cancelOnClose{ReadCloser: f.resp.Body, cancel: cancel}
	return f, err
}

// cancelOnClose releases the chain's timer when the body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

func (c *Checker) followHops(ctx context.Context, u *url.URL, max int) (fetched, error) {
	f := fetched{final: u}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.final.String(), nil)
		if err != nil {
			return f, err
		}
		resp, err := c.client.RoundTrip(req)
		if err != nil {
			return f, err
		}
		loc := resp.Header.Get("Location")
		if resp.StatusCode < 300 || resp.StatusCode > 399 || loc == "" || resp.StatusCode == http.StatusNotModified {
			f.resp = resp
			return f, nil
		}
		resp.Body.Close()
		next, err := resolveRef(f.final, loc)
		if err != nil {
			return f, fmt.Errorf("bad Location %q: %w", textcut.Mark(loc, 100, "..."), err)
		}
		f.hops = append(f.hops, RedirectHop{URL: f.final.String(), StatusCode: resp.StatusCode, Location: next.String(), Kind: "http"})
		if len(f.hops) > max {
			return f, fmt.Errorf("%w: more than %d", errTooManyRedirects, max)
		}
		if err := c.client.CheckURL(next); err != nil {
			return f, err
		}
		f.final = next
	}
}

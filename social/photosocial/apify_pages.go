package photosocial

// The paged queries of the Apify provider: one actor run per query, pages
// read from the run's default dataset, and the sealed cursor that
// carries the dataset from page to page.
//
// The Apify API v2 shapes used here (https://docs.apify.com/api/v2):
//   - POST /v2/acts/{actorId}/runs?timeout=&waitForFinish= starts a run
//     and answers 201 with {"data": <run>} (docs.apify.com/api/v2/act-runs-post);
//   - GET /v2/actor-runs/{runId}?waitForFinish= answers {"data": <run>};
//     waitForFinish is at most 60 s (docs.apify.com/api/v2/actor-run-get);
//   - a run has id, status (READY, RUNNING, SUCCEEDED, FAILED, TIMING-OUT,
//     TIMED-OUT, ABORTING, ABORTED) and defaultDatasetId;
//   - GET /v2/datasets/{datasetId}/items?offset=&limit= answers a JSON
//     array of items, with X-Apify-Pagination-Offset, -Limit, -Count and
//     -Total headers (docs.apify.com/api/v2/dataset-items-get);
//   - errors are {"error": {"type", "message"}}; a dataset that is gone is
//     404 with type record-not-found (docs.apify.com/api/v2#errors).

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/textcut"
	"github.com/quiverkit/quiver/internal/upstream"
)

// Bounds of the paged queries.
const (
	// apifyMaxWait is the longest waitForFinish Apify honours, in seconds.
	apifyMaxWait = 60
	// apifyMaxPolls bounds the requests asking for a run's end, so that
	// an API answering "RUNNING" at once cannot keep the provider busy.
	apifyMaxPolls = 8
	// maxCursorOffset bounds the offset and skip of a cursor: a run holds
	// at most maxApifyRunItems items (and a comment its replies).
	maxCursorOffset = 100_000
)

// apifyIDRE matches the run and dataset IDs the provider accepts from
// Apify and puts in a cursor (Apify's IDs are 17 alphanumerics).
var apifyIDRE = regexp.MustCompile(`^[A-Za-z0-9]{1,64}$`)

// errDatasetGone marks a dataset Apify no longer has (404 record-not-found).
var errDatasetGone = errors.New("it answered 404 record-not-found")

// cursorKey seals the provider's cursors. A cursor carries the ID of a
// run's dataset, and Apify lets anyone who knows a dataset's ID read it
// when the account's storages are not restricted: so the cursor is
// encrypted, not only signed, and bound to its query.
type cursorKey struct {
	aead     cipher.AEAD
	nonceKey []byte
}

// newCursorKey derives the cursor keys from the token: cursors then hold
// across restarts and across replicas with the same token, and stop
// opening when the token changes.
func newCursorKey(token string) cursorKey {
	derive := func(label string) []byte {
		m := hmac.New(sha256.New, []byte(token))
		m.Write([]byte(label))
		return m.Sum(nil)
	}
	block, err := aes.NewCipher(derive("quiver photosocial apify cursor v2: encryption"))
	if err != nil { // a 32-byte key is always valid
		panic(err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return cursorKey{aead: aead, nonceKey: derive("quiver photosocial apify cursor v2: nonce")}
}

// apifyCursor is where a page starts: an item of a dataset, and how many
// of the outputs of that item (a comment and its replies) were returned.
type apifyCursor struct {
	dataset      string
	offset, skip int
}

// cursorPrefix starts every cursor of the provider.
const cursorPrefix = "apify."

// maxApifyCursorLen bounds a cursor before it is decoded: a 64-byte
// dataset ID and two offsets sealed are far shorter.
const maxApifyCursorLen = 256

// encode seals c for the query scope (AES-GCM, the scope as associated
// data). The nonce is derived from the scope and the cursor, so that one
// place of one query always has one cursor: encode is deterministic and
// decode can insist on the canonical form.
func (k cursorKey) encode(scope string, c apifyCursor) string {
	plain := fmt.Appendf(nil, "%s:%d:%d", c.dataset, c.offset, c.skip)
	m := hmac.New(sha256.New, k.nonceKey)
	m.Write([]byte(scope))
	m.Write([]byte{0})
	m.Write(plain)
	nonce := m.Sum(nil)[:k.aead.NonceSize()]
	sealed := k.aead.Seal(nonce, nonce, plain, []byte(scope))
	return cursorPrefix + base64.RawURLEncoding.EncodeToString(sealed)
}

// decode opens a cursor sealed for the query scope. Only the canonical
// form that encode writes is accepted.
func (k cursorKey) decode(scope, s string) (apifyCursor, error) {
	bad := envelope.Invalid("cursor", "must be a next_cursor that this provider returned for the same query")
	rest, ok := strings.CutPrefix(s, cursorPrefix)
	if !ok || len(s) > maxApifyCursorLen {
		return apifyCursor{}, bad
	}
	sealed, err := base64.RawURLEncoding.Strict().DecodeString(rest)
	ns := k.aead.NonceSize()
	if err != nil || len(sealed) < ns+k.aead.Overhead() {
		return apifyCursor{}, bad
	}
	plain, err := k.aead.Open(nil, sealed[:ns], sealed[ns:], []byte(scope))
	if err != nil {
		return apifyCursor{}, bad
	}
	parts := strings.Split(string(plain), ":")
	if len(parts) != 3 || !apifyIDRE.MatchString(parts[0]) {
		return apifyCursor{}, bad
	}
	c := apifyCursor{dataset: parts[0]}
	var ok1, ok2 bool
	c.offset, ok1 = cursorNumber(parts[1])
	c.skip, ok2 = cursorNumber(parts[2])
	// Canonical: the nonce must be the derived one, and the encoding the
	// one encode writes (a base64 decoder would take other forms).
	if !ok1 || !ok2 || subtle.ConstantTimeCompare([]byte(k.encode(scope, c)), []byte(s)) != 1 {
		return apifyCursor{}, bad
	}
	return c, nil
}

// cursorNumber parses a canonical decimal up to maxCursorOffset.
func cursorNumber(s string) (int, bool) {
	if s == "" || len(s) > 6 || (len(s) > 1 && s[0] == '0') || !allDigits(s) {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n <= maxCursorOffset
}

// apifyPage is what a paged query read: the raw items from at.offset on,
// and the dataset's size.
type apifyPage struct {
	scope string
	at    apifyCursor
	items []json.RawMessage
	// total is X-Apify-Pagination-Total; -1 when Apify did not say.
	total int
	// asked is the limit of the dataset read.
	asked int
	// notes say that the dataset had expired and the actor ran again.
	notes []string
}

// page reads the items of a page of a paged query: from the dataset of
// the cursor, or from a new run's for a first page or an expired dataset.
// It returns errNoItems for a private or empty target's first page.
func (a *Apify) page(ctx context.Context, scope string, in apifyInput, cursor string, limit int, what string) (apifyPage, error) {
	p := apifyPage{scope: scope, asked: limit}
	switch {
	case in.Search != "":
		in.SearchLimit = min(max(a.runItems, limit), apifyMaxSearchResults)
	case in.ResultsType == "comments":
		in.ResultsLimit = min(max(a.runItems, limit), apifyMaxComments)
	default:
		in.ResultsLimit = max(a.runItems, limit)
	}
	var err error
	if cursor == "" {
		if p.at.dataset, err = a.start(ctx, in, what); err != nil {
			return p, err
		}
	} else if p.at, err = a.cursors.decode(scope, cursor); err != nil {
		return p, err
	}
	p.items, p.total, err = a.read(ctx, p.at, limit)
	if errors.Is(err, errDatasetGone) && cursor != "" {
		if p.at.dataset, err = a.start(ctx, in, what); err != nil {
			return p, err
		}
		p.notes = append(p.notes, "the Apify dataset of this query had expired: the actor ran again, so this page may repeat or miss items")
		p.items, p.total, err = a.read(ctx, p.at, limit)
	}
	if err != nil {
		return p, err
	}
	if len(p.items) > limit {
		p.items = p.items[:limit] // Apify sent more than asked
	}
	// The actor's error items (not_found, no_items) come first.
	if _, err := screen(p.items, what); err != nil && (p.at.offset == 0 || !errors.Is(err, errNoItems)) {
		return p, err
	}
	return p, nil
}

// check refuses a page whose every item is of an unexpected shape: the
// actor's output has changed, and empty pages would hide it.
func (p apifyPage) check(bad int) error {
	if bad > 0 && bad == len(p.items) {
		return envelope.Errorf(envelope.CodeUpstreamError, "the Apify actor sent %d item(s) of an unexpected shape and nothing else", bad)
	}
	return nil
}

// cut takes up to limit outputs of the page's item groups (one group per
// dataset item, skipping what the cursor says was returned) and returns
// them with the cursor of what follows, "" when nothing does.
func cut[T any](p apifyPage, a *Apify, groups [][]T, limit int) ([]T, string) {
	var out []T
	used, skip := len(groups), 0
outer:
	for i, g := range groups {
		start := 0
		if i == 0 {
			start = min(p.at.skip, len(g))
		}
		for j := start; j < len(g); j++ {
			if len(out) == limit {
				used, skip = i, j
				break outer
			}
			out = append(out, g[j])
		}
	}
	next := apifyCursor{dataset: p.at.dataset, offset: p.at.offset + used, skip: skip}
	more := used < len(groups) || (p.total >= 0 && next.offset < p.total) || (p.total < 0 && len(groups) >= p.asked)
	if !more || next.offset > maxCursorOffset || next.skip > maxCursorOffset || (used == 0 && skip <= p.at.skip) {
		return out, ""
	}
	return out, a.cursors.encode(p.scope, next)
}

// decodeGroups decodes each item and turns it into its outputs; an item
// that does not decode gives none and is counted as bad.
func decodeGroups[I, T any](items []json.RawMessage, outputs func(I) []T) (groups [][]T, bad int) {
	groups = make([][]T, len(items))
	for i, it := range items {
		if errorItem(it) != "" {
			continue
		}
		var v I
		if err := json.Unmarshal(it, &v); err != nil {
			bad++
			continue
		}
		groups[i] = outputs(v)
	}
	return groups, bad
}

// badItemsNote says that items of an unexpected shape were left out.
func badItemsNote(n int) string {
	return fmt.Sprintf("the Apify actor sent %d item(s) of an unexpected shape; they are left out", n)
}

// logNotes logs the notes of a page that has no place for them.
func (a *Apify) logNotes(ctx context.Context, notes []string, bad int, what string) {
	if bad > 0 {
		notes = append(notes, badItemsNote(bad))
	}
	for _, n := range notes {
		a.log.LogAttrs(ctx, slog.LevelWarn, "photosocial: "+n, slog.String("provider", "apify"), slog.String("query", what))
	}
}

// apifyRun is the run object of the Apify API ({"data": run}).
type apifyRun struct {
	Data struct {
		ID               string `json:"id"`
		Status           string `json:"status"`
		DefaultDatasetID string `json:"defaultDatasetId"`
	} `json:"data"`
}

// start runs the actor and waits for the run's end, within the
// provider's timeout; it returns the run's default dataset.
func (a *Apify) start(ctx context.Context, in apifyInput, what string) (string, error) {
	deadline := time.Now().Add(a.timeout)
	var run apifyRun
	err := a.up.Send(ctx, upstream.Request{
		Method: http.MethodPost,
		Path:   "/v2/acts/" + url.PathEscape(a.actor) + "/runs",
		Query: url.Values{
			"timeout":       {strconv.Itoa(max(int(a.timeout/time.Second), 1))},
			"waitForFinish": {strconv.Itoa(min(max(int(a.timeout/time.Second), 1), apifyMaxWait))},
			// Pay-per-result actors charge no more than this many items.
			"maxItems": {strconv.Itoa(max(in.ResultsLimit, in.SearchLimit))},
		},
		Body:     in,
		Classify: a.classify,
	}, &run)
	for polls := 0; err == nil; polls++ {
		d := run.Data
		if !apifyIDRE.MatchString(d.ID) {
			return "", envelope.Errorf(envelope.CodeUpstreamError, "the Apify API answered a run without a valid ID")
		}
		switch d.Status {
		case "SUCCEEDED":
			if !apifyIDRE.MatchString(d.DefaultDatasetID) {
				return "", envelope.Errorf(envelope.CodeUpstreamError, "the Apify API answered a run without a valid defaultDatasetId")
			}
			return d.DefaultDatasetID, nil
		case "FAILED":
			return "", envelope.Errorf(envelope.CodeUpstreamError, "the Apify actor run for %s failed (status FAILED)", what)
		case "ABORTED":
			return "", envelope.Errorf(envelope.CodeUpstreamError, "the Apify actor run for %s was aborted (status ABORTED)", what)
		case "TIMED-OUT":
			return "", envelope.Errorf(envelope.CodeUpstreamTimeout, "the Apify actor run for %s did not finish within %s (status TIMED-OUT)", what, a.timeout)
		case "READY", "RUNNING", "TIMING-OUT", "ABORTING":
		default:
			return "", envelope.Errorf(envelope.CodeUpstreamError, "the Apify API answered a run of unknown status %q", textcut.OneLine(d.Status, 40, "..."))
		}
		if polls >= apifyMaxPolls || !time.Now().Before(deadline) {
			return "", envelope.Errorf(envelope.CodeUpstreamTimeout, "the Apify actor run for %s did not finish within %s (status %s)", what, a.timeout, d.Status)
		}
		err = a.up.Send(ctx, upstream.Request{
			Path:  "/v2/actor-runs/" + url.PathEscape(d.ID),
			Query: url.Values{"waitForFinish": {strconv.Itoa(waitSeconds(deadline))}},
			Classify: func(status int, body []byte) error {
				if status == http.StatusNotFound {
					return envelope.Errorf(envelope.CodeUpstreamError, "the Apify API no longer knows the actor run for %s", what)
				}
				return a.classify(status, body)
			},
		}, &run)
	}
	return "", err
}

// waitSeconds is the waitForFinish of a request: what is left until the
// deadline, at least 1 s and at most the 60 s Apify honours.
func waitSeconds(deadline time.Time) int {
	return int(min(max(math.Ceil(time.Until(deadline).Seconds()), 1), apifyMaxWait))
}

// read reads limit items from a dataset at the cursor, with the dataset's size
// (-1 when Apify does not say). Hidden fields ("#debug") are skipped, but
// empty items are not (clean=true would): they keep the offsets of the
// items and of the cursors in step.
func (a *Apify) read(ctx context.Context, at apifyCursor, limit int) ([]json.RawMessage, int, error) {
	var items []json.RawMessage
	var h http.Header
	err := a.up.Send(ctx, upstream.Request{
		Path:   "/v2/datasets/" + url.PathEscape(at.dataset) + "/items",
		Query:  url.Values{"format": {"json"}, "skipHidden": {"true"}, "offset": {strconv.Itoa(at.offset)}, "limit": {strconv.Itoa(limit)}},
		Header: &h,
		Classify: func(status int, body []byte) error {
			if status == http.StatusNotFound {
				return envelope.Wrap(envelope.CodeUpstreamError, errDatasetGone, "the Apify dataset of this query has expired")
			}
			return a.classify(status, body)
		},
	}, &items)
	if err != nil {
		return nil, 0, err
	}
	total := -1
	if n, err := strconv.Atoi(h.Get("X-Apify-Pagination-Total")); err == nil && n >= 0 {
		total = n
	}
	return items, total, nil
}

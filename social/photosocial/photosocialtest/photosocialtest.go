// Package photosocialtest runs loopback servers that speak the wire
// protocols of the photo-sharing providers (the Instagram Graph API and
// the Apify Instagram scraper), replaying fixtures, in the spirit of
// net/http/httptest: for the tests of package photosocial and of the HTTP
// API, and for users' own tests and programs.
//
//	srv, err := photosocialtest.NewGraph("test-token")
//	if err != nil { ... }
//	defer srv.Close()
//	g, err := photosocial.NewGraph(photosocial.GraphConfig{Token: "test-token", UserID: photosocialtest.GraphUserID, BaseURL: srv.URL})
//
// In a test, StartGraph(t, "test-token") does the same, failing the test
// when the server cannot start and closing it when the test ends;
// StartApify is NewApify's twin.
//
// The fixtures (fixtures/graph, fixtures/apify) are our own content,
// shaped after the providers' published response formats: a fictional
// business account @northwind.coffee ([Username]) with two pages of media,
// comments, a hashtag, and the providers' error forms.
package photosocialtest

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quiverkit/quiver/internal/replay"
)

//go:embed fixtures
var fixtures embed.FS

// Identifiers in the fixtures.
const (
	// Username is the business account with a profile and media.
	Username = "northwind.coffee"
	// GraphUserID is the app user's IG user ID the Graph server expects
	// as GraphConfig.UserID (any ID is served the same way).
	GraphUserID = "17841405309211844"
	// PrivateUser is a private account (Apify: no items).
	PrivateUser = "quiet.person"
	// MissingUser is an account that does not exist.
	MissingUser = "no.such.user"
	// Shortcode is a carousel post of Username with comments (Apify).
	Shortcode = "DAreBwfYYAA"
	// Hashtag is a hashtag with media.
	Hashtag = "coffee"
	// GraphThrottledUser is an account whose business discovery the Graph
	// server answers with business use case throttling (code 80002) and an
	// X-Business-Use-Case-Usage header asking to wait
	// [GraphRegainAccessMinutes] minutes.
	GraphThrottledUser = "busy.roastery"
	// GraphRegainAccessMinutes is the estimated_time_to_regain_access of
	// the throttled answer.
	GraphRegainAccessMinutes = 7
	// graphSecondPage is the media cursor of the Graph fixtures' page 2.
	graphSecondPage = "QVFIUkNhbmV4dF9wYWdlX2N1cnNvcg"
	// GraphAPIVersion is the Graph API version whose reference the Graph
	// fixtures follow (fixtures/graph/SOURCES.md names the pages read).
	// The Graph server answers requests of any version.
	GraphAPIVersion = "v25.0"
	// graphThumbnailSince is the first major version whose IG Media
	// reference marks thumbnail_url Public, and so readable through
	// business discovery.
	graphThumbnailSince = 18
)

// Server is a loopback provider server. Its URL is the provider's base
// URL; Close shuts it down. A request without the token the server was
// started with is refused as the provider refuses a bad token.
type Server struct {
	*httptest.Server
	h     *replay.Handler
	apify *apifyState // nil on a Graph server
}

// Requests returns the requests served so far as "path?query".
func (s *Server) Requests() []string { return s.h.Requests() }

// Respond makes requests whose path starts with prefix answer status with
// header and body instead of the fixture, the longest matching prefix
// winning: a way to replay rate limits and failures.
func (s *Server) Respond(prefix string, status int, header http.Header, body string) {
	s.h.Respond(prefix, status, header, body)
}

// Delay makes requests whose path starts with prefix wait d (or until the
// client gives up) before answering.
func (s *Server) Delay(prefix string, d time.Duration) { s.h.Delay(prefix, d) }

func newServer(token string, refusal replay.Refusal, route replay.Route) (*Server, error) {
	files, err := fs.Sub(fixtures, "fixtures")
	if err != nil {
		panic(err) // the embedded directory is there
	}
	auth := func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer "+token }
	h := replay.New(files, auth, refusal, route)
	hs, err := replay.Serve(h)
	if err != nil {
		return nil, fmt.Errorf("photosocialtest: %w", err)
	}
	return &Server{Server: hs, h: h}, nil
}

// StartGraph is [NewGraph] for a test or benchmark: it fails tb (with
// Fatal) when the server cannot start, and closes the server when tb and
// its subtests end (tb.Cleanup).
func StartGraph(tb testing.TB, token string) *Server {
	tb.Helper()
	s, err := NewGraph(token)
	return replay.Started(tb, s, err)
}

// StartApify is [NewApify] for a test or benchmark: it fails tb (with
// Fatal) when the server cannot start, and closes the server when tb and
// its subtests end (tb.Cleanup).
func StartApify(tb testing.TB, token string) *Server {
	tb.Helper()
	s, err := NewApify(token)
	return replay.Started(tb, s, err)
}

// NewGraph starts a loopback Instagram Graph API that accepts the access
// token in the Authorization header. Use its URL as GraphConfig.BaseURL;
// paths may carry a version prefix ("/v25.0"). It serves business
// discovery of [Username] (profile and two pages of media; any other
// account is the Graph API's not-found error), comments of any media,
// and the hashtag search and media of any hashtag, in the shapes of
// [GraphAPIVersion]. Media carry thumbnail_url only when it is asked for.
// As versions before v18.0 did, it refuses thumbnail_url inside business
// discovery media of such a version ("/v14.0") with a code 100 error;
// it answers business discovery of [GraphThrottledUser] with
// throttling. It returns an error when no loopback port is free. The
// caller must Close the server.
func NewGraph(token string) (*Server, error) {
	return newServer(token, replay.Refusal{Status: http.StatusBadRequest, Fixture: "graph/error_token.json"}, func(w http.ResponseWriter, r *http.Request, _ []byte) (string, int) {
		p, fields := r.URL.Path, r.URL.Query().Get("fields")
		if major, ok := graphVersion(p); ok && major < graphThumbnailSince &&
			strings.HasPrefix(fields, "business_discovery.") && strings.Contains(fields, "thumbnail_url") {
			return "graph/error_unsupported_field.json", http.StatusBadRequest
		}
		switch {
		case strings.HasSuffix(p, "/ig_hashtag_search"):
			return "graph/hashtag_search.json", 200
		case strings.HasSuffix(p, "/top_media"), strings.HasSuffix(p, "/recent_media"):
			return "graph/hashtag_top_media.json", 200
		case strings.HasSuffix(p, "/comments"):
			return "graph/comments.json", 200
		case strings.HasPrefix(fields, "business_discovery.username("+GraphThrottledUser+")"):
			w.Header().Set("X-Business-Use-Case-Usage", fmt.Sprintf(
				`{"%s":[{"type":"instagram","call_count":100,"total_cputime":9,"total_time":14,"estimated_time_to_regain_access":%d}]}`,
				GraphUserID, GraphRegainAccessMinutes))
			return "graph/error_throttled.json", http.StatusBadRequest
		case strings.HasPrefix(fields, "business_discovery.username("+Username+")"):
			switch {
			case strings.Contains(fields, "media.after("+graphSecondPage+")"):
				return graphMedia(w, "graph/media_page2.json", fields)
			case strings.Contains(fields, "media."):
				return graphMedia(w, "graph/media_page1.json", fields)
			}
			return "graph/profile.json", 200
		case strings.HasPrefix(fields, "business_discovery."):
			return "graph/error_user_not_found.json", http.StatusBadRequest
		}
		return "", 0
	})
}

// graphVersion returns the major version of a path's version prefix
// ("/v25.0/..." is 25); ok is false without one.
func graphVersion(path string) (major int, ok bool) {
	seg, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	v, _, found := strings.Cut(strings.TrimPrefix(seg, "v"), ".")
	if !found || !strings.HasPrefix(seg, "v") {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	return n, err == nil
}

// graphMedia answers a page of business discovery media, without the
// thumbnail_url of its media when fields does not ask for it.
func graphMedia(w http.ResponseWriter, name, fields string) (string, int) {
	if strings.Contains(fields, "thumbnail_url") {
		return name, http.StatusOK
	}
	b, err := fs.ReadFile(fixtures, "fixtures/"+name)
	if err != nil {
		panic(err) // the embedded fixture is there
	}
	var page any
	if err := json.Unmarshal(b, &page); err != nil {
		panic(err)
	}
	dropKey(page, "thumbnail_url")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	json.NewEncoder(w).Encode(page)
	return replay.Written, 0
}

// dropKey removes key from every object in v.
func dropKey(v any, key string) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, key)
		for _, x := range v {
			dropKey(x, key)
		}
	case []any:
		for _, x := range v {
			dropKey(x, key)
		}
	}
}

// NewApify starts a loopback Apify API that accepts the token in the
// Authorization header. Use its URL as ApifyConfig.BaseURL. It picks the
// actor's answer by the input's resultsType: details of [Username]
// ([PrivateUser] is private, [MissingUser] not found), posts, reels,
// comments, and user or hashtag search. It serves
//   - run-sync-get-dataset-items of any actor, answering the items;
//   - POST /v2/acts/{actor}/runs, which starts a run that has SUCCEEDED by
//     the first answer with waitForFinish (or the first poll), with the
//     items in its default dataset; the runs of [SlowRunHashtag],
//     [FailedRunHashtag], [AbortedRunHashtag] and [TimedOutRunHashtag]
//     take one poll, fail, are aborted or time out;
//   - GET /v2/actor-runs/{id} (waitForFinish is not waited for);
//   - GET /v2/datasets/{id}/items with offset and limit and the
//     X-Apify-Pagination headers; a dataset dropped by
//     [Server.ExpireDatasets] is 404 record-not-found.
//
// It returns an error when no loopback port is free. The caller must
// Close the server.
func NewApify(token string) (*Server, error) {
	st := &apifyState{runs: map[string]*apifyRun{}, datasets: map[string]string{}}
	srv, err := newServer(token, replay.Refusal{Status: http.StatusUnauthorized, Fixture: "apify/error_token.json"}, func(w http.ResponseWriter, r *http.Request, body []byte) (string, int) {
		p := r.URL.Path
		switch {
		case r.Method == http.MethodPost && strings.HasSuffix(p, "/run-sync-get-dataset-items"):
			return apifyItems(body)
		case r.Method == http.MethodPost && strings.HasPrefix(p, "/v2/acts/") && strings.HasSuffix(p, "/runs"):
			return st.start(w, r, body)
		case r.Method == http.MethodGet && strings.HasPrefix(p, "/v2/actor-runs/"):
			return st.poll(w, strings.TrimPrefix(p, "/v2/actor-runs/"))
		case r.Method == http.MethodGet && strings.HasPrefix(p, "/v2/datasets/") && strings.HasSuffix(p, "/items"):
			return st.items(w, r, strings.TrimSuffix(strings.TrimPrefix(p, "/v2/datasets/"), "/items"))
		}
		return "", 0
	})
	if err != nil {
		return nil, err
	}
	srv.apify = st
	return srv, nil
}

// Hashtags whose actor runs on an Apify server end otherwise than well.
const (
	// SlowRunHashtag's run is still RUNNING when started; it has
	// SUCCEEDED by the first poll.
	SlowRunHashtag = "slow_roast"
	// FailedRunHashtag's run ends FAILED.
	FailedRunHashtag = "failed_roast"
	// AbortedRunHashtag's run ends ABORTED.
	AbortedRunHashtag = "aborted_roast"
	// TimedOutRunHashtag's run ends TIMED-OUT.
	TimedOutRunHashtag = "timed_out_roast"
)

// ExpireDatasets drops the datasets of the runs an Apify server has
// served, as Apify deletes unnamed datasets after their retention period:
// reading one is then 404 record-not-found. It does nothing on a Graph
// server.
func (s *Server) ExpireDatasets() {
	if s.apify == nil {
		return
	}
	s.apify.mu.Lock()
	defer s.apify.mu.Unlock()
	clear(s.apify.datasets)
}

// apifyInput is the part of the actor input the Apify server reads.
type apifyInput struct {
	DirectURLs  []string `json:"directUrls"`
	ResultsType string   `json:"resultsType"`
	SearchType  string   `json:"searchType"`
	Search      string   `json:"search"`
}

// apifyItems picks the dataset items of an actor input.
func apifyItems(body []byte) (string, int) {
	var in apifyInput
	if json.Unmarshal(body, &in) != nil {
		return "apify/error_actor.json", http.StatusBadRequest
	}
	target := strings.Join(in.DirectURLs, " ")
	switch {
	case in.Search != "" && in.SearchType == "hashtag":
		return "apify/search_hashtag.json", 200
	case in.Search != "":
		return "apify/search_user.json", 200
	case strings.Contains(target, MissingUser):
		return "apify/not_found.json", 200
	case strings.Contains(target, PrivateUser) && in.ResultsType == "details":
		return "apify/details_private.json", 200
	case strings.Contains(target, PrivateUser):
		return "apify/no_items.json", 200
	}
	switch in.ResultsType {
	case "details":
		return "apify/details.json", 200
	case "reels":
		return "apify/reels.json", 200
	case "comments":
		return "apify/comments.json", 200
	}
	return "apify/posts.json", 200
}

// apifyState holds the runs and datasets of an Apify server.
type apifyState struct {
	mu       sync.Mutex
	n        int
	runs     map[string]*apifyRun
	datasets map[string]string // ID: fixture of the items
}

type apifyRun struct {
	status  string // the status at the next answer
	final   string // the status after a poll
	dataset string
}

// start starts a run: its dataset holds the input's items.
func (st *apifyState) start(w http.ResponseWriter, r *http.Request, body []byte) (string, int) {
	items, status := apifyItems(body)
	if status != 200 {
		return items, status
	}
	st.mu.Lock()
	st.n++
	run := &apifyRun{status: "SUCCEEDED", dataset: fmt.Sprintf("nwDataset%08d", st.n)}
	id := fmt.Sprintf("nwRun%012d", st.n)
	st.runs[id] = run
	st.datasets[run.dataset] = items
	target, end := string(body), "SUCCEEDED"
	for tag, e := range map[string]string{FailedRunHashtag: "FAILED", AbortedRunHashtag: "ABORTED", TimedOutRunHashtag: "TIMED-OUT"} {
		if strings.Contains(target, "/tags/"+tag+"/") {
			end = e
		}
	}
	wait, _ := strconv.Atoi(r.URL.Query().Get("waitForFinish"))
	run.status, run.final = end, end
	if wait <= 0 || strings.Contains(target, "/tags/"+SlowRunHashtag+"/") {
		run.status = "RUNNING"
	}
	st.mu.Unlock()
	return writeRun(w, http.StatusCreated, id, run)
}

// poll answers a run; a running run has ended by then.
func (st *apifyState) poll(w http.ResponseWriter, id string) (string, int) {
	st.mu.Lock()
	run, ok := st.runs[id]
	if ok && run.final != "" {
		run.status = run.final
	}
	st.mu.Unlock()
	if !ok {
		return "apify/error_run_missing.json", http.StatusNotFound
	}
	return writeRun(w, http.StatusOK, id, run)
}

// writeRun answers the run object of run.json with the run's ID, status
// and dataset.
func writeRun(w http.ResponseWriter, status int, id string, run *apifyRun) (string, int) {
	b, _ := fs.ReadFile(fixtures, "fixtures/apify/run.json")
	var obj map[string]map[string]any
	if err := json.Unmarshal(b, &obj); err != nil {
		panic(err) // the embedded fixture is valid JSON
	}
	obj["data"]["id"], obj["data"]["status"], obj["data"]["defaultDatasetId"] = id, run.status, run.dataset
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Location", "/v2/actor-runs/"+id)
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(obj)
	return replay.Written, 0
}

// items answers a page of a dataset.
func (st *apifyState) items(w http.ResponseWriter, r *http.Request, id string) (string, int) {
	st.mu.Lock()
	name, ok := st.datasets[id]
	st.mu.Unlock()
	if !ok {
		return "apify/error_dataset_gone.json", http.StatusNotFound
	}
	b, _ := fs.ReadFile(fixtures, "fixtures/"+name)
	var all []json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		panic(err) // the embedded fixtures are valid JSON
	}
	q := r.URL.Query()
	offset, _ := strconv.Atoi(q.Get("offset"))
	limit, err := strconv.Atoi(q.Get("limit"))
	if err != nil || limit <= 0 {
		limit = len(all) // no limit by default
	}
	offset = min(max(offset, 0), len(all))
	page := all[offset:min(offset+limit, len(all))]
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Apify-Pagination-Offset", strconv.Itoa(offset))
	h.Set("X-Apify-Pagination-Limit", strconv.Itoa(limit))
	h.Set("X-Apify-Pagination-Count", strconv.Itoa(len(page)))
	h.Set("X-Apify-Pagination-Total", strconv.Itoa(len(all)))
	w.WriteHeader(http.StatusOK)
	if page == nil {
		page = []json.RawMessage{}
	}
	json.NewEncoder(w).Encode(page)
	return replay.Written, 0
}

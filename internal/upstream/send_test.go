package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/quiverkit/quiver/envelope"
)

func TestSendPostsJSON(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in map[string]int
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&in) != nil || in["n"] != 3 {
			t.Errorf("got %s %s %v", r.Method, r.Header.Get("Content-Type"), in)
		}
		w.Write([]byte(`[1,2,3]`))
	}))
	defer srv.Close()
	c := &Client{Name: "p", BaseURL: srv.URL}
	var out []int
	if err := c.Send(context.Background(), Request{Method: http.MethodPost, Path: "/run", Body: map[string]int{"n": 3}}, &out); err != nil || len(out) != 3 {
		t.Fatalf("Send = %v, %v", out, err)
	}
}

func TestSendClassify(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "12")
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error":{"code":` + r.URL.Query().Get("code") + `}}`))
	}))
	defer srv.Close()
	c := &Client{Name: "p", BaseURL: srv.URL}
	classify := func(status int, body []byte) error {
		var e struct {
			Error struct{ Code int } `json:"error"`
		}
		json.Unmarshal(body, &e)
		if e.Error.Code == 4 {
			return envelope.Errorf(envelope.CodeRateLimitExceeded, "limited")
		}
		return nil
	}
	var v any
	err := c.Send(context.Background(), Request{Path: "/x", Query: map[string][]string{"code": {"4"}}, Classify: classify}, &v)
	var e *envelope.Error
	if !errors.As(err, &e) || e.Code != envelope.CodeRateLimitExceeded || e.RetryAfter != 12*time.Second {
		t.Errorf("classified: %v (%+v)", err, e)
	}
	err = c.Send(context.Background(), Request{Path: "/x", Query: map[string][]string{"code": {"1"}}, Classify: classify}, &v)
	if !errors.As(err, &e) || e.Code != envelope.CodeUpstreamError {
		t.Errorf("fallback: %v", err)
	}
}

// Request.Header receives the headers of a 2xx answer.
func TestSendHeader(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Apify-Pagination-Total", "7")
		w.Write([]byte(`[]`))
	}))
	defer srv.Close()
	c := &Client{Name: "p", BaseURL: srv.URL}
	var h http.Header
	var out []int
	if err := c.Send(context.Background(), Request{Path: "/items", Header: &h}, &out); err != nil || h.Get("X-Apify-Pagination-Total") != "7" {
		t.Fatalf("Send = %v, header %v", err, h)
	}
}

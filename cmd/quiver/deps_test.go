package main

import "testing"

// twitterapi.io's errors in a 200 are kept out of the upstream cache;
// other providers' 200s are all cached.
func TestCacheable(t *testing.T) {
	ok := cacheable("twitterapi")
	for _, tt := range []struct {
		body string
		want bool
	}{
		{`{"status":"success","data":{"id":"1"}}`, true},
		{`{"tweets":[],"has_next_page":false}`, true},
		{`{"status":"error","msg":"Too many requests"}`, false},
		{`{"status":"Error","message":"User not found"}`, false},
		{`not json`, false},
	} {
		if got := ok([]byte(tt.body)); got != tt.want {
			t.Errorf("cacheable(%s) = %v, want %v", tt.body, got, tt.want)
		}
	}
	for _, p := range []string{"xapi", "apify", "instagram_graph"} {
		if cacheable(p) != nil {
			t.Errorf("%s: a check, want every 200 cached", p)
		}
	}
}

package main

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/social/photosocial"
	"github.com/quiverkit/quiver/social/photosocial/photosocialtest"
)

// applyPhotosocial parses the photo-sharing flags from env and args and
// returns the provider they configure.
func applyPhotosocial(t *testing.T, env map[string]string, args ...string) (photosocial.Provider, error) {
	t.Helper()
	s, err := parseServices(t, []setup{photosocialSetup}, env, args...)
	if err != nil {
		t.Fatal(err)
	}
	return s.cfg.Photosocial.provider(nil)
}

func TestPhotosocialSetup(t *testing.T) {
	export := filepath.Join(t.TempDir(), "export.jsonl")
	os.WriteFile(export, []byte(`{"kind":"profile","username":"me","followers_count":3}`+"\n"), 0o600)
	tests := []struct {
		env     map[string]string
		args    []string
		source  string // provider name, "" for none
		errPart string
	}{
		{nil, nil, "", ""},
		{map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "graph", "QUIVER_PHOTOSOCIAL_GRAPH_TOKEN": "t", "QUIVER_PHOTOSOCIAL_GRAPH_USER_ID": "1"}, nil, "instagram_graph", ""},
		{map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "graph"}, nil, "", "GRAPH_TOKEN"},
		{map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "apify", "QUIVER_PHOTOSOCIAL_APIFY_TOKEN": "t"}, nil, "apify", ""},
		{map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "apify"}, nil, "", "APIFY_TOKEN"},
		{map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "apify", "QUIVER_PHOTOSOCIAL_APIFY_TOKEN": "t"}, []string{"-photosocial-apify-timeout=10m"}, "", "300s"},
		{map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "apify", "QUIVER_PHOTOSOCIAL_APIFY_TOKEN": "t", "QUIVER_PHOTOSOCIAL_APIFY_RUN_ITEMS": "200"}, nil, "apify", ""},
		{map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "apify", "QUIVER_PHOTOSOCIAL_APIFY_TOKEN": "t"}, []string{"-photosocial-apify-run-items=5000"}, "", "RUN_ITEMS): photosocial: invalid configuration: RunItems"},
		{nil, []string{"-photosocial-provider=file", "-photosocial-sample"}, "file", ""},
		{map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "file", "QUIVER_PHOTOSOCIAL_FILE": export}, nil, "file", ""},
		{map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "file", "QUIVER_PHOTOSOCIAL_FILE": export + ".missing"}, nil, "", "QUIVER_PHOTOSOCIAL_FILE"},
		{map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "file"}, nil, "", "QUIVER_PHOTOSOCIAL_SAMPLE"},
		{map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "scraper"}, nil, "", "want graph, apify or file"},
	}
	for _, tt := range tests {
		p, err := applyPhotosocial(t, tt.env, tt.args...)
		switch {
		case tt.errPart != "":
			if err == nil || !strings.Contains(err.Error(), tt.errPart) {
				t.Errorf("%v %v: error %v, want one mentioning %s", tt.env, tt.args, err, tt.errPart)
			}
		case err != nil:
			t.Errorf("%v %v: %v", tt.env, tt.args, err)
		case tt.source == "" && p != nil:
			t.Errorf("%v: provider set", tt.env)
		case tt.source != "" && (p == nil || p.Name() != tt.source):
			t.Errorf("%v %v: provider %v, want %s", tt.env, tt.args, p, tt.source)
		}
	}
}

// TestPhotosocialGraphVersion: the Graph API version is a setting, the
// flag -photosocial-graph-api-version and its twin
// QUIVER_PHOTOSOCIAL_GRAPH_API_VERSION, which every request names; a base
// URL that still carries a version is refused at start-up (issue 22).
func TestPhotosocialGraphVersion(t *testing.T) {
	srv := photosocialtest.StartGraph(t, "t")
	env := map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "graph", "QUIVER_PHOTOSOCIAL_GRAPH_TOKEN": "t",
		"QUIVER_PHOTOSOCIAL_GRAPH_USER_ID": photosocialtest.GraphUserID, "QUIVER_PHOTOSOCIAL_GRAPH_BASE_URL": srv.URL}
	for _, tt := range []struct {
		env  string
		args []string
		want string
	}{
		{"", nil, "/" + photosocial.DefaultGraphAPIVersion + "/"},
		{"v19.0", nil, "/v19.0/"},
		{"v19.0", []string{"-photosocial-graph-api-version=v20.0"}, "/v20.0/"},
	} {
		e := maps.Clone(env)
		if tt.env != "" {
			e["QUIVER_PHOTOSOCIAL_GRAPH_API_VERSION"] = tt.env
		}
		p, err := applyPhotosocial(t, e, tt.args...)
		if err != nil {
			t.Fatal(err)
		}
		n := len(srv.Requests())
		if _, err := p.Profile(context.Background(), photosocialtest.Username); err != nil {
			t.Fatal(err)
		}
		if r := srv.Requests()[n]; !strings.HasPrefix(r, tt.want) {
			t.Errorf("version %q %v: request %s, want %s...", tt.env, tt.args, r, tt.want)
		}
	}
	e := maps.Clone(env)
	e["QUIVER_PHOTOSOCIAL_GRAPH_BASE_URL"] = "https://graph.facebook.com/v21.0"
	if _, err := applyPhotosocial(t, e); err == nil || !strings.Contains(err.Error(), "APIVersion") {
		t.Errorf("a versioned base URL: %v, want an error pointing to the version setting", err)
	}
}

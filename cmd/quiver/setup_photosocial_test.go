package main

import (
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/httpapi"
)

func applyPhotosocial(t *testing.T, env map[string]string, args ...string) (httpapi.Config, error) {
	t.Helper()
	f := &flags{FlagSet: flag.NewFlagSet("t", flag.ContinueOnError), getenv: func(k string) string { return env[k] }}
	f.SetOutput(io.Discard)
	apply := photosocialSetup(f)
	if err := f.Parse(args); err != nil {
		t.Fatal(err)
	}
	var cfg httpapi.Config
	err := apply(context.Background(), &cfg)
	return cfg, err
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
		{map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "apify", "QUIVER_PHOTOSOCIAL_APIFY_TOKEN": "t"}, []string{"-photosocial-apify-run-items=5000"}, "", "RUN_ITEMS=5000"},
		{nil, []string{"-photosocial-provider=file", "-photosocial-sample"}, "file", ""},
		{map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "file", "QUIVER_PHOTOSOCIAL_FILE": export}, nil, "file", ""},
		{map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "file", "QUIVER_PHOTOSOCIAL_FILE": export + ".missing"}, nil, "", "QUIVER_PHOTOSOCIAL_FILE"},
		{map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "file"}, nil, "", "QUIVER_PHOTOSOCIAL_SAMPLE"},
		{map[string]string{"QUIVER_PHOTOSOCIAL_PROVIDER": "scraper"}, nil, "", "want graph, apify or file"},
	}
	for _, tt := range tests {
		cfg, err := applyPhotosocial(t, tt.env, tt.args...)
		switch {
		case tt.errPart != "":
			if err == nil || !strings.Contains(err.Error(), tt.errPart) {
				t.Errorf("%v %v: error %v, want one mentioning %s", tt.env, tt.args, err, tt.errPart)
			}
		case err != nil:
			t.Errorf("%v %v: %v", tt.env, tt.args, err)
		case tt.source == "" && cfg.PhotosocialProvider != nil:
			t.Errorf("%v: provider set", tt.env)
		case tt.source != "" && (cfg.PhotosocialProvider == nil || cfg.PhotosocialProvider.Name() != tt.source):
			t.Errorf("%v %v: provider %v, want %s", tt.env, tt.args, cfg.PhotosocialProvider, tt.source)
		}
	}
}

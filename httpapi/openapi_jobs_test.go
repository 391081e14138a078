package httpapi

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/secret"
)

// TestJobRoutesDocumentTheirRules: the job routes document their own body
// limit, their 404 and 409, the values of a job's status and the shape
// of its ID; and a route with both query and path parameters lists both.
func TestJobRoutesDocumentTheirRules(t *testing.T) {
	s := newServer(Config{Keys: []secret.String{testKey}})
	both := get(groupDev, "/v1/test/{id}/query", "query and path", func(_ context.Context, q echoQuery) (echoQuery, error) { return q, nil })
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name   string         `json:"name"`
				In     string         `json:"in"`
				Schema map[string]any `json:"schema"`
			} `json:"parameters"`
			Responses map[string]struct {
				Ref string `json:"$ref"`
			} `json:"responses"`
		} `json:"paths"`
		Components struct {
			Responses map[string]struct {
				Description string `json:"description"`
			} `json:"responses"`
			Schemas map[string]struct {
				Properties map[string]struct {
					Enum []string `json:"enum"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(s.openAPI(append(s.jobsRoutes(), both)), &doc); err != nil {
		t.Fatal(err)
	}
	upload := doc.Paths["/v1/email/bulk/jobs"]["post"]
	ref := strings.TrimPrefix(upload.Responses["413"].Ref, "#/components/responses/")
	if d := doc.Components.Responses[ref].Description; !strings.Contains(d, "67174400 bytes") {
		t.Errorf("the upload's 413 says %q, want its own limit (64 MiB + 64 KiB = 67174400 bytes)", d)
	}
	for _, tt := range []struct{ path, method, status string }{
		{"/v1/email/bulk/jobs/{id}", "get", "404"},
		{"/v1/email/bulk/jobs/{id}", "delete", "404"},
		{"/v1/email/bulk/jobs/{id}/results", "get", "404"},
		{"/v1/email/bulk/jobs/{id}/results", "get", "409"},
	} {
		op := doc.Paths[tt.path][tt.method]
		if _, ok := op.Responses[tt.status]; !ok {
			t.Errorf("%s %s does not document %s", tt.method, tt.path, tt.status)
		}
		if len(op.Parameters) != 1 || op.Parameters[0].Schema["pattern"] != "^[0-9a-f]{32}$" {
			t.Errorf("%s %s: the id parameter is %+v, want the pattern of a job ID", tt.method, tt.path, op.Parameters)
		}
	}
	want := []string{"queued", "running", "done", "cancelled", "failed"}
	if got := doc.Components.Schemas["jobs.Job"].Properties["status"].Enum; !slices.Equal(got, want) {
		t.Errorf("jobs.Job.status enum %v, want %v", got, want)
	}
	var names []string
	for _, p := range doc.Paths["/v1/test/{id}/query"]["get"].Parameters {
		names = append(names, p.In+":"+p.Name)
	}
	if !slices.Contains(names, "path:id") || !slices.Contains(names, "query:name") {
		t.Errorf("query and path parameters: %v, want both", names)
	}
}

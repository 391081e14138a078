package httpapi_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/quiverkit/quiver/httpapi"
)

// The handler mounts in any mux; here under /quiver/ next to an
// application's own routes.
func ExampleNew() {
	api := httpapi.New(httpapi.Config{Keys: []string{"secret-key"}})
	mux := http.NewServeMux()
	mux.Handle("/quiver/", http.StripPrefix("/quiver", api))

	srv := httptest.NewServer(mux)
	defer srv.Close()

	req, _ := http.NewRequest("POST", srv.URL+"/quiver/v1/dev/data/base64/encode", strings.NewReader(`{"value":"hello"}`))
	req.Header.Set("X-Gateway-Key", "secret-key")
	req.Header.Set("X-Gateway-Host", "quiver.example")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status, resp.Header.Get("X-RateLimit-Limit"))
	// The request ID differs on every call; cut it off.
	fmt.Println(string(body[:strings.Index(string(body), `"meta"`)]))
	// Output:
	// 200 OK 20
	// {"success":true,"data":{"input":"hello","output":"aGVsbG8=","operation":"encode","is_valid":true,"error":null},"error":null,
}

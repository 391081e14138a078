package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/envelope"
)

// jobCommands drive the bulk jobs of a running server: quiver email job
// ... (an extension beyond the contract, as the routes are).
var jobCommands = []command{
	{
		name:    "email job submit",
		args:    "FILE.csv",
		summary: "Upload a CSV list to a server as a bulk verification job and print the job.",
		help: "The server is -server (QUIVER_SERVER), the key QUIVER_API_KEY. The list is streamed, not read into memory; " +
			"the server takes up to 1,000,000 rows and 64 MiB by default. -wait polls the job until it ends.",
		example: `quiver email job submit -server http://quiver:8080 contacts.csv
			QUIVER_API_KEY=qk_... quiver email job submit -no-mx -wait contacts.csv | jq -r .id`,
		setup: jobSubmitCommand,
	},
	{
		name:    "email job status",
		args:    "ID",
		summary: "Print a bulk verification job: status, rows done, summary, rate and time left.",
		example: `quiver email job status -server http://quiver:8080 3f2a...`,
		setup:   jobIDCommand(http.MethodGet),
	},
	{
		name:    "email job results",
		args:    "ID",
		summary: "Write the results of a done bulk verification job as CSV, in input order.",
		help:    "Every input column followed by the columns of verify-list. -o '-' (the default) is standard output.",
		example: `quiver email job results -server http://quiver:8080 -o results.csv 3f2a...`,
		setup:   jobResultsCommand,
	},
	{
		name:    "email job cancel",
		args:    "ID",
		summary: "Cancel a bulk verification job, or delete one that has ended, and print it.",
		help: "A job that has not ended is cancelled (its rows and partial results are dropped; it stays, cancelled, until it expires); " +
			"a job that has ended is deleted with its results, freeing the key's quotas. It is the DELETE route.",
		example: `quiver email job cancel -server http://quiver:8080 3f2a...`,
		setup:   jobIDCommand(http.MethodDelete),
	},
}

// jobClient calls the job routes of a server.
type jobClient struct {
	server, host, key string
	http              *http.Client
}

// jobClientFlags registers -server and -host; the key comes from
// QUIVER_API_KEY when the command runs.
func jobClientFlags(fs *flag.FlagSet) *jobClient {
	c := &jobClient{http: &http.Client{}}
	fs.StringVar(&c.server, "server", "", "base URL of the Quiver server (default $QUIVER_SERVER, else http://127.0.0.1:8080)")
	fs.StringVar(&c.host, "host", "", "X-Gateway-Host to send (default $QUIVER_HOST, else the server's host name)")
	return c
}

// ready completes the client from the environment.
func (c *jobClient) ready(env *cmdEnv) error {
	if c.server == "" {
		c.server = env.getenv("QUIVER_SERVER")
	}
	if c.server == "" {
		c.server = "http://127.0.0.1:8080"
	}
	u, err := url.Parse(c.server)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageError{fmt.Errorf("-server %q: want http(s)://host[:port]", c.server)}
	}
	c.server = strings.TrimSuffix(c.server, "/")
	if c.host == "" {
		c.host = env.getenv("QUIVER_HOST")
	}
	if c.host == "" {
		c.host = u.Hostname()
	}
	c.key = env.getenv("QUIVER_API_KEY")
	if c.key == "" {
		return usageError{errors.New("QUIVER_API_KEY is not set: it is the X-Gateway-Key sent to the server")}
	}
	return nil
}

// do sends a request to path and returns the response; an envelope
// error becomes the error.
func (c *jobClient) do(ctx context.Context, method, path, contentType string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.server+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Gateway-Key", c.key)
	req.Header.Set("X-Gateway-Host", c.host)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		defer resp.Body.Close()
		var env struct {
			Error *envelope.Error `json:"error"`
		}
		if json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&env) == nil && env.Error != nil {
			return nil, env.Error
		}
		return nil, fmt.Errorf("%s %s: %s", method, path, resp.Status)
	}
	return resp, nil
}

// job decodes the job in the envelope of resp.
func decodeJobResponse(resp *http.Response) (jobs.Job, error) {
	defer resp.Body.Close()
	var env struct {
		Data jobs.Job `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&env); err != nil {
		return jobs.Job{}, fmt.Errorf("reading the job: %w", err)
	}
	return env.Data, nil
}

func (c *jobClient) get(ctx context.Context, method, id string) (jobs.Job, error) {
	resp, err := c.do(ctx, method, "/v1/email/bulk/jobs/"+url.PathEscape(id), "", nil)
	if err != nil {
		return jobs.Job{}, err
	}
	return decodeJobResponse(resp)
}

func oneID(args []string) error {
	if len(args) != 1 {
		return usageError{fmt.Errorf("want one job ID, got %d arguments", len(args))}
	}
	return nil
}

func jobIDCommand(method string) func(fs *flag.FlagSet) runFunc {
	return func(fs *flag.FlagSet) runFunc {
		c := jobClientFlags(fs)
		return func(ctx context.Context, env *cmdEnv, args []string) (any, bool, error) {
			if err := oneID(args); err != nil {
				return nil, false, err
			}
			if err := c.ready(env); err != nil {
				return nil, false, err
			}
			j, err := c.get(ctx, method, args[0])
			return j, err == nil, err
		}
	}
}

// jobPoll is how often submit -wait asks for the job.
const jobPoll = 2 * time.Second

func jobSubmitCommand(fs *flag.FlagSet) runFunc {
	c := jobClientFlags(fs)
	var noMX, noDisposable, noRole, wait bool
	fs.BoolVar(&noMX, "no-mx", false, "skip the MX lookups")
	fs.BoolVar(&noDisposable, "no-disposable", false, "skip the disposable list")
	fs.BoolVar(&noRole, "no-role", false, "skip the role-account list")
	fs.BoolVar(&wait, "wait", false, "poll the job until it ends, then print it")
	return func(ctx context.Context, env *cmdEnv, args []string) (any, bool, error) {
		if len(args) != 1 {
			return nil, false, usageError{fmt.Errorf("want one FILE.csv ('-' for standard input), got %d arguments", len(args))}
		}
		if err := c.ready(env); err != nil {
			return nil, false, err
		}
		in, name := env.stdin, "list.csv"
		if args[0] != "-" {
			f, err := os.Open(args[0])
			if err != nil {
				return nil, false, err
			}
			defer f.Close()
			in, name = f, filepath.Base(args[0])
		}
		// Stream the multipart body: the fields, then the file.
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		go func() {
			for _, f := range []struct {
				name string
				off  bool
			}{{"check_mx", noMX}, {"check_disposable", noDisposable}, {"check_role_account", noRole}} {
				if f.off {
					mw.WriteField(f.name, "false")
				}
			}
			fw, err := mw.CreateFormFile("file", name)
			if err == nil {
				_, err = io.Copy(fw, in)
			}
			if err == nil {
				err = mw.Close()
			}
			pw.CloseWithError(err)
		}()
		resp, err := c.do(ctx, http.MethodPost, "/v1/email/bulk/jobs", mw.FormDataContentType(), pr)
		pr.Close()
		if err != nil {
			return nil, false, err
		}
		j, err := decodeJobResponse(resp)
		if err != nil || !wait {
			return j, err == nil, err
		}
		for j.Status == jobs.StatusQueued || j.Status == jobs.StatusRunning {
			select {
			case <-ctx.Done():
				return j, false, ctx.Err()
			case <-time.After(jobPoll):
			}
			if j, err = c.get(ctx, http.MethodGet, j.ID); err != nil {
				return nil, false, err
			}
			if env.stderrTerminal {
				fmt.Fprintf(env.stderr, "\r%s: %d/%d rows, %.0f rows/s ", j.Status, j.Done, j.Total, j.RowsPerSecond)
			}
		}
		if env.stderrTerminal {
			fmt.Fprintln(env.stderr)
		}
		return j, j.Status == jobs.StatusDone, nil
	}
}

func jobResultsCommand(fs *flag.FlagSet) runFunc {
	c := jobClientFlags(fs)
	var output string
	fs.StringVar(&output, "o", "-", "write the results to `FILE` ('-': standard output)")
	return func(ctx context.Context, env *cmdEnv, args []string) (any, bool, error) {
		if err := oneID(args); err != nil {
			return nil, false, err
		}
		if err := c.ready(env); err != nil {
			return nil, false, err
		}
		resp, err := c.do(ctx, http.MethodGet, "/v1/email/bulk/jobs/"+url.PathEscape(args[0])+"/results", "", nil)
		if err != nil {
			return nil, false, err
		}
		defer resp.Body.Close()
		if output == "-" {
			if _, err := io.Copy(env.stdout, resp.Body); err != nil {
				return nil, false, fmt.Errorf("reading the results: %w", err)
			}
			return nil, true, nil
		}
		if err := writeFileFrom(output, resp.Body); err != nil {
			return nil, false, err
		}
		return nil, true, nil
	}
}

// writeFileFrom writes what r reads to the file name, whole or not at
// all: it goes to a temporary file in the same directory, renamed to name
// once read to its end and closed. An aborted download leaves no file
// that could pass for the results, and name keeps what it held before.
func writeFileFrom(name string, r io.Reader) (err error) {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err := io.Copy(f, r); err != nil {
		return fmt.Errorf("reading the results: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	// The file stays 0600, as CreateTemp makes it: it lists addresses.
	return os.Rename(f.Name(), name)
}

package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/internal/csvrec"
)

// emailCommands are the commands of package email: quiver email ...
var emailCommands = []command{
	{
		name:    "email validate",
		args:    "ADDR...",
		summary: "Validate and normalize email addresses (syntax, lists, MX); exit status 1 when one is invalid.",
		help: "One address prints its result, several a list in their order. Without ADDR, the addresses are read " +
			"from standard input, one a line. -smtp also probes the mailboxes over SMTP (slow; port 25 is often blocked).",
		example: `quiver email validate someone@example.com
			quiver email validate -o table a@example.com info@gmial.com
			quiver email validate -smtp someone@example.com | jq .smtp.status`,
		services: emailServices,
		setup:    emailValidateCommand,
	},
	{
		name:    "email verify-list",
		args:    "FILE.csv",
		summary: "Validate a CSV list of any size, writing each row with its result columns.",
		help: "The first row is the header; the addresses are in the column -column, else the one headed \"email\", else the first. " +
			"Rows are written in input order, each followed by the columns " + strings.Join(email.CSVResultHeader(), ",") + ". " +
			"reachability is never safe on a list, which is not probed over SMTP: unknown with not_probed, risky for a disposable or role address, invalid with its cause. " +
			"FILE.csv '-' is standard input; -o '-' (the default) is standard output. A progress bar with rows per second " +
			"and the time left is shown when standard error is a terminal. Ctrl-C writes the rows done so far, in order, and stops (exit status 1). " +
			"The counts are printed at the end (on standard error when the rows go to standard output). " +
			"-resume appends to the -o file of an interrupted run, from the row after the last one it holds. " +
			"Exit status 0 when the whole list was checked, however many addresses are invalid.",
		example: `quiver email verify-list contacts.csv -o results.csv
			quiver email verify-list contacts.csv -o results.csv -resume
			quiver email verify-list -column "E-mail" -no-mx contacts.csv -o - | grep ',false,'`,
		services: emailServices,
		setup:    verifyListCommand,
	},
	op(opSpec{
		command: command{
			name:    "email domain-health",
			args:    "DOMAIN...",
			summary: "Check the MX, SPF and DMARC readiness of domains; exit status 1 when one is not ready or could not be checked.",
			example: `quiver email domain-health example.com
				quiver email domain-health -o table example.com example.org`,
			services: emailServices,
		},
		operand: "domains",
	}, func(ctx context.Context, env *cmdEnv, req email.DomainHealthRequest) (any, bool, error) {
		v, err := verifier(env)
		if err != nil {
			return nil, false, err
		}
		res, err := v.DomainHealth(ctx, req)
		if err != nil {
			return nil, false, err
		}
		passed := true
		for _, h := range res.Results {
			if h.Verdict != email.VerdictReady && h.Verdict != email.VerdictNeedsAttention {
				passed = false
			}
		}
		return res, passed, nil
	}),
	op(opSpec{
		command: command{
			name:     "email disposable",
			args:     "ADDR...",
			summary:  "Tell disposable addresses; exit status 1 when one is disposable or invalid.",
			example:  `quiver email disposable someone@mailinator.com someone@example.com -o table`,
			services: emailServices,
		},
		operand: "emails",
	}, func(ctx context.Context, env *cmdEnv, req email.ListRequest) (any, bool, error) {
		v, err := verifier(env)
		if err != nil {
			return nil, false, err
		}
		res, err := v.CheckDisposable(ctx, req)
		if err != nil {
			return nil, false, err
		}
		return res, res.Summary.Matched == 0 && res.Summary.Invalid == 0, nil
	}),
	op(opSpec{
		command: command{
			name:     "email role",
			args:     "ADDR...",
			summary:  "Tell role accounts (info@, support@); exit status 1 when one is a role account or invalid.",
			example:  `quiver email role info@example.com jane@example.com -o table`,
			services: emailServices,
		},
		operand: "emails",
	}, func(ctx context.Context, env *cmdEnv, req email.ListRequest) (any, bool, error) {
		v, err := verifier(env)
		if err != nil {
			return nil, false, err
		}
		res, err := v.CheckRoleAccounts(ctx, req)
		if err != nil {
			return nil, false, err
		}
		return res, res.Summary.Matched == 0 && res.Summary.Invalid == 0, nil
	}),
}

// emailServices are the setups the email commands need: the shared DNS
// resolver and the verifier.
var emailServices = []setup{dnsSetup, emailSetup}

// verifier returns the email verifier configured by the command's flags.
func verifier(env *cmdEnv) (*email.Verifier, error) {
	return env.svc.Email()
}

func emailValidateCommand(fs *flag.FlagSet) runFunc {
	var c email.Checks
	fs.BoolVar(&c.SMTP, "smtp", false, "also probe each mailbox over SMTP")
	fs.BoolVar(&c.SkipMX, "no-mx", false, "skip the MX lookup (syntax and lists only, no network)")
	return func(ctx context.Context, env *cmdEnv, args []string) (any, bool, error) {
		if len(args) == 0 {
			sc := bufio.NewScanner(env.stdin)
			for sc.Scan() {
				if line := strings.TrimSpace(sc.Text()); line != "" {
					args = append(args, line)
				}
			}
			if err := sc.Err(); err != nil {
				return nil, false, fmt.Errorf("reading standard input: %w", err)
			}
			if len(args) == 0 {
				return nil, false, usageError{errors.New("no address: give ADDR... or one a line on standard input")}
			}
		}
		v, err := verifier(env)
		if err != nil {
			return nil, false, err
		}
		out := make([]validateItem, 0, len(args))
		if c.SMTP { // one probe at a time: mail servers dislike bursts
			for _, a := range args {
				out = append(out, validateItem{Input: a, Validation: v.Validate(ctx, a, c)})
				if err := ctx.Err(); err != nil {
					return nil, false, err
				}
			}
		} else { // the lookups run concurrently, the results keep their order
			for it, err := range v.ValidateStream(ctx, slices.Values(args), email.StreamOptions{Checks: c}) {
				if err != nil {
					return nil, false, err
				}
				out = append(out, validateItem{Input: it.Input, Validation: email.Validation{Result: it.Result}})
			}
		}
		passed := true
		for _, it := range out {
			passed = passed && it.IsValid
		}
		if len(out) == 1 {
			return out[0].Validation, passed, nil
		}
		return out, passed, nil
	}
}

func verifyListCommand(fs *flag.FlagSet) runFunc {
	var (
		output string
		opts   email.StreamOptions
		conc   int
		resume bool
	)
	fs.StringVar(&output, "o", "-", "write the results to `FILE` ('-': standard output)")
	fs.StringVar(&opts.Column, "column", "", "header of the address column (default: the one headed email, else the first)")
	fs.BoolVar(&opts.Checks.SkipMX, "no-mx", false, "skip the MX lookups (syntax and lists only, no network)")
	fs.IntVar(&conc, "concurrency", email.DefaultConcurrency, "rows checked at once")
	fs.IntVar(&opts.Window, "window", email.DefaultWindow, "rows read ahead of the oldest unfinished one (memory)")
	fs.BoolVar(&resume, "resume", false, "append to the -o file of an interrupted run, starting after the rows it holds")
	return func(ctx context.Context, env *cmdEnv, args []string) (any, bool, error) {
		if len(args) != 1 {
			return nil, false, usageError{fmt.Errorf("want one FILE.csv ('-' for standard input), got %d arguments", len(args))}
		}
		if conc < 1 || opts.Window < 1 {
			return nil, false, usageError{errors.New("-concurrency and -window must be at least 1")}
		}
		in, size := env.stdin, int64(0)
		if args[0] != "-" {
			f, err := os.Open(args[0])
			if err != nil {
				return nil, false, err
			}
			defer f.Close()
			fi, err := f.Stat()
			if err != nil {
				return nil, false, err
			}
			if fi.Mode().IsRegular() {
				size = fi.Size()
			}
			if ofi, err := os.Stat(output); err == nil && os.SameFile(fi, ofi) {
				return nil, false, usageError{fmt.Errorf("-o %s is the input file: writing it would destroy the list", output)}
			}
			in = f
		}
		out, toStdout := env.stdout, output == "-"
		if resume && (toStdout || args[0] == "-") {
			return nil, false, usageError{errors.New("-resume needs a FILE.csv and an -o file")}
		}
		var file *os.File
		switch {
		case resume:
			header, err := csvHeader(args[0])
			if err != nil {
				return nil, false, err
			}
			n, err := rowsDone(output, header)
			if err != nil {
				return nil, false, err
			}
			if file, err = os.OpenFile(output, os.O_WRONLY|os.O_APPEND, 0); err != nil {
				return nil, false, err
			}
			opts.Skip, out = n, file
			if n > 0 {
				fmt.Fprintf(env.stderr, "quiver email verify-list: resuming after the %d rows of %s\n", n, output)
			}
		case !toStdout:
			f, err := os.Create(output)
			if err != nil {
				return nil, false, err
			}
			file, out = f, f
		}
		bw := bufio.NewWriterSize(out, 64<<10)

		v, err := env.svc.Verifier(conc)
		if err != nil {
			return nil, false, err
		}
		var bar *progressBar
		if env.stderrTerminal {
			bar = startProgress(env.stderr, size)
			opts.Progress = bar.update
		}
		start := time.Now()
		stats, err := v.VerifyCSV(ctx, in, bw, opts)
		if ferr := bw.Flush(); err == nil && ferr != nil {
			err = ferr
		}
		if file != nil {
			if cerr := file.Close(); err == nil && cerr != nil {
				err = cerr
			}
		}
		bar.stop(stats)
		elapsed := time.Since(start)
		summary := verifyListSummary{StreamStats: stats, Output: output, Seconds: elapsed.Seconds()}
		if elapsed > 0 {
			summary.RowsPerSecond = float64(stats.Rows) / elapsed.Seconds()
		}
		if errors.Is(err, context.Canceled) {
			summary.Interrupted = true
			fmt.Fprintf(env.stderr, "quiver email verify-list: interrupted: the first %d rows are written (-resume continues)\n", opts.Skip+stats.Rows)
			err = nil
		}
		if err != nil {
			if opts.Skip+stats.Rows > 0 {
				fmt.Fprintf(env.stderr, "quiver email verify-list: stopped after %d rows, which are written\n", opts.Skip+stats.Rows)
			}
			return nil, false, err
		}
		if toStdout { // the rows are on standard output: the counts go beside
			fmt.Fprintf(env.stderr, "%d rows: %d valid, %d invalid, %d disposable, %d role accounts (%.0f rows/s)\n",
				stats.Rows, stats.Valid, stats.Invalid, stats.Disposable, stats.RoleAccounts, summary.RowsPerSecond)
			return nil, !summary.Interrupted, nil
		}
		return summary, !summary.Interrupted, nil
	}
}

// csvHeader returns the first record of a CSV file.
func csvHeader(name string) ([]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rec, err := csvrec.NewReader(f, math.MaxInt32).Read()
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: header row: %w", name, err)
	}
	return rec.Strings(nil), nil
}

// rowsDone counts the complete data rows of the output of an earlier run
// over a list headed inputHeader. The output must end with a whole line
// (an interrupted run flushes whole rows; a crash may not, and then the
// user must choose).
func rowsDone(name string, inputHeader []string) (int, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if size := fi.Size(); size > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, size-1); err != nil {
			return 0, err
		}
		if last[0] != '\n' {
			return 0, fmt.Errorf("-resume: %s ends in the middle of a row; remove that last line, or run without -resume", name)
		}
	}
	r := csvrec.NewReader(f, math.MaxInt32)
	rec, err := r.Read()
	if errors.Is(err, io.EOF) {
		return 0, fmt.Errorf("-resume: %s is empty; run without -resume", name)
	}
	var header []string
	if err == nil {
		header = rec.Strings(nil)
	}
	results := max(0, len(header)-len(email.CSVResultHeader()))
	if err != nil || !slices.Equal(header[results:], email.CSVResultHeader()) {
		return 0, fmt.Errorf("-resume: %s is not the output of verify-list", name)
	}
	if !slices.Equal(header[:results], inputHeader) {
		return 0, fmt.Errorf("-resume: %s was written for a list with other columns", name)
	}
	n := 0
	for {
		if _, err := r.Read(); errors.Is(err, io.EOF) {
			return n, nil
		} else if err != nil {
			return 0, fmt.Errorf("-resume: %s: %w", name, err)
		}
		n++
	}
}

// validateItem is one result of "email validate" with several addresses.
type validateItem struct {
	// Input is the address as given.
	Input string `json:"input"`
	email.Validation
}

// verifyListSummary is what verify-list prints when the rows go to a
// file.
type verifyListSummary struct {
	email.StreamStats
	// Output is the file written.
	Output string `json:"output"`
	// Seconds is the time taken; RowsPerSecond the rate.
	Seconds       float64 `json:"seconds"`
	RowsPerSecond float64 `json:"rows_per_second"`
	// Interrupted: Ctrl-C stopped the run; the rows done are written.
	Interrupted bool `json:"interrupted"`
}

// progressBar draws the progress of verify-list on a terminal, five times
// a second: rows, rows per second, and with the input's size the fraction
// done and the time left.
type progressBar struct {
	w     io.Writer
	size  int64
	start time.Time
	rows  atomic.Int64
	off   atomic.Int64
	quit  chan struct{}
	done  chan struct{}
}

func startProgress(w io.Writer, size int64) *progressBar {
	b := &progressBar{w: w, size: size, start: time.Now(), quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-b.quit:
				return
			case <-t.C:
				b.draw()
			}
		}
	}()
	return b
}

// update is the StreamOptions.Progress callback: it only stores.
func (b *progressBar) update(s email.StreamStats) {
	b.rows.Store(int64(s.Rows))
	b.off.Store(s.Offset)
}

func (b *progressBar) draw() {
	rows, off := b.rows.Load(), b.off.Load()
	el := time.Since(b.start)
	rate := float64(rows) / el.Seconds()
	line := fmt.Sprintf("%d rows  %.0f rows/s", rows, rate)
	if b.size > 0 && off > 0 {
		frac := min(float64(off)/float64(b.size), 1)
		const width = 30
		n := int(frac * width)
		left := time.Duration(float64(el) * (1 - frac) / frac).Round(time.Second)
		line = fmt.Sprintf("[%s%s] %3.0f%%  %s  ETA %s", strings.Repeat("#", n), strings.Repeat(".", width-n), frac*100, line, left)
	}
	fmt.Fprintf(b.w, "\r%s\033[K", line)
}

// stop draws the last state and ends the line; nil does nothing.
func (b *progressBar) stop(s email.StreamStats) {
	if b == nil {
		return
	}
	close(b.quit)
	<-b.done
	b.update(s)
	b.draw()
	fmt.Fprintln(b.w)
}

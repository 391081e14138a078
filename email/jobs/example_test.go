package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/resolver/resolvertest"
)

const exampleZone = `
$ORIGIN example.test.
$TTL 300
@    IN SOA ns1 hostmaster 1 3600 600 86400 60
@    IN MX  10 mx1
mx1  IN A   192.0.2.10
`

const exampleList = "name,email\nAna,ana@example.test\nBo,info@example.test\nCy,not-an-address\n"

// exampleManager returns an in-process Manager whose verifier asks a
// loopback DNS server, with its workers running until stop is called.
// With Config.Redis set, the same code shares the jobs between
// instances.
func exampleManager() (m *jobs.Manager, stop func()) {
	dns, err := resolvertest.New(resolvertest.Config{Zone: exampleZone})
	if err != nil {
		log.Fatal(err)
	}
	r, err := resolver.New(resolver.Config{Servers: []string{dns.Addr}})
	if err != nil {
		log.Fatal(err)
	}
	v, err := email.New(email.Config{Resolver: r})
	if err != nil {
		log.Fatal(err)
	}
	m, err = jobs.New(jobs.Config{Verifier: v})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { m.Run(ctx); close(done) }()
	return m, func() { cancel(); <-done; dns.Close() }
}

// waitDone polls the job until it ends.
func waitDone(m *jobs.Manager, owner, id string) jobs.Job {
	for {
		j, err := m.Get(context.Background(), owner, id)
		if err != nil {
			log.Fatal(err)
		}
		if j.Status != jobs.StatusQueued && j.Status != jobs.StatusRunning {
			return j
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A job from submission to results.
func Example() {
	m, stop := exampleManager()
	defer stop()
	ctx := context.Background()

	j, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "api-key-1", File: strings.NewReader(exampleList)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(j.Status, j.Total)
	j = waitDone(m, "api-key-1", j.ID)
	fmt.Println(j.Status, j.Done, j.Summary.Valid, j.Summary.RoleAccounts)
	if err := m.Results(ctx, "api-key-1", j.ID, os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// queued 3
	// done 3 2 1
	// name,email,is_valid,reason,normalized_email,is_disposable,is_role_account,is_free_provider,has_mx_records,mx_status,did_you_mean,reachability,reachability_reasons
	// Ana,ana@example.test,true,,ana@example.test,false,false,false,true,mx,,unknown,not_probed
	// Bo,info@example.test,true,,info@example.test,false,true,false,true,mx,,risky,role_account;not_probed
	// Cy,not-an-address,false,missing_at,,false,false,false,false,,,invalid,invalid_syntax
}

func ExampleNew() {
	// The zero Config works: an in-process queue, checks without DNS.
	m, err := jobs.New(jobs.Config{})
	if err != nil {
		log.Fatal(err)
	}
	rows, bytes := m.Limits()
	fmt.Println(rows, bytes)

	_, err = jobs.New(jobs.Config{ChunkRows: 10_000})
	fmt.Println(err)
	// Output:
	// 1000000 67108864
	// jobs: invalid configuration: ChunkRows must be 0 to 5000
}

// Submit refuses a file over a limit, naming it.
func ExampleManager_Submit() {
	m, err := jobs.New(jobs.Config{MaxRows: 2})
	if err != nil {
		log.Fatal(err)
	}
	_, err = m.Submit(context.Background(), jobs.SubmitRequest{Owner: "k", File: strings.NewReader(exampleList)})
	fmt.Println(err)
	// Output:
	// invalid request: file: has more than the limit of 2 data rows
}

// A job is found only under the owner that submitted it.
func ExampleManager_Get() {
	m, err := jobs.New(jobs.Config{})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	j, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "k1", File: strings.NewReader(exampleList)})
	if err != nil {
		log.Fatal(err)
	}
	got, err := m.Get(ctx, "k1", j.ID)
	fmt.Println(got.Status, got.Total, got.FinishedAt == nil, err)
	_, err = m.Get(ctx, "k2", j.ID)
	fmt.Println(strings.Replace(err.Error(), j.ID, "ID", 1))
	// Output:
	// queued 3 true <nil>
	// NOT_FOUND: no job "ID": jobs: no such job
}

// Results are refused until the job is done.
func ExampleManager_Results() {
	m, err := jobs.New(jobs.Config{}) // no workers run: the job stays queued
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	j, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "k", File: strings.NewReader(exampleList)})
	if err != nil {
		log.Fatal(err)
	}
	err = m.Results(ctx, "k", j.ID, os.Stdout)
	fmt.Println(strings.Replace(err.Error(), j.ID, "ID", 1))
	// Output:
	// CONFLICT: job ID is queued: results are served once it is done: jobs: the job is not done
}

func ExampleManager_Cancel() {
	m, err := jobs.New(jobs.Config{})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	j, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "k", File: strings.NewReader(exampleList)})
	if err != nil {
		log.Fatal(err)
	}
	j, err = m.Cancel(ctx, "k", j.ID)
	fmt.Println(j.Status, j.Done, j.FinishedAt != nil, err)
	// Output:
	// cancelled 0 true <nil>
}

// Delete cancels a job that has not ended; called again, or on a job that
// has ended, it deletes the job, which is then not found.
func ExampleManager_Delete() {
	m, err := jobs.New(jobs.Config{})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	j, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "k", File: strings.NewReader(exampleList)})
	if err != nil {
		log.Fatal(err)
	}
	c, err := m.Delete(ctx, "k", j.ID)
	fmt.Println(c.Status, *c.Reason, err)
	d, err := m.Delete(ctx, "k", j.ID)
	fmt.Println(d.Status, err)
	_, err = m.Get(ctx, "k", j.ID)
	fmt.Println(errors.Is(err, jobs.ErrNotFound))
	// Output:
	// cancelled cancelled by its owner <nil>
	// cancelled <nil>
	// true
}

// A submission past a quota of its owner is refused, naming the quota.
func ExampleQuotaError() {
	m, err := jobs.New(jobs.Config{MaxOwnerJobsStored: 1})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	if _, err := m.Submit(ctx, jobs.SubmitRequest{Owner: "k", File: strings.NewReader(exampleList)}); err != nil {
		log.Fatal(err)
	}
	_, err = m.Submit(ctx, jobs.SubmitRequest{Owner: "k", File: strings.NewReader(exampleList)})
	var qe *jobs.QuotaError
	if errors.As(err, &qe) {
		fmt.Println(qe.Quota, qe.Limit, qe.Used, errors.Is(err, jobs.ErrQuotaExceeded))
	}
	// Output:
	// jobs_stored 1 1 true
}

// Run checks the chunks of the queued jobs until its context ends.
func ExampleManager_Run() {
	m, stop := exampleManager()
	defer stop()
	j, err := m.Submit(context.Background(), jobs.SubmitRequest{
		Owner: "k", File: strings.NewReader(exampleList), CheckMX: new(false),
	})
	if err != nil {
		log.Fatal(err)
	}
	j = waitDone(m, "k", j.ID)
	fmt.Println(j.Status, j.Summary.Total, j.Summary.DomainsWithMX)
	// Output:
	// done 3 0
}

func ExampleResultHeader() {
	fmt.Println(strings.Join(jobs.ResultHeader([]string{"name", "email"}), ","))
	// Output:
	// name,email,is_valid,reason,normalized_email,is_disposable,is_role_account,is_free_provider,has_mx_records,mx_status,did_you_mean,reachability,reachability_reasons
}

func ExampleStatuses() {
	for _, s := range jobs.Statuses() {
		fmt.Print(s, " ")
	}
	fmt.Println()
	// Output: queued running done cancelled failed
}

func ExampleManager_Limits() {
	m, err := jobs.New(jobs.Config{MaxRows: 5000})
	if err != nil {
		log.Fatal(err)
	}
	rows, bytes := m.Limits()
	fmt.Println(rows, bytes == jobs.DefaultMaxBytes)
	// Output:
	// 5000 true
}

package microblog_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/social/microblog"
)

func sample(t *testing.T) *microblog.Client {
	t.Helper()
	p := must(microblog.NewFile(microblog.FileConfig{Paths: []string{"../../examples/microblog/data/sample.jsonl"}}))
	return newClient(t, p)
}

func TestFileProvider(t *testing.T) {
	c := sample(t)
	ctx := context.Background()

	prof, err := c.Profile(ctx, microblog.ProfileRequest{Username: "ANA_DEV"})
	if err != nil || prof.FollowersCount != 5400 || prof.DataSource != "file:sample.jsonl" || prof.CreatedAt != "Sun Mar 09 18:22:05 +0000 2014" {
		t.Fatalf("profile %+v, %v", prof, err)
	}
	// A profile derived from tweets when the file has no profile record.
	if p, err := c.Profile(ctx, microblog.ProfileRequest{Username: "bo_ops"}); err != nil || p.FollowersCount != 830 || p.TweetCount != 3 {
		t.Errorf("derived profile %+v, %v", p, err)
	}

	l, err := c.UserTweets(ctx, microblog.UserTweetsRequest{Username: "ana_dev", Limit: 4})
	if err != nil {
		t.Fatal(err)
	}
	if l.ResultCount != 4 || !l.PageInfo.HasNextPage || l.PageInfo.NextCursor != "o4" || l.Tweets[0].ID != "1015" {
		t.Errorf("page 1: %d tweets from %s, %+v", l.ResultCount, l.Tweets[0].ID, l.PageInfo)
	}
	for _, tw := range l.Tweets {
		if tw.CreatedAt == "" || tw.URL != "https://x.com/ana_dev/status/"+tw.ID {
			t.Errorf("tweet %+v", tw)
		}
	}
	l2, err := c.UserTweets(ctx, microblog.UserTweetsRequest{Username: "ana_dev", Limit: 20, Cursor: l.PageInfo.NextCursor})
	if err != nil || l2.PageInfo.HasNextPage || l2.ResultCount != 3 {
		t.Errorf("page 2: %d tweets, %+v, %v", l2.ResultCount, l2.PageInfo, err)
	}

	s, err := c.Search(ctx, microblog.SearchRequest{Query: `("acme cloud" OR @acmecloud) (refund OR outage) -hiring`})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, tw := range s.Tweets {
		ids = append(ids, tw.ID)
	}
	if strings.Join(ids, ",") != "2003,2101,2004" {
		t.Errorf("search ids %v", ids)
	}
	top, _ := c.Search(ctx, microblog.SearchRequest{Query: "from:chen_codes", Type: "top"})
	if top.ResultCount != 3 || top.Tweets[0].ID != "2002" {
		t.Errorf("top search: %v", top.Tweets)
	}

	r, err := c.Replies(ctx, microblog.RepliesRequest{TweetID: "1001", Sort: "latest"})
	if err != nil || r.ResultCount != 8 || r.Tweets[0].ID != "1107" {
		t.Errorf("replies: %d, first %v, %v", r.ResultCount, r.Tweets, err)
	}

	_, err = c.Tweet(ctx, microblog.TweetRequest{TweetID: "999"})
	if !errors.Is(err, &envelope.Error{Code: envelope.CodeNotFound}) {
		t.Errorf("missing tweet: %v", err)
	}
	_, err = c.UserTweets(ctx, microblog.UserTweetsRequest{Username: "ghost"})
	if !errors.Is(err, &envelope.Error{Code: envelope.CodeNotFound}) {
		t.Errorf("missing user: %v", err)
	}
	_, err = c.UserTweets(ctx, microblog.UserTweetsRequest{Username: "ana_dev", Cursor: "zzz"})
	var v *envelope.ValidationError
	if !errors.As(err, &v) {
		t.Errorf("bad cursor: %v", err)
	}
}

func TestFileThreadFromMiddle(t *testing.T) {
	th, err := sample(t).Thread(context.Background(), microblog.ThreadRequest{TweetID: "1003", Format: "markdown"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, tw := range th.Tweets {
		ids = append(ids, tw.ID)
	}
	// 1099 is a branch (a second reply to 1003), 1007 a reply to someone
	// else, 1006 follows a gap (1005 is missing).
	if strings.Join(ids, ",") != "1001,1002,1003,1004,1006" || th.ThreadLength != 5 {
		t.Errorf("thread %v (length %d)", ids, th.ThreadLength)
	}
	if !strings.HasPrefix(th.Markdown, "# Thread by Ana Torres ([@ana_dev](https://x.com/ana_dev))\n\n> How we cut") {
		t.Errorf("markdown:\n%s", th.Markdown)
	}
}

func TestNewFileErrors(t *testing.T) {
	for _, data := range []string{
		`{"id":"1"}`,                          // no author
		`{"type":"profile"}`,                  // no username
		`{"type":"video","id":"1"}`,           // unknown type
		`{"id":"1","author":{"username":"a"}`, // truncated
	} {
		if _, err := microblog.NewFile(microblog.FileConfig{Name: "t", Reader: strings.NewReader(data)}); err == nil || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("NewFile(%s) = %v, want an error naming line 1", data, err)
		}
	}
}

func TestThreadWithDeletedRoot(t *testing.T) {
	// The root (1) is gone from the export; 2 and 3 continue it.
	export := `{"id":"2","text":"second","created_at":"2026-01-01T10:01:00Z","author":{"id":"7","username":"ana"},"conversation_id":"1","in_reply_to_id":"1","in_reply_to_user_id":"7"}
{"id":"3","text":"third","created_at":"2026-01-01T10:02:00Z","author":{"id":"7","username":"ana"},"conversation_id":"1","in_reply_to_id":"2","in_reply_to_user_id":"7"}
{"id":"4","text":"fourth","created_at":"2026-01-01T10:03:00Z","author":{"id":"7","username":"ana"},"conversation_id":"1","in_reply_to_id":"3","in_reply_to_user_id":"7"}`
	p, err := microblog.NewFile(microblog.FileConfig{Name: "t", Reader: strings.NewReader(export)})
	if err != nil {
		t.Fatal(err)
	}
	th, err := newClient(t, p).Thread(context.Background(), microblog.ThreadRequest{TweetID: "3", Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	if th.Text != "1/3 second\n\n2/3 third\n\n3/3 fourth" {
		t.Errorf("text = %q", th.Text)
	}
}

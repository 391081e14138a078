package microblog

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quiverkit/quiver/envelope"
)

// A ThreadFormat is how a thread is rendered.
type ThreadFormat string

// Thread formats.
const (
	FormatJSON     ThreadFormat = "json"
	FormatText     ThreadFormat = "text"
	FormatMarkdown ThreadFormat = "markdown"
)

// ThreadFormats returns the thread formats, the default first.
func ThreadFormats() []ThreadFormat { return []ThreadFormat{FormatJSON, FormatText, FormatMarkdown} }

// ThreadRequest asks for the thread a tweet belongs to.
type ThreadRequest struct {
	// TweetID is any tweet of the thread; the thread starts at its
	// conversation's root.
	TweetID string `json:"tweet_id" openapi:"required"`
	// Format is "json" (default), "text" or "markdown". The tweets are
	// always returned; text and markdown add the rendered thread.
	Format ThreadFormat `json:"format,omitempty"`
	// Limit is the number of thread tweets in this page, 1..20; 0 means the default, 20.
	Limit int `json:"limit,omitempty"`
	// Cursor is page_info.next_cursor of the previous page.
	Cursor string `json:"cursor,omitempty"`
}

// Thread is the list payload of a thread, with its rendering.
type Thread struct {
	// Tweets are this page of the thread, in thread order.
	Tweets []Tweet `json:"tweets"`
	// PageInfo says whether and how to fetch the next page.
	PageInfo PageInfo `json:"page_info"`
	// ResultCount is len(Tweets).
	ResultCount int `json:"result_count"`
	// DataSource names the provider.
	DataSource string `json:"data_source"`
	// AsOf is when the thread was fetched (RFC 3339, UTC).
	AsOf string `json:"as_of"`
	// Format is the format asked for.
	Format ThreadFormat `json:"format"`
	// ThreadLength is the number of tweets in the whole thread.
	ThreadLength int `json:"thread_length"`
	// Text is this page as numbered plain text ("1/5 ..."), with format=text.
	Text string `json:"text,omitempty"`
	// Markdown is this page as a quoted, linked Markdown document, with
	// format=markdown.
	Markdown string `json:"markdown,omitempty"`
}

// Thread returns the author's thread that a tweet belongs to: the root of
// its conversation followed by the author's chain of replies to
// themselves, in order (see ThreadChain). When the root is gone (deleted),
// the thread starts at the earliest tweet of the author reachable from the
// given tweet through its parents. Pages are cut from the thread; the
// cursor is an offset into it.
func (c *Client) Thread(ctx context.Context, req ThreadRequest) (Thread, error) {
	var v validator
	id := v.tweetID(req.TweetID)
	format := oneOf(&v, "format", req.Format, FormatJSON, FormatJSON, FormatText, FormatMarkdown)
	limit := v.limit("limit", req.Limit, DefaultLimit, MaxLimit)
	offset := 0
	if req.Cursor != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(req.Cursor, "t"))
		if err != nil || n < 0 || n > maxThreadTweets || !strings.HasPrefix(req.Cursor, "t") {
			v.add("cursor", "is not a cursor of this thread")
		}
		offset = n
	}
	if err := v.Err(); err != nil {
		return Thread{}, err
	}
	p, err := c.provider()
	if err != nil {
		return Thread{}, err
	}
	tw, err := p.Tweet(ctx, id)
	if err != nil {
		return Thread{}, err
	}
	root, rootMissing := tw, false
	if tw.ConversationID != "" && tw.ConversationID != tw.ID {
		r, err := p.Tweet(ctx, tw.ConversationID)
		switch {
		case err == nil:
			root = r
		case envelope.ErrorCode(err) == envelope.CodeNotFound:
			rootMissing = true // deleted: start from the author's earliest tweet found
		default:
			return Thread{}, err
		}
	}
	conv, err := collect(maxThreadTweets, nil, func(cursor string) (Page, error) {
		return p.Conversation(ctx, PageQuery{TweetID: root.ID, Limit: MaxLimit, Cursor: cursor})
	})
	if err != nil {
		return Thread{}, err
	}
	if rootMissing {
		root = walkBack(tw, conv)
	}
	chain := ThreadChain(root, append(conv, tw))

	now := c.now()
	out := Thread{Format: format, ThreadLength: len(chain), DataSource: p.Name(), AsOf: now.Format(time.RFC3339)}
	end := min(offset+limit, len(chain))
	if offset < end {
		out.Tweets = slices.Clone(chain[offset:end])
	} else {
		out.Tweets = []Tweet{}
	}
	for i := range out.Tweets {
		finish(&out.Tweets[i], p.Name(), now)
	}
	out.ResultCount = len(out.Tweets)
	if end < len(chain) {
		out.PageInfo = PageInfo{HasNextPage: true, NextCursor: "t" + strconv.Itoa(end)}
	}
	switch format {
	case FormatText:
		out.Text = ThreadText(out.Tweets, offset, len(chain))
	case FormatMarkdown:
		out.Markdown = ThreadMarkdown(out.Tweets, offset, len(chain))
	}
	return out, nil
}

// ThreadChain extracts a thread from the tweets of a conversation. It
// starts at root and repeatedly takes the author's own reply to the last
// tweet taken:
//
//   - only self-replies count: tweets by root's author replying to root's
//     author; the author's replies to other people are left out;
//   - a branch (the author replied to the same tweet twice) follows the
//     earliest reply; later siblings are left out;
//   - a gap (the tweet replied to is missing, deleted or not fetched)
//     continues with the earliest self-reply, posted after the last tweet
//     taken, whose parent is missing.
//
// The chain is at most 200 tweets long and never repeats a tweet.
func ThreadChain(root Tweet, conversation []Tweet) []Tweet {
	sameAuthor := func(a Author, id, username string) bool {
		if a.ID != "" && id != "" {
			return a.ID == id
		}
		return username != "" && strings.EqualFold(a.Username, username)
	}
	present := map[string]bool{root.ID: true}
	var own []Tweet
	seen := map[string]bool{root.ID: true}
	for _, t := range conversation {
		present[t.ID] = true
	}
	for _, t := range conversation {
		if seen[t.ID] || !sameAuthor(root.Author, t.Author.ID, t.Author.Username) || t.InReplyToID == "" {
			continue
		}
		seen[t.ID] = true
		if t.InReplyToUserID != "" && t.InReplyToUserID != root.Author.ID && root.Author.ID != "" {
			continue // a reply to someone else
		}
		own = append(own, t)
	}
	slices.SortFunc(own, func(a, b Tweet) int {
		if c := a.Time.Compare(b.Time); c != 0 {
			return c
		}
		return cmp.Compare(idKey(a.ID), idKey(b.ID))
	})

	chain := []Tweet{root}
	used := map[string]bool{root.ID: true}
	cur := root
	for len(chain) < maxThreadTweets {
		next := -1
		for i, t := range own {
			if !used[t.ID] && t.InReplyToID == cur.ID {
				next = i
				break
			}
		}
		if next < 0 {
			for i, t := range own {
				if !used[t.ID] && !present[t.InReplyToID] && !t.Time.Before(cur.Time) {
					next = i
					break
				}
			}
		}
		if next < 0 {
			break
		}
		cur = own[next]
		used[cur.ID] = true
		chain = append(chain, cur)
	}
	return chain
}

// walkBack follows t's parents through conv while they are by t's author
// and returns the earliest one reached.
func walkBack(t Tweet, conv []Tweet) Tweet {
	byID := make(map[string]Tweet, len(conv))
	for _, c := range conv {
		byID[c.ID] = c
	}
	for range maxThreadTweets {
		parent, ok := byID[t.InReplyToID]
		if !ok || parent.Author.ID != t.Author.ID || parent.Author.Username != t.Author.Username {
			break
		}
		t = parent
	}
	return t
}

// idKey orders numeric IDs numerically (shorter first) when times tie.
func idKey(id string) string { return fmt.Sprintf("%020s", id) }

// ThreadText renders thread tweets as numbered plain text: "n/total text",
// blocks separated by a blank line. offset is the position of the first
// tweet in the whole thread.
func ThreadText(tweets []Tweet, offset, total int) string {
	var b strings.Builder
	for i, t := range tweets {
		if i > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "%d/%d %s", offset+i+1, total, t.Text)
	}
	return b.String()
}

// ThreadMarkdown renders thread tweets as Markdown: a heading naming the
// author, then each tweet as a block quote followed by a link to it.
func ThreadMarkdown(tweets []Tweet, offset, total int) string {
	if len(tweets) == 0 {
		return ""
	}
	var b strings.Builder
	a := tweets[0].Author
	name := a.DisplayName
	if name == "" {
		name = a.Username
	}
	fmt.Fprintf(&b, "# Thread by %s ([@%s](%s))\n", mdEscape(name), a.Username, profileURL(a.Username))
	for i, t := range tweets {
		b.WriteString("\n")
		for line := range strings.SplitSeq(t.Text, "\n") {
			b.WriteString("> ")
			b.WriteString(mdEscape(line))
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "\n[%d/%d](%s)", offset+i+1, total, t.URL)
		if t.CreatedAt != "" {
			b.WriteString(" · " + t.CreatedAt)
		}
		b.WriteString("\n")
	}
	return b.String()
}

var mdEscaper = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", "&lt;", ">", "&gt;")

func mdEscape(s string) string { return mdEscaper.Replace(s) }

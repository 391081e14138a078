package microblog

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/strictjson"
)

// Bounds of a file export.
const (
	maxFileLine    = 1 << 20 // bytes per JSON line
	maxFileRecords = 1_000_000
)

// File is the Provider over a local JSON Lines export, so that the
// analysis runs offline on data a user already has. Each line is one
// record, a tweet or a profile:
//
//	{"id":"1","text":"...","created_at":"2024-05-01T09:30:00Z",
//	 "author":{"id":"7","username":"ana","display_name":"Ana","verified":false,"followers_count":1200},
//	 "metrics":{"like_count":3,"reply_count":1,"retweet_count":0,"quote_count":0,"view_count":80},
//	 "conversation_id":"1","in_reply_to_id":"","in_reply_to_user_id":"","has_media":false}
//	{"type":"profile","id":"7","username":"ana","display_name":"Ana","followers_count":1200,...}
//
// created_at is ISO 8601 or the classic form; absent metrics are 0. Blank
// lines and lines starting with "//" are skipped.
//
// Search understands words and "quoted phrases" (all must occur), -word
// (must not), (a OR b) groups (one must), from:user, #hashtag and
// @mention, case-insensitively. Lists are paged with offset cursors.
type File struct {
	name     string
	tweets   []Tweet // newest first
	byID     map[string]int
	profiles map[string]Profile // by lower-case username
}

// fileRecord is one line of an export.
type fileRecord struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Text      string `json:"text"`
	CreatedAt string `json:"created_at"`
	Author    struct {
		ID             string `json:"id"`
		Username       string `json:"username"`
		DisplayName    string `json:"display_name"`
		Verified       bool   `json:"verified"`
		FollowersCount *int64 `json:"followers_count"`
	} `json:"author"`
	Metrics         Metrics `json:"metrics"`
	ConversationID  string  `json:"conversation_id"`
	InReplyToID     string  `json:"in_reply_to_id"`
	InReplyToUserID string  `json:"in_reply_to_user_id"`
	HasMedia        bool    `json:"has_media"`

	// Profile fields.
	Username        string `json:"username"`
	DisplayName     string `json:"display_name"`
	Description     string `json:"description"`
	Location        string `json:"location"`
	Verified        bool   `json:"verified"`
	FollowersCount  int64  `json:"followers_count"`
	FollowingCount  int64  `json:"following_count"`
	TweetCount      int64  `json:"tweet_count"`
	ProfileImageURL string `json:"profile_image_url"`
}

// FileConfig configures a [File] provider: the export is read from the
// files at Paths, in order, then from Reader. At least one is required.
type FileConfig struct {
	// Paths are JSON Lines exports to read; default none.
	Paths []string
	// Reader, when set, is read after Paths; default nil.
	Reader io.Reader
	// Name is the provider's data_source; default "file:<base name>" of
	// the first path ("file:" and the names joined by "," for several),
	// or "file" when only Reader is given.
	Name string
}

// NewFile reads the JSON Lines exports that cfg names into a provider. The
// error names the file and line of a bad record; it wraps
// [ErrInvalidConfig] when cfg names no data.
func NewFile(cfg FileConfig) (*File, error) {
	if len(cfg.Paths) == 0 && cfg.Reader == nil {
		return nil, invalidConfig("file: Paths or Reader is required")
	}
	name := cfg.Name
	if name == "" {
		bases := make([]string, len(cfg.Paths))
		for i, path := range cfg.Paths {
			bases[i] = path[strings.LastIndexAny(path, `/\`)+1:]
		}
		name = "file"
		if len(bases) > 0 {
			name += ":" + strings.Join(bases, ",")
		}
	}
	p := &File{name: name, byID: map[string]int{}, profiles: map[string]Profile{}}
	for _, path := range cfg.Paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("microblog: %w", err)
		}
		err = p.read(path[strings.LastIndexAny(path, `/\`)+1:], f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("microblog: %w", err)
		}
	}
	if cfg.Reader != nil {
		if err := p.read(name, cfg.Reader); err != nil {
			return nil, fmt.Errorf("microblog: %w", err)
		}
	}
	p.index()
	return p, nil
}

// read adds the records of the export r, named name in errors.
func (p *File) read(name string, r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxFileLine)
	line := 0
	for sc.Scan() {
		line++
		b := strings.TrimSpace(sc.Text())
		if b == "" || strings.HasPrefix(b, "//") {
			continue
		}
		if len(p.tweets)+len(p.profiles) >= maxFileRecords {
			return fmt.Errorf("%s: more than %d records", name, maxFileRecords)
		}
		var rec fileRecord
		if err := json.Unmarshal([]byte(b), &rec); err != nil {
			return fmt.Errorf("%s line %d: %w", name, line, strictjson.Describe(err))
		}
		switch rec.Type {
		case "profile":
			if rec.Username == "" {
				return fmt.Errorf("%s line %d: profile without username", name, line)
			}
			p.profiles[strings.ToLower(rec.Username)] = Profile{
				ID: rec.ID, Username: rec.Username, DisplayName: rec.DisplayName, Description: rec.Description,
				Location: rec.Location, Verified: rec.Verified, FollowersCount: rec.FollowersCount,
				FollowingCount: rec.FollowingCount, TweetCount: rec.TweetCount,
				CreatedAt: formatCreatedAt(parseTime(rec.CreatedAt)), ProfileImageURL: rec.ProfileImageURL,
			}
		case "", "tweet":
			if rec.ID == "" || rec.Author.Username == "" {
				return fmt.Errorf("%s line %d: tweet without id or author.username", name, line)
			}
			followers := int64(-1)
			if rec.Author.FollowersCount != nil {
				followers = *rec.Author.FollowersCount
			}
			t := Tweet{
				ID: rec.ID, Text: rec.Text,
				Author:  Author{ID: rec.Author.ID, Username: rec.Author.Username, DisplayName: rec.Author.DisplayName, Verified: rec.Author.Verified, Followers: followers},
				Metrics: rec.Metrics, Time: parseTime(rec.CreatedAt), ConversationID: rec.ConversationID,
				InReplyToID: rec.InReplyToID, InReplyToUserID: rec.InReplyToUserID, HasMedia: rec.HasMedia,
			}
			if t.ConversationID == "" && t.InReplyToID == "" {
				t.ConversationID = t.ID
			}
			p.tweets = append(p.tweets, t)
		default:
			return fmt.Errorf("%s line %d: unknown record type %q", name, line, rec.Type)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s line %d: %w", name, line+1, err)
	}
	return nil
}

// index sorts the tweets newest first and indexes them by ID.
func (p *File) index() {
	slices.SortStableFunc(p.tweets, func(a, b Tweet) int {
		if c := b.Time.Compare(a.Time); c != 0 {
			return c
		}
		return cmp.Compare(idKey(b.ID), idKey(a.ID))
	})
	for i, t := range p.tweets {
		p.byID[t.ID] = i
	}
}

// Name implements Provider.
func (p *File) Name() string { return p.name }

// Profile implements Provider. Without a profile record, the profile is
// derived from the user's tweets (the tweet count is theirs in the file).
func (p *File) Profile(_ context.Context, username string) (Profile, error) {
	if prof, ok := p.profiles[strings.ToLower(username)]; ok {
		return prof, nil
	}
	var prof Profile
	for _, t := range p.tweets {
		if strings.EqualFold(t.Author.Username, username) {
			if prof.ID == "" {
				prof = Profile{ID: t.Author.ID, Username: t.Author.Username, DisplayName: t.Author.DisplayName, Verified: t.Author.Verified, FollowersCount: max(t.Author.Followers, 0)}
			}
			prof.TweetCount++
		}
	}
	if prof.Username == "" {
		return Profile{}, envelope.Errorf(envelope.CodeNotFound, "user @%s not found in %s", username, p.name)
	}
	return prof, nil
}

// pageOf cuts a page from ts at the offset cursor.
func pageOf(ts []Tweet, limit int, cursor string) (Page, error) {
	off := 0
	if cursor != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(cursor, "o"))
		if err != nil || n < 0 || !strings.HasPrefix(cursor, "o") {
			return Page{}, envelope.Invalid("cursor", "is not a cursor of this list")
		}
		off = min(n, len(ts))
	}
	limit = max(limit, 1)
	end := min(off+limit, len(ts))
	page := Page{Tweets: slices.Clone(ts[off:end])}
	if end < len(ts) {
		page.HasNext, page.NextCursor = true, "o"+strconv.Itoa(end)
	}
	return page, nil
}

func (p *File) filter(keep func(Tweet) bool) []Tweet {
	var out []Tweet
	for _, t := range p.tweets {
		if keep(t) {
			out = append(out, t)
		}
	}
	return out
}

// UserTweets implements Provider.
func (p *File) UserTweets(ctx context.Context, q UserTweetsQuery) (Page, error) {
	if _, err := p.Profile(ctx, q.Username); err != nil {
		return Page{}, err
	}
	ts := p.filter(func(t Tweet) bool {
		return strings.EqualFold(t.Author.Username, q.Username) && (q.IncludeReplies || !t.IsReply())
	})
	return pageOf(ts, q.Limit, q.Cursor)
}

// Search implements Provider: latest is newest first, top is most
// engagement first.
func (p *File) Search(_ context.Context, q SearchQuery) (Page, error) {
	m := compileQuery(q.Query)
	ts := p.filter(m.match)
	if q.Type == SearchTop {
		slices.SortStableFunc(ts, func(a, b Tweet) int { return cmp.Compare(b.Metrics.Engagement(), a.Metrics.Engagement()) })
	}
	return pageOf(ts, q.Limit, q.Cursor)
}

// Tweet implements Provider.
func (p *File) Tweet(_ context.Context, id string) (Tweet, error) {
	i, ok := p.byID[id]
	if !ok {
		return Tweet{}, envelope.Errorf(envelope.CodeNotFound, "tweet %s not found in %s", id, p.name)
	}
	return p.tweets[i], nil
}

// Replies implements Provider: the direct replies to the tweet.
func (p *File) Replies(ctx context.Context, q RepliesQuery) (Page, error) {
	if _, err := p.Tweet(ctx, q.TweetID); err != nil {
		return Page{}, err
	}
	ts := p.filter(func(t Tweet) bool { return t.InReplyToID == q.TweetID })
	if q.Sort == SortRelevance {
		slices.SortStableFunc(ts, func(a, b Tweet) int { return cmp.Compare(b.Metrics.Engagement(), a.Metrics.Engagement()) })
	}
	sortReplies(ts, q.Sort)
	return pageOf(ts, q.Limit, q.Cursor)
}

// Conversation implements Provider.
func (p *File) Conversation(ctx context.Context, q PageQuery) (Page, error) {
	root, err := p.Tweet(ctx, q.TweetID)
	if err != nil {
		return Page{}, err
	}
	conv := cmp.Or(root.ConversationID, root.ID)
	ts := p.filter(func(t Tweet) bool { return t.ConversationID == conv || t.ID == conv })
	slices.Reverse(ts) // oldest first
	return pageOf(ts, max(q.Limit, 100), q.Cursor)
}

// query is a compiled search query of the file provider.
type query struct {
	all  []string   // each must occur
	none []string   // none may occur
	any  [][]string // of each group, one must occur
	from string     // author username
}

func compileQuery(s string) query {
	var q query
	toks := queryTokens(s)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t == "(":
			var group []string
			for i++; i < len(toks) && toks[i] != ")"; i++ {
				if !strings.EqualFold(toks[i], "OR") {
					group = append(group, strings.ToLower(toks[i]))
				}
			}
			if len(group) > 0 {
				q.any = append(q.any, group)
			}
		case strings.EqualFold(t, "OR"), t == ")":
		case strings.HasPrefix(strings.ToLower(t), "from:"):
			q.from = strings.TrimPrefix(strings.ToLower(t[5:]), "@")
		case strings.HasPrefix(t, "-") && len(t) > 1:
			q.none = append(q.none, strings.ToLower(t[1:]))
		default:
			q.all = append(q.all, strings.ToLower(t))
		}
	}
	return q
}

// queryTokens splits a query into words, "quoted phrases" (unquoted) and
// parentheses.
func queryTokens(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	inQuote := false
	for _, r := range s {
		switch {
		case r == '"':
			if inQuote {
				out = append(out, b.String())
				b.Reset()
			} else {
				flush()
			}
			inQuote = !inQuote
		case inQuote:
			b.WriteRune(r)
		case r == '(' || r == ')':
			flush()
			out = append(out, string(r))
		case unicode.IsSpace(r):
			flush()
		default:
			b.WriteRune(r)
		}
	}
	flush()
	return out
}

func (q query) match(t Tweet) bool {
	if q.from != "" && !strings.EqualFold(t.Author.Username, q.from) {
		return false
	}
	text := strings.ToLower(t.Text)
	has := func(term string) bool {
		if strings.ContainsAny(term, " #@") {
			return strings.Contains(text, term)
		}
		return len(cuesIn(text, []string{term})) > 0
	}
	for _, w := range q.all {
		if !has(w) {
			return false
		}
	}
	for _, w := range q.none {
		if has(w) {
			return false
		}
	}
	for _, g := range q.any {
		if !slices.ContainsFunc(g, has) {
			return false
		}
	}
	return true
}

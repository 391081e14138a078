package photosocial

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/strictjson"
)

// maxFileLine bounds one JSON Lines record of a file export.
const maxFileLine = 1 << 20

// File serves data from local JSON Lines exports, so that the
// operations and the insights run offline on a dataset a user already has.
//
// Each line is one JSON object with a "kind":
//
//	{"kind":"profile", ...fields of Profile, optionally "is_private":true}
//	{"kind":"media",   ...fields of Media; taken_at as RFC 3339 or unix seconds}
//	{"kind":"comment", "media_id":"...", ...fields of Comment}
//	{"kind":"meta",    "note":"..."}  (ignored: a label for the file)
//
// Blank lines are skipped. A media record needs id or shortcode and an
// owner.username; a comment record needs id and media_id (or shortcode).
// Media of a profile with is_private true are not served, as with a live
// provider. Cursors are offsets ("file:<n>"). Search matches usernames,
// full names and hashtags by substring.
type File struct {
	profiles map[string]fileProfile
	byOwner  map[string][]Media // newest first
	byCode   map[string]Media
	byID     map[string]Media
	comments map[string][]Comment // by media ID
	tags     map[string]int64     // media count per hashtag
}

type fileProfile struct {
	Profile
	IsPrivate     bool   `json:"is_private"`
	ProfilePicURL string `json:"profile_pic_url"`
}

type fileRecord struct {
	Kind string `json:"kind"`
}

// fileMedia accepts taken_at as a string or unix seconds.
type fileMedia struct {
	Media
	TakenAt any `json:"taken_at"`
}

type fileComment struct {
	Comment
	CreatedAt any    `json:"created_at"`
	MediaID   string `json:"media_id"`
	Shortcode string `json:"shortcode"`
}

//go:embed sampledata/sample.jsonl
var sampleFS embed.FS

// Sample returns a File provider over the bundled sample dataset:
// SAMPLE DATA of fictional accounts (@sample.bakery, @sample.trailrunner,
// ...), written for the examples and tests. It describes no real account.
func Sample() *File {
	b, err := sampleFS.ReadFile("sampledata/sample.jsonl")
	if err != nil {
		panic(err)
	}
	p, err := readFile(fileSource{"", bytes.NewReader(b)})
	if err != nil {
		panic("photosocial: the bundled sample dataset is invalid: " + err.Error())
	}
	return p
}

// FileConfig configures a [File] provider: the records are read from the
// files at Paths, in order, then from Reader. At least one is required.
type FileConfig struct {
	// Paths are JSON Lines exports to read; default none.
	Paths []string
	// Reader, when set, is read after Paths; default nil.
	Reader io.Reader
}

// NewFile reads the JSON Lines exports that cfg names into a provider. An
// invalid record is an error naming its line, after the file's base name
// for Paths ("b.jsonl line 2"); the error wraps
// [ErrInvalidConfig] when cfg names no data.
func NewFile(cfg FileConfig) (*File, error) {
	if len(cfg.Paths) == 0 && cfg.Reader == nil {
		return nil, invalidConfig("the file provider needs Paths or Reader")
	}
	var srcs []fileSource
	for _, path := range cfg.Paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("photosocial: %w", err)
		}
		defer f.Close()
		srcs = append(srcs, fileSource{filepath.Base(path), f})
	}
	if cfg.Reader != nil {
		srcs = append(srcs, fileSource{"", cfg.Reader})
	}
	return readFile(srcs...)
}

// fileSource is one export of a File provider; errors name its lines
// with name, when it has one.
type fileSource struct {
	name string
	r    io.Reader
}

// at names line of the source in errors: "b.jsonl line 2", or "line 2".
func (s fileSource) at(line int) string {
	return strings.TrimSpace(s.name + " line " + strconv.Itoa(line))
}

// recordError reports the record at (see fileSource.at) that lacks what
// need says, or that does not decode (err).
func recordError(at string, need string, err error) error {
	if err != nil {
		return fmt.Errorf("photosocial: %s: %s: %w", at, need, strictjson.Describe(err))
	}
	return fmt.Errorf("photosocial: %s: %s", at, need)
}

// readFile reads JSON Lines records from the sources, in order.
func readFile(srcs ...fileSource) (*File, error) {
	p := &File{
		profiles: map[string]fileProfile{}, byOwner: map[string][]Media{}, byCode: map[string]Media{},
		byID: map[string]Media{}, comments: map[string][]Comment{}, tags: map[string]int64{},
	}
	var pending []fileComment
	for _, src := range srcs {
		if err := p.read(src, &pending); err != nil {
			return nil, err
		}
	}
	for _, fc := range pending {
		id := fc.MediaID
		if id == "" {
			if m, ok := p.byCode[fc.Shortcode]; ok {
				id = m.ID
			}
		}
		p.comments[id] = append(p.comments[id], fc.Comment)
	}
	for _, ms := range p.byOwner {
		slices.SortStableFunc(ms, func(a, b Media) int { return cmp.Compare(b.TakenAt, a.TakenAt) })
	}
	return p, nil
}

// read adds the records of src, and the comments to pending, which are
// placed once every media record is read.
func (p *File) read(src fileSource, pending *[]fileComment) error {
	sc := bufio.NewScanner(src.r)
	sc.Buffer(make([]byte, 64<<10), maxFileLine)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var rec fileRecord
		if err := json.Unmarshal(b, &rec); err != nil {
			return fmt.Errorf("photosocial: %s: %w", src.at(line), strictjson.Describe(err))
		}
		switch rec.Kind {
		case "meta":
		case "profile":
			var fp fileProfile
			if err := json.Unmarshal(b, &fp); err != nil || fp.Username == "" {
				return recordError(src.at(line), "a profile needs a username", err)
			}
			fp.Username = strings.ToLower(fp.Username)
			p.profiles[fp.Username] = fp
		case "media":
			var fm fileMedia
			if err := json.Unmarshal(b, &fm); err != nil || (fm.ID == "" && fm.Shortcode == "") || fm.Owner.Username == "" {
				return recordError(src.at(line), "a media record needs id or shortcode and owner.username", err)
			}
			m := fm.Media
			m.TakenAt = parseTime(fm.TakenAt)
			m.Owner.Username = strings.ToLower(m.Owner.Username)
			if m.Shortcode == "" {
				m.Shortcode, _ = MediaIDToShortcode(m.ID)
			}
			if m.ID == "" {
				m.ID, _ = ShortcodeToMediaID(m.Shortcode)
			}
			if m.Type == "" {
				m.Type = TypeImage
			}
			if m.Hashtags == nil {
				m.Hashtags = extractTags(m.Caption, '#')
			}
			p.byOwner[m.Owner.Username] = append(p.byOwner[m.Owner.Username], m)
			p.byID[m.ID] = m
			if m.Shortcode != "" {
				p.byCode[m.Shortcode] = m
			}
			for _, h := range m.Hashtags {
				p.tags[strings.ToLower(h)]++
			}
		case "comment":
			var fc fileComment
			if err := json.Unmarshal(b, &fc); err != nil || fc.ID == "" || (fc.MediaID == "" && fc.Shortcode == "") {
				return recordError(src.at(line), "a comment needs id and media_id or shortcode", err)
			}
			fc.Comment.CreatedAt = parseTime(fc.CreatedAt)
			*pending = append(*pending, fc)
		default:
			return fmt.Errorf("photosocial: %s: unknown kind %q (want profile, media, comment or meta)", src.at(line), rec.Kind)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("photosocial: reading records: %s: %w", cmp.Or(src.name, "reader"), err)
	}
	return nil
}

// Name implements Provider.
func (p *File) Name() string { return "file" }

// Profile implements Provider.
func (p *File) Profile(_ context.Context, username string) (Profile, error) {
	fp, ok := p.profiles[username]
	if !ok {
		return Profile{}, notFound("the account @%s is not in the dataset", username)
	}
	return fp.Profile, nil
}

// UserMedia implements Provider; reels are the media of type reel.
func (p *File) UserMedia(_ context.Context, q UserMediaQuery) (MediaPage, error) {
	fp, known := p.profiles[q.Username]
	ms, any := p.byOwner[q.Username]
	if !known && !any {
		return MediaPage{}, notFound("the account @%s is not in the dataset", q.Username)
	}
	if fp.IsPrivate {
		return MediaPage{Notes: []string{"no public media: the account is private"}}, nil
	}
	off, err := offsetCursor("file", q.Cursor)
	if err != nil {
		return MediaPage{}, err
	}
	if q.Reels {
		ms = slices.DeleteFunc(slices.Clone(ms), func(m Media) bool { return m.Type != TypeReel })
	}
	win, next := window("file", ms, off, q.Limit)
	return MediaPage{Media: slices.Clone(win), Next: next}, nil
}

func (p *File) lookup(ref MediaRef) (Media, error) {
	if ref.Shortcode != "" {
		if m, ok := p.byCode[ref.Shortcode]; ok {
			return m, nil
		}
		return Media{}, notFound("media %s is not in the dataset", ref.Shortcode)
	}
	id, _, _ := strings.Cut(ref.MediaID, "_")
	if m, ok := p.byID[id]; ok {
		return m, nil
	}
	return Media{}, notFound("media %s is not in the dataset", ref.MediaID)
}

// Media implements Provider.
func (p *File) Media(_ context.Context, ref MediaRef) (Media, error) {
	return p.lookup(ref)
}

// Comments implements Provider.
func (p *File) Comments(_ context.Context, q CommentsQuery) (CommentPage, error) {
	m, err := p.lookup(q.Media)
	if err != nil {
		return CommentPage{}, err
	}
	off, err := offsetCursor("file", q.Cursor)
	if err != nil {
		return CommentPage{}, err
	}
	win, next := window("file", p.comments[m.ID], off, q.Limit)
	return CommentPage{Comments: slices.Clone(win), Next: next}, nil
}

// HashtagMedia implements Provider: media of public profiles with the
// tag, by engagement for top and by time for recent.
func (p *File) HashtagMedia(_ context.Context, q HashtagQuery) (MediaPage, error) {
	off, err := offsetCursor("file", q.Cursor)
	if err != nil {
		return MediaPage{}, err
	}
	var ms []Media
	for owner, list := range p.byOwner {
		if p.profiles[owner].IsPrivate {
			continue
		}
		for _, m := range list {
			if slices.Contains(m.Hashtags, q.Hashtag) {
				ms = append(ms, m)
			}
		}
	}
	slices.SortFunc(ms, func(a, b Media) int {
		if q.Sort == "recent" {
			return cmp.Or(cmp.Compare(b.TakenAt, a.TakenAt), cmp.Compare(a.ID, b.ID))
		}
		return cmp.Or(cmp.Compare(b.LikeCount+b.CommentCount, a.LikeCount+a.CommentCount), cmp.Compare(a.ID, b.ID))
	})
	win, next := window("file", ms, off, q.Limit)
	return MediaPage{Media: win, Next: next}, nil
}

// Search implements Provider: exact matches first, then prefixes, then
// substrings; ties by followers or media count.
func (p *File) Search(_ context.Context, q SearchQuery) (SearchPage, error) {
	off, err := offsetCursor("file", q.Cursor)
	if err != nil {
		return SearchPage{}, err
	}
	needle := strings.ToLower(q.Query)
	rank := func(s string) int {
		s = strings.ToLower(s)
		switch {
		case s == needle:
			return 0
		case strings.HasPrefix(s, needle):
			return 1
		case strings.Contains(s, needle):
			return 2
		}
		return 3
	}
	type hit struct {
		r     SearchResult
		rank  int
		count int64
		key   string
	}
	var hits []hit
	if q.Type == "hashtag" {
		for tag, n := range p.tags {
			if r := rank(tag); r < 3 {
				hits = append(hits, hit{SearchResult{Type: "hashtag", Hashtag: &HashtagHit{Name: tag, MediaCount: n}}, r, n, tag})
			}
		}
	} else {
		for _, fp := range p.profiles {
			r := min(rank(fp.Username), rank(fp.FullName))
			if r < 3 {
				hits = append(hits, hit{SearchResult{Type: "profile", Profile: &ProfileHit{
					ID: fp.ID, Username: fp.Username, FullName: fp.FullName, IsVerified: fp.IsVerified,
					FollowersCount: fp.FollowersCount, ProfilePicURL: fp.ProfilePicURL,
				}}, r, fp.FollowersCount, fp.Username})
			}
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(b.count, a.count), cmp.Compare(a.key, b.key))
	})
	rs := make([]SearchResult, len(hits))
	for i, h := range hits {
		rs[i] = h.r
	}
	win, next := window("file", rs, off, q.Limit)
	return SearchPage{Results: win, Next: next}, nil
}

// maxFileOffset bounds how deep the offset cursor of the file provider
// may page.
const maxFileOffset = 1000

// offsetCursor parses an offset cursor ("file:<offset>").
func offsetCursor(prefix, cursor string) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(cursor, prefix+":"))
	if !strings.HasPrefix(cursor, prefix+":") || err != nil || n < 0 || n > maxFileOffset {
		return 0, envelope.Invalidf("cursor", "must be a next_cursor from a previous page of this provider (%s:<offset up to %d>)", prefix, maxFileOffset)
	}
	return n, nil
}

// window cuts items[offset:offset+limit] and the cursor of what follows.
func window[T any](prefix string, items []T, offset, limit int) ([]T, string) {
	if offset >= len(items) {
		return nil, ""
	}
	end := min(offset+limit, len(items))
	next := ""
	if len(items) > end && end <= maxFileOffset {
		next = fmt.Sprintf("%s:%d", prefix, end)
	}
	return items[offset:end], next
}

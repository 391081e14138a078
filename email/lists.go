package email

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"golang.org/x/net/idna"

	"github.com/quiverkit/quiver/internal/textcut"
)

//go:generate go run ./internal/gen -out data

var (
	//go:embed data/disposable.txt.gz
	disposableGz []byte
	//go:embed data/free.txt.gz
	freeGz []byte
	//go:embed data/roles.txt
	rolesTxt string
	//go:embed data/allowlist.txt
	allowTxt string
)

// Lists are the facts the checks consult: disposable domains, the
// allowlist that overrides them, free mailbox providers and role names.
// A Lists is immutable and safe for concurrent use; the With methods
// return a modified copy.
type Lists struct {
	disposable []string // sorted, lowercase ASCII domains
	allow      []string // sorted
	free       []string // sorted
	roles      []string // sorted
}

// DefaultLists returns the lists embedded in the package, generated from
// published data packages (see data/NOTICE.md). They are decoded once, on
// first use, and shared: derive changes with the With methods.
func DefaultLists() *Lists { return defaultLists() }

var defaultLists = sync.OnceValue(func() *Lists {
	return &Lists{
		disposable: mustLines(gunzip(disposableGz)),
		free:       mustLines(gunzip(freeGz)),
		roles:      mustLines(strings.NewReader(rolesTxt), nil),
		allow:      mustLines(strings.NewReader(allowTxt), nil),
	}
})

func gunzip(b []byte) (io.Reader, error) { return gzip.NewReader(bytes.NewReader(b)) }

func mustLines(r io.Reader, err error) []string {
	if err != nil {
		panic("email: embedded list: " + err.Error())
	}
	l, err := readList(r, false)
	if err != nil {
		panic("email: embedded list: " + err.Error())
	}
	return l
}

// Bounds of a list read at run time.
const (
	maxListEntries = 5_000_000
	maxListBytes   = 256 << 20
)

// readList reads one entry a line; blank lines and # comments are skipped.
// With domains, each entry must be a valid domain and is stored in ASCII
// form. The entries share the memory of one string.
func readList(r io.Reader, domains bool) ([]string, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxListBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxListBytes {
		return nil, fmt.Errorf("larger than %d bytes", maxListBytes)
	}
	var out []string
	rest := string(data)
	for n := 1; rest != ""; n++ {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		line, _, _ = strings.Cut(line, "#")
		line = strings.ToLower(strings.TrimSpace(line))
		if line == "" {
			continue
		}
		if domains {
			a, err := idna.Lookup.ToASCII(strings.TrimPrefix(line, "*."))
			if err != nil || !strings.Contains(a, ".") {
				return nil, fmt.Errorf("line %d: %s is not a domain", n, textcut.Quote(line))
			}
			line = a
		}
		if len(out) >= maxListEntries {
			return nil, fmt.Errorf("more than %d entries", maxListEntries)
		}
		out = append(out, line)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// WithDisposable returns a copy of l whose disposable list is read from r
// (one domain a line, # comments; "*." prefixes are accepted), e.g. a
// newer list downloaded at run time. It replaces the embedded list.
func (l *Lists) WithDisposable(r io.Reader) (*Lists, error) {
	d, err := readList(r, true)
	if err != nil {
		return nil, fmt.Errorf("email: disposable list: %w", err)
	}
	c := *l
	c.disposable = d
	return &c, nil
}

// WithAllowed returns a copy of l that never reports the domains (and
// their subdomains) as disposable.
func (l *Lists) WithAllowed(domains ...string) *Lists {
	c := *l
	c.allow = slices.Clone(l.allow)
	for _, d := range domains {
		if a, err := idna.Lookup.ToASCII(strings.ToLower(strings.TrimSpace(d))); err == nil && a != "" {
			c.allow = append(c.allow, a)
		}
	}
	slices.Sort(c.allow)
	c.allow = slices.Compact(c.allow)
	return &c
}

// Len returns the number of disposable domains, free providers and role
// names.
func (l *Lists) Len() (disposable, free, roles int) {
	return len(l.disposable), len(l.free), len(l.roles)
}

func has(sorted []string, s string) bool {
	_, ok := slices.BinarySearch(sorted, s)
	return ok
}

// matchDomain reports whether domain or one of its parent domains (down to
// two labels) is in sorted.
func matchDomain(sorted []string, domain string) bool {
	for d := domain; strings.Contains(d, "."); {
		if has(sorted, d) {
			return true
		}
		_, d, _ = strings.Cut(d, ".")
	}
	return false
}

// IsDisposable reports whether asciiDomain (lowercase, A-labels) is a
// disposable-mail domain or a subdomain of one, and not allowlisted.
func (l *Lists) IsDisposable(asciiDomain string) bool {
	return matchDomain(l.disposable, asciiDomain) && !matchDomain(l.allow, asciiDomain)
}

// IsFree reports whether asciiDomain is a free mailbox provider (exact
// match: a company's subdomain of a provider is not the provider).
func (l *Lists) IsFree(asciiDomain string) bool { return has(l.free, asciiDomain) }

// IsRole reports whether local is a role name, compared
// case-insensitively after removing any quotes and a +tag: Support+eu is
// the role support.
func (l *Lists) IsRole(local string) bool { return has(l.roles, roleName(local)) }

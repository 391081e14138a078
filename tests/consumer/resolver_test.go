package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/quiverkit/quiver/resolver"
)

// resolver.New refuses, as its documentation says, a server address that
// cannot work, instead of failing at the first lookup as "server
// unreachable"; the error names the field and the rule.
func TestResolverNewServers(t *testing.T) {
	for _, tc := range []struct {
		server string
		want   string // the server as Servers reports it; "" when refused
		rule   string // in the error when refused
	}{
		{"192.0.2.53", "192.0.2.53:53", ""},
		{"192.0.2.53:5353", "192.0.2.53:5353", ""},
		{" 192.0.2.53:53 ", "192.0.2.53:53", ""},
		{"2001:db8::53", "[2001:db8::53]:53", ""},
		{"[2001:db8::53]", "[2001:db8::53]:53", ""},
		{"[2001:db8::53]:5353", "[2001:db8::53]:5353", ""},
		{"[::ffff:192.0.2.53]:53", "[::ffff:192.0.2.53]:53", ""},
		{"127.0.0.1:65535", "127.0.0.1:65535", ""},
		{"127.0.0.1:1", "127.0.0.1:1", ""},

		{"127.0.0.1:99999", "", "from 1 to 65535"},
		{"127.0.0.1:65536", "", "from 1 to 65535"},
		{"127.0.0.1:0", "", "from 1 to 65535"},
		{"127.0.0.1:abc", "", "from 1 to 65535"},
		{"127.0.0.1:", "", "from 1 to 65535"},
		{"127.0.0.1:-53", "", "from 1 to 65535"},
		{"[2001:db8::53]:0", "", "from 1 to 65535"},
		{"[2001:db8::53]:70000", "", "from 1 to 65535"},
		{"http://1.1.1.1", "", "has a scheme"},
		{"udp://192.0.2.53:53", "", "has a scheme"},
		{"dns.example", "", "not an IP address"},
		{"dns.example:53", "", "host name"},
		{"localhost:53", "", "host name"},
		{"[192.0.2.53]", "", "not an IP address"},
		{"[2001:db8::53", "", "not an IP address"},
		{"2001:db8::53]:53", "", "not an IP address"},
		{"192.0.2.53:53:53", "", "not an IP address"},
		{"192.0.2.256", "", "not an IP address"},
		{"[fe80::53%eth0]:53", "[fe80::53%eth0]:53", ""},
		{"::%]0", "", "IPv6 zone"},
		{"[fe80::53%a:b]:53", "", "IPv6 zone"},
	} {
		r, err := resolver.New(resolver.Config{Servers: []string{"192.0.2.1", tc.server}})
		if tc.want != "" {
			if err != nil {
				t.Errorf("%q: %v", tc.server, err)
				continue
			}
			if got := r.Servers(); len(got) != 2 || got[1] != tc.want {
				t.Errorf("%q: servers %q, want [192.0.2.1:53 %s]", tc.server, got, tc.want)
			}
			continue
		}
		if !errors.Is(err, resolver.ErrInvalidConfig) {
			t.Errorf("%q: err = %v, want resolver.ErrInvalidConfig", tc.server, err)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "Servers[1]") || !strings.Contains(msg, tc.rule) {
			t.Errorf("%q: error %q does not name Servers[1] and the rule %q", tc.server, msg, tc.rule)
		}
	}
	// Only blanks: no server is left.
	if _, err := resolver.New(resolver.Config{Servers: []string{" ", ""}}); !errors.Is(err, resolver.ErrNoServers) {
		t.Errorf("blank servers: err = %v, want resolver.ErrNoServers", err)
	}
}

package weburl

import (
	"net/netip"
	"strings"
)

// ParseHost parses a URL host (without port) by the Standard's host
// parser for special schemes, and returns the serialized host (an IPv6
// address in brackets) and, when the host is an IP address, the address.
// It reads hosts as browsers do: percent-decoding, UTS #46 mapping to
// A-labels, and the IPv4 parser that accepts "2130706433", "0x7f.1",
// "0177.0.0.1" and "127.1". An IPv6 address may be given with or without
// brackets. Characters that end a host in a URL ("/", "?", "#", "@",
// "\", ":" outside an IPv6 address) and controls are refused, not cut at.
func ParseHost(host string) (string, netip.Addr, error) {
	if host == "" {
		return "", netip.Addr{}, &Error{Rule: "has an empty host"}
	}
	for i := 0; i < len(host); i++ {
		if c := host[i]; c <= 0x20 || c == 0x7f || strings.IndexByte("/?#@\\", c) >= 0 {
			return "", netip.Addr{}, &Error{Rule: "has a host with the forbidden character " + quoteShort(host[i:i+1])}
		}
	}
	if strings.HasPrefix(host, "[") && !strings.HasSuffix(host, "]") {
		// "[::1]:80": a port is not part of a host (and a default one
		// would vanish in the serialization).
		return "", netip.Addr{}, &Error{Rule: "has an IPv6 host without its closing ] at the end: " + quoteShort(host)}
	}
	if strings.Contains(host, ":") && !strings.HasPrefix(host, "[") {
		host = "[" + host + "]"
	}
	u, err := Parse("http://" + host + "/")
	if err != nil {
		return "", netip.Addr{}, err
	}
	if u.Port != "" || u.Username != "" || u.Password != "" || u.Path != "/" || u.HasQuery || u.HasFragment {
		return "", netip.Addr{}, &Error{Rule: "has a host with a character that ends a host: " + quoteShort(host)}
	}
	return u.Host, u.Addr, nil
}

package webcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/safehttp"
	"github.com/quiverkit/quiver/secret"
)

// ThreatIntel is a source of known-bad URLs, consulted by
// [Checker.CheckURLSafety] for every URL of a redirect chain.
type ThreatIntel interface {
	// Lookup returns the matches among urls; none when all are clean.
	Lookup(ctx context.Context, urls []string) ([]ThreatMatch, error)
}

// ThreatMatch is one URL a threat source lists.
type ThreatMatch struct {
	// URL is the URL that matched.
	URL string `json:"url"`
	// ThreatType is the source's category in lower snake case, e.g.
	// "malware", "social_engineering", "unwanted_software",
	// "potentially_harmful_application".
	ThreatType string `json:"threat_type"`
}

// DefaultSafeBrowsingBaseURL is the Safe Browsing API base URL.
const DefaultSafeBrowsingBaseURL = "https://safebrowsing.googleapis.com"

// SafeBrowsing is a [ThreatIntel] on the Google Safe Browsing v4 Lookup API
// (threatMatches:find). Only APIKey is required.
type SafeBrowsing struct {
	// APIKey is the API key, sent in a header, never in the URL; its
	// printed forms show "[redacted]" (see package secret). Required.
	APIKey secret.String
	// BaseURL is the API base URL. Default DefaultSafeBrowsingBaseURL.
	BaseURL string
	// ClientID and ClientVersion identify the client to Google. Default
	// "quiver" and "1.0".
	ClientID, ClientVersion string
	// HTTPClient sends the requests. Default: a client with a 10s timeout.
	HTTPClient *http.Client
}

// The Safe Browsing v4 wire format.
type (
	sbRequest struct {
		Client     sbClient     `json:"client"`
		ThreatInfo sbThreatInfo `json:"threatInfo"`
	}
	sbClient struct {
		ClientID      string `json:"clientId"`
		ClientVersion string `json:"clientVersion"`
	}
	sbThreatInfo struct {
		ThreatTypes      []string  `json:"threatTypes"`
		PlatformTypes    []string  `json:"platformTypes"`
		ThreatEntryTypes []string  `json:"threatEntryTypes"`
		ThreatEntries    []sbEntry `json:"threatEntries"`
	}
	sbEntry struct {
		URL string `json:"url"`
	}
	sbResponse struct {
		Matches []struct {
			ThreatType string  `json:"threatType"`
			Threat     sbEntry `json:"threat"`
		} `json:"matches"`
	}
)

// Lookup asks Safe Browsing about urls (at most 500 per request, the API's
// limit). Failures are UPSTREAM_ERROR, UPSTREAM_TIMEOUT or, on 429,
// RATE_LIMIT_EXCEEDED.
func (s *SafeBrowsing) Lookup(ctx context.Context, urls []string) ([]ThreatMatch, error) {
	if len(urls) == 0 {
		return nil, nil
	}
	if len(urls) > 500 {
		urls = urls[:500]
	}
	body := sbRequest{
		Client: sbClient{ClientID: or(s.ClientID, "quiver"), ClientVersion: or(s.ClientVersion, "1.0")},
		ThreatInfo: sbThreatInfo{
			ThreatTypes:      []string{"MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "POTENTIALLY_HARMFUL_APPLICATION"},
			PlatformTypes:    []string{"ANY_PLATFORM"},
			ThreatEntryTypes: []string{"URL"},
		},
	}
	for _, u := range urls {
		body.ThreatInfo.ThreatEntries = append(body.ThreatInfo.ThreatEntries, sbEntry{URL: u})
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	endpoint := strings.TrimSuffix(or(s.BaseURL, DefaultSafeBrowsingBaseURL), "/") + "/v4/threatMatches:find"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	// The key goes in the header Google APIs accept for it, not in the
	// query string, where access logs and error texts would record it.
	req.Header.Set("X-Goog-Api-Key", s.APIKey.Reveal())
	hc := s.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() != nil || safehttp.IsTimeout(err) {
			return nil, envelope.Wrap(envelope.CodeUpstreamTimeout, err, "Safe Browsing did not answer in time")
		}
		return nil, envelope.Wrap(envelope.CodeUpstreamError, err, "Safe Browsing request failed")
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, envelope.Wrap(envelope.CodeUpstreamError, err, "reading the Safe Browsing answer failed")
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		e := envelope.Errorf(envelope.CodeRateLimitExceeded, "Safe Browsing quota exceeded")
		if d, err := time.ParseDuration(resp.Header.Get("Retry-After") + "s"); err == nil {
			e.RetryAfter = d
		}
		return nil, e
	case resp.StatusCode != http.StatusOK:
		return nil, envelope.Errorf(envelope.CodeUpstreamError, "Safe Browsing answered %d", resp.StatusCode)
	}
	var sr sbResponse
	if err := json.Unmarshal(data, &sr); err != nil {
		return nil, envelope.Wrap(envelope.CodeUpstreamError, err, "Safe Browsing answered malformed JSON")
	}
	out := make([]ThreatMatch, 0, len(sr.Matches))
	for _, m := range sr.Matches {
		out = append(out, ThreatMatch{URL: m.Threat.URL, ThreatType: strings.ToLower(m.ThreatType)})
	}
	return out, nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

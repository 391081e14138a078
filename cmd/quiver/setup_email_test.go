package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quiverkit/quiver/email"
)

func TestEmailSetup(t *testing.T) {
	list := filepath.Join(t.TempDir(), "disposable.txt")
	if err := os.WriteFile(list, []byte("throwaway.example\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"QUIVER_DNS_TIMEOUT": "750ms", "QUIVER_SMTP_HELO": "probe.example.org", "QUIVER_SMTP_PROXY": "socks5://probe:pw@127.0.0.1:1080", "QUIVER_DNSBL_ZONES": "bl.example,zen.example"}
	cfg, err := applyEmail(t, env, "-dns-servers", "127.0.0.1:5353,192.0.2.53", "-email-disposable-list", list, "-email-allow-domains", "ok.example", "-smtp-port", "2525", "-smtp-host-connections", "1", "-smtp-host-interval", "3s")
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Resolver.Servers(); len(got) != 2 || got[0] != "127.0.0.1:5353" || got[1] != "192.0.2.53:53" {
		t.Errorf("servers %v", got)
	}
	if !cfg.Lists.IsDisposable("throwaway.example") || cfg.Lists.IsDisposable("mailinator.com") {
		t.Error("the disposable list file was not loaded in place of the embedded one")
	}
	if cfg.SMTP.HeloName != "probe.example.org" || cfg.SMTP.Port != 2525 || cfg.SMTP.StepTimeout != 10*time.Second ||
		cfg.SMTP.Proxy != "socks5://probe:pw@127.0.0.1:1080" || cfg.SMTP.HostConnections != 1 || cfg.SMTP.HostInterval != 3*time.Second {
		t.Errorf("SMTP options %+v", cfg.SMTP)
	}
	if !slices.Equal(cfg.DNSBLZones, []string{"bl.example", "zen.example"}) {
		t.Errorf("DNSBL zones %q", cfg.DNSBLZones)
	}

	if _, err := applyEmail(t, nil, "-email-disposable-list", filepath.Join(t.TempDir(), "missing.txt"), "-dns-servers", "127.0.0.1"); err == nil {
		t.Error("a missing list file was accepted")
	}
}

// SMTP flags no server would accept stop the start, naming the setting,
// instead of failing every probe.
func TestEmailSetupRejectsUnworkableSMTP(t *testing.T) {
	for _, args := range [][]string{
		{"-smtp-helo", "probe example.org"},
		{"-smtp-mail-from", "a@b.example\r\nRCPT TO:<c@d.example>"},
		{"-smtp-port", "70000"},
		{"-smtp-proxy", "http://probe:hunter2@127.0.0.1:3128"},
		{"-smtp-proxy", "socks5://probe:hunter2@127.0.0.1"},
		{"-dnsbl-zones", "not a zone"},
	} {
		_, err := applyEmail(t, nil, append(args, "-dns-servers", "127.0.0.1")...)
		if !errors.Is(err, email.ErrInvalidConfig) {
			t.Errorf("%q: err = %v, want email.ErrInvalidConfig", args, err)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%q: the error shows the proxy password: %v", args, err)
		}
	}
}

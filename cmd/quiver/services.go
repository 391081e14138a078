package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/quiverkit/quiver/content"
	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/photosocial"
	"github.com/quiverkit/quiver/webcheck"
)

// config is every setting of the services, as the flags and their
// QUIVER_* twins fill it: each package's own Config where the package
// has one, and beside it the few settings that choose or load something
// (a provider's name, a file to read). The setups (setup_*.go) bind the
// flags to its fields; services builds the services from it.
type config struct {
	DNS        resolver.Config // UDPSize comes from DNSUDPSize
	DNSUDPSize int

	Email               email.Config // Resolver from DNS, Lists from the two fields below
	EmailDisposableList string       // a file replacing the embedded disposable list
	EmailAllowDomains   []string
	MTASTSRoots         string // a PEM file added to the system roots

	WebCheck             webcheck.Config // Resolver from DNS
	SafeBrowsingKey      secret.String
	SafeBrowsingEndpoint string

	LLM     llmConfig
	Devutil devutil.Config // LLM from LLM

	Microblog   microblogConfig
	Photosocial photosocialConfig
}

// services builds each service from a config the first time it is asked
// for, and keeps it: serve asks for every one, a command only for those
// it runs, so that a command does not fail on a setting it does not use.
// It builds every service a route or a command calls; the bulk-jobs
// Manager (jobs.go) and the shared rate limiter (redis.go) are built
// where serve wires Redis, since they run beside the handler rather than
// behind a route. serve holds two email Verifiers, one for the routes and
// one for the jobs (built with the jobs' concurrency); jobs never probe
// SMTP, so their per-mail-server pacing is never shared. Its methods are
// called from one goroutine.
type services struct {
	ctx  context.Context
	cfg  *config
	deps *deps // nil for commands: plain clients, no metrics nor caches

	resolver    lazy[*resolver.Resolver]
	lists       lazy[*email.Lists]
	verifiers   map[int]*email.Verifier // by Concurrency
	webCheck    lazy[*webcheck.Checker]
	llm         lazy[llm.Config]
	content     lazy[*content.Generator]
	regex       lazy[*devutil.RegexGenerator]
	stacktrace  lazy[*devutil.StacktraceAnalyzer]
	readme      lazy[*devutil.ReadmeGenerator]
	microblog   lazy[*microblog.Client]
	photosocial lazy[*photosocial.Client]

	closers []io.Closer // what Close closes
}

func newServices(ctx context.Context, cfg *config, d *deps) *services {
	return &services{ctx: ctx, cfg: cfg, deps: d}
}

// lazy holds a value built on first use, or the error of building it.
type lazy[T any] struct {
	done bool
	v    T
	err  error
}

func (l *lazy[T]) get(build func() (T, error)) (T, error) {
	if !l.done {
		l.v, l.err = build()
		l.done = true
	}
	return l.v, l.err
}

// resolverConfig is the configuration of the shared DNS resolver, or an
// error naming the flag whose value cannot work.
func (c *config) resolverConfig() (resolver.Config, error) {
	if n := c.DNSUDPSize; n < 512 || n > 65535 {
		return resolver.Config{}, fmt.Errorf("%s: %w: %d is not an EDNS0 buffer size, 512 to 65535 (RFC 6891 section 6.2.5)", flagName("dns-udp-size"), resolver.ErrInvalidConfig, n)
	}
	rc := c.DNS
	rc.UDPSize = uint16(c.DNSUDPSize)
	return rc, nil
}

// Resolver returns the DNS resolver shared by the email and web checks.
func (s *services) Resolver() (*resolver.Resolver, error) {
	return s.resolver.get(func() (*resolver.Resolver, error) {
		rc, err := s.cfg.resolverConfig()
		if err != nil {
			return nil, err
		}
		r, err := resolver.New(rc)
		if errors.Is(err, resolver.ErrInvalidConfig) {
			return nil, fmt.Errorf("%s: %w", flagName("dns-servers"), err)
		}
		if err != nil {
			return nil, fmt.Errorf("dns resolver: %w", err)
		}
		err = s.deps.watchDNS(func() (uint64, uint64) {
			st := r.Stats()
			return uint64(st.CacheHits), uint64(st.CacheMisses)
		})
		if err != nil {
			return nil, fmt.Errorf("dns cache metrics: %w", err)
		}
		return r, nil
	})
}

// Lists returns the disposable, free-provider and role lists: the
// embedded ones, or the -email-disposable-list file, less the
// -email-allow-domains.
func (s *services) Lists() (*email.Lists, error) {
	return s.lists.get(func() (*email.Lists, error) {
		lists := email.DefaultLists()
		if path := s.cfg.EmailDisposableList; path != "" {
			fh, err := os.Open(path)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", flagName("email-disposable-list"), err)
			}
			defer fh.Close()
			if lists, err = lists.WithDisposable(fh); err != nil {
				return nil, fmt.Errorf("%s: %w", flagName("email-disposable-list"), err)
			}
		}
		if len(s.cfg.EmailAllowDomains) > 0 {
			lists = lists.WithAllowed(s.cfg.EmailAllowDomains...)
		}
		return lists, nil
	})
}

// Email returns the email verifier of the email routes and commands.
func (s *services) Email() (*email.Verifier, error) {
	return s.Verifier(s.cfg.Email.Concurrency)
}

// Verifier returns the email verifier that checks at most concurrency
// domains or rows at once (the bulk jobs and verify-list choose theirs),
// every other setting as Email's. It is the one place where an
// email.Verifier is built.
func (s *services) Verifier(concurrency int) (*email.Verifier, error) {
	if v, ok := s.verifiers[concurrency]; ok {
		return v, nil
	}
	ec, err := s.emailConfig(concurrency)
	if err != nil {
		return nil, err
	}
	v, err := email.New(ec)
	if err != nil {
		return nil, flagsErr("Email", "email settings", err)
	}
	if s.verifiers == nil {
		s.verifiers = make(map[int]*email.Verifier)
	}
	s.verifiers[concurrency] = v
	return v, nil
}

// emailConfig is the email.Config of the flags, on the shared resolver
// and lists.
func (s *services) emailConfig(concurrency int) (email.Config, error) {
	ec := s.cfg.emailSettings(concurrency)
	var err error
	if ec.Resolver, err = s.Resolver(); err != nil {
		return ec, err
	}
	if ec.Lists, err = s.Lists(); err != nil {
		return ec, err
	}
	if path := s.cfg.MTASTSRoots; path != "" {
		if ec.MTASTS.RootCAs, err = rootsFile(path); err != nil {
			return ec, fmt.Errorf("%s: %w", flagName("mta-sts-roots"), err)
		}
	}
	return ec, nil
}

// emailSettings is the email.Config of the flags for a verifier checking
// concurrency domains or rows at once, before the resolver, lists and
// MTA-STS roots are built into it. -smtp-timeout bounds the connection
// as well as each command.
func (c *config) emailSettings(concurrency int) email.Config {
	ec := c.Email
	ec.Concurrency = concurrency
	ec.SMTP.ConnectTimeout = ec.SMTP.StepTimeout
	return ec
}

// WebCheck returns the web and domain checker.
func (s *services) WebCheck() (*webcheck.Checker, error) {
	return s.webCheck.get(func() (*webcheck.Checker, error) {
		wc := s.cfg.WebCheck
		if wc.Timeout <= 0 || wc.MaxBodyBytes <= 0 {
			return nil, fmt.Errorf("%s and %s must be positive", flagName("fetch-timeout"), flagName("fetch-max-bytes"))
		}
		r, err := s.Resolver()
		if err != nil {
			return nil, err
		}
		wc.Resolver = r
		if s.cfg.SafeBrowsingKey != "" {
			wc.ThreatIntel = &webcheck.SafeBrowsing{APIKey: s.cfg.SafeBrowsingKey, BaseURL: s.cfg.SafeBrowsingEndpoint}
		}
		c, err := webcheck.New(wc)
		if err != nil {
			return nil, fmt.Errorf("web checks: %w", err)
		}
		return c, nil
	})
}

// LLM returns the language model of every model-backed service, with its
// answers cached in Redis when -llm-cache-ttl is set; the zero
// llm.Config without a provider. When serving, a model whose price is
// unknown is logged once, here.
func (s *services) LLM() (llm.Config, error) {
	return s.llm.get(func() (llm.Config, error) {
		lc, err := s.cfg.LLM.build(s.ctx, s.deps)
		if err != nil {
			return llm.Config{}, fmt.Errorf("language model: %w", err)
		}
		if c, ok := lc.Model.(io.Closer); ok { // the Google AI client holds a gRPC connection
			s.closers = append(s.closers, c)
		}
		if s.deps != nil && s.deps.cacheLLM != nil {
			if lc, err = s.deps.cacheLLM(lc); err != nil {
				return llm.Config{}, err
			}
		}
		if s.deps != nil && s.deps.logger != nil && lc.Enabled() && !lc.PriceKnown() {
			s.deps.logger.Warn("the language model's price is unknown: its cost is reported as 0; set -llm-prices (QUIVER_LLM_PRICES) to count it",
				"model", lc.ModelName())
		}
		return lc, nil
	})
}

// devutilConfig is the configuration of the model-backed devutil
// services.
func (s *services) devutilConfig() (devutil.Config, error) {
	lc, err := s.LLM()
	if err != nil {
		return devutil.Config{}, err
	}
	dc := s.cfg.Devutil
	if dc.RegexMatchTimeout <= 0 {
		return dc, fmt.Errorf("%s must be positive, got %v", flagName("regex-match-timeout"), dc.RegexMatchTimeout)
	}
	dc.LLM = lc
	return dc, nil
}

// Content returns the content generator.
func (s *services) Content() (*content.Generator, error) {
	return s.content.get(func() (*content.Generator, error) {
		lc, err := s.LLM()
		if err != nil {
			return nil, err
		}
		return content.New(content.Config{LLM: lc})
	})
}

// Regex returns the regular expression generator.
func (s *services) Regex() (*devutil.RegexGenerator, error) {
	return devutilService(s, &s.regex, devutil.NewRegexGenerator)
}

// Stacktrace returns the stack trace analyzer.
func (s *services) Stacktrace() (*devutil.StacktraceAnalyzer, error) {
	return devutilService(s, &s.stacktrace, devutil.NewStacktraceAnalyzer)
}

// Readme returns the README generator.
func (s *services) Readme() (*devutil.ReadmeGenerator, error) {
	return devutilService(s, &s.readme, devutil.NewReadmeGenerator)
}

// devutilService returns the devutil service that l holds, built once by
// newT from the devutil configuration.
func devutilService[T any](s *services, l *lazy[*T], newT func(devutil.Config) (*T, error)) (*T, error) {
	return l.get(func() (*T, error) {
		dc, err := s.devutilConfig()
		if err != nil {
			return nil, err
		}
		return newT(dc)
	})
}

// Microblog returns the microblog client, on the provider the flags
// choose; without one its operations answer 503.
func (s *services) Microblog() (*microblog.Client, error) {
	return s.microblog.get(func() (*microblog.Client, error) {
		p, err := s.cfg.Microblog.provider(s.deps)
		if err != nil {
			return nil, usageError{err} // a configuration mistake, as for photosocial
		}
		return microblog.New(microblog.Config{Provider: p})
	})
}

// Photosocial returns the photo-sharing client, on the provider the flags
// choose, with the language model of its insights.
func (s *services) Photosocial() (*photosocial.Client, error) {
	return s.photosocial.get(func() (*photosocial.Client, error) {
		p, err := s.cfg.Photosocial.provider(s.deps)
		if err != nil {
			return nil, usageError{err}
		}
		lc, err := s.LLM()
		if err != nil {
			return nil, err
		}
		return photosocial.New(photosocial.Config{Provider: p, LLM: lc})
	})
}

// handlerConfig builds every service into hc, for serve.
func (s *services) handlerConfig(hc *httpapi.Config) error {
	var err error
	set := func(build func() error) {
		if err == nil {
			err = build()
		}
	}
	set(func() (e error) { hc.Email, e = s.Email(); return })
	set(func() (e error) { hc.WebCheck, e = s.WebCheck(); return })
	set(func() (e error) { hc.Content, e = s.Content(); return })
	set(func() (e error) { hc.Regex, e = s.Regex(); return })
	set(func() (e error) { hc.Stacktrace, e = s.Stacktrace(); return })
	set(func() (e error) { hc.Readme, e = s.Readme(); return })
	set(func() (e error) { hc.Microblog, e = s.Microblog(); return })
	set(func() (e error) { hc.Photosocial, e = s.Photosocial(); return })
	return err
}

// Close releases what the services hold open: the Google AI client's
// gRPC connection.
func (s *services) Close() error {
	var errs []error
	for _, c := range s.closers {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

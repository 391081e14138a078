package main

import (
	"fmt"
	"strings"

	"github.com/quiverkit/quiver/internal/cfgerr"
)

// flagFields declares, for each flag of serve, the field of what serve
// builds from it that the flag sets (TestFlagsReachTheirFields proves
// it), and flagsErr names the flag of a field an error names: as a path of field
// names: a field of the httpapi.Config handed to httpapi.New (HTTP), of
// the jobs.Config (Jobs), of a package's Config (DNS, Email, WebCheck,
// Devutil, LLM) or of a provider's (Graph, Apify). Paths under Cmd are
// cmd/quiver's own settings: the listener and http.Server (-addr,
// timeouts), the choice of a provider and the files or credentials from
// which it or a client is made (Redis, metrics, model clients, microblog
// providers, lists, roots), which no Config holds as such. A flag with
// two paths (comma-separated) sets both. Commands bind the same setups.
var flagFields = map[string]string{
	"addr":                            "Cmd.server.addr",
	"allow-loopback":                  "WebCheck.AllowLoopback",
	"api-keys":                        "HTTP.Keys",
	"auth-failure-burst":              "HTTP.AuthFailureBurst",
	"auth-failure-max-addresses":      "HTTP.AuthFailureMaxAddresses",
	"auth-failure-prefix-burst":       "HTTP.AuthFailurePrefixBurst",
	"auth-failure-prefix-rate":        "HTTP.AuthFailurePrefixRate",
	"auth-failure-rate":               "HTTP.AuthFailureRate",
	"burst":                           "HTTP.Burst",
	"check-timeout":                   "WebCheck.OperationTimeout",
	"dns-attempts":                    "DNS.Attempts",
	"dns-cache-size":                  "DNS.CacheSize",
	"dns-dnssec-ok":                   "DNS.DNSSECOK",
	"dns-max-in-flight":               "DNS.MaxInFlight",
	"dns-max-ttl":                     "DNS.MaxTTL",
	"dns-negative-ttl":                "DNS.NegativeTTL",
	"dns-servers":                     "DNS.Servers",
	"dns-timeout":                     "DNS.Timeout",
	"dns-udp-size":                    "DNS.UDPSize",
	"dnsbl-zones":                     "Email.DNSBLZones",
	"email-allow-domains":             "Cmd.services.EmailAllowDomains",
	"email-disposable-list":           "Cmd.services.EmailDisposableList",
	"fetch-max-bytes":                 "WebCheck.MaxBodyBytes",
	"fetch-timeout":                   "WebCheck.Timeout",
	"fetch-user-agent":                "WebCheck.UserAgent",
	"heavy-slots":                     "HTTP.HeavySlots",
	"hosts":                           "HTTP.Hosts",
	"idle-timeout":                    "Cmd.server.idleTimeout",
	"job-claim-idle":                  "Jobs.ClaimIdle",
	"job-concurrency":                 "Cmd.jobs.concurrency",
	"job-cpus":                        "Jobs.CPUs",
	"job-key-jobs":                    "Jobs.MaxOwnerJobsStored",
	"job-key-rows-in-flight":          "Jobs.MaxOwnerRowsInFlight",
	"job-key-rows-stored":             "Jobs.MaxOwnerRowsStored",
	"job-max-bytes":                   "Jobs.MaxBytes",
	"job-max-memory":                  "Jobs.MaxMemory",
	"job-max-rows":                    "Jobs.MaxRows",
	"job-store-retry":                 "Jobs.StoreRetry",
	"job-ttl":                         "Jobs.TTL",
	"key-memory-budget":               "HTTP.KeyMemoryBudget",
	"llm-api-key":                     "Cmd.services.LLM.key",
	"llm-base-url":                    "Cmd.services.LLM.baseURL",
	"llm-cache-ttl":                   "Cmd.redis.llmTTL",
	"llm-json-mode":                   "LLM.DisableJSONMode",
	"llm-max-attempts":                "LLM.MaxAttempts",
	"llm-model":                       "LLM.Name",
	"llm-prices":                      "LLM.Prices",
	"llm-provider":                    "Cmd.services.LLM.provider",
	"llm-timeout":                     "LLM.Timeout",
	"log-format":                      "Cmd.server.logFormat",
	"max-body":                        "HTTP.MaxBodyBytes",
	"memory-budget":                   "HTTP.MemoryBudget",
	"metrics":                         "Cmd.metrics.enabled",
	"metrics-addr":                    "Cmd.metrics.addr",
	"microblog-api-key":               "Cmd.services.Microblog.APIKey",
	"microblog-base-url":              "Cmd.services.Microblog.BaseURL",
	"microblog-file":                  "Cmd.services.Microblog.File",
	"microblog-max-bytes":             "Cmd.services.Microblog.MaxBytes",
	"microblog-provider":              "Cmd.services.Microblog.Provider",
	"microblog-timeout":               "Cmd.services.Microblog.Timeout",
	"mta-sts-allow-loopback":          "Email.MTASTS.AllowLoopback",
	"mta-sts-allow-private-addresses": "Email.MTASTS.AllowPrivateAddresses",
	"mta-sts-port":                    "Email.MTASTS.Port",
	"mta-sts-roots":                   "Cmd.services.MTASTSRoots",
	"mta-sts-timeout":                 "Email.MTASTS.Timeout",
	"no-docs":                         "HTTP.DisableDocs",
	"photosocial-apify-actor":         "Apify.Actor",
	"photosocial-apify-base-url":      "Apify.BaseURL",
	"photosocial-apify-run-items":     "Apify.RunItems",
	"photosocial-apify-timeout":       "Apify.Timeout",
	"photosocial-apify-token":         "Apify.Token",
	"photosocial-file":                "Cmd.services.Photosocial.Files",
	"photosocial-graph-api-version":   "Graph.APIVersion",
	"photosocial-graph-base-url":      "Graph.BaseURL",
	"photosocial-graph-token":         "Graph.Token",
	"photosocial-graph-user-id":       "Graph.UserID",
	"photosocial-provider":            "Cmd.services.Photosocial.Provider",
	"photosocial-sample":              "Cmd.services.Photosocial.Sample",
	"photosocial-timeout":             "Graph.Timeout",
	"rate-limit":                      "HTTP.RatePerSecond",
	"read-header-timeout":             "Cmd.server.readHeaderTimeout",
	"read-timeout":                    "Cmd.server.readTimeout",
	"redis-prefix":                    "Cmd.redis.prefix",
	"redis-timeout":                   "Cmd.redis.timeout",
	"redis-url":                       "Cmd.redis.url",
	"regex-match-timeout":             "Devutil.RegexMatchTimeout",
	"request-timeout":                 "HTTP.RequestTimeout",
	"safe-browsing-endpoint":          "Cmd.services.SafeBrowsingEndpoint",
	"safe-browsing-key":               "Cmd.services.SafeBrowsingKey",
	"shutdown-timeout":                "Cmd.server.shutdownTimeout",
	"slow-write-timeout":              "HTTP.SlowWriteTimeout",
	"smtp-allow-private-addresses":    "Email.SMTP.AllowPrivateAddresses",
	"smtp-helo":                       "Email.SMTP.HeloName",
	"smtp-host-connections":           "Email.SMTP.HostConnections",
	"smtp-host-interval":              "Email.SMTP.HostInterval",
	"smtp-mail-from":                  "Email.SMTP.MailFrom",
	"smtp-max-hosts":                  "Email.SMTP.MaxHosts",
	"smtp-port":                       "Email.SMTP.Port",
	"smtp-proxy":                      "Email.SMTP.Proxy",
	"smtp-skip-catch-all":             "Email.SMTP.SkipCatchAll",
	"smtp-timeout":                    "Email.SMTP.StepTimeout,Email.SMTP.ConnectTimeout",
	"trusted-proxies":                 "HTTP.TrustedProxies",
	"upstream-cache-ttl":              "Cmd.redis.upstreamTTL",
	"workers":                         "Jobs.Workers",
	"write-timeout":                   "Cmd.server.writeTimeout",
}

// fieldFlags are the flags of the fields of flagFields, by path.
var fieldFlags = func() map[string]string {
	m := make(map[string]string, len(flagFields))
	for name, paths := range flagFields {
		for p := range strings.SplitSeq(paths, ",") {
			m[p] = name
		}
	}
	return m
}()

// flagsErr prefixes err, the error of a package's New whose Config is at
// path (say "Email"; "" for the paths of flagFields themselves), with
// the flags and twins of the fields it names, so that it says which flag
// to change; a usageError. Without a field it knows, it prefixes what.
func flagsErr(path, what string, err error) error {
	var names []string
	for _, f := range cfgerr.Fields(err) {
		if path != "" {
			f = path + "." + f
		}
		if name, ok := fieldFlags[f]; ok {
			names = append(names, flagName(name))
		}
	}
	if len(names) == 0 {
		return usageError{fmt.Errorf("%s: %w", what, err)}
	}
	return usageError{fmt.Errorf("%s: %w", strings.Join(names, ", "), err)}
}

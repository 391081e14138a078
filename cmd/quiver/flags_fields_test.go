package main

import (
	"flag"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/quiverkit/quiver/secret"
)

// flagFields declares the field of settings that each flag of serve
// fills, as a path of field names. Commands bind the same setups.
var flagFields = map[string]string{
	"addr":                            "server.addr",
	"allow-loopback":                  "services.WebCheck.AllowLoopback",
	"api-keys":                        "server.keys",
	"auth-failure-burst":              "abuse.authBurst",
	"auth-failure-max-addresses":      "abuse.authMaxAddresses",
	"auth-failure-prefix-burst":       "abuse.authPrefixBurst",
	"auth-failure-prefix-rate":        "abuse.authPrefixRate",
	"auth-failure-rate":               "abuse.authRate",
	"burst":                           "server.burst",
	"check-timeout":                   "services.WebCheck.OperationTimeout",
	"dns-attempts":                    "services.DNS.Attempts",
	"dns-cache-size":                  "services.DNS.CacheSize",
	"dns-dnssec-ok":                   "services.DNS.DNSSECOK",
	"dns-max-in-flight":               "services.DNS.MaxInFlight",
	"dns-max-ttl":                     "services.DNS.MaxTTL",
	"dns-negative-ttl":                "services.DNS.NegativeTTL",
	"dns-servers":                     "services.DNS.Servers",
	"dns-timeout":                     "services.DNS.Timeout",
	"dns-udp-size":                    "services.DNSUDPSize",
	"dnsbl-zones":                     "services.Email.DNSBLZones",
	"email-allow-domains":             "services.EmailAllowDomains",
	"email-disposable-list":           "services.EmailDisposableList",
	"fetch-max-bytes":                 "services.WebCheck.MaxBodyBytes",
	"fetch-timeout":                   "services.WebCheck.Timeout",
	"fetch-user-agent":                "services.WebCheck.UserAgent",
	"heavy-slots":                     "abuse.heavySlots",
	"hosts":                           "server.hosts",
	"idle-timeout":                    "server.idleTimeout",
	"job-claim-idle":                  "jobs.claimIdle",
	"job-concurrency":                 "jobs.concurrency",
	"job-cpus":                        "jobs.cpus",
	"job-key-jobs":                    "jobs.keyJobs",
	"job-key-rows-in-flight":          "jobs.keyInFlight",
	"job-key-rows-stored":             "jobs.keyStored",
	"job-max-bytes":                   "jobs.maxBytes",
	"job-max-memory":                  "jobs.maxMemory",
	"job-max-rows":                    "jobs.maxRows",
	"job-store-retry":                 "jobs.storeRetry",
	"job-ttl":                         "jobs.ttl",
	"key-memory-budget":               "abuse.keyMemoryBudget",
	"llm-api-key":                     "services.LLM.key",
	"llm-base-url":                    "services.LLM.baseURL",
	"llm-cache-ttl":                   "redis.llmTTL",
	"llm-json-mode":                   "services.LLM.jsonMode",
	"llm-max-attempts":                "services.LLM.attempts",
	"llm-model":                       "services.LLM.model",
	"llm-prices":                      "services.LLM.prices",
	"llm-provider":                    "services.LLM.provider",
	"llm-timeout":                     "services.LLM.timeout",
	"log-format":                      "server.logFormat",
	"max-body":                        "server.maxBody",
	"memory-budget":                   "abuse.memoryBudget",
	"metrics":                         "metrics.enabled",
	"metrics-addr":                    "metrics.addr",
	"microblog-api-key":               "services.Microblog.APIKey",
	"microblog-base-url":              "services.Microblog.BaseURL",
	"microblog-file":                  "services.Microblog.File",
	"microblog-max-bytes":             "services.Microblog.MaxBytes",
	"microblog-provider":              "services.Microblog.Provider",
	"microblog-timeout":               "services.Microblog.Timeout",
	"mta-sts-allow-loopback":          "services.Email.MTASTS.AllowLoopback",
	"mta-sts-allow-private-addresses": "services.Email.MTASTS.AllowPrivateAddresses",
	"mta-sts-port":                    "services.Email.MTASTS.Port",
	"mta-sts-roots":                   "services.MTASTSRoots",
	"mta-sts-timeout":                 "services.Email.MTASTS.Timeout",
	"no-docs":                         "server.noDocs",
	"photosocial-apify-actor":         "services.Photosocial.Apify.Actor",
	"photosocial-apify-base-url":      "services.Photosocial.Apify.BaseURL",
	"photosocial-apify-run-items":     "services.Photosocial.Apify.RunItems",
	"photosocial-apify-timeout":       "services.Photosocial.Apify.Timeout",
	"photosocial-apify-token":         "services.Photosocial.Apify.Token",
	"photosocial-file":                "services.Photosocial.Files",
	"photosocial-graph-api-version":   "services.Photosocial.Graph.APIVersion",
	"photosocial-graph-base-url":      "services.Photosocial.Graph.BaseURL",
	"photosocial-graph-token":         "services.Photosocial.Graph.Token",
	"photosocial-graph-user-id":       "services.Photosocial.Graph.UserID",
	"photosocial-provider":            "services.Photosocial.Provider",
	"photosocial-sample":              "services.Photosocial.Sample",
	"photosocial-timeout":             "services.Photosocial.Graph.Timeout",
	"rate-limit":                      "server.rate",
	"read-header-timeout":             "server.readHeaderTimeout",
	"read-timeout":                    "server.readTimeout",
	"redis-prefix":                    "redis.prefix",
	"redis-timeout":                   "redis.timeout",
	"redis-url":                       "redis.url",
	"regex-match-timeout":             "services.Devutil.RegexMatchTimeout",
	"request-timeout":                 "server.requestTimeout",
	"safe-browsing-endpoint":          "services.SafeBrowsingEndpoint",
	"safe-browsing-key":               "services.SafeBrowsingKey",
	"shutdown-timeout":                "server.shutdownTimeout",
	"slow-write-timeout":              "abuse.slowWriteTimeout",
	"smtp-allow-private-addresses":    "services.Email.SMTP.AllowPrivateAddresses",
	"smtp-helo":                       "services.Email.SMTP.HeloName",
	"smtp-host-connections":           "services.Email.SMTP.HostConnections",
	"smtp-host-interval":              "services.Email.SMTP.HostInterval",
	"smtp-mail-from":                  "services.Email.SMTP.MailFrom",
	"smtp-max-hosts":                  "services.Email.SMTP.MaxHosts",
	"smtp-port":                       "services.Email.SMTP.Port",
	"smtp-proxy":                      "services.Email.SMTP.Proxy",
	"smtp-skip-catch-all":             "services.Email.SMTP.SkipCatchAll",
	"smtp-timeout":                    "services.Email.SMTP.StepTimeout",
	"trusted-proxies":                 "abuse.trustedProxies",
	"upstream-cache-ttl":              "redis.upstreamTTL",
	"workers":                         "jobs.workers",
	"write-timeout":                   "server.writeTimeout",
}

// Every flag reaches the field it claims to, from the command line and
// from its environment twin, and no other field: a distinctive value per
// flag is compared with the field at the flag's declared path, and every
// other field keeps its default.
func TestFlagsReachTheirFields(t *testing.T) {
	parse := func(t *testing.T, env map[string]string, args ...string) *settings {
		t.Helper()
		f := &flags{FlagSet: flag.NewFlagSet("quiver", flag.ContinueOnError), getenv: func(k string) string { return env[k] }}
		f.SetOutput(io.Discard)
		st := &settings{}
		serveFlags(f, st)
		if err := f.Parse(args); err != nil {
			t.Fatal(err)
		}
		if err := f.errs; len(err) > 0 {
			t.Fatal(err)
		}
		return st
	}
	base := parse(t, nil)
	baseLeaves := leaves(base)

	var names []string
	fs := flag.NewFlagSet("quiver", flag.ContinueOnError)
	serveFlags(&flags{FlagSet: fs, getenv: func(string) string { return "" }}, &settings{})
	fs.VisitAll(func(fl *flag.Flag) { names = append(names, fl.Name) })
	for name := range flagFields {
		if !slices.Contains(names, name) {
			t.Errorf("flagFields names -%s, which serve does not define", name)
		}
	}
	for i, name := range names {
		path, ok := flagFields[name]
		if !ok {
			t.Errorf("-%s has no declared field in flagFields", name)
			continue
		}
		field, err := fieldAt(base, path)
		if err != nil {
			t.Errorf("-%s: %v", name, err)
			continue
		}
		arg, want := distinctive(field, i)
		for how, st := range map[string]*settings{
			"flag":        parse(t, nil, "-"+name+"="+arg),
			"environment": parse(t, map[string]string{twin(name): arg}),
		} {
			got, _ := fieldAt(st, path)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("-%s by %s: %s = %#v, want %#v", name, how, path, got, want)
			}
			for p, v := range leaves(st) {
				if p != path && baseLeaves[p] != v {
					t.Errorf("-%s by %s also changed %s: %s, was %s", name, how, p, v, baseLeaves[p])
				}
			}
		}
	}
}

// readable returns v, read from its address, so that the value of an
// unexported field can be compared.
func readable(v reflect.Value) any {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem().Interface()
}

// fieldAt returns the value of the field of st at path ("services.DNS.Timeout").
func fieldAt(st *settings, path string) (any, error) {
	v := reflect.ValueOf(st).Elem()
	for name := range strings.SplitSeq(path, ".") {
		if v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return nil, fmt.Errorf("%s: %s is not in a struct", path, name)
		}
		if v = v.FieldByName(name); !v.IsValid() {
			return nil, fmt.Errorf("%s: no field %s", path, name)
		}
	}
	return readable(v), nil
}

// leaves returns every field of st that is not a struct, by path, printed
// (funcs, which no flag sets, are left out).
func leaves(st *settings) map[string]string {
	out := map[string]string{}
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch {
		case v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct && strings.Count(path, ".") < 1:
			walk(v.Elem(), path)
		case v.Kind() == reflect.Struct:
			for i := range v.NumField() {
				p := v.Type().Field(i).Name
				if path != "" {
					p = path + "." + p
				}
				walk(v.Field(i), p)
			}
		case v.Kind() == reflect.Func:
		default:
			out[path] = fmt.Sprintf("%#v", readable(v))
		}
	}
	walk(reflect.ValueOf(st).Elem(), "")
	return out
}

// distinctive returns a value for the field whose default is def, the
// i-th flag, as the command line writes it and as the field holds it;
// unlike any default.
func distinctive(def any, i int) (string, any) {
	switch d := def.(type) {
	case secret.String:
		return fmt.Sprintf("secret-%d", i), secret.String(fmt.Sprintf("secret-%d", i))
	case string:
		return fmt.Sprintf("value-%d", i), fmt.Sprintf("value-%d", i)
	case []string:
		return fmt.Sprintf("a-%d,b-%d", i, i), []string{fmt.Sprintf("a-%d", i), fmt.Sprintf("b-%d", i)}
	case int:
		return fmt.Sprint(7001 + i), 7001 + i
	case int64:
		return fmt.Sprint(9001 + i), int64(9001 + i)
	case float64:
		return fmt.Sprint(3.25 + float64(i)), 3.25 + float64(i)
	case bool:
		return fmt.Sprint(!d), !d
	case time.Duration:
		v := time.Duration(i+1)*time.Second + 7*time.Millisecond
		return v.String(), v
	}
	panic(fmt.Sprintf("no distinctive value for a %T", def))
}

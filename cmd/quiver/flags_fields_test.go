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

	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/llm"
	"github.com/quiverkit/quiver/resolver"
	"github.com/quiverkit/quiver/secret"
	"github.com/quiverkit/quiver/social/photosocial"
	"github.com/quiverkit/quiver/webcheck"
)

// built is what serve builds from its settings, before the services:
// the Configs that flagFields' paths name.
type built struct {
	HTTP     httpapi.Config
	Jobs     jobs.Config
	DNS      resolver.Config
	Email    email.Config
	WebCheck webcheck.Config
	Devutil  devutil.Config
	LLM      llm.Config
	Graph    photosocial.GraphConfig
	Apify    photosocial.ApifyConfig
	Cmd      *settings
}

// build builds from st what serve hands the packages, with the
// functions serve uses.
func build(t *testing.T, st *settings) *built {
	t.Helper()
	dns, err := st.services.resolverConfig()
	if err != nil {
		t.Fatal(err)
	}
	lc, err := st.services.LLM.settings()
	if err != nil {
		t.Fatal(err)
	}
	return &built{
		HTTP:     handlerSettings(st),
		Jobs:     st.jobs.config(),
		DNS:      dns,
		Email:    st.services.emailSettings(st.services.Email.Concurrency),
		WebCheck: st.services.WebCheck,
		Devutil:  st.services.Devutil,
		LLM:      lc,
		Graph:    st.services.Photosocial.Graph,
		Apify:    st.services.Photosocial.Apify,
		Cmd:      st,
	}
}

// Every flag reaches the field it claims to of what serve builds, from
// the command line and from its environment twin, and no other field: a
// distinctive value per flag is compared with the field at the flag's
// declared path, and every other field of the built Configs (and every
// declared path under Cmd) keeps its default.
func TestFlagsReachTheirFields(t *testing.T) {
	parse := func(t *testing.T, env map[string]string, args ...string) *built {
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
		return build(t, st)
	}
	var cmdPaths []string
	for _, paths := range flagFields {
		for p := range strings.SplitSeq(paths, ",") {
			if strings.HasPrefix(p, "Cmd.") {
				cmdPaths = append(cmdPaths, p)
			}
		}
	}
	base := parse(t, nil)
	baseLeaves := leaves(base, cmdPaths)

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
		paths, ok := flagFields[name]
		if !ok {
			t.Errorf("-%s has no declared field in flagFields", name)
			continue
		}
		declared := strings.Split(paths, ",")
		field, err := fieldAt(base, declared[0])
		if err != nil {
			t.Errorf("-%s: %v", name, err)
			continue
		}
		var arg string
		var want any
		switch name {
		case "llm-prices": // model=input/output on top of the built-in prices
			arg = fmt.Sprintf("probe-%d=1.5/2.5", i)
			p := llm.DefaultPrices()
			p[fmt.Sprintf("probe-%d", i)] = llm.Price{Input: 1.5, Output: 2.5}
			want = p
		case "llm-json-mode": // the flag turns JSON mode on, the field off
			arg, want = "false", true
		default:
			arg, want = distinctive(field, i)
		}
		for how, b := range map[string]*built{
			"flag":        parse(t, nil, "-"+name+"="+arg),
			"environment": parse(t, map[string]string{twin(name): arg}),
		} {
			for _, path := range declared {
				got, err := fieldAt(b, path)
				if err != nil {
					t.Errorf("-%s: %v", name, err)
					continue
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("-%s by %s: %s = %#v, want %#v", name, how, path, got, want)
				}
			}
			for p, v := range leaves(b, cmdPaths) {
				if !slices.Contains(declared, p) && baseLeaves[p] != v {
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

// fieldAt returns the value of the field of b at path ("DNS.Timeout").
func fieldAt(b *built, path string) (any, error) {
	v := reflect.ValueOf(b).Elem()
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

// leaves returns every field of the Configs of b that is not a struct,
// and the fields at cmdPaths, by path, printed (funcs, which no flag
// sets, are left out).
func leaves(b *built, cmdPaths []string) map[string]string {
	out := map[string]string{}
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch {
		case path == "Cmd":
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
	walk(reflect.ValueOf(b).Elem(), "")
	for _, p := range cmdPaths {
		v, _ := fieldAt(b, p)
		out[p] = fmt.Sprintf("%#v", v)
	}
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
	case []secret.String:
		return fmt.Sprintf("a-%d,b-%d", i, i), []secret.String{secret.String(fmt.Sprintf("a-%d", i)), secret.String(fmt.Sprintf("b-%d", i))}
	case []string:
		return fmt.Sprintf("a-%d,b-%d", i, i), []string{fmt.Sprintf("a-%d", i), fmt.Sprintf("b-%d", i)}
	case int:
		return fmt.Sprint(7001 + i), 7001 + i
	case uint16:
		return fmt.Sprint(7001 + i), uint16(7001 + i)
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

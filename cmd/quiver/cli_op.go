package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/quiverkit/quiver/internal/strictjson"
	"github.com/quiverkit/quiver/llm"
)

// opSpec describes a command that calls one operation with a typed
// request: every scalar field of the request (and each list of strings)
// is a flag named after its JSON name with dashes (tweet_limit is
// -tweet-limit), -request FILE reads the whole request as JSON first
// ("-" for standard input), and the operands fill one field.
type opSpec struct {
	command
	// operand is the JSON name of the field the operands fill: a string
	// gets them joined by spaces, a list of strings gets each. Empty: the
	// command takes no operand.
	operand string
	// stdin reads the operand field from standard input when there is no
	// operand and no flag or -request set it (texts to summarize, ...),
	// without its final newline unless rawStdin.
	stdin, rawStdin bool
	// short are one-letter aliases of request flags: "a" for "algorithms".
	short map[string]string
}

// op builds the command of an operation. call gets the services'
// configuration in env.cfg; it returns the result, whether the check
// passed, and the error.
func op[Req any](spec opSpec, call func(ctx context.Context, env *cmdEnv, req Req) (any, bool, error)) command {
	c := spec.command
	c.setup = func(fs *flag.FlagSet) runFunc {
		fields := bindRequest(fs, reflect.TypeFor[Req](), spec.operand, spec.short)
		var requestFile string
		fs.StringVar(&requestFile, "request", "", "read the request as JSON from `FILE` ('-': standard input); flags and operands override its fields")
		return func(ctx context.Context, env *cmdEnv, args []string) (any, bool, error) {
			var req Req
			if requestFile != "" {
				if err := readRequest(env, requestFile, &req); err != nil {
					return nil, false, err
				}
			}
			rv := reflect.ValueOf(&req).Elem()
			for _, f := range fields {
				f.apply(rv)
			}
			if err := setOperand(env, rv, spec, args); err != nil {
				return nil, false, err
			}
			return call(ctx, env, req)
		}
	}
	return c
}

// done adapts an operation whose result is all there is to say: the
// check passes unless it fails with an error.
func done[Res any](res Res, err error) (any, bool, error) {
	if err != nil {
		return nil, false, err
	}
	return res, true, nil
}

// doneAI adapts an LLM-backed operation: the model's usage goes to
// standard error, so that standard output stays the result.
func doneAI[Res any](env *cmdEnv, res Res, ai llm.Usage, err error) (any, bool, error) {
	if ai.Model != "" || ai.PromptTokens+ai.CompletionTokens > 0 {
		fmt.Fprintf(env.stderr, "model %s: %d prompt + %d completion tokens, $%.6f\n", ai.Model, ai.PromptTokens, ai.CompletionTokens, ai.CostUSD)
	}
	return done(res, err)
}

func readRequest(env *cmdEnv, name string, req any) error {
	var r io.Reader = env.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return usageError{fmt.Errorf("-request: %w", err)}
		}
		defer f.Close()
		r = f
	}
	body, err := io.ReadAll(io.LimitReader(r, maxRequestFile+1))
	if err != nil {
		return usageError{fmt.Errorf("-request %s: %w", name, err)}
	}
	if len(body) > maxRequestFile {
		return usageError{fmt.Errorf("-request %s: larger than %d bytes", name, maxRequestFile)}
	}
	// The same strict reading as the HTTP API's: a request that the server
	// would refuse (a misspelt or miscased member, a duplicate name, invalid
	// UTF-8) is refused here too, naming the field and the rule.
	if err := strictjson.Unmarshal(body, req); err != nil {
		return usageError{fmt.Errorf("-request %s: not a JSON request of this command: %w", name, err)}
	}
	return nil
}

// maxRequestFile bounds what -request reads: far above any request the
// HTTP API takes, and still a bound.
const maxRequestFile = 64 << 20

// setOperand fills the operand field from args, or from standard input.
func setOperand(env *cmdEnv, rv reflect.Value, spec opSpec, args []string) error {
	if spec.operand == "" {
		if len(args) > 0 {
			return usageError{fmt.Errorf("unexpected argument %q", args[0])}
		}
		return nil
	}
	fv, ok := fieldByJSON(rv, spec.operand)
	if !ok {
		panic("quiver: no request field " + spec.operand)
	}
	if len(args) == 0 {
		if !spec.stdin || !fv.IsZero() {
			return nil
		}
		b, err := io.ReadAll(env.stdin)
		if err != nil {
			return fmt.Errorf("reading standard input: %w", err)
		}
		if !spec.rawStdin {
			b = bytes.TrimRight(b, "\r\n")
		}
		args = []string{string(b)}
	}
	switch fv.Kind() {
	case reflect.String:
		fv.SetString(strings.Join(args, " "))
	case reflect.Slice:
		fv.Set(reflect.ValueOf(args))
	default:
		panic("quiver: operand field " + spec.operand + " is not a string or a list")
	}
	return nil
}

// fieldByJSON returns the field of rv whose JSON name is name.
func fieldByJSON(rv reflect.Value, name string) (reflect.Value, bool) {
	for _, sf := range reflect.VisibleFields(rv.Type()) {
		if n, ok := jsonName(sf); ok && n == name {
			return rv.FieldByIndex(sf.Index), true
		}
	}
	return reflect.Value{}, false
}

func jsonName(sf reflect.StructField) (string, bool) {
	if !sf.IsExported() || sf.Anonymous {
		return "", false
	}
	name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
	if name == "-" || name == "" {
		return "", false
	}
	return name, true
}

// reqFlag is a flag that sets one request field. Values are checked when
// parsed and applied after -request is read, so that flags win.
type reqFlag struct {
	index []int
	typ   reflect.Type // the field's type
	vals  []string
}

func (f *reqFlag) String() string { return "" }

func (f *reqFlag) Set(s string) error {
	if _, err := parseScalar(elemType(f.typ), s); err != nil {
		return err
	}
	f.vals = append(f.vals, s)
	return nil
}

func (f *reqFlag) IsBoolFlag() bool { return elemType(f.typ).Kind() == reflect.Bool }

func (f *reqFlag) apply(rv reflect.Value) {
	if len(f.vals) == 0 {
		return
	}
	fv := rv.FieldByIndex(f.index)
	switch {
	case fv.Kind() == reflect.Slice:
		var list []string
		for _, v := range f.vals {
			list = append(list, splitList(v)...)
		}
		fv.Set(reflect.ValueOf(list))
	case fv.Kind() == reflect.Pointer:
		v, _ := parseScalar(f.typ.Elem(), f.vals[len(f.vals)-1])
		p := reflect.New(f.typ.Elem())
		p.Elem().Set(v)
		fv.Set(p)
	default:
		v, _ := parseScalar(f.typ, f.vals[len(f.vals)-1])
		fv.Set(v)
	}
}

// elemType is the scalar a field holds: T for T, *T and []T.
func elemType(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		return t.Elem()
	}
	return t
}

func parseScalar(t reflect.Type, s string) (reflect.Value, error) {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return v, fmt.Errorf("want true or false")
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int64, reflect.Int32:
		n, err := strconv.ParseInt(s, 10, t.Bits())
		if err != nil {
			return v, fmt.Errorf("want an integer")
		}
		v.SetInt(n)
	case reflect.Float64, reflect.Float32:
		n, err := strconv.ParseFloat(s, t.Bits())
		if err != nil {
			return v, fmt.Errorf("want a number")
		}
		v.SetFloat(n)
	default:
		return v, fmt.Errorf("unsupported type %s", t)
	}
	return v, nil
}

// bindRequest defines a flag for each field of t that a flag can set:
// strings, booleans, integers, numbers, pointers to those, and lists of
// strings (comma-separated, or the flag repeated). Other fields are set
// with -request. The operand field gets a flag too, unless another flag
// already has its name.
func bindRequest(fs *flag.FlagSet, t reflect.Type, operand string, short map[string]string) []*reqFlag {
	var out []*reqFlag
	for _, sf := range reflect.VisibleFields(t) {
		name, ok := jsonName(sf)
		if !ok {
			continue
		}
		et := elemType(sf.Type)
		if sf.Type.Kind() == reflect.Slice && et.Kind() != reflect.String {
			continue
		}
		typeName := ""
		switch et.Kind() {
		case reflect.String:
			typeName = "string"
			if sf.Type.Kind() == reflect.Slice {
				typeName = "list"
			}
		case reflect.Bool:
		case reflect.Int, reflect.Int64, reflect.Int32:
			typeName = "int"
		case reflect.Float64, reflect.Float32:
			typeName = "number"
		default:
			continue
		}
		flagName := strings.ReplaceAll(name, "_", "-")
		if fs.Lookup(flagName) != nil {
			continue
		}
		usage := fmt.Sprintf("field %q of the request", name)
		if typeName != "" {
			usage = fmt.Sprintf("`%s` %s", typeName, usage)
		}
		if name == operand {
			usage += " (or the operands)"
		}
		if typeName == "list" {
			usage += ", comma-separated or repeated"
		}
		f := &reqFlag{index: sf.Index, typ: sf.Type}
		fs.Var(f, flagName, usage)
		for alias, of := range short {
			if of == name {
				fs.Var(f, alias, "short for -"+flagName)
			}
		}
		out = append(out, f)
	}
	return out
}

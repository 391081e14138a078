package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// writeTable prints v for people: an object as FIELD/VALUE rows, a list
// of objects as one row each under a header, nested fields flattened to
// dotted names ("mx.records[0].host"). Field order is the JSON order,
// which is the Go struct's.
func writeTable(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	tree, err := parseOrdered(dec)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	switch t := tree.(type) {
	case []field:
		fmt.Fprintln(tw, "FIELD\tVALUE")
		for _, f := range flatten("", t) {
			fmt.Fprintf(tw, "%s\t%s\n", f.key, f.val)
		}
	case []any:
		rows := make([][]field, len(t))
		var cols []string
		seen := map[string]bool{}
		for i, el := range t {
			rows[i] = flatten("", el)
			for _, f := range rows[i] {
				if !seen[f.key] {
					seen[f.key] = true
					cols = append(cols, f.key)
				}
			}
		}
		fmt.Fprintln(tw, strings.ToUpper(strings.Join(cols, "\t")))
		for _, row := range rows {
			vals := make(map[string]any, len(row))
			for _, f := range row {
				vals[f.key] = f.val
			}
			cells := make([]string, len(cols))
			for i, c := range cols {
				if v, ok := vals[c]; ok {
					cells[i] = v.(string)
				}
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
	default:
		fmt.Fprintln(tw, scalar(t))
	}
	return tw.Flush()
}

// field is one member of a JSON object, in document order. Once
// flattened, val is the cell text.
type field struct {
	key string
	val any
}

// parseOrdered decodes one JSON value keeping the order of object
// members: objects become []field, arrays []any, scalars stay as tokens.
func parseOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		var obj []field
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := parseOrdered(dec)
			if err != nil {
				return nil, err
			}
			obj = append(obj, field{k.(string), v})
		}
		_, err := dec.Token()
		return obj, err
	case json.Delim('['):
		arr := []any{}
		for dec.More() {
			v, err := parseOrdered(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := dec.Token()
		return arr, err
	}
	return tok, nil
}

// flatten turns a parsed value into cells keyed by dotted paths. A list
// of scalars stays in one cell, comma-separated.
func flatten(prefix string, v any) []field {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch t := v.(type) {
	case []field:
		var out []field
		for _, f := range t {
			out = append(out, flatten(join(f.key), f.val)...)
		}
		return out
	case []any:
		simple := true
		for _, el := range t {
			switch el.(type) {
			case []field, []any:
				simple = false
			}
		}
		if simple {
			cells := make([]string, len(t))
			for i, el := range t {
				cells[i] = scalar(el)
			}
			return []field{{prefix, strings.Join(cells, ", ")}}
		}
		var out []field
		for i, el := range t {
			out = append(out, flatten(fmt.Sprintf("%s[%d]", prefix, i), el)...)
		}
		return out
	}
	return []field{{prefix, scalar(v)}}
}

// cellEscaper keeps a cell on one line and in its column.
var cellEscaper = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`)

func scalar(v any) string {
	switch t := v.(type) {
	case nil:
		return "-"
	case string:
		return cellEscaper.Replace(t)
	}
	return fmt.Sprint(v)
}

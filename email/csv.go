package email

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/csvrec"
)

// Limits of a CSV upload.
const (
	MaxCSVBytes = 512 << 10 // 512 KB
	MaxCSVRows  = 1000      // data rows, after the header
)

// CSVResult is the data of a CSV validation: the bulk result plus where
// the addresses were read from.
type CSVResult struct {
	BulkResult
	// Column is the header of the address column used: the column named
	// email (case-insensitive), else the first.
	Column string `json:"column"`
	// Rows is the number of data rows read.
	Rows int `json:"rows"`
}

// ValidateCSV validates the addresses of a CSV file: a header row, then
// at most 1,000 data rows, at most 512 KB in all. A UTF-8 BOM, CRLF line
// ends and quoted fields are accepted (a quoted field keeps its bytes,
// line ends included); blank lines are skipped. The
// address column is the one headed "email" (any case), else the first.
// Every check of [Verifier.ValidateBulk] runs. A file that breaks a limit
// or is not CSV is a validation error on field "file" naming the limit or
// the row (rows are numbered from 1 for the first data row).
func (v *Verifier) ValidateCSV(ctx context.Context, file io.Reader) (CSVResult, error) {
	data, err := io.ReadAll(io.LimitReader(file, MaxCSVBytes+1))
	if err != nil {
		return CSVResult{}, fmt.Errorf("email: reading the CSV file: %w", err)
	}
	if len(data) > MaxCSVBytes {
		return CSVResult{}, envelope.Invalidf("file", "is larger than the limit of %d bytes (512 KB)", MaxCSVBytes)
	}
	r := csvrec.NewReader(bytes.NewReader(data), MaxCSVBytes)
	rec, err := r.Read()
	if errors.Is(err, io.EOF) {
		return CSVResult{}, envelope.Invalid("file", "is empty: a header row is required")
	}
	if err != nil {
		return CSVResult{}, csvError(err, "header row")
	}
	header := rec.Strings(nil)
	col := AddressColumn(header)
	out := CSVResult{Column: strings.TrimSpace(header[col])}
	var emails []string
	for row := 1; ; row++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return CSVResult{}, csvError(err, fmt.Sprintf("row %d", row))
		}
		if row > MaxCSVRows {
			return CSVResult{}, envelope.Invalidf("file", "has more than the limit of %d data rows", MaxCSVRows)
		}
		addr := ""
		if col < rec.Len() {
			addr = string(rec.Field(col))
		}
		emails = append(emails, addr)
	}
	if len(emails) == 0 {
		return CSVResult{}, envelope.Invalid("file", "has a header row but no data rows")
	}
	out.Rows = len(emails)
	out.BulkResult = v.bulk(ctx, emails, Checks{})
	return out, nil
}

// AddressColumn returns the index of the address column of a CSV
// header: the column headed "email" (any case, spaces trimmed), else the
// first. It is the column rule of [Verifier.ValidateCSV] and of the bulk
// jobs of package email/jobs.
func AddressColumn(header []string) int {
	col, _ := addressColumn(header, "") // no column named: never fails
	return col
}

// csvError names the place of a CSV syntax error.
func csvError(err error, where string) error {
	var pe *csvrec.ParseError
	if errors.As(err, &pe) {
		return envelope.Invalidf("file", "%s (line %d): %v", where, pe.Line, pe.Err)
	}
	return envelope.Invalidf("file", "%s: %v", where, err)
}

// Package hidden is internal: it has no lines.
package hidden

// Exported is not part of the API.
func Exported() {}

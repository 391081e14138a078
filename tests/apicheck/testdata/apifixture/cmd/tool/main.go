// Command tool is a main package: it has no lines.
package main

// Exported is not part of the API.
func Exported() {}

func main() {}

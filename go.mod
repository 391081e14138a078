module github.com/quiverkit/quiver

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/oklog/ulid/v2 v2.1.2
	golang.org/x/time v0.16.0
)

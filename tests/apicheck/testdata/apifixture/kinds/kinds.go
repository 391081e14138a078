// Package kinds declares one exported identifier of every kind the API
// file writes.
package kinds

import (
	"context"
	"io"
	"time"
)

const Untyped = 10

const Pi = 3.25

const Name = "kinds"

type Status string

const StatusOK Status = "ok"

const Timeout = 2 * time.Second

var ErrClosed error

var Hook func(context.Context, ...string) (int, error)

func New(cfg Config) (*Client, error) { return nil, nil }

func Bytes(b []byte, r rune) [4]uint8 { return [4]uint8{} }

func Chans(a chan int, b <-chan string, c chan<- bool, d chan (<-chan int)) {}

func Map[K comparable, V any](m map[K]V, f func(K) V) []V { return nil }

func Min[T Number](a, b T) T { return a }

type Number interface {
	~int | ~float64
}

type Config struct {
	Timeout time.Duration
	Anon    struct {
		A int
		b string
	}
	Any     any
	Alias   Other
	private int
	base
	*Embedded
}

type base struct {
	Promoted string
	hidden   int
}

type Embedded struct{ Inner int }

func (*Embedded) Close() error { return nil }

type Other = Status

type Client struct{}

func (Client) Name() string                      { return "" }
func (*Client) Do(context.Context, []byte) error { return nil }
func (*Client) unexported()                      {}

type Doer interface {
	io.Reader
	Do(context.Context) error
}

type Sealed interface {
	Public()
	private()
}

type Empty interface{}

type Set[T comparable] struct {
	Items map[T]bool
}

func (s *Set[T]) Add(v T) {}

func (s Set[E]) Has(v E) bool { return false }

type Pair[K comparable, V any] struct{ Key K }

type List struct{ Set[int] }

type unexported struct{}

// Leak is exported; its unexported type is written by name.
func Leak() unexported { return unexported{} }

package meter_test

import (
	"context"
	"errors"
	"testing"

	"github.com/quiverkit/quiver/internal/meter"
)

type budget struct{ left int64 }

var errFull = errors.New("full")

func (b *budget) Charge(n int64) error {
	if n > b.left {
		return errFull
	}
	b.left -= n
	return nil
}

func TestFrom(t *testing.T) {
	if m := meter.From(context.Background()); m != nil {
		t.Errorf("a meter without one: %v", m)
	}
	b := &budget{left: 100}
	m := meter.From(meter.With(context.Background(), b))
	if err := m.Charge(60); err != nil || b.left != 40 {
		t.Errorf("60 of 100: %v, %d left", err, b.left)
	}
	if err := m.Charge(60); !errors.Is(err, errFull) || b.left != 40 {
		t.Errorf("60 of 40: %v, %d left", err, b.left)
	}
}

package client

import (
	"errors"
	"iter"
	"slices"
	"testing"
)

// Collect stops at max (a runaway list cannot fill memory) and keeps what
// it read before an error.
func TestCollectStopsAtMaxAndKeepsWhatCameBeforeAnError(t *testing.T) {
	seq := func(n int, failAt int) iter.Seq2[int, error] {
		return func(yield func(int, error) bool) {
			for i := range n {
				if i == failAt {
					yield(0, errors.New("cut"))
					return
				}
				if !yield(i, nil) {
					return
				}
			}
		}
	}
	if got, err := Collect(seq(1000, -1), 3); err != nil || !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("Collect at most 3 = %v, %v", got, err)
	}
	if got, err := Collect(seq(10, 2), 5); err == nil || !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("Collect cut after 2 = %v, %v; want [0 1] and the error", got, err)
	}
}

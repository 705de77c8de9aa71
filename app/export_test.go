package app

import "testing"

// SetMaxReplyBytes lowers the most of a reply kept, for one test: the
// real 64 MiB takes long to send under the race detector.
func SetMaxReplyBytes(t testing.TB, n int) {
	old := maxReplyBytes
	maxReplyBytes = n
	t.Cleanup(func() { maxReplyBytes = old })
}

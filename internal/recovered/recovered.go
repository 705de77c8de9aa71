// Package recovered turns a panic on outside data (a stream, a sheet, a
// picture) into a plain error, so such data can never end the program.
package recovered

import (
	"fmt"
	"log"
	"runtime"
	"runtime/debug"
)

// Error is a panic recovered while reading What.
type Error struct {
	// What was being read ("a streamed event").
	What string
	// Reason is the runtime's words or the value's type, never the value: it
	// may hold server text.
	Reason string
}

func (e *Error) Error() string {
	return "agentdesk: reading " + e.What + " failed: " + e.Reason
}

// From turns recover()'s value into an *Error (nil when nothing) and logs it
// with the stack; call it in a deferred function. The log never holds the
// panic value, so no key or server text reaches it.
func From(what string, r any) error {
	if r == nil {
		return nil
	}
	reason := fmt.Sprintf("a panic of type %T", r)
	if re, ok := r.(runtime.Error); ok {
		reason = re.Error()
	}
	log.Printf("agentdesk: recovered while reading %s: %s\n%s", what, reason, debug.Stack())
	return &Error{What: what, Reason: reason}
}

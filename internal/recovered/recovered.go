// Package recovered turns a panic met while handling data from outside
// Agent Desk (a server's stream, a sheet, a picture) into an error the user
// reads in plain words, so such data can never end the program.
package recovered

import (
	"fmt"
	"log"
	"runtime"
	"runtime/debug"
)

// Error is a panic recovered while reading What.
type Error struct {
	// What was being read, for the log and for tests ("a streamed event").
	What string
	// Reason is the runtime's own words, or the panic value's type: never
	// the value itself, which may hold what a server sent.
	Reason string
}

func (e *Error) Error() string {
	return "agentdesk: reading " + e.What + " failed: " + e.Reason
}

// From turns the value of recover() into an *Error (nil when nothing was
// recovered) and writes it with its stack to the log. Call it in a deferred
// function: defer func() { if err := recovered.From("a sheet", recover()); … }.
// The log holds the runtime's message or the value's type and the stack
// (function names and addresses), so no key and no server text reaches it.
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

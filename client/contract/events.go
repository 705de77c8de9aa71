package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// eventChecker checks each event's data of a stream against one schema, as it arrives.
type eventChecker struct {
	schema *openapi3.Schema
	name   string
	done   string // data that ends the stream, such as [DONE]; empty when none

	partial []byte   // an unfinished line
	data    []string // data lines of the event being read
	events  int
	ended   bool // the done sentinel was seen
	errs    []error
}

// write feeds bytes of the stream; events are checked as their blank line arrives.
func (c *eventChecker) write(p []byte) {
	c.partial = append(c.partial, p...)
	for {
		i := bytes.IndexByte(c.partial, '\n')
		if i < 0 {
			break
		}
		line := bytes.TrimSuffix(c.partial[:i], []byte("\r"))
		c.line(string(line))
		c.partial = c.partial[i+1:]
	}
	// the caller's bytes are not retained
	c.partial = append([]byte(nil), c.partial...)
}

func (c *eventChecker) line(line string) {
	if line == "" {
		c.dispatch()
		return
	}
	if strings.HasPrefix(line, ":") {
		return // comment, used as keep-alive
	}
	field, value, _ := strings.Cut(line, ":")
	value = strings.TrimPrefix(value, " ")
	if field == "data" {
		c.data = append(c.data, value)
	}
}

func (c *eventChecker) dispatch() {
	if c.data == nil {
		return
	}
	payload := strings.Join(c.data, "\n")
	c.data = nil
	c.events++
	if c.done != "" && payload == c.done {
		c.ended = true
		return
	}
	if c.ended {
		c.fail("event %d arrives after %s", c.events, c.done)
	}
	var value any
	if err := json.Unmarshal([]byte(payload), &value); err != nil {
		c.fail("event %d: data is not JSON: %v: %q", c.events, err, payload)
		return
	}
	if err := c.schema.VisitJSON(value, openapi3.VisitAsResponse()); err != nil {
		c.fail("event %d: data does not match %s: %v: %s", c.events, c.name, brief(err), payload)
	}
}

func (c *eventChecker) fail(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf(format, args...))
}

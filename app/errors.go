package app

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/storage"
)

// Describe turns any error into a sentence an office worker can act on. It
// never includes the API key, request headers or URLs with secrets (the
// client's errors never carry them).
func Describe(err error) string {
	if err == nil {
		return ""
	}
	var apiErr *client.APIError
	var stErr *storage.Error
	switch {
	case errors.Is(err, context.Canceled):
		return "Cancelled."
	case errors.Is(err, context.DeadlineExceeded):
		return "The service took too long to answer. Try again in a moment."
	case errors.Is(err, client.ErrChatRules):
		return "Chat messages must be a pair of user/assistant: each message you send needs a reply before the next one."
	case errors.Is(err, client.ErrPollingUnsupported):
		return "This service does not let Agent Desk check on a run that is still going. What was received so far is kept."
	case errors.Is(err, client.ErrStreamIncomplete):
		return "The connection dropped before the reply was complete, and the service could not give the rest. The text received so far is kept. Retry runs the agent again and costs credits."
	case errors.Is(err, client.ErrStillRunning):
		return "The agent is still running on the service. Agent Desk stopped checking after 10 minutes; use Check again later. The agent is not run a second time."
	case errors.Is(err, client.ErrStreamIdle):
		return "The service stopped sending the reply. The text received so far is kept."
	case errors.Is(err, client.ErrEventTooLarge):
		return "The service sent a piece of the reply that is too large to read. The text received so far is kept."
	case client.IsAuth(err):
		return "The service rejected the API key. Open Settings to check the key of this account."
	case client.IsDefaultCollectionRefusal(err):
		return "The default collection cannot be deleted. Delete its memories one by one instead."
	case client.IsForbidden(err):
		return "The API key works, but it has no access to this workspace or item. Check the workspace id in Settings, or ask your administrator for access."
	case client.IsOffline(err):
		return "Agent Desk can't reach the service. Check your internet connection, then try again."
	case errors.As(err, &apiErr):
		return describeAPIError(apiErr)
	case errors.As(err, &stErr):
		return stErr.Error()
	}
	var inErr *client.InputError
	if errors.As(err, &inErr) {
		return sentence(inErr.Message)
	}
	var execErr *client.ExecutionError
	if errors.As(err, &execErr) {
		if t := strings.TrimSpace(execErr.Text); t != "" {
			return "The agent could not finish: " + sentence(t)
		}
		return "The agent could not finish (the service says " + strconvQuote(execErr.Execution.Status) + "). Try again in a moment."
	}
	var decErr *client.DecodeError
	if errors.As(err, &decErr) {
		return "The service sent an answer Agent Desk could not read. Try again; if it keeps happening, the service may have changed."
	}
	return sentence(plain(err.Error()))
}

// plain drops the package prefix ("agentdesk: ") that the client's errors
// carry for developers' logs: people read the sentence after it.
func plain(s string) string {
	for {
		t := strings.TrimSpace(s)
		rest, ok := strings.CutPrefix(strings.ToLower(t), "agentdesk: ")
		if !ok {
			return t
		}
		s = t[len(t)-len(rest):]
	}
}

func describeAPIError(e *client.APIError) string {
	msg := strings.TrimSpace(e.Message)
	switch {
	case e.StatusCode == 404:
		if msg == "" || strings.EqualFold(msg, "Not Found") {
			return "The service could not find that. It may have been removed."
		}
		return sentence(msg)
	case e.StatusCode == 413:
		if msg == "" || strings.EqualFold(msg, http.StatusText(http.StatusRequestEntityTooLarge)) || strings.EqualFold(msg, "Payload Too Large") {
			return "The file is too large for the service. Files of up to 200 MB are usually accepted."
		}
		return "The file is too large for the service: " + sentence(msg)
	case e.StatusCode == 422 || e.StatusCode == 400:
		// The real service's message is only "Validation failed": what
		// to fix is in its field messages.
		if msg == "" || strings.EqualFold(msg, "Validation failed") {
			if f := firstFieldMessage(e.Fields); f != "" {
				return sentence(f)
			}
		}
		if msg == "" {
			return "The service did not accept what was sent. Check the fields and try again."
		}
		return sentence(msg)
	case e.StatusCode == 429:
		if d, ok := e.Wait(); ok && d >= time.Second {
			return "The service asked Agent Desk to slow down. Try again in " + HowLong(d.Round(time.Second)) + "."
		}
		return "The service asked Agent Desk to slow down. Wait a moment, then try again."
	case e.StatusCode >= 500:
		return "The service had a problem and could not finish. Try again in a moment."
	}
	if msg == "" {
		return "The service refused the request."
	}
	return sentence(msg)
}

// sentence makes sure a message starts with a capital and ends with a stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "Something went wrong."
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.ContainsAny(s[len(s)-1:], ".!?") {
		s += "."
	}
	return s
}

// FieldErrors are the service's validation messages per field, for showing
// next to the field they name.
func FieldErrors(err error) map[string]string {
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || len(apiErr.Fields) == 0 {
		return nil
	}
	out := make(map[string]string, len(apiErr.Fields))
	for name, msgs := range apiErr.Fields {
		if len(msgs) > 0 {
			out[name] = sentence(msgs[0])
		}
	}
	return out
}

// strconvQuote quotes a server's word for showing, short and on one line.
func strconvQuote(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "nothing"
	}
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return strconv.Quote(s)
}

// firstFieldMessage is the first message of the first field, by name, so
// the same error always reads the same.
func firstFieldMessage(fields map[string][]string) string {
	names := make([]string, 0, len(fields))
	for k, v := range fields {
		if len(v) > 0 && strings.TrimSpace(v[0]) != "" {
			names = append(names, k)
		}
	}
	if len(names) == 0 {
		return ""
	}
	sort.Strings(names)
	return fields[names[0]][0]
}

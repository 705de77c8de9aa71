package app

import (
	"context"
	"errors"
	"strings"

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
		return "The connection dropped before the reply was complete. The text received so far is kept."
	case errors.Is(err, client.ErrStreamIdle):
		return "The service stopped sending the reply. The text received so far is kept."
	case errors.Is(err, client.ErrEventTooLarge):
		return "The service sent a piece of the reply that is too large to read. The text received so far is kept."
	case client.IsAuth(err):
		return "The API key was rejected. Check the key in Settings."
	case client.IsOffline(err):
		return "Agent Desk can't reach the service. Check your internet connection, then try again."
	case errors.As(err, &apiErr):
		return describeAPIError(apiErr)
	case errors.As(err, &stErr):
		return stErr.Error()
	}
	var execErr *client.ExecutionError
	if errors.As(err, &execErr) {
		return "The agent could not finish: " + sentence(execErr.Error())
	}
	var decErr *client.DecodeError
	if errors.As(err, &decErr) {
		return "The service sent an answer Agent Desk could not read. Try again; if it keeps happening, the service may have changed."
	}
	return sentence(err.Error())
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
		return "The file is too large for the service."
	case e.StatusCode == 422 || e.StatusCode == 400:
		if msg == "" {
			return "The service did not accept what was sent. Check the fields and try again."
		}
		return sentence(msg)
	case e.StatusCode == 429:
		return "The service is busy right now. Wait a moment, then try again."
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

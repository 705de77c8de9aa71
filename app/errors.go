package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/app/safe"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/storage"
)

// Action is what a person can do about a problem; screens turn it into a
// button next to the problem's sentence.
type Action int

// The actions a Problem may offer.
const (
	// ActionNone: nothing to press (the sentence says what to change).
	ActionNone Action = iota
	// ActionTryAgain: the same request may well work in a moment.
	ActionTryAgain
	// ActionCheckLater: the work goes on at the service; look again later
	// (nothing is run a second time).
	ActionCheckLater
	// ActionOpenSettings: the account's key or workspace needs a look.
	ActionOpenSettings
)

// Label is the action's button text ("" for ActionNone).
func (a Action) Label() string {
	switch a {
	case ActionTryAgain:
		return "Try again"
	case ActionCheckLater:
		return "Check again later"
	case ActionOpenSettings:
		return "Open account settings"
	}
	return ""
}

// Problem is an error worded for the person in front of the screen: a short
// title, one or two sentences on what happened and what to do, and the
// action to offer. Explain is the one place these words are made.
type Problem struct {
	Title    string
	Sentence string
	Action   Action
	// Wait is how long the service asked to wait first (0 when it did not).
	Wait time.Duration
}

// Explain turns any error into a Problem an office worker can act on. It
// reads the facts errors carry (kind, status, field messages, the wait a
// service asked for) and never includes the API key, request headers or
// URLs with secrets (the client's errors never carry them).
func Explain(err error) Problem {
	p := explain(err)
	// Whatever a server wrote into the words, an echoed key is not shown.
	p.Title, p.Sentence = client.Redact(p.Title), client.Redact(p.Sentence)
	return p
}

func explain(err error) Problem {
	if err == nil {
		return Problem{}
	}
	var apiErr *client.APIError
	var stErr *storage.Error
	var inErr *client.InputError
	var execErr *client.ExecutionError
	var decErr *client.DecodeError
	var picErr *PictureError
	var bigErr *OutputTooLargeError
	switch {
	case errors.Is(err, context.Canceled):
		return Problem{Title: "Cancelled", Sentence: "Cancelled."}
	case errors.Is(err, context.DeadlineExceeded):
		return Problem{Title: "No answer in time", Sentence: "The service took too long to answer. Try again in a moment.", Action: ActionTryAgain}
	case errors.Is(err, client.ErrChatRules):
		return Problem{Title: "Message not sent", Sentence: "Chat messages must be a pair of user/assistant: each message you send needs a reply before the next one."}
	case errors.Is(err, client.ErrPollingUnsupported):
		return Problem{Title: "Can't check on the run", Sentence: "This service does not let Agent Desk check on a run that is still going. What was received so far is kept."}
	case errors.Is(err, client.ErrStreamIncomplete):
		return Problem{Title: "Reply cut off", Sentence: "The connection dropped before the reply was complete, and the service could not give the rest. The text received so far is kept. Retry runs the agent again and costs credits."}
	case errors.Is(err, client.ErrStillRunning):
		return Problem{Title: "Still running", Sentence: "The agent is still running on the service. Agent Desk stopped checking after 10 minutes; use Check again later. The agent is not run a second time.", Action: ActionCheckLater}
	case errors.Is(err, client.ErrStreamIdle):
		return Problem{Title: "Reply stopped", Sentence: "The service stopped sending the reply. The text received so far is kept."}
	case errors.Is(err, ErrAgentInactive):
		return Problem{Title: "Agent switched off", Sentence: "This agent is switched off on the service, so it cannot be run. Ask your administrator to switch it on, or choose another agent."}
	case errors.Is(err, ErrReplyTooLarge):
		return Problem{Title: "Reply too long", Sentence: "The reply grew longer than Agent Desk keeps (" + HumanBytes(MaxReplyBytes) + "), so it stopped reading it. The text received up to there is kept."}
	case errors.Is(err, client.ErrEventTooLarge):
		return Problem{Title: "Reply too large", Sentence: "The service sent a piece of the reply that is too large to read. The text received so far is kept."}
	case client.IsAuth(err):
		return Problem{Title: "Key rejected", Sentence: "The service rejected the API key. Open Settings to check the key of this account.", Action: ActionOpenSettings}
	case client.IsDefaultCollectionRefusal(err):
		return Problem{Title: "Default collection", Sentence: "The default collection cannot be deleted. Delete its memories one by one instead."}
	case client.IsForbidden(err):
		return Problem{Title: "No access", Sentence: "The API key works, but it has no access to this workspace or item. Check the workspace number in Settings, or ask your administrator for access.", Action: ActionOpenSettings}
	case client.IsOffline(err):
		return Problem{Title: "No connection", Sentence: "Agent Desk can't reach the service. Check your internet connection, then try again.", Action: ActionTryAgain}
	case errors.As(err, &apiErr):
		return explainAPIError(apiErr)
	case errors.As(err, &stErr):
		return Problem{Title: "Not kept on this computer", Sentence: stErr.Error()}
	case errors.As(err, &inErr):
		return Problem{Title: "Check what you entered", Sentence: sentence(inErr.Message)}
	case errors.As(err, &execErr):
		if t := strings.TrimSpace(execErr.Text); t != "" {
			return Problem{Title: "The agent could not finish", Sentence: "The agent could not finish: " + sentence(t), Action: ActionTryAgain}
		}
		return Problem{Title: "The agent could not finish", Sentence: "The agent could not finish (the service says " + strconvQuote(execErr.Execution.Status) + "). Try again in a moment.", Action: ActionTryAgain}
	case errors.As(err, &bigErr):
		return Problem{Title: "File too large", Sentence: "This " + bigErr.What + " is larger than Agent Desk downloads (" + HumanBytes(bigErr.Limit) + "), so the download was stopped and nothing was kept."}
	case errors.As(err, &picErr):
		return explainPicture(picErr)
	case errors.As(err, &decErr):
		return Problem{Title: "Unreadable answer", Sentence: "The service sent an answer Agent Desk could not read. Try again; if it keeps happening, the service may have changed.", Action: ActionTryAgain}
	}
	return Problem{Title: "Something went wrong", Sentence: sentence(plain(err.Error())), Action: ActionTryAgain}
}

// explainPicture words why a picture named in a reply, or a picture the
// agent made, is not shown.
func explainPicture(e *PictureError) Problem {
	p := Problem{Title: "Picture not shown"}
	switch e.Reason {
	case PictureNotWeb:
		p.Sentence = "This picture is not on the web (it points to a file or another program), so Agent Desk does not open it."
	case PictureTooLarge:
		p.Sentence = "This picture's file is larger than " + HumanBytes(MaxPictureBytes) + ", so Agent Desk did not download it."
	case PictureTooBig:
		p.Sentence = fmt.Sprintf("This picture is too large to show safely (%d × %d pixels).", e.Width, e.Height)
	case PictureUnreadable:
		p.Sentence = "This is not a picture Agent Desk can show."
	default:
		p.Sentence = "The website that holds this picture did not give it. Try again later."
		p.Action = ActionTryAgain
	}
	return p
}

// Describe is Explain's sentence, for a line of text.
func Describe(err error) string { return Explain(err).Sentence }

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

func explainAPIError(e *client.APIError) Problem {
	msg := strings.TrimSpace(e.Message)
	switch {
	case e.StatusCode == 404:
		p := Problem{Title: "Not found", Sentence: "The service could not find that. It may have been removed."}
		if msg != "" && !strings.EqualFold(msg, "Not Found") {
			p.Sentence = sentence(msg)
		}
		return p
	case e.StatusCode == 413 && e.Path != "" && !strings.Contains(e.Path+"/", "/files/"):
		// not a file: a message, with the conversation before it
		return Problem{Title: "Too long for the service", Sentence: "The service cannot take a request this long. In a long conversation, start a new chat (the agent will not see this one); a long pasted text can be shortened or sent as a file."}
	case e.StatusCode == 413:
		p := Problem{Title: "File too large", Sentence: "The file is too large for the service. Files of up to 200 MB are usually accepted."}
		if msg != "" && !strings.EqualFold(msg, http.StatusText(http.StatusRequestEntityTooLarge)) && !strings.EqualFold(msg, "Payload Too Large") {
			p.Sentence = "The file is too large for the service: " + sentence(msg)
		}
		return p
	case e.StatusCode == 422 || e.StatusCode == 400:
		p := Problem{Title: "Not accepted", Sentence: sentence(msg)}
		// The real service's message is only "Validation failed": what
		// to fix is in its field messages.
		if msg == "" || strings.EqualFold(msg, "Validation failed") {
			if f := firstFieldMessage(e.Fields); f != "" {
				p.Sentence = sentence(f)
			} else if msg == "" {
				p.Sentence = "The service did not accept what was sent. Check the fields and try again."
			}
		}
		return p
	case e.StatusCode == 429:
		p := Problem{Title: "Service busy", Sentence: "The service asked Agent Desk to slow down. Wait a moment, then try again.", Action: ActionTryAgain}
		if d, ok := e.Wait(); ok && d >= time.Second {
			p.Wait = d
			p.Sentence = "The service asked Agent Desk to slow down. Try again in " + HowLong(d.Round(time.Second)) + "."
		}
		return p
	case e.StatusCode >= 500:
		return Problem{Title: "Service problem", Sentence: "The service had a problem and could not finish. Try again in a moment.", Action: ActionTryAgain}
	}
	if msg == "" {
		return Problem{Title: "Request refused", Sentence: "The service refused the request."}
	}
	return Problem{Title: "Request refused", Sentence: sentence(msg)}
}

// sentence makes sure a message starts with a capital and ends with a stop.
func sentence(s string) string {
	// A server's message is shown in a dialog or under a form: one line of
	// at most sentenceMax characters, so that no message outgrows the
	// window, whatever the server sent.
	s = safe.Text(strings.TrimSpace(s), sentenceMax)
	if s == "" {
		return "Something went wrong."
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.ContainsAny(s[len(s)-1:], ".!?") {
		s += "."
	}
	return s
}

// sentenceMax is the most of a server's message Agent Desk shows.
const sentenceMax = 300

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

package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2/lang"

	"github.com/agentdesk/agentdesk/app/catalog"
	"github.com/agentdesk/agentdesk/app/sheet"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/internal/safe"
	"github.com/agentdesk/agentdesk/storage"
)

// Action is what a person can do about a problem; screens show it as a button.
type Action int

// The actions a Problem may offer.
const (
	// ActionNone: nothing to press (the sentence says what to change).
	ActionNone Action = iota
	// ActionTryAgain: the same request may well work in a moment.
	ActionTryAgain
	// ActionCheckLater: the work goes on at the service; look again later, never rerun.
	ActionCheckLater
	// ActionOpenSettings: the account's key or workspace needs a look.
	ActionOpenSettings
)

// Label is the action's button text ("" for ActionNone).
func (a Action) Label() string {
	switch a {
	case ActionTryAgain:
		return lang.L("Try again")
	case ActionCheckLater:
		return lang.L("Check again later")
	case ActionOpenSettings:
		return lang.L("Open account settings")
	}
	return ""
}

// Problem is an error worded for the user: title, what to do, and the action to offer.
type Problem struct {
	Title    string
	Sentence string
	Action   Action
	// Wait is how long the service asked to wait first (0 when it did not).
	Wait time.Duration
}

// Explain turns any error into a Problem an office worker can act on, never showing secrets.
func Explain(err error) Problem {
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
	var sheetErr *sheet.Error
	var leftErr *catalog.OldEntryLeftError
	switch {
	case errors.Is(err, catalog.ErrNoAgent):
		return Problem{Title: lang.L("Webhook not changed"), Sentence: sentence(lang.L("this webhook does not say which agent it belongs to, so it cannot be changed here"))}
	case errors.As(err, &leftErr):
		why := map[string]any{"Why": Explain(leftErr.Err).Sentence}
		s := lang.L("the webhook was turned off as a new entry, but the old entry could not be removed: {{.Why}}", why)
		if leftErr.TurnedOn {
			s = lang.L("the webhook was turned on as a new entry, but the old entry could not be removed: {{.Why}}", why)
		}
		return Problem{Title: lang.L("Webhook listed twice"), Sentence: sentence(s)}
	case errors.Is(err, context.Canceled):
		return Problem{Title: lang.L("Cancelled"), Sentence: lang.L("Cancelled.")}
	case errors.Is(err, context.DeadlineExceeded):
		return Problem{Title: lang.L("No answer in time"), Sentence: lang.L("The service took too long to answer. Try again in a moment."), Action: ActionTryAgain}
	case errors.Is(err, client.ErrChatRules):
		return Problem{Title: lang.L("Message not sent"), Sentence: lang.L("Chat messages must be a pair of user/assistant: each message you send needs a reply before the next one.")}
	case errors.Is(err, client.ErrPollingUnsupported):
		return Problem{Title: lang.L("Can't check on the run"), Sentence: lang.L("This service does not let Agent Desk check on a run that is still going. What was received so far is kept.")}
	case errors.Is(err, client.ErrStreamIncomplete):
		return Problem{Title: lang.L("Reply cut off"), Sentence: lang.L("The connection dropped before the reply was complete, and the service could not give the rest. The text received so far is kept. Retry runs the agent again and costs credits.")}
	case errors.Is(err, client.ErrStillRunning):
		return Problem{Title: lang.L("Still running"), Sentence: lang.L("The agent is still running on the service. Agent Desk stopped checking after 10 minutes; use Check again later. The agent is not run a second time."), Action: ActionCheckLater}
	case errors.Is(err, client.ErrStreamIdle):
		return Problem{Title: lang.L("Reply stopped"), Sentence: lang.L("The service stopped sending the reply. The text received so far is kept.")}
	case errors.Is(err, ErrAgentInactive):
		return Problem{Title: lang.L("Agent switched off"), Sentence: lang.L("This agent is switched off on the service, so it cannot be run. Ask your administrator to switch it on, or choose another agent.")}
	case errors.Is(err, ErrReplyTooLarge):
		return Problem{Title: lang.L("Reply too long"), Sentence: lang.L("The reply grew longer than Agent Desk keeps ({{.Size}}), so it stopped reading it. The text received up to there is kept.", map[string]any{"Size": HumanBytes(MaxReplyBytes)})}
	case errors.Is(err, client.ErrEventUnreadable):
		return Problem{Title: lang.L("Reply not fully read"), Sentence: lang.L("Agent Desk could not read part of the reply; what arrived is kept. Retry runs the agent again and costs credits.")}
	case errors.Is(err, client.ErrEventTooLarge):
		return Problem{Title: lang.L("Reply too large"), Sentence: lang.L("The service sent a piece of the reply that is too large to read. The text received so far is kept.")}
	case client.IsAuth(err):
		return Problem{Title: lang.L("Key rejected"), Sentence: lang.L("The service rejected the API key. Open Settings to check the key of this account."), Action: ActionOpenSettings}
	case client.IsDefaultCollectionRefusal(err):
		return Problem{Title: lang.L("Default collection"), Sentence: lang.L("The default collection cannot be deleted. Delete its memories one by one instead.")}
	case client.IsWorkspaceRefusal(err):
		return explainWorkspace(err)
	case client.IsForbidden(err):
		return Problem{Title: lang.L("No access"), Sentence: lang.L("The API key works, but it has no access to this workspace or item. Check the workspace number in Settings, or ask your administrator for access."), Action: ActionOpenSettings}
	case client.IsProxyAuthRequired(err):
		return explainProxyAuth(err)
	case client.IsProxyUnreachable(err):
		return Problem{Title: lang.L("Proxy not reached"), Sentence: lang.L("Agent Desk could not reach your network's proxy, so nothing went to the service. Check your connection; if it goes on, ask your IT department whether the proxy has changed."), Action: ActionTryAgain}
	case errors.Is(err, client.ErrProxyAddress):
		return Problem{Title: lang.L("Proxy address not usable"), Sentence: lang.L("The proxy address set for this computer cannot be used. Ask your IT department for the right one.")}
	case errors.Is(err, client.ErrProxyScript):
		return Problem{Title: lang.L("Proxy script not usable"), Sentence: lang.L("Your network's proxy setup script could not be read or has a mistake, so nothing went to the service. Ask your IT department whether its address has changed; it is set on this computer or in Settings → Advanced → Network."), Action: ActionTryAgain}
	case errors.Is(err, client.ErrNotACertificate):
		return Problem{Title: lang.L("Not a certificate"), Sentence: lang.L("That file holds no certificate Agent Desk can read. Ask your IT department for your company's certificate as a .pem, .crt or .cer file.")}
	case client.IsUnknownAuthority(err):
		return Problem{Title: lang.L("Secure connection not trusted"), Sentence: lang.L("The service's security certificate was signed by an authority this computer does not trust, so Agent Desk did not send your key. Many company networks inspect secure connections with an authority of their own: ask your IT department for your company's certificate (a .pem, .crt or .cer file), then choose Trust a certificate from my company… (in Settings → Advanced → Network, or under Test connection).")}
	case client.IsCertificateExpired(err):
		return Problem{Title: lang.L("Certificate expired"), Sentence: lang.L("The service's security certificate has expired, or this computer's date is wrong, so Agent Desk did not send your key. Check the date and time; if they are right, tell whoever runs the service.")}
	case client.IsTLS(err):
		return Problem{Title: lang.L("No secure connection"), Sentence: lang.L("A secure connection to the service could not be set up, so Agent Desk did not send your key. Check the address; if your company uses its own certificates, ask your IT department.")}
	case errors.Is(err, client.ErrRedirectedAway):
		return Problem{Title: lang.L("Sent elsewhere"), Sentence: lang.L("The service sent Agent Desk on to another address, and Agent Desk does not follow it there: that answer would not be the service's. Check the service address in Settings, or ask your administrator."), Action: ActionOpenSettings}
	case client.IsOffline(err) && errors.Is(err, io.ErrUnexpectedEOF):
		return explainCut(err)
	case client.IsOffline(err):
		return Problem{Title: lang.L("No connection"), Sentence: lang.L("Agent Desk can't reach the service. Check your internet connection, then try again."), Action: ActionTryAgain}
	case errors.As(err, &apiErr):
		return explainAPIError(apiErr)
	case errors.As(err, &stErr):
		return Problem{Title: lang.L("Not kept on this computer"), Sentence: storageSentence(stErr)}
	case errors.As(err, &inErr):
		return Problem{Title: lang.L("Check what you entered"), Sentence: sentence(inputMessage(inErr))}
	case errors.As(err, &execErr):
		p := Problem{Title: lang.L("The agent could not finish"), Action: ActionTryAgain}
		switch t := strings.TrimSpace(execErr.Text); {
		case t != "":
			p.Sentence = lang.L("The agent could not finish: {{.Why}}", map[string]any{"Why": sentence(t)})
		case strings.TrimSpace(execErr.Execution.Status) == "":
			p.Sentence = lang.L("The agent could not finish (the service says nothing). Try again in a moment.")
		default:
			p.Sentence = lang.L("The agent could not finish (the service says {{.Status}}). Try again in a moment.", map[string]any{"Status": strconvQuote(execErr.Execution.Status)})
		}
		return p
	case errors.As(err, &sheetErr):
		return Problem{Title: lang.L("Sheet not read"), Sentence: sheetSentence(sheetErr)}
	case errors.As(err, &bigErr):
		return Problem{Title: lang.L("File too large"), Sentence: outputTooLarge(bigErr)}
	case errors.As(err, &picErr):
		return explainPicture(picErr)
	case errors.As(err, &decErr) && decErr.Method != http.MethodGet && decErr.Method != http.MethodHead:
		// The service acted, or may have: asking again could do it twice.
		return Problem{Title: lang.L("Unreadable answer"), Sentence: lang.L("The service sent an answer Agent Desk could not read, so it cannot tell whether the service did what was asked. Check whether it was done before you try again.")}
	case errors.As(err, &decErr):
		return Problem{Title: lang.L("Unreadable answer"), Sentence: lang.L("The service sent an answer Agent Desk could not read. Try again; if it keeps happening, the service may have changed."), Action: ActionTryAgain}
	}
	return Problem{Title: lang.L("Something went wrong"), Sentence: sentence(plainWords(err)), Action: ActionTryAgain}
}

// explainWorkspace words a refusal for the workspace number: none was
// given, or the one given is not the service's.
func explainWorkspace(err error) Problem {
	find := lang.L("You find it in the service's web app under Settings → Workspace, or after w= in its web address.")
	if e, _ := errors.AsType[*client.APIError](err); strings.TrimSpace(e.Workspace) != "" {
		return Problem{Title: lang.L("Workspace not accepted"), Action: ActionOpenSettings,
			Sentence: lang.L("The service did not accept the workspace number {{.Workspace}}. {{.Find}} Correct it in the account's settings.",
				map[string]any{"Workspace": safe.Text(e.Workspace, 40), "Find": find})}
	}
	return Problem{Title: lang.L("Workspace number needed"), Action: ActionOpenSettings,
		Sentence: lang.L("The service needs the number of your workspace. {{.Find}} Enter it as the workspace number in the account's settings.", map[string]any{"Find": find})}
}

// AboutWorkspace reports a result the workspace number is at fault for
// (refused, or needed where none was typed), which a form shows by that field.
func (r ConnectionResult) AboutWorkspace() bool {
	return r.State == WorkspaceRejected || r.State == ServerError && r.Message == explainWorkspace(&client.APIError{}).Sentence
}

// explainCut words an answer whose connection dropped halfway: the service
// was reached, and a request that changes something may have been done.
func explainCut(err error) Problem {
	p := Problem{Title: lang.L("Connection dropped"), Action: ActionTryAgain,
		Sentence: lang.L("The connection dropped before the answer was complete. Try again in a moment.")}
	if e, _ := errors.AsType[*client.NetworkError](err); e.Method != http.MethodGet && e.Method != http.MethodHead {
		p.Action = ActionNone
		p.Sentence = lang.L("The connection dropped before the answer was complete, so Agent Desk cannot tell whether the service did what was asked. Check whether it was done before you try again.")
	}
	return p
}

// plainWords are the words of an error Explain knows no more about, without the package prefix.
func plainWords(err error) string { return storageWords(plain(err.Error())) }

// outputTooLarge words an output over its cap, by what it is.
func outputTooLarge(e *OutputTooLargeError) string {
	data := map[string]any{"Size": HumanBytes(e.Limit)}
	if w, ok := map[string]string{
		safe.Image.String():     lang.L("This picture is larger than Agent Desk downloads ({{.Size}}), so the download was stopped and nothing was kept.", data),
		safe.Video.String():     lang.L("This video is larger than Agent Desk downloads ({{.Size}}), so the download was stopped and nothing was kept.", data),
		safe.Audio.String():     lang.L("This sound is larger than Agent Desk downloads ({{.Size}}), so the download was stopped and nothing was kept.", data),
		safe.PDF.String():       lang.L("This PDF document is larger than Agent Desk downloads ({{.Size}}), so the download was stopped and nothing was kept.", data),
		safe.PlainText.String(): lang.L("This text is larger than Agent Desk downloads ({{.Size}}), so the download was stopped and nothing was kept.", data),
	}[e.What]; ok {
		return w
	}
	return lang.L("This file is larger than Agent Desk downloads ({{.Size}}), so the download was stopped and nothing was kept.", data)
}

// explainPicture words why a picture is not shown.
func explainPicture(e *PictureError) Problem {
	p := Problem{Title: lang.L("Picture not shown")}
	switch e.Reason {
	case PictureNotWeb:
		p.Sentence = lang.L("This picture is not on the web (it points to a file or another program), so Agent Desk does not open it.")
	case PictureTooLarge:
		p.Sentence = lang.L("This picture's file is larger than {{.Size}}, so Agent Desk did not download it.", map[string]any{"Size": HumanBytes(MaxPictureBytes)})
	case PictureTooBig:
		p.Sentence = lang.L("This picture is too large to show safely ({{.Width}} × {{.Height}} pixels).", map[string]any{"Width": Number(e.Width), "Height": Number(e.Height)})
	case PictureUnreadable:
		p.Sentence = lang.L("This is not a picture Agent Desk can show.")
	default:
		p.Sentence = lang.L("The website that holds this picture did not give it. Try again later.")
		p.Action = ActionTryAgain
	}
	return p
}

// Describe is Explain's sentence, for a line of text.
func Describe(err error) string { return Explain(err).Sentence }

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
		p := Problem{Title: lang.L("Not found"), Sentence: lang.L("The service could not find that. It may have been removed.")}
		if msg != "" && !strings.EqualFold(msg, "not found") {
			p.Sentence = sentence(msg)
		}
		return p
	case e.StatusCode == 413 && e.Path != "" && !strings.Contains(e.Path+"/", "/files/"):
		// not a file: a message, with the conversation before it
		return Problem{Title: lang.L("Too long for the service"), Sentence: lang.L("The service cannot take a request this long. In a long conversation, start a new chat (the agent will not see this one); a long pasted text can be shortened or sent as a file.")}
	case e.StatusCode == 413:
		p := Problem{Title: lang.L("File too large"), Sentence: lang.L("The file is too large for the service. Files of up to 200 MB are usually accepted.")}
		if msg != "" && !strings.EqualFold(msg, http.StatusText(http.StatusRequestEntityTooLarge)) && !strings.EqualFold(msg, "payload too large") {
			p.Sentence = lang.L("The file is too large for the service: {{.Why}}", map[string]any{"Why": sentence(msg)})
		}
		return p
	case e.StatusCode == 422 || e.StatusCode == 400:
		p := Problem{Title: lang.L("Not accepted"), Sentence: sentence(msg)}
		// "Validation failed" says nothing: the field messages say what to fix.
		if msg == "" || strings.EqualFold(msg, "validation failed") {
			if f := firstFieldMessage(e.Fields); f != "" {
				p.Sentence = sentence(f)
			} else if msg == "" {
				p.Sentence = lang.L("The service did not accept what was sent. Check the fields and try again.")
			}
		}
		return p
	case e.StatusCode == 429:
		p := Problem{Title: lang.L("Service busy"), Sentence: lang.L("The service asked Agent Desk to slow down. Wait a moment, then try again."), Action: ActionTryAgain}
		if d, ok := e.Wait(); ok && d >= time.Second {
			p.Wait = d
			p.Sentence = lang.L("The service asked Agent Desk to slow down. Try again in {{.Wait}}.", map[string]any{"Wait": HowLong(d.Round(time.Second))})
		}
		return p
	case e.StatusCode >= 500:
		return Problem{Title: lang.L("Service problem"), Sentence: lang.L("The service had a problem and could not finish. Try again in a moment."), Action: ActionTryAgain}
	}
	if msg == "" {
		return Problem{Title: lang.L("Request refused"), Sentence: lang.L("The service refused the request.")}
	}
	return Problem{Title: lang.L("Request refused"), Sentence: sentence(msg)}
}

// sentence makes sure a message starts with a capital and ends with a stop.
func sentence(s string) string {
	// Server text is data: one bounded line, so no message outgrows the window.
	s = safe.Text(strings.TrimSpace(s), sentenceMax)
	if s == "" {
		return lang.L("Something went wrong.")
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

// FieldErrors are the service's validation messages per field.
func FieldErrors(err error) map[string]string {
	apiErr, ok := errors.AsType[*client.APIError](err)
	if !ok || len(apiErr.Fields) == 0 {
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
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return strconv.Quote(s)
}

// firstFieldMessage picks by field name, so the same error always reads the same.
func firstFieldMessage(fields map[string][]string) string {
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if v := fields[k]; len(v) > 0 && strings.TrimSpace(v[0]) != "" {
			return v[0]
		}
	}
	return ""
}

// said is Agent Desk's own error, worded when read in the language then in use.
type said struct {
	words func() string
	err   error
}

func (e *said) Error() string { return e.words() }
func (e *said) Unwrap() error { return e.err }

func say(words func() string) error { return &said{words: words} }

// sayWrapped is say for an error that wraps err (errors.Is and As see it).
func sayWrapped(err error, words func() string) error { return &said{words: words, err: err} }

// why is err's own words, for a sentence that gives them as the reason.
func why(err error) string {
	if st, ok := errors.AsType[*storage.Error](err); ok && st.Error() == err.Error() {
		return storageSentence(st)
	}
	return err.Error()
}

// inputMessage is a client-side check's message, translated when known.
func inputMessage(e *client.InputError) string {
	msg := e.Message
	// The client's messages, compared whatever their case.
	for _, m := range [][2]string{
		{"give the collection a name.", lang.L("Give the collection a name.")},
		{fmt.Sprintf("a collection name can be at most %d characters long.", client.MaxCollectionName), lang.L("A collection name can be at most {{.Count}} characters long.", map[string]any{"Count": Number(client.MaxCollectionName)})},
		{client.ErrDefaultCollection.Message, lang.L("The default collection cannot be deleted. Delete its memories one by one instead.")},
		{"enter the address that should receive the calls.", lang.L("Enter the address that should receive the calls.")},
		{"that address is not complete. it should look like https://example.com/hook.", lang.L("That address is not complete. It should look like https://example.com/hook.")},
		{"the service only calls secure addresses: use one starting with https:// instead.", lang.L("The service only calls secure addresses: use one starting with https:// instead.")},
		{"the service calls a webhook with POST or GET only.", lang.L("The service calls a webhook with POST or GET only.")},
		{"a webhook is either active or inactive.", lang.L("A webhook is either active or inactive.")},
	} {
		if strings.EqualFold(msg, m[0]) {
			return m[1]
		}
	}
	const tooMany = "the service takes at most %d files at a time; %d are attached. remove %d, then send again."
	var most, attached, remove int
	if n, _ := fmt.Sscanf(strings.ToLower(msg), tooMany, &most, &attached, &remove); n == 3 && strings.EqualFold(msg, fmt.Sprintf(tooMany, most, attached, remove)) {
		return lang.L("The service takes at most {{.Most}} files at a time; {{.Attached}} are attached. Remove {{.Remove}}, then send again.",
			map[string]any{"Most": Number(most), "Attached": Number(attached), "Remove": Number(remove)})
	}
	if rest, ok := strings.CutSuffix(msg, "; the service takes files of up to 200 MB."); ok {
		if i := strings.LastIndex(rest, " is "); i > 0 {
			return lang.L("{{.Name}} is {{.Size}}; the service takes files of up to 200 MB.", map[string]any{"Name": rest[:i], "Size": rest[i+len(" is "):]})
		}
	}
	return msg
}

// storageSentence words a failure of Agent Desk's files: what, which file, why.
func storageSentence(e *storage.Error) string {
	data := map[string]any{"What": storageWords(e.Op), "Path": e.Path, "Why": storageWords(e.Reason)}
	if e.Path == "" {
		return lang.L("Agent Desk could not {{.What}}: {{.Why}}", data)
	}
	return lang.L("Agent Desk could not {{.What}} ({{.Path}}): {{.Why}}", data)
}

// storageWords are storage's English words (an Error's Op or Reason, a
// sentinel's text) in the language in use; unknown ones as they are.
func storageWords(words string) string {
	if w, ok := map[string]string{
		"add up the credits":                      lang.L("add up the credits"),
		"count the messages":                      lang.L("count the messages"),
		"delete the conversation":                 lang.L("delete the conversation"),
		"delete the saved answer":                 lang.L("delete the saved answer"),
		"keep the saved answer":                   lang.L("keep the saved answer"),
		"read the saved answers":                  lang.L("read the saved answers"),
		"rename the saved answer":                 lang.L("rename the saved answer"),
		"keep a list for offline use":             lang.L("keep a list for offline use"),
		"make the downloads cache private":        lang.L("make the downloads cache private"),
		"move the unreadable settings file aside": lang.L("move the unreadable settings file aside"),
		"create a folder":                         lang.L("create a folder"),
		"open the downloads cache":                lang.L("open the downloads cache"),
		"open the history":                        lang.L("open the history"),
		"open the history for reading":            lang.L("open the history for reading"),
		"read the API keys file":                  lang.L("read the API keys file"),
		"read the collections":                    lang.L("read the collections"),
		"read the conversation":                   lang.L("read the conversation"),
		"read the conversations":                  lang.L("read the conversations"),
		"read the credits":                        lang.L("read the credits"),
		"read the memories":                       lang.L("read the memories"),
		"read the memory":                         lang.L("read the memory"),
		"read the message":                        lang.L("read the message"),
		"read the messages":                       lang.L("read the messages"),
		"read the new memory draft":               lang.L("read the new memory draft"),
		"read the run":                            lang.L("read the run"),
		"read the runs":                           lang.L("read the runs"),
		"record the credits":                      lang.L("record the credits"),
		"remove deleted conversations":            lang.L("remove deleted conversations"),
		"remove the API keys file":                lang.L("remove the API keys file"),
		"remove the collection from the list":     lang.L("remove the collection from the list"),
		"remove the download":                     lang.L("remove the download"),
		"remove the later messages":               lang.L("remove the later messages"),
		"remove the memory from the list":         lang.L("remove the memory from the list"),
		"rename the conversation":                 lang.L("rename the conversation"),
		"restore the conversation":                lang.L("restore the conversation"),
		"save the API key":                        lang.L("save the API key"),
		"save the collection":                     lang.L("save the collection"),
		"save the conversation":                   lang.L("save the conversation"),
		"save the download":                       lang.L("save the download"),
		"save the draft":                          lang.L("save the draft"),
		"save the memories":                       lang.L("save the memories"),
		"save the memory":                         lang.L("save the memory"),
		"save the memory draft":                   lang.L("save the memory draft"),
		"save the message":                        lang.L("save the message"),
		"save the new conversation":               lang.L("save the new conversation"),
		"save the new memory draft":               lang.L("save the new memory draft"),
		"save the reply":                          lang.L("save the reply"),
		"save the run":                            lang.L("save the run"),
		"save the settings":                       lang.L("save the settings"),
		"search the conversations":                lang.L("search the conversations"),
		"search the history":                      lang.L("search the history"),
		"the disk is full":                        lang.L("the disk is full"),
		"the file is locked by another program (is Agent Desk already running?)": lang.L("the file is locked by another program (is Agent Desk already running?)"),
		"permission was denied":                       lang.L("permission was denied"),
		"the file or its folder cannot be written to": lang.L("the file or its folder cannot be written to"),
		"the file cannot be opened for writing (its folder may be read-only or belong to another user)": lang.L("the file cannot be opened for writing (its folder may be read-only or belong to another user)"),
		"the file is damaged or is not an Agent Desk history":                                           lang.L("the file is damaged or is not an Agent Desk history"),
		"the disk could not be written (it may be full or failing)":                                     lang.L("the disk could not be written (it may be full or failing)"),
		"the disk could not be read or written":                                                         lang.L("the disk could not be read or written"),
		"the disk is read-only":                                                                         lang.L("the disk is read-only"),
		"the file or folder does not exist":                                                             lang.L("the file or folder does not exist"),
		"a file is in the way where a folder should be":                                                 lang.L("a file is in the way where a folder should be"),
		"the file is damaged":                                                                           lang.L("the file is damaged"),
		storage.ErrReadOnly.Error():                                                                     lang.L("the history is open read-only, so changes cannot be saved"),
		storage.ErrNotFound.Error():                                                                     lang.L("not found"),
	}[words]; ok {
		return w
	}
	return words
}

// noticeSentence words what storage did on its own at start.
func noticeSentence(n storage.Notice) string {
	switch n.Kind {
	case storage.HistoryReadOnly:
		return lang.L("{{.Why}} Your past conversations are shown, but nothing new will be saved until this is fixed and Agent Desk is restarted.", map[string]any{"Why": sentence(why(n.Err))})
	case storage.HistoryInMemory:
		return lang.L("{{.Why}} Agent Desk started with an empty history that will be lost when it closes.", map[string]any{"Why": sentence(why(n.Err))})
	case storage.SettingsMovedAside:
		return lang.L("Your settings file could not be read; it was moved to {{.Path}}. Agent Desk started with default settings.", map[string]any{"Path": n.Path})
	case storage.SettingsNotMovedAside:
		return lang.L("Your settings file {{.Path}} could not be read and could not be moved aside; Agent Desk started with default settings.", map[string]any{"Path": n.Path})
	}
	return ""
}

// sheetSentence says what is wrong with a sheet and what to do.
func sheetSentence(e *sheet.Error) string {
	name := map[string]any{"Name": filepath.Base(e.Path), "Cells": e.Cell, "Size": HumanBytes(sheet.MaxBytes)}
	switch e.Kind {
	case sheet.TooManyColumns:
		name["Count"] = Number(sheet.MaxColumns)
		return lang.L("{{.Name}} names more than {{.Count}} columns in its first row, more than Agent Desk reads. Delete the columns the agent does not need, or anything typed far to the right, save, and choose the sheet again.", name)
	case sheet.TooManyCells:
		name["Count"] = Number(sheet.MaxCells)
		return lang.L("{{.Name}} has more cells than Agent Desk reads at once ({{.Count}}). Split it into smaller sheets, or delete the columns the agent does not need.", name)
	case sheet.TooMuchText:
		name["Limit"] = HumanBytes(sheet.MaxText)
		return lang.L("{{.Name}} holds more text than Agent Desk reads at once ({{.Limit}}). Split it into smaller sheets.", name)
	case sheet.Empty:
		return lang.L("{{.Name}} is empty. Choose a sheet with a row for each run.", name)
	case sheet.HeaderOnly:
		return lang.L("{{.Name}} has the names of its columns but no rows under them. Add a row for each run.", name)
	case sheet.TooLarge:
		return lang.L("{{.Name}} is larger than Agent Desk reads ({{.Size}}). Split it into smaller sheets.", name)
	case sheet.Merged:
		return lang.L("{{.Name}} has merged cells ({{.Cells}}). Unmerge them so that each row has its own values, save, and choose the sheet again.", name)
	}
	return lang.L("{{.Name}} could not be read as a spreadsheet. Choose a CSV file or an Excel workbook (.xlsx).", name)
}

// explainProxyAuth words a proxy's request for a sign-in: the window asks
// for a user name and password where the proxy takes them.
func explainProxyAuth(err error) Problem {
	e, _ := errors.AsType[*client.ProxyAuthError](err)
	switch {
	case e != nil && e.Refused:
		return Problem{Title: lang.L("Proxy sign-in refused"), Sentence: lang.L("Your network's proxy refused the user name and password. Check them (your IT department can help), sign in again when Agent Desk asks, then try again."), Action: ActionTryAgain}
	case e != nil && !e.CanSignIn():
		return Problem{Title: lang.L("Proxy sign-in needed"), Sentence: lang.L("Your network's proxy asks for a kind of sign-in Agent Desk cannot give (Kerberos alone). Ask your IT department to let Agent Desk through the proxy.")}
	}
	return Problem{Title: lang.L("Proxy sign-in needed"), Sentence: lang.L("Your network's proxy asks for your user name and password. Sign in when Agent Desk asks, then try again."), Action: ActionTryAgain}
}

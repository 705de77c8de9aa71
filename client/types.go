package client

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Agent types.
const (
	AgentChat  = "chat"
	AgentImage = "image"
	AgentText  = "text"
	AgentVideo = "video"
)

// Execution statuses. The interface documents starting, running and
// completed; the real service answers succeeded when polled, and its clients
// treat failed, error, canceled and cancelled as failures. Any other word
// means the execution is still going (see [Execution.Terminal]).
const (
	StatusStarting  = "starting"
	StatusRunning   = "running"
	StatusCompleted = "completed"
	StatusSucceeded = "succeeded"
	StatusFailed    = "failed"
	StatusError     = "error"
	StatusCanceled  = "canceled"
	StatusCancelled = "cancelled"
)

// Message roles for chat agents and the chat-completions endpoint.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	// RoleDeveloper may appear only as the first message sent to a chat agent.
	RoleDeveloper = "developer"
	// RoleSystem is refused by chat agents; the chat-completions endpoint accepts it.
	RoleSystem = "system"
)

// Question types.
const (
	QuestionSelect = "select"
	QuestionNumber = "number"
	QuestionArray  = "array"
)

// Agent is a configurable AI agent.
type Agent struct {
	ID              ID     `json:"id"`
	Title           string `json:"title"`
	Description     string `json:"description"`
	LongDescription string `json:"long_description"`
	WorkspaceID     ID     `json:"workspace_id"`
	// Visibility "public" is shown to users; other values are not.
	Visibility string `json:"visibility"`
	Slug       string `json:"slug"`
	// Active is sent by the service as 1 (active) or 0; nil when the
	// service did not say (the agent is then taken as active).
	Active *Flag `json:"active,omitempty"`
	// Type is one of AgentChat, AgentImage, AgentText or AgentVideo.
	Type string `json:"type"`
	// Questions define the answers an execution takes.
	Questions []Question `json:"questions"`
	CreatedAt Time       `json:"created_at"`
	UpdatedAt Time       `json:"updated_at"`
	CreatedBy ID         `json:"created_by"`
	// Extra holds the fields this package does not know, untouched.
	Extra map[string]json.RawMessage `json:"-"`
}

// Inactive reports whether the service says the agent is switched off
// (active: 0); such an agent cannot be run.
func (a *Agent) Inactive() bool { return a.Active != nil && !bool(*a.Active) }

// Question returns the question with the given name, or nil.
func (a *Agent) Question(name string) *Question {
	for i := range a.Questions {
		if a.Questions[i].Name == name {
			return &a.Questions[i]
		}
	}
	return nil
}

// Visible reports whether the agent is meant to be shown (visibility public).
func (a *Agent) Visible() bool { return a.Visibility == "public" }

// Question is one input definition of an agent. For a chat agent the names
// are temperature, model and tools (selects), root_id (number, optional) and
// messages (array).
type Question struct {
	// Type is QuestionSelect, QuestionNumber or QuestionArray.
	Type        string `json:"type"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
	// Options lists the allowed values of a select question; send one of them
	// verbatim (temperature options are strings such as "0.5").
	Options []string                   `json:"options,omitempty"`
	Extra   map[string]json.RawMessage `json:"-"`
}

// Execution is one execution response record: the result of a run, a polled
// state, or one event of a stream (where Output is a text fragment).
type Execution struct {
	ID     ID     `json:"id"`
	Status string `json:"status"`
	// Input is present on the blocking response.
	Input string `json:"input,omitempty"`
	// Output is the result text (or a URL for image and video agents); in a
	// stream it is the fragment carried by one event.
	Output string `json:"output"`
	// Error is null when all is well; anything else means the execution
	// failed. ErrorText gives it as plain text.
	Error json.RawMessage `json:"error,omitempty"`
	// Credits is null (not Valid) while a streamed execution is running.
	Credits Credits `json:"credits"`
	// RootID is the conversation (session) id; pass it back as the root_id
	// answer to continue the conversation.
	RootID     ID                         `json:"root_id"`
	CreatedAt  Time                       `json:"created_at"`
	UpdatedAt  Time                       `json:"updated_at"`
	TemplateID ID                         `json:"template_id"`
	Extra      map[string]json.RawMessage `json:"-"`
}

// HasError reports whether the record carries an error value.
//
// Assumption: null, false, "" and {} mean "no error"; any other value is an
// error.
func (e *Execution) HasError() bool {
	b := bytes.TrimSpace(e.Error)
	switch string(b) {
	case "", "null", "false", `""`, "{}":
		return false
	}
	return true
}

// ErrorText returns the record's error as plain text: the string itself, the
// message (or error/detail) member of an object, or the raw JSON otherwise.
// It is "" when there is no error.
func (e *Execution) ErrorText() string {
	if !e.HasError() {
		return ""
	}
	return errorValueText(e.Error)
}

func errorValueText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) == nil {
		for _, k := range []string{"message", "error", "detail", "msg"} {
			if v, ok := obj[k]; ok {
				if t := errorValueText(v); t != "" {
					return t
				}
			}
		}
	}
	return string(bytes.TrimSpace(raw))
}

// Failed reports whether the execution ended in failure: a non-null error,
// or one of the failure words (failed, error, canceled, cancelled) in any
// letter case.
func (e *Execution) Failed() bool {
	if e.HasError() {
		return true
	}
	switch strings.ToLower(strings.TrimSpace(e.Status)) {
	case StatusFailed, StatusError, StatusCanceled, StatusCancelled:
		return true
	}
	return false
}

// Succeeded reports whether the execution finished well: completed (the
// interface, and a stream's last event) or succeeded (the real service's
// polled record), with no error.
func (e *Execution) Succeeded() bool {
	if e.HasError() {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(e.Status)) {
	case StatusCompleted, StatusSucceeded:
		return true
	}
	return false
}

// Outcome is Status with a success said as StatusCompleted, whichever word
// the service used for it.
func (e *Execution) Outcome() string {
	if e.Succeeded() {
		return StatusCompleted
	}
	return e.Status
}

// Terminal reports whether the execution will not change any more: it
// succeeded or failed. Every other status, known or not (starting, running,
// queued, pending, "" ...), means it is still going.
func (e *Execution) Terminal() bool {
	return e.Succeeded() || e.Failed()
}

// File is a file known to the service.
type File struct {
	ID ID `json:"id"`
	// Object is always "file".
	Object    string  `json:"object"`
	Bytes     int64   `json:"bytes"`
	CreatedAt Time    `json:"created_at"`
	Filename  string  `json:"filename"`
	Credits   Credits `json:"credits"`
	// Status "completed" means ready; other values are still processing or failed.
	Status string                     `json:"status"`
	Extra  map[string]json.RawMessage `json:"-"`
}

// AgentFiles is the set of files linked to an agent.
type AgentFiles struct {
	// ID is the agent's id.
	ID    ID     `json:"id"`
	Files []File `json:"files"`
	// FilesCount is returned by LinkFiles only.
	FilesCount *FilesCount                `json:"files_count,omitempty"`
	Status     string                     `json:"status"`
	Extra      map[string]json.RawMessage `json:"-"`
}

// FilesCount counts an agent's files by processing state.
type FilesCount struct {
	Total      int                        `json:"total"`
	Completed  int                        `json:"completed"`
	Failed     int                        `json:"failed"`
	InProgress int                        `json:"in_progress"`
	Extra      map[string]json.RawMessage `json:"-"`
}

// Unlinked is the answer to UnlinkFile.
type Unlinked struct {
	// ID is the agent's id.
	ID      ID                         `json:"id"`
	File    File                       `json:"file"`
	Removed bool                       `json:"removed"`
	Extra   map[string]json.RawMessage `json:"-"`
}

// MemoryVariant names which of the two documented memory interfaces a
// deployment serves.
type MemoryVariant string

const (
	// MemoryAuto detects the variant on first use and remembers it.
	MemoryAuto MemoryVariant = ""
	// MemoryA: field "memory", optional collection_id, update with PATCH.
	MemoryA MemoryVariant = "A"
	// MemoryB: field "content", optional metadata, update with PUT.
	MemoryB MemoryVariant = "B"
)

// Memory is a stored memory, in either variant: Content holds variant A's
// "memory" or variant B's "content"; the other variant's fields stay zero.
type Memory struct {
	ID      ID     `json:"id"`
	UserID  ID     `json:"user_id,omitempty"`
	Content string `json:"content"`
	// Credits, CollectionID and Collection belong to variant A; Collection is
	// present on the update response only.
	Credits      Credits     `json:"credits"`
	CollectionID ID          `json:"collection_id,omitempty"`
	Collection   *Collection `json:"collection,omitempty"`
	// Metadata, CreatedAt and UpdatedAt belong to variant B.
	Metadata  map[string]any `json:"metadata,omitempty"`
	CreatedAt Time           `json:"created_at"`
	UpdatedAt Time           `json:"updated_at"`
	// Variant is the shape the record arrived in (not a service field).
	Variant MemoryVariant              `json:"-"`
	Extra   map[string]json.RawMessage `json:"-"`
}

// Collection is a memory collection.
type Collection struct {
	ID     ID     `json:"id"`
	UserID ID     `json:"user_id,omitempty"`
	Name   string `json:"name"`
	// DisplayName is the name shown to people (the real service's list
	// answers it; the default collection is "default" / "My Memories").
	DisplayName string                     `json:"display_name,omitempty"`
	Extra       map[string]json.RawMessage `json:"-"`
}

// DefaultCollectionName is the name the real service gives every user's
// default collection, which cannot be deleted.
const DefaultCollectionName = "default"

// Label returns the name to show: the display name, else the name.
func (c *Collection) Label() string {
	if strings.TrimSpace(c.DisplayName) != "" {
		return c.DisplayName
	}
	return c.Name
}

// IsDefault reports whether this is the user's default collection, which
// the service refuses to delete.
func (c *Collection) IsDefault() bool { return c.Name == DefaultCollectionName }

// Resource is a template listed by ListResources. Its id is a string.
type Resource struct {
	ID          ID                         `json:"id"`
	Title       string                     `json:"title"`
	Description string                     `json:"description"`
	CreatedAt   Time                       `json:"created_at"`
	UpdatedAt   Time                       `json:"updated_at"`
	Extra       map[string]json.RawMessage `json:"-"`
}

// Webhook is a webhook registered for an agent. Variant A of the list fills
// TemplateID, UserID, Method, the counters and Status; variant B fills Events
// and Secret.
type Webhook struct {
	ID ID `json:"id"`
	// TemplateID is the agent's id.
	TemplateID ID     `json:"template_id,omitempty"`
	UserID     ID     `json:"user_id,omitempty"`
	URL        string `json:"url"`
	Method     string `json:"method,omitempty"`
	// Events are names such as "agent.completed" and "agent.failed".
	Events []string `json:"events,omitempty"`
	// Secret is the signing secret (variant B).
	Secret       string `json:"secret,omitempty"`
	SuccessCount int    `json:"success_count"`
	FailureCount int    `json:"failure_count"`
	// Status "active" is shown; other values are not.
	Status    string `json:"status,omitempty"`
	CreatedAt Time   `json:"created_at"`
	UpdatedAt Time   `json:"updated_at"`
	// DeletedAt is the zero Time unless the webhook was deleted.
	DeletedAt Time                       `json:"deleted_at"`
	Extra     map[string]json.RawMessage `json:"-"`
}

// Message is one chat message.
type Message struct {
	Role    string                     `json:"role"`
	Content string                     `json:"content"`
	Extra   map[string]json.RawMessage `json:"-"`
}

// Meta is the pagination object of the resource list.
type Meta struct {
	CurrentPage int `json:"current_page"`
	From        int `json:"from"`
	LastPage    int `json:"last_page"`
	PerPage     int `json:"per_page"`
	To          int `json:"to"`
	Total       int `json:"total"`
}

// The records decode leniently and keep unknown members in Extra (see
// decodeLoose); they encode with Extra appended.

func (a *Agent) UnmarshalJSON(b []byte) error      { return decodeLoose(b, a) }
func (a Agent) MarshalJSON() ([]byte, error)       { return encodeLoose(a) }
func (q *Question) UnmarshalJSON(b []byte) error   { return decodeLoose(b, q) }
func (q Question) MarshalJSON() ([]byte, error)    { return encodeLoose(q) }
func (e *Execution) UnmarshalJSON(b []byte) error  { return decodeLoose(b, e) }
func (e Execution) MarshalJSON() ([]byte, error)   { return encodeLoose(e) }
func (f *File) UnmarshalJSON(b []byte) error       { return decodeLoose(b, f) }
func (f File) MarshalJSON() ([]byte, error)        { return encodeLoose(f) }
func (s *AgentFiles) UnmarshalJSON(b []byte) error { return decodeLoose(b, s) }
func (s AgentFiles) MarshalJSON() ([]byte, error)  { return encodeLoose(s) }
func (c *FilesCount) UnmarshalJSON(b []byte) error { return decodeLoose(b, c) }
func (c FilesCount) MarshalJSON() ([]byte, error)  { return encodeLoose(c) }
func (u *Unlinked) UnmarshalJSON(b []byte) error   { return decodeLoose(b, u) }
func (u Unlinked) MarshalJSON() ([]byte, error)    { return encodeLoose(u) }
func (c *Collection) UnmarshalJSON(b []byte) error { return decodeLoose(b, c) }
func (c Collection) MarshalJSON() ([]byte, error)  { return encodeLoose(c) }
func (r *Resource) UnmarshalJSON(b []byte) error   { return decodeLoose(b, r) }
func (r Resource) MarshalJSON() ([]byte, error)    { return encodeLoose(r) }
func (w *Webhook) UnmarshalJSON(b []byte) error    { return decodeLoose(b, w) }
func (w Webhook) MarshalJSON() ([]byte, error)     { return encodeLoose(w) }
func (m *Message) UnmarshalJSON(b []byte) error    { return decodeLoose(b, m) }
func (m Message) MarshalJSON() ([]byte, error)     { return encodeLoose(m) }
func (m *Meta) UnmarshalJSON(b []byte) error       { return decodeLoose(b, m) }

// UnmarshalJSON decodes either memory variant: "content" (B) or else
// "memory" (A) fills Content and sets Variant.
func (m *Memory) UnmarshalJSON(b []byte) error {
	var v Memory
	var which struct {
		A *json.RawMessage `json:"memory"`
		B *json.RawMessage `json:"content"`
	}
	if isNull(b) {
		return nil
	}
	if err := decodeLoose(b, &v); err != nil {
		return err
	}
	json.Unmarshal(b, &which)
	delete(v.Extra, "memory")
	if len(v.Extra) == 0 {
		v.Extra = nil
	}
	switch {
	case which.B != nil:
		v.Variant = MemoryB
	case which.A != nil:
		v.Content, v.Variant = looseString(string(*which.A)), MemoryA
	}
	*m = v
	return nil
}

// MarshalJSON encodes the memory with its Extra fields; variant A records
// keep their "memory" field name.
func (m Memory) MarshalJSON() ([]byte, error) {
	if m.Variant != MemoryA {
		return encodeLoose(m)
	}
	type alias Memory
	aux := struct {
		alias
		Content string `json:"content,omitempty"`
		Memory  string `json:"memory"`
	}{alias: alias(m), Memory: m.Content}
	return encodeExtra(aux, m.Extra)
}

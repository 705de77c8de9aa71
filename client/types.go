package client

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// Agent types.
const (
	AgentChat  = "chat"
	AgentImage = "image"
	AgentText  = "text"
	AgentVideo = "video"
)

// Execution statuses; any other word means still going (see [Execution.Terminal]).
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
	// Active arrives as 1 or 0 (read as any boolean; see looseBool); nil
	// (not said) counts as active.
	Active *bool `json:"active,omitempty"`
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

// Inactive reports whether the service says the agent is switched off.
func (a *Agent) Inactive() bool { return a.Active != nil && !*a.Active }

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

// Question is one input definition of an agent.
type Question struct {
	// Type is QuestionSelect, QuestionNumber or QuestionArray.
	Type        string `json:"type"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
	// Options are a select's values, sent verbatim ("0.5" is a string).
	Options []string                   `json:"options,omitempty"`
	Extra   map[string]json.RawMessage `json:"-"`
}

// Execution is one execution record: a run's result, a polled state, or a stream event.
type Execution struct {
	ID     ID     `json:"id"`
	Status string `json:"status"`
	// Input is present on the blocking response.
	Input string `json:"input,omitempty"`
	// Output is the text (a URL for media agents); in a stream, a fragment.
	Output string `json:"output"`
	// Error is null when all is well (see ErrorText).
	Error json.RawMessage `json:"error,omitempty"`
	// Credits is null (not Valid) while a streamed execution is running.
	Credits Credits `json:"credits"`
	// RootID is the session id, sent back as root_id to continue.
	RootID     ID                         `json:"root_id"`
	CreatedAt  Time                       `json:"created_at"`
	UpdatedAt  Time                       `json:"updated_at"`
	TemplateID ID                         `json:"template_id"`
	Extra      map[string]json.RawMessage `json:"-"`
}

// HasError reports an error value. Assumption: null, false, "" and {} are none.
func (e *Execution) HasError() bool {
	b := bytes.TrimSpace(e.Error)
	switch string(b) {
	case "", "null", "false", `""`, "{}":
		return false
	}
	return true
}

// ErrorText returns the record's error as plain text, "" when none.
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

// Reason is why a failed execution failed: its error, else its output,
// where the real service, which has no error field, puts the reason.
func (e *Execution) Reason() string {
	if t := e.ErrorText(); t != "" || !e.Failed() {
		return t
	}
	return strings.TrimSpace(e.Output)
}

// Result is the output, unless it is a failed run's reason (see Reason).
func (e *Execution) Result() string {
	if e.Failed() && !e.HasError() {
		return ""
	}
	return e.Output
}

// Failed reports an error value or a failure status, in any letter case.
func (e *Execution) Failed() bool {
	return e.HasError() || slices.Contains([]string{StatusFailed, StatusError, StatusCanceled, StatusCancelled}, e.status())
}

// Succeeded reports completed or succeeded, with no error.
func (e *Execution) Succeeded() bool {
	s := e.status()
	return !e.HasError() && (s == StatusCompleted || s == StatusSucceeded)
}

// status is Status in lower case, without spaces around it.
func (e *Execution) status() string { return strings.ToLower(strings.TrimSpace(e.Status)) }

// Outcome is Status with any success said as StatusCompleted.
func (e *Execution) Outcome() string {
	if e.Succeeded() {
		return StatusCompleted
	}
	return e.Status
}

// Terminal reports whether the execution succeeded or failed; any other status is still going.
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

// MemoryVariant names which of the two memory interfaces a deployment serves.
type MemoryVariant string

const (
	// MemoryAuto detects the variant on first use and remembers it.
	MemoryAuto MemoryVariant = ""
	// MemoryA: field "memory", optional collection_id, update with PATCH.
	MemoryA MemoryVariant = "A"
	// MemoryB: field "content", optional metadata, update with PUT.
	MemoryB MemoryVariant = "B"
)

// Memory is a stored memory in either variant: Content is A's "memory" or B's "content".
type Memory struct {
	ID      ID     `json:"id"`
	UserID  ID     `json:"user_id,omitempty"`
	Content string `json:"content"`
	// Credits, CollectionID and Collection (updates only) are variant A's.
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
	ID          ID                         `json:"id"`
	UserID      ID                         `json:"user_id,omitempty"`
	Name        string                     `json:"name"`
	DisplayName string                     `json:"display_name,omitempty"` // the name shown to people
	Extra       map[string]json.RawMessage `json:"-"`
}

// DefaultCollectionName names every user's default collection, which cannot be deleted.
const DefaultCollectionName = "default"

// DefaultCollectionShown is the name the real service shows for the
// default collection, in English whatever the user's language.
const DefaultCollectionShown = "My Memories"

// Label returns the name to show: the display name, else the name.
func (c *Collection) Label() string {
	if strings.TrimSpace(c.DisplayName) != "" {
		return c.DisplayName
	}
	return c.Name
}

// IsDefault reports whether this is the user's default collection.
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

// Webhook is a webhook registered for an agent; list variant B fills Events and Secret.
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

// UnmarshalJSON decodes either memory variant and sets Variant.
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

// MarshalJSON encodes the memory with Extra; variant A keeps "memory".
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

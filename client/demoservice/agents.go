package demoservice

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

type Agent struct {
	ID              int64      `json:"id"`
	Title           string     `json:"title"`
	Description     *string    `json:"description"`
	LongDescription *string    `json:"long_description"`
	WorkspaceID     int64      `json:"workspace_id"`
	Visibility      string     `json:"visibility"`
	Slug            string     `json:"slug"`
	Active          int        `json:"active"`
	Type            string     `json:"type"`
	Questions       []Question `json:"questions"`
	CreatedAt       string     `json:"created_at"`
	UpdatedAt       string     `json:"updated_at"`
	CreatedBy       int64      `json:"created_by"`

	reply string // the shape of its replies, from the catalogue
}

// Question is one input of an agent: the interface's types or those real
// agents carry (real-service.md); any other is free text.
type Question struct {
	Type        string   `json:"type"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Required    bool     `json:"required"`
	Options     []string `json:"options,omitempty"`
	// Min and Max bound a number question's answer when set.
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
	// Default and Placeholder are the optional keys real agents carry.
	Default     any    `json:"default,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
}

// Question types beyond the interface's, as real agents carry them.
const (
	QuestionText        = "text"
	QuestionTextarea    = "textarea"
	QuestionDate        = "date"
	QuestionBoolean     = "boolean"
	QuestionMultiselect = "multiselect"
	QuestionFile        = "file"
	QuestionObject      = "object"
)

// MarshalJSON writes options on select questions only, [] when it has none.
func (q Question) MarshalJSON() ([]byte, error) {
	type plain Question
	if q.Type != "select" {
		q.Options = nil
		return json.Marshal(plain(q))
	}
	opts := q.Options
	if opts == nil {
		opts = []string{}
	}
	return json.Marshal(struct {
		plain
		Options []string `json:"options"`
	}{plain(q), opts})
}

// inactiveMessage is the refusal of a run of an agent with active 0.
// Assumption: the real service refuses such a run as a bad request (400;
// 422 in the spec reading) with this kind of message; neither document
// shows it.
const inactiveMessage = "This agent is switched off and cannot be run."

func refuseInactive(a *Agent) {
	if a.Active == 0 {
		abort(http.StatusUnprocessableEntity, inactiveMessage)
	}
}

const (
	TypeChat  = "chat"
	TypeImage = "image"
	TypeText  = "text"
	TypeVideo = "video"
)

// microZ formats agent and execution timestamps: microseconds and Z.
func microZ(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }

// offsetUTC formats file and memory-B timestamps with a +00:00 offset.
func offsetUTC(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05+00:00") }

// question is the agent's question named name; the zero Question without one.
func (a *Agent) question(name string) Question {
	if i := slices.IndexFunc(a.Questions, func(q Question) bool { return q.Name == name }); i >= 0 {
		return a.Questions[i]
	}
	return Question{}
}

func (s *Service) agentFromPath(r *http.Request) *Agent {
	return byPath(s, r, "id", s.agents, func(a *Agent) bool { return a.WorkspaceID == workspaceOf(r) }, "Agent not found")
}

// listAgents answers GET /agents with q, type, page and per_page.
func (s *Service) listAgents(w http.ResponseWriter, r *http.Request) {
	p := readPage(r, defaultPerPage, maxPerPage)
	q := searchParam(r, "q")
	typ := strings.TrimSpace(r.URL.Query().Get("type"))
	if typ != "" && !slices.Contains([]string{TypeChat, TypeImage, TypeText, TypeVideo}, typ) {
		invalid("type", "The selected type is invalid. Allowed: chat, image, text, video.")
	}
	ws := workspaceOf(r)
	page, total := collectPage(s, s.agents, func(a *Agent) bool {
		return a.WorkspaceID == ws && (typ == "" || a.Type == typ) && matchesText(q, a.Title, deref(a.Description), deref(a.LongDescription))
	}, p)
	writeJSON(w, http.StatusOK, newEnvelope(r, p, page, total))
}

func (s *Service) getAgent(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.agentFromPath(r))
}

func searchParam(r *http.Request, name string) string {
	return folded(strings.TrimSpace(r.URL.Query().Get(name)))
}

// matchesText reports whether the folded query ("" matches) occurs in any
// field, ignoring case and accents.
func matchesText(q string, fields ...string) bool {
	if q == "" {
		return true // and nothing folded: a list of every agent is most lists
	}
	return slices.ContainsFunc(fields, func(f string) bool { return strings.Contains(folded(f), q) })
}

// folded is s in lower case without accents, so "estudio" finds "Estúdio"
// as the real service's accent-insensitive collation does.
// Assumption: the real search ignores accents (MySQL's default collation).
func folded(s string) string {
	s = strings.ToLower(s)
	if !slices.ContainsFunc([]byte(s), func(c byte) bool { return c >= utf8.RuneSelf }) {
		return s
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// listResources answers GET /resources with q, type, page and per_page.
//
// Assumption: the parameters are read from the query string; the interface
// lists them under path, query and body alike.
func (s *Service) listResources(w http.ResponseWriter, r *http.Request) {
	p := readPage(r, defaultPerPage, maxPerPage)
	q, typ := searchParam(r, "q"), searchParam(r, "type")
	matched := slices.DeleteFunc(slices.Clone(s.resources), func(res resource) bool {
		return (typ != "" && res.typ != typ) || !matchesText(q, res.Title, res.Description, res.long)
	})
	writeJSON(w, http.StatusOK, map[string]any{"data": pageOf(matched, p), "meta": p.meta(len(matched))})
}

package demoservice

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// seedEpoch is the creation time of the first seeded record.
var seedEpoch = time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)

// chatModels are the 25 model-version identifiers a chat agent offers.
var chatModels = []string{
	"gpt-4o-2024-08-06", "gpt-4o-mini-2024-07-18", "gpt-4.1-2025-04-14", "gpt-4.1-mini-2025-04-14",
	"gpt-4.1-nano-2025-04-14", "o3-mini-2025-01-31", "o4-mini-2025-04-16",
	"claude-3-5-sonnet-20241022", "claude-3-5-haiku-20241022", "claude-3-7-sonnet-20250219",
	"claude-sonnet-4-20250514", "claude-opus-4-20250514",
	"gemini-1.5-pro-002", "gemini-1.5-flash-002", "gemini-2.0-flash-001", "gemini-2.5-pro", "gemini-2.5-flash",
	"mistral-large-2411", "mistral-small-2501", "codestral-2501",
	"llama-3.1-70b-instruct", "llama-3.3-70b-instruct", "deepseek-chat-v3-0324",
	"command-r-plus-08-2024", "qwen2.5-72b-instruct",
}

// chatTools are no-tools, internet and eight external web platforms.
var chatTools = []string{"no-tools", "internet", "linkedin", "x", "facebook", "instagram", "youtube", "reddit", "github", "wikipedia"}

// chatQuestions are exactly the questions of a chat agent.
func chatQuestions() []Question {
	return []Question{
		{Type: "select", Name: "temperature", Description: "How inventive the replies are: 0 keeps to the facts, 1 is the most creative.", Required: true, Options: []string{"0", "0.25", "0.5", "0.75", "1"}},
		{Type: "select", Name: "model", Description: "The language model that writes the replies.", Required: true, Options: append([]string(nil), chatModels...)},
		{Type: "select", Name: "tools", Description: "Where the agent may look things up while answering.", Required: true, Options: append([]string(nil), chatTools...)},
		{Type: "number", Name: "root_id", Description: "Conversation to continue; leave empty to start a new one.", Required: false},
		{Type: "array", Name: "messages", Description: "The conversation so far, as messages with a role and content.", Required: true},
	}
}

var aspectRatios = []string{"1:1", "16:9", "9:16", "4:3"}

// promptQuestion is the required textarea real agents ask their request in.
func promptQuestion(desc, placeholder string) Question {
	return Question{Type: QuestionTextarea, Name: "prompt", Description: desc, Required: true, Placeholder: placeholder}
}

// referenceQuestion is an optional picture to start from.
func referenceQuestion(desc string) Question {
	return Question{Type: QuestionFile, Name: "reference", Description: desc}
}

func imageQuestions(styleRequired bool) []Question {
	return []Question{
		promptQuestion("Describe the picture you want.", "For example: a coffee cup on a wooden desk, morning light"),
		referenceQuestion("A picture to start from (optional)."),
		{Type: "select", Name: "style", Description: "The visual style of the picture.", Required: styleRequired, Options: []string{"photo", "illustration", "watercolor", "flat-vector", "3d-render"}},
		{Type: "select", Name: "aspect_ratio", Description: "Width to height of the picture.", Required: true, Options: aspectRatios},
		{Type: "select", Name: "quality", Description: "Higher quality takes longer and costs more credits.", Required: false, Options: []string{"standard", "high"}},
		{Type: "number", Name: "seed", Description: "Use the same number to get the same picture again.", Required: false},
	}
}

func textQuestions(lengthRequired bool) []Question {
	return []Question{
		promptQuestion("Describe what you want written.", "For example: a short note inviting the team to the summer party on 12 July"),
		{Type: "select", Name: "tone", Description: "How the text should sound.", Required: true, Options: []string{"neutral", "friendly", "formal", "persuasive"}},
		{Type: "number", Name: "length", Description: "Approximate length in words.", Required: lengthRequired},
		{Type: "select", Name: "language", Description: "Language of the text.", Required: false, Options: []string{"en", "de", "fr", "es", "it", "nl"}},
		{Type: "select", Name: "format", Description: "How the text is laid out.", Required: false, Options: []string{"paragraphs", "bullets", "email"}},
	}
}

func videoQuestions() []Question {
	return []Question{
		promptQuestion("Describe the clip you want.", "For example: a one-minute welcome to our new office, friendly and upbeat"),
		referenceQuestion("A picture to show or start from (optional)."),
		{Type: "number", Name: "duration", Description: "Length of the clip in seconds (5 to 120).", Required: true, Min: bound(5), Max: bound(120)},
		{Type: "select", Name: "aspect_ratio", Description: "Width to height of the clip.", Required: true, Options: aspectRatios},
		{Type: "select", Name: "style", Description: "The look of the clip.", Required: false, Options: []string{"explainer", "cinematic", "slideshow", "whiteboard"}},
		{Type: "select", Name: "voiceover", Description: "Narration voice.", Required: false, Options: []string{"none", "female", "male"}},
	}
}

// catalogue is the standard seed's agents, files, resources, collections and memories.
var catalogue = func() (c struct {
	Agents []struct {
		WS     int64  `json:"ws"`
		Type   string `json:"type"`
		Title  string `json:"title"`
		Desc   string `json:"desc"`
		Long   string `json:"long"` // "" is null
		Strict bool   `json:"strict"`
		Files  []int  `json:"files"` // indexes among the workspace's files
	} `json:"agents"`
	Files []struct {
		WS    int64  `json:"ws"`
		Name  string `json:"name"`
		Bytes int64  `json:"bytes"`
	} `json:"files"`
	Resources []struct {
		Type  string `json:"type"`
		Title string `json:"title"`
		Desc  string `json:"desc"`
		Long  string `json:"long"`
	} `json:"resources"`
	Collections []string `json:"collections"` // ids from 1
	Memories    []struct {
		Text       string   `json:"text"`
		Collection int64    `json:"collection"`
		Tags       []string `json:"tags"`
	} `json:"memories"`
}) {
	if err := json.Unmarshal(catalogueJSON, &c); err != nil {
		panic("demoservice: seeddata/catalogue.json: " + err.Error())
	}
	return c
}()

//go:embed seeddata/catalogue.json
var catalogueJSON []byte

// resource is one resource (template) as the list shows it.
type resource struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description"`
	CreatedAt   string `json:"created_at"`
	UpdatedAt   string `json:"updated_at"`
	// Assumption: the resource type and long description are searchable and
	// filterable but not part of the list item, which shows only id, title,
	// description, created_at and updated_at.
	long string
	typ  string
}

// seed fills the service with a believable account. The real reading has one
// workspace, so the second's agents and files are left out; ids stay.
func (s *Service) seed() {
	s.workspaces = []Workspace{{ID: 1, Name: "Acme Office"}, {ID: 2, Name: "Acme Marketing"}}
	if s.real {
		s.workspaces = s.workspaces[:1]
	}
	seeded := func(ws int64) bool { return !s.real || ws == 1 }

	filesOf := map[int64][]int64{}
	for i, fs := range catalogue.Files {
		id := int64(8001 + i)
		filesOf[fs.WS] = append(filesOf[fs.WS], id)
		if !seeded(fs.WS) {
			continue
		}
		created := seedEpoch.Add(time.Duration(i) * 26 * time.Hour)
		s.files[id] = &File{
			ID: id, Object: "file", Bytes: fs.Bytes, CreatedAt: offsetUTC(created), Filename: fs.Name,
			Credits: fileCredits(fs.Bytes), Status: FileCompleted, WorkspaceID: fs.WS, created: created,
		}
	}

	for i, as := range catalogue.Agents {
		if !seeded(as.WS) {
			continue
		}
		id := int64(101 + i)
		created := seedEpoch.Add(time.Duration(i) * 31 * time.Hour)
		updated := created
		if i%3 == 1 {
			updated = created.Add(72*time.Hour + 17*time.Minute)
		}
		desc := as.Desc
		a := s.addAgent(id, as.WS, as.Type, as.Title, &desc, created, updated)
		if as.Long != "" {
			long := as.Long
			a.LongDescription = &long
		}
		switch as.Type {
		case TypeChat:
			a.Questions = chatQuestions()
		case TypeImage:
			a.Questions = imageQuestions(as.Strict)
		case TypeText:
			a.Questions = textQuestions(as.Strict)
		case TypeVideo:
			a.Questions = videoQuestions()
		}
		for _, fi := range as.Files {
			s.agentFiles[id] = append(s.agentFiles[id], filesOf[as.WS][fi])
		}
	}

	s.seedExtraAgents(s.opts.ExtraAgents)
	if s.opts.Seed == SeedOdd {
		s.seedOddAgents()
	}

	for i, rs := range catalogue.Resources {
		created := seedEpoch.Add(time.Duration(i) * 19 * time.Hour)
		s.resources = append(s.resources, resource{
			ID: "rsc_" + shortHash("resource", rs.Title), Title: rs.Title, Description: rs.Desc,
			CreatedAt: microZ(created), UpdatedAt: microZ(created.Add(5 * time.Hour)), long: rs.Long, typ: rs.Type,
		})
	}

	s.seedWebhooks()

	for i, name := range catalogue.Collections {
		c := Collection{ID: int64(i + 1), UserID: demoUserID, Name: name}
		if s.real {
			// The real default collection; others show their name.
			c.DisplayName = c.Name
			if c.ID == defaultCollectionID {
				c.Name, c.DisplayName = defaultCollectionName, defaultCollectionDisplay
			}
		}
		s.collections[c.ID] = &c
	}
	for i, m := range catalogue.Memories {
		id := int64(501 + i)
		t := seedEpoch.Add(time.Duration(i) * 50 * time.Hour)
		s.memories[id] = &Memory{
			ID: id, UserID: demoUserID, Content: m.Text, CollectionID: m.Collection, Credits: memoryCredits(m.Text),
			Metadata:  map[string]any{"source": "agentdesk", "tags": slices.Clone(m.Tags)},
			CreatedAt: t, UpdatedAt: t,
		}
	}
}

// Words the generated extra agents' titles are made of.
var (
	extraSubjects = []string{"Invoice", "Meeting", "Contract", "Newsletter", "Report", "Policy", "Proposal", "Survey", "Budget", "Roadmap", "Checklist", "Memo", "Agenda", "Brief", "Handbook", "Forecast"}
	extraRoles    = []string{"Writer", "Summarizer", "Reviewer", "Drafter", "Checker", "Planner", "Translator", "Assistant"}
	extraTeams    = []string{"Sales", "Finance", "HR", "Legal", "Marketing", "Support", "Operations", "IT", "Facilities", "Procurement"}
)

// seedExtraAgents appends n generated text agents to workspace 1.
func (s *Service) seedExtraAgents(n int) {
	first := int64(101 + len(catalogue.Agents))
	for i := range n {
		id := first + int64(i)
		title := fmt.Sprintf("%s %s %s %d",
			extraTeams[i%len(extraTeams)], extraSubjects[(i/len(extraTeams))%len(extraSubjects)],
			extraRoles[(i/7)%len(extraRoles)], i+1)
		desc := fmt.Sprintf("Writes %s texts for the %s team.", strings.ToLower(extraSubjects[(i/len(extraTeams))%len(extraSubjects)]), extraTeams[i%len(extraTeams)])
		created := seedEpoch.Add(time.Duration(len(catalogue.Agents)+i) * 31 * time.Minute)
		s.addAgent(id, 1, TypeText, title, &desc, created, created).Questions = textQuestions(i%2 == 0)
	}
}

// addAgent appends an active public agent of the demo user.
func (s *Service) addAgent(id, ws int64, typ, title string, desc *string, created, updated time.Time) *Agent {
	a := &Agent{
		ID: id, Title: title, Description: desc, WorkspaceID: ws, Visibility: "public", Slug: slugify(title),
		Active: 1, Type: typ, CreatedAt: microZ(created), UpdatedAt: microZ(updated), CreatedBy: demoUserID,
	}
	s.agents = append(s.agents, a)
	s.agentByID[id] = a
	return a
}

// slugify makes a URL slug from a title.
func slugify(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// shortHash is a stable 10-hex-digit digest of its parts.
func shortHash(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:5])
}

// fileCredits prices a file by size: a small base plus a share per megabyte.
func fileCredits(n int64) float64 {
	return roundCredits(0.001 + float64(n)/(1<<20)*0.002)
}

// memoryCredits prices a memory by length.
func memoryCredits(text string) float64 {
	return roundCredits(0.0005 + float64(len(text))*0.000002)
}

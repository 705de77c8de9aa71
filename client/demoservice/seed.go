package demoservice

import (
	"cmp"
	"crypto/sha256"
	"embed"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

var seedEpoch = time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)

// catalogueData is the seeds' agents, files, resources, collections,
// memories and question sets by agent type, in one language.
type catalogueData struct {
	Agents []agentSeed `json:"agents"`
	Files  []struct {
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
	Questions map[string][]Question `json:"questions"`
	Strict    map[string]string     `json:"strict"` // the question strict agents require
	// Extra holds the words generated agents' titles are made of.
	Extra struct{ Subjects, Roles, Teams []string } `json:"extra"`
	Odd   []agentSeed                               `json:"odd"`
}

// catalogue is the seeds in English, as seeddata/catalogue.json has them;
// other languages overlay it (speech).
var catalogue = func() (c catalogueData) {
	if err := json.Unmarshal(catalogueJSON, &c); err != nil {
		panic("demoservice: seeddata/catalogue.json: " + err.Error())
	}
	return c
}()

//go:embed seeddata/catalogue.json
var catalogueJSON []byte

// questions is a fresh copy of a question set; strict makes the set's
// optional strict question required.
func (c *catalogueData) questions(set string, strict bool) []Question {
	qs := slices.Clone(c.Questions[set])
	for i := range qs {
		if strict && qs[i].Name == c.Strict[set] {
			qs[i].Required = true
		}
	}
	return qs
}

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
	cat := &s.speech.cat
	s.workspaces = []int64{1, 2} // Acme Office, Acme Marketing
	if s.real {
		s.workspaces = s.workspaces[:1]
	}
	seeded := func(ws int64) bool { return slices.Contains(s.workspaces, ws) }

	filesOf := map[int64][]int64{}
	for i, fs := range cat.Files {
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

	// addAgents adds the agents of list in seeded workspaces, the ith as id
	// first+i unless it has its own, created at created(i).
	addAgents := func(list []agentSeed, first int64, created func(i int) time.Time) {
		for i, c := range list {
			if !seeded(c.WorkspaceID) {
				continue
			}
			a := c.agent(first+int64(i), cat)
			updated := created(i)
			if c.Edited {
				updated = updated.Add(72*time.Hour + 17*time.Minute)
			}
			a.CreatedAt, a.UpdatedAt = microZ(created(i)), microZ(updated)
			for _, fi := range c.Files {
				s.agentFiles[a.ID] = append(s.agentFiles[a.ID], filesOf[a.WorkspaceID][fi])
			}
			s.agents[a.ID] = &a
		}
	}
	addAgents(cat.Agents, 101, func(i int) time.Time { return seedEpoch.Add(time.Duration(i) * 31 * time.Hour) })
	addAgents(cat.extraAgents(s.opts.ExtraAgents), int64(101+len(cat.Agents)), func(i int) time.Time {
		return seedEpoch.Add(time.Duration(len(cat.Agents)+i) * 31 * time.Minute)
	})
	if s.opts.Seed == SeedOdd {
		addAgents(cat.Odd, OddFirstID, func(i int) time.Time { return seedEpoch.Add(time.Duration(i) * 7 * time.Hour) })
	}

	for i, rs := range cat.Resources {
		created := seedEpoch.Add(time.Duration(i) * 19 * time.Hour)
		s.resources = append(s.resources, resource{
			ID: "rsc_" + shortHash("resource", rs.Title), Title: rs.Title, Description: rs.Desc,
			CreatedAt: microZ(created), UpdatedAt: microZ(created.Add(5 * time.Hour)), long: rs.Long, typ: rs.Type,
		})
	}

	s.seedWebhooks()

	for i, name := range cat.Collections {
		c := Collection{ID: int64(i + 1), UserID: demoUserID, Name: name}
		if s.real {
			// The real default collection is "default", shown as "My Memories"; others show their name.
			c.DisplayName = c.Name
			if c.ID == defaultCollectionID {
				c.Name, c.DisplayName = "default", "My Memories"
			}
		}
		s.collections[c.ID] = &c
	}
	for i, m := range cat.Memories {
		id := int64(501 + i)
		t := seedEpoch.Add(time.Duration(i) * 50 * time.Hour)
		s.memories[id] = &Memory{
			ID: id, UserID: demoUserID, Content: m.Text, CollectionID: m.Collection,
			Metadata:  map[string]any{"source": "agentdesk", "tags": slices.Clone(m.Tags)},
			CreatedAt: t, UpdatedAt: t,
		}
	}
}

// extraAgents generates n text agents for workspace 1 (Options.ExtraAgents).
func (c *catalogueData) extraAgents(n int) []agentSeed {
	words := c.Extra
	out := make([]agentSeed, n)
	for i := range out {
		team, subject := words.Teams[i%len(words.Teams)], words.Subjects[(i/len(words.Teams))%len(words.Subjects)]
		desc := fmt.Sprintf("Writes %s texts for the %s team.", strings.ToLower(subject), team)
		out[i] = agentSeed{Agent: Agent{WorkspaceID: 1, Type: TypeText, Description: &desc,
			Title: fmt.Sprintf("%s %s %s %d", team, subject, words.Roles[(i/7)%len(words.Roles)], i+1)}, Set: TypeText, Strict: i%2 == 0}
	}
	return out
}

// agentSeed is an agent of the catalogue (or generated) before it gets its
// id and times.
type agentSeed struct {
	Agent
	Set      string `json:"set"`       // a question set instead of questions
	Strict   bool   `json:"strict"`    // the set's strict question is required
	Files    []int  `json:"files"`     // linked files: indexes among the workspace's files
	Edited   bool   `json:"edited"`    // updated some days after creation
	LongFile string `json:"long_file"` // a seeddata file holding long_description
	Inactive bool   `json:"inactive"`
	Reply    string `json:"reply"` // the shape of its replies (phrasebook.Shapes)
}

// agent is the agent c describes as id (unless it has its own), times
// aside, with the question sets of cat.
func (c agentSeed) agent(id int64, cat *catalogueData) Agent {
	a := c.Agent
	a.ID = cmp.Or(a.ID, id)
	if c.Set != "" {
		a.Questions = cat.questions(c.Set, c.Strict)
	}
	if c.LongFile != "" {
		long, err := seedFiles.ReadFile("seeddata/" + c.LongFile)
		if err != nil {
			panic("demoservice: " + err.Error())
		}
		text := string(long)
		a.LongDescription = &text
	}
	a.reply = c.Reply
	a.Active = 1
	if c.Inactive {
		a.Active = 0
	}
	a.Slug = cmp.Or(slugify(a.Title), fmt.Sprintf("agent-%d", a.ID))
	a.Visibility, a.CreatedBy = cmp.Or(a.Visibility, "public"), demoUserID
	return a
}

func slugify(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range folded(title) { // "Reunião" is "reuniao"
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

func memoryCredits(text string) float64 {
	return roundCredits(0.0005 + float64(len(text))*0.000002)
}

// The seeds a Service can start with (Options.Seed).
const (
	// SeedStandard is the usual demo catalogue.
	SeedStandard = "standard"
	// SeedOdd adds agents that take every liberty the interface allows
	// (long, mixed-script or HTML titles, null fields, every question
	// type, an id beyond 32 bits), for --demo-seed=odd and layout tests.
	SeedOdd = "odd"
)

var defaultSeed atomic.Pointer[string]

// DefaultSeed is the seed used when Options.Seed is "".
func DefaultSeed() string {
	if p := defaultSeed.Load(); p != nil {
		return *p
	}
	return SeedStandard
}

// SetDefaultSeed chooses the seed of later Services with Options.Seed "", for
// --demo-seed: the app builds its demo service itself.
func SetDefaultSeed(seed string) error {
	if seed != SeedStandard && seed != SeedOdd {
		return fmt.Errorf("unknown demo seed %q: want %s or %s", seed, SeedStandard, SeedOdd)
	}
	defaultSeed.Store(&seed)
	return nil
}

// Ids of some odd agents, for tests and for trying them with curl.
const (
	// OddFirstID is the first odd agent's id; the others follow in workspace 1.
	OddFirstID int64 = 900001
	// OddBigID is the agent whose id exceeds 32 bits, listed last (the
	// catalogue's last odd agent names it).
	OddBigID int64 = 5_000_000_001
)

// seedFiles holds the files the catalogue names.
//
//go:embed seeddata
var seedFiles embed.FS

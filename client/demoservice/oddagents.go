package demoservice

import (
	"cmp"
	"embed"
	"fmt"
	"sync/atomic"
	"time"
)

// The seeds a Service can start with (Options.Seed).
const (
	// SeedStandard is the usual demo catalogue.
	SeedStandard = "standard"
	// SeedOdd adds agents that take every liberty the interface allows
	// (long, mixed-script or HTML titles, null fields, every question
	// type, an id beyond 32 bits), for --demo-seed=odd and layout tests.
	SeedOdd = "odd"
)

// defaultSeed is the seed of a Service whose Options.Seed is "".
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
	// OddBigID is the agent whose id exceeds 32 bits, listed last.
	OddBigID int64 = 5_000_000_001
)

// seedFiles holds the files the catalogue names.
//
//go:embed seeddata
var seedFiles embed.FS

// oddCatalogue is the odd seed in id order; OddBigID comes last.
func oddCatalogue() []Agent {
	var out []Agent
	for _, o := range catalogue.Odd {
		a := o.Agent
		if o.Set != "" {
			a.Questions = questionsFor(o.Set, false)
		}
		if o.LongFile != "" {
			long, err := seedFiles.ReadFile("seeddata/" + o.LongFile)
			if err != nil {
				panic("demoservice: " + err.Error())
			}
			text := string(long)
			a.LongDescription = &text
		}
		a.Active = 1
		if o.Inactive {
			a.Active = 0
		}
		out = append(out, a)
	}
	return out
}

// seedOddAgents appends the odd seed to workspace 1, after every other agent.
func (s *Service) seedOddAgents() {
	cat := oddCatalogue()
	for i, o := range cat {
		id := OddFirstID + int64(i)
		if i == len(cat)-1 {
			id = OddBigID
		}
		created := seedEpoch.Add(time.Duration(i) * 7 * time.Hour)
		a := s.addAgent(id, 1, o.Type, o.Title, o.Description, created, created)
		a.LongDescription, a.Questions, a.Active = o.LongDescription, o.Questions, o.Active
		if a.Slug == "" {
			a.Slug = fmt.Sprintf("agent-%d", id)
		}
		a.Visibility = cmp.Or(o.Visibility, a.Visibility)
	}
}

package demoservice

import (
	_ "embed"
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

// oddAgent is one entry of the odd seed; a nil desc or long is null.
type oddAgent struct {
	typ, title string
	desc, long *string
	visibility string // "" is public
	inactive   bool
	questions  []Question // nil is null
}

func strp(s string) *string { return &s }

// longTitle is exactly 300 characters.
var longTitle = func() string {
	base := "Quarterly Regional Sales, Budget and Forecast Review Assistant for the Finance, Operations and Procurement Teams of the Northern, Southern, Eastern and Western Offices, Including Year-End Reconciliation, Supplier Contract Renewals, Travel Expense Audits and Board Presentation Preparation "
	for len(base) < 300 {
		base += "Notes "
	}
	return base[:300]
}()

// longMarkdown is a long Markdown description using every block kind.
//
//go:embed seeddata/monthly-report-builder.md
var longMarkdown string

// oddCatalogue is the odd seed in id order; OddBigID comes last.
func oddCatalogue() []oddAgent {
	one := func(q Question) []Question { return []Question{q} }
	return []oddAgent{
		{typ: TypeText, title: longTitle, desc: strp("An agent whose title is 300 characters long."), questions: textQuestions(false)},
		{typ: TypeChat, title: "会議議事録アシスタント（日本語・中文・한국어）", desc: strp("会议记录整理助手：把会议笔记整理成清晰的纪要，包括决定事项和待办事项。議事録を自動で作成します。"), long: strp("支持中文、日本語和한국어。"), questions: chatQuestions()},
		{typ: TypeText, title: "مساعد كتابة التقارير الشهرية", desc: strp("يكتب تقارير شهرية واضحة من ملاحظات الفريق."), questions: textQuestions(false)},
		{typ: TypeText, title: "עוזר חשבוניות for Q3 2024 — 15% הנחה on 3 items", desc: strp("Mixed direction: שלום world 123, עברית and English together."), questions: textQuestions(false)},
		{typ: TypeImage, title: "📝🤖✨🎨", desc: strp("🖼️ 🎉 👍"), questions: imageQuestions(false)},
		{typ: TypeText, title: `<b>Bold</b> <script>alert("title")</script> Helper`, desc: strp(`<img src=x onerror="alert(1)"> <b>not bold</b> <script>document.title="hacked"</script> &amp; <a href="javascript:alert(2)">link</a>`), long: strp(`<h1>Heading</h1><p onclick="alert(3)">Paragraph</p><img src="https://example.com/pixel.png">`), questions: textQuestions(false)},
		{typ: TypeText, title: "Cafe\u0301 Me\u0301nu Writer — Z\u0351\u0352a\u0353\u0354l\u0355\u0356g\u0357\u0358o\u0359\u035a t\u0337e\u0336x\u0334t", desc: strp("Nai\u0308ve re\u0301sume\u0301 helper with stacked marks: a\u0300\u0301\u0302\u0303\u0304\u0305\u0306\u0307."), questions: textQuestions(false)},
		{typ: TypeText, title: "Agent Without a Description", questions: textQuestions(false)},
		{typ: TypeText, title: "Agent With No Questions", desc: strp("Runs without asking anything (an empty list of questions)."), questions: []Question{}},
		{typ: TypeText, title: "Agent With Questions Null", desc: strp("Its questions are null rather than an empty list.")},
		{typ: TypeText, title: "Question Type: Select", desc: strp("One required select with a default."), questions: one(Question{Type: "select", Name: "department", Description: "Which department the text is for.", Required: true, Options: []string{"Sales", "Finance", "HR", "IT"}, Default: "Sales"})},
		{typ: TypeText, title: "Question Type: Number", desc: strp("One required number between 1 and 10."), questions: one(Question{Type: "number", Name: "copies", Description: "How many versions to write (1 to 10).", Required: true, Min: bound(1), Max: bound(10), Default: 3})},
		{typ: TypeText, title: "Question Type: Array", desc: strp("One required list of items."), questions: one(Question{Type: "array", Name: "items", Description: "The points to cover, one per row.", Required: true})},
		{typ: TypeText, title: "Question Type: Text", desc: strp("One required single-line text."), questions: one(Question{Type: QuestionText, Name: "subject", Description: "The subject line.", Required: true, Placeholder: "For example: Office closed on Friday"})},
		{typ: TypeText, title: "Question Type: Textarea", desc: strp("One required multi-line text."), questions: one(Question{Type: QuestionTextarea, Name: "notes", Description: "Your notes, as long as you like.", Required: true, Placeholder: "Paste your notes here"})},
		{typ: TypeText, title: "Question Type: Date", desc: strp("One required date."), questions: one(Question{Type: QuestionDate, Name: "due_date", Description: "When it is due.", Required: true})},
		{typ: TypeText, title: "Question Type: Boolean", desc: strp("One required yes-or-no question."), questions: one(Question{Type: QuestionBoolean, Name: "formal", Description: "Write formally?", Required: true, Default: false})},
		{typ: TypeText, title: "Question Type: Multiselect", desc: strp("One required multiselect whose choices are in its description."), questions: one(Question{Type: QuestionMultiselect, Name: "channels", Description: "Print, Web, Social media, Email", Required: true})},
		{typ: TypeText, title: "Question Type: File", desc: strp("One required file."), questions: one(Question{Type: QuestionFile, Name: "document", Description: "The document to work from.", Required: true})},
		{typ: TypeText, title: "Question Type: Object", desc: strp("One required object."), questions: one(Question{Type: QuestionObject, Name: "settings", Description: "Settings as name and value pairs.", Required: true})},
		{typ: TypeText, title: "Question Type: Color (unknown)", desc: strp("One required question of a type Agent Desk does not know."), questions: one(Question{Type: "color", Name: "brand_color", Description: "The brand colour, for example #0055AA.", Required: true})},
		{typ: TypeText, title: "Misconfigured: Select With No Options", desc: strp("A required select that offers nothing to choose: it cannot be run."), questions: []Question{promptQuestion("Describe what you want written.", ""), {Type: "select", Name: "template", Description: "The template to use.", Required: true, Options: []string{}}}},
		{typ: TypeText, title: "Switched-Off Agent", desc: strp("This agent is inactive (active: 0)."), inactive: true, questions: textQuestions(false)},
		{typ: TypeText, title: "Private Agent (must not be listed)", desc: strp("Visibility private: Agent Desk must not show it."), visibility: "private", questions: textQuestions(false)},
		{typ: TypeText, title: "Monthly Report Builder", desc: strp("Builds the **monthly report** from every team's figures. See the [handbook](https://example.com/handbook)."), long: strp(longMarkdown), questions: textQuestions(false)},
		{typ: TypeChat, title: "Archive Search Assistant", desc: strp("An agent whose id does not fit in 32 bits."), questions: chatQuestions()},
	}
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
		a := s.addAgent(id, 1, o.typ, o.title, o.desc, created, created)
		a.LongDescription, a.Questions = o.long, o.questions
		if a.Slug == "" {
			a.Slug = fmt.Sprintf("agent-%d", id)
		}
		if o.visibility != "" {
			a.Visibility = o.visibility
		}
		if o.inactive {
			a.Active = 0
		}
	}
}

package demoservice

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
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

// agentSeed is one catalogue entry; an empty long description is null.
type agentSeed struct {
	ws                int64
	typ, title, desc  string
	long              string
	strictQuestions   bool
	linkedFileIndexes []int
}

var agentCatalogue = []agentSeed{
	{1, TypeChat, "Meeting Minutes Writer", "Turns rough meeting notes into clean minutes with decisions and action items.", "Paste your notes or a transcript and get minutes your colleagues will actually read: attendees, decisions, open questions and a table of action items with owners and due dates.", true, []int{0, 3}},
	{1, TypeChat, "Contract Clause Explainer", "Explains contract clauses in plain language and flags what to check.", "Paste a clause from a supplier, rental or service contract. The agent explains what it means for you, what is unusual, and which questions to ask before signing. It does not replace legal advice.", true, []int{5}},
	{1, TypeChat, "Email Reply Assistant", "Drafts polite, clear replies to customer and colleague emails.", "Give it the email you received and a line about what you want to say. It drafts a reply in your tone, keeps it short and suggests a subject line.", true, nil},
	{1, TypeChat, "Office IT Helpdesk", "Answers everyday questions about printers, Wi-Fi, passwords and laptops.", "First-line help for the office: printer queues, Wi-Fi, VPN, password resets and laptop set-up, with step-by-step instructions and when to call IT.", false, nil},
	{1, TypeChat, "HR Policy Guide", "Answers questions about leave, expenses and working-time policies.", "Ask about holidays, sick leave, parental leave, expenses or remote work. Answers follow the policies linked to this agent and point to the right section.", true, []int{6, 7}},
	{1, TypeChat, "Spreadsheet Formula Helper", "Writes and explains spreadsheet formulas for Excel and Google Sheets.", "Describe what you want to calculate and get a working formula with an explanation of each part, plus a fallback for older spreadsheet versions.", false, nil},
	{1, TypeChat, "Customer Complaint Responder", "Helps answer complaints with empathy and a concrete next step.", "Paste the complaint. The agent acknowledges the problem, proposes a fair remedy within your policy and drafts a reply that de-escalates.", true, nil},
	{1, TypeChat, "Travel Planner", "Plans business trips: trains, flights, hotels near the venue and a schedule.", "Tell it where and when you need to be. It suggests connections, hotel areas, a day plan and a packing list, and keeps within the travel policy.", false, nil},
	{1, TypeChat, "Invoice Query Assistant", "Explains invoices, payment terms and drafts payment reminders.", "Ask about an invoice line, VAT, payment terms or overdue accounts. It drafts friendly first reminders and firmer second notices.", true, []int{1}},
	{1, TypeChat, "Onboarding Buddy", "Answers new starters' questions about the office, tools and people.", "A friendly guide for the first weeks: who to ask, where things are, which tools we use and how to book rooms, equipment and training.", false, nil},
	{1, TypeChat, "Presentation Coach", "Gives feedback on slide outlines and speaker notes.", "Share your outline or speaker notes. The coach tightens the story, proposes slide titles and suggests where a chart or example would help.", true, nil},
	{1, TypeChat, "Procurement Advisor", "Compares supplier offers and prepares purchase requests.", "Paste two or three offers; get a comparison table, the questions to ask suppliers and a draft purchase request for approval.", false, nil},
	{1, TypeChat, "Data Privacy Checker", "Checks texts and processes for personal-data pitfalls.", "Describe a process or paste a form. The agent points out which personal data is involved, the legal basis to document and what to remove.", true, []int{8}},
	{1, TypeChat, "Project Status Summarizer", "Turns updates from several people into one project status report.", "", false, nil},
	{1, TypeChat, "Job Description Writer", "Drafts inclusive job descriptions from a few bullet points.", "Give it the role, team and must-haves; it writes a clear, inclusive job ad with responsibilities, requirements and benefits.", false, nil},
	{1, TypeChat, "Translation Desk", "Translates business texts and keeps your terminology.", "Translates emails, letters and documents between English, German, French, Spanish, Italian and Dutch, keeping names, numbers and house terms intact.", true, nil},
	{1, TypeChat, "Sales Call Prep", "Prepares a call brief: company facts, talking points and objections.", "Name the company and the goal of the call. Get a one-page brief with background, three talking points, likely objections and good questions.", false, []int{2}},
	{1, TypeChat, "Facilities Request Helper", "Helps log facility issues and book rooms and equipment.", "Report a broken light, a cold office or a blocked door, or book a room. The agent asks the right details and drafts the request.", false, nil},
	{1, TypeText, "Newsletter Writer", "Writes the internal monthly newsletter from a list of topics.", "Attach the month's news, dates and people to thank (notes or a document are fine). The agent writes a warm newsletter with headings and short sections.", false, nil},
	{1, TypeText, "Product Description Writer", "Writes product descriptions for the web shop.", "Attach the product sheet (name, features, audience); it writes a short and a long description with bullet points and a search-friendly title.", true, nil},
	{1, TypeText, "Press Release Drafter", "Drafts press releases in the standard structure.", "Headline, sub-headline, dateline, lead paragraph, quotes and boilerplate, written from the key facts you attach.", true, nil},
	{1, TypeText, "Policy Document Drafter", "Drafts internal policies from bullet points.", "Turns an attached list of rules into a structured policy with purpose, scope, responsibilities and procedure sections.", false, []int{6}},
	{1, TypeText, "Blog Post Writer", "Writes blog posts for the company website.", "Attach a topic and three key messages; get a blog post with an engaging introduction, subheadings and a call to action.", false, nil},
	{1, TypeText, "Report Summary Writer", "Summarises long reports into a one-page executive summary.", "", true, []int{0}},
	{1, TypeText, "Social Media Post Writer", "Writes posts for LinkedIn, X and Instagram from one message.", "Write once, post everywhere: attach your message and the agent adapts it to each platform's length and style, with hashtags where they help.", false, nil},
	{1, TypeText, "Meeting Agenda Builder", "Builds a timed agenda from meeting goals.", "Attach the goals and participants; get a timed agenda with owners, preparation notes and a parking lot.", false, nil},
	{1, TypeText, "FAQ Generator", "Turns a document into questions and answers for customers.", "Attach a product sheet or a policy and get a list of frequently asked questions with short, accurate answers.", true, nil},
	{1, TypeText, "Cover Letter Writer", "Writes cover letters for tenders and applications.", "Explains why your team fits the tender or role, in the tone you choose, using the facts in the files you attach.", false, nil},
	{1, TypeText, "Standard Operating Procedure Writer", "Writes step-by-step procedures for recurring office tasks.", "Attach a description of the task; get a numbered procedure with roles, checks and a troubleshooting section.", true, nil},
	{1, TypeText, "Customer Case Study Writer", "Writes customer success stories from interview notes.", "Challenge, solution and results, with quotes and numbers from the interview notes you attach.", false, nil},
	{1, TypeImage, "Product Photo Studio", "Creates clean product shots on neutral backgrounds.", "Attach a photo or a description of the product, pick a style, and get a studio-style picture for the web shop or a brochure.", true, nil},
	{1, TypeImage, "Social Media Visual Maker", "Creates eye-catching visuals for posts and stories.", "Square, portrait or landscape visuals in the company colours to go with your posts.", false, nil},
	{1, TypeImage, "Presentation Illustration Maker", "Draws simple illustrations for slides.", "Flat, friendly illustrations that explain an idea at a glance, sized for 16:9 slides.", false, nil},
	{1, TypeImage, "Office Poster Designer", "Designs posters for office events and notices.", "Summer party, fire drill or coffee machine rules: a bold poster that people notice.", true, nil},
	{1, TypeImage, "Headshot Background Replacer", "Creates consistent backgrounds for team photos.", "", false, nil},
	{1, TypeImage, "Infographic Sketcher", "Sketches infographic layouts from key numbers.", "Attach three to six numbers and what they mean; get a sketch of an infographic to hand to a designer.", false, nil},
	{1, TypeImage, "Event Invitation Designer", "Designs invitation cards for customer and team events.", "Elegant or playful invitations with space for date, place and RSVP details.", true, nil},
	{1, TypeImage, "Website Banner Creator", "Creates banners for the website and email signatures.", "Wide banners with room for a headline, in the style of the brand guide.", false, nil},
	{1, TypeVideo, "Product Demo Video Maker", "Turns a feature list into a short product demo clip.", "Attach the feature list: a narrated clip that walks through the main features, with captions, ready for the website.", true, nil},
	{1, TypeVideo, "Training Clip Creator", "Creates short training videos for office procedures.", "Explainer clips of one to two minutes for onboarding and compliance topics.", false, nil},
	{1, TypeVideo, "Social Video Shorts", "Creates vertical shorts for social media.", "Fifteen to sixty second vertical clips with captions and music for reels and shorts.", false, nil},
	{1, TypeVideo, "Event Recap Video", "Turns event photos and notes into a recap clip.", "Attach photos and notes from the event: a lively recap with highlights, quotes and a closing thank-you.", true, nil},
	{1, TypeVideo, "Welcome Video for New Hires", "Creates a welcome clip introducing the team and office.", "", false, nil},
	{1, TypeChat, "Brand Voice Checker", "Checks texts against the company style guide.", "Paste any text; the agent marks phrases that do not match the brand voice and suggests better wording.", false, nil},
	{2, TypeChat, "Campaign Brainstormer", "Generates campaign ideas, claims and channel plans.", "Describe the product, audience and budget; get five campaign ideas with claims, channels and a rough timeline.", true, []int{0}},
	{2, TypeChat, "SEO Keyword Advisor", "Suggests keywords and page titles for web pages.", "Give it a page topic and audience; get keywords grouped by intent, page titles and meta descriptions.", false, nil},
	{2, TypeText, "Ad Copy Writer", "Writes ad copy variants for search and social ads.", "Headlines and descriptions within each platform's character limits, in several variants for testing.", true, nil},
	{2, TypeText, "Campaign Brief Writer", "Writes creative briefs for agencies.", "Objective, audience, message, mandatories and timing, on one page.", false, nil},
	{2, TypeImage, "Ad Visual Generator", "Creates ad visuals in several formats.", "Visuals for display and social ads in the sizes the platforms ask for.", true, nil},
	{2, TypeImage, "Mood Board Maker", "Creates mood board images for campaigns.", "", false, nil},
	{2, TypeVideo, "Campaign Teaser Video", "Creates short teaser clips for launches.", "Ten to thirty second teasers that build curiosity before a launch.", false, nil},
	{2, TypeText, "Event Announcement Writer", "Writes announcements for trade fairs and webinars.", "Invitation texts for email, website and social media, with date, place and registration details.", false, nil},
}

// fileSeed is one seeded file.
type fileSeed struct {
	ws    int64
	name  string
	bytes int64
}

var fileCatalogue = []fileSeed{
	{1, "Q2 Sales Report.pdf", 482133}, {1, "Invoices April.xlsx", 91220}, {1, "Customer List - Key Accounts.csv", 18342},
	{1, "Board Meeting Notes 2024-04-18.docx", 33817}, {1, "Office Floor Plan.png", 1204551}, {1, "Supplier Framework Agreement.pdf", 734002},
	{1, "Employee Handbook 2024.pdf", 2210447}, {1, "Travel and Expense Policy.pdf", 188904}, {1, "Privacy Notice - Website.docx", 41276},
	{1, "Brand Style Guide.pdf", 5120330}, {1, "Price List 2024.xlsx", 66018}, {1, "Onboarding Checklist.docx", 22045},
	{1, "IT Security Guidelines.pdf", 301872}, {1, "Product Catalogue Spring.pdf", 8822190}, {1, "Team Photo Summer Party.jpg", 3345120},
	{1, "Budget Planning 2025.xlsx", 144098}, {1, "Service Level Agreement.pdf", 257731}, {1, "Quarterly Newsletter Draft.docx", 28450},
	{2, "Campaign Plan H2.pptx", 4410021}, {2, "Brand Assets.zip", 15220874}, {2, "Social Media Calendar.xlsx", 52211},
	{2, "Audience Research Summary.pdf", 902114}, {2, "Press Kit 2024.pdf", 2044860},
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

var resourceCatalogue = []struct{ typ, title, desc, long string }{
	{"document", "Meeting Minutes Template", "Minutes with attendees, decisions and action items.", "A one-page minutes layout with a decision log and an action-item table."},
	{"document", "Project Status Report", "Weekly status report with traffic-light summary.", "Sections for progress, risks, decisions needed and next steps."},
	{"email", "Payment Reminder - Friendly", "First reminder for an overdue invoice.", "Polite wording that assumes an oversight and offers help."},
	{"email", "Payment Reminder - Final Notice", "Final notice before collection.", "Firm wording with the amount, due date and consequences."},
	{"email", "Customer Welcome Email", "Welcome message for new customers.", "Introduces the contact person, next steps and useful links."},
	{"presentation", "Quarterly Business Review Deck", "Slides for a quarterly review with a key account.", "Results, highlights, issues and the plan for next quarter."},
	{"presentation", "Team Kick-off Deck", "Slides to start a new project with the team.", "Goals, roles, timeline and ways of working."},
	{"spreadsheet", "Expense Report", "Monthly expense report with VAT columns.", "Totals per category and a signature block for approval."},
	{"spreadsheet", "Holiday Planner", "Team holiday overview for the year.", "Shows overlaps and remaining leave days per person."},
	{"spreadsheet", "Budget Tracker", "Tracks budget against actual spend per month.", "Variance columns and a chart-ready summary."},
	{"document", "Job Offer Letter", "Offer letter with salary, start date and conditions.", "Standard clauses for probation, notice period and benefits."},
	{"document", "Non-Disclosure Agreement", "Mutual NDA for supplier and partner talks.", "Short mutual agreement with a two-year confidentiality term."},
	{"prompt", "Summarise a Long Document", "Prompt that produces an executive summary.", "Asks for key findings, numbers and recommended decisions."},
	{"prompt", "Rewrite in Plain Language", "Prompt that simplifies jargon.", "Keeps meaning, shortens sentences and explains terms."},
	{"prompt", "Draft a Polite Refusal", "Prompt for declining requests kindly.", "Thanks, reason, alternative and a friendly close."},
	{"prompt", "Brainstorm Event Ideas", "Prompt for team event ideas within a budget.", "Ideas grouped by indoor, outdoor and remote-friendly."},
	{"email", "Meeting Follow-up", "Follow-up email with decisions and next steps.", "Summarises the meeting and confirms owners and dates."},
	{"document", "Incident Report", "Report for workplace or IT incidents.", "What happened, impact, immediate actions and prevention."},
	{"presentation", "Product Launch Plan", "Slides for planning a product launch.", "Audience, message, channels, timeline and budget."},
	{"spreadsheet", "Supplier Comparison", "Scores suppliers against weighted criteria.", "Price, quality, delivery and service with weights."},
	{"document", "Remote Work Agreement", "Agreement for regular remote work.", "Working hours, equipment, data protection and reachability."},
	{"email", "Out of Office Reply", "Out-of-office message with a deputy contact.", "Dates away, deputy and urgent contact details."},
}

// seed fills the service with a believable account. The real reading has one
// workspace, so the second's agents and files are left out; ids stay.
func (s *Service) seed() {
	s.workspaces = []Workspace{{ID: 1, Name: "Acme Office"}, {ID: 2, Name: "Acme Marketing"}}
	if s.real {
		s.workspaces = s.workspaces[:1]
	}
	seeded := func(ws int64) bool { return !s.real || ws == 1 }

	for i, fs := range fileCatalogue {
		if !seeded(fs.ws) {
			continue
		}
		id := int64(8001 + i)
		created := seedEpoch.Add(time.Duration(i) * 26 * time.Hour)
		s.files[id] = &File{
			ID: id, Object: "file", Bytes: fs.bytes, CreatedAt: offsetUTC(created), Filename: fs.name,
			Credits: fileCredits(fs.bytes), Status: FileCompleted, WorkspaceID: fs.ws, created: created,
		}
	}
	filesOf := map[int64][]int64{}
	for i, fs := range fileCatalogue {
		filesOf[fs.ws] = append(filesOf[fs.ws], int64(8001+i))
	}

	for i, as := range agentCatalogue {
		if !seeded(as.ws) {
			continue
		}
		id := int64(101 + i)
		created := seedEpoch.Add(time.Duration(i) * 31 * time.Hour)
		updated := created
		if i%3 == 1 {
			updated = created.Add(72*time.Hour + 17*time.Minute)
		}
		desc := as.desc
		a := s.addAgent(id, as.ws, as.typ, as.title, &desc, created, updated)
		if as.long != "" {
			long := as.long
			a.LongDescription = &long
		}
		switch as.typ {
		case TypeChat:
			a.Questions = chatQuestions()
		case TypeImage:
			a.Questions = imageQuestions(as.strictQuestions)
		case TypeText:
			a.Questions = textQuestions(as.strictQuestions)
		case TypeVideo:
			a.Questions = videoQuestions()
		}
		for _, fi := range as.linkedFileIndexes {
			s.agentFiles[id] = append(s.agentFiles[id], filesOf[as.ws][fi])
		}
	}

	s.seedExtraAgents(s.opts.ExtraAgents)
	if s.opts.Seed == SeedOdd {
		s.seedOddAgents()
	}

	for i, rs := range resourceCatalogue {
		created := seedEpoch.Add(time.Duration(i) * 19 * time.Hour)
		s.resources = append(s.resources, resource{
			ID: "rsc_" + shortHash("resource", rs.title), Title: rs.title, Description: rs.desc,
			CreatedAt: microZ(created), UpdatedAt: microZ(created.Add(5 * time.Hour)), long: rs.long, typ: rs.typ,
		})
	}

	s.seedWebhooks()

	for _, c := range []Collection{{ID: 1, Name: "General"}, {ID: 2, Name: "Clients"}, {ID: 3, Name: "Policies"}, {ID: 4, Name: "Style guide"}} {
		c.UserID = demoUserID
		if s.real {
			// The real default collection; others show their name.
			c.DisplayName = c.Name
			if c.ID == defaultCollectionID {
				c.Name, c.DisplayName = defaultCollectionName, defaultCollectionDisplay
			}
		}
		s.collections[c.ID] = &c
	}
	for i, m := range []struct {
		text string
		coll int64
		tags []string
	}{
		{"Northwind Traders prefers invoices in PDF, sent to accounts@northwind.example, payment term 30 days.", 2, []string{"clients", "invoicing"}},
		{"Travel: book second-class rail for trips under four hours; hotels up to 140 EUR per night.", 3, []string{"policy", "travel"}},
		{"Write 'customers', never 'clients', in public texts; use sentence case for headings.", 4, []string{"style"}},
		{"The office is closed on 24 and 31 December; the helpdesk answers urgent calls only.", 1, []string{"office"}},
	} {
		id := int64(501 + i)
		t := seedEpoch.Add(time.Duration(i) * 50 * time.Hour)
		s.memories[id] = &Memory{
			ID: id, UserID: demoUserID, Content: m.text, CollectionID: m.coll, Credits: memoryCredits(m.text),
			Metadata:  map[string]any{"source": "agentdesk", "tags": m.tags},
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
	first := int64(101 + len(agentCatalogue))
	for i := range n {
		id := first + int64(i)
		title := fmt.Sprintf("%s %s %s %d",
			extraTeams[i%len(extraTeams)], extraSubjects[(i/len(extraTeams))%len(extraSubjects)],
			extraRoles[(i/7)%len(extraRoles)], i+1)
		desc := fmt.Sprintf("Writes %s texts for the %s team.", strings.ToLower(extraSubjects[(i/len(extraTeams))%len(extraSubjects)]), extraTeams[i%len(extraTeams)])
		created := seedEpoch.Add(time.Duration(len(agentCatalogue)+i) * 31 * time.Minute)
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

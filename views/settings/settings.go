// Package settings is the Settings screen: accounts, key storage, theme,
// memory variant and About; it also offers the welcome screen's account form.
package settings

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/screen"
)

// option is a choice of a radio group and the setting it stands for.
type option[T comparable] struct {
	label string
	value T
}

func paceOptions() []option[float64] {
	return []option[float64]{
		{lang.L("One request a second (recommended)"), 0}, {lang.L("One request every two seconds"), 0.5},
		{lang.L("Two requests a second"), 2}, {lang.L("Five requests a second"), 5}, {lang.L("No limit"), -1},
	}
}

func themeOptions() []option[string] {
	return []option[string]{{lang.L("Same as my computer"), app.ThemeSystem}, {lang.L("Light"), app.ThemeLight}, {lang.L("Dark"), app.ThemeDark}}
}

func variantOptions() []option[string] {
	return []option[string]{{lang.L("Find out by itself (recommended)"), ""}, {lang.L("Memories in collections"), "A"}, {lang.L("Memories with details (source, tags)"), "B"}}
}

// textSizeLabels are app.TextSizes in words.
func textSizeLabels() []string {
	out := make([]string, len(app.TextSizes))
	for i, p := range app.TextSizes {
		out[i] = lang.L("{{.Percent}} %", map[string]any{"Percent": p})
		if p == 100 {
			out[i] = lang.L("{{.Percent}} % (normal)", map[string]any{"Percent": p})
		}
	}
	return out
}

// languageOptions are the languages, each in its own words, after the computer's.
func languageOptions() []option[string] {
	opts := []option[string]{{lang.L("Same as my computer"), ""}}
	for _, l := range app.Languages {
		opts = append(opts, option[string]{l.Name, l.Tag})
	}
	return opts
}

// labelOf is the label of value among opts, or "".
func labelOf[T comparable](opts []option[T], value T) string {
	for _, o := range opts {
		if o.value == value {
			return o.label
		}
	}
	return ""
}

// languageLabel shows each language in its own words.
func languageLabel(tag string) string {
	return cmp.Or(labelOf(languageOptions(), tag), languageOptions()[0].label)
}

// radio is a radio group of opts whose every choice of the user's is kept
// by set, as change does.
func radio[T comparable](s *Screen, opts []option[T], set func(context.Context, T) error, failed func(why string) string, then ...func()) *kit.RadioGroup {
	labels := make([]string, len(opts))
	for i, o := range opts {
		labels[i] = o.label
	}
	r := kit.NewRadioGroup(labels, func(label string) {
		if i := slices.Index(labels, label); i >= 0 && !s.syncing {
			s.change(func(ctx context.Context) error { return set(ctx, opts[i].value) }, failed, then...)
		}
	})
	r.Required = true
	return r
}

// Screen is the Settings screen.
type Screen struct {
	env screen.Env

	accounts *fyne.Container
	keyWhere *widget.Label
	theme    *kit.RadioGroup
	contrast *kit.Check
	textSize *kit.Select
	language *kit.RadioGroup
	langNote *widget.Label // says the organisation set the language
	variant  *kit.RadioGroup
	varNote  *widget.Label
	pace     *kit.RadioGroup
	paceNote *widget.Label
	network  *network
	advFold  *kit.Fold // Advanced, where Network is
	errText  *widget.Label
	content  fyne.CanvasObject

	// syncing: controls are being set from settings; their callbacks must not save.
	syncing bool

	// The open account dialog and remove confirmation, for tests.
	dialog  *dialog.CustomDialog
	form    *AccountForm
	add     *kit.Button
	save    *kit.Button
	confirm *dialog.ConfirmDialog
}

// New builds the Settings screen.
func New(env screen.Env) screen.Screen {
	s := &Screen{env: env}
	s.accounts = container.NewVBox()
	s.keyWhere = screen.Wrapped("")
	s.errText = kit.ErrorText()

	a := env.App
	s.theme = radio(s, themeOptions(), func(ctx context.Context, theme string) error {
		return a.UpdateSettings(ctx, func(st *app.Settings) { st.Theme = theme })
	}, func(why string) string {
		return lang.L("The theme applies now but could not be saved for next time. {{.Why}}", map[string]any{"Why": why})
	})
	lookFailed := func(why string) string {
		return lang.L("The theme applies now but could not be saved for next time. {{.Why}}", map[string]any{"Why": why})
	}
	s.contrast = kit.NewCheck(lang.L("High contrast"), func(on bool) {
		if !s.syncing {
			s.change(func(ctx context.Context) error {
				return a.UpdateSettings(ctx, func(st *app.Settings) { st.HighContrast = on })
			}, lookFailed)
		}
	})
	s.textSize = kit.NewSelect(textSizeLabels(), func(label string) {
		if i := slices.Index(textSizeLabels(), label); i >= 0 && !s.syncing {
			s.change(func(ctx context.Context) error {
				return a.UpdateSettings(ctx, func(st *app.Settings) { st.TextSize = app.TextSizes[i] })
			}, lookFailed)
		}
	})
	s.variant = radio(s, variantOptions(), a.Accounts().SetMemoryVariantOverride, func(why string) string {
		return lang.L("The way memories are kept could not be changed. {{.Why}}", map[string]any{"Why": why})
	})
	s.varNote = screen.Wrapped("")
	s.varNote.Importance = widget.LowImportance
	s.pace = radio(s, paceOptions(), a.Accounts().SetRequestsPerSecond, func(why string) string {
		return lang.L("The pace could not be changed. {{.Why}}", map[string]any{"Why": why})
	})
	s.paceNote = screen.Wrapped("")
	s.paceNote.Importance = widget.LowImportance
	s.language = radio(s, languageOptions(), func(ctx context.Context, tag string) error {
		return a.UpdateSettings(ctx, func(st *app.Settings) { st.Language = tag })
	}, func(why string) string {
		return lang.L("The language could not be saved. {{.Why}}", map[string]any{"Why": why})
	}, s.offerRestart)
	s.langNote = screen.Quiet(lang.L("Set by your organisation."))
	s.langNote.Hide()
	s.network = newNetwork(s)

	s.add = kit.NewButtonWithIcon(lang.L("Add account"), theme.ContentAddIcon(), func() { s.editAccount(app.Account{}) })
	about := kit.NewButtonWithIcon(lang.L("About Agent Desk"), theme.InfoIcon(), func() { ShowAbout(s.env.App, s.env.Window) })

	body := container.NewVBox(
		kit.Header(lang.L("Settings"), lang.L("Your accounts, how Agent Desk looks, and where it keeps its files.")),
		s.errText,
		section(lang.L("Accounts"), lang.L("The account in use is marked. Agent Desk runs agents of that account."),
			container.NewVBox(s.accounts, container.NewHBox(s.add))),
		section(lang.L("API key"), "", s.keyWhere),
		section(lang.L("Appearance"), lang.L("Changes apply at once."), container.NewVBox(s.theme, s.contrast,
			container.NewHBox(widget.NewLabel(lang.L("Text size")), kit.Widened(s.textSize, 200)),
			quietNote(lang.L("{{.Larger}} and {{.Smaller}} change the text size anywhere; {{.Normal}} sets it back to 100 %.",
				map[string]any{"Larger": kit.CtrlName("+"), "Smaller": kit.CtrlName("-"), "Normal": kit.CtrlName("0")})))),
		section(lang.L("Language"), lang.L("The language of Agent Desk's words. Agents answer in the language you write to them."), container.NewVBox(s.language, s.langNote)),
		section(lang.L("About"), lang.L("Version, and where Agent Desk keeps its files."), container.NewHBox(about)),
		s.advanced(),
	)
	s.content = container.NewVScroll(container.NewPadded(body))

	kit.Bind(env.App.Session(), func(app.Session) { s.refresh() })
	return s
}

func section(title, detail string, body fyne.CanvasObject) fyne.CanvasObject {
	t := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	box := container.NewVBox(widget.NewSeparator(), t)
	if detail != "" {
		box.Add(quietNote(detail))
	}
	box.Add(body)
	return box
}

// Content is the screen's widgets.
func (s *Screen) Content() fyne.CanvasObject { return s.content }

// Shown re-reads the settings, which other screens may have changed.
func (s *Screen) Shown() { s.refresh() }

func (s *Screen) refresh() {
	a := s.env.App
	st := a.Settings()
	active := a.Account()

	s.accounts.Objects = nil
	for _, acct := range st.Accounts {
		s.accounts.Add(s.accountRow(acct, acct.ID == active.ID))
	}
	s.accounts.Refresh()

	if active.IsDemo() {
		s.keyWhere.SetText(lang.L("The demo needs no API key."))
	} else {
		s.keyWhere.SetText(lang.L("The API key of {{.Account}} is {{.Where}}.", map[string]any{"Account": active.Name, "Where": app.KeyWhere(a.KeyLocation())}))
	}

	s.syncing = true
	s.theme.SetSelected(labelOf(themeOptions(), st.Theme))
	s.contrast.SetChecked(st.HighContrast)
	if i := slices.Index(app.TextSizes, cmp.Or(st.TextSize, 100)); i >= 0 {
		s.textSize.SetSelected(textSizeLabels()[i])
	}
	s.language.SetSelected(languageLabel(st.Language))
	locks := a.Locks()
	screen.EnableIf(!locks.Language, s.language)
	if locks.Language {
		s.langNote.Show()
	} else {
		s.langNote.Hide()
	}
	screen.EnableIf(!active.IsDemo(), s.variant)
	screen.EnableIf(!active.IsDemo() && !locks.Pace, s.pace)
	if active.IsDemo() {
		s.variant.SetSelected(variantOptions()[0].label)
		s.varNote.SetText(lang.L("The demo keeps memories in collections. Switch to your own account to change this."))
	} else {
		s.variant.SetSelected(labelOf(variantOptions(), active.MemoryVariantOverride))
		if active.MemoryVariant != "" {
			found := labelOf(variantOptions(), active.MemoryVariant)
			if found == "" {
				found = lang.L("Way {{.Name}}", map[string]any{"Name": active.MemoryVariant})
			}
			s.varNote.SetText(lang.L("Found for {{.Account}}: {{.Way}}.", map[string]any{"Account": active.Name, "Way": strings.ToLower(found)}))
		} else {
			s.varNote.SetText(lang.L("Not found yet: Agent Desk finds out the first time you open a memory."))
		}
	}
	s.pace.SetSelected(labelOf(paceOptions(), max(active.RequestsPerSecond, -1)))
	s.paceNote.SetText("")
	if active.IsDemo() {
		s.paceNote.SetText(lang.L("The demo runs on this computer and needs no pace. Switch to your own account to change this."))
	} else if locks.Pace {
		s.paceNote.SetText(lang.L("Set by your organisation."))
	}
	s.network.refresh(active)
	s.syncing = false
}

// change does what the user chose off the UI goroutine, says why it failed
// in failed's words (or clears the last error and runs then, when given),
// and shows the settings again.
func (s *Screen) change(do func(context.Context) error, failed func(why string) string, then ...func()) {
	s.env.App.Go(func() {
		err := do(context.Background())
		kit.Do(func() {
			if err != nil {
				kit.ShowError(s.errText, failed(app.Describe(err)))
			} else {
				kit.ShowError(s.errText, "")
			}
			s.refresh()
			if err == nil && len(then) > 0 {
				then[0]()
			}
		})
	})
}

func (s *Screen) accountRow(acct app.Account, active bool) fyne.CanvasObject {
	icon := widget.NewIcon(theme.AccountIcon())
	title := acct.Name
	if acct.IsDemo() {
		title = lang.L("Demo") // the built-in account's name, in the language in use
	}
	name := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: active})
	var detail string
	switch {
	case acct.IsDemo():
		detail = lang.L("Sample agents on this computer. Nothing is charged.")
	case acct.WorkspaceID != "":
		detail = lang.L("{{.Address}}, workspace {{.Workspace}}", map[string]any{"Address": acct.BaseURL, "Workspace": acct.WorkspaceID})
	default:
		detail = acct.BaseURL
	}
	sub := screen.Quiet(detail)
	sub.Truncation = fyne.TextTruncateEllipsis
	text := container.NewVBox(name, sub)
	locked := s.env.App.Locks().Account(acct.ID)
	if locked {
		text.Add(screen.Quiet(lang.L("Set by your organisation.")))
	}
	// So a failing keyring never goes unnoticed.
	if note := app.KeyInFileNote(acct); note != "" {
		where := widget.NewLabel(note)
		where.Importance = widget.WarningImportance
		where.Wrapping = fyne.TextWrapWord
		text.Add(where)
	}

	var actions []fyne.CanvasObject
	if active {
		icon.SetResource(theme.ConfirmIcon())
		inUse := widget.NewLabel(lang.L("In use"))
		inUse.Importance = widget.SuccessImportance
		actions = append(actions, inUse)
	} else {
		actions = append(actions, kit.NewButton(lang.L("Use"), func() { s.switchTo(acct) }))
	}
	if !acct.IsDemo() {
		remove := kit.NewButtonWithIcon(lang.L("Remove"), theme.DeleteIcon(), func() { s.confirmRemove(acct) })
		screen.EnableIf(!locked, remove)
		actions = append(actions,
			kit.NewButtonWithIcon(lang.L("Edit"), theme.DocumentCreateIcon(), func() { s.editAccount(acct) }), remove)
	}
	return container.NewBorder(nil, nil, icon, container.NewVBox(layout.NewSpacer(), container.NewHBox(actions...), layout.NewSpacer()), text)
}

func (s *Screen) advanced() fyne.CanvasObject {
	f := kit.NewFold(lang.L("Advanced"), container.NewVBox(
		section(lang.L("How the service keeps memories"), lang.L("Services store memories in one of two ways. Agent Desk finds out which by itself; choose only if your administrator tells you to."),
			container.NewVBox(s.variant, s.varNote)),
		section(lang.L("Pace of requests"), lang.L("Services limit how often Agent Desk may ask them something. Agent Desk keeps to that and slows down by itself when a service asks it to; change this only if your administrator tells you to."),
			container.NewVBox(s.pace, s.paceNote)),
		s.network.object()))
	screen.RememberOpen(f, s.env.App)
	s.advFold = f
	return f.Object()
}

func (s *Screen) switchTo(acct app.Account) {
	kit.ShowError(s.errText, "")
	s.change(func(ctx context.Context) error { return s.env.App.Activate(ctx, acct.ID) }, func(why string) string {
		return lang.L("Agent Desk could not switch to {{.Account}}. {{.Why}}", map[string]any{"Account": acct.Name, "Why": why})
	})
}

func (s *Screen) editAccount(acct app.Account) {
	form := NewAccountForm(s.env.App, acct)
	form.Window = s.env.Window
	title := lang.L("Add account")
	if acct.ID != "" {
		title = lang.L("Edit {{.Account}}", map[string]any{"Account": acct.Name})
	}
	var d *dialog.CustomDialog
	save := kit.NewButtonWithIcon(lang.L("Save"), theme.DocumentSaveIcon(), nil)
	save.Importance = widget.HighImportance
	cancel := kit.NewButtonWithIcon(lang.L("Cancel"), theme.CancelIcon(), func() { s.Escape() })
	save.OnTapped = func() {
		form.Save(func(app.Account) {
			d.Hide()
			if s.dialog == d {
				s.dialog = nil
			}
			s.refresh()
		})
	}
	form.OnBusy(func(busy bool) { screen.EnableIf(!busy, save) })
	d = dialog.NewCustomWithoutButtons(title, form.Object, s.env.Window)
	d.SetButtons([]fyne.CanvasObject{cancel, save})
	d.Resize(fyne.NewSize(560, 0))
	s.dialog, s.form, s.save = d, form, save
	kit.ShowDialogKeys(d, s.env.Window, func() {
		if !save.Disabled() {
			save.OnTapped()
		}
	}, s.Escape)
}

func (s *Screen) confirmRemove(acct app.Account) {
	s.confirm = screen.Confirm(s.env.Window, lang.L("Remove {{.Account}}?", map[string]any{"Account": acct.Name}),
		lang.L("Agent Desk forgets this account and its API key. Your history of chats and runs stays on this computer."), lang.L("Remove"), lang.L("Keep"), screen.Destructive, func() {
			s.change(func(ctx context.Context) error { return s.env.App.Accounts().Remove(ctx, acct.ID) }, func(why string) string {
				return lang.L("{{.Account}} could not be removed. {{.Why}}", map[string]any{"Account": acct.Name, "Why": why})
			})
		})
}

// offerRestart, once a language is kept, offers to start again in it:
// every word on screen was made in the old one.
func (s *Screen) offerRestart() {
	tag := s.env.App.Settings().Language
	if app.WouldSpeak(tag) != app.LanguageInUse() {
		screen.Confirm(s.env.Window, lang.L("Start Agent Desk again?"),
			lang.L("Agent Desk speaks {{.Language}} once it starts again. What you typed is kept.", map[string]any{"Language": languageLabel(app.WouldSpeak(tag))}),
			lang.L("Start again now"), lang.L("Later"), screen.Safe, s.env.Nav.Restart)
	}
}

// Reveal gives the keyboard to a part of Settings, scrolled into view, as
// the command box asks: accounts, appearance, contrast, textsize, language
// or network.
func (s *Screen) Reveal(part string) {
	to := map[string]fyne.CanvasObject{"accounts": s.add, "appearance": s.theme, "contrast": s.contrast,
		"textsize": s.textSize, "language": s.language, "network": s.network.mode}[part]
	if to == nil || s.env.Window == nil {
		return
	}
	if part == "network" && !s.advFold.Open() {
		s.advFold.SetOpen(true)
		s.advFold.OnChanged(true)
	}
	kit.FocusFirst(s.env.Window.Canvas(), to)
}

// Escape closes the account dialog without saving, as Cancel does.
func (s *Screen) Escape() {
	if s.dialog != nil {
		s.dialog.Hide()
		s.dialog = nil
	}
}

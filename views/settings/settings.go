// Package settings is the Settings screen: accounts (add, edit, remove,
// switch), where the API key is kept, the theme, the memory variant and the
// About dialog. It also offers the account form the welcome screen uses.
package settings

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/views/kit"
)

// Labels of the theme and memory variant choices; tests tap them by name.
const (
	ThemeSystemLabel = "Same as my computer"
	ThemeLightLabel  = "Light"
	ThemeDarkLabel   = "Dark"

	VariantAutoLabel = "Find out by itself (recommended)"
	VariantALabel    = "Memories in collections"
	VariantBLabel    = "Memories with details (source, tags)"

	PaceDefaultLabel = "One request a second (recommended)"
	PaceSlowLabel    = "One request every two seconds"
	PaceTwoLabel     = "Two requests a second"
	PaceFiveLabel    = "Five requests a second"
	PaceNoneLabel    = "No limit"
)

// paceChoices are the paces offered, in order, with what each keeps.
var paceChoices = []struct {
	label     string
	perSecond float64
}{
	{PaceDefaultLabel, 0}, {PaceSlowLabel, 0.5}, {PaceTwoLabel, 2}, {PaceFiveLabel, 5}, {PaceNoneLabel, -1},
}

var themeLabels = map[string]string{
	app.ThemeSystem: ThemeSystemLabel,
	app.ThemeLight:  ThemeLightLabel,
	app.ThemeDark:   ThemeDarkLabel,
}

var variantLabels = map[string]string{"": VariantAutoLabel, "A": VariantALabel, "B": VariantBLabel}

// Screen is the Settings screen.
type Screen struct {
	env kit.Env

	accounts *fyne.Container
	keyWhere *widget.Label
	theme    *kit.RadioGroup
	variant  *kit.RadioGroup
	varNote  *widget.Label
	pace     *kit.RadioGroup
	paceNote *widget.Label
	errText  *widget.Label
	content  fyne.CanvasObject

	// syncing is true while the screen sets its own controls from the
	// settings, so their change callbacks do not save again.
	syncing bool

	// The open account dialog and remove confirmation, for tests.
	dialog  *dialog.CustomDialog
	form    *AccountForm
	add     *kit.Button
	save    *kit.Button
	confirm *dialog.ConfirmDialog
}

// New builds the Settings screen.
func New(env kit.Env) kit.Screen {
	s := &Screen{env: env}
	s.accounts = container.NewVBox()
	s.keyWhere = widget.NewLabel("")
	s.keyWhere.Wrapping = fyne.TextWrapWord
	s.errText = kit.ErrorText()

	s.theme = kit.NewRadioGroup([]string{ThemeSystemLabel, ThemeLightLabel, ThemeDarkLabel}, s.themeChosen)
	s.theme.Required = true

	s.variant = kit.NewRadioGroup([]string{VariantAutoLabel, VariantALabel, VariantBLabel}, s.variantChosen)
	s.variant.Required = true
	s.varNote = widget.NewLabel("")
	s.varNote.Wrapping = fyne.TextWrapWord
	s.varNote.Importance = widget.LowImportance

	labels := make([]string, len(paceChoices))
	for i, c := range paceChoices {
		labels[i] = c.label
	}
	s.pace = kit.NewRadioGroup(labels, s.paceChosen)
	s.pace.Required = true
	s.paceNote = widget.NewLabel("")
	s.paceNote.Wrapping = fyne.TextWrapWord
	s.paceNote.Importance = widget.LowImportance

	s.add = kit.NewButtonWithIcon("Add account", theme.ContentAddIcon(), func() { s.editAccount(app.Account{}) })
	about := kit.NewButtonWithIcon("About Agent Desk", theme.InfoIcon(), func() { ShowAbout(s.env.App, s.env.Window) })

	body := container.NewVBox(
		kit.Header("Settings", "Your accounts, how Agent Desk looks, and where it keeps its files."),
		s.errText,
		section("Accounts", "The account in use is marked. Agent Desk runs agents of that account.",
			container.NewVBox(s.accounts, container.NewHBox(s.add))),
		section("API key", "", s.keyWhere),
		section("Appearance", "Changes apply at once.", s.theme),
		section("About", "Version, and where Agent Desk keeps its files.", container.NewHBox(about)),
		s.advanced(),
	)
	s.content = kit.FollowFocus(container.NewVScroll(container.NewPadded(body)))

	kit.Bind(env.App.Session(), func(app.Session) { s.refresh() })
	return s
}

func section(title, detail string, body fyne.CanvasObject) fyne.CanvasObject {
	t := widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	box := container.NewVBox(widget.NewSeparator(), t)
	if detail != "" {
		d := widget.NewLabel(detail)
		d.Wrapping = fyne.TextWrapWord
		d.Importance = widget.LowImportance
		box.Add(d)
	}
	box.Add(body)
	return box
}

// Content is the screen's widgets.
func (s *Screen) Content() fyne.CanvasObject { return s.content }

// Shown re-reads the settings, which other screens may have changed.
func (s *Screen) Shown() { s.refresh() }

// refresh shows the current settings; it runs on the UI goroutine.
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
		s.keyWhere.SetText("The demo needs no API key.")
	} else {
		s.keyWhere.SetText(fmt.Sprintf("The API key of %s is %s.", active.Name, a.KeyLocation().Describe()))
	}

	s.syncing = true
	s.theme.SetSelected(themeLabels[st.Theme])
	if active.IsDemo() {
		s.variant.SetSelected(VariantAutoLabel)
		s.variant.Disable()
		s.varNote.SetText("The demo keeps memories in collections. Switch to your own account to change this.")
	} else {
		s.variant.Enable()
		s.variant.SetSelected(variantLabels[active.MemoryVariantOverride])
		if active.MemoryVariant != "" {
			found := variantLabels[active.MemoryVariant]
			if found == "" {
				found = "way " + active.MemoryVariant
			}
			s.varNote.SetText(fmt.Sprintf("Found for %s: %s.", active.Name, strings.ToLower(found)))
		} else {
			s.varNote.SetText("Not found yet: Agent Desk finds out the first time you open a memory.")
		}
	}
	for _, c := range paceChoices {
		if c.perSecond == active.RequestsPerSecond || (c.perSecond < 0 && active.RequestsPerSecond < 0) {
			s.pace.SetSelected(c.label)
		}
	}
	if active.IsDemo() {
		s.pace.Disable()
		s.paceNote.SetText("The demo runs on this computer and needs no pace. Switch to your own account to change this.")
	} else {
		s.pace.Enable()
		s.paceNote.SetText("")
	}
	s.syncing = false
}

func (s *Screen) paceChosen(label string) {
	if s.syncing {
		return
	}
	var perSecond float64
	for _, c := range paceChoices {
		if c.label == label {
			perSecond = c.perSecond
		}
	}
	a := s.env.App
	a.Go(func() {
		err := a.SetRequestsPerSecond(context.Background(), perSecond)
		kit.Do(func() {
			if err != nil {
				kit.ShowError(s.errText, "The pace could not be changed. "+app.Describe(err))
			} else {
				kit.ShowError(s.errText, "")
			}
			s.refresh()
		})
	})
}

func (s *Screen) accountRow(acct app.Account, active bool) fyne.CanvasObject {
	icon := widget.NewIcon(theme.AccountIcon())
	name := widget.NewLabelWithStyle(acct.Name, fyne.TextAlignLeading, fyne.TextStyle{Bold: active})
	var detail string
	switch {
	case acct.IsDemo():
		detail = "Sample agents on this computer. Nothing is charged."
	case acct.WorkspaceID != "":
		detail = fmt.Sprintf("%s, workspace %s", acct.BaseURL, acct.WorkspaceID)
	default:
		detail = acct.BaseURL
	}
	sub := widget.NewLabel(detail)
	sub.Importance = widget.LowImportance
	sub.Truncation = fyne.TextTruncateEllipsis
	text := container.NewVBox(name, sub)
	// A key that fell back to the keys file is said so on its account's
	// line, so the keyring failing never goes unnoticed.
	if note := app.KeyInFileNote(acct); note != "" {
		where := widget.NewLabel(note)
		where.Importance = widget.WarningImportance
		where.Wrapping = fyne.TextWrapWord
		text.Add(where)
	}

	var actions []fyne.CanvasObject
	if active {
		icon.SetResource(theme.ConfirmIcon())
		inUse := widget.NewLabel("In use")
		inUse.Importance = widget.SuccessImportance
		actions = append(actions, inUse)
	} else {
		actions = append(actions, kit.NewButton("Use", func() { s.switchTo(acct) }))
	}
	if !acct.IsDemo() {
		actions = append(actions,
			kit.NewButtonWithIcon("Edit", theme.DocumentCreateIcon(), func() { s.editAccount(acct) }),
			kit.NewButtonWithIcon("Remove", theme.DeleteIcon(), func() { s.confirmRemove(acct) }))
	}
	return container.NewBorder(nil, nil, icon, container.NewVBox(layout.NewSpacer(), container.NewHBox(actions...), layout.NewSpacer()), text)
}

// advanced is the fold of choices only an administrator asks for: how the
// service stores memories, the pace of requests. Closed at first; the
// user's choice is remembered.
func (s *Screen) advanced() fyne.CanvasObject {
	f := kit.NewFold("Advanced", container.NewVBox(
		section("How the service keeps memories", "Services store memories in one of two ways. Agent Desk finds out which by itself; choose only if your administrator tells you to.",
			container.NewVBox(s.variant, s.varNote)),
		section("Pace of requests", "Services limit how often Agent Desk may ask them something. Agent Desk keeps to that and slows down by itself when a service asks it to; change this only if your administrator tells you to.",
			container.NewVBox(s.pace, s.paceNote))))
	f.RememberOpen(s.env.App)
	return f.Object()
}

// switchTo makes acct the active account.
func (s *Screen) switchTo(acct app.Account) {
	kit.ShowError(s.errText, "")
	a := s.env.App
	s.env.App.Go(func() {
		err := a.Activate(context.Background(), acct.ID)
		kit.Do(func() {
			if err != nil {
				kit.ShowError(s.errText, fmt.Sprintf("Agent Desk could not switch to %s. %s", acct.Name, app.Describe(err)))
			}
			s.refresh()
		})
	})
}

// editAccount opens the account form in a dialog; a zero acct adds one.
// Saving checks the connection first and makes the account the one in use.
func (s *Screen) editAccount(acct app.Account) {
	form := NewAccountForm(s.env.App, acct)
	form.Window = s.env.Window
	title := "Add account"
	if acct.ID != "" {
		title = "Edit " + acct.Name
	}
	var d *dialog.CustomDialog
	save := kit.NewButtonWithIcon("Save", theme.DocumentSaveIcon(), nil)
	save.Importance = widget.HighImportance
	cancel := kit.NewButtonWithIcon("Cancel", theme.CancelIcon(), func() { s.Escape() })
	save.OnTapped = func() {
		form.Save(func(app.Account) {
			d.Hide()
			if s.dialog == d {
				s.dialog = nil
			}
			s.refresh()
		})
	}
	form.OnBusy(func(busy bool) {
		if busy {
			save.Disable()
		} else {
			save.Enable()
		}
	})
	d = dialog.NewCustomWithoutButtons(title, form.Object(), s.env.Window)
	d.SetButtons([]fyne.CanvasObject{cancel, save})
	d.Resize(fyne.NewSize(560, 0))
	s.dialog, s.form, s.save = d, form, save
	kit.ShowDialogKeys(d, s.env.Window, func() {
		if !save.Disabled() {
			save.OnTapped()
		}
	}, s.Escape)
}

// confirmRemove asks before forgetting an account and its key.
func (s *Screen) confirmRemove(acct app.Account) {
	a := s.env.App
	d := dialog.NewConfirm("Remove "+acct.Name+"?",
		"Agent Desk forgets this account and its API key. Your history of chats and runs stays on this computer.",
		func(ok bool) {
			if !ok {
				return
			}
			s.env.App.Go(func() {
				err := a.RemoveAccount(context.Background(), acct.ID)
				kit.Do(func() {
					if err != nil {
						kit.ShowError(s.errText, fmt.Sprintf("%s could not be removed. %s", acct.Name, app.Describe(err)))
					} else {
						kit.ShowError(s.errText, "")
					}
					s.refresh()
				})
			})
		}, s.env.Window)
	d.SetConfirmText("Remove")
	d.SetDismissText("Keep")
	s.confirm = d
	kit.ShowDestructive(d, s.env.Window)
}

func (s *Screen) themeChosen(label string) {
	if s.syncing {
		return
	}
	value := app.ThemeSystem
	for v, l := range themeLabels {
		if l == label {
			value = v
		}
	}
	a := s.env.App
	s.env.App.Go(func() {
		err := a.UpdateSettings(context.Background(), func(st *app.Settings) { st.Theme = value })
		kit.Do(func() {
			if err != nil {
				kit.ShowError(s.errText, "The theme applies now but could not be saved for next time. "+app.Describe(err))
			}
		})
	})
}

func (s *Screen) variantChosen(label string) {
	if s.syncing {
		return
	}
	value := ""
	for v, l := range variantLabels {
		if l == label {
			value = v
		}
	}
	a := s.env.App
	s.env.App.Go(func() {
		err := a.SetMemoryVariantOverride(context.Background(), value)
		kit.Do(func() {
			if err != nil {
				kit.ShowError(s.errText, "The way memories are kept could not be changed. "+app.Describe(err))
			} else {
				kit.ShowError(s.errText, "")
			}
			s.refresh()
		})
	})
}

// Escape closes the account dialog without saving, as Cancel does.
func (s *Screen) Escape() {
	if s.dialog != nil {
		s.dialog.Hide()
		s.dialog = nil
	}
}

package kit_test

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/agentdesk/agentdesk/views/kit"
)

// A group of options: Tab reaches each option with the ring shown, Space
// chooses it; a radio group keeps one option chosen, a check group any.
func TestOptionGroupsShowTheRingAndAnswerToSpace(t *testing.T) {
	test.NewTempApp(t)
	var told []string
	radio := kit.NewRadioGroup([]string{"Light", "Dark", "Same as the computer"}, func(s string) { told = append(told, s) })
	radio.Required = true
	var ticked []string
	checks := kit.NewCheckGroup([]string{"Print", "Web", "Email"}, func(s []string) { ticked = slices.Clone(s) })
	w := test.NewTempWindow(t, kit.NewBorder(radio, checks, nil, nil))
	w.Resize(fyne.NewSize(400, 400))

	focus := func() *kit.Check {
		t.Helper()
		w.Canvas().FocusNext()
		c, ok := w.Canvas().Focused().(*kit.Check)
		if !ok {
			t.Fatalf("Tab reached %T, not an option", w.Canvas().Focused())
		}
		if !ringShows(ringOf(c)) {
			t.Fatalf("%q has the keyboard and shows no ring", c.Text)
		}
		return c
	}
	space := func(c *kit.Check) { c.TypedRune(' ') }

	focus()        // Light
	space(focus()) // Dark
	if radio.Selected != "Dark" || !slices.Equal(told, []string{"Dark"}) {
		t.Fatalf("Space on Dark chose %q, told %v", radio.Selected, told)
	}
	space(w.Canvas().Focused().(*kit.Check))
	if radio.Selected != "Dark" {
		t.Fatalf("Space on the chosen option left %q chosen; one must stay chosen", radio.Selected)
	}
	radio.SetSelected("Light")
	radio.SetSelected("Light")
	if !slices.Equal(told, []string{"Dark", "Light"}) {
		t.Fatalf("told %v; each change once", told)
	}
	// Only one option shows as chosen.
	var shown []string
	for _, o := range kittestOptions(radio) {
		if o.Checked {
			shown = append(shown, o.Text)
		}
	}
	if !slices.Equal(shown, []string{"Light"}) {
		t.Fatalf("options ticked: %v, want only Light", shown)
	}

	// Down and Up move through the group's options, not beyond, and skip
	// one that cannot be chosen; Space chooses as before.
	key := func(name fyne.KeyName) *kit.Check {
		t.Helper()
		w.Canvas().Focused().(*kit.Check).TypedKey(&fyne.KeyEvent{Name: name})
		return w.Canvas().Focused().(*kit.Check)
	}
	opts := kittestOptions(radio)
	w.Canvas().Focus(opts[0])
	opts[1].Disable()
	if c := key(fyne.KeyDown); c != opts[2] {
		t.Fatalf("Down from Light went to %q, want past the disabled Dark to the last", c.Text)
	}
	if c := key(fyne.KeyDown); c != opts[2] {
		t.Fatalf("Down on the last option went to %q, want it kept", c.Text)
	}
	opts[1].Enable()
	if c := key(fyne.KeyUp); c != opts[1] {
		t.Fatalf("Up went to %q, want Dark", c.Text)
	}
	space(w.Canvas().Focused().(*kit.Check))
	if radio.Selected != "Dark" {
		t.Fatalf("Space after Up chose %q", radio.Selected)
	}
	w.Canvas().Focus(opts[1])

	focus()        // Same as the computer
	space(focus()) // Print
	focus()        // Web
	space(focus()) // Email
	if !slices.Equal(ticked, []string{"Print", "Email"}) || !slices.Equal(checks.Selected, ticked) {
		t.Fatalf("ticked %v (group says %v), want Print and Email", ticked, checks.Selected)
	}
}

// kittestOptions are the check boxes a group shows.
func kittestOptions(o fyne.Widget) []*kit.Check {
	var out []*kit.Check
	walkTree(o, func(o fyne.CanvasObject) bool {
		if c, ok := o.(*kit.Check); ok {
			out = append(out, c)
		}
		return true
	})
	return out
}

// A radio group's options are drawn as round buttons, the chosen one with
// its dot, and under the app's own theme: a theme override would have
// Fyne parse every font again for each option it paints (the four choices
// of Settings took 36 MB and 110 ms).
func TestRadioOptionsAreRoundUnderTheAppsTheme(t *testing.T) {
	a := test.NewTempApp(t)
	radio := kit.NewRadioGroup([]string{"Light", "Dark"}, nil)
	checks := kit.NewCheckGroup([]string{"Print"}, nil)
	w := test.NewTempWindow(t, kit.NewBorder(radio, checks, nil, nil))
	w.Resize(fyne.NewSize(300, 200))
	radio.SetSelected("Dark")

	icons := func(c *kit.Check) (names []string) {
		walkTree(c, func(o fyne.CanvasObject) bool {
			if img, ok := o.(*canvas.Image); ok && img.Resource != nil {
				names = append(names, img.Resource.Name())
			}
			return true
		})
		return names
	}
	// the theme's icon file, as Fyne names it coloured: "<colour>_<file>"
	file := func(name string) string { return name[strings.LastIndex(name, "_")+1:] }
	named := func(n fyne.ThemeIconName) string { return "_" + file(a.Settings().Theme().Icon(n).Name()) }
	for _, c := range kittestOptions(radio) {
		if c.Theme() != a.Settings().Theme() {
			t.Fatalf("option %q is drawn under a theme of its own", c.Text)
		}
		want := named(theme.IconNameRadioButton)
		if c.Checked {
			want = named(theme.IconNameRadioButtonChecked)
		}
		if got := icons(c); len(got) != 2 || !strings.HasSuffix(got[1], want) || !strings.HasSuffix(got[0], named(theme.IconNameRadioButtonFill)) {
			t.Fatalf("option %q (chosen: %v) shows %v, want the radio button's fill and %s", c.Text, c.Checked, got, want)
		}
	}
	radio.SetSelected("Light")
	if got := icons(kittestOptions(radio)[1]); !strings.HasSuffix(got[1], named(theme.IconNameRadioButton)) {
		t.Fatalf("Dark no longer chosen still shows %v", got)
	}
	// The check group's boxes stay square.
	if got := icons(kittestOptions(checks)[0]); len(got) != 2 || !strings.HasSuffix(got[1], named(theme.IconNameCheckButton)) {
		t.Fatalf("a check box shows %v", got)
	}
}

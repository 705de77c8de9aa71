package views

import (
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/storage"
)

// contrast is the WCAG contrast ratio of two colours (1 to 21).
func contrast(a, b color.Color) float64 {
	lum := func(c color.Color) float64 {
		r, g, bl, _ := c.RGBA()
		ch := func(v uint32) float64 {
			x := float64(v) / 0xffff
			if x <= 0.03928 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(r) + 0.7152*ch(g) + 0.0722*ch(bl)
	}
	la, lb := lum(a), lum(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// Secondary text (low-importance labels, drawn in the disabled colour) and
// status text (done, warning, error) must be readable on the window's
// background in every theme, outlines of fields and check boxes visible,
// and disabled controls must still look disabled: fainter text, no button
// fill.
func TestThemeSecondaryTextReads(t *testing.T) {
	cases := []struct {
		setting  string
		asked    fyne.ThemeVariant // what the system asks for
		contrast bool
	}{
		{storage.ThemeSystem, theme.VariantDark, false},
		{storage.ThemeSystem, theme.VariantLight, false},
		{storage.ThemeDark, theme.VariantLight, false},
		{storage.ThemeLight, theme.VariantDark, false},
		{storage.ThemeDark, theme.VariantLight, true},
		{storage.ThemeLight, theme.VariantDark, true},
	}
	for _, c := range cases {
		th := ThemeFor(app.Settings{Theme: c.setting, HighContrast: c.contrast})
		bg := th.Color(theme.ColorNameBackground, c.asked)
		fg := th.Color(theme.ColorNameForeground, c.asked)
		quiet := th.Color(theme.ColorNameDisabled, c.asked)
		if r := contrast(quiet, bg); r < 4.5 {
			t.Errorf("%s theme (system asks for %s): secondary text is %.2f:1 on the background, want at least 4.5:1", c.setting, variantName(c.asked), r)
		}
		if r := contrast(quiet, fg); r < 1.5 {
			t.Errorf("%s theme (system asks for %s): disabled text is %.2f:1 against normal text, too alike to tell apart", c.setting, variantName(c.asked), r)
		}
		if th.Color(theme.ColorNameDisabledButton, c.asked) == th.Color(theme.ColorNameButton, c.asked) {
			t.Errorf("%s theme (system asks for %s): a disabled button is filled like an enabled one", c.setting, variantName(c.asked))
		}
		for _, n := range []fyne.ThemeColorName{theme.ColorNameSuccess, theme.ColorNameWarning, theme.ColorNameError} {
			if r := contrast(th.Color(n, c.asked), bg); r < 4.5 {
				t.Errorf("%s theme (system asks for %s): %s text is %.2f:1 on the background, want at least 4.5:1", c.setting, variantName(c.asked), n, r)
			}
		}
		if r := contrast(th.Color(theme.ColorNameInputBorder, c.asked), bg); r < 3 {
			t.Errorf("%s theme (system asks for %s): field and check box outlines are %.2f:1 on the background, want at least 3:1", c.setting, variantName(c.asked), r)
		}
		if r := contrast(quiet, th.Color(theme.ColorNameInputBackground, c.asked)); r < 4 {
			t.Errorf("%s theme (system asks for %s): read-only field text is %.2f:1 on the field", c.setting, variantName(c.asked), r)
		}
	}
}

// High contrast is at least 7:1 (WCAG's AAA) for text, secondary text, the
// blue buttons' words and links, in both variants, and draws field
// outlines and separators as strong as text.
func TestHighContrastReads(t *testing.T) {
	for _, setting := range []string{storage.ThemeLight, storage.ThemeDark} {
		th := ThemeFor(app.Settings{Theme: setting, HighContrast: true})
		plain := ThemeFor(app.Settings{Theme: setting})
		v := theme.VariantDark
		bg := th.Color(theme.ColorNameBackground, v)
		pairs := []struct {
			what   string
			fg, bg fyne.ThemeColorName
			want   float64
		}{
			{"text", theme.ColorNameForeground, theme.ColorNameBackground, 15},
			{"secondary text", theme.ColorNameDisabled, theme.ColorNameBackground, 7},
			{"a blue button's words", theme.ColorNameForegroundOnPrimary, theme.ColorNamePrimary, 7},
			{"a button's words", theme.ColorNameForeground, theme.ColorNameButton, 7},
			{"links", theme.ColorNameHyperlink, theme.ColorNameBackground, 7},
			{"errors", theme.ColorNameError, theme.ColorNameBackground, 4.5},
			{"field outlines", theme.ColorNameInputBorder, theme.ColorNameBackground, 15},
		}
		for _, p := range pairs {
			if r := contrast(th.Color(p.fg, v), th.Color(p.bg, v)); r < p.want {
				t.Errorf("%s high contrast: %s are %.2f:1, want at least %v:1", setting, p.what, r, p.want)
			}
		}
		if contrast(th.Color(theme.ColorNameForeground, v), bg) <= contrast(plain.Color(theme.ColorNameForeground, v), plain.Color(theme.ColorNameBackground, v)) {
			t.Errorf("%s high contrast draws text no stronger than the plain theme", setting)
		}
	}
}

// The text size scales text and the icons beside it, not the spacing.
func TestTextSizeScalesTextOnly(t *testing.T) {
	normal, big, small := ThemeFor(app.Settings{}), ThemeFor(app.Settings{TextSize: 150}), ThemeFor(app.Settings{TextSize: 90})
	for _, n := range []fyne.ThemeSizeName{theme.SizeNameText, theme.SizeNameHeadingText, theme.SizeNameCaptionText, theme.SizeNameInlineIcon} {
		if got, want := big.Size(n), normal.Size(n)*1.5; math.Abs(float64(got-want)) > 0.5 {
			t.Errorf("at 150 %%, %s is %v, want about %v", n, got, want)
		}
		if small.Size(n) >= normal.Size(n) {
			t.Errorf("at 90 %%, %s is %v, not below 100 %%'s %v", n, small.Size(n), normal.Size(n))
		}
	}
	if big.Size(theme.SizeNamePadding) != normal.Size(theme.SizeNamePadding) {
		t.Errorf("at 150 %%, the spacing grew from %v to %v", normal.Size(theme.SizeNamePadding), big.Size(theme.SizeNamePadding))
	}
}

// The light and dark settings hold whatever the system prefers.
func TestThemeSettingForcesVariant(t *testing.T) {
	for _, asked := range []fyne.ThemeVariant{theme.VariantDark, theme.VariantLight} {
		light := ThemeFor(app.Settings{Theme: storage.ThemeLight}).Color(theme.ColorNameBackground, asked)
		dark := ThemeFor(app.Settings{Theme: storage.ThemeDark}).Color(theme.ColorNameBackground, asked)
		if contrast(light, color.White) > 1.1 {
			t.Errorf("light theme with the system asking for %s: background %v is not light", variantName(asked), light)
		}
		if contrast(dark, color.Black) > 1.5 {
			t.Errorf("dark theme with the system asking for %s: background %v is not dark", variantName(asked), dark)
		}
	}
	sys := ThemeFor(app.Settings{Theme: storage.ThemeSystem})
	if sys.Color(theme.ColorNameBackground, theme.VariantLight) == sys.Color(theme.ColorNameBackground, theme.VariantDark) {
		t.Error("the system theme does not follow the variant the system asks for")
	}
}

func variantName(v fyne.ThemeVariant) string {
	if v == theme.VariantLight {
		return "light"
	}
	return "dark"
}

// over is colour c drawn over an opaque background, as Fyne blends a
// button's focus tint.
func over(bg, c color.Color) color.Color {
	br, bgg, bb, _ := bg.RGBA()
	cr, cg, cb, ca := c.RGBA()
	mix := func(b, f uint32) uint8 { return uint8((f + b*(0xffff-ca)/0xffff) >> 8) }
	return color.NRGBA{R: mix(br, cr), G: mix(bgg, cg), B: mix(bb, cb), A: 0xff}
}

// What has the keyboard is plain to see: a focused button, a focused blue
// button and a focused list row each differ from their unfocused look by
// 1.5:1 or more (Fyne's own tint gave 1.0:1 to 1.3:1).
func TestThemeFocusStandsOut(t *testing.T) {
	for _, st := range []app.Settings{{Theme: storage.ThemeDark}, {Theme: storage.ThemeLight}, {Theme: storage.ThemeDark, HighContrast: true}, {Theme: storage.ThemeLight, HighContrast: true}} {
		th, setting := ThemeFor(st), st.Theme
		if st.HighContrast {
			setting += " high-contrast"
		}
		focus := th.Color(theme.ColorNameFocus, theme.VariantDark)
		for _, n := range []fyne.ThemeColorName{theme.ColorNameButton, theme.ColorNamePrimary, theme.ColorNameBackground} {
			under := th.Color(n, theme.VariantDark)
			if r := contrast(over(under, focus), under); r < 1.5 {
				t.Errorf("%s theme: a focused %s differs from an unfocused one by %.2f:1, want 1.5:1 or more", setting, n, r)
			}
		}
		if th.Size(theme.SizeNameInputBorder) < 2 {
			t.Errorf("%s theme: a field's outline is %v px, want 2 or more", setting, th.Size(theme.SizeNameInputBorder))
		}
	}
}

// Fyne and the reply view compare themes to learn whether one changed
// (a theme that cannot be compared panics there): the same settings give
// equal themes, other settings other ones.
func TestThemesCompare(t *testing.T) {
	all := []app.Settings{{}, {Theme: storage.ThemeDark}, {HighContrast: true}, {Theme: storage.ThemeLight, HighContrast: true, TextSize: 150}, {TextSize: 90}}
	for i, a := range all {
		for j, b := range all {
			var x, y fyne.Theme = ThemeFor(a), ThemeFor(b)
			if same := x == y; same != (i == j) {
				t.Errorf("%+v and %+v: themes equal %v", a, b, same)
			}
		}
	}
}

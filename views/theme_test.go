package views

import (
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

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
		setting string
		asked   fyne.ThemeVariant // what the system asks for
	}{
		{storage.ThemeSystem, theme.VariantDark},
		{storage.ThemeSystem, theme.VariantLight},
		{storage.ThemeDark, theme.VariantLight},
		{storage.ThemeLight, theme.VariantDark},
	}
	for _, c := range cases {
		th := ThemeFor(c.setting)
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

// The light and dark settings hold whatever the system prefers.
func TestThemeSettingForcesVariant(t *testing.T) {
	for _, asked := range []fyne.ThemeVariant{theme.VariantDark, theme.VariantLight} {
		light := ThemeFor(storage.ThemeLight).Color(theme.ColorNameBackground, asked)
		dark := ThemeFor(storage.ThemeDark).Color(theme.ColorNameBackground, asked)
		if contrast(light, color.White) > 1.1 {
			t.Errorf("light theme with the system asking for %s: background %v is not light", variantName(asked), light)
		}
		if contrast(dark, color.Black) > 1.5 {
			t.Errorf("dark theme with the system asking for %s: background %v is not dark", variantName(asked), dark)
		}
	}
	sys := ThemeFor(storage.ThemeSystem)
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
	for _, setting := range []string{storage.ThemeDark, storage.ThemeLight} {
		th := ThemeFor(setting)
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

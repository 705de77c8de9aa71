package views

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/agentdesk/agentdesk/app"
)

// appTheme is Fyne's theme with a forced variant when the setting names one,
// and readable colours: Fyne draws secondary text in the disabled colour,
// next to invisible, so it is made grey enough to read (at least 4.5:1) yet
// fainter than text; a disabled button loses its fill to still look disabled.
type appTheme struct {
	fyne.Theme
	variant fyne.ThemeVariant
	forced  bool
}

var (
	disabledGreys = [2]color.Color{color.NRGBA{R: 0x76, G: 0x76, B: 0x76, A: 0xff}, color.NRGBA{R: 0x8e, G: 0x8e, B: 0x93, A: 0xff}}
	// themeColors are the light and the dark variant's own colours; nil is Fyne's.
	themeColors = map[fyne.ThemeColorName][2]color.Color{
		// Fyne outlines fields and check boxes in the disabled grey too.
		theme.ColorNameDisabled:    disabledGreys,
		theme.ColorNameInputBorder: disabledGreys,
		// Fyne's focus tint is too faint to see on a button; this one shows on grey
		// and blue buttons and list rows.
		theme.ColorNameFocus: {color.NRGBA{R: 0x00, G: 0x2a, B: 0x80, A: 0x80}, color.NRGBA{R: 0xa8, G: 0xc8, B: 0xff, A: 0x73}},
		// Fyne's status colours are bright enough for its dark background only.
		theme.ColorNameSuccess: {color.NRGBA{R: 0x18, G: 0x80, B: 0x38, A: 0xff}, nil},
		theme.ColorNameWarning: {color.NRGBA{R: 0xa0, G: 0x5a, B: 0x00, A: 0xff}, nil},
		theme.ColorNameError:   {color.NRGBA{R: 0xd3, G: 0x2f, B: 0x2f, A: 0xff}, nil},
	}
)

func (t appTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if t.forced {
		v = t.variant
	}
	if n == theme.ColorNameDisabledButton {
		// On a dialog or in a field, a disabled button shows as a faint box.
		n = theme.ColorNameBackground
	}
	dark := 0
	if v != theme.VariantLight {
		dark = 1
	}
	if c := themeColors[n][dark]; c != nil {
		return c
	}
	return t.Theme.Color(n, v)
}

// Size makes field outlines 2 px so the focused one stands out.
func (t appTheme) Size(n fyne.ThemeSizeName) float32 {
	if n == theme.SizeNameInputBorder {
		return 2
	}
	return t.Theme.Size(n)
}

// ThemeFor returns the Fyne theme for a theme setting.
func ThemeFor(setting string) fyne.Theme {
	variant, forced := map[string]fyne.ThemeVariant{app.ThemeLight: theme.VariantLight, app.ThemeDark: theme.VariantDark}[setting]
	return appTheme{Theme: theme.DefaultTheme(), variant: variant, forced: forced}
}

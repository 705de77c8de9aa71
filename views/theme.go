package views

import (
	"github.com/agentdesk/agentdesk/app"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
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

// The disabled greys; Fyne outlines fields and check boxes in them too.
var (
	DisabledDark  = color.NRGBA{R: 0x8e, G: 0x8e, B: 0x93, A: 0xff}
	DisabledLight = color.NRGBA{R: 0x76, G: 0x76, B: 0x76, A: 0xff}
)

var (
	focusLight = color.NRGBA{R: 0x00, G: 0x2a, B: 0x80, A: 0x80}
	focusDark  = color.NRGBA{R: 0xa8, G: 0xc8, B: 0xff, A: 0x73}
)

// The light variant's status colours, readable on white.
var (
	successLight = color.NRGBA{R: 0x18, G: 0x80, B: 0x38, A: 0xff}
	warningLight = color.NRGBA{R: 0xa0, G: 0x5a, B: 0x00, A: 0xff}
	errorLight   = color.NRGBA{R: 0xd3, G: 0x2f, B: 0x2f, A: 0xff}
)

func (t appTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if t.forced {
		v = t.variant
	}
	switch n {
	case theme.ColorNameDisabled, theme.ColorNameInputBorder:
		if v == theme.VariantLight {
			return DisabledLight
		}
		return DisabledDark
	case theme.ColorNameFocus:
		// Fyne's focus tint is too faint to see on a button; this one shows on grey
		// and blue buttons and list rows.
		if v == theme.VariantLight {
			return focusLight
		}
		return focusDark
	case theme.ColorNameDisabledButton:
		// On a dialog or in a field, a disabled button shows as a faint box.
		return t.Theme.Color(theme.ColorNameBackground, v)
	}
	if v == theme.VariantLight {
		// Fyne's status colours are bright enough for its dark background only.
		switch n {
		case theme.ColorNameSuccess:
			return successLight
		case theme.ColorNameWarning:
			return warningLight
		case theme.ColorNameError:
			return errorLight
		}
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
	switch setting {
	case app.ThemeLight:
		return appTheme{Theme: theme.DefaultTheme(), variant: theme.VariantLight, forced: true}
	case app.ThemeDark:
		return appTheme{Theme: theme.DefaultTheme(), variant: theme.VariantDark, forced: true}
	}
	return appTheme{Theme: theme.DefaultTheme()}
}

package views

import (
	"github.com/agentdesk/agentdesk/app"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// appTheme is Fyne's own theme with the light or dark variant forced when
// the theme setting names one ("system" follows the system), and with
// colours that can be read: the disabled colour, and in the light variant
// the status colours.
//
// Fyne draws a low-importance label, the app's secondary text (counts,
// hints, the second line of every list row), in the colour of disabled
// controls, which in its theme is 1.6:1 against the dark background and
// 1.3:1 against the light one: next to invisible. Here it is grey enough to
// read (DisabledDark, DisabledLight: 4.5:1 or more) and still plainly
// fainter than the text beside it; and a disabled button loses its fill, so
// it keeps looking disabled beside an enabled one.
type appTheme struct {
	fyne.Theme
	variant fyne.ThemeVariant
	forced  bool
}

// The disabled greys: 5.5:1 against the dark background (text is 16:1),
// 4.5:1 against the light one (text is 7.3:1). Fyne outlines fields, check
// boxes and radio buttons in the same colour, so those reach 3:1 too.
var (
	DisabledDark  = color.NRGBA{R: 0x8e, G: 0x8e, B: 0x93, A: 0xff}
	DisabledLight = color.NRGBA{R: 0x76, G: 0x76, B: 0x76, A: 0xff}
)

// The focus tints: a dark blue over the light variant's greys and blue, a
// pale blue over the dark variant's.
var (
	focusLight = color.NRGBA{R: 0x00, G: 0x2a, B: 0x80, A: 0x80}
	focusDark  = color.NRGBA{R: 0xa8, G: 0xc8, B: 0xff, A: 0x73}
)

// The light variant's status colours, 4.5:1 or more against white.
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
		// What has the keyboard: Fyne's own is a 16 % tint of blue, which
		// staff could not see on a button; this one is plain on grey
		// buttons, on blue ones and on list rows.
		if v == theme.VariantLight {
			return focusLight
		}
		return focusDark
	case theme.ColorNameDisabledButton:
		// The window's background: on a dialog or inside a field, whose
		// backgrounds differ, a disabled button shows as a faint box.
		return t.Theme.Color(theme.ColorNameBackground, v)
	}
	if v == theme.VariantLight {
		// Fyne's status colours are bright enough for its dark background
		// only: on white its green is 1.5:1, its orange 2.2:1, its red 3.8:1.
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

// Size makes a text field's outline 2 px, so that the one with the
// keyboard (outlined in the primary colour) stands out.
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

package views

import (
	"cmp"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/views/kit"
)

// appTheme is Fyne's theme with a forced variant when the setting names one,
// and readable colours: Fyne draws secondary text in the disabled colour,
// next to invisible, so it is made grey enough to read (at least 4.5:1) yet
// fainter than text; a disabled button loses its fill to still look disabled.
// High contrast swaps in a palette of its own.
type appTheme struct {
	fyne.Theme
	variant fyne.ThemeVariant
	forced  bool
	// contrast draws with contrastColors. Every field is comparable: Fyne
	// and the reply view compare themes to learn whether one changed.
	contrast bool
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
	// contrastColors are the high-contrast palette: black on white, and white
	// on black with yellow focus and links as Windows' own high-contrast
	// theme has.
	contrastColors = map[fyne.ThemeColorName][2]color.Color{
		theme.ColorNameBackground:          {rgb(0xffffff), rgb(0x000000)},
		theme.ColorNameForeground:          {rgb(0x000000), rgb(0xffffff)},
		theme.ColorNameButton:              {rgb(0xd0d0d0), rgb(0x3a3a3a)},
		theme.ColorNamePrimary:             {rgb(0x0000c0), rgb(0x0037b3)},
		theme.ColorNameForegroundOnPrimary: {rgb(0xffffff), rgb(0xffffff)},
		theme.ColorNameHyperlink:           {rgb(0x0000c0), rgb(0xffff00)},
		theme.ColorNameDisabled:            {rgb(0x4d4d4d), rgb(0xa6a6a6)},
		theme.ColorNamePlaceHolder:         {rgb(0x4d4d4d), rgb(0xa6a6a6)},
		theme.ColorNameInputBorder:         {rgb(0x000000), rgb(0xffffff)},
		theme.ColorNameInputBackground:     {rgb(0xf0f0f0), rgb(0x1c1c1c)},
		theme.ColorNameSeparator:           {rgb(0x000000), rgb(0xffffff)},
		theme.ColorNameHeaderBackground:    {rgb(0xe6e6e6), rgb(0x1a1a1a)},
		theme.ColorNameMenuBackground:      {rgb(0xffffff), rgb(0x000000)},
		theme.ColorNameOverlayBackground:   {rgb(0xffffff), rgb(0x000000)},
		theme.ColorNameFocus:               {color.NRGBA{R: 0xff, B: 0xff, A: 0xcc}, color.NRGBA{R: 0xff, G: 0xff, A: 0x99}},
		theme.ColorNameHover:               {color.NRGBA{B: 0xff, A: 0x30}, color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0x40}},
		theme.ColorNamePressed:             {color.NRGBA{B: 0xff, A: 0x50}, color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0x60}},
		theme.ColorNameSelection:           {color.NRGBA{B: 0xff, A: 0x40}, color.NRGBA{R: 0x1a, G: 0xeb, B: 0xff, A: 0x60}},
		theme.ColorNameScrollBar:           {color.NRGBA{A: 0xb0}, color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xb0}},
		theme.ColorNameSuccess:             {rgb(0x006400), rgb(0x3ff23f)},
		theme.ColorNameWarning:             {rgb(0x7a4100), rgb(0xffb000)},
		theme.ColorNameError:               {rgb(0xb00000), rgb(0xff6b6b)},
	}
)

func rgb(v uint32) color.Color {
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

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
	if c := contrastColors[n][dark]; t.contrast && c != nil {
		return c
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

// ThemeFor returns the Fyne theme for the settings' theme, contrast and
// text size.
func ThemeFor(s app.Settings) fyne.Theme {
	variant, forced := map[string]fyne.ThemeVariant{app.ThemeLight: theme.VariantLight, app.ThemeDark: theme.VariantDark}[s.Theme]
	t := appTheme{Theme: theme.DefaultTheme(), variant: variant, forced: forced, contrast: s.HighContrast}
	return kit.TextScaled{Theme: t, Scale: float32(cmp.Or(s.TextSize, 100)) / 100}
}

// look is what of the settings the theme is made from.
type look struct {
	theme    string
	size     int
	contrast bool
}

func lookOf(s app.Settings) look { return look{s.Theme, cmp.Or(s.TextSize, 100), s.HighContrast} }

package views

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/agentdesk/agentdesk/storage"
)

// variantTheme is Fyne's own theme with the light or dark variant forced,
// for the theme setting; "system" uses the default theme as it is.
type variantTheme struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

func (t variantTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.variant)
}

// ThemeFor returns the Fyne theme for a theme setting.
func ThemeFor(setting string) fyne.Theme {
	switch setting {
	case storage.ThemeLight:
		return variantTheme{Theme: theme.DefaultTheme(), variant: theme.VariantLight}
	case storage.ThemeDark:
		return variantTheme{Theme: theme.DefaultTheme(), variant: theme.VariantDark}
	}
	return theme.DefaultTheme()
}

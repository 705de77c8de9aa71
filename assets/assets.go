// Package assets holds the files Agent Desk embeds in its binary: the app
// icon, drawn for this project (icon.svg is its source; icon.png is rendered
// from it at 512×512).
package assets

import (
	_ "embed"

	"fyne.io/fyne/v2"
)

//go:embed icon.png
var iconPNG []byte

// Icon is the app icon, used for the window and desktop notifications.
var Icon = fyne.NewStaticResource("agentdesk.png", iconPNG)

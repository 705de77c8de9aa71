// Package assets holds the files Agent Desk embeds in its binary: the app
// icon, drawn for this project (icon.svg is its source; icon.png is rendered
// from it at 512×512).
package assets

import (
	_ "embed"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

//go:embed icon.png
var iconPNG []byte

// Icon is the app icon at full size, for desktop notifications.
var Icon = fyne.NewStaticResource("agentdesk.png", iconPNG)

//go:embed linux/icons/hicolor/128x128/apps/agentdesk.png
var windowIconPNG []byte

// WindowIcon is the icon of the window (title bar, task switcher): 128 px
// is more than any of them shows, and the window system is handed every
// pixel of it at start-up (a 512 px icon is a 1 MB window property, and
// its decoding is on the way to the first frame).
var WindowIcon = fyne.NewStaticResource("agentdesk-window.png", windowIconPNG)

//go:embed chat.svg
var chatSVG []byte

// ChatIcon is a speech bubble for chats and chat agents, in the theme's
// colours like Fyne's own icons (Fyne has none: its envelope reads as
// e-mail).
var ChatIcon = theme.NewThemedResource(fyne.NewStaticResource("chat.svg", chatSVG))

//go:embed star.svg
var starSVG []byte

//go:embed star-filled.svg
var starFilledSVG []byte

// StarIcon and StarredIcon mark an agent that is not, and one that is, among
// the favourites (Fyne has no star).
var (
	StarIcon    = theme.NewThemedResource(fyne.NewStaticResource("star.svg", starSVG))
	StarredIcon = theme.NewThemedResource(fyne.NewStaticResource("star-filled.svg", starFilledSVG))
)

//go:build linux && cgo

package main

import (
	"image"
	"image/png"
	"os"
	"testing"

	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/internal/xfake"
	"github.com/agentdesk/agentdesk/storage"
)

// TestE2EFilesDraggedOverTheWindowAreHighlighted drags "files" over the
// real window as a file manager does (a button held, the drag source
// taking XdndSelection and offering text/uri-list): over a screen that
// takes files the window shows a frame in the theme's primary colour,
// and releasing the button takes it away; over one that does not, no
// frame (a card says where files go).
func TestE2EFilesDraggedOverTheWindowAreHighlighted(t *testing.T) {
	srv, _ := demoservice.NewTestService(t, demoservice.Options{APIKey: e2eKey})
	e := startE2EOn(t, srv.URL, func(s *storage.Settings) { s.WindowWidth, s.WindowHeight = 1024, 768 })
	e.WaitAgentsListed()
	// The card is in the middle of the window; the frame runs along the
	// window's left edge (x 6–8 of the screen), over the navigation.
	card := image.Rect(e.W/2-40, e.H/2-40, e.W/2+40, e.H/2+10)
	framed := func(name string) bool {
		p := e.Screenshot(name)
		if p == "" {
			t.Skip("no screenshots on this machine")
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatal(err)
		}
		return bluish(img, 7, 384) && bluish(img, 7, 600)
	}
	if framed("drag-0-before") {
		t.Fatal("the window is highlighted before anything is dragged")
	}

	t.Setenv("DISPLAY", e.Display)
	x, err := xfake.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	drag := func() {
		e.xdo("mousemove", "600", "400")
		e.xdo("mousedown", "1")
		x.TakeXdndSelection(x.Source()) // a source offering files (text/uri-list)
		e.xdo("mousemove", "610", "405")
	}

	// The agents screen with no agent open takes no files: a card in the
	// middle of the window says where they go, without the frame.
	before := e.Shot()
	drag()
	e.WaitChange("the card that says where files go", card, before)
	if framed("drag-1-refused") {
		t.Fatal("the agents screen with no agent open is framed as if it took the files")
	}
	e.xdo("mouseup", "1")
	e.WaitScreen("the card to go", func(img *image.RGBA) bool { return sameIn(img, before, card) })

	// The Files screen takes them.
	before = e.Shot()
	e.Key("ctrl+3")
	e.WaitChange("the Files screen", e.screenArea(), before)
	drag()
	e.WaitFor("the drop highlight", func() bool { return framed("drag-2-over") })
	e.xdo("mouseup", "1")
	e.WaitFor("the highlight to go after the drop", func() bool { return !framed("drag-3-after") })
}

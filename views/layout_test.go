package views

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

// TestEveryScreenLaysOutAfterEachAction opens every screen in each language
// at each size, makes the window small and large again, and after each
// looks as the window would draw it: nothing drawn over anything, nothing
// cut off.
func TestEveryScreenLaysOutAfterEachAction(t *testing.T) {
	for _, tc := range []struct{ lang, loading string }{{"en", "Loading"}, {"pt-BR", "Carregando"}, {"es", "Cargando"}} {
		sizes := append(slices.Clone(kittest.Sizes), kittest.LargeTextSize)
		for i, size := range sizes {
			name := fmt.Sprintf("%vx%v", size.Width, size.Height)
			if i == len(sizes)-1 {
				name = kittest.LargeTextName(size)
			}
			t.Run(tc.lang+"/"+name, func(t *testing.T) {
				apptest.Speak(t, tc.lang)
				test.NewTempApp(t)
				q := kit.UseQueue(t)
				a := apptest.Open(t)
				w := test.NewTempWindow(t, widget.NewLabel(""))
				w.Resize(size)
				shell := NewShell(a, w)
				rememberSize(a, w)
				f := kittest.NewFrames(w.Canvas())
				for _, sp := range shell.screens {
					shell.Show(sp.Name)
					content := shell.Screen(sp.Name).Content()
					q.WaitUntil(t, func() bool { return !strings.Contains(kittest.AllText(content), tc.loading) },
						func() string { return kittest.AllText(content) })
					kittest.Look(t, f, q, w, "the "+sp.Name+" screen")
					if kittest.LargeText(t) {
						continue // large text is held at 1024×768 and up
					}
					w.Resize(fyne.NewSize(800, 600))
					kittest.Look(t, f, q, w, "the "+sp.Name+" screen made small")
					w.Resize(size)
					kittest.Look(t, f, q, w, "the "+sp.Name+" screen at its size again")
				}
			})
		}
	}
}

// TestTheConversationHasTheRoom: at 800x600, beside the rail and above the
// status bar, a chat's messages get at least 55 % of the window's height;
// the reply settings take one line.
func TestTheConversationHasTheRoom(t *testing.T) {
	for _, lang := range []string{"en", "pt-BR", "es"} {
		t.Run(lang, func(t *testing.T) {
			apptest.Speak(t, lang)
			test.NewTempApp(t)
			q := kit.UseQueue(t)
			a := apptest.Open(t)
			w := test.NewTempWindow(t, widget.NewLabel(""))
			size := fyne.NewSize(800, 600)
			w.Resize(size)
			shell := NewShell(a, w)
			rememberSize(a, w)
			f := kittest.NewFrames(w.Canvas())
			shell.Show(screen.ScreenChats)
			ag, err := a.Client().GetAgent(context.Background(), "101")
			if err != nil {
				t.Fatal(err)
			}
			chats := shell.Screen(screen.ScreenChats)
			chats.(interface{ OpenChat(client.Agent) }).OpenChat(*ag)
			var messages *kit.List
			q.WaitUntil(t, func() bool {
				f.Settle(q)
				messages = nil
				for _, l := range kittest.FindAll[*kit.List](chats.Content()) {
					if l.HideSeparators && l.Visible() {
						messages = l
					}
				}
				return messages != nil
			}, func() string { return kittest.AllText(chats.Content()) })
			kittest.Look(t, f, q, w, "a new chat")
			if h := messages.Size().Height; h < 0.55*size.Height {
				t.Fatalf("the messages get %v of the window's %v", h, size.Height)
			}
		})
	}
}

package views

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

// windowSizes are the sizes every screen must hold, in Fyne's units: a
// 3840×2160 screen at 200 % text scale is the 1920×1080 case.
var windowSizes = []fyne.Size{
	{Width: 800, Height: 600},
	{Width: 1024, Height: 768},
	{Width: 1366, Height: 768},
	{Width: 1920, Height: 1080},
	{Width: 3840, Height: 2160},
}

// TestNoAgentOrScreenSizesTheWindow opens every agent of the odd-agents
// demo (a 300-character title, CJK, right-to-left, HTML, every question
// type…) and every screen, at each size, and checks that the window's
// content still fits the window (nothing that asks for more room than there
// is, which Fyne answers by growing the window) and that the size kept in
// the settings is still the one the user chose.
func TestNoAgentOrScreenSizesTheWindow(t *testing.T) {
	for _, size := range windowSizes {
		t.Run(fmt.Sprintf("%vx%v", size.Width, size.Height), func(t *testing.T) {
			checkEveryScreenFits(t, size, size == windowSizes[0], "Loading")
		})
	}
}

// TestNoScreenIsClippedInPortugueseOrSpanish: Portuguese and Spanish run
// about a third longer than English; every screen and the odd agents
// still fit the smallest window and a 1024×768 one, nothing clipped.
func TestNoScreenIsClippedInPortugueseOrSpanish(t *testing.T) {
	for _, tc := range []struct{ lang, loading string }{{"pt-BR", "Carregando"}, {"es", "Cargando"}} {
		for _, size := range windowSizes[:2] {
			t.Run(fmt.Sprintf("%s/%vx%v", tc.lang, size.Width, size.Height), func(t *testing.T) {
				apptest.Speak(t, tc.lang)
				checkEveryScreenFits(t, size, false, tc.loading)
			})
		}
	}
}

// checkEveryScreenFits opens every screen and the odd agents (every agent
// when all is true) in a window of size, checking after each that the
// window's content fits it (see TestNoAgentOrScreenSizesTheWindow);
// loading is the word the screens' loading states start with.
func checkEveryScreenFits(t *testing.T, size fyne.Size, all bool, loading string) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	useSeed(t, demoservice.SeedOdd)
	a := apptest.Open(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(size)
	shell := NewShell(a, w)
	rememberSize(a, w)
	inner := w.Content().(*fyne.Container).Objects[0]

	fits := func(where string) {
		t.Helper()
		if got := w.Canvas().Size(); got != size {
			t.Fatalf("%s: the window is %v, the user chose %v", where, got, size)
		}
		relayout(inner)
		if c := kittest.Clipped(inner); c != "" {
			t.Fatalf("%s at %v: %s", where, size, c)
		}
		if min := inner.MinSize(); min.Width > size.Width || min.Height > size.Height {
			t.Fatalf("%s: the content asks for %v in a %v window: something does not truncate or wrap", where, min, size)
		}
	}

	agents := shell.Screen(screen.ScreenAgents).Content()
	var list *kit.List
	q.WaitUntil(t, func() bool {
		list = kittest.Find[*kit.List](agents)
		return list != nil && list.Length() > 0 && !strings.Contains(kittest.AllText(agents), loading)
	},
		func() string { return kittest.AllText(agents) })
	fits("the agents list")
	// Selecting a row scrolls to it, and the list loads its next
	// page as its end comes into view. The first size opens every
	// agent; the others the odd ones, which come last.
	first := 0
	if !all {
		for n := -1; n != list.Length(); {
			n = list.Length()
			list.ScrollToBottom()
			q.WaitUntil(t, func() bool { return !strings.Contains(kittest.AllText(agents), loading) },
				func() string { return kittest.AllText(agents) })
		}
		first = list.Length() - oddAgents
	}
	seen := 0
	for i := first; i < list.Length(); i++ {
		list.Select(i)
		q.WaitUntil(t, func() bool { return !strings.Contains(kittest.AllText(agents), loading) },
			func() string { return kittest.AllText(agents) })
		fits(fmt.Sprintf("agent %d (%s)", i, agentTitle(list, i)))
		seen++
	}
	if seen < oddAgents {
		t.Fatalf("only %d agents were opened; the odd-agents demo has more", seen)
	}
	for _, sp := range shell.screens {
		shell.Show(sp.Name)
		content := shell.Screen(sp.Name).Content()
		q.WaitUntil(t, func() bool { return !strings.Contains(kittest.AllText(content), loading) },
			func() string { return kittest.AllText(content) })
		fits("the " + sp.Name + " screen")
	}
	a.FlushDrafts()
	if s := a.Settings(); s.WindowWidth != size.Width || s.WindowHeight != size.Height {
		t.Fatalf("the saved window size is %v×%v after browsing, the user chose %v", s.WindowWidth, s.WindowHeight, size)
	}
}

// oddAgents is how many agents the odd-agents demo adds at the end of the
// usual ones (at least).
const oddAgents = 25

// TestASavedSizeIsFittedToASmallerScreen: a size saved on a big screen
// opens within a laptop's; a window is never made smaller than WindowMin.
func TestASavedSizeIsFittedToASmallerScreen(t *testing.T) {
	screen := fyne.NewSize(800, 600)
	got := fitScreen(fyne.NewSize(3000, 2000), screen)
	if got.Width+windowFrame.Width > screen.Width || got.Height+windowFrame.Height > screen.Height {
		t.Fatalf("a 3000×2000 window on an 800×600 screen opens at %v", got)
	}
	if got := fitScreen(fyne.NewSize(1024, 720), fyne.NewSize(1920, 1080)); got != fyne.NewSize(1024, 720) {
		t.Fatalf("a size that fits should be kept, got %v", got)
	}
	if got := fitScreen(fyne.NewSize(300, 200), fyne.NewSize(1920, 1080)); got != WindowMin {
		t.Fatalf("a saved size under the minimum should open at the minimum, got %v", got)
	}
	// 1366×768 at 200 %: smaller than the minimum, the window still fits.
	small := fyne.NewSize(683, 384)
	if got := fitScreen(fyne.NewSize(1024, 720), small); got.Width+windowFrame.Width > small.Width || got.Height+windowFrame.Height > small.Height {
		t.Fatalf("on a screen smaller than the minimum the window should still fit it, got %v", got)
	}
}

// TestLongContentDoesNotRaiseTheWindowMinimum: a label of any length in the
// window's content leaves the window's minimum size at WindowMin.
func TestLongContentDoesNotRaiseTheWindowMinimum(t *testing.T) {
	test.NewTempApp(t)
	a := apptest.Open(t)
	w := test.NewTempWindow(t, widget.NewLabel(strings.Repeat("A very long title ", 200)))
	w.Resize(fyne.NewSize(900, 650))
	rememberSize(a, w)
	if min := w.Content().MinSize(); min.Width > WindowMin.Width {
		t.Fatalf("a long label makes the window at least %v wide", min.Width)
	}
	a.FlushDrafts()
	if s := a.Settings(); s.WindowWidth != 900 {
		t.Fatalf("the saved width is %v, the window is 900", s.WindowWidth)
	}
}

// useSeed makes the built-in demo hold seed's agents for this test.
func useSeed(t *testing.T, seed string) {
	t.Helper()
	if err := demoservice.SetDefaultSeed(seed); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = demoservice.SetDefaultSeed(demoservice.SeedStandard) })
}

// relayout lays out every container and widget under o again, top down, as
// the window does before it draws; the test driver lays out only when a
// size changes, so a label whose text changed may still have its old size.
func relayout(o fyne.CanvasObject) {
	if !o.Visible() {
		return
	}
	switch v := o.(type) {
	case *fyne.Container:
		if v.Layout != nil {
			v.Layout.Layout(v.Objects, v.Size())
		}
	case fyne.Widget:
		test.WidgetRenderer(v).Layout(v.Size())
	}
	for _, c := range kittest.Children(o) {
		relayout(c)
	}
}

// agentTitle is what row i of the agents list says first.
func agentTitle(list *kit.List, i int) string {
	row := list.CreateItem()
	list.UpdateItem(i, row)
	return kittest.FirstWords(kit.RowContent(row))
}

package screen_test

import (
	"net/url"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

// A text is saved in the form its name asks for: as written, as plain
// text for any program, or as a web page.
func TestTextIsSavedInTheFormItsNameAsks(t *testing.T) {
	md := "# Minutes\n\n**Decided:** the *move* in May.\n\n- Ana\n- Ben"
	if got := string(screen.TextFile("minutes.md", "Minutes", md)); got != md {
		t.Errorf(".md should keep the text as written, got %q", got)
	}
	plain := string(screen.TextFile("Minutes.TXT", "Minutes", md))
	if strings.ContainsAny(plain, "*#") || !strings.Contains(plain, "Decided: the move in May.") || !strings.Contains(plain, "Ana") {
		t.Errorf(".txt should be the words without the marks, got %q", plain)
	}
	if doc := screen.TextFile("minutes.docx", "Minutes", md); len(doc) < 4 || string(doc[:2]) != "PK" {
		t.Errorf(".docx should be a Word document (a zip), got %q…", doc[:min(len(doc), 20)])
	}
	page := string(screen.TextFile("minutes.html", "Minutes", md))
	if !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.Contains(page, "<strong>Decided:</strong>") {
		t.Errorf(".html should be a web page, got %q", page)
	}
}

// A saved file is confirmed with its place, and "Show in folder" opens the
// folder that holds it.
func TestSavedFileIsConfirmedWithItsFolder(t *testing.T) {
	w := kittest.DialogWindow(t)
	var opened []string
	env := screen.Env{Window: w, Opener: func(u *url.URL) error { opened = append(opened, u.String()); return nil }}
	screen.ShowSaved(env, "Saved", "/home/ana/Documents/minutes.md")
	top := w.Canvas().Overlays().Top()
	if top == nil || !strings.Contains(kittest.AllText(top), "/home/ana/Documents/minutes.md") {
		t.Fatal("the confirmation should say where the file is")
	}
	b := kittest.FindButton(top, "Show in folder")
	if b == nil {
		t.Fatal("the confirmation should offer Show in folder")
	}
	b.OnTapped()
	if len(opened) != 1 || opened[0] != "file:///home/ana/Documents" || w.Canvas().Overlays().Top() != nil {
		t.Fatalf("Show in folder opened %v and should close the confirmation", opened)
	}
	// Enter closes it too.
	screen.ShowSaved(env, "Saved", "/tmp/a.txt")
	w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if w.Canvas().Overlays().Top() != nil {
		t.Fatal("Enter should close the confirmation")
	}
}

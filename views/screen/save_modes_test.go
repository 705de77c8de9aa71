package screen_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

// A file saved with Save as… (a conversation, a reply, the credits) is the
// user's only, though the Save dialog creates files readable by everyone.
func TestASavedFileIsTheUsersOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows keeps no such modes")
	}
	home := t.TempDir()
	t.Setenv("HOME", home) // where the Save dialog opens
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	a := apptest.Open(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(900, 700))
	kit.AnswerDialogKeys(w)

	screen.SaveText(screen.Env{App: a, Window: w}, "Minutes", "minutes.md", "# Minutes\n\nThe move is in May.")
	save := kittest.FindButton(w.Canvas().Overlays().Top(), "Save")
	if save == nil || save.Disabled() {
		t.Fatal("the Save dialog offers no Save")
	}
	save.OnTapped()
	path := filepath.Join(home, "minutes.md")
	q.WaitUntil(t, func() bool {
		top := w.Canvas().Overlays().Top()
		return top != nil && strings.Contains(kittest.AllText(top), path)
	}, func() string { return "the saved file's confirmation" })
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if mode := st.Mode().Perm(); mode != 0o600 {
		t.Errorf("the saved file is %o, want 600", mode)
	}
	if data, err := os.ReadFile(path); err != nil || !strings.Contains(string(data), "The move is in May.") {
		t.Errorf("the saved file holds %q, %v", data, err)
	}
}

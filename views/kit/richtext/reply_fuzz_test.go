package richtext

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/agentdesk/agentdesk/client/demoservice"
)

// FuzzReplyMarkdown: any reply, whole or arriving in pieces, is shown
// without a panic and laid out at a narrow width, and the reply's source
// is kept whole.
func FuzzReplyMarkdown(f *testing.F) {
	for _, s := range []string{
		demoservice.RichReply()[:4000],
		"| a | b |\n|---|:-:|\n| 1 \\| 2 | `x|y` |\n\n```go\nfunc main() {}\n```\n",
		"Intro:\n| a |\n|---|\n| long cell with **bold** and [link](https://example.com) |\nafter\n\n[^1]: note",
		"```\n\tunclosed\r\n字字字字字字字字字字字字字字字字字字字字字字字字字字字字字字字",
		"| `id` | b |\n|---|---|\n| 1 | 2 |",
		"- a\n  - b\n    - c\n\n> quote\n\n~~~\ncode\n~~~\n\n<b>raw</b> &amp; [^x]",
	} {
		f.Add(s)
	}
	test.NewTempApp(f)
	// the test theme has no bold monospace face (a code span in a table's
	// header); the real one has
	fyne.CurrentApp().Settings().SetTheme(theme.DefaultTheme())
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 8<<10 {
			return
		}
		whole := NewMarkdown(src, nil)
		whole.Resize(fyne.NewSize(300, whole.MinSize().Height))
		streamed := NewMarkdown("", nil)
		for i := 0; i < len(src); i += 7 {
			streamed.Append(src[i:min(i+7, len(src))])
			streamed.Flush(false)
		}
		streamed.Flush(true)
		streamed.Resize(fyne.NewSize(300, streamed.MinSize().Height))
		if whole.Text() != src || streamed.Text() != src {
			t.Fatal("the reply lost text")
		}
	})
}

package chat

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/views/kit/kittest"
)

// A paste of 100,000 characters is kept beside the message box as a chip
// that names its size, survives closing the conversation, and is sent with
// what was typed; a short paste goes into the box as usual.
func TestALongPasteIsKeptAsAChipAndSentWhole(t *testing.T) {
	s, a := openScreen(t)
	v := startChat(t, s, a)
	cb := fyne.CurrentApp().Clipboard()

	cb.SetContent("short note")
	v.entry.TypedShortcut(&fyne.ShortcutPaste{Clipboard: cb})
	if v.entry.Text != "short note" || len(v.pastes.texts) != 0 {
		t.Fatalf("a short paste goes into the box: box %q, chips %d", v.entry.Text, len(v.pastes.texts))
	}
	v.entry.SetText("")

	test.Type(v.entry, "Summarise this:")
	long := strings.Repeat("Row 17; invoice 2291; paid in full on time.\n", 100_000/40)[:100_000]
	cb.SetContent(long)
	v.entry.TypedShortcut(&fyne.ShortcutPaste{Clipboard: cb})
	if v.entry.Text != "Summarise this:" {
		t.Fatalf("a long paste should not go into the box, which holds %d characters", len(v.entry.Text))
	}
	if got := kittest.AllText(v.pastes.box); !strings.Contains(got, "Pasted text · 100,000 characters") {
		t.Fatalf("the chip should name the paste's size, it says %q", got)
	}
	want := "Summarise this:\n\n" + strings.TrimSpace(long)

	// closing and opening the conversation again keeps the draft
	id := v.sess.ID()
	s.closeOpen()
	s.OpenConversation(id)
	v = s.open
	if v.composed() != want || len(v.pastes.texts) != 1 || v.entry.Text != "Summarise this:" {
		t.Fatalf("the draft should come back with the typed words in the box and the paste as a chip: %d characters, %d chips, box %q",
			len(v.composed()), len(v.pastes.texts), v.entry.Text)
	}

	v.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settle(v)
	msgs, _ := a.DB().Messages(context.Background(), v.sess.ID())
	if len(msgs) != 2 || msgs[0].Content != want {
		t.Fatalf("the message sent should be the typed text and the whole paste, got %d messages", len(msgs))
	}
	if v.entry.Text != "" || len(v.pastes.texts) != 0 || len(v.pastes.box.Objects) != 0 {
		t.Fatal("after sending, the box and the chips should be empty")
	}
	row, _ := v.rowObject(v.msgs[0], false, false, nil)
	shown := kittest.AllText(row)
	if len(shown) > maxShownChars+400 || !strings.Contains(shown, "more characters") {
		t.Fatalf("the sent message should show its start and say how much more there is; it shows %d characters", len(shown))
	}
}

// Remove on a chip takes the paste out of the message.
func TestRemovingAPastedChip(t *testing.T) {
	s, a := openScreen(t)
	v := startChat(t, s, a)
	cb := fyne.CurrentApp().Clipboard()
	cb.SetContent(strings.Repeat("x", maxShownChars+1))
	v.entry.TypedShortcut(&fyne.ShortcutPaste{Clipboard: cb})
	if len(v.pastes.texts) != 1 {
		t.Fatal("the paste should be a chip")
	}
	remove := kittest.FindButton(v.pastes.box, "Remove")
	if remove == nil {
		t.Fatal("the chip should have a Remove button")
	}
	test.Tap(remove)
	if len(v.pastes.texts) != 0 || v.composed() != "" {
		t.Fatalf("Remove should take the paste out: %d chips, message %d characters", len(v.pastes.texts), len(v.composed()))
	}
	if d := v.sess.Conversation().Draft; d != "" {
		t.Fatalf("the draft should be empty too, holds %d characters", len(d))
	}
}

// A pasted block of code keeps its indentation when sent.
func TestAPastedBlockKeepsItsIndent(t *testing.T) {
	if got := joinMessage("", []string{"\n    def f():\n        return 1\n"}); got != "    def f():\n        return 1" {
		t.Fatalf("sent %q", got)
	}
	if got := joinMessage("  Look:  ", []string{"\tx"}); got != "Look:\n\n\tx" {
		t.Fatalf("sent %q", got)
	}
}

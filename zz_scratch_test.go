package main

import (
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/storage"
)

func TestScratchKeys(t *testing.T) {
	e := startE2E(t, func(s *storage.Settings) { s.WindowWidth, s.WindowHeight = 1024, 768 })
	e.Key("ctrl+k")
	e.Type("image")
	time.Sleep(1500 * time.Millisecond)
	e.Screenshot("search")
	e.Key("Tab")
	e.Key("Tab")
	e.Key("space")
	time.Sleep(1500 * time.Millisecond)
	for i := 0; i < 7; i++ {
		e.Key("Tab")
	}
	time.Sleep(300 * time.Millisecond)
	e.Screenshot("form")
	e.Key("space")
	time.Sleep(500 * time.Millisecond)
	e.Screenshot("formadv")
	e.Key("ctrl+n")
	time.Sleep(1000 * time.Millisecond)
	e.Key("Return")
	time.Sleep(1500 * time.Millisecond)
	e.Screenshot("chat")
	e.Key("shift+Tab")
	e.Key("shift+Tab")
	e.Key("space")
	time.Sleep(500 * time.Millisecond)
	e.Screenshot("chatadv")
}

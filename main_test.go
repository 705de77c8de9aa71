package main

import (
	"strings"
	"testing"
)

// --serve-demo stays on this computer unless asked otherwise, and then
// needs a key of the user's own.
func TestServeDemoListensOnLoopbackUnlessGivenAKey(t *testing.T) {
	cases := []struct {
		addr, key, want, refused string
	}{
		{":8787", defaultDemoKey, "127.0.0.1:8787", ""},
		{"localhost:8787", defaultDemoKey, "127.0.0.1:8787", ""},
		{"127.0.0.1:8787", defaultDemoKey, "127.0.0.1:8787", ""},
		{"[::1]:8787", defaultDemoKey, "[::1]:8787", ""},
		{"0.0.0.0:8787", defaultDemoKey, "", "AGENTDESK_DEMO_KEY"},
		{"192.168.1.20:8787", defaultDemoKey, "", "well-known key"},
		{"0.0.0.0:8787", "s3cret-team-key", "0.0.0.0:8787", ""},
		{"8787", defaultDemoKey, "", "HOST:PORT"},
	}
	for _, c := range cases {
		got, err := demoListenAddr(c.addr, c.key)
		if c.refused != "" {
			if err == nil || !strings.Contains(err.Error(), c.refused) {
				t.Errorf("%s with key %q: listens on %q (%v), want a refusal naming %q", c.addr, c.key, got, err, c.refused)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s with key %q: %q, %v; want %q", c.addr, c.key, got, err, c.want)
		}
	}
}

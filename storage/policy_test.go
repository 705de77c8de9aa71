package storage

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const examplePolicy = `{
  "accounts": [
    {"name": "Acme", "base_url": "https://api.tess.im/", "workspace_id": "123", "locked": true, "api_key": "never read"},
    {"base_url": "https://agents.example.com/api", "workspace_id": 7}
  ],
  "language": {"value": "pt-BR", "locked": true},
  "requests_per_second": {"value": 2, "locked": false},
  "proxy": {"mode": "manual", "url": "http://proxy.acme.local:3128"},
  "certificates": ["/etc/agentdesk/acme-ca.pem"],
  "something_new": {"ignored": true}
}`

func TestParsePolicyReadsEveryField(t *testing.T) {
	p, err := ParsePolicy([]byte(examplePolicy))
	if err != nil {
		t.Fatal(err)
	}
	want := Policy{
		Accounts: []PolicyAccount{
			{Name: "Acme", BaseURL: "https://api.tess.im", WorkspaceID: "123", Locked: true},
			{Name: "agents.example.com", BaseURL: "https://agents.example.com/api", WorkspaceID: "7"},
		},
		Language:          &PolicyString{Value: "pt-BR", Locked: true},
		RequestsPerSecond: &PolicyNumber{Value: 2},
		Proxy:             &PolicyProxy{ProxySetting: ProxySetting{Mode: ProxyManual, URL: "http://proxy.acme.local:3128"}},
		Certificates:      []string{"/etc/agentdesk/acme-ca.pem"},
	}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("parsed\n%+v\nwant\n%+v", p, want)
	}
}

func TestParsePolicyRefusesWhatItCannotApply(t *testing.T) {
	for _, bad := range []string{
		``, `[]`, `{"language": "pt-BR"}`, `{"language": {"value": "fr"}}`,
		`{"accounts": [{"name": "no address"}]}`,
		`{"accounts": [{"base_url": "ftp://x"}]}`,
		`{"accounts": [{"base_url": "https://me:secret@x.example"}]}`,
		`{"accounts": [{"base_url": "https://x.example", "workspace_id": "abc"}]}`,
		`{"accounts": [{"base_url": "https://x.example", "workspace_id": 1.5}]}`,
		`{"accounts": [{"base_url": "https://x.example"}, {"base_url": "https://x.example/"}]}`,
		`{"requests_per_second": {"value": 0}}`, `{"requests_per_second": {"value": -1}}`,
		`{"proxy": {"mode": "pac"}}`, `{"proxy": {"mode": "manual"}}`,
		`{"certificates": [""]}`, `{} {}`, `{"language": {"value": "es"}`,
	} {
		if p, err := ParsePolicy([]byte(bad)); err == nil {
			t.Errorf("%s was read as %+v", bad, p)
		}
	}
}

func TestLoadPolicy(t *testing.T) {
	dir := t.TempDir()
	if p, err := LoadPolicy(filepath.Join(dir, "none.json")); err != nil || !p.IsZero() {
		t.Fatalf("no file: %+v, %v", p, err)
	}
	if p, err := LoadPolicy(""); err != nil || !p.IsZero() {
		t.Fatalf("no path: %+v, %v", p, err)
	}
	path := filepath.Join(dir, "policy.json")
	if err := os.WriteFile(path, []byte(`{"language": {"value": "klingon"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadPolicy(path)
	if e, ok := errors.AsType[*Error](err); !ok || e.Path != path || !strings.Contains(e.Reason, "klingon") {
		t.Fatalf("a broken file should be an *Error naming it and what is wrong, got %v", err)
	}
}

func TestDefaultPolicyFile(t *testing.T) {
	t.Setenv("ProgramData", `D:\PD`)
	for goos, want := range map[string]string{
		"linux":   "/etc/agentdesk/policy.json",
		"freebsd": "/etc/agentdesk/policy.json",
		"darwin":  "/Library/Application Support/Agent Desk/policy.json",
		"windows": `D:\PD\Agent Desk\policy.json`,
	} {
		if got := DefaultPolicyFile(goos); got != want {
			t.Errorf("%s: %q, want %q", goos, got, want)
		}
	}
}

// FuzzPolicy: any text is read or refused without a panic; what is read
// holds only values Agent Desk can apply, and reads the same written again.
func FuzzPolicy(f *testing.F) {
	for _, s := range []string{examplePolicy, `{}`, `{"accounts": [{"base_url": "http://127.0.0.1:8080", "workspace_id": 1e3}]}`,
		`{"requests_per_second": {"value": 1e309}}`, `{"proxy": {"mode": "none", "locked": true}}`, `null`, `{"accounts": null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePolicy(data)
		if err != nil {
			if !p.IsZero() {
				t.Fatalf("a refused file still presets %+v", p)
			}
			return
		}
		for _, a := range p.Accounts {
			if checkPolicyURL(a.BaseURL) != nil || strings.HasSuffix(a.BaseURL, "/") || a.Name == "" {
				t.Fatalf("account read as %+v", a)
			}
		}
		if l := p.Language; l != nil && l.Value != "en" && l.Value != "pt-BR" && l.Value != "es" {
			t.Fatalf("language read as %q", l.Value)
		}
		if n := p.RequestsPerSecond; n != nil && !(n.Value > 0 && n.Value <= 1000) {
			t.Fatalf("pace read as %v", n.Value)
		}
		out, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParsePolicy(out)
		if err != nil {
			t.Fatalf("%s, written again as %s, is refused: %v", data, out, err)
		}
		if !reflect.DeepEqual(normalPolicy(p), normalPolicy(again)) {
			t.Fatalf("%s reads %+v, written again %+v", data, p, again)
		}
	})
}

// normalPolicy makes empty lists nil, as writing them leaves them out.
func normalPolicy(p Policy) Policy {
	if len(p.Accounts) == 0 {
		p.Accounts = nil
	}
	if len(p.Certificates) == 0 {
		p.Certificates = nil
	}
	return p
}

// The README's example policy file is one Agent Desk reads.
func TestREADMEPolicyExampleReads(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, it, ok := strings.Cut(string(data), "## For IT\n")
	if ok {
		_, it, ok = strings.Cut(it, "```json\n")
	}
	if ok {
		it, _, ok = strings.Cut(it, "```")
	}
	if !ok {
		t.Fatal("the README has no example policy file under For IT")
	}
	p, err := ParsePolicy([]byte(it))
	if err != nil {
		t.Fatalf("the README's example policy is refused: %v", err)
	}
	if len(p.Accounts) == 0 || p.Language == nil || p.RequestsPerSecond == nil || p.Proxy == nil || len(p.Certificates) == 0 {
		t.Fatalf("the README's example should show every key, reads %+v", p)
	}
}

package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Policy is what an organisation's IT hands out in a machine-wide policy
// file (DefaultPolicyFile): accounts (never keys), language and pace, each
// lockable; proxy and certificates are kept here for the network settings.
type Policy struct {
	Accounts []PolicyAccount `json:"accounts,omitempty"`
	// Language is "en", "pt-BR" or "es".
	Language *PolicyString `json:"language,omitempty"`
	// RequestsPerSecond is a pace greater than 0.
	RequestsPerSecond *PolicyNumber `json:"requests_per_second,omitempty"`
	Proxy             *PolicyProxy  `json:"proxy,omitempty"`
	// Certificates are paths of PEM files of authorities to trust.
	Certificates []string `json:"certificates,omitempty"`
}

// PolicyAccount is an account the organisation presets, matched to the
// user's by address and workspace.
type PolicyAccount struct {
	Name        string `json:"name,omitempty"`
	BaseURL     string `json:"base_url"`
	WorkspaceID string `json:"workspace_id,omitempty"`
	// Locked: the user can neither change its address and workspace nor remove it.
	Locked bool `json:"locked,omitempty"`
}

// PolicyString is a preset text value, locked or only suggested.
type PolicyString struct {
	Value  string `json:"value"`
	Locked bool   `json:"locked,omitempty"`
}

// PolicyNumber is a preset number, locked or only suggested.
type PolicyNumber struct {
	Value  float64 `json:"value"`
	Locked bool    `json:"locked,omitempty"`
}

// PolicyProxy is the organisation's proxy setting, locked or only suggested.
type PolicyProxy struct {
	ProxySetting
	Locked bool `json:"locked,omitempty"`
}

// IsZero tells that the policy presets nothing.
func (p Policy) IsZero() bool {
	return len(p.Accounts) == 0 && p.Language == nil && p.RequestsPerSecond == nil && p.Proxy == nil && len(p.Certificates) == 0
}

// policyLanguages are the languages a policy may set.
var policyLanguages = []string{"en", "pt-BR", "es"}

// maxPolicyBytes bounds what is read of a policy file.
const maxPolicyBytes = 1 << 20

// DefaultPolicyFile is where IT puts the policy file on this system.
func DefaultPolicyFile(goos string) string {
	switch goos {
	case "windows":
		dir := os.Getenv("ProgramData")
		if dir == "" {
			dir = `C:\ProgramData`
		}
		return dir + `\Agent Desk\policy.json`
	case "darwin":
		return "/Library/Application Support/Agent Desk/policy.json"
	}
	return "/etc/agentdesk/policy.json"
}

// PolicyRegistryKey is where Windows keeps the organisation's policy, under
// HKEY_LOCAL_MACHINE: its value "Policy" holds the policy file's text, as
// Group Policy hands it out.
const PolicyRegistryKey = `Software\Policies\Agent Desk`

// LoadMachinePolicy reads the policy Windows keeps under the registry key
// (HKLM; "" on other systems), else the policy file at path.
func LoadMachinePolicy(key, path string) (Policy, error) {
	if key == "" {
		return LoadPolicy(path)
	}
	data, err := registryPolicy(key)
	if errors.Is(err, fs.ErrNotExist) {
		return LoadPolicy(path)
	}
	where := `HKLM\` + key
	if err == nil && len(data) > maxPolicyBytes {
		err = errors.New("the value is larger than 1 MB")
	}
	var p Policy
	if err == nil {
		p, err = ParsePolicy(data)
	}
	if err != nil {
		return Policy{}, &Error{Op: "read the organisation's settings", Path: where, Reason: err.Error(), Err: err}
	}
	return p, nil
}

// LoadPolicy reads the policy file at path: none there (or no path) is an
// empty policy; an unreadable or invalid one is an *Error naming the file.
func LoadPolicy(path string) (Policy, error) {
	if path == "" {
		return Policy{}, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Policy{}, nil
	}
	if err != nil {
		return Policy{}, &Error{Op: "read the organisation's settings", Path: path, Reason: plainOSError(err), Err: err}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPolicyBytes+1))
	if err == nil && len(data) > maxPolicyBytes {
		err = errors.New("the file is larger than 1 MB")
	}
	if err != nil {
		return Policy{}, &Error{Op: "read the organisation's settings", Path: path, Reason: err.Error(), Err: err}
	}
	p, err := ParsePolicy(data)
	if err != nil {
		return Policy{}, &Error{Op: "read the organisation's settings", Path: filepath.Clean(path), Reason: err.Error(), Err: err}
	}
	return p, nil
}

// ParsePolicy reads a policy file's text. Unknown keys are ignored; a value
// out of place makes the whole file invalid, so nothing half-read applies.
func ParsePolicy(data []byte) (Policy, error) {
	var raw struct {
		Policy
		Accounts []struct {
			PolicyAccount
			WorkspaceID json.RawMessage `json:"workspace_id"`
		} `json:"accounts"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		return Policy{}, fmt.Errorf("it is not valid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Policy{}, errors.New("it has more than one JSON value")
	}
	p := raw.Policy
	p.Accounts = nil
	seen := map[string]bool{}
	for i, r := range raw.Accounts {
		a := r.PolicyAccount
		ws, err := workspaceText(r.WorkspaceID)
		if err != nil {
			return Policy{}, fmt.Errorf("account %d: %w", i+1, err)
		}
		a.WorkspaceID = ws
		a.Name = strings.TrimSpace(a.Name)
		a.BaseURL = strings.TrimRight(strings.TrimSpace(a.BaseURL), "/")
		if err := checkPolicyURL(a.BaseURL); err != nil {
			return Policy{}, fmt.Errorf("account %d: base_url %w", i+1, err)
		}
		if a.Name == "" {
			a.Name = strings.ToValidUTF8(hostOf(a.BaseURL), "\uFFFD") // %80 in a host decodes to a lone byte
		}
		k := PolicyAccountKey(a.BaseURL, a.WorkspaceID)
		if seen[k] {
			return Policy{}, fmt.Errorf("account %d: an account with the same base_url and workspace_id comes before it", i+1)
		}
		seen[k] = true
		p.Accounts = append(p.Accounts, a)
	}
	if l := p.Language; l != nil {
		ok := false
		for _, tag := range policyLanguages {
			ok = ok || l.Value == tag
		}
		if !ok {
			return Policy{}, fmt.Errorf("language: %q is not one of %s", l.Value, strings.Join(policyLanguages, ", "))
		}
	}
	if n := p.RequestsPerSecond; n != nil && (!(n.Value > 0) || n.Value > 1000 || math.IsInf(n.Value, 0)) {
		return Policy{}, fmt.Errorf("requests_per_second: the value must be a number above 0, up to 1000")
	}
	if x := p.Proxy; x != nil {
		switch x.Mode {
		case ProxySystem, ProxyNone:
		case ProxyManual, ProxyPAC:
			if err := checkPolicyURL(x.URL); err != nil {
				return Policy{}, fmt.Errorf("proxy: url %w", err)
			}
		default:
			return Policy{}, fmt.Errorf("proxy: mode %q is not one of system, none, manual, pac", x.Mode)
		}
	}
	for i, c := range p.Certificates {
		if strings.TrimSpace(c) == "" || strings.ContainsRune(c, 0) {
			return Policy{}, fmt.Errorf("certificates: entry %d is not a file path", i+1)
		}
	}
	return p, nil
}

// PolicyAccountKey is what matches a preset account to the user's own:
// the address without a closing slash, and the workspace.
func PolicyAccountKey(baseURL, workspace string) string {
	return strings.TrimRight(strings.TrimSpace(baseURL), "/") + "\x00" + strings.TrimSpace(workspace)
}

// workspaceText takes a workspace number written as text or as a number.
func workspaceText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		var n json.Number
		if err := json.Unmarshal(raw, &n); err != nil {
			return "", errors.New("workspace_id must be a whole number")
		}
		s = n.String()
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err != nil || n <= 0 || strconv.FormatInt(n, 10) != s {
		return "", fmt.Errorf("workspace_id %q must be a whole number above 0", s)
	}
	return s, nil
}

// checkPolicyURL refuses what is not an http(s) address of a server, or carries a password.
func checkPolicyURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return errors.New("is missing")
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" || u.Opaque != "":
		return fmt.Errorf("%q is not an address starting with https:// that names a server", raw)
	case u.User != nil:
		return fmt.Errorf("%q must not hold a name or password", raw)
	}
	return nil
}

func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return u.Host
	}
	return raw
}

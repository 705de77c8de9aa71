package storage

import (
	"errors"
	"io/fs"
	"strings"

	"golang.org/x/sys/windows/registry"
)

// registryPolicy is the "Policy" value under HKLM\key: one text (REG_SZ),
// or lines (REG_MULTI_SZ) joined; fs.ErrNotExist when there is none.
func registryPolicy(key string) ([]byte, error) {
	k, err := registry.OpenKey(registry.LOCAL_MACHINE, key, registry.QUERY_VALUE|registry.WOW64_64KEY)
	if errors.Is(err, registry.ErrNotExist) {
		return nil, fs.ErrNotExist
	}
	if err != nil {
		return nil, err
	}
	defer k.Close()
	text, _, err := k.GetStringValue("Policy")
	if errors.Is(err, registry.ErrUnexpectedType) {
		var lines []string
		lines, _, err = k.GetStringsValue("Policy")
		text = strings.Join(lines, "\n")
	}
	if errors.Is(err, registry.ErrNotExist) {
		return nil, fs.ErrNotExist
	}
	return []byte(text), err
}

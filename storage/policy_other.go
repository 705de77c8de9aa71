//go:build !windows

package storage

import "io/fs"

// registryPolicy: only Windows has a registry.
func registryPolicy(string) ([]byte, error) { return nil, fs.ErrNotExist }

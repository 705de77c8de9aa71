package app

import (
	"errors"
	"os"
)

// OwnerOnly makes a file from a Save dialog readable by the user only before
// anything is written: the dialog creates it world-readable. A file system
// without modes is left as it is; the file is still saved.
func OwnerOnly(f any) error {
	c, ok := f.(interface{ Chmod(os.FileMode) error })
	if !ok {
		return nil
	}
	err := c.Chmod(0o600)
	if errors.Is(err, os.ErrPermission) || errors.Is(err, errors.ErrUnsupported) {
		return nil
	}
	return err
}

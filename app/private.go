package app

import (
	"errors"
	"os"
)

// OwnerOnly makes a file a Save dialog gave readable by the user only
// (0600), before anything is written in it. The dialog creates the file as
// any new file (0644 on most computers: every account there may read it),
// and what Agent Desk saves, conversations, results and spending, is the
// user's. A file not on this computer's disk has no modes and is left as it
// is, and so is one on a file system that keeps none (a FAT memory stick
// refuses the change): the file is still saved.
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

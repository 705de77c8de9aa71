//go:build !linux

package app

import "context"

// HasPlayer reports whether this computer has a program that opens files
// of a kind; Windows and macOS always have one for videos and pictures.
func HasPlayer(ctx context.Context, ext string) bool { return true }

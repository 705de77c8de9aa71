//go:build !linux

package app

import "context"

// HasPlayer is always true: Windows and macOS have a player for videos and pictures.
func HasPlayer(ctx context.Context, ext string) bool { return true }

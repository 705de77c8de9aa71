package app

import (
	"context"
	"os/exec"
	"strings"
	"time"
)

// HasPlayer reports whether xdg-mime knows a program for files of extension
// ext, lest "Play video" silently do nothing. True when it cannot tell.
func HasPlayer(ctx context.Context, ext string) bool {
	typ := playerTypes[strings.ToLower(ext)]
	if typ == "" {
		return true
	}
	bin, err := exec.LookPath("xdg-mime")
	if err != nil {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "query", "default", typ)
	cmd.WaitDelay = time.Second // a child that keeps the output open is not waited for
	out, err := cmd.Output()
	if err != nil {
		return ctx.Err() != nil // a timeout cannot tell; a refusal says none
	}
	return strings.TrimSpace(string(out)) != ""
}

// playerTypes are the media types handed to the system's player, by extension.
var playerTypes = map[string]string{
	".mp4": "video/mp4", ".m4v": "video/mp4", ".webm": "video/webm",
	".mov": "video/quicktime", ".mkv": "video/x-matroska", ".avi": "video/x-msvideo",
	".ogv": "video/ogg", ".mpg": "video/mpeg", ".mpeg": "video/mpeg",
}

package demoservice

import _ "embed"

// richReply is a long reply using everything agents write (code, tables,
// quotes, footnotes, raw HTML, mixed scripts, about 19 kB).
//
//go:embed seeddata/rich-reply.md
var richReply string

// RichReply is the long reply sent when a chat asks for code, a table or a
// long answer.
func RichReply() string { return richReply }

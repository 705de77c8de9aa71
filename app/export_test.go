package app

// SetMaxReplyBytes lowers the most of a reply a keeps, before its first
// chat: the real 64 MiB takes long to send under the race detector.
func SetMaxReplyBytes(a *App, n int) { a.chat.maxReply = n }

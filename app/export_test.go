package app

import (
	"context"
	"io"

	"github.com/agentdesk/agentdesk/client"
)

// SetMaxReplyBytes lowers the most of a reply a keeps, before its first
// chat: the real 64 MiB takes long to send under the race detector.
func SetMaxReplyBytes(a *App, n int) { a.chat.maxReply = n }

// Item is one upload by id.
func (q *Uploads) Item(id int64) (Upload, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	it := q.item(id)
	if it == nil {
		return Upload{}, false
	}
	return it.u, true
}

// CheckPictureSize refuses a picture not shown or beyond MaxPicturePixels.
func CheckPictureSize(r io.Reader) error {
	_, _, err := readPictureHeader(r)
	return err
}

// FetchOutput returns the path of an output's local copy.
func (svc *Runs) FetchOutput(ctx context.Context, url string) (string, error) {
	out, err := svc.FetchOutputFile(ctx, "", url, nil)
	return out.Path, err
}

// Regenerate replaces the last reply with a new one.
func (s *ChatSession) Regenerate(ctx context.Context) error { return s.Retry(ctx) }

// Collections lists the known collections with their memory counts.
func (svc *Memories) Collections(ctx context.Context) ([]CollectionSummary, error) {
	out, _, err := svc.a.collectionSummaries(ctx)
	return out, err
}

// SaveDraft keeps an unsaved memory edit on this computer ("" clears it).
func (svc *Memories) SaveDraft(ctx context.Context, id, draft string) error {
	return svc.a.db.SaveMemoryDraft(ctx, svc.a.AccountID(), id, draft)
}

// HasMore reports whether another page may follow.
func (l *FileList) HasMore() bool { return l.state.Get().More }

// Wait blocks until no upload is waiting or sending.
func (q *Uploads) Wait(ctx context.Context) error {
	changed := make(chan struct{}, 1)
	stop := q.state.Subscribe(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	defer stop()
	for q.state.Get().Pending() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
		}
	}
	return nil
}

// Run runs batch id in the foreground (BatchRunner.Start's work).
func (r *BatchRunner) Run(ctx context.Context, id int64, agent client.Agent) error {
	return r.run(ctx, id, agent).Err
}

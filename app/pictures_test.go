package app_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/agentdesk/agentdesk/app/apptest"
)

// A picture shown again (a row rebuilt, a conversation reopened) is not
// fetched again; one that failed is tried again.
func TestAPictureIsFetchedOncePerSession(t *testing.T) {
	var hits atomic.Int32
	var pic bytes.Buffer
	_ = png.Encode(&pic, image.NewGray(image.Rect(0, 0, 8, 8)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/ok.png" {
			_, _ = w.Write(pic.Bytes())
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	a := apptest.Open(t)
	ctx := context.Background()
	for range 3 {
		if _, err := a.FetchPicture(ctx, srv.URL+"/ok.png"); err != nil {
			t.Fatal(err)
		}
		_, _ = a.FetchPicture(ctx, srv.URL+"/missing.png")
	}
	if got := hits.Load(); got != 4 {
		t.Fatalf("%d requests for one picture shown 3 times and a missing one tried 3 times, want 4", got)
	}
}

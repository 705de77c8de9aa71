package demoservice

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestConcurrentRequests executes in every mode, uploads, links, polls and
// switches faults from 50 goroutines at once; run with -race.
func TestConcurrentRequests(t *testing.T) {
	e := start(t, Options{Pace: time.Millisecond})
	const workers = 50
	var wg sync.WaitGroup
	errs := make(chan string, workers*4)
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			client := e.srv.Client()
			// send drains the answer to req; what names a request that must
			// answer 200. It reports whether req was sent.
			send := func(req *http.Request, what string) bool {
				res, err := client.Do(req)
				if err != nil {
					errs <- err.Error()
					return false
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if what != "" && res.StatusCode != 200 {
					errs <- what + " status " + res.Status
				}
				return true
			}
			switch i % 5 {
			case 0, 1:
				body := chatReq(map[string]any{"wait_execution": i%2 == 0}, "Concurrent question number "+itoa(i))
				send(e.request("POST", "/agents/101/execute", body), "execute")
			case 2:
				send(e.request("POST", "/agents/101/execute", chatReq(map[string]any{"stream": true}, "Stream "+itoa(i))), "")
			case 3:
				var buf bytes.Buffer
				mw := multipart.NewWriter(&buf)
				fw, _ := mw.CreateFormFile("file", "report-"+itoa(i)+".txt")
				fw.Write(bytes.Repeat([]byte{byte('a' + i%26)}, 1000+i))
				mw.Close()
				req := e.request("POST", "/files", buf.Bytes())
				req.Header.Set("Content-Type", mw.FormDataContentType())
				send(req, "upload")
			case 4:
				for _, p := range []string{"/agents?page=2", "/files", "/resources?q=report", "/webhooks", "/agents/101/files"} {
					if !send(e.request("GET", p, nil), "") {
						return
					}
				}
				res, err := client.Do(e.request("POST", "/memories", map[string]any{"memory": "note " + itoa(i)}))
				if err == nil {
					res.Body.Close()
				}
				e.svc.SetFaults(Faults{Latency: time.Duration(i%3) * time.Millisecond})
				_ = e.svc.Executions()
				_ = e.svc.Files()
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := len(e.svc.Executions()); n != 30 {
		t.Fatalf("%d executions recorded, want 30", n)
	}
	ids := map[int64]bool{}
	for _, r := range e.svc.Executions() {
		if ids[r.ID] {
			t.Fatalf("duplicate execution id %d", r.ID)
		}
		ids[r.ID] = true
	}
}

// TestCloseStopsBackgroundWork checks Close returns promptly while runs are
// in progress and that Server.Close shuts both down.
func TestCloseStopsBackgroundWork(t *testing.T) {
	srv, err := Listen("127.0.0.1:0", Options{Pace: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, svc: srv.Service}
	for i := 0; i < 5; i++ {
		req := e.requestTo(srv.URL(), "POST", "/agents/101/execute", chatReq(nil, "Long running "+itoa(i)))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	done := make(chan error, 1)
	go func() { done <- srv.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not stop the background runs")
	}
	for _, r := range srv.Service.Executions() {
		if r.Status == StatusCompleted {
			t.Fatalf("run %d completed after close", r.ID)
		}
	}
}

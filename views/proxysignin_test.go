package views

import (
	"context"
	"encoding/pem"
	"net/http/httptest"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/app"
	"github.com/agentdesk/agentdesk/app/apptest"
	"github.com/agentdesk/agentdesk/client"
	"github.com/agentdesk/agentdesk/client/demoservice"
	"github.com/agentdesk/agentdesk/internal/proxytest"
	"github.com/agentdesk/agentdesk/views/kit"
	"github.com/agentdesk/agentdesk/views/kit/kittest"
	"github.com/agentdesk/agentdesk/views/screen"
)

// A proxy asking for a sign-in gets one dialog; the user name and password
// typed there are kept, and the next call goes through.
func TestAProxyAskingForASignInIsAnsweredInOneDialog(t *testing.T) {
	test.NewTempApp(t)
	q := kit.UseQueue(t)
	svc := demoservice.New(demoservice.Options{APIKey: "k"})
	srv := httptest.NewTLSServer(svc)
	t.Cleanup(func() { srv.Close(); _ = svc.Close() })
	proxy := proxytest.New("maria", "s3cret")
	t.Cleanup(proxy.Close)
	a := apptest.OnURL(t, proxytest.Named(srv), func(c *app.Config) {
		cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
		c.Network = client.Network{Proxy: client.ProxyManual, ProxyURL: proxy.URL, Certificates: [][]byte{cert}}
		c.ClientOptions = append(c.ClientOptions, client.WithMaxRetries(0))
	})
	w := test.NewTempWindow(t, nil)
	w.Resize(fyne.NewSize(800, 600))
	askProxySignIn(screen.Env{App: a, Window: w}) // as the main window does
	NewShell(a, w)
	q.WaitUntil(t, func() bool { return dialogShowing(w, "Sign in to the proxy") }, func() string { return "no sign-in dialog" })
	if !dialogShowing(w, "asks for your user name and password") || !dialogShowing(w, proxy.Host()) {
		t.Fatal("the dialog should say which proxy asks, and why")
	}
	// More calls meet the proxy meanwhile: still one question.
	_, _ = a.Client().ListAgents(context.Background(), client.ListAgentsParams{})
	q.Drain()
	if n := len(w.Canvas().Overlays().List()); n != 1 {
		t.Fatalf("%d dialogs for one proxy", n)
	}
	kittest.Look(t, kittest.NewFrames(w.Canvas()), q, w, "the proxy sign-in dialog at 800x600")
	top := w.Canvas().Overlays().Top()
	entries := kittest.FindAll[*kit.FormEntry](top)
	if len(entries) != 2 || w.Canvas().Focused() != entries[0] || !entries[1].Password {
		t.Fatalf("want the user name focused and a hidden password: %d fields", len(entries))
	}
	test.Type(entries[0], "maria")
	test.Type(entries[1], "s3cret")
	test.Tap(kittest.FindButton(top, "Sign in"))
	q.WaitUntil(t, func() bool {
		_, err := a.Client().ListAgents(context.Background(), client.ListAgentsParams{})
		return err == nil
	}, func() string { return "the kept sign-in was not used" })
	if dialogShowing(w, "Sign in to the proxy") {
		t.Fatal("the dialog stays after signing in")
	}
}

package demoservice

import (
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Server is a Service listening on a TCP address.
type Server struct {
	// Service is the running service, for faults and inspection.
	Service *Service
	srv     *http.Server
	ln      net.Listener
	done    chan struct{}
}

// Listen starts a Service on addr (for example "127.0.0.1:0").
func Listen(addr string, opts Options) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	svc := New(opts)
	s := &Server{
		Service: svc,
		ln:      ln,
		done:    make(chan struct{}),
		srv:     &http.Server{Handler: svc, ReadHeaderTimeout: 10 * time.Second},
	}
	go func() {
		defer close(s.done)
		// Serve returns http.ErrServerClosed once Close is called.
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

// URL is the base URL of the service, e.g. "http://127.0.0.1:43121".
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// Close stops listening, ends connections and stops background work.
func (s *Server) Close() error {
	err := s.srv.Close()
	<-s.done
	if cerr := s.Service.Close(); err == nil {
		err = cerr
	}
	return err
}

// NewTestServer starts a Service on an httptest server, closed when the test ends.
func NewTestServer(t testing.TB, opts Options) *httptest.Server {
	t.Helper()
	ts, _ := NewTestService(t, opts)
	return ts
}

// NewTestService is NewTestServer also returning the Service.
func NewTestService(t testing.TB, opts Options) (*httptest.Server, *Service) {
	t.Helper()
	svc := New(opts)
	ts := httptest.NewServer(svc)
	t.Cleanup(func() {
		// Closing the service first releases handlers waiting on a run.
		_ = svc.Close()
		ts.Close()
	})
	return ts, svc
}

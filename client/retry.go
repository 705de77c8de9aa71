package client

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// retryableStatus: timeouts, conflicts, rate limits and server errors.
func retryableStatus(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooManyRequests:
		return true
	}
	return code >= 500 && code != http.StatusNotImplemented && code != http.StatusHTTPVersionNotSupported
}

// backoff is base × 2ⁿ, capped, minus up to a fifth of jitter.
func (cfg *config) backoff(attempt int) time.Duration {
	d := cfg.retryBase
	for i := 0; i < attempt && d < cfg.retryMax; i++ {
		d *= 2
	}
	d = min(d, cfg.retryMax)
	if d <= 0 {
		return 0
	}
	return d - time.Duration(rand.Int64N(int64(d)/5+1))
}

// parseRetryAfter reads a Retry-After header in seconds or as an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(min(secs, 24*3600) * float64(time.Second)), true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		t, err = time.Parse(time.RFC1123, v)
	}
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// sleepCtx waits for d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// lasting reports a network failure retrying will not mend: no such host,
// nothing listening, an untrusted certificate, a proxy that wants a sign-in.
func lasting(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return true
	}
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, ErrRedirectedAway) {
		return true
	}
	// The proxy's sign-in, address or script: the user or IT must act first.
	if _, ok := errors.AsType[*ProxyAuthError](err); ok || errors.Is(err, ErrProxyScript) || errors.Is(err, ErrProxyAddress) || errors.Is(err, errNTLMClosed) {
		return true
	}
	return badCertificate(err)
}

// badCertificate reports a certificate refused, or a server not speaking TLS.
func badCertificate(err error) bool {
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	var record tls.RecordHeaderError
	return errors.As(err, &unknown) || errors.As(err, &host) || errors.As(err, &invalid) || errors.As(err, &verify) || errors.As(err, &record)
}

// IsTLS reports that no secure connection could be set up (so nothing was
// sent); an answer quoting another server's TLS error is not one.
func IsTLS(err error) bool {
	if badCertificate(err) {
		return true
	}
	netErr, ok := errors.AsType[*NetworkError](err)
	if !ok || netErr.Err == nil {
		return false
	}
	msg := strings.ToLower(netErr.Err.Error())
	return strings.Contains(msg, "tls:") || strings.Contains(msg, "x509:")
}

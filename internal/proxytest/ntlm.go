package proxytest

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"
	"unicode/utf16"

	//lint:ignore SA1019 NTLM's password hash is MD4: checking it is the point
	"golang.org/x/crypto/md4"
)

// NewNTLM starts a proxy that opens a tunnel only once domain\user has
// signed in with NTLMv2 and password, offered as Negotiate and NTLM. As a
// Windows proxy does, it signs in a connection: the negotiate message, its
// challenge and the answer must all go over one.
func NewNTLM(domain, user, password string) *Proxy {
	p := newNTLM(domain, user, password)
	p.Start()
	return p
}

// NewNTLMTLS is NewNTLM reached over TLS (an https:// proxy), with the
// test certificate of httptest (Certificate).
func NewNTLMTLS(domain, user, password string) *Proxy {
	p := newNTLM(domain, user, password)
	p.StartTLS()
	return p
}

func newNTLM(domain, user, password string) *Proxy {
	p := &Proxy{user: user, password: password, domain: domain, ntlm: true}
	p.Server = httptest.NewUnstartedServer(http.HandlerFunc(p.serve))
	p.Config.ConnContext = func(ctx context.Context, _ net.Conn) context.Context {
		return context.WithValue(ctx, connKey{}, &ntlmConn{})
	}
	p.Config.ErrorLog = log.New(io.Discard, "", 0) // a test's untrusted certificate, say
	return p
}

// connKey holds a connection's *ntlmConn in its requests' contexts.
type connKey struct{}

// ntlmConn is a connection's sign-in: the challenge it was sent, if any.
// Only the connection's own goroutine uses it.
type ntlmConn struct{ challenge []byte }

// NTLM's message types and flags (MS-NLMP 2.2).
const (
	negotiateMessage    = 1
	challengeMessage    = 2
	authenticateMessage = 3

	flagUnicode          = 0x00000001
	flagRequestTarget    = 0x00000004
	flagNTLM             = 0x00000200
	flagAlwaysSign       = 0x00008000
	flagTargetTypeDomain = 0x00010000
	flagExtendedSecurity = 0x00080000
	flagTargetInfo       = 0x00800000
	flagVersion          = 0x02000000
	flag128              = 0x20000000
	flag56               = 0x80000000
)

var signature = []byte("NTLMSSP\x00")

// signedInNTLM answers r's sign-in step and reports whether the tunnel may open.
func (p *Proxy) signedInNTLM(w http.ResponseWriter, r *http.Request) bool {
	state, _ := r.Context().Value(connKey{}).(*ntlmConn)
	scheme, token := ntlmAuthorization(r.Header.Get("Proxy-Authorization"))
	msg, _ := base64.StdEncoding.DecodeString(token)
	switch {
	case state != nil && messageType(msg) == negotiateMessage:
		state.challenge = make([]byte, 8)
		_, _ = rand.Read(state.challenge)
		w.Header().Set("Proxy-Authenticate", scheme+" "+base64.StdEncoding.EncodeToString(NTLMChallenge(p.domain, [8]byte(state.challenge))))
		http.Error(w, "Continue signing in to the company proxy.", http.StatusProxyAuthRequired)
		return false
	case state != nil && messageType(msg) == authenticateMessage && state.challenge != nil:
		challenge := state.challenge
		state.challenge = nil // one answer per challenge
		if p.verifyNTLM(msg, challenge) {
			return true
		}
	}
	w.Header().Add("Proxy-Authenticate", "Negotiate")
	w.Header().Add("Proxy-Authenticate", "NTLM")
	http.Error(w, "Sign in to the company proxy.", http.StatusProxyAuthRequired)
	return false
}

// ntlmAuthorization splits a Proxy-Authorization of NTLM or Negotiate.
func ntlmAuthorization(h string) (scheme, token string) {
	scheme, token, _ = strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "NTLM") && !strings.EqualFold(scheme, "Negotiate") {
		return "", ""
	}
	return scheme, strings.TrimSpace(token)
}

func messageType(msg []byte) uint32 {
	if len(msg) < 12 || !bytes.Equal(msg[:8], signature) {
		return 0
	}
	return binary.LittleEndian.Uint32(msg[8:12])
}

// NTLMChallenge is the challenge message (type 2) the proxy sends for
// domain, with serverChallenge and its target information.
func NTLMChallenge(domain string, serverChallenge [8]byte) []byte {
	var info []byte
	pair := func(id uint16, value []byte) {
		info = binary.LittleEndian.AppendUint16(info, id)
		info = binary.LittleEndian.AppendUint16(info, uint16(len(value)))
		info = append(info, value...)
	}
	pair(2, utf16le(strings.ToUpper(domain)))                            // MsvAvNbDomainName
	pair(1, utf16le("PROXY"))                                            // MsvAvNbComputerName
	pair(4, utf16le(strings.ToLower(domain)+".example.com"))             // MsvAvDnsDomainName
	pair(3, utf16le("proxy."+strings.ToLower(domain)+".example.com"))    // MsvAvDnsComputerName
	pair(7, binary.LittleEndian.AppendUint64(nil, fileTime(time.Now()))) // MsvAvTimestamp
	pair(0, nil)                                                         // MsvAvEOL

	target := utf16le(strings.ToUpper(domain))
	const header = 56 // fixed fields and version
	msg := append([]byte(nil), signature...)
	msg = binary.LittleEndian.AppendUint32(msg, challengeMessage)
	msg = appendField(msg, len(target), header)
	msg = binary.LittleEndian.AppendUint32(msg, flagUnicode|flagRequestTarget|flagNTLM|flagAlwaysSign|
		flagTargetTypeDomain|flagExtendedSecurity|flagTargetInfo|flagVersion|flag128|flag56)
	msg = append(msg, serverChallenge[:]...)
	msg = append(msg, make([]byte, 8)...) // reserved
	msg = appendField(msg, len(info), header+len(target))
	msg = append(msg, 10, 0, 0x7c, 0x4f, 0, 0, 0, 15) // version: Windows 10.0.20348, NTLM revision 15
	msg = append(msg, target...)
	return append(msg, info...)
}

// appendField appends a field's length, its maximum and its offset.
func appendField(b []byte, n, offset int) []byte {
	b = binary.LittleEndian.AppendUint16(b, uint16(n))
	b = binary.LittleEndian.AppendUint16(b, uint16(n))
	return binary.LittleEndian.AppendUint32(b, uint32(offset))
}

// verifyNTLM checks an authenticate message (type 3) against challenge:
// its user is p's, and its NTLMv2 proof was made with p's password (MS-NLMP
// 3.3.2). NTLMv1 answers are refused, as today's Windows does.
func (p *Proxy) verifyNTLM(msg, challenge []byte) bool {
	field := func(at int) ([]byte, bool) {
		if len(msg) < at+8 {
			return nil, false
		}
		n := int(binary.LittleEndian.Uint16(msg[at:]))
		offset := int(binary.LittleEndian.Uint32(msg[at+4:]))
		if offset > len(msg) || n > len(msg)-offset {
			return nil, false
		}
		return msg[offset : offset+n], true
	}
	if len(msg) < 64 || binary.LittleEndian.Uint32(msg[60:])&flagUnicode == 0 {
		return false
	}
	nt, ok1 := field(20)
	domainField, ok2 := field(28)
	userField, ok3 := field(36)
	if !ok1 || !ok2 || !ok3 || len(nt) <= 16+28 {
		return false // an NTLMv2 response is its proof and a blob of at least 28 bytes
	}
	domain, user := fromUTF16LE(domainField), fromUTF16LE(userField)
	// user, with or without DOMAIN\ (sent apart), or user@domain.
	sameUser := strings.EqualFold(user, p.user) && (domain == "" || strings.EqualFold(domain, p.domain)) ||
		strings.EqualFold(user, p.user+"@"+p.domain) && domain == ""
	if !sameUser {
		return false
	}
	h := md4.New()
	h.Write(utf16le(p.password))
	ntowf := hmacMD5(h.Sum(nil), utf16le(strings.ToUpper(user)+domain))
	proof, blob := nt[:16], nt[16:]
	return blob[0] == 1 && blob[1] == 1 && hmac.Equal(proof, hmacMD5(ntowf, challenge, blob))
}

func hmacMD5(key []byte, data ...[]byte) []byte {
	m := hmac.New(md5.New, key)
	for _, d := range data {
		m.Write(d)
	}
	return m.Sum(nil)
}

func utf16le(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return b
}

func fromUTF16LE(b []byte) string {
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return string(utf16.Decode(u))
}

// fileTime is t in Windows' FILETIME: 100 ns since 1601.
func fileTime(t time.Time) uint64 {
	return uint64(t.UnixNano()/100) + 116444736000000000
}

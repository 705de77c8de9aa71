package proxytest

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"testing"
)

// authenticate is an authenticate message (type 3) of domain\user with nt
// as its NTLMv2 response.
func authenticate(domain, user string, nt []byte) []byte {
	d, u := utf16le(domain), utf16le(user)
	msg := append([]byte(nil), signature...)
	msg = binary.LittleEndian.AppendUint32(msg, authenticateMessage)
	msg = appendField(msg, 0, 64)                       // LM response
	msg = appendField(msg, len(nt), 64)                 // NT response
	msg = appendField(msg, len(d), 64+len(nt))          // domain
	msg = appendField(msg, len(u), 64+len(nt)+len(d))   // user
	msg = appendField(msg, 0, 64+len(nt)+len(d)+len(u)) // workstation
	msg = appendField(msg, 0, 64+len(nt)+len(d)+len(u)) // session key
	msg = binary.LittleEndian.AppendUint32(msg, flagUnicode|flagNTLM|flagExtendedSecurity)
	msg = append(msg, nt...)
	msg = append(msg, d...)
	return append(msg, u...)
}

// The proxy's check agrees with MS-NLMP's own NTLMv2 example (4.2.4), so
// that it tests the product's sign-in, not an agreement of two mistakes.
func TestNTLMv2CheckAsInTheSpec(t *testing.T) {
	unhex := func(s string) []byte {
		b, err := hex.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	serverChallenge := unhex("0123456789abcdef")
	targetInfo := unhex("02000c0044006f006d00610069006e0001000c005300650072007600650072000000" + "0000")
	blob := append(unhex("0101000000000000"+"0000000000000000"+"aaaaaaaaaaaaaaaa"+"00000000"), targetInfo...)
	blob = append(blob, 0, 0, 0, 0)
	proof := unhex("68cd0ab851e51c96aabc927bebef6a1c")
	nt := append(bytes.Clone(proof), blob...)

	p := &Proxy{domain: "Domain", user: "User", password: "Password"}
	if !p.verifyNTLM(authenticate("Domain", "User", nt), serverChallenge) {
		t.Fatal("the spec's answer is refused")
	}
	if p.verifyNTLM(authenticate("Domain", "User", nt), unhex("0123456789abcdee")) {
		t.Fatal("an answer to another challenge is taken")
	}
	wrong := &Proxy{domain: "Domain", user: "User", password: "password"}
	if wrong.verifyNTLM(authenticate("Domain", "User", nt), serverChallenge) {
		t.Fatal("an answer made with another password is taken")
	}
	if p.verifyNTLM(authenticate("Domain", "Other", nt), serverChallenge) {
		t.Fatal("another user is taken")
	}
	for n := range len(nt) + 64 {
		// Cut short anywhere, the message is refused without a panic.
		_ = p.verifyNTLM(authenticate("Domain", "User", nt)[:n], serverChallenge)
	}
}

package kit

import "net/url"

// SetLinkOpener replaces what opens links for the test's duration.
func SetLinkOpener(t interface{ Cleanup(func()) }, open func(*url.URL) error) {
	before := linkOpener
	linkOpener = open
	t.Cleanup(func() { linkOpener = before })
}

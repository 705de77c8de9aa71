package kit

import "net/url"

// SetLinkOpener replaces what opens links for the test's duration.
func SetLinkOpener(t interface{ Cleanup(func()) }, open func(*url.URL) error) {
	before := linkOpener
	linkOpener = open
	t.Cleanup(func() { linkOpener = before })
}

// SetFolderOpener replaces what opens folders for the test's duration.
func SetFolderOpener(t interface{ Cleanup(func()) }, open func(*url.URL) error) {
	before := folderOpener
	folderOpener = open
	t.Cleanup(func() { folderOpener = before })
}

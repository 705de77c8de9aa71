package screen

import "net/url"

// SetFolderOpener replaces what opens folders for the test's duration.
func SetFolderOpener(t interface{ Cleanup(func()) }, open func(*url.URL) error) {
	before := folderOpener
	folderOpener = open
	t.Cleanup(func() { folderOpener = before })
}

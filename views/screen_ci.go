//go:build ci

package views

import "fyne.io/fyne/v2"

// screenArea: the test driver has no screen; tests call fitScreen with one.
func screenArea(fyne.Window) (fyne.Size, bool) { return fyne.Size{}, false }

// watchDrags: the test driver has no desktop to drag from.
func watchDrags(fyne.Window, func() (string, bool)) func() { return func() {} }

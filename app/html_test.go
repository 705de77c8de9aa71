package app

import (
	"strings"
	"testing"
)

func TestMarkdownPageIsAWholePageWithoutTheTextsHTML(t *testing.T) {
	page := string(MarkdownPage("Minutes <Monday>", "# Minutes\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\n<script>alert(1)</script>\n\n~~old~~ **new** & more"))
	for _, want := range []string{"<!DOCTYPE html>", `<meta charset="utf-8">`, "<title>Minutes &lt;Monday&gt;</title>", "<h1>Minutes</h1>", "<table>", "<del>old</del>", "<strong>new</strong>", "&amp; more", "</html>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "<script>alert") {
		t.Fatal("HTML written in the text must not reach the page")
	}
	pics := string(MarkdownPage("p", "![the office plan](https://tracker.example/p.png?a=1&b=2) and ![x](javascript:alert(1))"))
	if strings.Contains(pics, "<img") || !strings.Contains(pics, `<a href="https://tracker.example/p.png?a=1&amp;b=2">[picture: the office plan]</a>`) ||
		strings.Contains(pics, "javascript:") {
		t.Fatalf("pictures should become links, never fetched nor run:\n%s", pics)
	}
}

// Any text from the service makes a page, never a panic.
func FuzzMarkdownPage(f *testing.F) {
	f.Add("t", "# a\n\n| x |\n|---|\n| y |\n\n[^1]\n\n[^1]: n")
	f.Add("", "<div>\n```\ncode")
	f.Fuzz(func(t *testing.T, title, md string) {
		page := string(MarkdownPage(title, md))
		if !strings.HasSuffix(page, "</html>\n") {
			t.Fatal("the page is not whole")
		}
	})
}

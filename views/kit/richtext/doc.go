// Package richtext shows Markdown a server sent: parsed under the link and
// picture rules, streamed block by block, with code blocks and pipe tables
// laid out as a browser would.
package richtext

// Package words holds Agent Desk's words in every language it speaks:
// lang/<part>.<language>.json, one file per part of the app (a package)
// and language (en, pt_BR, es), read by Fyne's lang package. Keys are the
// English words themselves (the English file repeats them, and holds the
// English plural forms); values are the translations.
//
// The code asks for words with lang.L("English words"), values shown in
// them as {{.Name}} (lang.L("Delete {{.Name}}?", map[string]any{"Name":
// name})), plurals with lang.N; never at package initialisation (the
// language is chosen when the app starts). docs/translating.md says how to
// add words and languages.
package words

import "embed"

// Files are the translation files, in lang/.
//
//go:embed lang
var Files embed.FS

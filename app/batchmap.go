package app

import (
	"strings"
	"time"
	"unicode"

	"github.com/agentdesk/agentdesk/client"
)

// Running an agent over a sheet: each row becomes one request, its
// columns matched to the agent's questions by name. What a row would be
// refused for is found here, before anything is sent.

// ColumnMap says which column (by index) answers each question, by the
// question's name; a question no column answers is absent.
type ColumnMap map[string]int

// MatchColumns matches a sheet's column names to agent's questions: a
// column answers the question it names, by the question's name or the
// label the form shows, whatever the case, spaces, "_" and "-" ("Due
// date", "due_date", "DUE-DATE"). Each column answers one question at
// most; the first of two alike wins.
func MatchColumns(agent client.Agent, header []string) ColumnMap {
	m := ColumnMap{}
	taken := map[int]bool{}
	for _, q := range FormQuestions(agent) {
		names := []string{columnKey(q.Name)}
		if l := QuestionLabel(q); l != "" {
			names = append(names, columnKey(l))
		}
		for i, h := range header {
			if taken[i] {
				continue
			}
			key := columnKey(h)
			if key == "" {
				continue
			}
			for _, n := range names {
				if key == n {
					m[q.Name], taken[i] = i, true
					break
				}
			}
			if _, ok := m[q.Name]; ok {
				break
			}
		}
	}
	return m
}

// columnKey is a name as columns are matched: letters and digits only,
// lower case.
func columnKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// MissingColumns are the required questions of agent that neither a
// column nor a fixed value answers: every row would be refused.
func MissingColumns(agent client.Agent, m ColumnMap, fixed map[string]string) []client.Question {
	var out []client.Question
	for _, q := range FormQuestions(agent) {
		if !q.Required {
			continue
		}
		if _, ok := m[q.Name]; ok {
			continue
		}
		if strings.TrimSpace(fixed[q.Name]) != "" {
			continue
		}
		out = append(out, q)
	}
	return out
}

// RowAnswers are the answers one row gives agent: each matched column's
// cell (a date as the service reads it), fixed values for the rest; and
// what is wrong with them, by question name (CheckAnswers), nil when the
// row can be sent.
func RowAnswers(agent client.Agent, m ColumnMap, fixed map[string]string, cells []string) (answers, problems map[string]string) {
	answers = map[string]string{}
	for name, v := range fixed {
		if strings.TrimSpace(v) != "" {
			answers[name] = v
		}
	}
	for _, q := range FormQuestions(agent) {
		i, ok := m[q.Name]
		if !ok || i < 0 || i >= len(cells) || cells[i] == "" {
			continue
		}
		v := cells[i]
		if q.Type == QuestionDate {
			v = SheetDate(v)
		}
		answers[q.Name] = v
	}
	return answers, CheckAnswers(agent, answers)
}

// sheetDateLayouts are the ways a date reaches Agent Desk from a sheet:
// as written (ISO, day first as Portuguese and Spanish write it, and
// English's day-first and month names), and as Excel shows a date cell by
// default (month first, two-digit year).
var sheetDateLayouts = []string{
	DateLayout, "2/1/2006", "02/01/2006", "2-1-2006", "2.1.2006", "2 Jan 2006", "2 January 2006",
	"01-02-06", "1-2-06", "2006/1/2",
}

// SheetDate is a date cell as the service reads dates (2026-11-25), or
// the cell as it is when it is no date Agent Desk recognises (the row's
// check then says so).
func SheetDate(cell string) string {
	s := strings.TrimSpace(cell)
	for _, layout := range sheetDateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format(DateLayout)
		}
	}
	return cell
}
